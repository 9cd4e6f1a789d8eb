"""How well the camera's reader learns the pieces' size from the start picture, on generated
hard pictures (see senet.vision.testset).

A tilted camera sees a standing piece's top away from its base: the reader takes the lean off
what it sees to place the base, by the height it learnt. A height learnt wrong moves every
base of the picture the same way, which near a line puts a piece surely on the square
beside. Prints, per paper, over the calibrated start pictures whose camera is tilted more than
``--tilt`` degrees, the median error of the learnt height (mm, and as a share of the true
height), the share of them off by more than half the true height, and the median error of
the learnt base radius (mm):

    python bench/vision_shape.py [--cases 100] [--seed 1] [--tilt 12] [--paper a3]
"""

from __future__ import annotations

import argparse
import statistics

from senet.vision.mat import PAPERS
from senet.vision.testset import calibrated_reader, hard_cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tilt", type=float, default=12.0, help="only cameras tilted more than this (degrees)")
    parser.add_argument("--paper", choices=PAPERS, action="append", help="only this paper (repeatable); default both")
    args = parser.parse_args()
    for paper in args.paper or PAPERS:
        heights, shares, radii = [], [], []
        for case in hard_cases(paper, args.cases, args.seed):
            reader = calibrated_reader(case) if case.tilt_deg > args.tilt else None
            if reader is None:
                continue
            shape, (diameter, height) = reader.pieces.shape, case.piece_mm
            assert shape is not None
            heights.append(abs(shape.height_mm - height))
            shares.append(heights[-1] / height)
            radii.append(abs(shape.radius_mm - diameter / 2))
        if not heights:
            print(f"vision-shape {paper} cases={args.cases} tilted=0", flush=True)
            continue
        print(
            f"vision-shape {paper} cases={args.cases} tilted={len(heights)} height_error_mm={statistics.median(heights):.1f} "
            f"height_error_share={statistics.median(shares):.2f} off_by_half={sum(s > 0.5 for s in shares) / len(shares):.2f} "
            f"radius_error_mm={statistics.median(radii):.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
