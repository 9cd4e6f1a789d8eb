"""The companion's configuration file (TOML): variant, camera, timing and the pin wiring.

    variant = "kendall"
    camera = "auto"            # auto, simulator, picamera2, usb:0, video:FILE, folder:DIR
    settle_seconds = 0.5
    fps = 10
    store = "/var/lib/senet/matches.db"      # every match, safe across a power cut
    place = "Room 61"          # written with every match
    admin_pin = "2468"         # undo, set-position and new game on the page need it
    idle_reset_minutes = 20    # museum mode: an abandoned game starts over
    teaching = true            # legal moves and throw odds on the page (false for club matches)
    settings = "/var/lib/senet/settings.json"  # what the operator changes on the page, kept across restarts

    [pins]                     # BCM numbers; the defaults are the documented wiring
    green = 17
    red = 27
    amber = 22
    dark_turn = 5
    light_turn = 6
    sticks = [12, 16, 20, 21]
    buzzer = 26                # leave out for none
    throw_button = 23
    undo_button = 24

    >>> config = parse_config('variant = "houses"\\n[pins]\\nred = 4\\n', "example.toml")
    >>> config.variant, config.wiring.red, config.wiring.green
    ('houses', 4, 17)
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from senet.device.lights import Wiring
from senet.engine.variants import VARIANTS


class ConfigError(ValueError):
    """The configuration file cannot be used; the message names the file and the setting."""


@dataclass(frozen=True)
class Config:
    variant: str = "kendall"
    camera: str = "auto"
    settle_seconds: float = 0.5
    fps: float = 10.0
    #: The match store (SQLite; survives a power cut); "" for none.
    store: str = ""
    #: Where the matches are played, written with each (a museum's room, a club's name).
    place: str = ""
    #: The operator's PIN for undo and setting the position on the page ("" leaves them open).
    admin_pin: str = ""
    #: Museum mode: a started game with nothing happening for this long goes back to the start (0: never).
    idle_reset_minutes: float = 0.0
    #: Teaching mode (legal moves and throw odds on the page): on for museums, off for matches.
    teaching: bool = True
    #: Where the operator's changes made on the page are kept ("" : until the next restart).
    settings: str = ""
    wiring: Wiring = field(default_factory=Wiring)


#: What the operator may change on the page (the rest needs the configuration file).
PAGE_SETTINGS = ("variant", "teaching", "idle_reset_minutes", "settle_seconds")


def load_config(path: Path) -> Config:
    try:
        text = path.read_text()
    except OSError as error:
        raise ConfigError(f"cannot read the configuration {path}: {error.strerror}") from None
    return parse_config(text, str(path))


def parse_config(text: str, name: str) -> Config:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{name} is not valid TOML: {error}") from None
    config = Config()
    pins = data.pop("pins", {})
    if not isinstance(pins, dict):
        raise ConfigError(f"{name}: 'pins' must be a table ([pins])")
    for key, value in data.items():
        known = ("variant", "camera", "settle_seconds", "fps", "store", "place", "admin_pin", "idle_reset_minutes", "teaching", "settings")
        if key not in known:
            raise ConfigError(f"{name}: unknown setting {key!r}; known: {', '.join(known)}, [pins]")
        config = replace(config, **{key: _checked(name, key, value)})
    wiring = config.wiring
    known = {f.name for f in fields(Wiring)}
    for key, value in pins.items():
        if key not in known:
            raise ConfigError(f"{name}: unknown pin {key!r} in [pins]; known: {', '.join(sorted(known))}")
        wiring = replace(wiring, **{key: _pin(name, key, value)})
    used = [p for p in (wiring.green, wiring.red, wiring.amber, wiring.dark_turn, wiring.light_turn, *wiring.sticks,
                        wiring.buzzer, wiring.throw_button, wiring.undo_button) if p is not None]
    if len(used) != len(set(used)):
        raise ConfigError(f"{name}: [pins] uses a pin twice ({sorted(p for p in used if used.count(p) > 1)[0]})")
    return replace(config, wiring=wiring)


def _checked(name: str, key: str, value: Any) -> Any:
    if key == "variant":
        if not isinstance(value, str) or value not in VARIANTS:
            raise ConfigError(f"{name}: variant {value!r} is unknown; choose one of {', '.join(VARIANTS)}")
        return value
    if key == "teaching":
        if not isinstance(value, bool):
            raise ConfigError(f"{name}: teaching must be true or false")
        return value
    if key in ("camera", "store", "place", "admin_pin", "settings"):
        if not isinstance(value, str):
            raise ConfigError(f"{name}: {key} must be a string such as 'auto' or '/var/lib/senet/matches.db'")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or (value == 0 and key != "idle_reset_minutes"):
        raise ConfigError(f"{name}: {key} must be a positive number, not {value!r}")
    return float(value)


def _pin(name: str, key: str, value: Any) -> Any:
    def one(pin: Any) -> int:
        if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
            raise ConfigError(f"{name}: [pins] {key} must be a BCM pin number 0..27, not {pin!r}")
        return pin

    if key == "sticks":
        if not isinstance(value, list) or len(value) != 4:
            raise ConfigError(f"{name}: [pins] sticks must list four pin numbers")
        return tuple(one(pin) for pin in value)
    return one(value)


def apply_settings(config: Config, values: Mapping[str, Any], name: str) -> Config:
    """The operator's ``values`` (from the page or the settings file) on top of ``config``.

        >>> apply_settings(Config(), {"idle_reset_minutes": 15}, "the page").idle_reset_minutes
        15.0
        >>> apply_settings(Config(), {"camera": "usb:0"}, "the page")
        Traceback (most recent call last):
        senet.device.config.ConfigError: the page: camera cannot be changed here; these can: variant, teaching, idle_reset_minutes, settle_seconds
    """
    for key, value in values.items():
        if key not in PAGE_SETTINGS:
            raise ConfigError(f"{name}: {key} cannot be changed here; these can: {', '.join(PAGE_SETTINGS)}")
        config = replace(config, **{key: _checked(name, key, value)})
    return config


def load_settings(config: Config) -> Config:
    """The configuration with the operator's saved settings on top (none saved: as it is)."""
    if not config.settings or not os.path.exists(config.settings):
        return config
    try:
        with open(config.settings, encoding="utf-8") as file:
            values = json.load(file)
    except (OSError, ValueError) as error:
        raise ConfigError(f"cannot read the saved settings {config.settings}: {error}") from None
    if not isinstance(values, dict):
        raise ConfigError(f"{config.settings}: the saved settings must be a JSON object")
    return apply_settings(config, values, config.settings)


def save_settings(config: Config) -> None:
    """Keep the page's settings in the settings file: written aside, flushed, then renamed over it."""
    if not config.settings:
        return
    values = {key: getattr(config, key) for key in PAGE_SETTINGS}
    temporary = f"{config.settings}.new"
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump(values, file, indent=1)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, config.settings)
