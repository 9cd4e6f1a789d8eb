"""ludii-kendall and ludii-kendall-5 (RULES.md section 8, as Ludii 1.3.13 plays it): one test per rule ID."""

from __future__ import annotations

from rules_helpers import DARK, LIGHT, OFF, after, board, pairs, position, rules

from senet.engine import Game, Position, find_variant

V, V5 = "ludii-kendall", "ludii-kendall-5"


def test_LK_setup_seven_pieces_or_five() -> None:
    seven, five = Position.start(V), Position.start(V5)
    assert seven.pieces(DARK) == list(range(2, 15, 2)) and seven.pieces(LIGHT) == list(range(1, 14, 2))
    assert five.pieces(DARK) == [2, 4, 6, 8, 10] and five.pieces(LIGHT) == [1, 3, 5, 7, 9]


def test_LK_start_the_front_piece_jumps_and_dark_throws_again() -> None:
    for name, start, end in ((V, 14, 15), (V5, 10, 11)):
        game = Game(name)
        game.throw(2)
        game.throw(1)
        assert game.position.board[start] == 0 and game.position.board[end] == DARK
        assert game.position.turn is DARK and game.current_throw is None


def test_LK_throw_zero_light_sides_is_5() -> None:
    assert find_variant(V).throw_values == {1, 2, 3, 4, 5}


def test_LK_again_after_1_4_5_also_after_a_pass() -> None:
    pos = position(V5, dark=(12,), light=(1,))
    for throw, expected in ((1, DARK), (2, LIGHT), (3, LIGHT), (4, DARK), (5, DARK)):
        assert after(pos, throw, 12, 12 + throw)[1] is expected
    stuck = position(V5, dark=(1,), light=(5, 6)).options(4)
    assert stuck.stuck == "pass" and stuck.pass_move.next_turn == DARK
    assert position(V5, dark=(1,), light=(3, 4)).options(2).pass_move.next_turn == LIGHT


def test_LK_capture_forward_or_backward_unless_a_neighbour_guards() -> None:
    assert after(position(V5, dark=(10,), light=(12,)), 2, 10, 12)[0] == board(dark=(12,), light=(10,))
    assert rules(position(V5, dark=(10,), light=(12, 13)), 2, 10, 12) == {"LK.capture"}
    assert (10, 14) in pairs(position(V5, dark=(10,), light=(11, 12, 13)), 4)  # no block rule
    back = position(V5, dark=(24,), light=(20, 25, 26))
    assert pairs(back, 4) == {(24, 20)}
    # Ludii's grid quirk: a piece on 20 is also guarded by one of its colour on 1.
    assert rules(position(V5, dark=(18,), light=(1, 20)), 2, 18, 20) == {"LK.capture"}


def test_LK_backward_only_without_forward_and_only_from_1_to_26() -> None:
    assert rules(position(V5, dark=(12, 20), light=(1,)), 2, 20, 18) == {"LK.backward"}
    on28 = position(V5, dark=(28,), light=(1,))
    assert pairs(on28, 1) == set() and "LK.backward" in rules(on28, 1, 28, 27)


def test_LK_26_must_be_hit_exactly_then_decides() -> None:
    pos = position(V5, dark=(24,), light=(1,))
    assert pairs(pos, 2) == {(24, 26)} and rules(pos, 3, 24, 27) == {"LK.26"}
    on26 = position(V5, dark=(26,), light=(1,))
    assert [pairs(on26, t) for t in (1, 2, 3, 4, 5)] == [{(26, 27)}, {(26, 28)}, {(26, 29)}, {(26, 30)}, {(26, OFF)}]
    blocked = position(V5, dark=(26,), light=(28,))
    assert pairs(blocked, 2) == {(26, 24)} and rules(blocked, 2, 26, 28) == {"LK.26"}


def test_LK_27_the_water_piece_is_the_only_one_and_gives_no_extra_throw() -> None:
    pos = position(V5, dark=(27, 12), light=(1,))
    assert pairs(pos, 4) == {(27, OFF)} and after(pos, 4, 27, OFF)[1] is LIGHT
    options = pos.options(1)
    assert {(m.from_square, m.to_square) for m in options.moves} == {(27, 15)} and options.may_pass
    assert after(pos, 1, 27, 15)[1] is LIGHT
    assert rules(pos, 1, 12, 13) == {"LK.27"}
    taken = position(V5, dark=(27, 12), light=(15,)).options(2)
    assert taken.moves == [] and taken.stuck == "pass" and taken.pass_move.next_turn == LIGHT


def test_LK_15_the_piece_out_of_the_water_moves_next_without_an_extra_throw() -> None:
    pos = position(V5, dark=(15, 3), light=(1,), mark=15)
    assert pairs(pos, 4) == {(15, 19)} and after(pos, 4, 15, 19)[1] is LIGHT
    assert rules(pos, 4, 3, 7) == {"LK.15"}
    guarded = position(V5, dark=(15, 3), light=(17, 18, 13), mark=15)
    assert pairs(guarded, 2) == {(15, 13)}  # forward blocked by the pair: backward, still a capture


def test_LK_exit_28_with_3_29_with_2_30_with_anything() -> None:
    assert (28, OFF) in pairs(position(V5, dark=(28, 12), light=(1,)), 3)
    assert (29, OFF) in pairs(position(V5, dark=(29, 12), light=(1,)), 2)
    for throw in (1, 2, 3, 4, 5):
        assert (30, OFF) in pairs(position(V5, dark=(30, 12), light=(1,)), throw)
    assert rules(position(V5, dark=(29, 12), light=(1,)), 3, 29, OFF) == {"LK.exit"}


def test_LK_win_when_the_last_piece_leaves() -> None:
    assert position(V, dark=(30,), light=(1,)).find_move(2, 30, OFF).winner == DARK
