"""``houses`` (RULES.md section 4, rule IDs H.*): every rule has a test named after it.

Positions are written as the squares each side holds; the helpers turn them into the
30-character board text. The tests follow RULES.md plus the product decisions on
H.start, H.overshoot, H.water and H.again.
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

V = "houses"


def pos(dark: tuple[int, ...] = (), light: tuple[int, ...] = (), turn: Player = DARK) -> Position:
    return position(V, dark, light, turn)


# -- H.setup, H.throw, H.start ------------------------------------------------------------


def test_H_setup_five_each_alternating_on_row_1() -> None:
    """A new game shows light on 1, 3, 5, 7, 9 and dark on 2, 4, 6, 8, 10, dark to move."""
    start = Position.start(V)
    assert start.board_text == "LDLDLDLDLD" + "." * 20
    assert start.turn is DARK and start.off(DARK) == 0 and start.off(LIGHT) == 0
    assert find_variant(V).pieces == 5


def test_H_throw_no_light_side_counts_5() -> None:
    """The throws are 1-4 and 5 (four dark sides); there is no 6, and a 5 moves five squares."""
    assert find_variant(V).throw_values == {1, 2, 3, 4, 5}
    position = pos(dark=(10,), light=(1,))
    assert moves(position, 5) == {(10, 15)}
    with pytest.raises(ValueError):
        position.options(6)


def test_H_start_the_first_1_makes_dark_and_is_not_played() -> None:
    """Whoever throws the first 1 plays dark, but that 1 is not moved: dark throws afresh."""
    game = Game(V)
    game.throw(3)
    game.throw(2)
    assert not game.started
    game.throw(1)  # the third throw of the ritual: seat 0
    assert game.started and game.dark_seat == 0
    assert game.current_throw is None and game.options.moves == []
    assert game.position == Position.start(V) and game.position.turn is DARK
    with pytest.raises(GameError):
        game.play(10, 11)
    game.throw(4)
    assert (10, 14) in {(m.from_square, m.to_square) for m in game.options.moves}
    game.play(10, 14)
    assert game.position.turn is DARK  # a normal 4: dark throws again


def test_H_start_the_second_seat_can_win_the_ritual() -> None:
    """If the second player throws the first 1, the second player plays dark."""
    game = Game(V)
    game.throw(5)
    game.throw(1)
    assert game.dark_seat == 1 and game.current_throw is None and game.position.turn is DARK


# -- H.again -------------------------------------------------------------------------------


@pytest.mark.parametrize("throw, again", [(1, True), (2, False), (3, False), (4, True), (5, True)])
def test_H_again_after_1_4_5_but_not_2_3(throw: int, again: bool) -> None:
    """On the open track 1, 4 and 5 let the mover throw again; 2 and 3 hand the sticks over."""
    move = play(pos(dark=(12,), light=(1,)), throw, 12, 12 + throw)
    assert move.next_turn == (DARK if again else LIGHT)


def test_H_again_also_after_a_capture_with_4() -> None:
    """Capturing with a 4 still earns another throw."""
    move = play(pos(dark=(10,), light=(14,)), 4, 10, 14)
    assert format_board(move.after) == text(dark=(14,), light=(10,)) and move.next_turn == DARK


@pytest.mark.parametrize(
    "dark, throw, start, end",
    [
        ((22, 12), 4, 22, 26),  # entering 26 with a 4
        ((25, 12), 1, 25, 26),  # entering 26 with a 1
        ((23, 12), 5, 23, 26),  # a 5 that stops on 26 with points left
        ((26, 12), 1, 26, 27),
        ((26, 12), 4, 26, 30),
        ((26, 12), 5, 26, OFF),
        ((30, 12), 1, 30, OFF),
        ((27, 12), 4, 27, OFF),
    ],
)
def test_H_again_never_for_a_throw_used_in_or_entering_the_houses(
    dark: tuple[int, ...], throw: int, start: int, end: int
) -> None:
    """A 1, 4 or 5 spent by a piece in or entering squares 26-30 ends the turn."""
    assert play(pos(dark=dark, light=(1,)), throw, start, end).next_turn == LIGHT


# -- H.jump --------------------------------------------------------------------------------


def test_H_jump_over_one_single_piece_of_either_colour() -> None:
    """A piece may hop one lone piece, its own or the opponent's, and several lone pieces apart."""
    assert (10, 13) in moves(pos(dark=(10,), light=(11,)), 3)
    assert (10, 13) in moves(pos(dark=(10, 11), light=(1,)), 3)
    assert (10, 14) in moves(pos(dark=(10,), light=(11, 13)), 4)


