"""The board seen from straight above: the grid and a margin warped to a small top view.

Every square is ``SQUARE_PX`` pixels wide in this view, whatever the camera's distance or
the paper, so the piece finder works in one scale. The view shows the mat's plane: a
standing piece's base is where it stands, its top is pushed away from the point below
the camera (see :mod:`senet.vision.pose`).

    >>> from senet.vision.mat import MatLayout
    >>> from senet.vision.geometry import MatGeometry
    >>> plane = BoardPlane(MatGeometry.from_dict(MatLayout.for_paper("a3").geometry(150)))
    >>> plane.size, plane.square_origin(1), plane.square_origin(11)
    ((372, 162), (36.0, 36.0), (306.0, 66.0))
    >>> plane.cells[1]  # the squares of the grid's middle row, left to right
    array([20, 19, 18, 17, 16, 15, 14, 13, 12, 11])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from senet.vision.geometry import MatGeometry
from senet.vision.warp import Warp

#: A square's side in the top view. Fewer pixels read quicker, but the piece finder's rules
#: were weighed at 30. Of 400 hard generated cases (A3 and A4, seed 1): at 27 (5.5% fewer
#: instructions a frame), one clear picture was read a wrong board "ok"; at 24 (12% fewer), two
#: starts taken again were.
SQUARE_PX = 30
#: Room around the grid, in squares: pieces overhang their squares and tall tops lean out.
MARGIN_SQUARES = 1.2
LOG = np.log(np.arange(256, dtype=np.float32) + 1.0)
#: A channel this bright is clipped and its colour lost; where the empty mat showed it at most
#: CLIPPED_FROM, only something much brighter than the mat can have made it so (a pale stick's
#: side in the tray; on the field, see pieces.GLARE_FROM).
CLIPPED, CLIPPED_FROM = 250, 210


@dataclass
class BoardPlane:
    """Maps between the mat (mat pixels, mm) and the top view of the grid."""

    geometry: MatGeometry
    size: tuple[int, int] = field(init=False)
    #: Top-view pixels per mat pixel, and the mat pixel at the view's top-left corner.
    scale: float = field(init=False)
    origin: np.ndarray = field(init=False)
    #: The square at each row and column of the grid (3 x 10), and the grid's top-left pixel.
    cells: np.ndarray = field(init=False)
    grid_origin: tuple[int, int] = field(init=False)
    _warp: Warp = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.scale = SQUARE_PX / self.geometry.square_side_px
        corners = np.concatenate(list(self.geometry.squares.values()))
        margin = MARGIN_SQUARES * self.geometry.square_side_px
        self.origin = corners.min(axis=0) - margin
        extent = (corners.max(axis=0) + margin - self.origin) * self.scale
        self.size = (int(round(extent[0])), int(round(extent[1])))
        self._warp = Warp(self.size)
        x0, y0 = self.square_origin(1)
        self.grid_origin = (int(x0), int(y0))
        self.cells = np.zeros((3, 10), int)
        for square in range(1, 31):
            x, y = self.square_origin(square)
            self.cells[int(round((y - y0) / SQUARE_PX)), int(round((x - x0) / SQUARE_PX))] = square

    @property
    def mm_per_px(self) -> float:
        return 25.4 / self.geometry.dpi / self.scale

    def to_mat(self) -> np.ndarray:
        """3x3 matrix from top-view pixels to mat pixels."""
        return np.array([[1 / self.scale, 0, self.origin[0]], [0, 1 / self.scale, self.origin[1]], [0, 0, 1.0]])

    def from_mm(self, points_mm: np.ndarray) -> np.ndarray:
        """Top-view pixels of (N, 2) mat points given in mm."""
        return (np.asarray(points_mm, float) * self.geometry.dpi / 25.4 - self.origin) * self.scale

    def square_origin(self, square: int) -> tuple[float, float]:
        """Top-left corner of a square in the top view (the mat's squares are axis-aligned)."""
        x, y = (self.geometry.squares[square].min(axis=0) - self.origin) * self.scale
        return float(round(x, 1)), float(round(y, 1))

    def grid_part(self, image: np.ndarray, around: int = 0) -> np.ndarray:
        """The part of a top-view ``image`` over the grid, and ``around`` pixels more on every
        side, up to the margin (a view, not a copy)."""
        x0, y0 = self.grid_origin
        return image[y0 - around : y0 + 3 * SQUARE_PX + around, x0 - around : x0 + 10 * SQUARE_PX + around]

    def square_means(self, image: np.ndarray) -> np.ndarray:
        """Each square's mean of a top-view ``image`` (its channels averaged), for squares 1-30."""
        return self.part_square_means(self.grid_part(image))

    def part_square_means(self, part: np.ndarray) -> np.ndarray:
        """Each square's mean of an image of the grid's part (:meth:`grid_part`), for squares 1-30."""
        means = part_means(part)
        means = means.mean(axis=2) if means.ndim == 3 else means
        squares = np.zeros(31)
        squares[self.cells.ravel()] = means.ravel()
        return squares[1:]

    def warp(self, frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
        """The top view of a BGR frame, given the mat-pixel -> image homography."""
        return self._warp(frame, homography @ self.to_mat())

    def footprint(self, homography: np.ndarray) -> np.ndarray:
        """The top view's corners in the frame (4 x 2), given the mat-pixel -> image homography."""
        return self._warp.footprint(homography @ self.to_mat())


def part_means(part: np.ndarray) -> np.ndarray:
    """Each square's mean of an image of the grid's part (:meth:`BoardPlane.grid_part`), as
    the grid lies (3 x 10, and its channels); float32 images are averaged in place, others
    as float32 copies.

        >>> part_means(np.ones((3 * SQUARE_PX, 10 * SQUARE_PX), bool)).shape
        (3, 10)
    """
    return cv2.resize(part.astype(np.float32, copy=False), (10, 3), interpolation=cv2.INTER_AREA)


def colour_planes(view: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pixel: green over red, green over blue, and brightness, all in log units.

    The printed field is the greenest thing on the table: anything lying on it is less green
    than it over red (white, grey, wood, skin, brown) or over blue (blue, black), in shadow
    too. Blue against red, which warm and cold light move most, is their difference.
    """
    # A 3 x 3 mean, as JPEG's blocks and sensor noise average out: two passes of three (twice
    # as quick on floats as cv2.blur).
    logs = cv2.sepFilter2D(cv2.LUT(view, LOG), -1, _THIRDS, _THIRDS)
    over_red, over_blue, brightness = cv2.split(cv2.transform(logs, _PLANES))
    return over_red, over_blue, brightness


_THIRDS = np.full(3, 1 / 3, np.float32)
#: (blue, green, red) logs -> green over red, green over blue, brightness.
_PLANES = np.array([[0.0, 1.0, -1.0], [-1.0, 1.0, 0.0], [1 / 3, 1 / 3, 1 / 3]], np.float32)
