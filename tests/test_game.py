"""Whole games through Game: the start rituals, forced first moves, passes, undo and records."""

from __future__ import annotations

import pytest

from senet.engine import Game, GameError, Player
from senet.engine.board import format_board
from senet.engine.position import IllegalMoveError
from senet.engine.record import GameRecord


def test_K_start_ritual_forces_10_11_then_lights_piece_on_9() -> None:
    """K.start: the first 1 decides dark, is played 10-11; light must then use the piece on 9."""
    game = Game("kendall")
    for value in (2, 3, 6):
        game.throw(value)
    assert not game.started
    game.throw(1)
    assert game.started and game.dark_seat == 1
    with pytest.raises(IllegalMoveError) as refused:
        game.play(8, 9)
    assert refused.value.violations[0].rule == "K.start"
    game.play(10, 11)
    assert game.position.turn is Player.DARK  # a 1 throws again
    game.throw(2)
    game.play(11, 13)
    assert game.position.turn is Player.LIGHT
    game.throw(3)
    assert {(m.from_square, m.to_square) for m in game.options.moves} == {(9, 12)}


def test_LK_start_jumps_the_front_piece_by_itself() -> None:
    game = Game("ludii-kendall")
    game.throw(3)
    game.throw(1)
    assert format_board(game.position.board) == "LDLDLDLDLDLDL.D" + "." * 15
    assert game.current_throw is None and game.position.turn is Player.DARK


def test_H_start_deciding_one_is_not_played() -> None:
    game = Game("houses")
    game.throw(1)
    assert game.started and game.current_throw is None
    game.throw(2)
    assert game.options.moves


def test_B_start_by_lot_and_no_ritual_throws() -> None:
    game = Game("blockade")
    with pytest.raises(GameError, match="lot"):
        game.throw(2)
    game.start_by_lot(0)
    game.throw(3)
    assert [(m.from_square, m.to_square) for m in game.options.moves] == [(10, 13)]


def test_out_of_turn_actions_are_refused_with_a_reason() -> None:
    game = Game("netherworld")
    game.throw(1)
    with pytest.raises(GameError, match="throw the sticks"):
        game.play(10, 11)
    game.throw(2)
    with pytest.raises(GameError, match="must first use the throw of 2"):
        game.throw(3)
    with pytest.raises(GameError, match="no throw of 6"):
        Game("netherworld").throw(6)


def test_undo_takes_back_the_move_and_keeps_its_throw() -> None:
    game = Game("netherworld")
    game.throw(1)
    game.throw(3)
    before = game.position.copy()
    game.play(10, 13)
    turn = game.undo()
    assert (turn.from_square, turn.to_square) == (10, 13)
    assert game.position == before and game.current_throw == 3
    with pytest.raises(GameError):
        Game("netherworld").undo()


def test_a_record_that_does_not_fit_names_the_turn() -> None:
    text = "variant kendall\nstart 1\ndark 1 10-11\ndark 2 11-14\nresult -\n"
    with pytest.raises(GameError, match="turn 2"):
        Game.replay(GameRecord.parse(text))
    with pytest.raises(ValueError, match="line 3"):
        GameRecord.parse("variant kendall\nstart 1\ndark one 10-11\n")
