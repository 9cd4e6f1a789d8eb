"""swap-barrier (RULES.md section 2): one test per rule ID."""

from __future__ import annotations

from rules_helpers import DARK, LIGHT, OFF, after, board, pairs, position, rules

from senet.engine import Game, Position, find_variant

V = "swap-barrier"


def test_S_setup_as_kendall() -> None:
    start = Position.start(V)
    assert start.pieces(DARK) == [2, 4, 6, 8, 10] and start.pieces(LIGHT) == [1, 3, 5, 7, 9]


def test_S_throw_values() -> None:
    assert find_variant(V).throw_values == {1, 2, 3, 4, 6}


def test_S_start_the_first_one_moves_10_to_11() -> None:
    game = Game(V)
    game.throw(2)
    game.throw(1)
    assert game.dark_seat == 1 and {(m.from_square, m.to_square) for m in game.options.moves} == {(10, 11)}
    assert rules(game.position, 1, 8, 9) == {"S.start"}


def test_S_again_after_1_4_6_only() -> None:
    pos = position(V, dark=(12,), light=(1,))
    for throw, expected in ((1, DARK), (2, LIGHT), (3, LIGHT), (4, DARK), (6, DARK)):
        assert after(pos, throw, 12, 12 + throw)[1] is expected
    assert after(position(V, dark=(23,), light=(1,)), 3, 23, 26)[1] is LIGHT  # no 26 bonus here


def test_S_exact_distance() -> None:
    pos = position(V, dark=(12,), light=(1,))
    assert pairs(pos, 2) == {(12, 14)} and rules(pos, 2, 12, 15) == {"S.exact"}


def test_S_forward_first() -> None:
    pos = position(V, dark=(12, 20), light=(1,))
    assert rules(pos, 2, 20, 18) == {"S.backward"} and (20, 22) in pairs(pos, 2)
    assert (12, 10) not in pairs(pos, 2)


def test_S_own_not_on_own_piece() -> None:
    assert rules(position(V, dark=(12, 14), light=(1,)), 2, 12, 14) == {"S.own"}


def test_S_swap_only_a_lone_piece() -> None:
    assert after(position(V, dark=(12,), light=(14,)), 2, 12, 14)[0] == board(dark=(14,), light=(12,))
    guarded = position(V, dark=(12,), light=(14, 15))
    assert (12, 14) not in pairs(guarded, 2) and rules(guarded, 2, 12, 14) == {"S.swap"}


def test_S_block_three_forward_and_backward() -> None:
    forward = position(V, dark=(12,), light=(13, 14, 15))
    assert (12, 16) not in pairs(forward, 4) and rules(forward, 4, 12, 16) == {"S.block"}
    # 20 cannot go forward (24 is guarded by 25) nor backward past 17-19 (D: the block works backward too)
    backward = position(V, dark=(20,), light=(17, 18, 19, 24, 25))
    assert pairs(backward, 4) == set() and rules(backward, 4, 20, 16) == {"S.block"}


def test_S_backward_swaps_a_lone_opponent_forward() -> None:
    stuck = position(V, dark=(16,), light=(12, 17, 18, 19, 20))
    assert pairs(stuck, 4) == {(16, 12)}
    assert after(stuck, 4, 16, 12)[0] == board(dark=(12,), light=(16, 17, 18, 19, 20))


def test_S_stuck_loses_the_game() -> None:
    options = position(V, dark=(1,), light=(2, 3, 4)).options(1)
    assert options.moves == [] and options.stuck == "loses" and options.pass_move.winner == LIGHT


def test_S_water_to_15_then_1_and_only_as_a_last_resort() -> None:
    # 25 -> 27 is the only move: backward onto 23 is guarded by 22.
    only = position(V, dark=(25,), light=(22, 23))
    assert pairs(only, 2) == {(25, 15)}
    assert pairs(position(V, dark=(25,), light=(15, 22, 23)), 2) == {(25, 1)}
    both = position(V, dark=(25,), light=(1, 15, 22, 23))
    assert after(both, 2, 25, 2)[0] == board(dark=(2,), light=(1, 15, 22, 23))
    # D: with any other move, forward or backward, the water is refused.
    choice = position(V, dark=(25,), light=(1,))
    assert pairs(choice, 2) == {(25, 23)} and "S.water" in rules(choice, 2, 25, 27)


def test_S_safe_26_28_29() -> None:
    for square in (26, 28, 29):
        pos = position(V, dark=(square - 2,), light=(square,))
        assert rules(pos, 2, square - 2, square) == {"S.safe"}


def test_S_barrier_no_bearing_off_while_a_piece_is_on_row_1() -> None:
    pos = position(V, dark=(26, 4), light=(12,))
    assert (26, OFF) not in pairs(pos, 4)
    assert [(v.rule, v.squares) for v in pos.explain(4, 26, OFF)] == [("S.barrier", (26, 4))]
    assert (26, OFF) in pairs(position(V, dark=(26, 14), light=(12,)), 4)


def test_S_off_reaching_30_or_beyond_without_an_exact_throw() -> None:
    assert (28, OFF) in pairs(position(V, dark=(28, 14), light=(1,)), 6)
    assert (26, OFF) in pairs(position(V, dark=(26, 14), light=(1,)), 4)
    assert (25, 29) in pairs(position(V, dark=(25, 14), light=(1,)), 4)


def test_S_win_with_all_five_off() -> None:
    move = position(V, dark=(29,), light=(1,)).find_move(1, 29, OFF)
    assert move.winner == DARK
