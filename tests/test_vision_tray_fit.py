"""Placing the tray by its printed outline, where the markers place it a few millimetres off."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from senet.vision.camera_model import CameraPose, project
from senet.vision.geometry import MatGeometry
from senet.vision.mat import MatLayout
from senet.vision.simulator import Conditions, Light, Scene, Simulator
from senet.vision.tray_fit import TrayOutline

LAYOUT = MatLayout.for_paper("a3")
GEOMETRY = MatGeometry.from_dict(LAYOUT.geometry(150))
CENTRE = (LAYOUT.width_mm / 2, LAYOUT.height_mm / 2)
#: A tilted camera whose lens bends the picture (barrel distortion, as cheap lenses do).
BENT = CameraPose(640, 480, 520.0, tilt_deg=24, yaw_deg=-30, roll_deg=12, k1=-0.1)


@functools.cache
def picture() -> tuple[np.ndarray, np.ndarray]:
    """An empty mat under warm light, seen through the bent lens, and the homography (mat pixels
    to the picture's) that puts its tray's corners where they truly show (the lens bends the
    edges between them)."""
    conditions = Conditions(BENT, light=Light(kelvin=3000), gradient=0.3, noise=3.0, blur=0.8)
    image = Simulator(LAYOUT).render(Scene("." * 30), conditions, np.random.default_rng(3))
    per_mm = GEOMETRY.dpi / 25.4
    corners_mm = GEOMETRY.tray / per_mm
    shown = np.array([BENT.project(CENTRE, [(x, y, 0.0)])[0] for x, y in corners_mm], np.float32)
    return image, cv2.getPerspectiveTransform(GEOMETRY.tray.astype(np.float32), shown)


def tray_error_px(homography: np.ndarray, truth: np.ndarray) -> float:
    """How far (picture pixels) ``homography`` puts the tray's corners from ``truth``."""
    return float(np.abs(project(homography, GEOMETRY.tray) - project(truth, GEOMETRY.tray)).max())


def misplaced(truth: np.ndarray, moves: list[tuple[float, float]]) -> np.ndarray:
    """``truth`` changed so that the tray's corners land ``moves`` (picture pixels) off."""
    shown = project(truth, GEOMETRY.tray)
    return cv2.getPerspectiveTransform(GEOMETRY.tray.astype(np.float32), (shown + np.array(moves)).astype(np.float32))


@pytest.mark.parametrize("moves", [
    [(0, 0), (6, -5), (8, 4), (0, 0)],  # one end placed 6 to 8 pixels off
    [(-4, 3)] * 4,  # the whole tray shifted
    [(3, 0), (-3, 2), (4, -4), (-2, -3)],  # every corner a little off
])
def test_a_tray_the_markers_placed_off_is_put_where_its_outline_shows(moves: list[tuple[float, float]]) -> None:
    image, truth = picture()
    wrong = misplaced(truth, moves)
    assert tray_error_px(wrong, truth) > 4
    assert tray_error_px(TrayOutline(GEOMETRY).fit(image, wrong), truth) < 1.0


def test_a_tray_placed_right_stays_where_it_is() -> None:
    image, truth = picture()
    assert tray_error_px(TrayOutline(GEOMETRY).fit(image, truth), truth) < 0.7


@pytest.mark.parametrize("seen", ["blank", "noise"])
def test_a_picture_without_the_tray_leaves_the_markers_placing(seen: str) -> None:
    _, truth = picture()
    rng = np.random.default_rng(1)
    image = np.full((480, 640, 3), 128, np.uint8) if seen == "blank" else rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
    assert np.array_equal(TrayOutline(GEOMETRY).fit(image, truth), truth)


@pytest.mark.parametrize("seed", range(6))
def test_any_picture_and_any_place_give_a_place_without_error(seed: int) -> None:
    """Noise, stripes or a blank picture, placed anyhow (even behind the camera): no error, and
    the place found is a homography still."""
    rng = np.random.default_rng(seed)
    image = [
        rng.integers(0, 256, (240, 320, 3), dtype=np.uint8),
        np.tile((np.arange(320) % 7 * 36).astype(np.uint8)[None, :, None], (240, 1, 3)),
        np.zeros((240, 320, 3), np.uint8),
    ][seed % 3]
    homography = rng.normal(0, 1, (3, 3)) * [[1, 1, 100], [1, 1, 100], [1e-3, 1e-3, 1]]
    fitted = TrayOutline(GEOMETRY).fit(image, homography)
    assert fitted.shape == (3, 3) and np.isfinite(fitted).all()
