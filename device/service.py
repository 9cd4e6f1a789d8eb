"""``senet run``: the companion itself, on a Pi or in simulation.

In simulation (no Pi camera or pins) the simulated camera renders a virtual board and mock
pins stand in for the LEDs; a person throws the electronic sticks and moves the virtual
pieces on the page (or, with ``--autoplay``, two simulated players do), so the whole chain
runs for real: render -> vision -> referee -> LEDs -> page.
"""

from __future__ import annotations

import random
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gpiozero import Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory

from senet.device.companion import Companion
from senet.device.config import Config, ConfigError, apply_settings, load_settings, save_settings
from senet.device.lights import Buttons, Lights
from senet.device.store import MatchStore, Termination
from senet.engine.board import format_board
from senet.engine.referee import Referee, Verdict
from senet.engine.throws import SeededSticks, throw_odds
from senet.engine.variants import VARIANTS
from senet.vision.geometry import known_mats
from senet.vision.reader import BoardReader
from senet.vision.simulator import Scene
from senet.vision.sources import CameraError, FrameSource, Reconnecting, SimulatedSource, open_source
from senet.vision.stability import Stabiliser
from senet.web.events import EventBus


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
            self.source.scene = Scene(format_board(referee.expected))  # finish what a rule moved by itself
            return
        if game.current_throw is None:
            self.companion.electronic_throw()
            return
        moves = game.options.moves
        if moves:
            self.source.scene = Scene(format_board(self.rng.choice(moves).after))
        elif game.options.pass_move is not None:
            self.companion.confirm()


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


