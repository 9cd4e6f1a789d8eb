"""Waiting for the scene to settle: only boards and throws that held still reach the referee.

Hands moving over the board, a stick still rolling, a frame with glare: the stabiliser
reports a board once the same reading has held for ``settle_s`` seconds, a throw once
four sticks have lain still after the tray was empty, and trouble while the camera
cannot see the board.

    >>> from senet.vision.reader import Observation
    >>> calm = Observation("ok", "L" * 5 + "." * 25, None, "empty", (1.0,) * 30, 0.0, labels="L" * 5 + "." * 25)
    >>> stabiliser = Stabiliser(settle_s=0.5)
    >>> [type(e).__name__ for t in (0.0, 0.2, 0.5) for e in stabiliser.feed(calm, t)]
    ['Clear', 'SettledBoard']
"""

from __future__ import annotations

from dataclasses import dataclass

from senet.vision.reader import MAX_UNSURE, SURE, Observation
from senet.vision.tray import TrayReading

#: More of the sample points than this moving between frames is motion.
STILL = 0.02


@dataclass(frozen=True)
class SettledBoard:
    board: str


@dataclass(frozen=True)
class SettledThrow:
    light_up: int


@dataclass(frozen=True)
class Trouble:
    """The board cannot be read: ``status`` is the reader's (occluded, no-board), ``reason`` says why."""

    reason: str
    status: str = "occluded"


@dataclass(frozen=True)
class Clear:
    """The board is visible again."""


Settled = SettledBoard | SettledThrow | Trouble | Clear


@dataclass
class Stabiliser:
    settle_s: float = 0.5
    _board: str | None = None
    _board_since: float = 0.0
    _reported_board: str | None = None
    _sticks: int | None = None
    _sticks_since: float = 0.0
    _tray_was_empty: bool = True
    _thrown: TrayReading | None = None
    #: The trouble last reported: None before the first frame, "" while the board is visible.
    _trouble: str | None = None
    _last_frame: float | None = None
    _frame_time: float = 0.0

    @property
    def settled(self) -> bool:
        """The board in view has been reported (nothing is settling now)."""
        return self._board is not None and self._board == self._reported_board

    def feed(self, seen: Observation, now: float) -> list[Settled]:
        """One observation at time ``now`` (seconds); returns what settled.

        A board with a few unsure squares (glare, a doubtful reading) still settles, with
        '?' on those squares; a hand over the board or tray settles nothing.
        """
        events: list[Settled] = []
        if self._last_frame is not None:
            self._frame_time = now - self._last_frame
        self._last_frame = now
        board = self._readable(seen)
        if board is None:
            self._board = self._sticks = None
            if self._trouble != seen.reason:
                self._trouble = seen.reason
                events.append(Trouble(seen.reason, seen.status))
            return events
        if self._trouble != "":
            self._trouble = ""
            events.append(Clear())
        if seen.motion > STILL or board != self._board:
            self._board, self._board_since = board, now
        elif self._held(self._board_since, now) and board != self._reported_board:
            self._reported_board = board
            events.append(SettledBoard(board))
        events += self._tray(seen, now)
        return events

    def _held(self, since: float, now: float) -> bool:
        """Seen unchanged for the settle time: the frames since ``since``, each counted with
        its own duration (at 10 frames a second, five still frames make half a second)."""
        return now - since + self._frame_time >= self.settle_s - 1e-6

    def _readable(self, seen: Observation) -> str | None:
        """The board to settle on: sure squares as read, the rest '?'; None when a hand is there."""
        if seen.labels is None or seen.labels.count("?") > MAX_UNSURE:
            return None
        return "".join("?" if c < SURE and label != "?" else label for label, c in zip(seen.labels, seen.confidence))

    def _tray(self, seen: Observation, now: float) -> list[Settled]:
        """A throw: four sticks lying still, after an empty tray or where no sticks lay before
        (picked up and thrown again under a hand)."""
        if seen.tray == "empty":
            self._tray_was_empty, self._sticks = True, None
            return []
        if seen.light_up is None or seen.motion > STILL:
            self._sticks = None
            return []
        if seen.light_up != self._sticks:
            self._sticks, self._sticks_since = seen.light_up, now
            return []
        fresh = self._tray_was_empty or (seen.sticks is not None and not seen.sticks.same_layout(self._thrown))
        if fresh and self._held(self._sticks_since, now):
            self._tray_was_empty, self._thrown = False, seen.sticks
            return [SettledThrow(seen.light_up)]
        return []
