"""A pinhole camera above the mat, with radial lens distortion.

World axes: x right and y down the mat (as in ``mat.json``), z into the table; the mat
lies in z = 0. The camera looks at ``centre_mm`` from ``height_mm`` above the mat, tilted
``tilt_deg`` from straight down towards the direction ``yaw_deg`` (about the vertical),
and turned ``roll_deg`` about its own optical axis. Points *above* the mat are given as
(x, y, z) with z in millimetres up from the mat.

:meth:`CameraPose.homography` is the undistorted mat-to-picture map; :meth:`CameraPose.project`
and :meth:`CameraPose.ground_map` include the lens distortion (``k1``, ``k2``: OpenCV's
radial coefficients on normalised coordinates; negative is barrel distortion).

    >>> camera = CameraPose(width=640, height=480, height_mm=600, tilt_deg=0, yaw_deg=0, fov_deg=60)
    >>> H = camera.homography(centre_mm=(148.5, 105.0))
    >>> [round(v) for v in project(H, [(148.5, 105.0)])[0]]
    [320, 240]
    >>> top = camera.project((148.5, 105.0), [(248.5, 105.0, 0.0), (248.5, 105.0, 12.0)])
    >>> bool(top[1, 0] > top[0, 0])  # a piece's top leans away from the point below the camera
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

#: Iterations that undo the radial distortion (plenty for |k1| <= 0.2).
UNDISTORT_STEPS = 6
#: The distortion is undone exactly every GRID_PX pixels and interpolated between.
GRID_PX = 8


@dataclass(frozen=True)
class CameraPose:
    """A camera's picture size, place above the mat, field of view and lens."""

    width: int
    height: int
    height_mm: float
    tilt_deg: float
    yaw_deg: float
    fov_deg: float = 62.0  # horizontal field of view
    roll_deg: float = 0.0
    k1: float = 0.0
    k2: float = 0.0

    @property
    def focal_px(self) -> float:
        """The focal length in pixels."""
        return (self.width / 2) / math.tan(math.radians(self.fov_deg) / 2)

    def intrinsics(self) -> np.ndarray:
        focal = self.focal_px
        return np.array([[focal, 0, self.width / 2], [0, focal, self.height / 2], [0, 0, 1]])

    def rotation(self) -> np.ndarray:
        """World to camera rotation (3x3)."""
        tilt, yaw, roll = (math.radians(v) for v in (self.tilt_deg, self.yaw_deg, self.roll_deg))
        rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
        rx = np.array([[1, 0, 0], [0, math.cos(tilt), -math.sin(tilt)], [0, math.sin(tilt), math.cos(tilt)]])
        spin = np.array([[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]])
        return spin @ rx @ rz

    def centre(self, centre_mm: tuple[float, float]) -> np.ndarray:
        """The camera's optical centre in world coordinates (z into the table, so negative)."""
        axis = self.rotation().T @ np.array([0.0, 0.0, 1.0])  # the optical axis in world coordinates
        return np.array([centre_mm[0], centre_mm[1], 0.0]) - self.height_mm / axis[2] * axis

    def position(self, centre_mm: tuple[float, float]) -> np.ndarray:
        """Where the camera is: (x, y, height) in mat millimetres, z up."""
        x, y, z = self.centre(centre_mm)
        return np.array([x, y, -z])

    def homography(self, centre_mm: tuple[float, float]) -> np.ndarray:
        """3x3 matrix taking mat (x, y) in mm to image pixels (without the lens distortion)."""
        rotation = self.rotation()
        matrix = self.intrinsics() @ np.column_stack([rotation[:, 0], rotation[:, 1], -rotation @ self.centre(centre_mm)])
        return matrix / matrix[2, 2]

    def camera_points(self, centre_mm: tuple[float, float], points: np.ndarray) -> np.ndarray:
        """(N, 3) points (x, y, z up) in camera coordinates; the third column is the depth."""
        world = np.asarray(points, np.float64).reshape(-1, 3) * np.array([1.0, 1.0, -1.0])
        return (world - self.centre(centre_mm)) @ self.rotation().T

    def project(self, centre_mm: tuple[float, float], points: list[tuple[float, float, float]] | np.ndarray) -> np.ndarray:
        """Image pixels (N, 2) of mat points (x, y, z up from the mat), lens distortion included
        (the module's :func:`project` applies a homography instead)."""
        local = self.camera_points(centre_mm, np.asarray(points))
        normalised = local[:, :2] / np.maximum(local[:, 2:3], 1e-6)
        r2 = (normalised**2).sum(axis=1, keepdims=True)
        distorted = normalised * (1 + self.k1 * r2 + self.k2 * r2 * r2)
        return distorted * self.focal_px + (self.width / 2, self.height / 2)

    def ground_map(self, centre_mm: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
        """The mat point (x, y in mm) seen at every pixel: two float32 (height, width) arrays.

        Pixels that see no point of the plane (above the horizon) get a point far away.
        """
        # Undo the distortion on a coarse grid of pixels (it varies smoothly) and interpolate.
        rows, cols = np.arange(0, self.height + GRID_PX, GRID_PX), np.arange(0, self.width + GRID_PX, GRID_PX)
        coarse = np.stack(np.meshgrid(cols, rows), axis=-1).reshape(-1, 1, 2).astype(np.float32)
        distortion = np.array([self.k1, self.k2, 0.0, 0.0])
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, UNDISTORT_STEPS, 1e-7)
        undone = cv2.undistortPointsIter(coarse, self.intrinsics(), distortion, None, None, criteria).reshape(len(rows), len(cols), 2)
        ys, xs = np.mgrid[0 : self.height, 0 : self.width].astype(np.float32) / GRID_PX
        x = cv2.remap(np.ascontiguousarray(undone[..., 0]), xs, ys, cv2.INTER_LINEAR)
        y = cv2.remap(np.ascontiguousarray(undone[..., 1]), xs, ys, cv2.INTER_LINEAR)
        r = self.rotation().astype(np.float32)  # a ray (x, y, 1) in the camera is R^T (x, y, 1) in the world
        ray_x, ray_y, ray_z = (r[0, i] * x + r[1, i] * y + r[2, i] for i in range(3))
        centre = self.centre(centre_mm)
        reach = np.where(ray_z > 1e-6, np.float32(-centre[2]) / np.maximum(ray_z, 1e-6), np.float32(1e6))
        return (centre[0] + ray_x * reach).astype(np.float32), (centre[1] + ray_y * reach).astype(np.float32)


def project(homography: np.ndarray, points: list[tuple[float, float]] | np.ndarray) -> np.ndarray:
    """Apply a homography to (N, 2) points."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    mapped = np.column_stack([pts, np.ones(len(pts))]) @ homography.T
    return mapped[:, :2] / mapped[:, 2:3]
