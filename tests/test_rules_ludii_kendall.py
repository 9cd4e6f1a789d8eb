"""``ludii-kendall`` and ``ludii-kendall-5`` (RULES.md section 8, rule IDs LK.*).

Every rule has a test named after it, run for both the 7-piece and the 5-piece ruleset.
Where Ludii 1.3.13 differs from RULES.md the tests follow Ludii: no capture from 26 onto
27-30; 11 is also guarded from 30 and 20 from 1; no extra throw for the forced LK.15
move or for any move out of the water.
"""

from __future__ import annotations

import pytest
from rules_helpers import DARK, LIGHT, play, position
from rules_helpers import board as text
from rules_helpers import board_after as after
from rules_helpers import pairs as moves
from rules_helpers import rules as broken

from senet.engine import OFF, Game, GameError, Player, Position, find_variant
from senet.engine.board import format_board

V7, V5 = "ludii-kendall", "ludii-kendall-5"
BOTH = pytest.mark.parametrize("variant", [V7, V5])


def pos(variant: str, dark: tuple[int, ...] = (), light: tuple[int, ...] = (), turn: Player = DARK, mark: int = 0) -> Position:
    return position(variant, dark, light, turn, mark)


# -- LK.setup, LK.start, LK.throw ----------------------------------------------------------


def test_LK_setup_seven_pieces_each_on_1_to_14() -> None:
    """Kendall (Scholarly): light on the odd squares 1-13, dark on the even squares 2-14."""
    start = Position.start(V7)
    assert start.board_text == "LD" * 7 + "." * 16
    assert start.turn is DARK and find_variant(V7).pieces == 7 and start.off(DARK) == 0


def test_LK_setup_five_pieces_option_on_1_to_10() -> None:
    """The five-piece option: light on 1, 3, 5, 7, 9, dark on 2, 4, 6, 8, 10."""
    start = Position.start(V5)
    assert start.board_text == "LD" * 5 + "." * 20
    assert start.turn is DARK and find_variant(V5).pieces == 5


@pytest.mark.parametrize(
    "variant, board",
    [
        (V7, "LD" * 6 + "L.D" + "." * 15),  # 14 -> 15
        (V5, "LD" * 4 + "L.D" + "." * 19),  # 10 -> 11
    ],
)
def test_LK_start_first_1_makes_dark_its_front_piece_jumps_and_it_throws_again(variant: str, board: str) -> None:
    """The first 1 decides dark; the front piece jumps by itself and dark throws again."""
    game = Game(variant)
    game.throw(3)
    assert not game.started
    game.throw(1)  # the second seat throws the first 1
    assert game.started and game.dark_seat == 1
    assert game.position.board_text == board
    assert game.position.turn is DARK and game.current_throw is None
    with pytest.raises(GameError):
        game.play(2, 3)
    game.throw(2)
    assert game.options.moves


def test_LK_start_the_first_seat_can_win_the_ritual_at_once() -> None:
    """A 1 on the very first throw makes the first seat dark."""
    game = Game(V7)
    game.throw(1)
    assert game.dark_seat == 0 and game.position.board[15] == DARK and game.position.board[14] == 0


@BOTH
def test_LK_throw_no_counting_side_up_is_5(variant: str) -> None:
    """The throws are 1-4 and 5 (no stick showing); there is no 6, and a 5 moves five squares."""
    assert find_variant(variant).throw_values == {1, 2, 3, 4, 5}
    position = pos(variant, dark=(16,), light=(1,))
    assert moves(position, 5) == {(16, 21)}
    with pytest.raises(ValueError):
        position.options(6)


# -- LK.again ------------------------------------------------------------------------------


@BOTH
@pytest.mark.parametrize("throw, again", [(1, True), (2, False), (3, False), (4, True), (5, True)])
def test_LK_again_after_1_4_5_but_not_2_3(variant: str, throw: int, again: bool) -> None:
    """1, 4 and 5 give another throw; 2 and 3 hand the sticks over."""
    move = play(pos(variant, dark=(12,), light=(1,)), throw, 12, 12 + throw)
    assert move.next_turn == (DARK if again else LIGHT)


