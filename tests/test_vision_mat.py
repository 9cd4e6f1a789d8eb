"""The printable mat: files, the mat.json contract, and that a camera can find everything on it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from senet.device.cli import main
from senet.vision.geometry import MatGeometry
from senet.vision.mat import MatLayout, render_mat

PAPER_MM = {"a3": (420, 297), "a4": (297, 210)}


@pytest.mark.parametrize("paper", ["a3", "a4"])
def test_board_mat_writes_png_pdf_and_json(tmp_path: Path, paper: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "mat", "--out", str(tmp_path), "--paper", paper, "--url", "http://senet.local:8080/"]) == 0
    assert capsys.readouterr().out.split() == [str(tmp_path / name) for name in ("mat.png", "mat.pdf", "mat.json")]
    png = Image.open(tmp_path / "mat.png")
    assert png.info["dpi"][0] >= 149.9
    width_mm, height_mm = PAPER_MM[paper]
    assert png.size == (round(width_mm / 25.4 * 150), round(height_mm / 25.4 * 150))
    box = re.search(rb"MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)", (tmp_path / "mat.pdf").read_bytes())
    assert box and abs(float(box[1]) / 72 * 25.4 - width_mm) < 1 and abs(float(box[2]) / 72 * 25.4 - height_mm) < 1
    data = json.loads((tmp_path / "mat.json").read_text())
    assert {"width_px", "height_px", "dpi", "markers", "squares", "tray"} <= set(data)
    assert (data["width_px"], data["height_px"], data["dpi"]) == (*png.size, 150)
    assert sorted(data["squares"], key=int) == [str(n) for n in range(1, 31)]
    assert all(len(quad) == 4 and all(len(p) == 2 for p in quad) for quad in data["squares"].values())
    assert len(data["markers"]) == 8 and len(data["tray"]) == 4


@pytest.mark.parametrize("paper", ["a3", "a4"])
def test_markers_are_found_where_mat_json_says(paper: str) -> None:
    layout = MatLayout.for_paper(paper)
    image = render_mat(layout, dpi=150)
    geometry = MatGeometry.from_dict(layout.geometry(150))
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert ids is not None and sorted(ids.ravel()) == sorted(geometry.markers)
    for quad, marker in zip(corners, ids.ravel()):
        assert np.abs(quad.reshape(4, 2) - geometry.markers[int(marker)]).max() < 2.0


def test_squares_follow_the_s_shaped_path_and_the_tray_holds_four_sticks() -> None:
    for paper in ("a3", "a4"):
        layout = MatLayout.for_paper(paper)
        tops = {n: layout.square_corners(n)[0] for n in range(1, 31)}
        assert tops[1][0] < tops[10][0] and tops[11][0] > tops[20][0] and tops[21][0] < tops[30][0]
        assert tops[1][1] < tops[11][1] < tops[21][1]
        assert tops[10][0] == tops[11][0] and tops[20][0] == tops[21][0]
        _, _, width, height = layout.tray
        assert width >= 150 and height >= 4 * 18 + 20


def test_qr_code_leads_to_the_page() -> None:
    image = render_mat(MatLayout.for_paper("a3"), dpi=150, url="http://senet.local:8080/")
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert text == "http://senet.local:8080/"


def test_a_broken_mat_file_is_a_clear_error(tmp_path: Path) -> None:
    from senet.vision.geometry import MatFileError

    bad = tmp_path / "mat.json"
    bad.write_text("{not json")
    with pytest.raises(MatFileError, match="not valid JSON"):
        MatGeometry.load(bad)
    bad.write_text('{"dpi": 150}')
    with pytest.raises(MatFileError, match="mat.json shape"):
        MatGeometry.load(bad)
    with pytest.raises(MatFileError, match="cannot read"):
        MatGeometry.load(tmp_path / "missing.json")
