"""The configuration file: good settings are used, bad ones are a clear error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from senet.device.config import ConfigError, load_config, parse_config


def test_settings_and_pins_override_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('variant = "blockade"\nsettle_seconds = 0.8\n[pins]\nsticks = [1, 2, 3, 4]\nbuzzer = 26\n')
    config = load_config(path)
    assert (config.variant, config.settle_seconds, config.camera) == ("blockade", 0.8, "auto")
    assert config.wiring.sticks == (1, 2, 3, 4) and config.wiring.buzzer == 26 and config.wiring.green == 17


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("variant = \n", "not valid TOML"),
        ('variant = "chess"\n', "variant 'chess' is unknown"),
        ("fps = -1\n", "fps must be a positive number"),
        ("colour = 1\n", "unknown setting 'colour'"),
        ("[pins]\ngreen = 40\n", "green must be a BCM pin number"),
        ("[pins]\nsticks = [1, 2]\n", "sticks must list four"),
        ("[pins]\nred = 17\n", "uses a pin twice (17)"),
        ("[pins]\nlaser = 3\n", "unknown pin 'laser'"),
    ],
)
def test_broken_settings_are_named(text: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_config(text, "companion.toml")


def test_senet_run_refuses_a_broken_config_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text("[pins]\ngreen = 99\n")
    result = subprocess.run([sys.executable, "-m", "senet.device.cli", "run", "--config", str(path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "green must be a BCM pin number" in result.stderr and "Traceback" not in result.stderr
    missing = subprocess.run([sys.executable, "-m", "senet.device.cli", "run", "--config", str(tmp_path / "none.toml")],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "cannot read the configuration" in missing.stderr
