"""blockade (RULES.md section 3): one test per rule ID."""

from __future__ import annotations

from rules_helpers import DARK, LIGHT, OFF, after, board, pairs, position, rules

from senet.engine import Game, Position, find_variant

V = "blockade"


def test_B_setup_as_kendall() -> None:
    start = Position.start(V)
    assert start.pieces(DARK) == [2, 4, 6, 8, 10] and start.pieces(LIGHT) == [1, 3, 5, 7, 9]


def test_B_start_by_lot_then_the_piece_on_10_first() -> None:
    game = Game(V)
    game.start_by_lot(1)
    game.throw(2)
    assert game.dark_seat == 1 and game.position.turn is DARK
    assert {(m.from_square, m.to_square) for m in game.options.moves} == {(10, 12)}
    assert rules(Position.start(V), 1, 8, 9) == {"B.start"}


def test_B_throw_values() -> None:
    assert find_variant(V).throw_values == {1, 2, 3, 4, 6}


def test_B_turns_strictly_alternate() -> None:
    pos = position(V, dark=(12,), light=(1,))
    for throw in (1, 2, 3, 4, 6):
        assert after(pos, throw, 12, 12 + throw)[1] is LIGHT


def test_B_capture_swaps_but_not_a_blockade_of_two_or_three() -> None:
    assert after(position(V, dark=(12,), light=(14,)), 2, 12, 14)[0] == board(dark=(14,), light=(12,))
    pair = position(V, dark=(12,), light=(14, 15))
    assert rules(pair, 2, 12, 14) == {"B.capture"}


def test_B_block3_cannot_be_passed() -> None:
    pos = position(V, dark=(12,), light=(13, 14, 15))
    assert rules(pos, 4, 12, 16) == {"B.block3"}
    assert (12, 16) in pairs(position(V, dark=(12,), light=(13, 14)), 4)


def test_B_backward_only_without_a_forward_move_and_may_capture() -> None:
    pos = position(V, dark=(16,), light=(12, 17, 18, 19, 20))
    assert pairs(pos, 4) == {(16, 12)}
    assert after(pos, 4, 16, 12)[0] == board(dark=(12,), light=(16, 17, 18, 19, 20))
    both = position(V, dark=(16, 2), light=(12, 17, 18, 19, 20))
    assert rules(both, 4, 16, 12) == {"B.backward"}
    options = position(V, dark=(1,), light=(2, 3, 4)).options(1)
    assert options.moves == [] and options.stuck == "pass" and options.pass_move.next_turn == LIGHT


def test_B_safe_26_28_29() -> None:
    for square in (26, 28, 29):
        assert rules(position(V, dark=(square - 2,), light=(square,)), 2, square - 2, square) == {"B.safe"}


def test_B_water_back_to_1_only_as_the_last_option() -> None:
    only = position(V, dark=(25,), light=(22, 23))
    assert pairs(only, 2) == {(25, 1)}
    taken = position(V, dark=(25,), light=(1, 22, 23))
    assert pairs(taken, 2) == {(25, 2)}
    choice = position(V, dark=(25,), light=(1,))
    assert pairs(choice, 2) == {(25, 23)} and "B.water" in rules(choice, 2, 25, 27)


def test_B_touch_a_lifted_piece_must_move() -> None:
    pos = position(V, dark=(12, 14), light=(1,))
    assert pairs(pos, 1) == {(12, 13), (14, 15)}
    assert {(m.from_square, m.to_square) for m in pos.legal_moves(1, touched=12)} == {(12, 13)}
    assert rules_touched(pos, 1, 14, 15, touched=12) == {"B.touch"}
    assert {(m.from_square, m.to_square) for m in pos.legal_moves(2, touched=12)} == {(14, 16)}  # 12 cannot move


def rules_touched(pos: Position, throw: int, start: int, end: int, touched: int) -> set[str]:
    return {v.rule for v in pos.explain(throw, start, end, touched)}


def test_B_home_all_pieces_on_the_last_row_before_leaving() -> None:
    pos = position(V, dark=(30, 19), light=(1,))
    assert [(v.rule, v.squares) for v in pos.explain(1, 30, OFF)] == [("B.home", (30, 19))]
    assert (30, OFF) in pairs(position(V, dark=(30, 21), light=(1,)), 1)


def test_B_exit_needs_the_exact_throw() -> None:
    for square, throw in ((30, 1), (29, 2), (28, 3), (25, 6)):
        assert (square, OFF) in pairs(position(V, dark=(square, 22), light=(1,)), throw)
    assert rules(position(V, dark=(29, 22), light=(1,)), 3, 29, OFF) == {"B.exit"}


def test_B_optional_pass_in_the_endgame_when_nothing_can_leave() -> None:
    endgame = position(V, dark=(22, 24), light=(1,))
    options = endgame.options(1)
    assert options.moves and options.may_pass and options.pass_move.next_turn == LIGHT
    assert not position(V, dark=(22, 30), light=(1,)).options(1).may_pass  # 30 can leave with the 1
    assert not position(V, dark=(12, 24), light=(1,)).options(1).may_pass  # not the endgame yet


def test_B_win_with_all_pieces_off() -> None:
    assert position(V, dark=(30,), light=(1,)).find_move(1, 30, OFF).winner == DARK
