"""Placing the mat by the grid's printed lines, where its markers place it badly."""

from __future__ import annotations

import functools
import itertools

import cv2
import numpy as np
import pytest

from senet.vision.camera_model import CameraPose, project
from senet.vision.geometry import MatGeometry, choose_mat, known_mats
from senet.vision.grid_fit import fit_to_grid
from senet.vision.mat import MatLayout
from senet.vision.plane import BoardPlane
from senet.vision.reader import BoardReader
from senet.vision.simulator import Conditions, Scene, Simulator
from senet.vision.testset import Case, hard_cases, surely_right

LAYOUT = MatLayout.for_paper("a4")
CAMERA = CameraPose(640, 480, 450.0, tilt_deg=20, yaw_deg=35)
CENTRE = (LAYOUT.width_mm / 2, LAYOUT.height_mm / 2)


@functools.cache
def picture() -> tuple[np.ndarray, np.ndarray, BoardPlane]:
    """A plain picture of the empty mat, its true mat-pixel homography and the board plane."""
    geometry = MatGeometry.from_dict(LAYOUT.geometry(150))
    image = Simulator(LAYOUT).render(Scene("." * 30), Conditions(CAMERA), np.random.default_rng(0))
    per_mm = geometry.dpi / 25.4
    truth = CAMERA.homography(CENTRE) @ np.diag([1 / per_mm, 1 / per_mm, 1.0])
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), truth, BoardPlane(geometry)


def grid_corners(plane: BoardPlane) -> np.ndarray:
    """The grid's four corners in mat pixels."""
    squares = plane.geometry.squares
    return np.array([squares[1][0], squares[10][1], squares[30][2], squares[21][3]])


def misplaced(truth: np.ndarray, plane: BoardPlane, moves: list[tuple[float, float]]) -> np.ndarray:
    """``truth`` changed so that the grid's corners land ``moves`` (top-view pixels) off."""
    corners = grid_corners(plane)
    view = np.linalg.inv(plane.to_mat())
    placed = project(view, corners)
    wrong = cv2.getPerspectiveTransform(placed.astype(np.float32), (placed + np.array(moves)).astype(np.float32))
    return truth @ plane.to_mat() @ wrong @ view


def error_px(homography: np.ndarray, truth: np.ndarray, plane: BoardPlane) -> float:
    corners = grid_corners(plane)
    return float(np.abs(project(homography, corners) - project(truth, corners)).max())


def test_the_far_end_of_a_grid_the_markers_placed_most_of_a_square_off_is_put_right() -> None:
    gray, truth, plane = picture()
    wrong = misplaced(truth, plane, [(0, 0), (0, 0), (22, 6), (20, -4)])  # one end right, the other ~0.7 square off
    assert error_px(wrong, truth, plane) > 8
    assert error_px(fit_to_grid(gray, wrong, plane), truth, plane) < 1.0


def test_a_grid_the_markers_placed_right_stays_where_it_is() -> None:
    gray, truth, plane = picture()
    assert error_px(fit_to_grid(gray, truth, plane), truth, plane) < 0.5


def test_a_grid_placed_over_half_a_square_off_everywhere_is_left_as_placed() -> None:
    """Its nearest lines are those of the squares beside: no end of it is placed surely enough
    to tell which square is which, and the grid's lines are not followed."""
    gray, truth, plane = picture()
    wrong = misplaced(truth, plane, [(18, 0)] * 4)
    assert np.array_equal(fit_to_grid(gray, wrong, plane), wrong)


@pytest.mark.parametrize("seen", ["blank", "noise"])
def test_a_picture_without_the_grid_leaves_the_markers_placing(seen: str) -> None:
    _, truth, plane = picture()
    rng = np.random.default_rng(1)
    gray = np.full((480, 640), 128, np.uint8) if seen == "blank" else rng.integers(0, 256, (480, 640), dtype=np.uint8)
    assert np.array_equal(fit_to_grid(gray, truth, plane), truth)


@functools.cache
def shaded_end_case() -> Case:
    """A hard generated case whose start picture shows clearly only the three markers at one
    end of the mat (the rest lie in a shade): their fit put the grid's far end most of a
    square off (A4, seed 21, case 144)."""
    return next(itertools.islice(hard_cases("a4", 145, seed=21), 144, None))


def test_a_board_placed_by_the_markers_at_one_end_only_is_read_on_the_right_squares() -> None:
    case = shaded_end_case()
    reader = BoardReader(choose_mat(case.start, known_mats()))
    reader.calibrate(case.start)
    seen = reader.read(case.picture)
    assert seen.status == "ok" and seen.board is not None
    # It could not tell what stood on 9, 21, 22 and 26; now every piece is on its square (the
    # dark piece on 9 lies in the shade, where its kind may be in doubt).
    assert surely_right(seen.board, case.board)
    assert [seen.board[square - 1] for square in (21, 22, 26)] == [case.board[square - 1] for square in (21, 22, 26)]
