"""The camera as the companion loop sees it: a frame, or None with the reason, never an exception.

The source is opened from its description (``opener``) and read in a thread of its own, so
a camera that hangs cannot hang the loop: no frame within ``stall_seconds`` and the source
is dropped. A source that fails in any way (cannot open, raises, hangs, sends a damaged
picture) is reopened with growing pauses (0.5 s doubling up to ``max_wait``), and
``status`` says what is going on for the amber light and the page. A recording that ran
out sets ``ended``.

    >>> from senet.vision.sources import SimulatedSource
    >>> feed = CameraFeed(lambda: SimulatedSource())
    >>> feed.read().shape, feed.status
    ((480, 640, 3), 'ok')
    >>> feed.close()
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from senet.vision.photos import MAX_PICTURE_PIXELS
from senet.vision.sources import EndOfFrames, FrameSource


@dataclass
class CameraFeed:
    opener: Callable[[], FrameSource]
    stall_seconds: float = 3.0
    max_wait: float = 5.0
    clock: Callable[[], float] = time.monotonic
    status: str = "connecting"
    #: A recording (video file, folder of pictures) has no more frames.
    ended: bool = False
    failures: int = 0
    _worker: _Reader | None = field(default=None, repr=False)
    _retry_at: float = 0.0

    def read(self) -> np.ndarray | None:
        """The next frame, or None while the camera is away (``status`` says why)."""
        if self.ended:
            return None
        if self._worker is None:
            if self.clock() < self._retry_at:
                return None
            self._worker = _Reader(self.opener)
        outcome = self._worker.next_frame(self.stall_seconds)
        if isinstance(outcome, EndOfFrames):
            self.ended, self.status = True, "the recording has no more frames"
            self._drop()
        elif isinstance(outcome, BaseException):
            self._lost(_reason(outcome))
        elif outcome is None:
            self._lost(f"no picture for {self.stall_seconds:g} s")
        elif not _looks_like_a_picture(outcome):
            self._lost("a damaged picture")
        else:
            self.status, self.failures = "ok", 0
            return outcome
        return None

    def close(self) -> None:
        self._drop()

    def _lost(self, reason: str) -> None:
        self._drop()
        self.failures += 1
        pause = min(self.max_wait, 0.5 * 2 ** (self.failures - 1))
        self.status = f"camera lost ({reason}); trying again in {pause:g} s"
        self._retry_at = self.clock() + pause

    def _drop(self) -> None:
        if self._worker is not None:
            self._worker.stop()
            self._worker = None


class _Reader:
    """One opened source read in its own thread, a frame at a time on request. A stuck read
    keeps only this thread: it closes its source and ends when the read comes back."""

    def __init__(self, opener: Callable[[], FrameSource]) -> None:
        self._opener = opener
        self._wanted, self._done, self._stopped = threading.Event(), threading.Event(), threading.Event()
        self._outcome: np.ndarray | BaseException | None = None
        threading.Thread(target=self._run, name="camera", daemon=True).start()

    def next_frame(self, timeout: float) -> np.ndarray | BaseException | None:
        """A frame, the exception reading it raised, or None when none came within ``timeout``."""
        self._done.clear()
        self._wanted.set()
        if not self._done.wait(timeout):
            return None
        return self._outcome

    def stop(self) -> None:
        self._stopped.set()
        self._wanted.set()

    def _run(self) -> None:
        source: FrameSource | None = None
        try:
            while True:
                self._wanted.wait()
                self._wanted.clear()
                if self._stopped.is_set():
                    return
                try:
                    if source is None:
                        source = self._opener()
                    self._outcome = source.read()
                except Exception as error:  # every failure of a camera is a reason to reopen it
                    self._outcome = error
                self._done.set()
        finally:
            if source is not None:
                try:
                    source.close()
                except Exception:  # a half-dead camera may fail to close; it is dropped either way
                    pass


def _looks_like_a_picture(frame: object) -> bool:
    return (isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
            and 16 <= frame.shape[0] and 16 <= frame.shape[1] and frame.shape[0] * frame.shape[1] <= MAX_PICTURE_PIXELS)


def _reason(error: BaseException) -> str:
    return str(error) or type(error).__name__
