"""Throwing sticks: values per variant, fair odds, electronic sticks."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from unittest import mock

from senet.engine import find_variant
from senet.engine.throws import STICK_ODDS, SecureSticks, SeededSticks, StickThrows, throw_odds, throw_value
from senet.engine.variants import VARIANTS

ZERO_COUNTS = {"kendall": 6, "swap-barrier": 6, "blockade": 6, "houses": 5, "netherworld": 5,
               "ludii-kendall": 5, "ludii-kendall-5": 5}


def test_K_S_B_throw_zero_light_sides_counts_6_and_H_N_LK_throw_counts_5() -> None:
    """K.throw, S.throw, B.throw: 0 -> 6; H.throw, N.throw, LK.throw: 0 -> 5; k -> k otherwise."""
    for name, zero in ZERO_COUNTS.items():
        variant = find_variant(name)
        assert variant.zero_value == zero
        assert [throw_value(k, variant.zero_value) for k in range(5)] == [zero, 1, 2, 3, 4]
        assert variant.throw_values == {1, 2, 3, 4, zero}
    assert set(ZERO_COUNTS) == {name for name, variant in VARIANTS.items() if isinstance(variant.throws, StickThrows)}


def test_fair_stick_odds_are_binomial() -> None:
    assert [STICK_ODDS[k] for k in range(5)] == [Fraction(n, 16) for n in (1, 4, 6, 4, 1)]
    assert sum(throw_odds(6).values()) == 1
    assert throw_odds(5) == {1: Fraction(1, 4), 2: Fraction(3, 8), 3: Fraction(1, 4), 4: Fraction(1, 16), 5: Fraction(1, 16)}


def test_electronic_sticks_use_the_operating_systems_random_source() -> None:
    with mock.patch("senet.engine.throws.secrets.randbits", return_value=0b1011) as randbits:
        sticks = SecureSticks().throw()
    randbits.assert_called_once_with(4)
    assert sticks.light_sides == (True, True, False, True) and sticks.light_up == 3


def test_electronic_sticks_are_roughly_fair() -> None:
    """4000 throws: each k within a generous band around its expected count (fails ~never by chance)."""
    counts = Counter(SecureSticks().throw().light_up for _ in range(4000))
    for k, odds in STICK_ODDS.items():
        expected = 4000 * odds
        assert abs(counts[k] - expected) < 6 * (expected * (1 - odds)) ** 0.5 + 1


def test_seeded_sticks_repeat() -> None:
    first, second = SeededSticks(42), SeededSticks(42)
    assert [first.throw() for _ in range(20)] == [second.throw() for _ in range(20)]
