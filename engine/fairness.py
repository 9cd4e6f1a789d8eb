"""Are the sticks fair? The throws seen against four fair two-sided sticks (Pearson's
chi-square test), with a plain verdict.

Four fair sticks show 0, 1, 2, 3 or 4 light sides with chances 1, 4, 6, 4 and 1 in 16.
With four degrees of freedom the chi-square test's p-value has a closed form,
exp(-x/2) (1 + x/2).

    >>> fair = judge([6, 25, 37, 25, 7])
    >>> fair.verdict, round(fair.p_value, 2)
    (<Verdict.FAIR: 'fair'>, 1.0)
    >>> loaded = judge([2, 10, 60, 20, 8])
    >>> loaded.verdict, loaded.favoured
    (<Verdict.BIASED: 'biased'>, 2)
    >>> judge([1, 2, 3, 0, 0]).verdict
    <Verdict.TOO_FEW: 'too-few'>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from math import exp

#: Chances of 0..4 light sides up with four fair sticks.
FAIR_CHANCES = (1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16)
#: The test needs every count expected at least this often (the rarest, 0 or 4, in 1 of 16).
MIN_EXPECTED = 5
#: Below this p-value the sticks are called unfair (1 in 100 fair sets would be, by chance).
UNFAIR_BELOW = 0.01


class Verdict(str, Enum):
    FAIR = "fair"
    BIASED = "biased"
    TOO_FEW = "too-few"


@dataclass(frozen=True)
class Fairness:
    """What the throws of one set of sticks say. ``counts``: throws with 0..4 light sides up."""

    counts: tuple[int, ...]
    chi_square: float
    p_value: float
    verdict: Verdict
    #: The number of light sides that comes up most beyond its fair share (when biased).
    favoured: int | None

    @property
    def throws(self) -> int:
        return sum(self.counts)

    @property
    def needed(self) -> int:
        """How many throws the test needs."""
        return round(MIN_EXPECTED / min(FAIR_CHANCES))


def judge(counts: list[int] | tuple[int, ...]) -> Fairness:
    """Judge the throws: ``counts[k]`` throws showed ``k`` light sides."""
    if len(counts) != 5 or any(c < 0 for c in counts):
        raise ValueError("counts are five numbers: throws with 0, 1, 2, 3 and 4 light sides up")
    total = sum(counts)
    if total * min(FAIR_CHANCES) < MIN_EXPECTED:
        return Fairness(tuple(counts), 0.0, 1.0, Verdict.TOO_FEW, None)
    expected = [total * chance for chance in FAIR_CHANCES]
    chi_square = sum((seen - wanted) ** 2 / wanted for seen, wanted in zip(counts, expected))
    p_value = exp(-chi_square / 2) * (1 + chi_square / 2)
    if p_value >= UNFAIR_BELOW:
        return Fairness(tuple(counts), chi_square, p_value, Verdict.FAIR, None)
    favoured = max(range(5), key=lambda k: counts[k] / expected[k])
    return Fairness(tuple(counts), chi_square, p_value, Verdict.BIASED, favoured)