@pytest.mark.parametrize(
    "dark, light",
    [
        ((10, 20), (11, 12)),  # an opponent pair
        ((10, 11, 20), (12,)),  # a mixed pair
        ((10, 11, 12, 20), (1,)),  # a pair of the mover's own pieces
    ],
)
def test_H_jump_never_past_two_side_by_side_of_any_colour(dark: tuple[int, ...], light: tuple[int, ...]) -> None:
    """10-13 would pass 11 and 12 side by side: not allowed, whoever owns them."""
    position = pos(dark=dark, light=light)
    assert (10, 13) not in moves(position, 3)
    assert "H.jump" in broken(position, 3, 10, 13)


def test_H_jump_also_on_the_way_to_26() -> None:
    """A 5 from 22 stops on 26, but not by passing the pair on 24-25."""
    position = pos(dark=(22, 12), light=(24, 25))
    assert (22, 26) not in moves(position, 5) and "H.jump" in broken(position, 5, 22, 26)


# -- H.capture -----------------------------------------------------------------------------


def test_H_capture_a_lone_opponent_swaps() -> None:
    """Landing on a lone opponent sends it back to the square the capturer came from."""
    move = play(pos(dark=(10,), light=(12,)), 2, 10, 12)
    assert format_board(move.after) == text(dark=(12,), light=(10,)) and move.next_turn == LIGHT


def test_H_capture_a_pair_guards_both_pieces() -> None:
    """Neither piece of a side-by-side pair may be taken."""
    position = pos(dark=(10, 20), light=(12, 13))
    assert (10, 12) not in moves(position, 2) and "H.capture" in broken(position, 2, 10, 12)
    assert (10, 13) not in moves(position, 3) and "H.capture" in broken(position, 3, 10, 13)


def test_H_capture_second_from_rear_of_a_run_of_three() -> None:
    """In a run of three the second piece from the rear falls, splitting the run."""
    assert after(pos(dark=(12, 20), light=(14, 15, 16)), 3, 12, 15) == text(dark=(15, 20), light=(12, 14, 16))
    assert after(pos(dark=(12, 20), light=(14, 15, 16, 17)), 3, 12, 15) == text(dark=(15, 20), light=(12, 14, 16, 17))


def test_H_capture_rear_of_a_run_of_three_is_guarded() -> None:
    """The rear piece of a run of three stays guarded."""
    position = pos(dark=(11, 20), light=(14, 15, 16))
    assert (11, 14) not in moves(position, 3) and "H.capture" in broken(position, 3, 11, 14)


def test_H_capture_never_on_your_own_piece() -> None:
    """A piece may not land on a piece of its own colour."""
    position = pos(dark=(10, 12, 20), light=(1,))
    assert (10, 12) not in moves(position, 2) and broken(position, 2, 10, 12)


# -- H.overshoot ---------------------------------------------------------------------------


def test_H_overshoot_turns_on_the_farthest_empty_square_and_walks_back() -> None:
    """10 cannot pass the pair on 12-13 with a 5: it turns on 11 and walks the other 4 back to 7."""
    position = pos(dark=(10,), light=(12, 13))
    assert moves(position, 5) == {(10, 7)}
    move = play(position, 5, 10, 7)
    assert format_board(move.after) == text(dark=(7,), light=(12, 13))
    assert move.next_turn == DARK  # an overshoot with a 5 on the open track throws again


