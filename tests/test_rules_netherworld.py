"""``netherworld`` (RULES.md section 5, rule IDs N.*): every rule has a test named after it.

Positions are written as the squares each side holds; the helpers turn them into the
30-character board text. The tests follow RULES.md plus the product decisions on the
start ritual, N.water, N.backward and N.last4.
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

V = "netherworld"


def pos(dark: tuple[int, ...] = (), light: tuple[int, ...] = (), turn: Player = DARK) -> Position:
    return position(V, dark, light, turn)


# -- N.setup, N.throw ----------------------------------------------------------------------


def test_N_setup_five_each_alternating_on_1_to_10() -> None:
    """A new game shows light on 1, 3, 5, 7, 9 and dark on 2, 4, 6, 8, 10, dark to move."""
    start = Position.start(V)
    assert start.board_text == "LDLDLDLDLD" + "." * 20
    assert start.turn is DARK and find_variant(V).pieces == 5


def test_N_setup_start_ritual_as_in_houses() -> None:
    """The first to throw a 1 plays dark; that 1 is not played, dark throws afresh."""
    game = Game(V)
    game.throw(2)
    game.throw(1)
    assert game.started and game.dark_seat == 1
    assert game.current_throw is None and game.position == Position.start(V) and game.position.turn is DARK
    with pytest.raises(GameError):
        game.play(10, 11)
    game.throw(3)
    game.play(10, 13)
    assert game.position.turn is LIGHT


def test_N_throw_no_light_side_counts_5() -> None:
    """The throws are 1-4 and 5 (four dark sides); there is no 6, and a 5 moves five squares."""
    assert find_variant(V).throw_values == {1, 2, 3, 4, 5}
    position = pos(dark=(10,), light=(1,))
    assert moves(position, 5) == {(10, 15)}
    with pytest.raises(ValueError):
        position.options(6)


# -- N.again -------------------------------------------------------------------------------


@pytest.mark.parametrize("throw, again", [(1, True), (2, False), (3, False), (4, True), (5, True)])
def test_N_again_after_1_4_5_but_not_2_3(throw: int, again: bool) -> None:
    """1, 4 and 5 give an extra turn; 2 and 3 hand the sticks over."""
    move = play(pos(dark=(12,), light=(1,)), throw, 12, 12 + throw)
    assert move.next_turn == (DARK if again else LIGHT)


def test_N_again_also_on_the_last_squares() -> None:
    """Unlike houses, a 4 or 5 used from 26 or 30 still earns the extra turn."""
    assert play(pos(dark=(26, 12), light=(1,)), 4, 26, 30).next_turn == DARK
    assert play(pos(dark=(26, 12), light=(1,)), 5, 26, OFF).next_turn == DARK
    assert play(pos(dark=(30, 12), light=(1,)), 1, 30, OFF).next_turn == DARK


# -- N.capture, N.guard --------------------------------------------------------------------


def test_N_capture_a_lone_opponent_swaps() -> None:
    """Landing on a lone opponent sends it back to the capturer's square."""
    move = play(pos(dark=(10,), light=(12,)), 2, 10, 12)
    assert format_board(move.after) == text(dark=(12,), light=(10,)) and move.next_turn == LIGHT


def test_N_capture_never_on_your_own_piece() -> None:
    """A player may not land on their own piece."""
    position = pos(dark=(10, 12, 20), light=(1,))
    assert (10, 12) not in moves(position, 2) and "N.capture" in broken(position, 2, 10, 12)


def test_N_guard_a_pair_cannot_be_attacked() -> None:
    """Both pieces of a side-by-side pair are safe."""
    position = pos(dark=(10, 20), light=(12, 13))
    assert (10, 12) not in moves(position, 2) and "N.guard" in broken(position, 2, 10, 12)
    assert (10, 13) not in moves(position, 3) and "N.guard" in broken(position, 3, 10, 13)


def test_N_guard_every_piece_of_a_run_of_three_is_safe() -> None:
    """Even the middle of a run of three is guarded (unlike houses)."""
    position = pos(dark=(12, 20), light=(14, 15, 16))
    for throw, target in ((2, 14), (3, 15), (4, 16)):
        assert (12, target) not in moves(position, throw) and "N.guard" in broken(position, throw, 12, target)


@pytest.mark.parametrize("neighbour", [25, 27])
def test_N_guard_a_piece_on_26_is_guarded_from_25_or_27(neighbour: int) -> None:
    """RULES.md's reading: the unguarded last four squares are 27-30; a piece on 26 is guarded by its colour on 25 or 27."""
    position = pos(dark=(23,), light=(26, neighbour))
    assert (23, 26) not in moves(position, 3) and "N.guard" in broken(position, 3, 23, 26)


def test_N_guard_a_lone_piece_on_26_may_be_taken() -> None:
    assert (23, 26) in moves(pos(dark=(23,), light=(26, 28)), 3)


