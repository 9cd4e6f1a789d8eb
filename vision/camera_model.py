"""A pinhole camera above the mat: the homography from mat millimetres to image pixels.

World axes: x right and y down the mat (as in ``mat.json``), z into the table; the mat
lies in z = 0. The camera looks at the mat's centre from ``height_mm`` above it, tilted
``tilt_deg`` from straight down and turned ``yaw_deg`` about the vertical.

    >>> camera = CameraPose(width=640, height=480, height_mm=600, tilt_deg=0, yaw_deg=0, fov_deg=60)
    >>> H = camera.homography(centre_mm=(148.5, 105.0))
    >>> [round(v) for v in project(H, [(148.5, 105.0)])[0]]
    [320, 240]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class CameraPose:
    width: int
    height: int
    height_mm: float
    tilt_deg: float
    yaw_deg: float
    fov_deg: float = 62.0

    def intrinsics(self) -> np.ndarray:
        focal = (self.width / 2) / math.tan(math.radians(self.fov_deg) / 2)
        return np.array([[focal, 0, self.width / 2], [0, focal, self.height / 2], [0, 0, 1]])

    def homography(self, centre_mm: tuple[float, float]) -> np.ndarray:
        """3x3 matrix taking mat (x, y) in mm to image pixels."""
        tilt, yaw = math.radians(self.tilt_deg), math.radians(self.yaw_deg)
        rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
        rx = np.array([[1, 0, 0], [0, math.cos(tilt), -math.sin(tilt)], [0, math.sin(tilt), math.cos(tilt)]])
        rotation = rx @ rz  # world -> camera
        axis = rotation.T @ np.array([0.0, 0.0, 1.0])  # the optical axis in world coordinates
        distance = self.height_mm / axis[2]
        centre = np.array([centre_mm[0], centre_mm[1], 0.0]) - distance * axis
        matrix = self.intrinsics() @ np.column_stack([rotation[:, 0], rotation[:, 1], -rotation @ centre])
        return matrix / matrix[2, 2]


def project(homography: np.ndarray, points: list[tuple[float, float]] | np.ndarray) -> np.ndarray:
    """Apply a homography to (N, 2) points."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    mapped = np.column_stack([pts, np.ones(len(pts))]) @ homography.T
    return mapped[:, :2] / mapped[:, 2:3]
