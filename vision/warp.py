"""A perspective warp to a fixed-size view whose pixel map is kept while the camera stays put.

The board and the tray are warped from every frame with the same homography as long as the
camera does not move. ``cv2.warpPerspective`` works out where each view pixel comes from on
every call; the map kept in OpenCV's fixed-point form makes ``cv2.remap`` do the same warp
in about half the time.

    >>> warp = Warp((4, 2))
    >>> frame = np.arange(48, dtype=np.uint8).reshape(4, 4, 3)
    >>> shift = np.array([[1.0, 0, 0], [0, 1, 1], [0, 0, 1]])  # view (x, y) -> frame (x, y + 1)
    >>> warp(frame, shift)[:, :, 0]
    array([[12, 15, 18, 21],
           [24, 27, 30, 33]], dtype=uint8)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np


@dataclass
class Warp:
    """Warps frames to a view of ``size`` (width, height), given the view-to-frame homography."""

    size: tuple[int, int]
    border: int = cv2.BORDER_REPLICATE
    _homography: np.ndarray | None = field(default=None, repr=False)
    _maps: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)
    _coverage: tuple[tuple[int, int], np.ndarray] | None = field(default=None, repr=False)

    def __call__(self, frame: np.ndarray, view_to_frame: np.ndarray) -> np.ndarray:
        return cv2.remap(frame, *self._maps_for(view_to_frame), cv2.INTER_LINEAR, borderMode=self.border)

    def footprint(self, view_to_frame: np.ndarray) -> np.ndarray:
        """Where the view's corners lie in the frame (see :func:`corners_in_frame`): every view
        pixel is sampled from within a pixel of the outline they make."""
        return corners_in_frame(self.size, view_to_frame)

    def coverage(self, frame_shape: tuple[int, ...], view_to_frame: np.ndarray) -> np.ndarray:
        """1 where the view shows the frame (of ``frame_shape``), 0 where it lies beyond the
        frame's border (uint8); kept with the map.

            >>> Warp((4, 1)).coverage((2, 2), np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1]])).tolist()
            [[1, 1, 0, 0]]
        """
        maps = self._maps_for(view_to_frame)
        if self._coverage is None or self._coverage[0] != frame_shape[:2]:
            shown = cv2.remap(np.ones(frame_shape[:2], np.uint8), *maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
            self._coverage = (frame_shape[:2], shown)
        return self._coverage[1]

    def _maps_for(self, view_to_frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self._maps is None or self._homography is None or not np.array_equal(view_to_frame, self._homography):
            self._maps = self._build(view_to_frame)
            self._homography = np.array(view_to_frame, copy=True)
            self._coverage = None
        return self._maps

    def _build(self, view_to_frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        width, height = self.size
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
        points = np.stack([xs, ys, np.ones_like(xs)], axis=-1) @ np.asarray(view_to_frame, float).T
        with np.errstate(divide="ignore", invalid="ignore"):
            # Points behind the camera (w <= 0) come from nowhere: far outside the frame.
            w = np.where(points[..., 2] > 1e-12, points[..., 2], np.nan)
            map_x = np.nan_to_num(points[..., 0] / w, nan=-1e6).clip(-1e6, 1e6).astype(np.float32)
            map_y = np.nan_to_num(points[..., 1] / w, nan=-1e6).clip(-1e6, 1e6).astype(np.float32)
        return cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)


def corners_in_frame(size: tuple[float, float], to_frame: np.ndarray) -> np.ndarray:
    """The corners (4 x 2, frame pixels) of a rectangle of ``size`` (width, height) from the
    origin, mapped by the homography ``to_frame``; a corner behind the camera lies nowhere in
    the frame: infinite.

        >>> corners_in_frame((4, 2), np.array([[2.0, 0, 10], [0, 2, 20], [0, 0, 1]])).tolist()
        [[10.0, 20.0], [18.0, 20.0], [18.0, 24.0], [10.0, 24.0]]
        >>> bool(np.isinf(corners_in_frame((4, 2), np.array([[1.0, 0, 0], [0, 1, 0], [-1, 0, 1]]))).any())
        True
    """
    width, height = size
    corners = np.array([(0, 0, 1), (width, 0, 1), (width, height, 1), (0, height, 1)], np.float64) @ np.asarray(to_frame, float).T
    w = corners[:, 2:]
    return np.where(w > 1e-12, corners[:, :2] / np.where(w > 1e-12, w, 1.0), np.inf)
