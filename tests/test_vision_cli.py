"""`senet vision read`: the contract acceptance checks use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from senet.vision.mat import MatLayout
from senet.vision.simulator import Conditions, Scene, Simulator
from senet.vision.sources import START_BOARD

BOARD = "LDLDLDLDL.D" + "." * 19


def senet(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "senet.device.cli", *args], capture_output=True, text=True, timeout=120)


def test_vision_read_prints_one_json_line_per_picture(tmp_path: Path) -> None:
    simulator, rng = Simulator(MatLayout.for_paper("a4")), np.random.default_rng(4)
    conditions = Conditions.plain(1280, 720)
    cv2.imwrite(str(tmp_path / "start.png"), simulator.render(Scene(START_BOARD), conditions, rng))
    cv2.imwrite(str(tmp_path / "move.jpg"), simulator.render(Scene(BOARD, (True, False, True, False)), conditions, rng))
    cv2.imwrite(str(tmp_path / "hand.jpg"), simulator.render(Scene(BOARD, None, "board"), conditions, rng))
    cv2.imwrite(str(tmp_path / "table.jpg"), np.full((480, 640, 3), 90, np.uint8))
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    names = ["move.jpg", "hand.jpg", "table.jpg", "broken.jpg", "missing.png"]
    result = senet("vision", "read", "--calibrate", str(tmp_path / "start.png"), *(str(tmp_path / n) for n in names), "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["image"] for line in lines] == [str(tmp_path / n) for n in names]
    assert lines[0] == {"image": str(tmp_path / "move.jpg"), "status": "ok", "board": BOARD, "light_up": 2}
    assert lines[1]["status"] == "occluded" and lines[1]["board"] is None and "hand" in lines[1]["reason"]
    for line in lines[2:]:
        assert line["status"] == "no-board" and line["board"] is None and line["light_up"] is None and line["reason"]


def test_an_unusable_start_picture_is_a_clear_error(tmp_path: Path) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 200, np.uint8))
    result = senet("vision", "read", "--calibrate", str(blank), str(blank), "--json")
    assert result.returncode == 2
    assert "cannot calibrate" in result.stderr and "marker" in result.stderr
    assert "Traceback" not in result.stderr
    line = json.loads(result.stdout)
    assert line["status"] == "no-board" and line["board"] is None and "cannot calibrate" in line["reason"]


def test_a_broken_mat_file_is_a_clear_error_for_reading_and_replaying(tmp_path: Path) -> None:
    start = tmp_path / "start.png"
    cv2.imwrite(str(start), Simulator(MatLayout.for_paper("a3")).render(Scene(START_BOARD), Conditions.plain(), np.random.default_rng(2)))
    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames" / "000000.png"), cv2.imread(str(start)))
    mats = {"garbage.json": b"\x00\xff{not json", "empty.json": b"{}", "list.json": b"[1, 2]",
            "markers.json": json.dumps({"dpi": 150, "markers": "none"}).encode(),
            "squares.json": json.dumps({"dpi": 150, "width_px": 1, "height_px": 1, "markers": [], "squares": [1], "tray": []}).encode(),
            "deep.json": b"[" * 100000 + b"]" * 100000, "missing.json": None, "frames": None}
    for name, content in mats.items():
        if content is not None:
            (tmp_path / name).write_bytes(content)
        mat = str(tmp_path / name)
        for result in (senet("vision", "read", "--calibrate", str(start), str(start), "--mat", mat),
                       senet("referee", "replay", "--variant", "kendall", "--calibrate", str(start), str(tmp_path / "frames"), "--mat", mat)):
            assert result.returncode != 0, (name, result.stdout)
            assert result.stderr.strip() and "Traceback" not in result.stderr, (name, result.stderr)