@BOTH
def test_LK_again_also_near_the_end(variant: str) -> None:
    """No exceptions near the end: 26-27 with a 1, 26-30 with a 4, 26-off with a 5, 30-off with a 1 throw again."""
    assert play(pos(variant, dark=(26, 12), light=(1,)), 1, 26, 27).next_turn == DARK
    assert play(pos(variant, dark=(26, 12), light=(1,)), 4, 26, 30).next_turn == DARK
    assert play(pos(variant, dark=(26, 12), light=(1,)), 5, 26, OFF).next_turn == DARK
    assert play(pos(variant, dark=(30, 12), light=(1,)), 1, 30, OFF).next_turn == DARK


@BOTH
@pytest.mark.parametrize("throw, light", [(1, (2, 3)), (4, (5, 6)), (5, (6, 7))])
def test_LK_again_after_a_pass_with_1_4_5(variant: str, throw: int, light: tuple[int, ...]) -> None:
    """With no move at all, a 1, 4 or 5 still lets the same player throw again."""
    position = pos(variant, dark=(1,), light=light)
    options = position.options(throw)
    assert options.moves == [] and options.stuck == "pass"
    assert options.pass_move.next_turn == DARK and options.pass_move.after == position.board


@BOTH
@pytest.mark.parametrize("throw, light", [(2, (3, 4)), (3, (4, 5))])
def test_LK_again_not_after_a_pass_with_2_3(variant: str, throw: int, light: tuple[int, ...]) -> None:
    """With no move at all, a 2 or 3 passes the turn."""
    options = pos(variant, dark=(1,), light=light).options(throw)
    assert options.moves == [] and options.stuck == "pass" and options.pass_move.next_turn == LIGHT


# -- LK.capture ----------------------------------------------------------------------------


@BOTH
def test_LK_capture_a_lone_opponent_swaps(variant: str) -> None:
    """Landing on a lone opponent swaps the two pieces."""
    assert after(pos(variant, dark=(10,), light=(12,)), 2, 10, 12) == text(dark=(12,), light=(10,))


@BOTH
def test_LK_capture_a_path_neighbour_guards(variant: str) -> None:
    """Both pieces of a pair are safe: the neighbour before or after guards."""
    position = pos(variant, dark=(10, 20), light=(12, 13))
    assert (10, 12) not in moves(position, 2) and "LK.capture" in broken(position, 2, 10, 12)
    assert (10, 13) not in moves(position, 3) and "LK.capture" in broken(position, 3, 10, 13)


@BOTH
def test_LK_capture_backward_too(variant: str) -> None:
    """A backward move onto a lone opponent swaps; onto a guarded one it is impossible."""
    assert after(pos(variant, dark=(24,), light=(20,)), 4, 24, 20) == text(dark=(20,), light=(24,))
    options = pos(variant, dark=(24,), light=(19, 20)).options(4)
    assert options.moves == [] and options.stuck == "pass"


@BOTH
def test_LK_capture_never_on_your_own_piece(variant: str) -> None:
    """A piece may not land on its own colour."""
    position = pos(variant, dark=(10, 12, 20), light=(1,))
    assert (10, 12) not in moves(position, 2) and broken(position, 2, 10, 12)


@BOTH
def test_LK_capture_no_rule_against_passing_a_run_of_three(variant: str) -> None:
    """Three opponents side by side can be jumped."""
    assert (10, 14) in moves(pos(variant, dark=(10,), light=(11, 12, 13)), 4)


