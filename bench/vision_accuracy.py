"""Accuracy of the camera's reader on generated hard pictures (see senet.vision.testset).

Prints, per paper, how many start pictures calibrated, how many pictures were read
"ok", how many boards and throws were right or wrong, and how many hands were caught:

    python bench/vision_accuracy.py [--cases 100] [--seed 1]
"""

from __future__ import annotations

import argparse

from senet.vision.testset import tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for paper in ("a3", "a4"):
        counts = tally(paper, args.cases, args.seed)
        print(f"vision-accuracy {paper} cases={args.cases} " + " ".join(f"{k}={v}" for k, v in counts.items()), flush=True)


if __name__ == "__main__":
    main()