def test_H_overshoot_one_short_may_stop_there() -> None:
    """A 3 from 10 onto the guarded 13: stop on 12 (one short) or turn there and end on 11."""
    assert moves(pos(dark=(10,), light=(13, 14)), 3) == {(10, 12), (10, 11)}


def test_H_overshoot_only_when_no_piece_can_use_the_full_throw() -> None:
    """With 20-23 available, 10 may not fall short of the guarded 13."""
    position = pos(dark=(10, 20), light=(13, 14))
    assert moves(position, 3) == {(20, 23)}
    assert "H.overshoot" in broken(position, 3, 10, 12)
    assert "H.overshoot" in broken(position, 3, 10, 11)


def test_H_overshoot_the_turning_square_must_be_empty() -> None:
    """10 with a 5 onto the guarded 15: 14 is taken, so it turns on 13 and walks back to 11."""
    assert moves(pos(dark=(10,), light=(12, 14, 15)), 5) == {(10, 11)}


def test_H_overshoot_may_capture_on_the_way_back() -> None:
    """Turning on 14 it may stop there (one short) or step back onto the lone piece on 13 and take it."""
    position = pos(dark=(10,), light=(13, 15, 16))
    assert moves(position, 5) == {(10, 14), (10, 13)}
    assert after(position, 5, 10, 13) == text(dark=(13,), light=(10, 15, 16))


def test_H_overshoot_may_not_end_on_its_start_square() -> None:
    """A 4 from 10 can only turn on 12 and walk back to 10 itself: that is no move, the turn is skipped."""
    options = pos(dark=(10,), light=(13, 14)).options(4)
    assert options.moves == [] and options.stuck == "pass"
    assert options.pass_move.next_turn == LIGHT


def test_H_overshoot_obeys_jump_on_both_legs() -> None:
    """The turn is before the pair on 12-13, and the walk back may not pass the pair on 8-9."""
    assert (10, 14) not in moves(pos(dark=(10,), light=(12, 13)), 5)
    assert moves(pos(dark=(10,), light=(8, 12, 13)), 5) == {(10, 7)}
    position = pos(dark=(10,), light=(8, 9, 12, 13))
    options = position.options(5)
    assert options.moves == [] and options.stuck == "pass" and options.pass_move.next_turn == LIGHT
    assert "H.jump" in broken(position, 5, 10, 7)


def test_H_overshoot_never_turns_beyond_26() -> None:
    """With 26 taken, a 5 from 23 may not turn on 27: it turns on 25 and walks back to 22."""
    found = moves(pos(dark=(23,), light=(26,)), 5)
    assert (23, 22) in found
    assert found <= {(23, 22), (23, 25)}


@pytest.mark.parametrize("start, throw", [(23, 5), (24, 3), (24, 4), (24, 5), (22, 5)])
def test_H_overshoot_past_a_taken_26_may_stop_on_25(start: int, throw: int) -> None:
    """A throw carrying a piece past 26 ends on 26 (H.beauty); with 26 taken that is the full
    throw's target, so the piece may stop one short, on 25, as well as walk back."""
    found = moves(pos(dark=(start,), light=(26,)), throw)
    assert (start, 25) in found
    back = 25 - (throw - (25 - start))
    assert found == {(start, 25)} | ({(start, back)} if 1 <= back != start else set())


def test_H_overshoot_one_short_of_26_needs_25_free() -> None:
    """With 25 taken too, no stop one short: only the walk back from the farthest empty square."""
    assert (24, 25) not in moves(pos(dark=(24,), light=(25, 26)), 4)


# -- H.beauty ------------------------------------------------------------------------------


@pytest.mark.parametrize("start, throw", [(23, 5), (24, 4), (24, 5), (25, 5)])
def test_H_beauty_every_piece_stops_on_26_with_points_left(start: int, throw: int) -> None:
    """A throw that would carry a piece past 26 leaves it on 26."""
    position = pos(dark=(start,), light=(1,))
    assert moves(position, throw) == {(start, 26)}


