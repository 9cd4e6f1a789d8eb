"""The camera feed: a camera that is unplugged, hangs or sends garbage is reopened with
growing pauses, and the loop always gets a frame or a reason."""

from __future__ import annotations

import time

import numpy as np
from test_vision_sources import FRAME, FakeCapture

from senet.device.camera import CameraFeed
from senet.vision.sources import VideoCaptureSource


def test_an_unplugged_camera_is_reopened_with_growing_pauses() -> None:
    now = [0.0]
    plugged = [True]
    opened = []

    def opener() -> VideoCaptureSource:
        capture = FakeCapture(frames=2, opened=plugged[0])
        opened.append(capture)
        return VideoCaptureSource(0, capture_factory=lambda *args: capture)

    camera = CameraFeed(opener, clock=lambda: now[0])
    assert camera.read() is FRAME and camera.status == "ok"
    assert camera.read() is FRAME
    plugged[0] = False
    assert camera.read() is None and "camera lost" in camera.status  # the frames ran out: unplugged
    deadline = time.monotonic() + 2
    while not opened[0].released and time.monotonic() < deadline:
        time.sleep(0.01)
    assert opened[0].released
    waits = []
    for _ in range(5):
        before = camera._retry_at
        now[0] = before
        assert camera.read() is None
        waits.append(camera._retry_at - now[0])
    assert waits == [1.0, 2.0, 4.0, 5.0, 5.0]  # doubling, capped
    now[0] += 5.0
    assert camera.read() is None  # too early to try again
    plugged[0] = True
    now[0] = camera._retry_at
    assert camera.read() is FRAME and camera.status == "ok" and camera.failures == 0
    camera.close()


def test_a_camera_that_hangs_is_dropped_and_the_loop_gets_a_reason() -> None:
    class Hanging:
        def read(self) -> np.ndarray:
            time.sleep(0.5)
            return FRAME

        def close(self) -> None:
            pass

    camera = CameraFeed(Hanging, stall_seconds=0.1)
    began = time.monotonic()
    assert camera.read() is None and time.monotonic() - began < 0.4
    assert camera.status.startswith("camera lost (no picture for 0.1 s)")
    camera.close()
