"""Match records as text and JSON: whole random games of every variant round-trip exactly,
and a record that does not fit the rules is refused with its first bad line named."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from senet.device.companion import Companion
from senet.device.export import RecordError, parse_json, parse_text, to_json, to_text
from senet.device.lights import Lights, Wiring
from senet.device.store import MatchStore
from senet.engine.board import format_board
from senet.engine.throws import SeededSticks
from senet.engine.variants import VARIANTS
from senet.vision.geometry import known_mats
from senet.vision.reader import BoardReader

READER = BoardReader(known_mats()[0])


@pytest.fixture(scope="module")
def lights() -> Iterator[Lights]:
    lights = Lights(Wiring(), pin_factory=MockFactory())
    yield lights
    lights.close()


def play_a_match(companion: Companion, rng: random.Random, steps: int = 4000) -> None:
    """Play to the end as people at a table would: sticks, moves, now and then a wrong move
    put right, a move taken back, a pass."""
    for _ in range(steps):
        referee = companion.referee
        game = referee.game
        if game.is_over:
            return
        if referee.by_hand or referee.illegal:
            companion.settled_board(format_board(referee.expected))
        elif game.current_throw is None:
            companion.electronic_throw()
        elif game.turns and rng.random() < 0.03:
            companion.undo()
            companion.settled_board(format_board(referee.expected))
        elif game.options.moves:
            legal = {move.after for move in game.options.moves}
            if rng.random() < 0.05:
                wrong = _a_wrong_board(game.position.board, rng)
                if wrong is not None and wrong not in legal:
                    companion.settled_board(format_board(wrong))
                    continue
            companion.settled_board(format_board(rng.choice(game.options.moves).after))
        elif game.options.pass_move is not None:
            companion.confirm()
    raise AssertionError("the game did not end")


def _a_wrong_board(board: tuple[int, ...], rng: random.Random) -> tuple[int, ...] | None:
    pieces = [i for i in range(1, 31) if board[i]]
    empty = [i for i in range(1, 31) if not board[i]]
    if not pieces or not empty:
        return None
    cells = list(board)
    start, end = rng.choice(pieces), rng.choice(empty)
    cells[start], cells[end] = 0, cells[start]
    return tuple(cells)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(variant=st.sampled_from(list(VARIANTS)), seed=st.integers(0, 2**32))
def test_random_matches_round_trip_exactly_as_text_and_json(tmp_path_factory: pytest.TempPathFactory, lights: Lights,
                                                              variant: str, seed: int) -> None:
    store = MatchStore.open(tmp_path_factory.mktemp("store") / "matches.db")
    rng = random.Random(seed)
    companion = Companion(store.resume_or_begin(variant, "Club"), READER, lights, sticks=SeededSticks(seed), store=store, place="Club")
    play_a_match(companion, rng)
    companion.new_game(variant)  # the finished match ends when the next begins
    match = store.matches()[1]
    events = store.events(match.id)
    text, as_json = to_text(match, events), json.dumps(to_json(match, events))
    assert match.winner in ("dark", "light") and f'[Result "{match.winner}"]' in text
    other = MatchStore.open(tmp_path_factory.mktemp("other") / "matches.db")
    for parsed in (parse_text(text), parse_json(as_json)):
        (imported, imported_events), = parsed
        new_id, = other.import_matches([(imported, imported_events)])
        again = other.match(new_id)
        assert to_text(again, other.events(new_id)).split("\n", 1)[1] == text.split("\n", 1)[1]  # all but the match's number
        assert to_json(again, other.events(new_id)) | {"id": match.id} == to_json(match, events)
    store.close()
    other.close()


GOOD = """[Event "Senet match 1"]
[Site "Room 61"]
[Date "2026-11-24T08:30:00Z"]
[Variant "netherworld"]
[Result "*"]

2026-11-24T08:30:05Z throw 1 camera
2026-11-24T08:30:09Z throw 3 electronic 1110
2026-11-24T08:30:20Z move 10-13
"""


def test_a_record_that_breaks_the_rules_names_its_first_bad_line_and_imports_nothing(tmp_path: Path) -> None:
    assert len(parse_text(GOOD)[0][1]) == 3
    cases = {
        GOOD.replace("move 10-13", "move 10-14"): "line 9",
        GOOD.replace("throw 3 electronic 1110", "throw 3 electronic 1100"): "line 8",
        GOOD.replace("netherworld", "chess"): "unknown rule system",
        GOOD.replace('[Result "*"]', '[Result "dark"]'): "the result says dark",
        GOOD.replace("throw 1 camera", "throw 7 camera"): "line 7",
        GOOD.replace("throw 1 camera", "teleport 1"): "line 7",
        GOOD + "2026-11-24T08:31:00Z undo\n2026-11-24T08:31:00Z undo\n": "line 11",
        "2026 throw 1 camera\n": "header tags",
        "": "no match",
        GOOD.replace('[Site "Room 61"]', "[Site Room 61]"): "line 2",
    }
    store = MatchStore.open(tmp_path / "matches.db")
    for text, named in cases.items():
        with pytest.raises(RecordError, match=named):
            parse_text(text)
    assert store.matches() == []


@pytest.mark.parametrize("text, named", [
    ("[1, 2", "not JSON"), ("[" * 3000 + "]" * 3000, "not JSON|match 1"), ('{"variant": "kendall"}', "match 1"),
    ('{"variant": "kendall", "events": [{"kind": "throw", "at": "t"}]}', "match 1, event 1"),
    ('{"variant": "kendall", "events": [{"kind": "fly", "at": "t"}]}', "match 1, event 1"),
    ('[{"variant": "kendall", "events": []}, {"variant": "kendall", "events": [3]}]', "match 2, event 1"),
])
def test_bad_json_records_are_refused_with_the_place_named(text: str, named: str) -> None:
    with pytest.raises(RecordError, match=named):
        parse_json(text)