def test_H_beauty_explains_why_it_cannot_go_past_26() -> None:
    """Trying 23-28 with a 5 cites the House of Beauty."""
    assert "H.beauty" in broken(pos(dark=(23, 12), light=(1,)), 5, 23, 28)


@pytest.mark.parametrize("throw, end", [(1, 27), (2, 28), (3, 29), (4, 30), (5, OFF)])
def test_H_beauty_from_26_the_throw_decides(throw: int, end: int) -> None:
    """From 26: 5 bears off, 1-4 go to 26 + throw."""
    assert moves(pos(dark=(26,), light=(1,)), throw) == {(26, end)}


def test_H_beauty_occupied_target_sends_the_piece_to_27() -> None:
    """From 26 with a 2 onto an occupied 28 (either colour) the piece goes to 27 instead, capturing nothing."""
    assert after(pos(dark=(26,), light=(28,)), 2, 26, 27) == text(dark=(27,), light=(28,))
    assert moves(pos(dark=(26, 29), light=(1,)), 3) == {(26, 27)}
    assert "H.beauty" in broken(pos(dark=(26,), light=(28,)), 2, 26, 28)


def test_H_beauty_occupied_target_and_27_sends_the_piece_to_15() -> None:
    """Target and 27 both taken: the piece goes to 15 (House of Rebirth)."""
    assert after(pos(dark=(26,), light=(27, 28)), 2, 26, 15) == text(dark=(15,), light=(27, 28))
    assert after(pos(dark=(26,), light=(27,)), 1, 26, 15) == text(dark=(15,), light=(27,))


# -- H.water -------------------------------------------------------------------------------


def test_H_water_a_4_bears_the_piece_off() -> None:
    """On 27 a 4 takes the piece off, with no extra throw."""
    position = pos(dark=(27, 12), light=(1,))
    assert moves(position, 4) == {(27, OFF)}
    move = play(position, 4, 27, OFF)
    assert format_board(move.after) == text(dark=(12,), light=(1,)) and move.next_turn == LIGHT


@pytest.mark.parametrize("throw", [1, 2, 3])
def test_H_water_1_2_3_send_the_piece_to_15(throw: int) -> None:
    """On 27 a 1, 2 or 3 sends the piece back to 15, turn over."""
    position = pos(dark=(27, 12), light=(1,))
    assert moves(position, throw) == {(27, 15)}
    move = play(position, throw, 27, 15)
    assert format_board(move.after) == text(dark=(12, 15), light=(1,)) and move.next_turn == LIGHT


def test_H_water_a_5_leaves_the_piece_there_and_the_turn_passes() -> None:
    """On 27 a 5 does nothing: the piece stays and the other player throws."""
    position = pos(dark=(27, 12), light=(1,))
    options = position.options(5)
    assert options.moves == [] and options.stuck == "pass"
    assert options.pass_move.after == position.board and options.pass_move.next_turn == LIGHT


def test_H_water_the_throw_belongs_to_the_piece_on_27() -> None:
    """While a piece is on 27, no other piece may use the throw."""
    position = pos(dark=(27, 12), light=(1,))
    assert (12, 14) not in moves(position, 2) and "H.water" in broken(position, 2, 12, 14)
    assert "H.water" in broken(position, 5, 12, 17)


# -- H.truths, H.isis, H.ra -----------------------------------------------------------------


def test_H_truths_28_leaves_only_with_a_3() -> None:
    """A piece on 28 goes off with a 3 and stays with anything else."""
    position = pos(dark=(28, 12), light=(1,))
    assert (28, OFF) in moves(position, 3)
    for throw in (1, 2, 4, 5):
        assert not {m for m in moves(position, throw) if m[0] == 28}
    assert "H.truths" in broken(position, 2, 28, OFF)


