"""Where the time of a frame of the running companion goes, stage by stage, on one core.

Reads the frames of ``read_ms`` in ``bench/vision.py`` (pieces and sticks changed in every
frame) and prints ``vision-stages RESOLUTION read_ms=MEDIAN pieces_ms=MEDIAN tray_ms=MEDIAN
board_warp_ms=MEDIAN rest_ms=MEDIAN``: per frame, finding the pieces on the board's top view,
reading the tray (its own warp included), warping the board to its top view, and the rest
(checking that the markers are where they were, that the frame shows something new, the
motion, the answer). Medians of several runs; timing the stages adds a little to each
frame's time (``bench/vision.py`` gives it untimed). A change meant to make a frame quicker is
aimed where this says the time goes, and measured with ``bench/vision_instructions.py``.

    python bench/vision_stages.py [--runs 5] [--frames 40]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from senet.vision.geometry import known_mats
from senet.vision.reader import BoardReader

#: The stages timed: the name printed, and the part of the reader and its method.
STAGES = (("pieces", "pieces", "read"), ("pieces", "pieces", "reached_from"), ("tray", "tray", "read"), ("board_warp", "plane", "warp"))


def timed(method: Callable[..., Any], spent: dict[str, float], stage: str) -> Callable[..., Any]:
    """``method``, adding the seconds each call takes to ``spent[stage]``.

        >>> spent = {"double": 0.0}
        >>> timed(lambda x: 2 * x, spent, "double")(4), spent["double"] > 0
        (8, True)
    """
    def call(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            spent[stage] += time.perf_counter() - began
    return call


def stage_times(start: np.ndarray, pictures: list[np.ndarray], runs: int) -> dict[str, float]:
    """Median milliseconds per frame of each stage (and of the whole read, and the rest) over
    ``runs`` readings of the ``pictures``, the reader calibrated on the ``start`` picture."""
    reader = BoardReader(known_mats()[0])
    reader.calibrate(start)
    for picture in pictures:  # the reader's caches filled, as in a running companion
        reader.read(picture)
    spent = dict.fromkeys([name for name, _, _ in STAGES], 0.0)  # a stage may be timed in two methods
    for name, part, method in STAGES:
        owner = getattr(reader, part)
        setattr(owner, method, timed(getattr(owner, method), spent, name))
    per_run: dict[str, list[float]] = {name: [] for name in ["read", *spent, "rest"]}
    for _ in range(runs):
        spent.update(dict.fromkeys(spent, 0.0))
        began = time.perf_counter()
        for picture in pictures:
            reader.read(picture)
        whole = time.perf_counter() - began
        for name, seconds in [("read", whole), *spent.items(), ("rest", whole - sum(spent.values()))]:
            per_run[name].append(seconds / len(pictures) * 1000)
    return {name: statistics.median(values) for name, values in per_run.items()}


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from vision import arguments, frames

    args = arguments(__doc__)
    cv2.setNumThreads(1)
    for size in ((640, 480), (1280, 720)):
        start, pictures, *_ = frames(size, args.frames)
        medians = stage_times(start, pictures, args.runs)
        print(f"vision-stages {size[0]}x{size[1]} " + " ".join(f"{name}_ms={value:.2f}" for name, value in medians.items()), flush=True)


if __name__ == "__main__":
    main()
