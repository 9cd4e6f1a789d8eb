"""The `senet` command as other tools and people use it."""

from __future__ import annotations

import json
import subprocess
import sys

from senet.engine import find_variant
from senet.engine.game import Game
from senet.engine.record import GameRecord
from senet.engine.rulebook import RULE_SYSTEMS
from senet.engine.variants import VARIANTS

START = "LDLDLDLDLD" + "." * 20


def senet(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "senet.device.cli", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_rules_list_names_every_variant_first_on_its_line() -> None:
    result = senet("rules", "list")
    assert result.returncode == 0
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert names == list(VARIANTS)
    assert all(len(line.split(maxsplit=1)) == 2 for line in result.stdout.splitlines())


def test_rules_show_prints_every_rule_id_of_the_variant() -> None:
    for name in VARIANTS:
        result = senet("rules", "show", name)
        assert result.returncode == 0
        for rule in RULE_SYSTEMS[find_variant(name).prefix].rules:
            assert rule.id in result.stdout


def test_rules_show_unknown_variant_is_a_clear_error() -> None:
    result = senet("rules", "show", "chess")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr and "kendall" in result.stderr


def test_rules_moves_answers_every_line_in_order_and_fails_with_2_on_bad_lines() -> None:
    lines = [
        json.dumps({"variant": "kendall", "board": START, "to_move": "dark", "throw": 4}),
        "not json",
        json.dumps({"variant": "nope", "board": START, "to_move": "dark", "throw": 4}),
        json.dumps({"variant": "kendall", "board": START[:29], "to_move": "dark", "throw": 4}),
        json.dumps({"variant": "kendall", "board": START[:29] + "x", "to_move": "dark", "throw": 4}),
        json.dumps({"variant": "kendall", "board": "D" * 6 + "." * 24, "to_move": "dark", "throw": 4}),
        json.dumps({"variant": "kendall", "board": START, "to_move": "dark", "throw": 5}),
        json.dumps({"variant": "houses", "board": START, "to_move": "light", "throw": 5}),
    ]
    result = senet("rules", "moves", stdin="\n".join(lines) + "\n")
    assert result.returncode == 2
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert {(m["from"], m["to"], m["next"]) for m in answers[0]["moves"]} == {(8, 12, "dark"), (10, 14, "dark")}
    assert answers[0]["stuck"] is None and answers[0]["may_pass"] is False
    for answer, words in zip(answers[1:7], ["JSON", "unknown variant", "30", "'x'", "6 dark pieces", "throw 5"]):
        assert set(answer) == {"error"} and words in answer["error"]
    assert answers[7]["moves"] and "error" not in answers[7]


def test_rules_moves_reports_the_whole_outcome() -> None:
    """Water, bearing off, passes and the LK.15 state all come back in the contract's shape."""
    queries = [
        # kendall: 24 + 3 lands in the water and falls back to square 1 (occupied: 2 is next).
        {"variant": "kendall", "board": "L" + "." * 22 + "D" + "." * 6, "to_move": "dark", "throw": 3},
        # houses: last piece on 28 leaves with a 3 and the game ends.
        {"variant": "houses", "board": "L" + "." * 26 + "D..", "to_move": "dark", "throw": 3},
        # ludii-kendall-5: the piece out of the water must move.
        {"variant": "ludii-kendall-5", "board": "." * 13 + "LDL" + "." * 14, "to_move": "dark", "throw": 2,
         "state": {"must_move_from": 15}},
        # swap-barrier: stuck loses.
        {"variant": "swap-barrier", "board": "DLLL" + "." * 26, "to_move": "dark", "throw": 1},
    ]
    result = senet("rules", "moves", stdin="".join(json.dumps(q) + "\n" for q in queries))
    assert result.returncode == 0, result.stdout
    water, last, ankh, stuck = (json.loads(line) for line in result.stdout.splitlines())
    assert water["moves"] == [{"from": 24, "to": 2, "board": "LD" + "." * 28, "next": "light"}]
    assert last["moves"] == [{"from": 28, "to": "off", "board": "L" + "." * 29, "next": None}]
    assert [(m["from"], m["to"], m["next"]) for m in ankh["moves"]] == [(15, 17, "light")]
    assert stuck == {"moves": [], "stuck": "loses", "may_pass": False}


def test_rules_play_is_reproducible_and_replays() -> None:
    first = senet("rules", "play", "netherworld", "--seed", "5")
    second = senet("rules", "play", "netherworld", "--seed", "5")
    assert first.returncode == 0 and first.stdout == second.stdout
    record = GameRecord.parse(first.stdout)
    assert Game.replay(record).is_over
    as_json = json.loads(senet("rules", "play", "netherworld", "--seed", "5", "--json").stdout)
    assert as_json["variant"] == "netherworld" and as_json["winner"] in ("dark", "light")


def test_rules_moves_on_a_finished_game_names_the_winner() -> None:
    query = {"variant": "kendall", "board": "L" + "." * 29, "to_move": "light", "throw": 1}
    result = senet("rules", "moves", stdin=json.dumps(query) + "\n")
    assert json.loads(result.stdout) == {"moves": [], "stuck": None, "may_pass": False, "winner": "dark"}
