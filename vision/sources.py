"""Frame sources, pluggable like gpiozero's pin factories.

Every source has ``read() -> frame`` (BGR, uint8) and ``close()``. ``read`` raises
:class:`CameraError` when the camera gives nothing and :class:`EndOfFrames` when a
recording has run out (the companion's camera feed, ``senet.device.camera``, reopens a
lost camera).

    >>> source = open_source("simulator")
    >>> source.read().shape
    (480, 640, 3)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from senet.vision.mat import MatLayout
from senet.vision.photos import read_image_file
from senet.vision.simulator import Conditions, Scene, Simulator, Style

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
START_BOARD = "LDLDLDLDLD" + "." * 20


class CameraError(RuntimeError):
    """The camera gave no frame (unplugged, busy, broken file)."""


class EndOfFrames(Exception):
    """A recording (video file, image folder) has no more frames."""


class FrameSource(Protocol):
    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...


class VideoCaptureSource:
    """A USB webcam (by index, through V4L2) or a video file, through OpenCV.

    ``capture_factory`` stands in for ``cv2.VideoCapture`` in tests.
    """

    def __init__(self, device: int | str, size: tuple[int, int] = (640, 480), capture_factory: Callable[..., Any] | None = None) -> None:
        factory = capture_factory or cv2.VideoCapture
        self.device = device
        self._file = isinstance(device, str)
        self._capture = factory(device) if self._file else factory(device, cv2.CAP_V4L2)
        if not self._capture.isOpened():
            raise CameraError(f"cannot open camera {device!r}: is it plugged in and free?")
        if not self._file:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> np.ndarray:
        ok, frame = self._capture.read()
        if not ok or frame is None:
            if self._file:
                raise EndOfFrames(str(self.device))
            raise CameraError(f"camera {self.device!r} gave no frame")
        return frame

    def close(self) -> None:
        self._capture.release()


class Picamera2Source:
    """The Raspberry Pi camera module through picamera2 (installed from apt on the Pi).

    picamera2 is imported only here; ``module`` stands in for it in tests.
    """

    def __init__(self, size: tuple[int, int] = (1280, 720), module: Any = None) -> None:
        if module is None:
            try:
                module = importlib.import_module("picamera2")
            except ImportError as error:
                raise CameraError(
                    "picamera2 is not installed: on the Pi, 'sudo apt install python3-picamera2' and make the "
                    "virtualenv with --system-site-packages"
                ) from error
        try:
            self._camera = module.Picamera2()
            # "RGB888" hands out pixels in B, G, R order: what OpenCV expects.
            self._camera.configure(self._camera.create_video_configuration(main={"size": size, "format": "RGB888"}))
            self._camera.start()
        except Exception as error:  # picamera2 raises plain RuntimeError/IndexError when no camera is found
            raise CameraError(f"cannot start the Pi camera: {error}") from error

    def read(self) -> np.ndarray:
        try:
            return np.ascontiguousarray(self._camera.capture_array("main")[:, :, :3])
        except Exception as error:
            raise CameraError(f"the Pi camera stopped: {error}") from error

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()


class ImageFolderSource:
    """The pictures of a folder, in name order (a recorded game, for replay)."""

    def __init__(self, folder: Path) -> None:
        if not folder.is_dir():
            raise CameraError(f"{folder} is not a folder of pictures")
        self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise CameraError(f"{folder} has no pictures ({', '.join(sorted(IMAGE_SUFFIXES))})")
        self._next: Iterator[Path] = iter(self.paths)

    def read(self) -> np.ndarray:
        path = next(self._next, None)
        if path is None:
            raise EndOfFrames(str(path))
        frame, problem = read_image_file(path)
        if frame is None:  # this frame is skipped; the next read goes on with the next picture
            raise CameraError(f"not a readable picture: {problem}")
        return frame

    def close(self) -> None:
        self._next = iter(())


@dataclass
class SimulatedSource:
    """The simulator as a camera: renders whatever scene it is given, every read."""

    layout: MatLayout = field(default_factory=lambda: MatLayout.for_paper("a3"))
    conditions: Conditions = field(default_factory=Conditions.plain)
    style: Style = field(default_factory=Style)
    scene: Scene = field(default_factory=lambda: Scene(START_BOARD))
    seed: int = 0

    def __post_init__(self) -> None:
        self._simulator = Simulator(self.layout)
        self._random = np.random.default_rng(self.seed)
        self._sticks: tuple[bool, ...] | None = None
        self._throws = 0

    def read(self) -> np.ndarray:
        if self.scene.sticks != self._sticks:  # thrown again: the sticks fall somewhere else
            self._sticks, self._throws = self.scene.sticks, self._throws + 1
        fell = np.random.default_rng([self.seed, self._throws])  # ...and lie there while they are not touched
        return self._simulator.render(self.scene, self.conditions, self._random, self.style, sticks_rng=fell)

    def close(self) -> None:
        pass


CAMERA_FORMS = "auto, simulator, picamera2, usb:N, video:FILE or folder:DIR"


def parse_camera(description: str) -> tuple[str, str]:
    """The kind of camera a description names, and its argument; ValueError naming the forms that exist.

    >>> parse_camera("usb:1"), parse_camera("folder:frames"), parse_camera("simulator")
    (('usb', '1'), ('folder', 'frames'), ('simulator', ''))
    >>> parse_camera("usb:front")
    Traceback (most recent call last):
    ValueError: camera 'usb:front': usb needs a camera number such as usb:0
    >>> parse_camera("webcam")
    Traceback (most recent call last):
    ValueError: unknown camera 'webcam': use auto, simulator, picamera2, usb:N, video:FILE or folder:DIR
    """
    kind, colon, argument = description.partition(":")
    if kind in ("auto", "simulator", "picamera2") and not colon:
        return kind, ""
    if kind == "usb" and not colon:
        return kind, "0"
    if kind == "usb" and argument.isascii() and argument.isdigit():
        return kind, argument
    if kind == "usb":
        raise ValueError(f"camera {description!r}: usb needs a camera number such as usb:0")
    if kind in ("video", "folder") and argument:
        return kind, argument
    if kind in ("video", "folder"):
        example = "video:game.mp4" if kind == "video" else "folder:frames"
        raise ValueError(f"camera {description!r}: {kind} needs a path after the colon, such as {example}")
    raise ValueError(f"unknown camera {description!r}: use {CAMERA_FORMS}")


def open_source(spec: str, size: tuple[int, int] = (1280, 720)) -> FrameSource:
    """A source from its description: ``simulator``, ``picamera2``, ``usb:N``, ``video:FILE``, ``folder:DIR``;
    ``size`` is the picture a camera (picamera2, usb) is asked for.

    ``auto`` (the Pi camera when there is one) is the companion's choice, not a source.
    """
    kind, argument = parse_camera(spec)
    if kind == "simulator":
        return SimulatedSource()
    if kind == "picamera2":
        return Picamera2Source(size)
    if kind == "usb":
        device = Path(f"/dev/video{int(argument)}")
        if not device.exists():  # OpenCV would only print warnings; say plainly what is missing
            raise CameraError(f"there is no {device}: no USB camera {int(argument)} is plugged in")
        return VideoCaptureSource(int(argument), size)
    if kind == "video":
        if not Path(argument).is_file():
            raise CameraError(f"there is no video file {argument}")
        return VideoCaptureSource(argument)
    if kind == "folder":
        return ImageFolderSource(Path(argument))
    raise ValueError(f"camera {spec!r}: 'auto' is chosen by the companion (senet run), not opened as a source")
