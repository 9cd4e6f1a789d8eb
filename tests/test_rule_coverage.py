"""Every rule ID of every variant has a test named after it."""

from __future__ import annotations

import re
from pathlib import Path

from senet.engine.rulebook import RULE_SYSTEMS

TESTS = Path(__file__).parent


def test_every_rule_id_has_a_test_named_after_it() -> None:
    names = set()
    for path in TESTS.glob("test_*.py"):
        names |= set(re.findall(r"def (test_[A-Za-z0-9_]+)", path.read_text()))
    missing = []
    for system in RULE_SYSTEMS.values():
        for rule in system.rules:
            prefix = "test_" + rule.id.replace(".", "_") + "_"
            if not any(name.startswith(prefix) for name in names):
                missing.append(rule.id)
    assert not missing, f"no test for {missing}"
