"""The companion loop: camera frame -> reader -> stabiliser -> referee -> LEDs and listeners.

One call of :meth:`Companion.step` per camera frame; buttons and the page call
:meth:`electronic_throw`, :meth:`confirm` and :meth:`undo`. Listeners (the event stream,
the match store) get every verdict with the LED state after it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from senet.device.journal import Journal
from senet.device.lights import Lights
from senet.engine.referee import Referee, Verdict
from senet.engine.throws import SecureSticks, StickSource
from senet.vision.reader import BoardReader
from senet.vision.stability import Clear, SettledBoard, SettledThrow, Stabiliser, Trouble

Listener = Callable[[Verdict, dict[str, object]], None]


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
    #: What kind of trouble: no-picture, no-board or occluded ("" when the board is visible).
    trouble_kind: str = ""
    #: Where accepted throws and moves are written before the LEDs change (None: nowhere).
    journal: Journal | None = None

    def step(self, frame: np.ndarray | None, now: float) -> list[Verdict]:
        """Handle one camera frame (None when the camera gave nothing) taken at ``now`` seconds."""
        verdicts: list[Verdict] = []
        if frame is None:
            self.trouble, self.trouble_kind = "the camera gives no picture", "no-picture"
        else:
            for event in self.stabiliser.feed(self.reader.read(frame), now):
                if isinstance(event, Trouble):
                    self.trouble, self.trouble_kind = event.reason, event.status
                elif isinstance(event, Clear):
                    self.trouble, self.trouble_kind = "", ""
                elif isinstance(event, SettledThrow):
                    verdicts += self._journaled(self.referee.throw(event.light_up), {"throw": event.light_up}, "throw")
                elif isinstance(event, SettledBoard):
                    verdicts += self._journal_moves(self.referee.board(event.board))
                    accepted = self.referee.shows_expected(event.board)
                    if accepted is not None:
                        self.reader.learn(accepted)
        return self._publish(verdicts)

    def settled_board(self, board: str) -> list[Verdict]:
        """A board that settled (from the camera, or the page's virtual board)."""
        return self._publish(self._journal_moves(self.referee.board(board)))

    def stabiliser_idle(self) -> bool:
        """The last settled board is what the camera sees now (nothing is moving)."""
        return self.stabiliser.settled

    def electronic_throw(self) -> list[Verdict]:
        """The throw button: four fair sticks from the OS's random source, shown on the stick LEDs."""
        sticks = self.sticks.throw()
        self.lights.show_sticks(sticks.light_sides)
        entry = {"throw": sticks.light_up, "sticks": list(sticks.light_sides)}
        return self._publish(self._journaled(self.referee.throw(sticks.light_up), entry, "throw"))

    def confirm(self) -> list[Verdict]:
        """A short press of the undo/confirm button: pass, where the rules allow it."""
        return self._publish(self._journaled(self.referee.pass_turn(), {"pass": True}, "pass"))

    def undo(self) -> list[Verdict]:
        """A long press: take back the last accepted move."""
        return self._publish(self._journaled(self.referee.undo(), {"undo": True}, "undo"))

    def _journaled(self, verdicts: list[Verdict], entry: dict[str, object], event: str) -> list[Verdict]:
        if self.journal is not None:
            self.journal.record(verdicts, entry, event)
        return verdicts

    def _journal_moves(self, verdicts: list[Verdict]) -> list[Verdict]:
        if self.journal is not None:
            for verdict in verdicts:
                if verdict.event == "move":
                    self.journal.write({"move": [verdict.from_square, verdict.to_square]})
        return verdicts

    def _publish(self, verdicts: list[Verdict]) -> list[Verdict]:
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
        state = self.lights.state()
        for verdict in verdicts:
            for listener in self.listeners:
                listener(verdict, state)
        return verdicts
