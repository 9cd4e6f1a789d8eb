"""The simulated camera: repeatable, clean and straight down when plain, and as awkward as
real photos when hard (pieces seen in perspective, sticks anyhow in the tray, markers still
mostly visible); recorded sessions keep unmoved pieces where they stood."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from senet.vision.camera_model import CameraPose
from senet.vision.geometry import BoardLocator, known_mats
from senet.vision.mat import MatLayout
from senet.vision.recording import record_session
from senet.vision.simulator import STICK_OVERHANG_MM, Conditions, Light, Scene, Simulator, Style
from senet.vision.sources import START_BOARD
from senet.vision.testset import generator_state, hard_cases

A3 = MatLayout.for_paper("a3")
EMPTY = "." * 30
#: Even light from everywhere: no cast shadows to blur what an object covers.
SHADOWLESS = Light(fill=1.0)


@pytest.fixture(scope="module")
def simulator() -> Simulator:
    return Simulator(A3)


def still(conditions: Conditions) -> Conditions:
    """The same camera and light, without the picture-to-picture randomness (noise, flicker)."""
    return replace(conditions, noise=0.0, flicker=0.0, banding=0.0, blur=0.0, jpeg_quality=None)


def changed(a: np.ndarray, b: np.ndarray, step: int = 30) -> np.ndarray:
    return np.abs(a.astype(int) - b.astype(int)).max(axis=2) > step


def region(camera: CameraPose, centre: tuple[float, float], corners: list[tuple[float, float]], grow_mm: float) -> np.ndarray:
    """The pixels of a mat rectangle grown by ``grow_mm``."""
    (x0, y0), (x1, y1) = np.min(corners, axis=0) - grow_mm, np.max(corners, axis=0) + grow_mm
    outline = camera.project(centre, [(x, y, 0.0) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))])
    mask = np.zeros((camera.height, camera.width), np.uint8)
    cv2.fillConvexPoly(mask, np.round(outline).astype(np.int32), 1)
    return mask > 0


def test_the_same_seed_gives_the_same_picture(simulator: Simulator) -> None:
    conditions, style = Conditions.random_hard(np.random.default_rng(3)), Style.random(np.random.default_rng(4))
    scene = Scene("LDLD.LDLD.." + "." * 18 + "L", (True, False, True, True), "board", beside="LD", held="D")
    first = simulator.render(scene, conditions, np.random.default_rng(5), style)
    assert np.array_equal(first, simulator.render(scene, conditions, np.random.default_rng(5), style))
    assert np.array_equal(first, Simulator(A3).render(scene, conditions, np.random.default_rng(5), style))  # nothing kept leaks in
    assert not np.array_equal(first, simulator.render(scene, conditions, np.random.default_rng(6), style))


def test_plain_pictures_are_clean_and_straight_down(simulator: Simulator) -> None:
    conditions = Conditions.plain()
    scene = Scene(START_BOARD, (True, False, False, True))
    frame = simulator.render(scene, conditions, np.random.default_rng(1), sticks_rng=np.random.default_rng(0))
    location = BoardLocator(known_mats()[0]).locate(frame)
    assert location is not None and len(location.marker_ids) == 8 and location.error_px < 0.5
    # The markers say where the camera's own model puts the mat: straight down, undistorted.
    centre = (A3.width_mm / 2, A3.height_mm / 2)
    per_px = 25.4 / 150  # mat.json pixels are at 150 dpi
    corners = np.array([(0, 0), (A3.width_mm, 0), (A3.width_mm, A3.height_mm), (0, A3.height_mm)])
    seen = cv2.perspectiveTransform((corners / per_px)[None].astype(np.float64), location.homography)[0]
    assert np.abs(seen - conditions.camera.project(centre, np.column_stack([corners, np.zeros(4)]))).max() < 1.0
    assert abs(np.ptp(seen[:, 0]) / np.ptp(seen[:, 1]) - A3.width_mm / A3.height_mm) < 0.01  # no tilt
    again = simulator.render(scene, conditions, np.random.default_rng(2), sticks_rng=np.random.default_rng(0))
    assert np.abs(frame.astype(int) - again).mean() < 2.5  # only a little sensor noise


def test_a_tall_piece_off_axis_leans_away_from_the_point_below_the_camera(simulator: Simulator) -> None:
    camera = CameraPose(640, 480, 450.0, tilt_deg=25.0, yaw_deg=30.0, fov_deg=60.0, roll_deg=70.0)
    conditions = Conditions(camera, light=SHADOWLESS, noise=0.0)
    style = Style(piece_shape="drum", piece_mm=(20.0, 16.0))
    board = "L" + "." * 29
    empty = simulator.render(Scene(EMPTY), conditions, np.random.default_rng(0), style)
    piece = simulator.render(Scene(board), conditions, np.random.default_rng(0), style)
    ys, xs = np.nonzero(changed(empty, piece, 40))
    centre = (A3.width_mm / 2, A3.height_mm / 2)
    (x0, y0), _, (x1, y1), _ = A3.square_corners(1)
    base = ((x0 + x1) / 2, (y0 + y1) / 2)
    below = camera.position(centre)[:2]
    foot, top, nadir = camera.project(centre, [(*base, 0.0), (*base, 16.0), (*below, 0.0)])
    away = (foot - nadir) / np.linalg.norm(foot - nadir)
    lean = np.array([xs.mean(), ys.mean()]) - foot
    assert lean @ away > 2.0  # the drawn piece sits beyond its base, away from the nadir
    assert np.linalg.norm(top - foot) > 4.0 and np.linalg.norm(lean - (top - foot) / 2) < 2.5
    assert piece[round(top[1]), round(top[0])].mean() > 150  # the white top is where the camera sees it


def test_an_unmoved_piece_keeps_its_place_across_recorded_steps(tmp_path: Path) -> None:
    conditions = still(Conditions.random_hard(np.random.default_rng(8)))
    moved = START_BOARD[:9] + ".D" + START_BOARD[11:]  # 10 -> 11
    paths = record_session(tmp_path, [(Scene(START_BOARD), 0.1), (Scene(moved), 0.1), (Scene(moved, hand=None), 0.1)],
                           fps=10, conditions=conditions, style=Style.random(np.random.default_rng(9)), seed=2)
    frames = [cv2.imread(str(path)) for path in paths]
    centre = (A3.width_mm / 2 + conditions.centre_offset[0], A3.height_mm / 2 + conditions.centre_offset[1])
    near = region(conditions.camera, centre, A3.square_corners(10) + A3.square_corners(11), 0.8 * A3.square_mm)
    difference = changed(frames[0], frames[1], 12)
    assert difference[near].sum() > 50  # the move shows
    assert difference[~near].sum() == 0  # and nothing else moved
    assert np.array_equal(frames[1], frames[2])


@pytest.mark.parametrize("paper, untidy", [("a3", True), ("a4", True), ("a4", False)])
def test_sticks_lie_in_the_tray_or_partly_over_its_edge(paper: str, untidy: bool) -> None:
    layout = MatLayout.for_paper(paper)
    simulator = Simulator(layout)
    conditions = replace(Conditions.plain(), light=SHADOWLESS, noise=0.0, scatter=1.0 if untidy else 0.0)
    camera, centre = conditions.camera, (layout.width_mm / 2, layout.height_mm / 2)
    tray, thickness = layout.tray_corners(), Style().stick_mm[2]
    within = region(camera, centre, tray, STICK_OVERHANG_MM + thickness * 0.4)  # its top leans out a little
    strictly = region(camera, centre, tray, -0.5)
    empty = simulator.render(Scene(EMPTY), conditions, np.random.default_rng(0))
    over = 0
    for seed in range(6):
        frame = simulator.render(Scene(EMPTY, (True, False, True, False)), conditions, np.random.default_rng(0),
                                 sticks_rng=np.random.default_rng(seed))
        lying = changed(empty, frame)
        assert lying.sum() > 300 and not (lying & ~within).any()
        over += int((lying & ~strictly).sum())
    assert (over > 0) == untidy  # untidy throws reach over the edge now and then; tidy ones never


def test_a_case_taken_with_more_exposure_is_the_same_scene_brighter() -> None:
    """The accuracy bench's ``--exposure``: the picture read is the same scene, start picture and
    answer, brighter (a camera's auto exposure answering a sleeve in view), pale things clipping."""
    plain, bright = next(hard_cases("a3", 1, seed=4)), next(hard_cases("a3", 1, seed=4, exposure=1.3))
    assert np.array_equal(plain.start, bright.start)
    assert (plain.board, plain.sticks, plain.hand) == (bright.board, bright.sticks, bright.hand)
    assert 1.15 < bright.picture.mean() / plain.picture.mean() < 1.3
    assert (bright.picture == 255).mean() > (plain.picture == 255).mean()


def test_a_case_resumed_from_the_generator_s_state_is_the_case_drawn_in_turn() -> None:
    """A case deep in a set is read at once (its tests need not draw all the cases before it):
    resumed where the generator stood, it is the very case drawn in turn, hands and all."""
    in_turn = list(hard_cases("a3", 3, seed=4))[2]
    resumed = next(hard_cases("a3", 1, seed=4, resume=(2, generator_state("a3", 4, 2))))
    assert np.array_equal(resumed.start, in_turn.start) and np.array_equal(resumed.picture, in_turn.picture)
    assert (resumed.board, resumed.sticks, resumed.hand) == (in_turn.board, in_turn.sticks, in_turn.hand)


def test_hard_pictures_still_show_most_markers() -> None:
    seen = []
    for paper, mat in (("a3", known_mats()[0]), ("a4", known_mats()[1])):
        for case in hard_cases(paper, 5, seed=21):
            for frame in (case.start, case.picture):
                locator = BoardLocator(mat)
                locator.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
                seen.append(locator.markers_seen)
    assert np.mean(np.array(seen) >= 3) >= 0.8, seen