def test_H_isis_29_leaves_only_with_a_2() -> None:
    """A piece on 29 goes off with a 2 and stays with anything else."""
    position = pos(dark=(29, 12), light=(1,))
    assert (29, OFF) in moves(position, 2)
    for throw in (1, 3, 4, 5):
        assert not {m for m in moves(position, throw) if m[0] == 29}
    assert "H.isis" in broken(position, 3, 29, OFF)


def test_H_ra_30_leaves_only_with_a_1() -> None:
    """A piece on 30 goes off with a 1 and stays with anything else."""
    position = pos(dark=(30, 12), light=(1,))
    assert (30, OFF) in moves(position, 1)
    for throw in (2, 3, 4, 5):
        assert not {m for m in moves(position, throw) if m[0] == 30}
    assert "H.ra" in broken(position, 3, 30, OFF)


# -- H.houses ------------------------------------------------------------------------------


def test_H_houses_no_normal_movement_inside() -> None:
    """Pieces on 28 and 29 do not step along to 29 or 30."""
    assert (28, 29) not in moves(pos(dark=(28, 12), light=(1,)), 1)
    assert (28, 30) not in moves(pos(dark=(28, 12), light=(1,)), 2)
    assert (29, 30) not in moves(pos(dark=(29, 12), light=(1,)), 1)


def test_H_houses_no_capture_on_26() -> None:
    """A lone opponent on 26 cannot be taken."""
    position = pos(dark=(24, 12), light=(26,))
    assert (24, 26) not in moves(position, 2) and "H.houses" in broken(position, 2, 24, 26)


def test_H_houses_no_capture_on_27_to_30() -> None:
    """A piece from 26 meeting an opponent on 30 goes to 27 and leaves the opponent on 30."""
    assert moves(pos(dark=(26,), light=(30,)), 4) == {(26, 27)}
    assert after(pos(dark=(26,), light=(30,)), 4, 26, 27) == text(dark=(27,), light=(30,))


# -- H.rebirth -----------------------------------------------------------------------------


def test_H_rebirth_on_15_when_it_is_free() -> None:
    """A piece reborn from the water lands on 15."""
    assert after(pos(dark=(27,), light=(1,)), 2, 27, 15) == text(dark=(15,), light=(1,))


def test_H_rebirth_first_empty_square_behind_15_when_it_is_taken() -> None:
    """15 and 14 taken: the piece from the water stands on 13."""
    assert moves(pos(dark=(27,), light=(15,)), 2) == {(27, 14)}
    assert after(pos(dark=(27,), light=(14, 15)), 1, 27, 13) == text(dark=(13,), light=(14, 15))
    assert moves(pos(dark=(27, 15), light=(1,)), 3) == {(27, 14)}


def test_H_rebirth_also_for_a_piece_bounced_from_26() -> None:
    """From 26 with target and 27 taken, and 15 taken too, the piece goes to 14."""
    assert after(pos(dark=(26,), light=(15, 27, 28)), 2, 26, 14) == text(dark=(14,), light=(15, 27, 28))


# -- H.win ---------------------------------------------------------------------------------


def test_H_win_when_the_fifth_piece_goes_off() -> None:
    """Bearing off the last piece ends the game for that player."""
    position = pos(dark=(28,), light=(1, 3))
    move = play(position, 3, 28, OFF)
    assert move.winner == DARK and move.next_turn == 0
    position.push(move)
    assert position.is_game_over and position.winner is DARK and position.turn is None
    assert position.off(DARK) == 5 and position.legal_moves(2) == []


def test_H_win_light_can_win_too_and_not_before_the_last_piece() -> None:
    """Light bearing off its last piece wins; a piece off with others left is no win."""
    assert play(pos(dark=(12,), light=(30,), turn=LIGHT), 1, 30, OFF).winner == LIGHT
    move = play(pos(dark=(28, 12), light=(1,)), 3, 28, OFF)
    assert move.winner == 0 and move.next_turn == LIGHT
