"""What a turn throws: four sticks, two special dice, or nothing (distances from the position).

Four sticks each land flat (light) side up or rounded (dark) side up; ``k`` is the
number of light sides up. The track variants read k as the throw, and k = 0 as 5 or 6.
PHARAO throws two dice with special faces (:class:`Dice`); RAMSES throws nothing.
Each variant names its kind of throw (:class:`StickThrows`, :class:`DiceThrows`,
:class:`NoThrows`), and the electronic throw and the page follow it.

    >>> STICK_ODDS[2]
    Fraction(3, 8)
    >>> throw_value(0, zero_value=6), throw_value(3, zero_value=6)
    (6, 3)
    >>> throw_odds(zero_value=5)[5]
    Fraction(1, 16)
    >>> Sticks((True, False, False, True)).light_up
    2
    >>> PHARAO_DICE.roll(random.Random(3))
    Dice(own=0, other=1)
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import NamedTuple, Protocol

#: P(k light sides up) with four fair sticks: C(4, k) / 16.
STICK_ODDS: dict[int, Fraction] = {k: Fraction(comb(4, k), 16) for k in range(5)}


def throw_value(light_up: int, zero_value: int) -> int:
    """The value of a throw with ``light_up`` light sides (0 counts as ``zero_value``)."""
    if not 0 <= light_up <= 4:
        raise ValueError(f"light_up must be 0..4, not {light_up}")
    return light_up if light_up else zero_value


def throw_odds(zero_value: int) -> dict[int, Fraction]:
    """Chance of each throw value with fair sticks, smallest value first."""
    odds = {throw_value(k, zero_value): p for k, p in STICK_ODDS.items()}
    return dict(sorted(odds.items()))


@dataclass(frozen=True)
class Sticks:
    """How four sticks fell: True where the light (flat) side is up."""

    light_sides: tuple[bool, bool, bool, bool]

    @property
    def light_up(self) -> int:
        return sum(self.light_sides)


class StickSource(Protocol):
    """Anything that throws four sticks (electronic sticks, a seeded simulator, tests)."""

    def throw(self) -> Sticks: ...


class SecureSticks:
    """Electronic sticks: four independent fair sticks from the OS's cryptographic source.

        >>> 0 <= SecureSticks().throw().light_up <= 4
        True
    """

    def throw(self) -> Sticks:
        bits = secrets.randbits(4)
        return Sticks(tuple(bool(bits >> i & 1) for i in range(4)))  # type: ignore[arg-type]


class SeededSticks:
    """Reproducible sticks for simulations and `senet rules play --seed`.

        >>> SeededSticks(1).throw() == SeededSticks(1).throw()
        True
    """

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def throw(self) -> Sticks:
        bits = self._random.getrandbits(4)
        return Sticks(tuple(bool(bits >> i & 1) for i in range(4)))  # type: ignore[arg-type]


# -- the kinds of throw, as data ---------------------------------------------------------


@dataclass(frozen=True)
class StickThrows:
    """Four two-sided sticks; no light side up counts ``zero_value``."""

    zero_value: int

    @property
    def values(self) -> frozenset[int]:
        return frozenset({1, 2, 3, 4, self.zero_value})

    def value(self, sticks: Sticks) -> int:
        return throw_value(sticks.light_up, self.zero_value)


class Dice(NamedTuple):
    """A throw of two dice: the own die moves one of the mover's pieces, the other die an opponent's."""

    own: int
    other: int

    def __str__(self) -> str:
        return f"{self.own}+{self.other}"

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Read ``'3+1'`` (own die, then other die).

            >>> Dice.parse("3+1")
            Dice(own=3, other=1)
        """
        own, plus, other = text.partition("+")
        if not plus:
            raise ValueError(f"a throw of two dice is written OWN+OTHER, such as 3+1, not {text!r}")
        return cls(int(own), int(other))


@dataclass(frozen=True)
class DiceThrows:
    """Two dice thrown together, each with its own faces (PHARAO's P.dice)."""

    own_faces: tuple[int, ...]
    other_faces: tuple[int, ...]

    @property
    def values(self) -> frozenset[int]:
        """Every number a half of the turn can be asked to move."""
        return frozenset(self.own_faces) | frozenset(self.other_faces)

    def allows(self, dice: Dice) -> bool:
        return dice.own in self.own_faces and dice.other in self.other_faces

    def face_odds(self, faces: tuple[int, ...]) -> dict[int, Fraction]:
        """Chance of each number on one die, from its faces.

            >>> PHARAO_DICE.face_odds(PHARAO_DICE.other_faces)
            {0: Fraction(1, 3), 1: Fraction(1, 3), 2: Fraction(1, 3)}
        """
        return {value: Fraction(faces.count(value), len(faces)) for value in sorted(set(faces))}

    def roll(self, source: random.Random | None = None) -> Dice:
        """Throw both dice: from ``source`` when given (simulations), else the OS's cryptographic source."""
        pick = source.choice if source is not None else secrets.choice
        return Dice(pick(self.own_faces), pick(self.other_faces))


@dataclass(frozen=True)
class NoThrows:
    """Nothing is thrown: the position sets each distance (RAMSES' R.distance)."""

    @property
    def values(self) -> frozenset[int]:
        return frozenset()


ThrowKind = StickThrows | DiceThrows | NoThrows

#: P.dice: the own die has faces 0, 0, 1, 2, 3, 4 and the opponent die 0, 0, 1, 2, 1, 2.
PHARAO_DICE = DiceThrows((0, 0, 1, 2, 3, 4), (0, 0, 1, 2, 1, 2))
