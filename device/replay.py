"""``senet referee replay``: a folder of frames through exactly the loop ``senet run`` uses.

Mock pins stand in for the LEDs; frame ``i`` is taken at ``i / fps`` seconds. Yields one
JSON-ready dict per referee event (throw, move, illegal, pass, undo, game-over).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from senet.device.companion import Companion
from senet.device.lights import Lights, Wiring
from senet.engine.moves import OFF
from senet.engine.referee import Referee, Verdict
from senet.vision.photos import calibrated_reader
from senet.vision.sources import CameraError, EndOfFrames, ImageFolderSource
from senet.vision.stability import Stabiliser

EVENTS = ("throw", "move", "illegal", "pass", "undo", "game-over")


def replay(variant: str, start_image: Path, frames: Path, fps: float = 10.0, settle_s: float = 0.5,
           mat_file: Path | None = None) -> Iterator[dict[str, object]]:
    reader = calibrated_reader(start_image, mat_file, variant, stream=True)
    source = ImageFolderSource(frames)
    lights = Lights(Wiring(), pin_factory=MockFactory())
    companion = Companion(Referee(variant), reader, lights, Stabiliser(settle_s))
    try:
        index = 0
        while True:
            try:
                frame = source.read()
            except CameraError:
                frame = None  # a corrupt frame: the loop goes on
            except EndOfFrames:
                return
            for verdict in companion.step(frame, index / fps):
                if verdict.event in EVENTS:
                    yield event_json(index, verdict, lights.state())
            index += 1
    finally:
        lights.close()


def event_json(frame: int, verdict: Verdict, leds: dict[str, object]) -> dict[str, object]:
    """The replay contract's line for one verdict."""
    said = verdict.to_dict()
    data: dict[str, object] = {"frame": frame, "event": verdict.event}
    if verdict.event == "throw":
        data["light_up"] = said["light_up"]
    if verdict.event in ("move", "illegal", "undo") and said["from"]:
        data["from"] = said["from"]
        data["to"] = "off" if said["to"] == OFF else said["to"]
    if said["rules"]:
        data["rules"] = said["rules"]
    if said["winner"] is not None:
        data["winner"] = said["winner"]
    data["leds"] = {key: leds[key] for key in ("green", "red", "amber", "turn")}
    return data
