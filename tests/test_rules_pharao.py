"""``pharao`` (RULES.md section 6, rule IDs P.*): every rule has a test named after it.

The grid (squares along the S-path): row 1 is 1-10 left to right, row 2 is 20-11 left to
right, row 3 is 21-30. So 15 has 6 above it, 26 below, 16 to its left and 14 to its right.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from rules_helpers import DARK, LIGHT, board

from senet.engine import Game, GameError, Player, Position
from senet.engine.moves import Stage
from senet.engine.position import IllegalMoveError
from senet.engine.throws import PHARAO_DICE, Dice
from senet.engine.variants import find_variant

V = "pharao"


def pos(dark: tuple[int, ...] = (), light: tuple[int, ...] = (), turn: Player = LIGHT, stage: Stage = Stage.OWN) -> Position:
    return Position.from_board_text(V, board(dark, light), turn, stage=stage)


def ends(position: Position, number: int, start: int | None = None) -> set[int]:
    return {m.to_square for m in position.legal_moves(number) if start is None or m.from_square == start}


def broken(position: Position, number: int, start: int, end: int) -> list[tuple[str, str]]:
    return [(v.rule, v.case) for v in position.explain(number, start, end)]


# -- P.setup, P.dice, P.turn ----------------------------------------------------------------


def test_P_setup_four_each_light_on_2_to_5_dark_on_20_to_23_light_starts() -> None:
    start = Position.start(V)
    assert start.pieces(LIGHT) == [2, 3, 4, 5] and start.pieces(DARK) == [20, 21, 22, 23]
    assert start.turn is LIGHT and start.stage is Stage.OWN and find_variant(V).pieces == 4


def test_P_dice_own_die_0_0_1_2_3_4_and_opponent_die_0_0_1_2_1_2() -> None:
    assert sorted(PHARAO_DICE.own_faces) == [0, 0, 1, 2, 3, 4]
    assert sorted(PHARAO_DICE.other_faces) == [0, 0, 1, 1, 2, 2]
    own, other = PHARAO_DICE.face_odds(PHARAO_DICE.own_faces), PHARAO_DICE.face_odds(PHARAO_DICE.other_faces)
    assert own[0] == pytest.approx(1 / 3) and own[4] == pytest.approx(1 / 6) and other[2] == pytest.approx(1 / 3)
    assert sum(own.values()) == sum(other.values()) == 1
    counts = Counter(PHARAO_DICE.roll(random.Random(seed)).own for seed in range(3000))
    assert set(counts) == {0, 1, 2, 3, 4} and 850 < counts[0] < 1150  # a third of the throws
    game = Game(V)
    for impossible in (Dice(5, 1), Dice(1, 3), 4):
        with pytest.raises(GameError, match="two dice"):
            game.throw(impossible)


def test_P_turn_own_piece_by_the_own_die_then_an_opponent_piece_by_the_other() -> None:
    game = Game(V)
    game.throw(Dice(2, 1))
    assert game.current_throw == 2 and {m.from_square for m in game.options.moves} <= {2, 3, 4, 5}
    with pytest.raises(IllegalMoveError, match="P.turn"):
        game.play(20, 18)  # the opponent's piece first
    assert broken(game.position, 2, 20, 18) == [("P.turn", "")]
    game.play(5, 7)
    assert game.position.turn is LIGHT and game.position.stage is Stage.OTHER and game.current_throw == 1
    assert {m.from_square for m in game.options.moves} == {20, 22, 23}  # 21 is hemmed in by 20 and 22
    assert broken(game.position, 1, 4, 14) == [("P.turn", "")]  # now an opponent's piece
    game.play(23, 24)
    assert game.position.turn is DARK and game.position.stage is Stage.OWN and game.needs_throw


def test_P_turn_a_0_skips_that_part() -> None:
    game = Game(V)
    game.throw(Dice(0, 2))  # the own part is skipped at once
    assert str(game.turns[0]) == "light 0 pass"
    assert game.position.stage is Stage.OTHER and game.current_throw == 2
    game.play(20, 18)
    game.throw(Dice(3, 0))
    game.play(21, 24)  # dark's own part; the other part (0) is skipped
    assert str(game.turns[-1]) == "dark other 0 pass" and game.position.turn is LIGHT and game.needs_throw


# -- P.path ---------------------------------------------------------------------------------


def test_P_path_exactly_that_many_orthogonal_steps_never_diagonal() -> None:
    lone = pos(dark=(21,), light=(12,))
    assert ends(lone, 1, 12) == {9, 11, 13, 29}
    assert ends(lone, 2, 12) == {8, 10, 14, 28, 30}  # not 12 itself, and no diagonal square
    assert broken(lone, 1, 12, 8) == [("P.path", "steps")]  # 8 is diagonal to 12


def test_P_path_touches_no_square_twice_and_ends_on_an_empty_square() -> None:
    position = pos(dark=(10, 21), light=(12, 1))
    assert 10 not in ends(position, 2, 12)
    assert broken(position, 2, 12, 10) == [("P.path", "occupied")]
    assert broken(position, 2, 12, 12) == [("P.path", "twice")]  # out and back touches 12 twice
    assert broken(position, 4, 12, 12) == [("P.path", "twice")]


def test_P_path_may_pass_over_occupied_squares() -> None:
    position = pos(dark=(2, 20), light=(1,))
    assert 3 in ends(position, 2, 1)  # over dark's piece on 2


# -- P.must, P.win -------------------------------------------------------------------------


def test_P_must_a_player_who_cannot_carry_out_a_part_loses() -> None:
    boxed = pos(dark=(2, 20), light=(1,))
    options = boxed.options(1)
    assert options.moves == [] and options.stuck == "loses" and options.pass_move.winner == DARK
    game = Game(V)
    game.position = boxed
    game.throw(Dice(1, 1))
    assert game.is_over and game.position.winner is DARK and str(game.turns[-1]) == "light 1 pass"
    # the opponent part too: none of dark's pieces can move one step
    stuck_other = pos(dark=(1,), light=(2, 20, 5), stage=Stage.OTHER)
    assert stuck_other.options(1).pass_move.winner == DARK


def test_P_must_a_part_cannot_be_left_out_while_a_move_exists() -> None:
    game = Game(V)
    game.throw(Dice(1, 1))
    with pytest.raises(ValueError, match="passing is not allowed"):
        game.pass_turn()


def test_P_win_by_drowning_the_last_opponent_piece() -> None:
    game = Game(V)
    game.position = pos(dark=(3, 5), light=(27,))  # light's last piece is in the water, no piece on 26
    game.throw(Dice(0, 1))  # light's own part: skipped, and at its end the piece drowns
    assert game.is_over and game.position.winner is DARK and game.position.board.count(LIGHT) == 0


# -- P.water, P.rescue, P.lucky ----------------------------------------------------------------


def test_P_water_an_own_piece_may_enter_27_only_without_another_move() -> None:
    free = pos(dark=(13, 1), light=(28,))
    assert ends(free, 1, 28) == {29}
    assert broken(free, 1, 28, 27) == [("P.water", "last")]
    boxed = pos(dark=(13, 29), light=(28,))
    assert ends(boxed, 1, 28) == {27}


def test_P_water_opponents_may_be_pushed_in_and_a_piece_in_it_never_moves() -> None:
    other = pos(dark=(28, 5), light=(1,), stage=Stage.OTHER)  # light moves one of dark's pieces
    assert 27 in ends(other, 1, 28)
    drowning = pos(dark=(27, 5), light=(1,), stage=Stage.OTHER)
    assert {m.from_square for m in drowning.legal_moves(2)} == {5}
    assert broken(drowning, 2, 27, 25) == [("P.water", "held")]
    own = pos(dark=(9,), light=(27, 1))
    assert broken(own, 1, 27, 26) == [("P.water", "held")]


def test_P_rescue_a_piece_on_26_after_the_owners_own_move_saves_it_with_3_steps() -> None:
    game = Game(V)
    game.position = pos(dark=(3, 9), light=(27, 25, 1))
    game.throw(Dice(1, 1))
    game.play(25, 26)  # light's own move brings a piece to 26: the piece in the water is saved
    assert game.position.stage is Stage.RESCUE and game.current_throw == 3
    assert {m.from_square for m in game.options.moves} == {27}
    assert broken(game.position, 3, 1, 4) == [("P.rescue", "")]
    assert broken(game.position, 3, 27, 15) == [("P.path", "steps")]  # 15 is two steps from 27
    game.play(27, 16)  # 27-14-15-16
    assert game.position.stage is Stage.OTHER and game.position.board[27] == 0 and game.position.board[16] == LIGHT


def test_P_rescue_otherwise_it_drowns_before_the_opponent_part() -> None:
    game = Game(V)
    game.position = pos(dark=(3, 9), light=(27, 1, 5))
    game.throw(Dice(1, 2))
    game.play(5, 6)  # no own piece on 26: the piece in the water drowns at once
    assert game.position.board[27] == 0 and game.position.pieces(LIGHT) == [1, 6]
    assert game.position.stage is Stage.OTHER


def test_P_rescue_a_piece_that_fell_in_this_part_waits_for_the_next_own_move() -> None:
    position = pos(dark=(13, 29), light=(28,))
    position.push(position.find_move(1, 28, 27))  # the last resort: into the water
    assert position.board[27] == LIGHT and position.stage is Stage.OTHER


def test_P_rescue_a_saved_piece_without_a_3_step_move_drowns() -> None:
    variant = find_variant(V)
    cells = list(pos(dark=(3,), light=(27, 26)).board)
    drowned = variant.stuck(tuple(cells), LIGHT, Stage.RESCUE, 3)
    assert drowned.is_pass and drowned.after[27] == 0 and drowned.stage is Stage.OTHER


def test_P_lucky_a_last_piece_reaching_15_with_the_own_die_wins_at_once() -> None:
    alone = pos(dark=(1, 2), light=(16,))
    move = alone.find_move(1, 16, 15)
    assert move.winner == LIGHT and move.next_turn == 0
    two = pos(dark=(1, 2), light=(16, 30))
    assert two.find_move(1, 16, 15).winner == 0
    pushed = pos(dark=(16, 30), light=(1, 2), stage=Stage.OTHER)  # light moves dark's piece onto 15
    assert pushed.find_move(1, 16, 15).winner == 0
