"""The companion loop: camera frame -> reader -> stabiliser -> referee -> LEDs and listeners.

Until the reader has learnt the board and the pieces (on the start position, or where a
resumed match stands), each frame is a try at that, and the amber light says why it fails.

One call of :meth:`Companion.step` per camera frame; buttons and the page call
:meth:`electronic_throw`, :meth:`confirm`, :meth:`undo`, :meth:`new_game` and
:meth:`set_position`. Everything the referee accepts is in the match store before the LEDs
change; listeners (the page's event stream, the console) then get every verdict with the
LED state after it. Games follow each other: when a game is over and the players set up
the start position again, a new match begins.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from senet.device.lights import Lights
from senet.device.store import EventKind, MatchEvent, MatchStore, Termination, apply_event, now_iso
from senet.engine.board import format_board
from senet.engine.moves import Stage
from senet.engine.referee import Referee, Verdict
from senet.engine.throws import Dice, DiceThrows, NoThrows, SecureSticks, StickSource
from senet.vision.geometry import MatGeometry, choose_mat
from senet.vision.reader import BoardReader, CalibrationError, NoBoardError, check_frame
from senet.vision.stability import Clear, SettledBoard, SettledThrow, Stabiliser, Trouble

Listener = Callable[[Verdict, dict[str, object]], None]
#: Fewer pieces of a kind than this on the board to calibrate on, and the reader learns from the
#: variant's calibration arrangement instead.
CALIBRATION_PIECES = 3


@dataclass
class Companion:
    referee: Referee
    reader: BoardReader
    lights: Lights
    stabiliser: Stabiliser = field(default_factory=Stabiliser)
    sticks: StickSource = field(default_factory=SecureSticks)
    listeners: list[Listener] = field(default_factory=list)
    #: Why the camera cannot see the board now ("" when it can), in the reader's words.
    trouble: str = ""
    #: What kind of trouble: no-picture, no-board, occluded or store ("" when all is well).
    trouble_kind: str = ""
    #: Where every match is kept (None: nowhere, a demonstration).
    store: MatchStore | None = None
    #: Where a new match is played (written into the store with it).
    place: str = ""
    #: The mats the camera may show (the A3 and A4 mats ``senet board mat`` prints): until the
    #: reader has learnt the board, it reads the one whose markers the picture shows most of.
    #: Empty: only the reader's own mat.
    mats: tuple[MatGeometry, ...] = ()

    def step(self, frame: np.ndarray | None, now: float, no_picture: str = "the camera gives no picture") -> list[Verdict]:
        """Handle one camera frame taken at ``now`` seconds (None when the camera gave nothing,
        for the reason ``no_picture`` says)."""
        verdicts: list[Verdict] = []
        if frame is None:
            self.trouble, self.trouble_kind = no_picture, "no-picture"
        elif not self.reader.calibrated:
            self._calibrate(frame)
        else:
            for event in self.stabiliser.feed(self.reader.read(frame), now):
                if isinstance(event, Trouble):
                    self.trouble, self.trouble_kind = event.reason, event.status
                elif isinstance(event, Clear):
                    self.trouble, self.trouble_kind = "", ""
                elif isinstance(event, SettledThrow):
                    verdicts += self._throw(event.light_up, {"source": "camera"})
                elif isinstance(event, SettledBoard):
                    verdicts += self._board(event.board)
                    accepted = self.referee.shows_expected(event.board)
                    if accepted is not None:
                        self.reader.learn(accepted)
        return self._publish(verdicts)

    @property
    def calibration_board(self) -> str:
        """The position the reader learns the pieces on: the one the referee holds (the start, or
        where a resumed match stands), or the variant's calibration arrangement where that has
        too few pieces of a kind to learn from (RAMSES begins with an empty board)."""
        board = self.referee.expected_text
        if min(board.count("D"), board.count("L")) < CALIBRATION_PIECES:
            board = format_board(self.referee.variant.calibration_board())
        return board

    def _calibrate(self, frame: np.ndarray) -> None:
        """Learn the board and the pieces from a picture of ``calibrate_on``; until then the amber
        light and the page say why it is not done (the pieces not set up yet, a hand, the light)."""
        try:
            check_frame(frame)
            shown = choose_mat(frame, list(self.mats)) if self.mats else None
            if shown is not None and shown is not self.reader.geometry:
                self.reader = BoardReader(shown, self.reader.variant, self.reader.stream)
            self.reader.calibrate(frame, self.calibration_board)
        except (NoBoardError, CalibrationError) as error:
            self.trouble, self.trouble_kind = f"waiting for the start position: {error}", "calibrating"
        else:
            self.trouble, self.trouble_kind = "", ""

    def settled_board(self, board: str) -> list[Verdict]:
        """A board that settled (from the camera, or the page's virtual board)."""
        return self._publish(self._board(board))

    def stabiliser_idle(self) -> bool:
        """The last settled board is what the camera sees now (nothing is moving)."""
        return self.stabiliser.settled

    def electronic_throw(self) -> list[Verdict]:
        """The throw button: four fair sticks from the OS's random source, shown on the stick LEDs
        (PHARAO: both dice, the number of the part due lit on them; RAMSES throws nothing)."""
        throws = self.referee.variant.throws
        if isinstance(throws, DiceThrows):
            return self.dice_throw(throws.roll(), "electronic")
        if isinstance(throws, NoThrows):
            return self._publish(self.referee.throw(0))
        sticks = self.sticks.throw()
        self.lights.show_sticks(sticks.light_sides)
        return self._publish(self._throw(sticks.light_up, {"source": "electronic", "sticks": list(sticks.light_sides)}))

    def dice_throw(self, dice: Dice, source: str) -> list[Verdict]:
        """PHARAO's two dice: from the button (``electronic``) or real dice read out on the page (``table``)."""
        verdicts = self.referee.throw_dice(dice)
        self._record(verdicts, "throw", EventKind.THROW, {"dice": list(dice), "source": source})
        return self._publish(verdicts)

    def confirm(self) -> list[Verdict]:
        """A short press of the undo/confirm button: pass, where the rules allow it."""
        verdicts = self.referee.pass_turn()
        self._record(verdicts, "pass", EventKind.PASS, {})
        return self._publish(verdicts)

    def undo(self) -> list[Verdict]:
        """A long press: take back the last accepted move."""
        was_over = self.referee.game.is_over
        verdicts = self.referee.undo()
        self._record(verdicts, "undo", EventKind.UNDO, {})
        if was_over and not self.referee.game.is_over and self.store is not None:
            self.store.set_winner(None)
        return self._publish(verdicts)

    def new_game(self, variant: str, termination: Termination = Termination.NEW_GAME, dark_player: str = "", light_player: str = "") -> None:
        """End the match in progress (won, or abandoned as ``termination`` says) and begin
        another under ``variant`` (with the players' names when given); the players set up
        the start position."""
        if self.store is not None:
            self.store.end_match(Termination.WIN if self.referee.game.is_over else termination)
            self.store.begin_match(variant, place=self.place, dark_player=dark_player, light_player=light_player)
        self.referee = Referee(variant)
        self._publish([])

    def set_position(self, board: str, turn: str, throw: int | None = None, dice: Dice | None = None,
                     stage: Stage | None = None) -> None:
        """An operator sets the position by hand (the camera was wrong); ValueError if it is not one.
        The grid games also give the part of the turn (``stage``) and PHARAO the turn's ``dice``."""
        position: dict[str, object] = {"board": board, "turn": turn, "throw": throw}
        if dice is not None:
            position["dice"] = list(dice)
        if stage is not None:
            position["stage"] = stage.word
        apply_event(self.referee, MatchEvent(EventKind.POSITION, position, now_iso()))
        if self.store is not None:
            self.store.add(EventKind.POSITION, position)
        self._publish([])

    def _throw(self, light_up: int, details: dict[str, object]) -> list[Verdict]:
        verdicts = self.referee.throw(light_up)
        self._record(verdicts, "throw", EventKind.THROW, {"light_up": light_up} | details)
        return verdicts

    def _board(self, board: str) -> list[Verdict]:
        if self.referee.game.is_over and board == format_board(self.referee.variant.start_board()):
            self.new_game(self.referee.variant.name)  # the players set up again: the next game
            return []
        verdicts = self.referee.board(board)
        if self.store is not None:
            for verdict in verdicts:  # a placement's "from" is OFF (31), as the engine writes it
                if verdict.event == "move":
                    self.store.add(EventKind.MOVE, {"from": verdict.from_square, "to": verdict.to_square})
                elif verdict.event == "illegal":
                    self.store.add(EventKind.ILLEGAL, {"from": verdict.from_square, "to": verdict.to_square,
                                                       "throw": verdict.throw, "rules": list(verdict.rules), "board": board})
        return verdicts

    def _record(self, verdicts: list[Verdict], accepted: str, kind: EventKind, data: dict[str, object]) -> None:
        """Keep the event when the referee accepted it (``accepted`` among the verdicts)."""
        if self.store is not None and any(v.event == accepted for v in verdicts):
            self.store.add(kind, data)

    def _check_store(self) -> None:
        """The match store's trouble shows amber until what waits in memory is written."""
        if self.store is None:
            return
        if self.store.problem:
            self.store.retry()
        if self.store.problem:
            self.trouble, self.trouble_kind = self.store.problem, "store"
        elif self.trouble_kind == "store":
            self.trouble, self.trouble_kind = "", ""

    def _publish(self, verdicts: list[Verdict]) -> list[Verdict]:
        if self.store is not None and any(v.event == "game-over" for v in verdicts):
            self.store.set_winner(self.referee.game.position.winner)
        self._check_store()
        turn = self.referee.game.position.turn
        started = self.referee.game.started and not self.referee.game.is_over
        self.lights.show(
            green=not self.referee.illegal and not self.trouble,
            red=self.referee.illegal,
            amber=bool(self.trouble),
            turn=turn.label if started and turn else None,
        )
        if any(v.event == "illegal" for v in verdicts):
            self.lights.beep()
        if isinstance(self.referee.variant.throws, DiceThrows):
            self.lights.show_number(self.referee.game.current_throw or 0)
        state = self.lights.state()
        for verdict in verdicts:
            for listener in self.listeners:
                listener(verdict, state)
        return verdicts
