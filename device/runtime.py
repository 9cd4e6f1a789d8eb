"""The running companion as the page and the buttons see it: its state, and the actions they
may ask for (thread-safe: the companion loop runs beside them).

    >>> from senet.device.config import Config
    >>> from senet.device.service import build_runtime
    >>> runtime = build_runtime(Config(variant="houses", camera="simulator"), seed=1, autoplay=False, say=print)
    >>> runtime.state()["variant"], runtime.state()["turn"]
    ('houses', None)
    >>> runtime.close()
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field

from senet.device.camera import CameraFeed
from senet.device.companion import Companion
from senet.device.config import Config, ConfigError, apply_settings, save_settings
from senet.device.export import to_json, to_text
from senet.device.lights import Buttons
from senet.device.simulation import SimulatedPlayers, VirtualTable
from senet.device.store import Match, Step, Termination, replay
from senet.engine.fairness import Fairness, judge
from senet.engine.moves import OFF, Stage
from senet.engine.player import Player
from senet.engine.referee import Verdict
from senet.engine.throws import Dice, DiceThrows, StickThrows, throw_odds
from senet.engine.variants import VARIANTS
from senet.web.events import EventBus

#: The longest player's name kept with a match.
NAME_LENGTH = 40


@dataclass
class Runtime:
    """The companion, its camera, the virtual table in simulation, and what the page shows."""

    companion: Companion
    camera: CameraFeed
    table: VirtualTable | None = None
    players: SimulatedPlayers | None = None
    buttons: Buttons | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    log: deque[dict[str, object]] = field(default_factory=lambda: deque(maxlen=30))
    stop: threading.Event = field(default_factory=threading.Event)
    bus: EventBus = field(default_factory=EventBus)
    #: The configuration, with the operator's changes from the page (rule system, teaching
    #: mode, idle reset, settle time).
    config: Config = field(default_factory=Config)
    last_activity: float = field(default_factory=time.monotonic)

    @property
    def simulated(self) -> bool:
        return self.table is not None

    def close(self) -> None:
        """Stop the loop and close the devices and the store; a round the loop is in finishes first."""
        self.stop.set()
        with self.lock:
            if self.buttons is not None:
                self.buttons.close()
            self.companion.lights.close()
            self.camera.close()
            if self.companion.store is not None:
                self.companion.store.close()

    def remember(self, verdict: Verdict, leds: dict[str, object]) -> None:
        """Keep the verdict for the page and send the new state to every viewer."""
        self.log.appendleft(verdict.to_dict())
        self.last_activity = time.monotonic()
        self.bus.publish(self.state())

    # -- what the page asks -------------------------------------------------------

    def state(self) -> dict[str, object]:
        with self.lock:
            referee = self.companion.referee
            game = referee.game
            turn = game.position.turn
            throws = game.variant.throws
            return {
                "variant": game.variant.name,
                "layout": game.variant.layout.name,
                "started": game.started,
                "board": game.position.board_text,
                "virtual_board": self.table.board if self.table is not None else None,
                "turn": turn.label if turn and game.started else None,
                "throw": game.current_throw,
                "throws": "sticks" if isinstance(throws, StickThrows) else "dice" if isinstance(throws, DiceThrows) else "none",
                "dice": list(game.dice) if game.dice is not None else None,
                "stage": game.position.stage.word if game.variant.in_parts else None,
                "needs_throw": game.needs_throw,
                "moves": [{"from": "off" if m.from_square == OFF else m.from_square, "to": "off" if m.to_square == OFF else m.to_square}
                          for m in game.options.moves],
                "may_pass": game.options.pass_move is not None and bool(game.options.moves),
                "odds": {str(value): float(chance) for value, chance in throw_odds(throws.zero_value).items()}
                if isinstance(throws, StickThrows) else {},
                "teaching": self.config.teaching,
                "record": game.record.format(),
                "turns": len(game.turns),
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

    def enter_dice(self, own: int, other: int) -> None:
        """PHARAO at a real table: the two dice as the players read them (ValueError when they cannot show that)."""
        throws = self.companion.referee.variant.throws
        if not isinstance(throws, DiceThrows):
            raise ValueError("this game throws no dice")
        if not throws.allows(Dice(own, other)):
            raise ValueError("the own die shows 0 to 4, the opponent die 0 to 2")
        with self.lock:
            self.companion.dice_throw(Dice(own, other), "table")

    def confirm(self) -> None:
        with self.lock:
            self.companion.confirm()

    def undo(self) -> list[Verdict]:
        with self.lock:
            return self.companion.undo()

    def new_game(self, variant: str | None = None, termination: Termination = Termination.NEW_GAME, dark_player: str = "",
                 light_player: str = "") -> None:
        """Start again from the set-up (another rule system if given, the players' names if
        given: at most ``NAME_LENGTH`` characters each); the players set up the board."""
        if any(len(name) > NAME_LENGTH or not name.isprintable() for name in (dark_player, light_player)):
            raise ValueError(f"a player's name is at most {NAME_LENGTH} printable characters")
        with self.lock:
            name = variant or self.companion.referee.game.variant.name
            if name not in VARIANTS:
                raise ValueError(f"unknown variant {name!r}; choose one of {', '.join(VARIANTS)}")
            if name != self.config.variant:
                self._keep_settings({"variant": name})
            self.companion.new_game(name, termination, dark_player.strip(), light_player.strip())
            self.log.clear()
            self.last_activity = time.monotonic()
            if self.table is not None:
                self.table.set_up(self.companion.referee.expected_text)
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

    def set_position(self, board: str, turn: str, throw: int | None = None, dice: Dice | None = None,
                     stage: Stage | None = None) -> None:
        """An operator sets the position by hand (the camera was wrong); ValueError if it is not
        one. In simulation the virtual pieces stand there too."""
        with self.lock:
            self.companion.set_position(board, turn, throw, dice, stage)
            if self.table is not None:
                self.table.set_up(self.companion.referee.expected_text)

    def matches(self) -> list[Match]:
        """Every match the store keeps, newest first (none without a store)."""
        store = self.companion.store
        return store.matches() if store is not None else []

    def match(self, match_id: int) -> tuple[Match, list[Step]]:
        """One match and its events, each with the position after it (KeyError: no such match)."""
        store = self.companion.store
        if store is None:
            raise KeyError(match_id)
        match = store.match(match_id)
        return match, replay(match.variant, store.events(match_id))

    def match_export(self, match_id: int, as_json: bool) -> str:
        """One match as text or JSON (KeyError: no such match)."""
        store = self.companion.store
        if store is None:
            raise KeyError(match_id)
        match, events = store.match(match_id), store.events(match_id)
        return json.dumps(to_json(match, events), indent=1) if as_json else to_text(match, events)

    def stick_fairness(self) -> dict[str, Fairness]:
        """For the table's sticks ("camera") and the button's ("electronic"): are they fair?"""
        store = self.companion.store
        counts = store.throw_counts() if store is not None else {"camera": [0] * 5, "electronic": [0] * 5}
        return {source: judge(seen) for source, seen in counts.items()}

    def move_virtual(self, start: int | None, end: int | None) -> None:
        """In simulation: a person moves a piece on the virtual board (see :meth:`VirtualTable.move`);
        ``start`` None puts a new piece of the player to move on ``end`` (RAMSES' placing)."""
        if self.table is None:
            raise ValueError("pieces can only be moved on the simulated board")
        with self.lock:
            if start is None:
                turn = self.companion.referee.game.position.turn
                if end is None or turn is None:
                    raise ValueError("pick the square to place the piece on")
                self.table.place(end, Player(turn).letter)
            else:
                self.table.move(start, end)
            self.bus.publish(self.state())
