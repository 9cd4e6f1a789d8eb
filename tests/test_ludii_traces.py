"""The ludii-kendall variants against Ludii 1.3.13's own recorded games (../shared/ludii/).

For every decision Ludii recorded, the engine must offer exactly the same moves, with
the same resulting boards, the same next player and the same LK.15 state.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from senet.engine import OFF, find_variant
from senet.engine.game import Game

TRACES = Path(__file__).resolve().parents[2] / "shared" / "ludii"
FILES = {"k5_sample.jsonl": "ludii-kendall-5", "k7_sample.jsonl": "ludii-kendall"}


def ludii_board(text: str) -> tuple[int, ...]:
    return (0, *(0 if char == "." else int(char) for char in text), 0)


def ludii_text(board: tuple[int, ...]) -> str:
    return "".join("." if code == 0 else str(int(code)) for code in board[1:31])


def decisions(file_name: str) -> list[dict]:
    path = TRACES / file_name
    if not path.exists():
        pytest.skip(f"{path} is not there")
    lines = path.read_text().splitlines()[1:]
    return [json.loads(line) for line in lines if line.strip()]


def engine_moves(variant_name: str, decision: dict) -> set[tuple]:
    """The engine's options in Ludii's terms: (from, to, result, next mover, 15-state)."""
    variant = find_variant(variant_name)
    mover = decision["mover"]
    mark = 15 if decision["sq15_state"] else 0
    options = variant.options(ludii_board(decision["board"]), mover, mark, decision["throw"])
    found = set()
    for move in options.moves:
        to = move.from_square if move.to_square == OFF else move.to_square
        # Ludii keeps the winner as the next mover once the game is over.
        marked = 1 if move.mark == 15 and move.after[15] else 0
        found.add((move.from_square, to, ludii_text(move.after), move.next_turn or mover, marked))
    if options.pass_move is not None:
        marked = 1 if options.pass_move.mark == 15 else 0
        found.add((-1, -1, decision["board"], options.pass_move.next_turn, marked))
    return found


@pytest.mark.parametrize("file_name", sorted(FILES))
def test_every_playing_decision_matches_ludii(file_name: str) -> None:
    """A referee using ludii-kendall allows exactly what Ludii allows, decision by decision."""
    checked = 0
    for decision in decisions(file_name):
        if decision.get("phase") != "Playing" or "moves" not in decision:
            continue
        expected = {
            (m["from"], m["to"], m["result"], m["next_mover"], m["next_sq15_state"]) for m in decision["moves"]
        }
        got = engine_moves(FILES[file_name], decision)
        assert got == expected, f"game {decision['game_idx']} step {decision['step']}"
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("file_name", sorted(FILES))
def test_ludii_games_replay_through_the_game_api(file_name: str) -> None:
    """Each recorded game, ritual included, plays through Game to the same final board."""
    games: dict[int, list[dict]] = {}
    for decision in decisions(file_name):
        games.setdefault(decision["game_idx"], []).append(decision)
    for steps in games.values():
        game = Game(FILES[file_name])
        for decision in steps:
            if "moves" not in decision:
                continue
            chosen = decision["moves"][decision["chosen"]]
            if decision["phase"] == "Opening":
                game.throw(decision["throw"])
                continue
            assert ludii_text(game.position.board) == decision["board"]
            forced_pass = game.throw(decision["throw"])
            if forced_pass is not None:
                assert chosen["type"] == "Pass"  # no move was possible: the engine passed by itself
            elif chosen["type"] == "Pass":
                game.pass_turn()
            else:
                to = OFF if chosen["type"] == "Remove" else chosen["to"]
                game.play(chosen["from"], to)
            assert ludii_text(game.position.board) == chosen["result"]
        assert game.is_over == steps[-1]["over"]
