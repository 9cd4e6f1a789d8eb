"""The kept-map warp gives the picture OpenCV's own warp gives, and follows a moved camera."""

import cv2
import numpy as np

from senet.vision.warp import Warp


def _opencv(frame: np.ndarray, homography: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    return cv2.warpPerspective(frame, homography, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def test_the_same_view_as_opencvs_warp_when_the_camera_moves() -> None:
    rng = np.random.default_rng(3)
    frame = cv2.GaussianBlur(rng.integers(0, 256, (240, 320, 3), dtype=np.uint8), (5, 5), 0)
    warp = Warp((120, 60))
    for homography in (np.array([[1.3, 0.2, 20], [-0.1, 1.2, 30], [2e-4, 1e-4, 1]]),
                       np.array([[0.9, -0.1, 60], [0.2, 1.1, 10], [-1e-4, 3e-4, 1]])):
        for _ in range(2):  # the second frame reuses the kept map
            seen = warp(frame, homography).astype(int)
            assert np.abs(seen - _opencv(frame, homography, (120, 60))).max() <= 2


def test_a_view_beyond_the_frame_repeats_its_edge_without_failing() -> None:
    frame = np.full((50, 50, 3), 90, np.uint8)
    far = np.array([[1.0, 0, 1e6], [0, 1, -1e6], [0, 0, 1]])
    behind = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, -1]])
    for homography in (far, behind):
        assert (Warp((10, 10))(frame, homography) == 90).all()