@BOTH
def test_LK_capture_ludii_guards_11_from_30(variant: str) -> None:
    """Ludii's grid quirk: a piece on 11 is guarded by a piece of its colour on 30."""
    guarded = pos(variant, dark=(9, 5), light=(11, 30))
    assert (9, 11) not in moves(guarded, 2) and "LK.capture" in broken(guarded, 2, 9, 11)
    assert after(pos(variant, dark=(9, 5), light=(11,)), 2, 9, 11) == text(dark=(5, 11), light=(9,))


@BOTH
def test_LK_capture_ludii_guards_20_from_1(variant: str) -> None:
    """Ludii's grid quirk: a piece on 20 is guarded by a piece of its colour on 1."""
    guarded = pos(variant, dark=(18, 5), light=(1, 20))
    assert (18, 20) not in moves(guarded, 2) and "LK.capture" in broken(guarded, 2, 18, 20)
    assert after(pos(variant, dark=(18, 5), light=(20,)), 2, 18, 20) == text(dark=(5, 20), light=(18,))


@BOTH
def test_LK_capture_no_other_far_guards(variant: str) -> None:
    """Only 11 and 20 have the extra guard: 12 with a friend on 1 and 19 with one on 29 fall."""
    assert (10, 12) in moves(pos(variant, dark=(10,), light=(1, 12)), 2)
    assert (17, 19) in moves(pos(variant, dark=(17,), light=(19, 29)), 2)


# -- LK.backward ---------------------------------------------------------------------------


@BOTH
def test_LK_backward_only_when_no_piece_can_move_forward(variant: str) -> None:
    """12-14 is possible, so 20 may not step back."""
    position = pos(variant, dark=(12, 20), light=(1,))
    assert moves(position, 2) == {(12, 14), (20, 22)}
    position = pos(variant, dark=(12, 24), light=(1,))
    assert moves(position, 3) == {(12, 15)}
    assert "LK.backward" in broken(position, 3, 24, 21)


@BOTH
def test_LK_backward_when_nothing_goes_forward(variant: str) -> None:
    """A lone piece on 24 with a 3 cannot pass 26, so it steps back to 21."""
    assert moves(pos(variant, dark=(24,), light=(1,)), 3) == {(24, 21)}


@BOTH
def test_LK_backward_allowed_from_26(variant: str) -> None:
    """26 is within 1-26: when it cannot go forward it steps back."""
    assert moves(pos(variant, dark=(26, 28), light=(1,)), 2) == {(26, 24)}


@BOTH
@pytest.mark.parametrize("square, throw", [(28, 1), (28, 2), (29, 1), (29, 3)])
def test_LK_backward_never_from_28_to_30(variant: str, square: int, throw: int) -> None:
    """A piece on 28 or 29 that cannot leave does not step back: no move."""
    position = pos(variant, dark=(square,), light=(1,))
    assert position.legal_moves(throw) == [] and position.options(throw).stuck == "pass"
    assert "LK.backward" in broken(position, throw, square, square - throw)


# -- LK.26 ---------------------------------------------------------------------------------


@BOTH
def test_LK_26_must_be_hit_exactly(variant: str) -> None:
    """From 1-25 a piece may land on 26 but never beyond it."""
    assert (24, 26) in moves(pos(variant, dark=(24,), light=(1,)), 2)
    assert (21, 26) in moves(pos(variant, dark=(21,), light=(1,)), 5)
    position = pos(variant, dark=(24, 12), light=(1,))
    assert (24, 27) not in moves(position, 3) and "LK.26" in broken(position, 3, 24, 27)
    position = pos(variant, dark=(25, 12), light=(1,))
    assert not {m for m in moves(position, 5) if m[0] == 25} and "LK.26" in broken(position, 5, 25, 30)


@BOTH
@pytest.mark.parametrize("throw, end", [(1, 27), (2, 28), (3, 29), (4, 30), (5, OFF)])
def test_LK_26_from_26_the_throw_decides(variant: str, throw: int, end: int) -> None:
    """From 26: 1-4 go to 27-30, 5 bears off."""
    assert moves(pos(variant, dark=(26,), light=(1,)), throw) == {(26, end)}


