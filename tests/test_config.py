"""The configuration file: good settings are used, bad ones are a clear error."""

from __future__ import annotations

import re
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
        ("fps = -1\n", "fps must be a number from 1 to 60 (such as fps = 10), not -1"),
        ("fps = 1000\n", "fps must be a number from 1 to 60"),
        ("settle_seconds = 0\n", "settle_seconds must be a number from 0.1 to 10"),
        ("colour = 1\n", "unknown key 'colour'; the keys are in docs/configuration.md"),
        ("setle_seconds = 1\n", "unknown key 'setle_seconds' (did you mean 'settle_seconds'?)"),
        ('port = "8080"\n', "port must be a whole number from 1 to 65535"),
        ("teaching = \"yes\"\n", "teaching must be true or false"),
        ("admin_pin = 2468\n", 'admin_pin must be text in quotes, digits only, such as admin_pin = "2468"'),
        ('admin_pin = "secret"\n', "admin_pin must be text in quotes, digits only"),
        ('camera = "webcam"\n', "unknown camera 'webcam'"),
        ('language = "fr"\n', "language must be one of en, hu, ru, cs, it, de, ar"),
        ("resolution = [1280]\n", "resolution must be [width, height]"),
        ("place = 61\n", 'place must be text in quotes, such as place = "Room 61"'),
        ("[pins]\ngreen = 40\n", "green must be a BCM pin number"),
        ("[pins]\nsticks = [1, 2]\n", "sticks must list four"),
        ("[pins]\nred = 17\n", "uses pin 17 twice (green and red); give one of them a free pin"),
        ("[pins]\nbuzzer = 12\n", "uses pin 12 twice (sticks and buzzer)"),
        ("[pins]\nlaser = 3\n", "unknown pin 'laser'"),
    ],
)
def test_broken_settings_are_named(text: str, words: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(words)):
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


def test_every_key_is_documented_with_its_default() -> None:
    """docs/configuration.md has a row for every key and pin, showing the default the code uses."""
    from dataclasses import fields

    from senet.device.config import CHECKS, Config
    from senet.device.lights import Wiring

    text = (Path(__file__).resolve().parents[1] / "docs" / "configuration.md").read_text()
    rows = {line.split("|")[1].strip(" `"): line.split("|")[2].strip() for line in text.splitlines() if line.startswith("| `")}
    assert set(CHECKS) <= set(rows) and {f.name for f in fields(Wiring)} <= set(rows)
    defaults = Config()
    for key in CHECKS:
        value = getattr(defaults, key)
        shown = rows[key].strip("`")
        if isinstance(value, str):
            assert shown == f'"{value}"', key
        elif isinstance(value, tuple):
            assert shown == str(list(value)), key
        elif isinstance(value, bool):
            assert shown == str(value).lower(), key
        else:
            assert float(shown) == value, key
    example = text.split("```toml")[1].split("```")[0]
    assert parse_config(example, "docs/configuration.md").admin_pin == "482913"  # the example is a valid file
