"""`senet run` on a machine without a Pi: the whole chain runs in simulation."""

from __future__ import annotations

import subprocess
import sys


def test_senet_run_simulates_a_game_through_camera_referee_and_leds() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "senet.device.cli", "run", "--variant", "netherworld", "--seed", "3", "--turns", "2",
         "--fps", "20", "--settle", "0.3", "--autoplay", "--no-page"],
        capture_output=True, text=True, timeout=240,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "simulated camera and pins" in lines[0]
    assert sum(line.startswith("move ") for line in lines) == 2
    assert any(line.startswith("start ") for line in lines)
    assert "Traceback" not in result.stderr
