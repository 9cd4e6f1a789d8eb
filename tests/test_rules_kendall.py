"""kendall (RULES.md section 1): one test per rule ID, as a referee would notice it."""

from __future__ import annotations

from rules_helpers import DARK, LIGHT, OFF, after, board, pairs, position, rules

from senet.engine import Game, Position, find_variant


def test_K_setup_five_each_dark_on_even_squares() -> None:
    start = Position.start("kendall")
    assert start.pieces(DARK) == [2, 4, 6, 8, 10] and start.pieces(LIGHT) == [1, 3, 5, 7, 9]


def test_K_throw_zero_light_sides_is_6_and_there_is_no_5() -> None:
    assert find_variant("kendall").throw_values == {1, 2, 3, 4, 6}
    assert pairs(position("kendall", dark=(12,)), 6) == {(12, 18)}


def test_K_start_first_one_plays_10_to_11_then_light_uses_9() -> None:
    game = Game("kendall")
    game.throw(4)
    game.throw(1)
    assert {(m.from_square, m.to_square) for m in game.options.moves} == {(10, 11)}
    game.play(10, 11)
    game.throw(3)
    game.play(11, 14)
    game.throw(2)
    assert {(m.from_square, m.to_square) for m in game.options.moves} == {(9, 11)}
    first = position("kendall", dark=(2, 4, 6, 8, 11), light=(1, 3, 5, 7, 9), turn=LIGHT, mark=9)
    assert pairs(first, 1) == {(9, 10)}
    assert rules(first, 1, 7, 8) == {"K.start"}


def test_K_start_light_may_use_another_piece_when_9_cannot_move() -> None:
    """This companion's reading: the forced piece is dropped when it has no legal move."""
    blocked = position("kendall", dark=(2, 4, 6, 10, 11), light=(1, 3, 5, 7, 9), turn=LIGHT, mark=9)
    assert pairs(blocked, 1) == {(1, 2), (3, 4), (5, 6), (7, 8)}


def test_K_again_after_1_4_6_and_on_reaching_26() -> None:
    pos = position("kendall", dark=(12,), light=(1,))
    for throw, expected in ((1, DARK), (2, LIGHT), (3, LIGHT), (4, DARK), (6, DARK)):
        assert after(pos, throw, 12, 12 + throw)[1] is expected
    assert after(position("kendall", dark=(23,), light=(1,)), 3, 23, 26)[1] is DARK


def test_K_exact_one_piece_exactly_the_throw() -> None:
    pos = position("kendall", dark=(12,), light=(1,))
    assert pairs(pos, 3) == {(12, 15)}
    assert rules(pos, 3, 12, 14) == {"K.exact"}


def test_K_forward_only_while_a_forward_move_exists() -> None:
    pos = position("kendall", dark=(12, 20), light=(1,))
    assert pairs(pos, 2) == {(12, 14), (20, 22)}
    assert rules(pos, 2, 12, 10) == {"K.backward"}


def test_K_jump_own_runs_and_opponent_pairs_but_not_three_opponents() -> None:
    pos = position("kendall", dark=(10, 11, 12), light=(1,))
    assert (10, 13) in pairs(pos, 3)  # over its own pieces
    pair = position("kendall", dark=(10,), light=(11, 12))
    assert (10, 13) in pairs(pair, 3)
    block = position("kendall", dark=(10,), light=(11, 12, 13))
    assert (10, 14) not in pairs(block, 4)
    assert rules(block, 4, 10, 14) == {"K.jump"}


def test_K_own_cannot_end_on_own_piece() -> None:
    pos = position("kendall", dark=(10, 13), light=(1,))
    assert (10, 13) not in pairs(pos, 3) and rules(pos, 3, 10, 13) == {"K.own"}


def test_K_capture_swaps_a_lone_piece_but_not_one_of_a_pair() -> None:
    lone = position("kendall", dark=(10,), light=(13,))
    assert after(lone, 3, 10, 13)[0] == board(dark=(13,), light=(10,))
    pair = position("kendall", dark=(10,), light=(13, 14))
    assert (10, 13) not in pairs(pair, 3)
    assert [(v.rule, v.squares) for v in pair.explain(3, 10, 13)] == [("K.capture", (13, 14))]


def test_K_backward_when_nothing_goes_forward_and_pass_when_nothing_at_all() -> None:
    back = position("kendall", dark=(30,), light=(1,))
    assert pairs(back, 6) == {(30, 24)}  # 30 needs a 1 to leave: it moves back
    assert after(back, 6, 30, 24)[1] is DARK  # a backward 6 still throws again (this companion's reading)
    blocked_back = position("kendall", dark=(30,), light=(1, 24, 25, 26))
    assert pairs(blocked_back, 6) == set()  # backward moves obey K.capture too: 24 is guarded by 25
    nothing = position("kendall", dark=(1,), light=(2, 3, 4, 5))
    options = nothing.options(4)
    assert options.moves == [] and options.stuck == "pass" and options.pass_move.next_turn == LIGHT


def test_K_safe_no_capture_on_26_28_29_30() -> None:
    for square in (26, 28, 29, 30):
        pos = position("kendall", dark=(square - 2,), light=(square,))
        assert (square - 2, square) not in pairs(pos, 2)
        assert rules(pos, 2, square - 2, square) == {"K.safe"}
    assert (25, 1) in pairs(position("kendall", dark=(25,), light=(27,)), 2)  # 27 is not safe (then the water)


def test_K_water_falls_back_to_1_or_the_first_empty_square_after_it() -> None:
    pos = position("kendall", dark=(24,), light=(5,))
    assert after(pos, 3, 24, 1)[0] == board(dark=(1,), light=(5,))
    full = position("kendall", dark=(24, 2), light=(1, 3))
    assert after(full, 3, 24, 4)[0] == board(dark=(2, 4), light=(1, 3))
    assert rules(pos, 3, 24, 27) == {"K.water"}


def test_K_exit_needs_the_exact_throw() -> None:
    for square, throw in ((25, 6), (28, 3), (29, 2), (30, 1)):
        assert (square, OFF) in pairs(position("kendall", dark=(square, 12), light=(1,)), throw)
    pos = position("kendall", dark=(28, 12), light=(1,))
    assert (28, OFF) not in pairs(pos, 4) and rules(pos, 4, 28, OFF) == {"K.exit"}


def test_K_win_when_the_last_piece_leaves() -> None:
    move = position("kendall", dark=(30,), light=(1,)).find_move(1, 30, OFF)
    assert move.winner == DARK and move.next_turn == 0
    pos = position("kendall", dark=(30,), light=(1,))
    pos.push(move)
    assert pos.is_game_over and pos.winner is DARK and pos.legal_moves(1) == []


def test_K_score_counts_the_losers_pieces_by_row() -> None:
    kendall = find_variant("kendall")
    final = position("kendall", dark=(), light=(3, 14, 27, 29))
    assert kendall.score(final.board, DARK) == 3 + 2 + 1 + 1
