"""The rule book: every rule ID of RULES.md, in order, with text a visitor can read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from senet.engine.rulebook import RULE_SYSTEMS, describe_violation, rule
from senet.engine.variants import VARIANTS

RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
ENGINE = Path(__file__).resolve().parents[1] / "engine"
EXPECTED = {
    "K": "setup throw start again exact forward jump own capture backward safe water exit win score",
    "S": "setup throw start again exact forward own swap block backward stuck water safe barrier off win",
    "B": "setup start throw turns capture block3 backward safe water touch home exit optional win",
    "H": "setup throw start again jump capture overshoot beauty water truths isis ra houses rebirth win",
    "N": "setup throw again capture guard backward good last4 water judges3 judges2 horus win",
    "LK": "setup start throw again capture backward 26 27 15 exit win",
    "P": "setup dice turn path must water rescue lucky win",
    "R": "board setup turn distance path long marked win",
}
IDS = r"((?:LK|K|S|B|H|N|P|R)\.[a-z0-9]+)"


def test_every_rule_id_once_and_in_order() -> None:
    assert list(RULE_SYSTEMS) == list(EXPECTED)
    for prefix, names in EXPECTED.items():
        assert [r.id for r in RULE_SYSTEMS[prefix].rules] == [f"{prefix}.{name}" for name in names.split()]
    assert {variant.prefix for variant in VARIANTS.values()} == set(EXPECTED)


def test_rules_md_ids_are_all_in_the_book() -> None:
    if not RULES_MD.exists():
        pytest.skip("../shared/RULES.md is not there")
    found = set(re.findall(rf"\b{IDS}\b", RULES_MD.read_text()))
    known = {r.id for system in RULE_SYSTEMS.values() for r in system.rules}
    assert found <= known, found - known


def test_every_decision_marked_d_in_rules_md_has_a_reading() -> None:
    if not RULES_MD.exists():
        pytest.skip("../shared/RULES.md is not there")
    for line in RULES_MD.read_text().splitlines():
        match = re.match(rf"- {IDS}", line.strip())
        if match and "(D" in line:
            assert rule(match[1]).reading, match[1]


def test_every_rule_the_engine_names_is_in_the_book_and_reads_well() -> None:
    named = set()
    for path in ENGINE.rglob("*.py"):
        named |= set(re.findall(f'"{IDS}"', path.read_text()))
    for variant in VARIANTS.values():
        named |= {variant.turn_rule, variant.distance_rule, variant.start_rule, variant.win_rule}
    for rule_id in named:
        for case in ["", *(name for name, _ in rule(rule_id).cases)]:
            for squares in [(), (14,), (14, 15), (26, 5, 7)]:
                sentence = describe_violation(rule_id, squares, from_square=12, to_square=14, throw=2, case=case)
                assert sentence[0].isupper() and sentence.endswith(".") and "{" not in sentence


def test_texts_are_there() -> None:
    for system in RULE_SYSTEMS.values():
        assert system.title and system.source
        for r in system.rules:
            assert r.title and len(r.text) > 20 and r.broken


def test_unknown_rule_is_a_clear_error() -> None:
    with pytest.raises(KeyError, match="X.unknown"):
        rule("X.unknown")
