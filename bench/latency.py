"""Latency of the companion loop: from the first frame in which a move has settled to the LED change.

The settle time itself is excluded: the clock starts when the frame that completes the
settle time is handed to the loop and stops when the LEDs have been set. Prints the
median and the worst of several recorded moves:

    python bench/latency.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from senet.device.companion import Companion
from senet.device.lights import Lights, Wiring
from senet.engine.board import board_from_squares, format_board
from senet.engine.referee import Referee
from senet.vision.photos import calibrated_reader, read_image_file
from senet.vision.recording import record_session, start_picture
from senet.vision.simulator import Scene
from senet.vision.sources import START_BOARD


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    start = start_picture(folder / "start.png")
    moved = format_board(board_from_squares((2, 4, 6, 8, 13), (1, 3, 5, 7, 9)))
    up = (True, True, True, False)
    record_session(folder / "frames", [(Scene(START_BOARD), 1.0), (Scene(START_BOARD, up), 1.0), (Scene(moved, up), 1.0)])
    frames = [read_image_file(p)[0] for p in sorted((folder / "frames").iterdir())]
    times = []
    for _ in range(args.runs):
        lights = Lights(Wiring(), pin_factory=MockFactory())
        referee = Referee("netherworld")
        referee.throw(1)
        companion = Companion(referee, calibrated_reader(start, stream=True), lights)
        for index, frame in enumerate(frames):
            began = time.perf_counter()
            verdicts = companion.step(frame, index / 10)
            if any(v.event == "move" for v in verdicts):
                times.append((time.perf_counter() - began) * 1000)
                break
        lights.close()
    print(f"latency settle_to_led_ms median={statistics.median(times):.1f} max={max(times):.1f} runs={len(times)}")


if __name__ == "__main__":
    main()
