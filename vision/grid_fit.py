"""The grid's printed lines place the mat more exactly than its markers.

The markers give the mat's place as a homography; where only the markers at one end are
found (the others in shade), or the lens bends the picture, the far end of the grid can be
most of a square off. The grid's own lines then say where it is: each crossing of two lines
is sought near where the markers put it, and a homography fitted to the crossings found
corrects the markers' (in rounds, as the far crossings come within reach). Where the markers
place the grid well, their place is kept: it fits the tray beside the grid too.

    >>> from senet.vision.camera_model import project
    >>> from senet.vision.geometry import MatGeometry
    >>> from senet.vision.mat import MatLayout
    >>> plane = BoardPlane(MatGeometry.from_dict(MatLayout.for_paper("a4").geometry(150)))
    >>> view = np.full((plane.size[1], plane.size[0]), 160, np.uint8)  # the grid seen from above
    >>> x0, y0 = plane.grid_origin
    >>> for k in range(11):
    ...     _ = cv2.line(view, (x0 + k * SQUARE_PX, y0), (x0 + k * SQUARE_PX, y0 + 3 * SQUARE_PX), 40)
    >>> for k in range(4):
    ...     _ = cv2.line(view, (x0, y0 + k * SQUARE_PX), (x0 + 10 * SQUARE_PX, y0 + k * SQUARE_PX), 40)
    >>> placed_off = np.array([[1, 0, 6.0], [0, 1, 0], [0, 0, 1]]) @ np.linalg.inv(plane.to_mat())  # 6 px
    >>> fitted = fit_to_grid(view, placed_off, plane)
    >>> corners = np.array([plane.grid_origin], float) + [(0, 0), (10 * SQUARE_PX, 3 * SQUARE_PX)]
    >>> bool(np.abs(project(fitted @ plane.to_mat(), corners) - corners).max() < 0.3)  # placed where it is
    True
"""

from __future__ import annotations

import cv2
import numpy as np

from senet.vision.plane import SQUARE_PX, BoardPlane

#: A crossing is sought this far (top-view pixels) each way from where it is expected, in up
#: to ROUNDS rounds, until the crossings lie within SETTLED pixels of where they are expected.
SEARCH, ROUNDS, SETTLED = 12, 3, 0.5
#: The markers placed the grid well when half its crossings lie within this many top-view
#: pixels of where they put them: their place is kept (it fits the tray beside the grid too).
PLACED = 1.5
#: A crossing is where a line this long each way (top-view pixels) runs darkest both ways.
ARM = 10
#: Crossings within this many top-view pixels of the fitted homography agree with it; at least
#: AGREEING must, in two rows at the least.
AGREE_PX, AGREEING = 2.0, 12
#: One corner of the grid at least stays within this many squares of where the markers put
#: it: a correction that moves every corner farther has found the lines of the squares beside
#: (a whole grid shifted by a square fits as well), and is not taken.
ANCHORED = 0.3


def fit_to_grid(gray: np.ndarray, homography: np.ndarray, plane: BoardPlane) -> np.ndarray:
    """``homography`` (mat pixels to the pixels of ``gray``, a picture of the mat) corrected by
    the grid's printed lines; as it was where too few of them show."""
    x0, y0 = plane.grid_origin
    expected = np.array([(x0 + i * SQUARE_PX, y0 + j * SQUARE_PX) for j in range(4) for i in range(11)], np.float32)
    corners = expected[[0, 10, 33, 43]].reshape(-1, 1, 2)
    to_mat = plane.to_mat()
    fitted = homography
    for attempt in range(ROUNDS):
        view = cv2.warpPerspective(gray, fitted @ to_mat, plane.size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
        found = _crossings(view.astype(np.float32), expected)
        correction, agreeing = cv2.findHomography(expected, found, cv2.RANSAC, AGREE_PX)
        if correction is None:
            return homography
        agree = agreeing.ravel() > 0
        if agree.sum() < AGREEING or len(set(expected[agree, 1])) < 2:
            return homography
        if attempt == 0 and np.median(np.abs(found[agree] - expected[agree]).max(axis=1)) < PLACED:
            return homography
        fitted = fitted @ to_mat @ correction @ np.linalg.inv(to_mat)
        if np.abs(found[agree] - expected[agree]).max() < SETTLED:
            break
    # How far the grid's corners moved from where the markers put them (top-view pixels).
    moved = cv2.perspectiveTransform(corners, np.linalg.inv(homography @ to_mat) @ fitted @ to_mat) - corners
    if np.linalg.norm(moved.reshape(-1, 2), axis=1).min() > ANCHORED * SQUARE_PX:
        return homography
    return fitted


def _crossings(view: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Where in the top view ``view`` (grey) each crossing expected at ``expected`` lies: the
    darkest crossing of a line each way within SEARCH of it."""
    dark = np.maximum(cv2.blur(view, (SQUARE_PX // 2 + 1,) * 2) - view, 0)  # darker than around
    across = cv2.boxFilter(dark, -1, (2 * ARM + 1, 1))
    down = cv2.boxFilter(dark, -1, (1, 2 * ARM + 1))
    crossing = np.minimum(across, down)
    height, width = crossing.shape
    found = expected.copy()
    for number, (x, y) in enumerate(expected.astype(int)):
        top, left = max(y - SEARCH, 0), max(x - SEARCH, 0)
        window = crossing[top : min(y + SEARCH + 1, height), left : min(x + SEARCH + 1, width)]
        if window.size:
            row, column = np.unravel_index(int(np.argmax(window)), window.shape)
            found[number] = (left + column + _vertex(window[row, column - 1 : column + 2]),
                             top + row + _vertex(window[row - 1 : row + 2, column]))
    return found


def _vertex(values: np.ndarray) -> float:
    """Where between its neighbours the middle of three values peaks (a parabola through
    them), or 0 at the window's edge.

        >>> _vertex(np.array([1.0, 3.0, 2.0]))
        0.166...
    """
    if len(values) != 3:
        return 0.0
    curve = values[0] - 2 * values[1] + values[2]
    return float(np.clip(0.5 * (values[0] - values[2]) / curve, -0.5, 0.5)) if curve < 0 else 0.0
