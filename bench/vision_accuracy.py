"""Accuracy of the camera's reader on generated hard pictures (see senet.vision.testset).

Prints, per paper, how many pictures were read, how many boards and throws were right
or wrong, and how many hands were caught:

    python bench/vision_accuracy.py [--cases 100] [--seed 1]
"""

from __future__ import annotations

import argparse

from senet.vision.geometry import choose_mat, known_mats
from senet.vision.reader import BoardReader, NoBoardError
from senet.vision.squares import CalibrationError
from senet.vision.testset import hard_cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for paper in ("a3", "a4"):
        t = dict.fromkeys(
            ["calibrated", "clear", "ok", "boards_right", "boards_wrong", "throws_right", "throws_wrong",
             "throws_unread", "hands", "hands_occluded", "hands_no_board"], 0)
        for case in hard_cases(paper, args.cases, args.seed):
            geometry = choose_mat(case.start, known_mats())
            if geometry is None:
                continue
            reader = BoardReader(geometry)
            try:
                reader.calibrate(case.start)
            except (NoBoardError, CalibrationError):
                continue
            t["calibrated"] += 1
            seen = reader.read(case.picture)
            if case.hand:
                t["hands"] += 1
                t["hands_occluded"] += seen.status == "occluded"
                t["hands_no_board"] += seen.status == "no-board"
            else:
                t["clear"] += 1
            if seen.status != "ok":
                continue
            t["ok"] += 1
            t["boards_right" if seen.board == case.board else "boards_wrong"] += 1
            if seen.light_up is None:
                t["throws_unread"] += 1
            else:
                t["throws_right" if seen.light_up == case.light_up else "throws_wrong"] += 1
        print(f"vision-accuracy {paper} cases={args.cases} " + " ".join(f"{k}={v}" for k, v in t.items()), flush=True)


if __name__ == "__main__":
    main()