@dataclass
class Runtime:
    """The running companion: its loop, and what the page may ask of it (thread-safe)."""

    companion: Companion
    camera_feed: Reconnecting
    source: FrameSource
    players: SimulatedPlayers | None = None
    buttons: Buttons | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    log: deque[dict[str, object]] = field(default_factory=lambda: deque(maxlen=30))
    stop: threading.Event = field(default_factory=threading.Event)
    bus: EventBus = field(default_factory=EventBus)
    moves: int = 0
    #: The configuration, with the operator's changes from the page (rule system, teaching
    #: mode, idle reset, settle time).
    config: Config = field(default_factory=Config)
    last_activity: float = field(default_factory=time.monotonic)

    @property
    def simulated(self) -> bool:
        return isinstance(self.source, SimulatedSource)

    def loop(self, turns: int | None = None) -> None:
        """Read frames until the game ends, ``turns`` moves were made, or ``stop`` is set."""
        started = time.monotonic()
        trouble = None
        while not self.stop.is_set() and not self.companion.referee.game.is_over and (turns is None or self.moves < turns):
            frame = self.camera_feed.read()
            with self.lock:
                verdicts = self.companion.step(frame, time.monotonic() - started)
                self.moves += sum(v.event == "move" for v in verdicts)
                if verdicts:
                    self.last_activity = time.monotonic()
                self.reset_if_idle(time.monotonic())
                if self.companion.trouble != trouble:  # the amber light changed without a verdict
                    trouble = self.companion.trouble
                    self.bus.publish(self.state())
                if self.players is not None and not verdicts and self.companion.stabiliser_idle():
                    self.players.act()
            time.sleep(max(0.0, 1 / self.config.fps - 0.001))

    def close(self) -> None:
        self.stop.set()
        if self.buttons is not None:
            self.buttons.close()
        self.companion.lights.close()
        self.camera_feed.close()

    def remember(self, verdict: Verdict, leds: dict[str, object]) -> None:
        """Keep the verdict for the page and send the new state to every viewer."""
        self.log.appendleft({"event": verdict.event, "note": verdict.note, "params": dict(verdict.params),
                             "violations": [{"rule": v.rule, "squares": list(v.squares)} for v in verdict.violations],
                             "from": verdict.from_square, "to": verdict.to_square, "throw": verdict.throw})
        self.bus.publish(self.state())

    # -- what the page asks -------------------------------------------------------

    def state(self) -> dict[str, object]:
        with self.lock:
            referee = self.companion.referee
            game = referee.game
            turn = game.position.turn
            scene = self.source.scene.board if isinstance(self.source, SimulatedSource) else None
            return {
                "variant": game.variant.name,
                "started": game.started,
                "board": game.position.board_text,
                "virtual_board": scene,
                "turn": turn.label if turn and game.started else None,
                "throw": game.current_throw,
                "moves": [{"from": m.from_square, "to": "off" if m.to_square == 31 else m.to_square} for m in game.options.moves],
                "may_pass": game.options.pass_move is not None and bool(game.options.moves),
                "odds": {str(value): float(chance) for value, chance in throw_odds(game.variant.zero_value).items()},
                "teaching": self.config.teaching,
                "record": game.record.format(),
                "winner": game.position.winner.label if game.position.winner else None,
                "leds": self.companion.lights.state(),
                "trouble": self.companion.trouble,
                "trouble_kind": self.companion.trouble_kind,
                "simulated": self.simulated,
                "log": list(self.log),
            }

    def throw(self) -> None:
        with self.lock:
            self.companion.electronic_throw()

    def confirm(self) -> None:
        with self.lock:
            self.companion.confirm()

    def undo(self) -> None:
        with self.lock:
            self.companion.undo()

    def new_game(self, variant: str | None = None, termination: Termination = Termination.NEW_GAME) -> None:
        """Start again from the set-up (another rule system if given); the players set up the board."""
        with self.lock:
            name = variant or self.companion.referee.game.variant.name
            if name not in VARIANTS:
                raise ValueError(f"unknown variant {name!r}; choose one of {', '.join(VARIANTS)}")
            if name != self.config.variant:
                self._keep_settings({"variant": name})
            self.companion.new_game(name, termination)
            self.log.clear()
            self.last_activity = time.monotonic()
            if isinstance(self.source, SimulatedSource):
                self.source.scene = Scene(format_board(self.companion.referee.expected))
            self.bus.publish(self.state())

    def set_teaching(self, on: bool) -> None:
        self.change_settings({"teaching": on})

    def settings(self) -> dict[str, object]:
        """What the operator may change on the page, and the file that keeps it (None: kept until a restart)."""
        return {"variant": self.config.variant, "teaching": self.config.teaching,
                "idle_reset_minutes": self.config.idle_reset_minutes, "settle_seconds": self.config.settle_seconds,
                "kept_in": self.config.settings or None}

    def change_settings(self, values: dict[str, object]) -> None:
        """The operator's changes: checked, kept in the settings file, then used (ValueError saying
        what is wrong, and nothing changed, when one is not acceptable or cannot be kept)."""
        with self.lock:
            self._keep_settings(values)
            self.bus.publish(self.state())

    def _keep_settings(self, values: dict[str, object]) -> None:
        config = apply_settings(self.config, values, "settings")
        try:
            save_settings(config)
        except OSError as error:
            raise ConfigError(f"cannot keep the settings in {config.settings}: {error.strerror}") from None
        self.config = config
        self.companion.stabiliser.settle_s = config.settle_seconds

    def reset_if_idle(self, now: float) -> bool:
        """Museum mode: an abandoned game goes back to the start after ``idle_reset_minutes``."""
        game = self.companion.referee.game
        idle_s = self.config.idle_reset_minutes * 60
        if idle_s and game.started and now - self.last_activity > idle_s:
            self.new_game(termination=Termination.IDLE_RESET)
            return True
        return False

    def set_position(self, board: str, turn: str, throw: int | None = None) -> None:
        """An operator sets the position by hand (the camera was wrong); ValueError if it is not one."""
        with self.lock:
            self.companion.set_position(board, turn, throw)

    def move_virtual(self, start: int, end: int | None) -> None:
        """In simulation: a person picks up the piece on ``start`` and puts it on ``end``
        (None: off the board); a piece already there goes to ``start`` (a swap by hand)."""
        if not isinstance(self.source, SimulatedSource):
            raise ValueError("pieces can only be moved on the simulated board")
        with self.lock:
            cells = list(self.source.scene.board)
            if not 1 <= start <= 30 or cells[start - 1] == "." or (end is not None and not 1 <= end <= 30):
                raise ValueError("pick a square with a piece, and a square 1..30 (or off) to put it on")
            piece, cells[start - 1] = cells[start - 1], "."
            if end is not None:
                cells[start - 1], cells[end - 1] = cells[end - 1], piece
            self.source.scene = replace(self.source.scene, board="".join(cells))
            self.bus.publish(self.state())


