"""The companion's configuration file (TOML); every key is in docs/configuration.md.

    variant = "kendall"
    camera = "auto"            # auto, simulator, picamera2, usb:0, video:FILE, folder:DIR
    resolution = [1280, 720]   # the camera's picture size (picamera2, usb:N)
    settle_seconds = 0.5
    fps = 10
    host = "0.0.0.0"           # where the page listens: every address, so phones reach it
    port = 8080
    public_address = "senet.local"   # the name phones use ("": this machine's network address)
    language = "en"            # the page's language when a phone's own is not offered
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
    >>> parse_config('admin_pin = 2468', "example.toml")
    Traceback (most recent call last):
    senet.device.config.ConfigError: example.toml: admin_pin must be text in quotes, digits only, such as admin_pin = "2468"
"""

from __future__ import annotations

import difflib
import json
import os
import tomllib
from collections.abc import Callable, Mapping
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
    #: The camera's picture size (width, height) for picamera2 and USB cameras.
    resolution: tuple[int, int] = (1280, 720)
    settle_seconds: float = 0.5
    fps: float = 10.0
    #: Where the page listens ("0.0.0.0": every address of this machine, so phones reach it).
    host: str = "0.0.0.0"
    port: int = 8080
    #: The name or address phones use to reach the page ("": this machine's network address).
    public_address: str = ""
    #: The page's language for a phone whose own language is not offered.
    language: str = "en"
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
    """Read a configuration; ConfigError names the file, the key and the fix for the first problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{name} is not valid TOML: {error}; see docs/configuration.md for the format") from None
    config = Config()
    pins = data.pop("pins", {})
    if not isinstance(pins, dict):
        raise ConfigError(f"{name}: pins must be a table: a line [pins], then one pin per line (green = 17)")
    for key, value in data.items():
        if key not in CHECKS:
            raise ConfigError(f"{name}: unknown key {key!r}{_maybe(key, CHECKS)}; the keys are in docs/configuration.md")
        config = replace(config, **{key: CHECKS[key](name, key, value)})
    wiring = config.wiring
    known = {f.name for f in fields(Wiring)}
    for key, value in pins.items():
        if key not in known:
            raise ConfigError(f"{name}: unknown pin {key!r} in [pins]{_maybe(key, known)}; known: {', '.join(sorted(known))}")
        wiring = replace(wiring, **{key: _pin(name, key, value)})
    owners: dict[int, str] = {}
    for key in (f.name for f in fields(Wiring)):
        value = getattr(wiring, key)
        for number in value if isinstance(value, tuple) else (value,):
            if number is None:
                continue
            if number in owners:
                raise ConfigError(f"{name}: [pins] uses pin {number} twice ({owners[number]} and {key}); give one of them a free pin")
            owners[number] = key
    return replace(config, wiring=wiring)


def _maybe(key: str, known: Mapping[str, object] | set[str]) -> str:
    close = difflib.get_close_matches(key, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


Check = Callable[[str, str, Any], Any]


def _text(example: str) -> Check:
    def check(name: str, key: str, value: Any) -> str:
        if not isinstance(value, str):
            raise ConfigError(f"{name}: {key} must be text in quotes, such as {key} = {example}")
        return value
    return check


def _number(low: float, high: float, example: str, whole: bool = False) -> Check:
    def check(name: str, key: str, value: Any) -> float:
        kind: tuple[type, ...] = (int,) if whole else (int, float)
        if isinstance(value, bool) or not isinstance(value, kind) or not low <= value <= high:
            what = "a whole number" if whole else "a number"
            raise ConfigError(f"{name}: {key} must be {what} from {low:g} to {high:g} (such as {key} = {example}), not {value!r}")
        return int(value) if whole else float(value)
    return check


def _variant(name: str, key: str, value: Any) -> str:
    if not isinstance(value, str) or value not in VARIANTS:
        raise ConfigError(f"{name}: variant {value!r} is unknown; choose one of {', '.join(VARIANTS)}")
    return value


def _teaching(name: str, key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{name}: teaching must be true or false (no quotes)")
    return value


def _pin_code(name: str, key: str, value: Any) -> str:
    if not isinstance(value, str) or (value and not (value.isascii() and value.isdigit() and 4 <= len(value) <= 12)):
        raise ConfigError(f'{name}: admin_pin must be text in quotes, digits only, such as admin_pin = "2468"')
    return value


def _camera(name: str, key: str, value: Any) -> str:
    from senet.vision.sources import parse_camera

    if not isinstance(value, str):
        raise ConfigError(f'{name}: camera must be text in quotes, such as camera = "auto"')
    if value != "auto":
        try:
            parse_camera(value)
        except ValueError as error:
            raise ConfigError(f"{name}: {error}") from None
    return value


def _resolution(name: str, key: str, value: Any) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            and 160 <= value[0] <= 4096 and 120 <= value[1] <= 3072):
        raise ConfigError(f"{name}: resolution must be [width, height] in pixels, such as resolution = [1280, 720]")
    return (value[0], value[1])


def _language(name: str, key: str, value: Any) -> str:
    from senet.web.i18n import languages

    if not isinstance(value, str) or value not in languages():
        raise ConfigError(f"{name}: language must be one of {', '.join(languages())} (in quotes), not {value!r}")
    return value


#: Every key of the file (outside [pins]) and how its value is checked.
CHECKS: dict[str, Check] = {
    "variant": _variant,
    "camera": _camera,
    "resolution": _resolution,
    "settle_seconds": _number(0.1, 10, "0.5"),
    "fps": _number(1, 60, "10"),
    "host": _text('"0.0.0.0"'),
    "port": _number(1, 65535, "8080", whole=True),
    "public_address": _text('"senet.local"'),
    "language": _language,
    "store": _text('"/var/lib/senet/matches.db"'),
    "place": _text('"Room 61"'),
    "admin_pin": _pin_code,
    "idle_reset_minutes": _number(0, 1440, "20"),
    "teaching": _teaching,
    "settings": _text('"/var/lib/senet/settings.json"'),
}


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
        config = replace(config, **{key: CHECKS[key](name, key, value)})
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
