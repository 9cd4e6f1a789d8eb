"""Where the reader looks: sample points on each square, on the paper around the grid and tray.

Points are placed once in mat pixels; each frame maps them through the homography and
reads the pixels there, so a frame costs a few thousand pixel reads, not an image warp.

    >>> from senet.vision.mat import MatLayout
    >>> from senet.vision.geometry import MatGeometry
    >>> points = SamplePoints.build(MatGeometry.from_dict(MatLayout.for_paper("a3").geometry(150)))
    >>> points.centres.shape, points.corners.shape
    ((30, 21, 2), (30, 4, 4, 2))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from senet.vision.camera_model import project
from senet.vision.geometry import MatGeometry

_STEPS = np.array([-0.16, -0.08, 0.0, 0.08, 0.16])
#: The centre of a square: where a piece covers the field (radius 0.2 of the side).
CENTRE_UV = np.array([(0.5 + du, 0.5 + dv) for du in _STEPS for dv in _STEPS if du * du + dv * dv <= 0.2**2 + 1e-9])
#: Four small clusters near the corners: plain field, never under a centred piece.
CORNER_UV = np.array(
    [[(cu + du, cv + dv) for du in (-0.025, 0.025) for dv in (-0.025, 0.025)] for cu, cv in ((0.13, 0.13), (0.87, 0.13), (0.87, 0.87), (0.13, 0.87))]
)
#: How far outside the grid and tray the paper ring is sampled, in mm.
RING_MM = 2.5
RING_STEP_MM = 9.0


@dataclass(frozen=True)
class SamplePoints:
    """Sample points in mat pixels."""

    centres: np.ndarray  # (30, 21, 2)
    corners: np.ndarray  # (30, 4, 4, 2)
    ring: np.ndarray  # (R, 2): white paper just outside the grid and the tray

    @classmethod
    def build(cls, geometry: MatGeometry) -> SamplePoints:
        centres = np.stack([geometry.in_square(n, CENTRE_UV) for n in range(1, 31)])
        corners = np.stack([geometry.in_square(n, CORNER_UV.reshape(-1, 2)).reshape(4, 4, 2) for n in range(1, 31)])
        mm = geometry.dpi / 25.4
        grid = np.concatenate(list(geometry.squares.values()))
        grid_quad = _bounding_quad(grid)
        ring = np.concatenate([_ring(grid_quad, RING_MM * mm, RING_STEP_MM * mm), _ring(geometry.tray, RING_MM * mm, RING_STEP_MM * mm)])
        keep = np.ones(len(ring), bool)
        for quad in geometry.markers.values():
            low, high = quad.min(axis=0) - 3 * mm, quad.max(axis=0) + 3 * mm
            keep &= ~((ring >= low) & (ring <= high)).all(axis=1)
        inside = (ring[:, 0] > 1 * mm) & (ring[:, 1] > 1 * mm) & (ring[:, 0] < geometry.width_px - 1 * mm) & (ring[:, 1] < geometry.height_px - 1 * mm)
        tray_low, tray_high = geometry.tray.min(axis=0), geometry.tray.max(axis=0)
        grid_low, grid_high = grid.min(axis=0), grid.max(axis=0)
        outside_tray = ~((ring > tray_low) & (ring < tray_high)).all(axis=1)
        outside_grid = ~((ring > grid_low) & (ring < grid_high)).all(axis=1)
        return cls(centres, corners, ring[keep & inside & outside_tray & outside_grid])

    def to_image(self, homography: np.ndarray) -> np.ndarray:
        """All points, in one array, in image pixels (centres, then corners, then ring)."""
        every = np.concatenate([self.centres.reshape(-1, 2), self.corners.reshape(-1, 2), self.ring])
        return project(homography, every)

    @property
    def counts(self) -> tuple[int, int, int]:
        return self.centres.shape[0] * self.centres.shape[1], self.corners.shape[0] * 16, len(self.ring)


def _bounding_quad(points: np.ndarray) -> np.ndarray:
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
    return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], float)


def _ring(quad: np.ndarray, offset: float, step: float) -> np.ndarray:
    """Points every ``step`` along the outline of an axis-aligned quad grown by ``offset``."""
    (x0, y0), (x1, y1) = quad.min(axis=0) - offset, quad.max(axis=0) + offset
    xs = np.linspace(x0, x1, max(2, int((x1 - x0) / step)))
    ys = np.linspace(y0, y1, max(2, int((y1 - y0) / step)))[1:-1]
    return np.concatenate([
        np.column_stack([xs, np.full_like(xs, y0)]), np.column_stack([xs, np.full_like(xs, y1)]),
        np.column_stack([np.full_like(ys, x0), ys]), np.column_stack([np.full_like(ys, x1), ys]),
    ])


def read_pixels(frame: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """BGR values at (N, 2) image points (float32), and which points fell inside the frame."""
    height, width = frame.shape[:2]
    xy = np.round(points).astype(np.intp)
    inside = (xy[:, 0] >= 0) & (xy[:, 1] >= 0) & (xy[:, 0] < width) & (xy[:, 1] < height)
    xy[~inside] = 0
    return frame[xy[:, 1], xy[:, 0]].astype(np.float32), inside


