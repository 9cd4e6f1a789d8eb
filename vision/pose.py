"""Where the camera is above the mat, recovered from the mat's homography.

The markers give a homography from the mat's plane to the picture. With square pixels
and the principal point in the middle of the picture, that homography fixes the camera's
focal length and its pose (as a camera calibration from a single view of a plane does),
so points *above* the mat can be projected too: the top of a standing piece, which a
tilted camera sees displaced from the piece's base.

Mat coordinates are millimetres, x to the right and y down the mat as in ``mat.json``;
heights are millimetres above the mat.

    >>> from senet.vision.camera_model import CameraPose
    >>> truth = CameraPose(640, 480, height_mm=600, tilt_deg=20, yaw_deg=30, fov_deg=60)
    >>> view = MatView.from_homography(truth.homography((210.0, 148.5)), (640, 480))
    >>> abs(view.height_mm - 600) < 6, abs(view.focal_px - 554) < 6
    (True, True)
    >>> [round(v) for v in view.project([(210.0, 148.5, 0.0)])[0]]
    [320, 240]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: The focal lengths considered, as multiples of the picture's width (horizontal fields of
#: view from about 110 down to 20 degrees).
FOCAL_RANGE = (0.35, 2.8)
#: Without tilt the focal length cannot be told from one picture; then the view is taken to be
#: that of a common camera module (about 62 degrees across), gently preferred throughout.
TYPICAL_FOCAL = 0.83
PRIOR_WEIGHT = 1e-3


@dataclass(frozen=True)
class MatView:
    """A pinhole camera looking at the mat: intrinsics, rotation and translation (mm)."""

    camera_matrix: np.ndarray  # 3x3
    rotation: np.ndarray  # 3x3, mat -> camera
    translation: np.ndarray  # (3,), mm

    @classmethod
    def from_homography(cls, homography_mm: np.ndarray, size: tuple[int, int]) -> MatView:
        """The camera that sees the mat through ``homography_mm`` (mat mm -> pixels) in a
        picture of ``size`` (width, height)."""
        width, height = size
        centre = np.array([[1.0, 0, width / 2], [0, 1.0, height / 2], [0, 0, 1.0]])
        shifted = np.linalg.inv(centre) @ homography_mm
        shifted = shifted / np.linalg.norm(shifted[:, :2])
        def cost(f: float) -> float:
            return _orthogonality_error(shifted, f) + PRIOR_WEIGHT * np.log(f / (TYPICAL_FOCAL * width)) ** 2

        focal = min(width * np.exp(np.linspace(*np.log(FOCAL_RANGE), 160)), key=cost)
        focal = min(focal * np.exp(np.linspace(-0.02, 0.02, 41)), key=cost)  # then finer around the best
        camera = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1.0]])
        m = np.linalg.inv(camera) @ homography_mm
        scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
        if m[2, 2] < 0:  # the mat lies in front of the camera
            scale = -scale
        r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
        u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
        rotation = u @ vt
        return cls(camera, rotation, t)

    @property
    def focal_px(self) -> float:
        return float(self.camera_matrix[0, 0])

    @property
    def centre_mm(self) -> np.ndarray:
        """The camera's position in mat coordinates (z is negative: above the mat)."""
        return -self.rotation.T @ self.translation

    @property
    def height_mm(self) -> float:
        return float(-self.centre_mm[2])

    @property
    def nadir_mm(self) -> np.ndarray:
        """The point of the mat straight below the camera."""
        return self.centre_mm[:2].copy()

    def project(self, points: np.ndarray | list[tuple[float, float, float]]) -> np.ndarray:
        """Pixels of (N, 3) points given as (x, y, height above the mat) in mm."""
        xyz = np.asarray(points, float).reshape(-1, 3) * np.array([1.0, 1.0, -1.0])
        camera = xyz @ self.rotation.T + self.translation
        pixels = camera @ self.camera_matrix.T
        return pixels[:, :2] / pixels[:, 2:3]


def _orthogonality_error(homography: np.ndarray, focal: float) -> float:
    """How far the first two columns of K^-1 H are from orthogonal and equally long."""
    a = homography[:, 0] * np.array([1 / focal, 1 / focal, 1.0])
    b = homography[:, 1] * np.array([1 / focal, 1 / focal, 1.0])
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    return float((a @ b / (na * nb)) ** 2 + ((na - nb) / (na + nb)) ** 2)
