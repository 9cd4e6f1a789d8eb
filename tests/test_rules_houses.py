"""houses (RULES.md section 4): one test per rule ID."""

from __future__ import annotations

from rules_helpers import DARK, LIGHT, OFF, after, board, pairs, position, rules

from senet.engine import Game, Position, find_variant

V = "houses"


def test_H_setup_alternating_on_row_1() -> None:
    start = Position.start(V)
    assert start.pieces(DARK) == [2, 4, 6, 8, 10] and start.pieces(LIGHT) == [1, 3, 5, 7, 9]


def test_H_throw_zero_light_sides_is_5() -> None:
    assert find_variant(V).throw_values == {1, 2, 3, 4, 5}


def test_H_start_the_deciding_1_is_not_played() -> None:
    game = Game(V)
    game.throw(3)
    game.throw(1)
    assert game.started and game.dark_seat == 1 and game.current_throw is None and game.position.turn is DARK


def test_H_again_after_1_4_5_but_never_in_the_houses() -> None:
    pos = position(V, dark=(12,), light=(1,))
    for throw, expected in ((1, DARK), (2, LIGHT), (3, LIGHT), (4, DARK), (5, DARK)):
        assert after(pos, throw, 12, 12 + throw)[1] is expected
    assert after(position(V, dark=(22,), light=(1,)), 4, 22, 26)[1] is LIGHT  # entering 26
    assert after(position(V, dark=(26,), light=(1,)), 4, 26, 30)[1] is LIGHT  # inside the Houses


def test_H_jump_one_piece_but_never_two_side_by_side_of_any_colour() -> None:
    assert (10, 13) in pairs(position(V, dark=(10,), light=(11,)), 3)
    mixed = position(V, dark=(10, 12), light=(11,))
    assert (10, 13) not in pairs(mixed, 3) and rules(mixed, 3, 10, 13) == {"H.jump"}


def test_H_capture_lone_pieces_pairs_guard_second_from_rear_of_three_falls() -> None:
    assert after(position(V, dark=(10,), light=(12,)), 2, 10, 12)[0] == board(dark=(12,), light=(10,))
    assert rules(position(V, dark=(10,), light=(12, 13)), 2, 10, 12) == {"H.capture"}
    run = position(V, dark=(12,), light=(14, 15, 16))
    assert after(run, 3, 12, 15)[0] == board(dark=(15,), light=(12, 14, 16))
    assert rules(position(V, dark=(11,), light=(14, 15, 16)), 3, 11, 14) == {"H.capture"}


def test_H_overshoot_turns_round_and_may_stop_one_short() -> None:
    # 10 + 5 is barred by the pair on 12-13: it reaches 11 and walks the other 4 back to 7.
    blocked = position(V, dark=(10,), light=(12, 13))
    assert pairs(blocked, 5) == {(10, 7)}
    # 10 + 3 lands on a guarded piece: it may stop on 12 (one short) or turn there and end on 11.
    short = position(V, dark=(10,), light=(13, 14))
    assert pairs(short, 3) == {(10, 12), (10, 11)}
    # With a full move elsewhere there is no overshooting.
    full = position(V, dark=(10, 20), light=(13, 14))
    assert pairs(full, 3) == {(20, 23)} and rules(full, 3, 10, 12) == {"H.overshoot"}
    nothing = position(V, dark=(1,), light=(2, 3))
    assert nothing.options(4).stuck == "pass"


def test_H_beauty_every_piece_stops_on_26_then_a_throw_decides() -> None:
    assert pairs(position(V, dark=(24,), light=(1,)), 5) == {(24, 26)}
    on26 = position(V, dark=(26,), light=(1,))
    assert pairs(on26, 5) == {(26, OFF)} and pairs(on26, 2) == {(26, 28)}
    assert pairs(position(V, dark=(26,), light=(28,)), 2) == {(26, 27)}
    assert pairs(position(V, dark=(26,), light=(27, 28)), 2) == {(26, 15)}
    assert rules(position(V, dark=(26,), light=(28,)), 2, 26, 28) == {"H.beauty"}


def test_H_water_the_next_throw_belongs_to_the_piece_on_27() -> None:
    pos = position(V, dark=(27, 12), light=(1,))
    assert pairs(pos, 4) == {(27, OFF)}
    assert pairs(pos, 2) == {(27, 15)} and after(pos, 2, 27, 15)[1] is LIGHT
    assert pos.options(5).stuck == "pass"
    assert rules(pos, 2, 12, 14) == {"H.water"}


def test_H_truths_28_leaves_only_with_3() -> None:
    pos = position(V, dark=(28, 12), light=(1,))
    assert (28, OFF) in pairs(pos, 3) and rules(pos, 2, 28, 30) == {"H.truths"}


def test_H_isis_29_leaves_only_with_2() -> None:
    pos = position(V, dark=(29, 12), light=(1,))
    assert (29, OFF) in pairs(pos, 2) and rules(pos, 1, 29, 30) == {"H.isis"}


def test_H_ra_30_leaves_only_with_1() -> None:
    pos = position(V, dark=(30, 12), light=(1,))
    assert (30, OFF) in pairs(pos, 1) and (30, OFF) not in pairs(pos, 2) and rules(pos, 3, 30, OFF) == {"H.ra"}


def test_H_houses_no_capture_inside() -> None:
    assert rules(position(V, dark=(24,), light=(26,)), 2, 24, 26) == {"H.houses"}


def test_H_rebirth_behind_15_when_it_is_taken() -> None:
    pos = position(V, dark=(27,), light=(15, 14))
    assert pairs(pos, 1) == {(27, 13)}


def test_H_win_when_the_last_piece_leaves() -> None:
    assert position(V, dark=(28,), light=(1,)).find_move(3, 28, OFF).winner == DARK