@BOTH
def test_LK_26_to_27_only_if_empty(variant: str) -> None:
    """With an opponent on 27 a 1 from 26 is impossible; the piece steps back instead."""
    position = pos(variant, dark=(26,), light=(27,))
    assert moves(position, 1) == {(26, 25)}
    assert "LK.26" in broken(position, 1, 26, 27)


@BOTH
@pytest.mark.parametrize("throw, target", [(2, 28), (3, 29), (4, 30)])
def test_LK_26_no_capture_on_28_to_30_even_with_27_empty(variant: str, throw: int, target: int) -> None:
    """As in Ludii 1.3.13, a piece from 26 never takes an opponent on 28-30."""
    position = pos(variant, dark=(26, 12), light=(target,))
    assert (26, target) not in moves(position, throw)
    assert "LK.26" in broken(position, throw, 26, target)


@BOTH
def test_LK_26_not_onto_your_own_piece(variant: str) -> None:
    """From 26 a piece may not land on its own piece on 28."""
    assert moves(pos(variant, dark=(26, 28), light=(1,)), 2) == {(26, 24)}


# -- LK.27 ---------------------------------------------------------------------------------


@BOTH
def test_LK_27_a_4_bears_off_without_an_extra_throw(variant: str) -> None:
    """With a 4 the piece on 27 goes off and the other player throws."""
    position = pos(variant, dark=(27, 12), light=(1,))
    assert moves(position, 4) == {(27, OFF)}
    move = play(position, 4, 27, OFF)
    assert format_board(move.after) == text(dark=(12,), light=(1,)) and move.next_turn == LIGHT


@BOTH
@pytest.mark.parametrize("throw", [1, 2, 3, 5])
def test_LK_27_other_throws_to_15_or_pass(variant: str, throw: int) -> None:
    """Without a 4: move the piece to the empty 15 or pass; either way the other player throws."""
    position = pos(variant, dark=(27, 12), light=(1,))
    options = position.options(throw)
    assert {(m.from_square, m.to_square) for m in options.moves} == {(27, 15)}
    assert options.may_pass
    assert options.pass_move.after == position.board and options.pass_move.next_turn == LIGHT
    move = play(position, throw, 27, 15)
    assert format_board(move.after) == text(dark=(12, 15), light=(1,))
    assert move.next_turn == LIGHT and move.mark == 15


@BOTH
@pytest.mark.parametrize("throw", [1, 2, 5])
@pytest.mark.parametrize("dark, light", [((27, 12), (15,)), ((27, 12, 15), (1,))])
def test_LK_27_15_taken_means_a_pass(variant: str, throw: int, dark: tuple[int, ...], light: tuple[int, ...]) -> None:
    """With 15 occupied the water piece cannot move: the turn passes, even with a 1 or 5."""
    options = pos(variant, dark=dark, light=light).options(throw)
    assert options.moves == [] and options.stuck == "pass" and options.pass_move.next_turn == LIGHT


@BOTH
def test_LK_27_is_the_only_piece_its_owner_can_use(variant: str) -> None:
    """While a piece is on 27, the owner's other pieces stay put."""
    position = pos(variant, dark=(27, 12), light=(1,))
    for throw in (1, 2, 3, 4, 5):
        assert all(start == 27 for start, _ in moves(position, throw))
    assert "LK.27" in broken(position, 1, 12, 13)
    assert "LK.27" in broken(position, 4, 12, 16)


# -- LK.15 ---------------------------------------------------------------------------------


@BOTH
def test_LK_15_the_piece_out_of_the_water_must_move_without_an_extra_throw(variant: str) -> None:
    """The piece marked on 15 is the only one that may move, and even a 4 ends the turn."""
    position = pos(variant, dark=(15, 3), light=(1,), mark=15)
    assert moves(position, 4) == {(15, 19)}
    move = play(position, 4, 15, 19)
    assert move.next_turn == LIGHT and move.mark == 0
    assert "LK.15" in broken(position, 4, 3, 7)


