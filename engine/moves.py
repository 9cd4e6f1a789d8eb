"""Moves and rule violations, the values the engine hands out.

A :class:`Move` carries its whole outcome (the board after every consequence, who
throws next), so pushing it is cheap and the referee can show what must change.

    >>> move = Move(10, 14, (), 1, 0, 0, FORWARD)
    >>> str(move), move.is_pass
    ('10-14', False)
    >>> str(Violation("K.capture", (14, 15)))
    'K.capture@14,15'
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from senet.engine.layout import SQUARES

#: The pseudo-square for "borne off the board".
OFF = 31
#: The from/to square of a pass.
PASS = 0

# Priority tiers (Move.kind): variants choose moves tier by tier.
FORWARD = 0
BACKWARD = 1
WATER = 2
OVERSHOOT = 3
SPECIAL = 4
PASSING = 5
PLACING = 6


class Stage(IntEnum):
    """Which part of a turn the player to move is in.

    The track games have one part (``OWN``). In the grid games a turn moves an own piece,
    then an opponent piece (``OTHER``); PHARAO may put a rescue from the water between them,
    and RAMSES begins by placing the pieces.

        >>> Stage.OTHER.word, Stage.from_word("place")
        ('other', <Stage.PLACE: 3>)
    """

    OWN = 0
    OTHER = 1
    RESCUE = 2
    PLACE = 3

    @property
    def word(self) -> str:
        """The stage as positions and records write it."""
        return self.name.lower()

    @classmethod
    def from_word(cls, word: str) -> Stage:
        try:
            return cls[word.upper()]
        except KeyError:
            raise ValueError(f"unknown stage {word!r}; use own, other, rescue or place") from None


class Move(NamedTuple):
    """One legal move with its complete outcome.

    ``after`` is the board (32 codes, squares 1..30 used) once every consequence is
    applied; ``next_turn`` is the player who throws next (0 when the move ends the
    game); ``mark`` is the square of a piece that must move at its owner's next turn
    (0 for none); ``winner`` is set when the move ends the game; ``stage`` is the part of
    the turn that comes next. A placement (RAMSES) comes from :data:`OFF`.
    """

    from_square: int
    to_square: int
    after: tuple[int, ...]
    next_turn: int
    mark: int
    winner: int
    kind: int
    stage: Stage = Stage.OWN

    @property
    def is_pass(self) -> bool:
        return self.from_square == PASS

    def __str__(self) -> str:
        if self.is_pass:
            return "pass"
        return f"{square_name(self.from_square)}-{square_name(self.to_square)}"


class Violation(NamedTuple):
    """A broken rule, by its RULES.md ID, with the squares that show it; ``case`` names
    which of the rule's sentences explains it, where a rule can be broken in several ways
    (the rule book's ``cases``)."""

    rule: str
    squares: tuple[int, ...]
    case: str = ""

    def __str__(self) -> str:
        return f"{self.rule}@{','.join(map(str, self.squares))}"

    def to_dict(self) -> dict[str, object]:
        """The JSON form: rule and squares, and the case where the rule has several.

            >>> Violation("R.path", (14,), "occupied").to_dict()
            {'rule': 'R.path', 'squares': [14], 'case': 'occupied'}
        """
        return {"rule": self.rule, "squares": list(self.squares)} | ({"case": self.case} if self.case else {})

    def __repr__(self) -> str:
        case = f", case={self.case!r}" if self.case else ""
        return f"Violation(rule={self.rule!r}, squares={self.squares!r}{case})"


def square_name(square: int) -> str:
    """``'off'`` for :data:`OFF`, else the number.

    >>> square_name(31), square_name(7)
    ('off', '7')
    """
    return "off" if square == OFF else str(square)


def parse_square(text: str) -> int:
    """Inverse of :func:`square_name`; raises ValueError for anything else.

    >>> parse_square("off"), parse_square("26")
    (31, 26)
    """
    if text == "off":
        return OFF
    square = int(text)
    if square not in SQUARES:
        raise ValueError(f"square {text!r} is not on the board (1..30 or 'off')")
    return square
