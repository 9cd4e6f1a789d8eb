"""The service for the Pi: the unit verifies, is Type=notify with a watchdog, and the companion
says READY=1 when it is up and feeds the watchdog from its loop (and stops when the loop hangs)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from senet.device.config import Config
from senet.device.loop import CompanionLoop
from senet.device.notify import Notifier
from senet.device.service import build_runtime

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "senet-companion.service"
ANALYZE = shutil.which("systemd-analyze")


def listening(path: Path) -> socket.socket:
    """A notification socket as systemd has one: a Unix datagram socket."""
    channel = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    channel.bind(str(path))
    channel.settimeout(0.2)
    return channel


def received(channel: socket.socket, seconds: float) -> list[str]:
    messages, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            messages.append(channel.recv(4096).decode())
        except TimeoutError:
            pass
    return messages


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_the_unit_verifies(tmp_path: Path) -> None:
    """systemd-analyze verify, with ExecStart pointing at this checkout's senet (the Pi's is in /opt)."""
    senet = Path(sys.executable).parent / "senet"
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text().replace("/opt/senet-companion/.venv/bin/senet", str(senet)))
    result = subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "senet-companion.service" not in result.stderr  # no warning about the unit itself


def test_the_unit_is_watched_reads_etc_and_keeps_the_devices() -> None:
    text = UNIT.read_text()
    settings = dict(line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))
    assert settings["Type"] == "notify" and int(settings["WatchdogSec"]) > 0 and settings["Restart"] == "on-failure"
    assert settings["ExecStart"].endswith("senet run --config /etc/senet/companion.toml")
    assert settings["StateDirectory"] == "senet" and "video" in settings["SupplementaryGroups"]
    assert "PrivateDevices" not in settings and "DevicePolicy" not in settings  # /dev/gpiochip* and the camera stay


def test_the_loop_feeds_the_watchdog_and_stops_when_it_hangs(tmp_path: Path) -> None:
    channel = listening(tmp_path / "notify")
    runtime = build_runtime(Config(variant="netherworld", camera="simulator", fps=20), seed=1, autoplay=False,
                            say=lambda line: None)
    loop = CompanionLoop(runtime, notifier=Notifier(str(tmp_path / "notify"), interval=0.1))
    worker = threading.Thread(target=loop.run, daemon=True)
    worker.start()
    assert received(channel, 1.0).count("WATCHDOG=1") >= 3
    with runtime.lock:  # the loop's next round waits for the lock: it hangs
        received(channel, 0.2)  # what it sent before
        assert received(channel, 1.0) == []
    assert "WATCHDOG=1" in received(channel, 1.0)  # it comes back
    runtime.close()
    worker.join(5)


def test_senet_run_says_ready_to_systemd(tmp_path: Path) -> None:
    channel = listening(tmp_path / "notify")
    env = {"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "400000", "PATH": "/usr/bin:/bin"}
    process = subprocess.Popen([sys.executable, "-m", "senet.device.cli", "run", "--camera", "simulator", "--no-page"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        messages = received(channel, 8.0)
    finally:
        process.terminate()
        process.wait(20)
    assert messages and messages[0].startswith("READY=1")
    assert messages.count("WATCHDOG=1") >= 3
    assert process.returncode == 0  # SIGTERM closes it as Ctrl-C does


def test_without_systemd_nothing_is_sent() -> None:
    notifier = Notifier(socket_path="")
    assert not notifier.ready() and not notifier.alive(now=100.0)
