"""Frames that show nothing new: the reader answers them as it answered the last frame it read.

Between moves nothing at the table moves, and most frames show what the frame before showed.
Each frame is compared with the last frame read, as the means of blocks of 4 x 4 pixels
(the camera's noise averages out in them): a frame whose every block lies within
STILL_LEVELS of that frame's shows the same pieces and sticks, and gets the same answer
without being read again. Anything put down, lifted, turned or reaching in moves some block
by far more, and that frame is read.

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


@dataclass
class StillFrames(Generic[Answer]):
    """The last frame read, as block means, and the answer it got."""

    _blocks: np.ndarray | None = field(default=None, repr=False)
    _answer: Answer | None = field(default=None, repr=False)
    #: The frame last compared and its blocks (kept for :meth:`keep`, which usually follows).
    _compared: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    def answer(self, frame: np.ndarray) -> Answer | None:
        """The answer kept, if ``frame`` shows nothing new since the frame it was for; else None."""
        blocks = self._blocks_of(frame)
        self._compared = (frame, blocks)
        if self._blocks is None or self._blocks.shape != blocks.shape:
            return None
        return self._answer if cv2.absdiff(blocks, self._blocks).max() <= STILL_LEVELS else None

    def keep(self, frame: np.ndarray, answer: Answer) -> None:
        """``frame`` was read and got ``answer``."""
        compared = self._compared
        self._blocks = compared[1] if compared is not None and compared[0] is frame else self._blocks_of(frame)
        self._answer = answer

    def forget(self) -> None:
        """The reader changed (it learnt how things look): the next frame is read."""
        self._blocks, self._answer = None, None

    @staticmethod
    def _blocks_of(frame: np.ndarray) -> np.ndarray:
        """The frame's block means: bilinear at exactly half the size averages 2 x 2 pixels,
        several times quicker than ``INTER_AREA``."""
        for _ in range(HALVINGS):
            height, width = frame.shape[:2]
            frame = cv2.resize(frame, (max(1, width // 2), max(1, height // 2)), interpolation=cv2.INTER_LINEAR)
        return frame
