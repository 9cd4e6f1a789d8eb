"""The companion loop keeps going all day: cameras that fail in every way come back, errors
are survived, and games follow each other."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from senet.device.camera import CameraFeed
from senet.device.config import Config
from senet.device.loop import CompanionLoop
from senet.device.runtime import Runtime
from senet.device.service import build_runtime
from senet.engine.playout import random_game
from senet.vision.simulator import Scene
from senet.vision.sources import CameraError, EndOfFrames, SimulatedSource


class FailingCamera:
    """The simulated camera, failing in one way while ``failing`` is set."""

    def __init__(self, source: SimulatedSource, way: str, failing: threading.Event) -> None:
        self.source, self.way, self.failing = source, way, failing
        if way == "cannot open" and failing.is_set():
            raise CameraError("no camera on usb:0")

    def read(self) -> np.ndarray:
        if self.failing.is_set():
            if self.way in ("camera error", "cannot open"):  # unplugged: reading fails, and opening again
                raise CameraError("camera 0 gave no frame")
            if self.way == "other error":
                raise OSError(5, "Input/output error")
            if self.way == "damaged picture":
                return np.zeros((2, 3), np.float32)
            if self.way == "hangs":
                while self.failing.is_set():  # a read that does not come back while the camera is away
                    time.sleep(0.05)
        return self.source.read()

    def close(self) -> None:
        pass


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    runtime = build_runtime(Config(variant="netherworld", camera="simulator", settle_seconds=0.2, fps=30, store=str(tmp_path / "m.db")),
                            seed=2, autoplay=False, say=lambda line: None)
    yield runtime
    runtime.close()


def run_for(loop: CompanionLoop, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        loop.round()
        time.sleep(0.02)


@pytest.mark.parametrize("way", ["camera error", "other error", "damaged picture", "hangs", "cannot open"])
def test_a_camera_that_fails_shows_amber_and_a_throw_is_read_when_it_is_back(runtime: Runtime, way: str) -> None:
    assert runtime.table is not None
    failing = threading.Event()
    source = runtime.table.source
    runtime.camera.close()
    runtime.camera = CameraFeed(lambda: FailingCamera(source, way, failing), stall_seconds=0.4, max_wait=0.3)
    loop = CompanionLoop(runtime)
    run_for(loop, 0.3)
    failing.set()
    run_for(loop, 1.5)
    assert runtime.companion.lights.state()["amber"] and runtime.companion.trouble_kind == "no-picture"
    assert "camera lost" in runtime.state()["trouble"]
    failing.clear()
    source.scene = Scene(source.scene.board, (True, False, False, False))  # the first 1: dark starts
    run_for(loop, 2.5)
    assert runtime.companion.referee.game.started, runtime.companion.trouble
    assert not runtime.companion.lights.state()["amber"] and "throw" in [e["event"] for e in runtime.state()["log"]]


def test_an_error_in_a_round_is_reported_and_the_loop_goes_on(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    loop = CompanionLoop(runtime, said.append)
    step, calls = runtime.companion.step, []

    def fails_once(*args: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            raise ZeroDivisionError("a bug")
        return step(*args)

    monkeypatch.setattr(runtime.companion, "step", fails_once)
    monkeypatch.setattr("senet.device.loop.PAUSE_AFTER_ERROR", 0.0)
    worker = threading.Thread(target=loop.run)
    worker.start()
    deadline = time.monotonic() + 10
    while len(calls) < 6 and time.monotonic() < deadline:
        time.sleep(0.02)
    runtime.stop.set()
    worker.join(5)
    assert loop.errors == 1 and "ZeroDivisionError" in said[0] and len(calls) >= 6
    assert runtime.companion.trouble_kind != "error"  # cleared by the next good round


def test_closing_while_a_frame_is_read_lets_the_round_end_quietly(runtime: Runtime) -> None:
    """Ctrl-C (or a test's teardown) while the loop waits for a frame: the lights and the store
    close, and the frame that comes afterwards is dropped, not judged on closed devices."""
    reading, release = threading.Event(), threading.Event()
    source = runtime.table.source

    class SlowCamera:
        def read(self) -> np.ndarray:
            reading.set()
            release.wait(5)
            return source.read()

        def close(self) -> None:
            pass

    runtime.camera.close()
    runtime.camera = CameraFeed(SlowCamera, stall_seconds=5)
    said: list[str] = []
    loop = CompanionLoop(runtime, said.append)
    worker = threading.Thread(target=loop.run)
    worker.start()
    assert reading.wait(5)
    runtime.close()
    release.set()
    worker.join(5)
    assert not worker.is_alive() and loop.errors == 0 and said == []


def test_a_recording_that_ends_ends_the_loop_with_a_message(runtime: Runtime) -> None:
    frames = [runtime.table.source.read() for _ in range(3)]

    class Recording:
        def read(self) -> np.ndarray:
            if not frames:
                raise EndOfFrames("frames/")
            return frames.pop()

        def close(self) -> None:
            pass

    said: list[str] = []
    runtime.camera = CameraFeed(Recording)
    CompanionLoop(runtime, said.append).run()
    assert runtime.camera.ended and said == ["senet run: the recording has no more frames"]


def test_games_follow_each_other_in_simulation(tmp_path: Path) -> None:
    runtime = build_runtime(Config(variant="netherworld", camera="simulator", settle_seconds=0.2, fps=30, store=str(tmp_path / "m.db")),
                            seed=3, autoplay=True, say=lambda line: None)
    try:
        game = random_game("netherworld", 11)
        last = game.undo()  # the winning turn is still to be played
        runtime.set_position(game.position.board_text, last.player.label, last.throw)
        loop = CompanionLoop(runtime)
        deadline = time.monotonic() + 30
        store = runtime.companion.store
        while time.monotonic() < deadline and len(store.matches()) < 2:
            loop.round()
        first, second = store.matches()[1], store.matches()[0]
        assert first.winner == "dark" and first.ended_at is not None and second.ended_at is None
        assert runtime.table.board == runtime.companion.referee.expected_text  # the virtual board is set up again
    finally:
        runtime.close()


def test_every_variant_starts_in_simulation_without_an_illegal_move(tmp_path: Path) -> None:
    for variant in ("ludii-kendall", "kendall"):
        runtime = build_runtime(Config(variant=variant, camera="simulator", settle_seconds=0.2, fps=30), seed=1, autoplay=True,
                                say=lambda line: None)
        try:
            loop = CompanionLoop(runtime)
            deadline = time.monotonic() + 30
            while loop.moves < 2 and time.monotonic() < deadline:
                loop.round()
            assert loop.moves >= 2 and not any(e["event"] == "illegal" for e in runtime.state()["log"])
        finally:
            runtime.close()


def test_a_restart_sets_the_virtual_board_where_the_match_stands(tmp_path: Path) -> None:
    config = Config(variant="netherworld", camera="simulator", settle_seconds=0.2, fps=30, store=str(tmp_path / "m.db"))
    runtime = build_runtime(config, seed=1, autoplay=False, say=lambda line: None)
    board = "L.LDLDLDLD" + "." * 18 + "D."
    runtime.set_position(board, "light", 2)
    assert runtime.table is not None and runtime.table.board == board  # set by hand: the virtual pieces stand there too
    runtime.close()
    again = build_runtime(config, seed=1, autoplay=True, say=lambda line: None)
    try:
        assert again.table is not None and again.table.board == board
        assert again.companion.referee.game.current_throw == 2 and again.state()["turn"] == "light"
    finally:
        again.close()