@BOTH
def test_LK_15_backward_when_forward_is_guarded(variant: str) -> None:
    """Forward onto the pair 17-18 is refused, so the piece goes back and takes the lone 13."""
    position = pos(variant, dark=(15, 3), light=(13, 17, 18), mark=15)
    assert moves(position, 2) == {(15, 13)}
    assert after(position, 2, 15, 13) == text(dark=(3, 13), light=(15, 17, 18))


@BOTH
def test_LK_15_pairs_protect_both_ways(variant: str) -> None:
    """Guarded squares ahead and behind: the marked piece cannot move and nothing else may."""
    position = pos(variant, dark=(15, 3), light=(12, 13, 17, 18), mark=15)
    assert position.legal_moves(2) == []


@BOTH
def test_LK_15_applies_at_the_owners_next_turn(variant: str) -> None:
    """27-15 with a 2, light plays, then dark must move the piece from 15; after that dark is free again."""
    position = pos(variant, dark=(27, 12), light=(1,))
    position.push(play(position, 2, 27, 15))
    assert position.turn is LIGHT
    position.push(play(position, 3, 1, 4))
    assert position.turn is DARK
    assert moves(position, 2) == {(15, 17)}
    position.push(play(position, 2, 15, 17))
    position.push(play(position, 3, 4, 7))
    assert moves(position, 2) == {(12, 14), (17, 19)}


# -- LK.exit -------------------------------------------------------------------------------


@BOTH
def test_LK_exit_28_only_with_3(variant: str) -> None:
    """A piece on 28 goes off with exactly 3 and otherwise does not move."""
    position = pos(variant, dark=(28, 12), light=(1,))
    assert (28, OFF) in moves(position, 3)
    for throw in (1, 2, 4, 5):
        assert not {m for m in moves(position, throw) if m[0] == 28}
    assert "LK.exit" in broken(position, 2, 28, 30)


@BOTH
def test_LK_exit_29_only_with_2(variant: str) -> None:
    """A piece on 29 goes off with exactly 2 and otherwise does not move."""
    position = pos(variant, dark=(29, 12), light=(1,))
    assert (29, OFF) in moves(position, 2)
    for throw in (1, 3, 4, 5):
        assert not {m for m in moves(position, throw) if m[0] == 29}
    assert "LK.exit" in broken(position, 3, 29, OFF)


@BOTH
@pytest.mark.parametrize("throw", [1, 2, 3, 4, 5])
def test_LK_exit_30_with_any_throw(variant: str, throw: int) -> None:
    """A piece on 30 goes off whatever is thrown."""
    position = pos(variant, dark=(30, 12), light=(1,))
    assert (30, OFF) in moves(position, throw)
    assert after(position, throw, 30, OFF) == text(dark=(12,), light=(1,))


# -- LK.win --------------------------------------------------------------------------------


@pytest.mark.parametrize("variant, pieces", [(V7, 7), (V5, 5)])
def test_LK_win_when_the_last_piece_is_removed(variant: str, pieces: int) -> None:
    """Removing the last piece wins and ends the game."""
    position = pos(variant, dark=(30,), light=(1, 3))
    move = play(position, 2, 30, OFF)
    assert move.winner == DARK and move.next_turn == 0
    position.push(move)
    assert position.is_game_over and position.winner is DARK and position.turn is None
    assert position.off(DARK) == pieces and position.legal_moves(1) == []


@BOTH
def test_LK_win_light_can_win_too_and_not_before_the_last_piece(variant: str) -> None:
    """Light removing its last piece wins; a piece off with others left is no win."""
    assert play(pos(variant, dark=(12,), light=(28,), turn=LIGHT), 3, 28, OFF).winner == LIGHT
    move = play(pos(variant, dark=(30, 12), light=(1,)), 2, 30, OFF)
    assert move.winner == 0 and move.next_turn == LIGHT