def test_N_guard_nothing_stops_a_piece_jumping() -> None:
    """A piece may jump any number of pieces, runs of three of either colour included."""
    assert (10, 14) in moves(pos(dark=(10,), light=(11, 12, 13)), 4)
    assert (10, 15) in moves(pos(dark=(10, 11, 12), light=(13, 14)), 5)


# -- N.backward ----------------------------------------------------------------------------


def test_N_backward_not_while_a_piece_can_move_forward() -> None:
    """5-9 is possible, so 20 may not step back from the guarded 24."""
    position = pos(dark=(5, 20), light=(24, 25))
    assert moves(position, 4) == {(5, 9)}
    assert "N.backward" in broken(position, 4, 20, 16)


def test_N_backward_when_nothing_goes_forward_and_the_turn_ends() -> None:
    """With no forward move a piece steps back, and even a 4 then ends the turn."""
    position = pos(dark=(20,), light=(24, 25))
    assert moves(position, 4) == {(20, 16)}
    assert play(position, 4, 20, 16).next_turn == LIGHT


def test_N_backward_captures_a_lone_piece_but_not_a_guarded_one() -> None:
    """Stepping back onto a lone opponent swaps; onto a pair it is impossible and the turn is lost."""
    assert after(pos(dark=(20,), light=(16, 24, 25)), 4, 20, 16) == text(dark=(16,), light=(20, 24, 25))
    options = pos(dark=(20,), light=(15, 16, 24, 25)).options(4)
    assert options.moves == [] and options.stuck == "pass" and options.pass_move.next_turn == LIGHT


def test_N_backward_allowed_from_26() -> None:
    """26 is below the last four: when it cannot go forward it steps back."""
    assert moves(pos(dark=(26, 28), light=(1,)), 2) == {(26, 24)}


@pytest.mark.parametrize("square, throw", [(28, 1), (28, 5), (29, 1), (29, 4)])
def test_N_backward_never_from_27_to_30_and_no_move_loses_the_turn(square: int, throw: int) -> None:
    """A piece on 28 or 29 that cannot leave does not step back: the turn is lost, even with 1, 4 or 5."""
    position = pos(dark=(square,), light=(1,))
    options = position.options(throw)
    assert options.moves == [] and options.stuck == "pass"
    assert options.pass_move.next_turn == LIGHT and options.pass_move.after == position.board


# -- N.good --------------------------------------------------------------------------------


def test_N_good_26_must_be_hit_exactly() -> None:
    """A piece may land on 26 but no move may pass it."""
    assert (24, 26) in moves(pos(dark=(24,), light=(1,)), 2)
    assert (21, 26) in moves(pos(dark=(21,), light=(1,)), 5)
    position = pos(dark=(24, 12), light=(1,))
    assert (24, 27) not in moves(position, 3) and "N.good" in broken(position, 3, 24, 27)
    position = pos(dark=(22, 12), light=(1,))
    assert (22, 27) not in moves(position, 5) and "N.good" in broken(position, 5, 22, 27)


def test_N_good_a_piece_that_would_pass_26_steps_back_instead() -> None:
    """A lone piece on 24 with a 3 cannot go forward, so it moves back to 21."""
    assert moves(pos(dark=(24,), light=(1,)), 3) == {(24, 21)}


@pytest.mark.parametrize("throw, end", [(1, 27), (2, 28), (3, 29), (4, 30), (5, OFF)])
def test_N_good_from_26_the_throw_decides(throw: int, end: int) -> None:
    """From 26: 1-4 go to 27-30, 5 bears off."""
    assert moves(pos(dark=(26,), light=(1,)), throw) == {(26, end)}


# -- N.last4 -------------------------------------------------------------------------------


def test_N_last4_an_opponent_hit_on_28_goes_to_an_empty_27() -> None:
    """Landing on an opponent on 28 sends it into the water on 27."""
    assert after(pos(dark=(26,), light=(28,)), 2, 26, 28) == text(dark=(28,), light=(27,))
    assert after(pos(dark=(26,), light=(30,)), 4, 26, 30) == text(dark=(30,), light=(27,))


def test_N_last4_no_guarding_on_27_to_30() -> None:
    """A pair on 28-29 does not protect: 28 is hit all the same."""
    assert after(pos(dark=(26,), light=(28, 29)), 2, 26, 28) == text(dark=(28,), light=(27, 29))


def test_N_last4_swaps_when_27_is_taken() -> None:
    """With 27 occupied, the hit piece on 28 swaps to 26."""
    assert after(pos(dark=(26,), light=(27, 28)), 2, 26, 28) == text(dark=(28,), light=(26, 27))


def test_N_last4_hitting_the_piece_on_27_swaps() -> None:
    """A piece on 27 is not guarded by its neighbour on 28: it swaps to 26."""
    move = play(pos(dark=(26,), light=(27, 28)), 1, 26, 27)
    assert format_board(move.after) == text(dark=(27,), light=(26, 28))


