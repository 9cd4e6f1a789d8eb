"""``senet run``: the companion itself, on a Pi or in simulation.

In simulation (no Pi camera or pins) the simulated camera renders a virtual board, mock
pins stand in for the LEDs, and a simulated pair of players throws the electronic sticks
and moves the virtual pieces, so the whole chain runs for real: render -> vision ->
referee -> LEDs. (The phone page that lets a person move the pieces comes with the page.)
"""

from __future__ import annotations

import random
import time
import warnings
from pathlib import Path
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpiozero import Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory

from senet.device.companion import Companion
from senet.device.config import Config
from senet.device.journal import Journal
from senet.device.lights import Lights
from senet.engine.referee import Referee, Verdict
from senet.engine.throws import SeededSticks
from senet.vision.geometry import known_mats
from senet.vision.reader import BoardReader
from senet.vision.simulator import Scene
from senet.vision.sources import CameraError, FrameSource, Reconnecting, SimulatedSource, open_source
from senet.vision.stability import Stabiliser


@dataclass
class SimulatedPlayers:
    """Plays both sides on the simulated board: throws, then moves a random legal piece."""

    companion: Companion
    source: SimulatedSource
    rng: random.Random

    def act(self) -> None:
        referee = self.companion.referee
        game = referee.game
        if game.is_over or referee.illegal:
            return
        if referee.seen is not None and referee.seen != referee.expected:
            self.source.scene = Scene(_text(referee.expected))  # finish what a rule moved by itself
            return
        if game.current_throw is None:
            self.companion.electronic_throw()
            return
        moves = game.options.moves
        if moves:
            self.source.scene = Scene(_text(self.rng.choice(moves).after))
        elif game.options.pass_move is not None:
            self.companion.confirm()


def _text(board: tuple[int, ...]) -> str:
    from senet.engine.board import format_board

    return format_board(board)


def pin_factory() -> Any:
    """The Pi's own pins when there are any, else mock pins (simulation)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gpiozero warns about every factory it cannot load
        try:
            return Device.ensure_pin_factory()
        except BadPinFactory:
            return MockFactory()


def open_camera(camera: str, seed: int | None) -> FrameSource:
    """The named camera; ``auto`` is the Pi camera when there is one, else the simulator."""
    if camera == "auto":
        try:
            return open_source("picamera2")
        except CameraError:
            return SimulatedSource(seed=seed or 0)
    if camera == "simulator":
        return SimulatedSource(seed=seed or 0)
    return open_source(camera)


def run(config: Config, seed: int | None, turns: int | None, say: Callable[[str], None]) -> int:
    """Run the companion until the game ends (or ``turns`` moves, or Ctrl-C)."""
    variant, camera, settle_s, fps = config.variant, config.camera, config.settle_seconds, config.fps
    source = open_camera(camera, seed)
    simulated = isinstance(source, SimulatedSource)
    camera_feed = Reconnecting(lambda: source)
    first = None
    while first is None:
        first = camera_feed.read()
        if first is None:
            say(f"waiting for the camera: {camera_feed.status}")
            time.sleep(1)
    reader = BoardReader(known_mats()[0])
    reader.calibrate(first)
    factory = MockFactory() if simulated else pin_factory()
    lights = Lights(config.wiring, pin_factory=factory)
    sticks = SeededSticks(seed) if seed is not None else None
    journal = Journal(Path(config.journal), variant) if config.journal else None
    referee = journal.resume() if journal is not None else Referee(variant)
    companion = Companion(referee, reader, lights, Stabiliser(settle_s), journal=journal)
    if sticks is not None:
        companion.sticks = sticks

    def report(verdict: Verdict, leds: dict[str, object]) -> None:
        details = " ".join(f"{k}={v}" for k, v in (("throw", verdict.throw), ("from", verdict.from_square),
                           ("to", verdict.to_square), ("rules", ",".join(verdict.rules))) if v)
        say(f"{verdict.event} {details} {verdict.message} leds={leds}".replace("  ", " "))

    companion.listeners.append(report)
    players = SimulatedPlayers(companion, source, random.Random(seed)) if isinstance(source, SimulatedSource) else None
    say(f"senet run: {variant}, {'simulated camera and pins' if simulated else camera}; Ctrl-C stops")
    started, moves = time.monotonic(), 0
    try:
        while not companion.referee.game.is_over and (turns is None or moves < turns):
            frame = camera_feed.read()
            verdicts = companion.step(frame, time.monotonic() - started)
            moves += sum(v.event == "move" for v in verdicts)
            if players is not None and not verdicts and companion.stabiliser_idle():
                players.act()
            time.sleep(max(0.0, 1 / fps - 0.001))
    except KeyboardInterrupt:
        say("stopped")
    finally:
        lights.close()
        camera_feed.close()
    return 0
