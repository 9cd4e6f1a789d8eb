"""The piece finder: the camera's pose from the markers, every rule system's start position,
and a start picture that does not show the start position."""

from __future__ import annotations

import numpy as np
import pytest

from senet.engine.board import format_board
from senet.engine.variants import VARIANTS, find_variant
from senet.vision.camera_model import CameraPose
from senet.vision.geometry import known_mats
from senet.vision.mat import MatLayout
from senet.vision.pose import MatView
from senet.vision.reader import BoardReader, CalibrationError
from senet.vision.simulator import Conditions, Scene, Simulator


@pytest.mark.parametrize("tilt, yaw", [(0, 0), (12, 40), (25, 200), (30, 310)])
def test_the_camera_is_found_where_it_is(tilt: float, yaw: float) -> None:
    camera = CameraPose(1280, 720, height_mm=650, tilt_deg=tilt, yaw_deg=yaw, fov_deg=60)
    view = MatView.from_homography(camera.homography((210.0, 148.5)), (1280, 720))
    assert view.project([(100.0, 40.0, 0.0)]) == pytest.approx(
        np.array([camera.homography((210.0, 148.5)) @ [100.0, 40.0, 1.0]])[:, :2] / (camera.homography((210.0, 148.5)) @ [100.0, 40.0, 1.0])[2],
        abs=0.5,
    )
    assert view.height_mm == pytest.approx(650, rel=0.06)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_start_position_calibrates_and_reads_back(variant: str) -> None:
    start = format_board(find_variant(variant).start_board())
    simulator, rng = Simulator(MatLayout.for_paper("a3")), np.random.default_rng(3)
    reader = BoardReader(known_mats()[0], variant)
    reader.calibrate(simulator.render(Scene(start), Conditions.plain(), rng))
    seen = reader.read(simulator.render(Scene(start), Conditions.plain(), rng))
    assert (seen.status, seen.board) == ("ok", start)


def test_a_start_picture_with_a_piece_missing_names_the_square() -> None:
    simulator, rng = Simulator(MatLayout.for_paper("a3")), np.random.default_rng(4)
    reader = BoardReader(known_mats()[0])
    with pytest.raises(CalibrationError, match="no piece is seen on square 7"):
        reader.calibrate(simulator.render(Scene("LDLDLD.DLD" + "." * 20), Conditions.plain(), rng))
