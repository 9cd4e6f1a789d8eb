"""How many CPU instructions the camera's reader runs for one frame, counted by valgrind.

On a shared machine a frame's time wanders by a third from run to run; the count of
instructions does not (it repeats to within 0.01%), so two versions of the reader are told
apart by a change of one percent. It is no time: memory and caches are left out. Needs
valgrind (its callgrind tool); the frames are those of ``bench/vision.py`` at 640x480,
rendered here and read in a child process run under valgrind, counting only the reads.

Prints ``vision-instructions 640x480 clear=MILLIONS hand=MILLIONS trace=MILLIONS`` (per
frame: frames of pieces and sticks, and frames with a hand reaching over the board into the
tray; and per tracing of the sticks as bars, of the trays of the first ten frames of pieces
and sticks, as ``trace_ms`` of ``bench/vision.py``); takes a few minutes.

    python bench/vision_instructions.py [--frames 40]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path

import numpy as np

#: The trays traced for ``trace``: those of the first frames of pieces and sticks, as ``bench/vision.py`` does.
TRACED = 10


def count(pictures: Path, kind: str, frames: int) -> float:
    """Millions of instructions per frame of the ``frames`` of ``kind`` read from the ``pictures`` file."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
                        sys.executable, __file__, "--read", str(pictures), kind], check=True, capture_output=True,
                       env={**os.environ, "PYTHONHASHSEED": "0"})  # the same hashing, run after run
        totals = re.search(r"^totals: (\d+)", out.read_text(), re.MULTILINE)  # not the header's summary: 0 when counting starts off
        assert totals is not None, "callgrind wrote no totals"
        return int(totals.group(1)) / frames / 1e6


def read(pictures: Path, kind: str) -> None:
    """Calibrate on the start picture and read the frames once untimed, then once counted
    (``trace``: trace the sticks in the trays of the first ten frames of pieces and sticks)."""
    import cv2

    from senet.vision.geometry import known_mats
    from senet.vision.reader import BoardReader

    cv2.setNumThreads(1)
    with np.load(pictures) as loaded:
        start, frames = loaded["start"], list(loaded["clear" if kind == "trace" else kind])
    reader = BoardReader(known_mats()[0])
    reader.calibrate(start)
    if kind == "trace":
        location = reader.locator.locate(frames[0])
        assert location is not None
        trays = [reader.tray.masks(frame, location.homography) for frame in frames[:TRACED]]
        work = [partial(reader.tray.bars.fit, tray.objects, tray.pale, tray.dark, tray.beside) for tray in trays]
    else:
        work = [partial(reader.read, frame) for frame in frames]
    for step in work:  # the reader's caches filled, as in a running companion
        step()
    subprocess.run(["callgrind_control", "--instr=on", str(os.getpid())], check=True, capture_output=True)
    for step in work:
        step()
    subprocess.run(["callgrind_control", "--instr=off", str(os.getpid())], check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--read", nargs=2, metavar=("PICTURES", "KIND"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.read:
        read(Path(args.read[0]), args.read[1])
        return
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        parser.exit(1, "valgrind is not installed (Debian: apt install valgrind)\n")
    sys.path.insert(0, str(Path(__file__).parent))
    from vision import frames

    start, pictures, hands, *_ = frames((640, 480), args.frames)
    with tempfile.TemporaryDirectory() as folder:
        saved = Path(folder) / "frames.npz"
        read_frames = {"clear": pictures, "hand": hands}
        np.savez(saved, start=start, **{kind: np.array(kind_frames) for kind, kind_frames in read_frames.items()})
        counts = {kind: count(saved, kind, len(kind_frames)) for kind, kind_frames in read_frames.items()}
        counts["trace"] = count(saved, "trace", min(TRACED, len(pictures)))
    print("vision-instructions 640x480 " + " ".join(f"{kind}={value:.2f}" for kind, value in counts.items()), flush=True)


if __name__ == "__main__":
    main()
