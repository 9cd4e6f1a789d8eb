"""The tray's printed outline places it more exactly than the mat's markers.

The markers' homography may put the tray's far end up to 15 mm off where only a few markers
show (their corners found a pixel off, a lens that bends the picture), and the tray reader
compares each frame with the empty tray seen at calibration: a tray placed differently in
the two shows strips of "change" along its edges, where no stick lies. The tray is green
and the paper around it is not, so its four edges are found where, going out from the tray,
the green gives way to the paper. A line fitted to each edge (past the sticks lying over it)
and the corners where they meet correct the markers' place.

    >>> from senet.vision.camera_model import project
    >>> from senet.vision.mat import MatLayout
    >>> geometry = MatGeometry.from_dict(MatLayout.for_paper("a4").geometry(150))
    >>> outline = TrayOutline(geometry)
    >>> picture = np.full((1300, 1800, 3), 230, np.uint8)  # the mat seen from straight above
    >>> (left, top), (right, bottom) = geometry.tray[0], geometry.tray[2]
    >>> _ = cv2.rectangle(picture, (int(left), int(top)), (int(right), int(bottom)), (60, 150, 50), -1)
    >>> placed_off = np.array([[1.0, 0, 9], [0, 1, -6], [0, 0, 1]])  # 9 and 6 mat pixels off
    >>> fitted = outline.fit(picture, placed_off)
    >>> off = np.abs(project(fitted, geometry.tray) - geometry.tray).max() * 25.4 / 150  # mm
    >>> bool(off < MM_PER_PX / 2)  # within half a pixel of the view it is sought in
    True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from senet.vision.geometry import MatGeometry
from senet.vision.plane import LOG
from senet.vision.tray import MM_PER_PX
from senet.vision.warp import Warp

#: The outline is sought in a top view of the tray at the tray reader's scale (MM_PER_PX),
#: this many pixels each way of where the markers put each edge.
SEARCH = 24
#: The outline is sought again, up to ROUNDS times in all, until its corners lie within
#: SETTLED pixels of where the corrected homography puts them.
ROUNDS, SETTLED = 3, 0.3
#: The tray is told from the paper only where it is this much greener (log units).
TRAY_GREENER = 0.1
#: Edges are looked across every STEP pixels along them, from their ends inwards by CORNER
#: (where the next edge is).
STEP, CORNER = 2, 6
#: A look across an edge counts when the tray inside it is green: at least this share of the
#: way from the paper's greenness to the tray's.
GREEN_INSIDE = 0.6
#: Edge points within this many pixels of the fitted line agree with it; at least AGREEING
#: of the looks across an edge must, or the edge is left where the markers put it.
AGREE_PX, AGREEING = 1.0, 0.4


@dataclass
class TrayOutline:
    """Finds the tray's printed outline in frames of the mat, near where the markers put it."""

    geometry: MatGeometry
    #: The tray's size (width, height) in the top view.
    size: tuple[int, int] = field(init=False)
    _warp: Warp = field(init=False, repr=False)

    def __post_init__(self) -> None:
        quad = self.geometry.tray.astype(np.float32)
        px_per_mat_px = 25.4 / self.geometry.dpi / MM_PER_PX
        self.size = (round(float(np.linalg.norm(quad[1] - quad[0])) * px_per_mat_px),
                     round(float(np.linalg.norm(quad[3] - quad[0])) * px_per_mat_px))
        w, h = self.size
        self._corners = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32) + SEARCH
        self._to_mat = cv2.getPerspectiveTransform(self._corners, quad)
        self._from_mat = np.linalg.inv(self._to_mat)
        self._warp = Warp((w + 2 * SEARCH, h + 2 * SEARCH), cv2.BORDER_CONSTANT)

    def fit(self, frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
        """``homography`` (mat pixels to ``frame``'s) corrected so that the tray's corners
        lie where its edges show; each edge not found stays where ``homography`` puts it."""
        fitted = homography
        for _ in range(ROUNDS):
            found = self._corners_seen(frame, fitted)
            if found is None or not np.isfinite(found).all() or np.abs(found - self._corners).max() > SEARCH:
                break  # no tray, or lines that cannot be its edges (crossing far from where it was sought)
            correction = cv2.getPerspectiveTransform(self._corners, found)
            fitted = fitted @ self._to_mat @ correction @ self._from_mat
            if np.abs(found - self._corners).max() < SETTLED:
                break
        return fitted

    def _corners_seen(self, frame: np.ndarray, homography: np.ndarray) -> np.ndarray | None:
        """Where in the top view through ``homography`` the tray's corners are seen (float32,
        4 x 2); None where no green tray shows."""
        view = cv2.LUT(self._warp(frame, homography @ self._to_mat), LOG)
        green = view[..., 1] - (view[..., 0] + view[..., 2]) / 2
        w, h = self.size
        tray = float(np.median(green[SEARCH + 4 : SEARCH + h - 4, SEARCH + 4 : SEARCH + w - 4]))
        beside = np.concatenate([green[SEARCH : SEARCH + h, : SEARCH - 3].ravel(), green[SEARCH : SEARCH + h, SEARCH + w + 3 :].ravel()])
        paper = float(np.median(beside))
        if tray - paper < TRAY_GREENER:
            return None
        top, bottom = (_edge(green, paper, tray, SEARCH + at, outwards, w) for at, outwards in ((0, -1), (h, 1)))
        left, right = (_edge(green.T, paper, tray, SEARCH + at, outwards, h) for at, outwards in ((0, -1), (w, 1)))
        sides, ends = (left, right, right, left), (top, top, bottom, bottom)
        return np.array([_meet(side, end, corner) for side, end, corner in zip(sides, ends, self._corners)], np.float32)


def _edge(green: np.ndarray, paper: float, tray: float, at: int, outwards: int, length: int) -> tuple[float, float] | None:
    """The line (``offset``, ``slope``: row = offset + slope * column) where the tray's green
    ends, going ``outwards`` (-1 or 1) across the rows of ``green`` from near row ``at``, along
    ``length`` columns from SEARCH on; None where too few looks across it agree."""
    threshold, inside = (paper + tray) / 2, paper + GREEN_INSIDE * (tray - paper)
    rows = at - outwards * SEARCH + outwards * np.arange(2 * SEARCH)
    columns = np.arange(SEARCH + CORNER, SEARCH + length - CORNER, STEP)
    profiles = green[rows][:, columns]  # one column per look across the edge, from inside out
    below = profiles < threshold
    k = below.argmax(axis=0)  # the first pixel out of the green
    # Counted where the green shows inside (no stick lies over the edge there) and ends.
    seen = (np.median(profiles[:4], axis=0) >= inside) & below.any(axis=0) & (k > 0)
    k, looks = k[seen], np.flatnonzero(seen)
    if len(looks) < AGREEING * len(columns):
        return None
    inner, outer = profiles[k - 1, looks], profiles[k, looks]
    xs, ys = columns[seen].astype(float), rows[k - 1] + outwards * (inner - threshold) / (inner - outer)
    first, second = np.triu_indices(len(xs), 1)
    slope = float(np.median((ys[second] - ys[first]) / (xs[second] - xs[first])))  # past the looks that missed it
    offset = float(np.median(ys - slope * xs))
    for _ in range(2):
        agree = np.abs(ys - (offset + slope * xs)) < AGREE_PX
        if agree.sum() < AGREEING * len(columns):
            return None
        slope, offset = (float(value) for value in np.polyfit(xs[agree], ys[agree], 1))
    return offset, slope


def _meet(side: tuple[float, float] | None, end: tuple[float, float] | None, corner: np.ndarray) -> tuple[float, float]:
    """Where the tray's ``side`` edge (a line of x in y) meets its ``end`` edge (of y in x), an
    edge not found taken where the markers put it (through ``corner``)."""
    a, b = side if side is not None else (float(corner[0]), 0.0)  # x = a + b y
    c, d = end if end is not None else (float(corner[1]), 0.0)  # y = c + d x
    y = (c + d * a) / (1 - d * b)
    return a + b * y, y
