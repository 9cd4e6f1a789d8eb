"""netherworld (RULES.md section 5): one test per rule ID."""

from __future__ import annotations

from rules_helpers import DARK, LIGHT, OFF, after, board, pairs, position, rules

from senet.engine import Game, Position, find_variant

V = "netherworld"


def test_N_setup_alternating_and_the_first_one_starts_unplayed() -> None:
    start = Position.start(V)
    assert start.pieces(DARK) == [2, 4, 6, 8, 10] and start.pieces(LIGHT) == [1, 3, 5, 7, 9]
    game = Game(V)
    game.throw(1)
    assert game.started and game.dark_seat == 0 and game.current_throw is None


def test_N_throw_zero_light_sides_is_5() -> None:
    assert find_variant(V).throw_values == {1, 2, 3, 4, 5}


def test_N_again_after_1_4_5() -> None:
    pos = position(V, dark=(12,), light=(1,))
    for throw, expected in ((1, DARK), (2, LIGHT), (3, LIGHT), (4, DARK), (5, DARK)):
        assert after(pos, throw, 12, 12 + throw)[1] is expected


def test_N_capture_lone_pieces_swap_and_never_on_your_own() -> None:
    assert after(position(V, dark=(10,), light=(12,)), 2, 10, 12)[0] == board(dark=(12,), light=(10,))
    assert rules(position(V, dark=(10, 12), light=(1,)), 2, 10, 12) == {"N.capture"}


def test_N_guard_pairs_cannot_be_attacked_but_anything_can_be_jumped() -> None:
    assert rules(position(V, dark=(10,), light=(12, 13)), 2, 10, 12) == {"N.guard"}
    assert (10, 14) in pairs(position(V, dark=(10,), light=(11, 12, 13)), 4)


def test_N_backward_only_without_forward_and_it_ends_the_turn() -> None:
    pos = position(V, dark=(20,), light=(12, 24, 25))
    assert pairs(pos, 4) == {(20, 16)} and after(pos, 4, 20, 16)[1] is LIGHT
    both = position(V, dark=(20, 5), light=(24, 25))
    assert rules(both, 4, 20, 16) == {"N.backward"}
    judges = position(V, dark=(28,), light=(1,))
    assert pairs(judges, 1) == set() and judges.options(1).stuck == "pass"


def test_N_good_no_move_passes_26() -> None:
    pos = position(V, dark=(24,), light=(1,))
    assert pairs(pos, 2) == {(24, 26)} and pairs(pos, 3) == {(24, 21)} and rules(pos, 3, 24, 27) == {"N.good"}
    on26 = position(V, dark=(26,), light=(1,))
    assert [pairs(on26, t) for t in (1, 2, 3, 4, 5)] == [{(26, 27)}, {(26, 28)}, {(26, 29)}, {(26, 30)}, {(26, OFF)}]


def test_N_last4_the_opponent_goes_to_27_or_swaps_and_nobody_is_guarded() -> None:
    assert after(position(V, dark=(26,), light=(28, 29)), 2, 26, 28)[0] == board(dark=(28,), light=(27, 29))
    assert after(position(V, dark=(26,), light=(27, 28)), 2, 26, 28)[0] == board(dark=(28,), light=(26, 27))


def test_N_water_return_to_15_or_throw_for_a_4() -> None:
    pos = position(V, dark=(27, 12), light=(1,))
    four = pos.options(4)
    assert {(m.from_square, m.to_square) for m in four.moves} == {(27, OFF), (27, 15)} and not four.may_pass
    assert after(pos, 4, 27, OFF)[1] is DARK and after(pos, 4, 27, 15)[1] is LIGHT
    two = pos.options(2)
    assert {(m.from_square, m.to_square) for m in two.moves} == {(27, 15)} and two.may_pass
    assert rules(pos, 2, 12, 14) == {"N.water"}
    assert pairs(position(V, dark=(27,), light=(15,)), 2) == {(27, 14)}
    landing = position(V, dark=(26,), light=(1,))
    assert after(landing, 1, 26, 27)[1] is LIGHT  # landing in the water ends the turn, even with a 1


def test_N_judges3_28_leaves_only_with_3() -> None:
    pos = position(V, dark=(28, 12), light=(1,))
    assert (28, OFF) in pairs(pos, 3) and rules(pos, 2, 28, 30) == {"N.judges3"}


def test_N_judges2_29_leaves_only_with_2() -> None:
    pos = position(V, dark=(29, 12), light=(1,))
    assert (29, OFF) in pairs(pos, 2) and rules(pos, 3, 29, OFF) == {"N.judges2"}


def test_N_horus_30_leaves_with_any_throw() -> None:
    for throw in (1, 2, 3, 4, 5):
        assert (30, OFF) in pairs(position(V, dark=(30, 12), light=(1,)), throw)


def test_N_win_when_the_last_piece_leaves() -> None:
    assert position(V, dark=(30,), light=(1,)).find_move(2, 30, OFF).winner == DARK
