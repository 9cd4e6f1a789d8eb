"""A camera that fails for 4 seconds, five different ways, during a game in simulation.

For each way (read error, another error, a damaged picture, a read that hangs, a camera that
cannot be reopened) the loop runs, the camera fails for ``--seconds``, comes back, and the
sticks are thrown. Prints per way ``way=... amber_during=yes recovered_s=T throw_read=yes``:
how long after the camera came back the amber light went out, and whether the throw after
it was read (goal: yes for every way). The failing camera is the one the tests use.

    python bench/camera_faults.py [--seconds 4]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from test_loop import FailingCamera  # noqa: E402 - the tests' failing camera

from senet.device.camera import CameraFeed  # noqa: E402
from senet.device.config import Config  # noqa: E402
from senet.device.loop import CompanionLoop  # noqa: E402
from senet.device.service import build_runtime  # noqa: E402
from senet.vision.simulator import Scene  # noqa: E402

WAYS = ("camera error", "other error", "damaged picture", "hangs", "cannot open")


def one_way(way: str, seconds: float) -> str:
    config = Config(variant="netherworld", camera="simulator", settle_seconds=0.3, fps=20, store=str(Path(tempfile.mkdtemp()) / "m.db"))
    runtime = build_runtime(config, seed=1, autoplay=False, say=lambda line: None)
    assert runtime.table is not None
    source, failing = runtime.table.source, threading.Event()
    runtime.camera.close()
    runtime.camera = CameraFeed(lambda: FailingCamera(source, way, failing))
    loop = CompanionLoop(runtime)
    worker = threading.Thread(target=loop.run, daemon=True)
    worker.start()
    try:
        time.sleep(1.0)
        failing.set()
        time.sleep(seconds)
        amber = runtime.companion.lights.state()["amber"]
        failing.clear()
        back = time.monotonic()
        while runtime.companion.lights.state()["amber"] and time.monotonic() - back < 30:
            time.sleep(0.05)
        recovered = time.monotonic() - back
        source.scene = Scene(source.scene.board, (True, False, False, False))
        deadline = time.monotonic() + 10
        while not runtime.companion.referee.game.started and time.monotonic() < deadline:
            time.sleep(0.05)
        read = runtime.companion.referee.game.started
    finally:
        runtime.stop.set()
        worker.join(5)
        runtime.close()
    return f"way={way.replace(' ', '-')} amber_during={'yes' if amber else 'no'} recovered_s={recovered:.1f} throw_read={'yes' if read else 'no'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args()
    for way in WAYS:
        print(one_way(way, args.seconds), flush=True)


if __name__ == "__main__":
    main()
