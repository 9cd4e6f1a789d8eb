"""Throwing sticks: stick counts, throw values, fair odds, and electronic sticks.

Four sticks each land flat (light) side up or rounded (dark) side up; ``k`` is the
number of light sides up. Most variants read k as the throw, and k = 0 as 5 or 6.

    >>> STICK_ODDS[2]
    Fraction(3, 8)
    >>> throw_value(0, zero_value=6), throw_value(3, zero_value=6)
    (6, 3)
    >>> throw_odds(zero_value=5)[5]
    Fraction(1, 16)
    >>> Sticks((True, False, False, True)).light_up
    2
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Protocol

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