def test_N_last4_never_on_your_own_piece() -> None:
    """A piece from 26 may not land on its own piece on 28."""
    assert (26, 28) not in moves(pos(dark=(26, 28), light=(1,)), 2)


# -- N.water -------------------------------------------------------------------------------


def test_N_water_landing_on_27_ends_the_turn() -> None:
    """Reaching 27 with a 1 gives no extra turn."""
    move = play(pos(dark=(26,), light=(1,)), 1, 26, 27)
    assert move.next_turn == LIGHT


def test_N_water_a_4_bears_off_and_throws_again() -> None:
    """With a 4 the piece on 27 goes off and the owner throws again, or it may go back to 15."""
    position = pos(dark=(27, 12), light=(1,))
    assert moves(position, 4) == {(27, OFF), (27, 15)}
    move = play(position, 4, 27, OFF)
    assert format_board(move.after) == text(dark=(12,), light=(1,)) and move.next_turn == DARK
    assert play(position, 4, 27, 15).next_turn == LIGHT


@pytest.mark.parametrize("throw", [1, 2, 3, 5])
def test_N_water_any_other_throw_back_to_15_or_lose_the_turn(throw: int) -> None:
    """Without a 4: return to 15 (turn over) or stay and lose the turn."""
    position = pos(dark=(27, 12), light=(1,))
    options = position.options(throw)
    assert {(m.from_square, m.to_square) for m in options.moves} == {(27, 15)}
    assert options.may_pass
    assert options.pass_move.after == position.board and options.pass_move.next_turn == LIGHT
    move = play(position, throw, 27, 15)
    assert format_board(move.after) == text(dark=(12, 15), light=(1,)) and move.next_turn == LIGHT


def test_N_water_the_whole_turn_is_about_the_piece_on_27() -> None:
    """While a piece is on 27, the owner's other pieces may not use the throw."""
    position = pos(dark=(27, 12), light=(1,))
    assert all(start == 27 for start, _ in moves(position, 4))
    assert "N.water" in broken(position, 2, 12, 14)
    assert "N.water" in broken(position, 4, 12, 16)


def test_N_water_15_taken_the_first_empty_square_behind_it() -> None:
    """Returning from the water with 15 and 14 taken lands on 13."""
    position = pos(dark=(27, 14), light=(15,))
    assert moves(position, 2) == {(27, 13)}
    assert after(position, 2, 27, 13) == text(dark=(13, 14), light=(15,))


# -- N.judges3, N.judges2, N.horus ---------------------------------------------------------


def test_N_judges3_28_leaves_only_with_exactly_3() -> None:
    """A piece on 28 goes off with a 3 and otherwise cannot move at all."""
    position = pos(dark=(28, 12), light=(1,))
    assert (28, OFF) in moves(position, 3)
    for throw in (1, 2, 4, 5):
        assert not {m for m in moves(position, throw) if m[0] == 28}
    assert "N.judges3" in broken(position, 1, 28, 29)
    assert "N.judges3" in broken(position, 2, 28, OFF)


def test_N_judges2_29_leaves_only_with_exactly_2() -> None:
    """A piece on 29 goes off with a 2 and otherwise cannot move at all."""
    position = pos(dark=(29, 12), light=(1,))
    assert (29, OFF) in moves(position, 2)
    for throw in (1, 3, 4, 5):
        assert not {m for m in moves(position, throw) if m[0] == 29}
    assert "N.judges2" in broken(position, 3, 29, OFF)


@pytest.mark.parametrize("throw", [1, 2, 3, 4, 5])
def test_N_horus_30_leaves_with_any_throw(throw: int) -> None:
    """A piece on 30 goes off whatever is thrown."""
    position = pos(dark=(30, 12), light=(1,))
    assert (30, OFF) in moves(position, throw)
    assert format_board(play(position, throw, 30, OFF).after) == text(dark=(12,), light=(1,))


# -- N.win ---------------------------------------------------------------------------------


def test_N_win_when_the_fifth_piece_goes_off() -> None:
    """Bearing off the last piece wins and ends the game."""
    position = pos(dark=(30,), light=(1, 3))
    move = play(position, 2, 30, OFF)
    assert move.winner == DARK and move.next_turn == 0
    position.push(move)
    assert position.is_game_over and position.winner is DARK and position.turn is None
    assert position.off(DARK) == 5 and position.legal_moves(1) == []


def test_N_win_light_can_win_too_and_not_before_the_last_piece() -> None:
    """Light bearing off its last piece wins; a piece off with others left is no win."""
    assert play(pos(dark=(12,), light=(29,), turn=LIGHT), 2, 29, OFF).winner == LIGHT
    move = play(pos(dark=(30, 12), light=(1,)), 2, 30, OFF)
    assert move.winner == 0 and move.next_turn == LIGHT
