"""Frames that show nothing new: the reader answers them as it answered the last frame it read.

Between moves nothing at the table moves, and most frames show what the frame before showed.
Each frame is compared with the last frame read, as the means of blocks of 4 x 4 pixels
(the camera's noise averages out in them): a frame whose every block lies within
STILL_LEVELS of that frame's shows the same pieces and sticks, and gets the same answer
without being read again. Anything put down, lifted, turned or reaching in moves some block
by far more, and that frame is read. Only the part of the frame the answer was read from is
compared (the mat, with what lies around it: a visitor walking past the table beyond it
changes no answer).

    >>> frames = StillFrames()
    >>> frame = np.full((48, 64, 3), 120, np.uint8)
    >>> frames.answer(frame) is None  # nothing read yet
    True
    >>> frames.keep(frame, "three pale sides up")
    >>> noisy = frame.copy(); noisy[::2, ::2] += 20  # noise: a block moves by 5 levels
    >>> frames.answer(noisy)
    'three pale sides up'
    >>> moved = frame.copy(); moved[8:16, 8:16] = 30  # a piece put down
    >>> frames.answer(moved) is None
    True
    >>> frames.keep(frame, "read from the left half", region=(0, 0, 32, 48))
    >>> frames.answer(moved) is None, frames.answer(np.where(frame > 0, 200, 0).astype(np.uint8)) is None
    (True, True)
    >>> beyond = frame.copy(); beyond[:, 40:] = 30  # something passes beyond the region
    >>> frames.answer(beyond)
    'read from the left half'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

import cv2
import numpy as np

#: Each halving of the frame makes a pixel the mean of 2 x 2: two make blocks of 4 x 4 pixels
#: (a piece spans three or more of them at 640x480).
HALVINGS = 2
#: How far (levels of 255) any block may move and the frame still show nothing new. Between
#: two pictures of a still scene, the camera's noise, JPEG and the light's flicker moved a block
#: by at most 26 (800 hard generated scenes at 640x480 and 1280x720; 20 in an independent
#: renderer's sequence of 456 still frames); lifting one piece moved some block by 43 or
#: more, turning one stick by 79 or more. A frame that moved more is read: noisier cameras
#: cost time, never a stale answer.
STILL_LEVELS = 30

Answer = TypeVar("Answer")
#: A part of a frame: its columns x0 to x1 and rows y0 to y1 (x1, y1 past the last).
Region = tuple[int, int, int, int]


@dataclass
class StillFrames(Generic[Answer]):
    """The last frame read, as block means of the part its answer was read from, and that answer."""

    _blocks: np.ndarray | None = field(default=None, repr=False)
    _answer: Answer | None = field(default=None, repr=False)
    #: The kept frame's shape and the part of it compared (None: all of it).
    _shape: tuple[int, ...] | None = field(default=None, repr=False)
    _region: Region | None = field(default=None, repr=False)
    #: The frame last compared, the part compared and its blocks (kept for :meth:`keep`, which
    #: usually follows).
    _compared: tuple[np.ndarray, Region | None, np.ndarray] | None = field(default=None, repr=False)

    def answer(self, frame: np.ndarray) -> Answer | None:
        """The answer kept, if ``frame`` shows nothing new since the frame it was for; else None."""
        blocks = self._blocks_of(_part(frame, self._region))
        self._compared = (frame, self._region, blocks)
        if self._blocks is None or frame.shape != self._shape:  # cut as the kept one was: blocks as many
            return None
        return self._answer if cv2.absdiff(blocks, self._blocks).max() <= STILL_LEVELS else None

    def keep(self, frame: np.ndarray, answer: Answer, region: Region | None = None) -> None:
        """``frame`` was read and got ``answer``, which depends on the pixels of ``region`` only
        (None: on the whole frame)."""
        compared = self._compared
        if compared is not None and compared[0] is frame and compared[1] == region:
            self._blocks = compared[2]
        else:
            self._blocks = self._blocks_of(_part(frame, region))
        self._answer, self._shape, self._region = answer, frame.shape, region

    def forget(self) -> None:
        """The reader changed (it learnt how things look): the next frame is read."""
        self._blocks, self._answer = None, None

    @staticmethod
    def _blocks_of(frame: np.ndarray) -> np.ndarray:
        """The frame's block means: bilinear at exactly half the size averages 2 x 2 pixels,
        several times quicker than ``INTER_AREA`` (and quicker still on a copy of a part of
        a frame than on the part in place)."""
        frame = np.ascontiguousarray(frame)
        for _ in range(HALVINGS):
            height, width = frame.shape[:2]
            frame = cv2.resize(frame, (max(1, width // 2), max(1, height // 2)), interpolation=cv2.INTER_LINEAR)
        return frame


def _part(frame: np.ndarray, region: Region | None) -> np.ndarray:
    """``region`` of ``frame`` (a view, not a copy), or all of it."""
    if region is None:
        return frame
    x0, y0, x1, y1 = region
    return frame[y0:y1, x0:x1]
