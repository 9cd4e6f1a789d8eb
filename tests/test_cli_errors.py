"""Bad arguments and hostile input: a one-line message naming the argument and the fix, exit 2, no traceback."""

from __future__ import annotations

import importlib.util
import io
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.device.cli import main
from senet.engine.query import MAX_LINE_BYTES, answer_lines, answer_query
from senet.vision.mat import MatLayout, write_mat
from senet.vision.photos import read_image_file
from senet.vision.simulator import Conditions, Scene, Simulator
from senet.vision.sources import START_BOARD, CameraError, EndOfFrames, ImageFolderSource, parse_camera

ROOT = Path(__file__).resolve().parents[1]
GOOD_QUERY = json.dumps({"variant": "kendall", "board": START_BOARD, "to_move": "dark", "throw": 4}).encode()


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``senet argv`` in-process; it must exit 2 with one line on stderr, which is returned."""
    with pytest.raises(SystemExit) as exit_status:
        main(argv)
    assert exit_status.value.code == 2
    return one_line(capsys.readouterr().err)


def one_line(stderr: str) -> str:
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr
    return stderr


# -- senet board mat ---------------------------------------------------------------


@pytest.mark.parametrize("dpi", ["20", "149", "601", "100000", "abc", "1e3"])
def test_board_mat_refuses_a_dpi_outside_150_to_600(dpi: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    message = refused(["board", "mat", "--out", str(tmp_path / "mat"), "--dpi", dpi], capsys)
    assert "--dpi" in message and (dpi in message)
    assert not (tmp_path / "mat").exists()


def test_write_mat_checks_its_arguments_too(tmp_path: Path) -> None:
    for dpi in (20, 100_000, 150.0, True):
        with pytest.raises(ValueError, match="150..600"):
            write_mat(tmp_path, dpi=dpi)  # type: ignore[arg-type]
    (tmp_path / "afile").write_text("")
    with pytest.raises(ValueError, match="is a file, not a folder"):
        write_mat(tmp_path / "afile")


def test_board_mat_out_naming_a_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "afile").write_text("keep me")
    message = refused(["board", "mat", "--out", str(tmp_path / "afile")], capsys)
    assert "--out" in message and "not a folder" in message
    assert (tmp_path / "afile").read_text() == "keep me"
    inside_a_file = tmp_path / "afile" / "mat"
    assert main(["board", "mat", "--out", str(inside_a_file)]) == 2
    message = one_line(capsys.readouterr().err)
    assert "cannot write into" in message and "--out" in message


# -- senet vision read / referee replay: --mat --------------------------------------


def test_a_picture_given_as_mat_json_says_which_file_to_give(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "mat.png"
    cv2.imwrite(str(picture), np.full((60, 80, 3), 255, np.uint8))
    assert main(["vision", "read", "--calibrate", str(picture), str(picture), "--mat", str(picture), "--json"]) == 2
    captured = capsys.readouterr()
    message = one_line(captured.err)
    assert "--mat" in message and "mat.json that 'senet board mat' wrote" in message
    assert json.loads(captured.out)["status"] == "no-board"
    (tmp_path / "frames").mkdir()
    assert main(["referee", "replay", "--variant", "kendall", "--calibrate", str(picture), str(tmp_path / "frames"),
                 "--mat", str(picture)]) == 2
    assert "mat.json that 'senet board mat' wrote" in one_line(capsys.readouterr().err)


# -- --fps and --settle --------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, named",
    [
        (["run", "--fps", "0"], "--fps"),
        (["run", "--fps", "-5"], "--fps"),
        (["run", "--fps", "61"], "--fps"),
        (["run", "--fps", "nan"], "--fps"),
        (["run", "--fps", "ten"], "--fps"),
        (["run", "--settle", "-1"], "--settle"),
        (["run", "--settle", "11"], "--settle"),
        (["run", "--settle", "inf"], "--settle"),
        (["run", "--port", "99999"], "--port"),
        (["referee", "replay", "--variant", "kendall", "--calibrate", "start.png", "frames", "--fps", "0"], "--fps"),
        (["referee", "replay", "--variant", "kendall", "--calibrate", "start.png", "frames", "--fps", "-5"], "--fps"),
    ],
)
def test_timing_arguments_out_of_range_are_refused(argv: list[str], named: str, capsys: pytest.CaptureFixture[str]) -> None:
    message = refused(argv, capsys)
    assert f"argument {named}:" in message and "use " in message


# -- senet run --camera --------------------------------------------------------------


@pytest.mark.parametrize("camera", ["banana", "usb:front", "usb:", "video:", "folder:", "simulator:2", "auto:1"])
def test_a_camera_description_of_no_known_form_is_refused(camera: str, capsys: pytest.CaptureFixture[str]) -> None:
    message = refused(["run", "--camera", camera, "--no-page"], capsys)
    assert "--camera" in message and repr(camera) in message


def test_the_camera_forms_that_exist() -> None:
    assert parse_camera("auto") == ("auto", "")
    assert parse_camera("picamera2") == ("picamera2", "")
    assert parse_camera("usb") == ("usb", "0")
    assert parse_camera("usb:2") == ("usb", "2")
    assert parse_camera("video:game.mp4") == ("video", "game.mp4")
    assert parse_camera("folder:C:/frames") == ("folder", "C:/frames")
    with pytest.raises(ValueError, match="auto, simulator, picamera2, usb:N, video:FILE or folder:DIR"):
        parse_camera("webcam")


def test_a_camera_that_cannot_be_opened_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if Path("/dev/video63").exists():
        pytest.skip("this machine has a camera 63")
    assert main(["run", "--camera", "usb:63", "--no-page"]) == 2
    message = one_line(capsys.readouterr().err)
    assert "cannot open the camera usb:63: " in message and "/dev/video63" in message
    assert "check the cable or use --camera simulator" in message
    for camera in (f"video:{tmp_path / 'missing.mp4'}", f"folder:{tmp_path / 'missing'}"):
        assert main(["run", "--camera", camera, "--no-page"]) == 2
        message = one_line(capsys.readouterr().err)
        assert f"cannot open the camera {camera}: " in message and "check the path or use --camera simulator" in message
    (tmp_path / "empty").mkdir()
    assert main(["run", "--camera", f"folder:{tmp_path / 'empty'}", "--no-page"]) == 2
    assert f"cannot open the camera folder:{tmp_path / 'empty'}: " in one_line(capsys.readouterr().err)


def test_a_configured_camera_of_no_known_form_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "senet.toml"
    config.write_text('camera = "banana"\n')
    assert main(["run", "--config", str(config), "--no-page"]) == 2
    message = one_line(capsys.readouterr().err)
    assert str(config) in message and "unknown camera 'banana'" in message


# -- senet rules moves ---------------------------------------------------------------


def rules_moves(data: bytes, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict]]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status = main(["rules", "moves"])
    captured = capsys.readouterr()
    assert captured.err == ""
    return status, [json.loads(line) for line in captured.out.splitlines()]


def test_rules_moves_answers_every_line_whatever_it_holds(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    good = answer_query(GOOD_QUERY.decode())
    lines = [
        GOOD_QUERY,
        b"[" * 2000 + b"]" * 2000,
        b'{"a":' * 100_000,
        b"\xff" + GOOD_QUERY,
        GOOD_QUERY[:20] + b"\xed\xa0\x80" + GOOD_QUERY[20:],
        GOOD_QUERY.replace(b'"throw": 4', b'"throw": ' + b"9" * 5000),
        GOOD_QUERY.replace(b'"throw": 4', b'"throw": 1e999'),
        b"",
        b'{"board": "' + b"." * MAX_LINE_BYTES + b'"}',
        GOOD_QUERY,
    ]
    status, answers = rules_moves(b"\n".join(lines) + b"\n", monkeypatch, capsys)
    assert status == 2
    assert len(answers) == len(lines)
    assert answers[0] == answers[-1] == good
    errors = [answer["error"] for answer in answers[1:-1]]
    assert all(isinstance(error, str) and error for error in errors)
    assert "nested too deeply" in errors[0] and "nested too deeply" in errors[1]
    assert "not valid UTF-8 (byte 0xff at position 0)" in errors[2] and "not valid UTF-8" in errors[3]
    assert "too many digits" in errors[4] and "throw inf" in errors[5]
    assert "not valid JSON" in errors[6] and "longer than" in errors[7]


def test_rules_moves_still_exits_0_when_every_line_is_good(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, answers = rules_moves(GOOD_QUERY + b"\r\n" + GOOD_QUERY, monkeypatch, capsys)
    assert status == 0 and answers == [answer_query(GOOD_QUERY.decode())] * 2


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
query_like = st.fixed_dictionaries(
    {"variant": st.sampled_from(["kendall", "houses", "netherworld", "chess"]) | json_values,
     "board": st.text(alphabet=".DL", min_size=28, max_size=31) | json_values,
     "to_move": st.sampled_from(["dark", "light"]) | json_values,
     "throw": st.integers(-1, 6) | json_values},
    optional={"state": st.fixed_dictionaries({"must_move_from": st.integers(-2, 32) | json_values}) | json_values},
)
lines = st.one_of(
    st.binary(max_size=64),
    json_values.map(lambda value: json.dumps(value).encode()),
    query_like.map(lambda query: json.dumps(query).encode()),
).map(lambda line: line.replace(b"\n", b""))


@settings(max_examples=300, deadline=None)
@given(st.lists(lines, max_size=8))
def test_every_line_gets_exactly_one_json_answer(batch: list[bytes]) -> None:
    answers = list(answer_lines(io.BytesIO(b"\n".join(batch) + b"\n"))) if batch else []
    assert len(answers) == len(batch)
    for answer in answers:
        json.dumps(answer)
        assert set(answer) == {"error"} or {"moves", "stuck", "may_pass"} <= set(answer)


def test_a_fuzzed_stream_gets_one_answer_per_line_from_the_real_command(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("rules_moves_fuzz", ROOT / "bench" / "rules_moves_fuzz.py")
    assert spec is not None and spec.loader is not None
    fuzz = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, fuzz)  # its dataclass looks itself up there
    spec.loader.exec_module(fuzz)
    result = fuzz.run_fuzz(fuzz.fuzz_lines(400, seed=7), timeout=120)
    assert (result.answers_out, result.tracebacks, result.not_json) == (400, 0, 0), result
    assert result.returncode == 2 and 0 < result.errors < 400


# -- pictures --------------------------------------------------------------------------


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int, height: int, pixels: bytes, bit_depth: int = 8) -> bytes:
    """A greyscale PNG from its compressed pixel rows (not checked against the size)."""
    header = struct.pack(">IIBBBBB", width, height, bit_depth, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", pixels) + png_chunk(b"IEND", b"")


def black_png(side: int) -> bytes:
    """A valid side x side black picture (1 bit a pixel): compressed, a thousandth of its raw size."""
    row = bytes(1 + (side + 7) // 8)  # the filter byte, then the pixels
    packer = zlib.compressobj(9)
    rows_per_block = 1000
    blocks = [packer.compress(row * min(rows_per_block, side - start)) for start in range(0, side, rows_per_block)]
    return png(side, side, b"".join(blocks) + packer.flush(), bit_depth=1)


@pytest.fixture
def bad_pictures(tmp_path: Path) -> dict[str, Path]:
    good = cv2.imencode(".png", np.full((40, 60, 3), 128, np.uint8))[1].tobytes()
    contents = {
        "claims_65535_square.png": png(65535, 65535, zlib.compress(bytes(300))),
        "valid_30000_square.png": black_png(30000),
        "claims_48_megapixels.png": png(8000, 6000, zlib.compress(bytes(300))),
        "empty.png": b"",
        "truncated.png": good[: len(good) // 2],
        "not_a_picture.jpg": b"%PDF-1.4 this is not a picture",
    }
    paths = {}
    for name, content in contents.items():
        paths[name] = tmp_path / name
        paths[name].write_bytes(content)
    return paths


def test_pictures_too_large_or_broken_are_refused_before_decoding(bad_pictures: dict[str, Path]) -> None:
    assert bad_pictures["claims_65535_square.png"].stat().st_size < 500
    assert bad_pictures["valid_30000_square.png"].stat().st_size < 200_000
    reasons = {name: read_image_file(path) for name, path in bad_pictures.items()}
    assert all(image is None and str(bad_pictures[name]) in reason for name, (image, reason) in reasons.items())
    for name in ("claims_65535_square.png", "valid_30000_square.png", "claims_48_megapixels.png"):
        assert "up to 40 megapixels" in reasons[name][1]
    assert "8000x6000" in reasons["claims_48_megapixels.png"][1]
    assert "is empty" in reasons["empty.png"][1]
    assert "truncated" in reasons["truncated.png"][1]
    assert "not a picture" in reasons["not_a_picture.jpg"][1]


def test_vision_read_reports_each_bad_picture_as_no_board(bad_pictures: dict[str, Path], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    start = tmp_path / "start.png"
    cv2.imwrite(str(start), Simulator(MatLayout.for_paper("a3")).render(Scene(START_BOARD), Conditions.plain(), np.random.default_rng(2)))
    assert main(["vision", "read", "--calibrate", str(start), *map(str, bad_pictures.values()), str(start), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == [*map(str, bad_pictures.values()), str(start)]
    for line, path in zip(lines, bad_pictures.values()):
        assert line["status"] == "no-board" and line["board"] is None and line["reason"] == read_image_file(path)[1]
    assert lines[-1]["status"] == "ok"
    assert main(["vision", "read", "--calibrate", str(bad_pictures["claims_65535_square.png"]), str(start)]) == 2
    message = one_line(capsys.readouterr().err)
    assert "cannot calibrate" in message and "megapixels" in message


def test_the_folder_camera_skips_a_bad_picture_and_goes_on(bad_pictures: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "1.png").write_bytes(bad_pictures["claims_65535_square.png"].read_bytes())
    cv2.imwrite(str(folder / "2.png"), np.full((8, 8, 3), 7, np.uint8))
    (folder / "3.png").write_bytes(bad_pictures["valid_30000_square.png"].read_bytes())
    source = ImageFolderSource(folder)
    with pytest.raises(CameraError, match="not a readable picture: .*40 megapixels"):
        source.read()
    assert source.read()[0, 0, 0] == 7
    with pytest.raises(CameraError, match="megapixels"):
        source.read()
    with pytest.raises(EndOfFrames):
        source.read()


def test_a_real_process_writes_one_line_and_no_traceback(bad_pictures: dict[str, Path]) -> None:
    """Also nothing from OpenCV or Pillow themselves: only the command's own line."""
    def senet(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "senet.device.cli", *args], capture_output=True, text=True, timeout=60)

    result = senet("board", "mat", "--out", "x", "--dpi", "20")
    assert result.returncode == 2 and result.stdout == ""
    assert one_line(result.stderr).startswith("senet board mat: argument --dpi: dpi 20 is outside 150..600")
    for name in ("truncated.png", "claims_65535_square.png"):
        result = senet("vision", "read", "--calibrate", str(bad_pictures[name]), str(bad_pictures[name]))
        assert result.returncode == 2 and "no-board" in result.stdout
        assert one_line(result.stderr).startswith("senet vision read: cannot calibrate on")


def test_a_second_senet_run_on_a_busy_port_says_so() -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "senet.device.cli", "run", "--camera", "simulator", "--host", "127.0.0.1",
                                 "--port", str(port), "--turns", "1"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "Traceback" not in result.stderr + result.stdout
    assert f"senet run: port {port} is already in use" in result.stderr