def build_runtime(config: Config, seed: int | None, autoplay: bool, say: Callable[[str], None]) -> Runtime:
    """Open the camera, calibrate on the start position, wire LEDs, match store and referee
    (the operator's saved settings on top of ``config``)."""
    try:
        config = load_settings(config)
    except ConfigError as error:  # a damaged settings file: start with the configuration file's values
        say(f"{error}; using the configuration file's settings")
    source = open_camera(config.camera, seed)
    camera_feed = Reconnecting(lambda: source)
    first = None
    while first is None:
        first = camera_feed.read()
        if first is None:
            say(f"waiting for the camera: {camera_feed.status}")
            time.sleep(1)
    reader = BoardReader(known_mats()[0], config.variant)
    reader.calibrate(first)
    simulated = isinstance(source, SimulatedSource)
    lights = Lights(config.wiring, pin_factory=MockFactory() if simulated else pin_factory())
    store = MatchStore.open(Path(config.store), say) if config.store else None
    referee = store.resume_or_begin(config.variant, config.place, say) if store is not None else Referee(config.variant)
    companion = Companion(referee, reader, lights, Stabiliser(config.settle_seconds), store=store, place=config.place)
    if seed is not None:
        companion.sticks = SeededSticks(seed)
    players = SimulatedPlayers(companion, source, random.Random(seed)) if simulated and autoplay else None
    runtime = Runtime(companion, camera_feed, source, players, config=config)
    runtime.buttons = Buttons(config.wiring, runtime.throw, runtime.confirm, runtime.undo, pin_factory=lights.pin_factory)
    companion.listeners.append(runtime.remember)
    return runtime


def run(config: Config, seed: int | None, turns: int | None, autoplay: bool, port: int | None,
        say: Callable[[str], None]) -> int:
    """Run the companion until the game ends (or ``turns`` moves, or Ctrl-C); serve the page on ``port``."""
    runtime = build_runtime(config, seed, autoplay, say)

    def report(verdict: Verdict, leds: dict[str, object]) -> None:
        details = " ".join(f"{k}={v}" for k, v in (("throw", verdict.throw), ("from", verdict.from_square),
                           ("to", verdict.to_square), ("rules", ",".join(verdict.rules))) if v)
        say(f"{verdict.event} {details} {verdict.message} leds={leds}".replace("  ", " "))

    runtime.companion.listeners.append(report)
    what = "simulated camera and pins" if runtime.simulated else config.camera
    say(f"senet run: {config.variant}, {what}; Ctrl-C stops")
    try:
        if port is None:
            runtime.loop(turns)
        else:
            from waitress import serve

            from senet.web.app import create_app

            worker = threading.Thread(target=runtime.loop, args=(turns,), daemon=True)
            worker.start()
            say(f"the page: http://localhost:{port}/")
            # Every open event stream holds a thread: room for 60 phones and the page loads.
            serve(create_app(runtime, admin_pin=config.admin_pin), host="0.0.0.0", port=port, threads=64)
    except KeyboardInterrupt:
        say("stopped")
    finally:
        runtime.close()
    return 0
