"""The referee never calls a legal move illegal (hypothesis over positions from random games of
the track games; the grid games' turns in parts are in test_referee_parts)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from senet.engine.board import format_board
from senet.engine.game import Game
from senet.engine.playout import random_game
from senet.engine.referee import Referee
from senet.engine.variants import VARIANTS, StartRitual


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(name for name, variant in VARIANTS.items() if not variant.in_parts)), st.integers(0, 10_000))
def test_every_legal_move_shown_on_the_board_is_accepted(name: str, seed: int) -> None:
    """Walk a random game; at random moments show every legal move of a random throw to the referee."""
    record = random_game(name, seed).record
    start = Game(name)
    for value in record.start_throws:
        start.throw(value)
    if start.variant.start_ritual is StartRitual.LOTS:
        start.start_by_lot(record.dark_seat or 0)
    position = start.position.copy()
    chooser = random.Random(seed)
    for turn in record.turns:
        if chooser.random() < 0.15:
            throw = chooser.choice(sorted(start.variant.throw_values))
            for move in position.legal_moves(throw):
                referee = Referee(name)
                referee.set_position(position.copy(), throw)
                verdicts = referee.board(format_board(move.after))
                assert verdicts and verdicts[0].event == "move", (str(position), throw, str(move), verdicts)
        options = position.options(turn.throw)
        chosen = [m for m in options.moves if (m.from_square, m.to_square) == (turn.from_square, turn.to_square)]
        position.push(chosen[0] if chosen else options.pass_move)
    assert position.is_game_over
