"""``senet doctor``: each check with fakes for the camera and mock pins, and the command as a museum runs it."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory

from senet.device import doctor
from senet.device.config import Config
from senet.device.doctor import Status, check_clock, check_disk, check_packages, check_port, run_doctor
from senet.vision.sources import CameraError, SimulatedSource


class Picture:
    """A camera that always shows the same picture."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame, self.closed = frame, False

    def read(self) -> np.ndarray:
        return self.frame

    def close(self) -> None:
        self.closed = True


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(autouse=True)
def a_networked_pc(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests' machine has a network address and is not a Raspberry Pi (wherever they run)."""
    monkeypatch.setattr(doctor, "network_addresses", lambda: ["192.168.1.20"])
    monkeypatch.setattr(doctor, "running_on_pi", lambda: False)


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return Config(camera="simulator", store=str(tmp_path / "store" / "matches.db"), port=free_port())


def simulator(camera: str, size: tuple[int, int]) -> SimulatedSource:
    return SimulatedSource()


def doctor_run(config: Config, tmp_path: Path, opener: doctor.CameraOpener = simulator,
               factory: MockFactory | None = None) -> tuple[int, str]:
    stream = io.StringIO()
    status = run_doctor(config, opener, factory or MockFactory(), tmp_path / "out", stream)
    return status, stream.getvalue()


def lines(output: str, name: str) -> list[str]:
    return [line for line in output.splitlines() if line[8:].startswith(f"{name}:")]


def test_all_well_exits_0_and_prints_the_phone_address_with_a_qr_code(config: Config, tmp_path: Path) -> None:
    status, output = doctor_run(config, tmp_path)
    assert status == 0, output
    assert "PROBLEM" not in output
    assert lines(output, "mat") == ["ok      mat: all 8 markers of the A3 mat in view"]
    assert lines(output, "pins")[0] == "note    pins: no GPIO here: pins checked against a mock"
    assert "red 27" in lines(output, "pins")[1] and lines(output, "pins")[1].startswith("ok ")
    assert lines(output, "phones") == [f"ok      phones: open http://192.168.1.20:{config.port}/ (or scan this)"]
    assert output.splitlines()[-1].startswith("all is well")
    qr = [line for line in output.splitlines() if set(line) <= set("█▀▄ ") and "█" in line]
    assert len(qr) >= 10


def test_the_phone_address_is_the_network_address_when_the_page_listens_everywhere(tmp_path: Path) -> None:
    checks = doctor.check_network(Config(port=8080), addresses=["192.168.1.20"])
    assert [check.status for check in checks] == [Status.OK, Status.OK]
    assert checks[1].message == "open http://192.168.1.20:8080/ (or scan this)"
    assert "▄" in checks[1].detail or "▀" in checks[1].detail


def test_no_network_address_is_a_problem_with_its_fix() -> None:
    checks = doctor.check_network(Config(), addresses=[])
    assert [check.status for check in checks] == [Status.PROBLEM]
    assert "museum's Wi-Fi" in checks[0].fix


def test_a_missing_camera_is_a_problem_with_its_fix_and_exit_1(config: Config, tmp_path: Path) -> None:
    def missing(camera: str, size: tuple[int, int]) -> SimulatedSource:
        raise CameraError("cannot start the Pi camera: no cameras available")

    status, output = doctor_run(replace(config, camera="picamera2"), tmp_path, missing)
    assert status == 1
    camera = output[output.index("PROBLEM camera:"):].splitlines()[:2]
    assert "cannot open picamera2: cannot start the Pi camera: no cameras available" in camera[0]
    assert "ribbon cable" in camera[1] and "libcamera-hello --list-cameras" in camera[1]
    assert not (tmp_path / "out" / doctor.PICTURE).exists()


def test_a_missing_usb_camera_says_to_plug_it_in(config: Config, tmp_path: Path) -> None:
    checks = doctor.check_camera("usb:3", (640, 480), doctor.open_camera, tmp_path)
    assert checks[0].status is Status.PROBLEM and "/dev/video3" in checks[0].message
    assert checks[0].fix.startswith("plug in the USB camera")


def test_a_picture_without_the_mat_is_not_in_view(config: Config, tmp_path: Path) -> None:
    noise = np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    camera = Picture(noise)
    status, output = doctor_run(config, tmp_path, lambda name, size: camera)
    assert status == 1
    assert lines(output, "mat") == ["PROBLEM mat: the mat is not in view"]
    assert camera.closed
    assert (tmp_path / "out" / doctor.PICTURE).is_file()


def test_a_black_picture_asks_about_the_lens_cap(tmp_path: Path) -> None:
    check = doctor.check_markers(np.zeros((480, 640, 3), np.uint8))
    assert check.status is Status.PROBLEM and "the mat is not in view" in check.message and "lens cap" in check.message


def test_part_of_the_mat_in_view_says_how_many_markers_and_to_move_the_camera() -> None:
    frame = SimulatedSource().read()
    check = doctor.check_markers(np.ascontiguousarray(frame[:, : frame.shape[1] // 2]))
    assert check.status is Status.PROBLEM
    seen = int(check.message.split()[1])
    assert 0 < seen < 8 and check.message == f"only {seen} of 8 markers in view"
    assert "move the camera up or back" in check.fix


def test_the_simulators_picture_shows_every_marker_and_is_saved(config: Config, tmp_path: Path) -> None:
    checks = doctor.check_camera("simulator", (1280, 720), simulator, tmp_path / "pictures")
    assert [check.status for check in checks] == [Status.OK] * 3
    saved = tmp_path / "pictures" / doctor.PICTURE
    assert saved.is_file() and str(saved) in checks[1].message
    assert checks[2].message == "all 8 markers of the A3 mat in view"


def test_a_pin_in_use_is_a_problem_naming_the_pin_and_its_role(config: Config, tmp_path: Path) -> None:
    factory = MockFactory()
    taken = LED(27, pin_factory=factory)
    try:
        status, output = doctor_run(config, tmp_path, factory=factory)
    finally:
        taken.close()
    assert status == 1
    assert lines(output, "pins")[1:] == ["PROBLEM pins: pin 27 (red) is in use"]
    assert "give red a free pin" in output
    released = doctor.check_pins(config.wiring, factory)  # every pin the doctor claimed, it let go of
    assert [check.status for check in released] == [Status.NOTE, Status.OK]


def test_a_pin_that_cannot_be_claimed_names_its_role(config: Config) -> None:
    class Broken(MockFactory):
        def pin(self, name, pin_class=None, **kwargs):  # type: ignore[no-untyped-def]
            if "23" in str(name):
                raise RuntimeError("GPIO busy")
            return super().pin(name, pin_class, **kwargs)

    checks = doctor.check_pins(config.wiring, Broken())
    assert [check.message for check in checks if check.status is Status.PROBLEM] == [
        "pin 23 (throw_button) cannot be claimed: GPIO busy"]


def test_a_broken_configuration_exits_2_with_its_message(tmp_path: Path) -> None:
    broken = tmp_path / "companion.toml"
    broken.write_text('admin_pin = 2468\n')
    stream = io.StringIO()
    status = doctor.doctor_command(broken, None, tmp_path, stream, tmp_path / "absent.toml")
    assert status == 2
    assert "PROBLEM configuration: " in stream.getvalue()
    assert "admin_pin must be text in quotes" in stream.getvalue()
    assert "camera:" not in stream.getvalue()


def test_without_a_configuration_file_the_defaults_are_used_with_a_note(tmp_path: Path) -> None:
    config, check = doctor.read_config(None, tmp_path / "absent.toml")
    assert config == Config() and check.status is Status.NOTE
    assert "no configuration file" in check.message and "using the defaults" in check.message


def test_no_admin_pin_is_a_note_that_admin_is_open() -> None:
    assert doctor.check_admin_pin(Config()).status is Status.NOTE
    assert "/admin" in doctor.check_admin_pin(Config()).message
    assert doctor.check_admin_pin(Config(admin_pin="2468")).status is Status.OK


def test_numpy_2_beside_picamera2_is_a_problem() -> None:
    versions = {"numpy": "2.0.1", "opencv-python-headless": "4.11.0", "gpiozero": "2.0.1", "flask": "3.1.0",
                "waitress": "3.0.2"}
    assert [c.status for c in check_packages({**versions, "picamera2": "0.3.19"})] == [Status.OK, Status.PROBLEM]
    assert check_packages({**versions, "picamera2": "0.3.19"})[1].fix.startswith("pip install 'numpy<2'")
    assert [c.status for c in check_packages({**versions, "numpy": "1.26.4", "flask": None})] == [Status.OK, Status.PROBLEM]


def test_disk_space_below_100_mb_is_a_problem_below_1_gb_a_note(tmp_path: Path) -> None:
    def free(amount: int):  # type: ignore[no-untyped-def]
        return lambda path: SimpleNamespace(free=amount)

    store = str(tmp_path / "matches.db")
    assert check_disk(store, free(50_000_000)).status is Status.PROBLEM
    assert check_disk(store, free(500_000_000)).status is Status.NOTE
    assert check_disk(store, free(5_000_000_000)).status is Status.OK
    assert str(tmp_path) in check_disk(store, free(5_000_000_000)).message


def test_a_clock_before_2025_is_a_problem_and_no_time_server_a_note() -> None:
    early = check_clock(datetime(1970, 1, 1, 0, 5), lambda: None)
    assert [c.status for c in early] == [Status.PROBLEM] and "connect to the network once" in early[0].fix
    unsynchronised = check_clock(datetime(2026, 3, 1, 12, 0), lambda: "no")
    assert [c.status for c in unsynchronised] == [Status.OK, Status.NOTE]


@pytest.fixture
def listening() -> Iterator[int]:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


def test_a_port_taken_is_a_note_and_a_free_one_ok(listening: int) -> None:
    taken = check_port("127.0.0.1", listening)
    assert taken.status is Status.NOTE and f"something already listens on {listening}" in taken.message
    assert check_port("127.0.0.1", free_port()).status is Status.OK
    assert check_port("127.0.0.1", 80).status is Status.PROBLEM


def test_senet_doctor_through_the_command_line(tmp_path: Path) -> None:
    configuration = tmp_path / "companion.toml"
    configuration.write_text(f'store = "{tmp_path / "matches.db"}"\nport = {free_port()}\n')
    result = subprocess.run([sys.executable, "-m", "senet.device.cli", "doctor", "--camera", "simulator",
                             "--config", str(configuration), "--out", str(tmp_path / "out")],
                            capture_output=True, text=True, timeout=120)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (0, 1), result.stdout + result.stderr
    found = result.stdout.splitlines()
    assert found[0].startswith("ok      python: Python 3.")
    assert f"ok      configuration: {configuration} loads" in found
    assert "ok      mat: all 8 markers of the A3 mat in view" in found
    assert (tmp_path / "out" / doctor.PICTURE).is_file()


def test_senet_doctor_refuses_a_camera_that_does_not_exist(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "senet.device.cli", "doctor", "--camera", "webcam"],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("senet doctor: --camera: unknown camera 'webcam'")
