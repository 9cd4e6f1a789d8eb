"""Frame sources behind one interface, and reconnecting a lost camera."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from senet.vision.sources import (
    START_BOARD,
    CameraError,
    EndOfFrames,
    ImageFolderSource,
    Picamera2Source,
    SimulatedSource,
    VideoCaptureSource,
    open_source,
)

FRAME = np.zeros((48, 64, 3), np.uint8)


class FakeCapture:
    """Stands in for cv2.VideoCapture: a camera that can be unplugged."""

    def __init__(self, frames: int, opened: bool = True) -> None:
        self.frames, self.opened, self.released, self.settings = frames, opened, False, {}

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opened

    def set(self, key: int, value: float) -> None:
        self.settings[key] = value

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.frames <= 0:
            return False, None
        self.frames -= 1
        return True, FRAME

    def release(self) -> None:
        self.released = True


def test_usb_camera_asks_for_v4l2_and_the_size_and_reports_a_lost_camera() -> None:
    calls = []
    capture = FakeCapture(frames=1)

    def factory(*args: object) -> FakeCapture:
        calls.append(args)
        return capture

    source = VideoCaptureSource(0, (1280, 720), capture_factory=factory)
    assert calls == [(0, cv2.CAP_V4L2)]
    assert capture.settings == {cv2.CAP_PROP_FRAME_WIDTH: 1280, cv2.CAP_PROP_FRAME_HEIGHT: 720}
    assert source.read() is FRAME
    with pytest.raises(CameraError, match="gave no frame"):
        source.read()
    source.close()
    assert capture.released


def test_unplugged_camera_says_so() -> None:
    with pytest.raises(CameraError, match="plugged in"):
        VideoCaptureSource(3, capture_factory=lambda *a: FakeCapture(0, opened=False))


def test_video_file_ends() -> None:
    source = VideoCaptureSource("game.mp4", capture_factory=lambda *a: FakeCapture(frames=0))
    with pytest.raises(EndOfFrames):
        source.read()


def test_picamera2_is_configured_for_bgr_frames() -> None:
    log = []

    class FakeCamera:
        def create_video_configuration(self, main: dict) -> dict:
            return {"main": main}

        def configure(self, config: dict) -> None:
            log.append(config)

        def start(self) -> None:
            log.append("start")

        def capture_array(self, stream: str) -> np.ndarray:
            return np.zeros((720, 1280, 4), np.uint8)

        def stop(self) -> None:
            log.append("stop")

        def close(self) -> None:
            log.append("close")

    source = Picamera2Source(module=SimpleNamespace(Picamera2=FakeCamera))
    assert log == [{"main": {"size": (1280, 720), "format": "RGB888"}}, "start"]
    assert source.read().shape == (720, 1280, 3)
    source.close()
    assert log[-2:] == ["stop", "close"]


def test_missing_picamera2_explains_how_to_install_it() -> None:
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        Picamera2Source()


def test_image_folder_in_name_order_skipping_other_files(tmp_path: Path) -> None:
    for name, value in (("frame_002.png", 2), ("frame_001.png", 1), ("notes.txt", 0)):
        path = tmp_path / name
        if name.endswith(".png"):
            cv2.imwrite(str(path), np.full((8, 8, 3), value, np.uint8))
        else:
            path.write_text("not a frame")
    (tmp_path / "frame_003.jpg").write_bytes(b"broken")
    source = ImageFolderSource(tmp_path)
    assert [p.name for p in source.paths] == ["frame_001.png", "frame_002.png", "frame_003.jpg"]
    assert source.read()[0, 0, 0] == 1 and source.read()[0, 0, 0] == 2
    with pytest.raises(CameraError, match="not a readable picture"):
        source.read()
    with pytest.raises(EndOfFrames):
        source.read()
    with pytest.raises(CameraError, match="not a folder"):
        ImageFolderSource(tmp_path / "missing")


def test_simulated_source_and_names() -> None:
    source = open_source("simulator")
    assert isinstance(source, SimulatedSource)
    assert source.read().shape == (480, 640, 3)
    with pytest.raises(ValueError, match="unknown camera"):
        open_source("webcam")


def test_the_locator_refines_over_frames_and_survives_a_covered_marker() -> None:
    from senet.vision.geometry import BoardLocator, known_mats
    from senet.vision.mat import MatLayout
    from senet.vision.simulator import Conditions, Scene, Simulator

    simulator, rng = Simulator(MatLayout.for_paper("a3")), np.random.default_rng(3)
    conditions = Conditions.plain()
    locator = BoardLocator(known_mats()[0])
    frames = [simulator.render(Scene(START_BOARD), conditions, rng) for _ in range(4)]
    for frame in frames:
        locator.refresh(frame)
    assert {count for _, count in locator._averages.values()} == {4}  # eight markers, four frames each
    covered = frames[0].copy()
    top_left = locator.location.homography @ np.array([*known_mats()[0].markers[0][0], 1.0])
    x, y = (top_left[:2] / top_left[2]).astype(int)
    covered[max(0, y - 5) : y + 40, max(0, x - 5) : x + 40] = (150, 120, 100)  # a hand over marker 0
    locator.refresh(covered)
    assert locator.location is not None and 0 in locator.location.marker_ids  # still fitted from its average
