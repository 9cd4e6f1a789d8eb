"""How well the camera's reader learns the pieces' size from the start picture, and places
their bases, on generated hard pictures (see senet.vision.testset).

A tilted camera sees a standing piece's top away from its base: the reader takes the lean off
what it sees to place the base, by the height it learnt. A height learnt wrong moves every
base of the picture the same way, which near a line puts a piece surely on the square
beside. Prints, per paper, over the calibrated start pictures whose camera is tilted more than
``--tilt`` degrees, the median error of the learnt height (mm, and as a share of the true
height), the share of them off by more than half the true height, and the median error of
the learnt base radius (mm); then, over the pieces found on their squares in those cases'
pictures without a hand, the error of the bases placed (median, 90th and 99th percentile, mm)
and the share of bases farther off (along x or y) than two and three times the spread the
reader gives them, which decides how near a line a piece is a '?' (were the spreads right,
about 0.09 and 0.005: the larger of two normal deviations):

    python bench/vision_shape.py [--cases 100] [--seed 1] [--tilt 12] [--paper a3]
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from senet.vision.mat import PAPERS
from senet.vision.reader import BoardReader
from senet.vision.testset import Case, calibrated_reader, hard_cases


def placement_errors(case: Case, reader: BoardReader) -> list[tuple[float, float]]:
    """For each piece the reader finds in ``case.picture`` on a square where one stands: how
    far its base is from the true one (mm), and that in its spreads (the larger of x and y)."""
    errors = []
    for piece in reader.read(case.picture).pieces:
        if piece.found <= 0.5 or case.board[piece.square - 1] == ".":
            continue
        true_x, true_y = case.base_in_view(piece.square, reader.plane)
        off_x, off_y = piece.x - true_x, piece.y - true_y
        errors.append((float(np.hypot(off_x, off_y)) * reader.plane.mm_per_px,
                       max(abs(off_x) / piece.spread[0], abs(off_y) / piece.spread[1])))
    return errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tilt", type=float, default=12.0, help="only cameras tilted more than this (degrees)")
    parser.add_argument("--paper", choices=PAPERS, action="append", help="only this paper (repeatable); default both")
    args = parser.parse_args()
    for paper in args.paper or PAPERS:
        heights, shares, radii, placed = [], [], [], []
        for case in hard_cases(paper, args.cases, args.seed):
            reader = calibrated_reader(case) if case.tilt_deg > args.tilt else None
            if reader is None:
                continue
            shape, (diameter, height) = reader.pieces.shape, case.piece_mm
            assert shape is not None
            heights.append(abs(shape.height_mm - height))
            shares.append(heights[-1] / height)
            radii.append(abs(shape.radius_mm - diameter / 2))
            if case.hand is None:
                placed += placement_errors(case, reader)
        if not heights:
            print(f"vision-shape {paper} cases={args.cases} tilted=0", flush=True)
            continue
        print(
            f"vision-shape {paper} cases={args.cases} tilted={len(heights)} height_error_mm={statistics.median(heights):.1f} "
            f"height_error_share={statistics.median(shares):.2f} off_by_half={sum(s > 0.5 for s in shares) / len(shares):.2f} "
            f"radius_error_mm={statistics.median(radii):.1f}",
            flush=True,
        )
        if placed:
            millimetres, spreads = np.array(placed).T
            print(
                f"vision-placement {paper} pieces={len(placed)} base_error_mm={np.median(millimetres):.2f} "
                f"p90_mm={np.percentile(millimetres, 90):.2f} p99_mm={np.percentile(millimetres, 99):.2f} "
                f"beyond_2_spreads={np.mean(spreads > 2):.3f} beyond_3_spreads={np.mean(spreads > 3):.4f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
