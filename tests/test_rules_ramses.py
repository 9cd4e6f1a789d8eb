"""``ramses`` (RULES.md section 7, rule IDs R.*): every rule has a test named after it.

The shipped board (R.board): squares 26-30 are marked; 11-13 and 18-20 are long cells of
the middle row. On the grid, 11-13 lie in columns 10-8 with 10, 9, 8 above them and 30, 29,
28 below; 14 is their short end. 18-20 lie in columns 3-1, with 17 as their short end.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_helpers import DARK, LIGHT, board

from senet.engine import Game, Player, Position
from senet.engine.layout import Layout, LayoutError, find_layout
from senet.engine.moves import OFF, Stage
from senet.engine.variants.ramses import Ramses

V = "ramses"


def pos(dark: tuple[int, ...] = (), light: tuple[int, ...] = (), turn: Player = LIGHT, stage: Stage = Stage.OWN,
        variant: str | Ramses = V) -> Position:
    return Position.from_board_text(variant, board(dark, light), turn, stage=stage)


def ends(position: Position, start: int) -> set[int]:
    return {m.to_square for m in position.legal_moves(0) if m.from_square == start}


def broken(position: Position, start: int, end: int) -> list[tuple[str, tuple[int, ...], str]]:
    return [(v.rule, v.squares, v.case) for v in position.explain(0, start, end)]


# -- R.board, R.setup -------------------------------------------------------------------------


def test_R_board_the_shipped_reconstruction_marks_26_to_30_and_has_two_long_cells() -> None:
    layout = find_layout(V)
    assert layout.marked == frozenset({26, 27, 28, 29, 30}) and layout.long_cells == ((11, 12, 13), (18, 19, 20))
    assert layout.track is None and len(layout.cells) == 26
    taken = pos(dark=(11,), stage=Stage.PLACE)  # a long cell holds one piece, wherever it stands in it
    assert {m.to_square for m in taken.legal_moves(0)}.isdisjoint({11, 12, 13})
    assert broken(taken, OFF, 12) == [("R.setup", (11,), "")]


def test_R_board_a_museum_edits_the_layout_file_and_the_engine_follows(tmp_path: Path) -> None:
    edited = tmp_path / "ramses.toml"
    edited.write_text('name = "ramses"\nmarked = [1, 2, 3]\nlong = [[21, 22]]\n')
    variant = Ramses(Layout.load(edited))
    placing = Position(variant, turn=DARK, stage=Stage.PLACE)
    targets = {m.to_square for m in placing.legal_moves(0)}
    assert targets == set(range(4, 31))
    moving = Position(variant, pos(dark=(5,), light=(23,)).board, LIGHT)
    assert ends(moving, 23) >= {21, 22}  # into the long cell 21-22 from its short end


@pytest.mark.parametrize(("text", "says"), [
    ('marked = [31]', "not on the board"),
    ('long = [[1, 12]]', "one row or column"),
    ('long = [[1, 2], [2, 3]]', "in two long cells"),
    ('colour = "red"', "unknown key 'colour'"),
    ('marked = "26"', "list of square numbers"),
    ('marked = [26', "not a valid TOML file"),
])
def test_R_board_a_broken_layout_file_says_what_to_fix(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "board.toml"
    path.write_text(text + "\n")
    with pytest.raises(LayoutError, match=says):
        Layout.load(path)


def test_R_setup_alternate_placement_on_unmarked_squares_dark_first_light_moves_first() -> None:
    game = Game(V)
    assert game.position.turn is DARK and game.position.stage is Stage.PLACE and not game.needs_throw
    assert {m.to_square for m in game.options.moves} == set(range(1, 26))
    assert broken(game.position, OFF, 27) == [("R.setup", (27,), "marked")]
    for square in (1, 2, 5, 6, 9, 14, 17, 23):
        game.play(OFF, square)
    assert broken(Position.start(V), OFF, 26) == [("R.setup", (26,), "marked")]
    assert game.position.pieces(DARK) == [1, 5, 9, 17] and game.position.pieces(LIGHT) == [2, 6, 14, 23]
    assert game.position.turn is LIGHT and game.position.stage is Stage.OWN
    assert str(game.turns[0]) == "dark place 0 off-1"


# -- R.turn, R.distance, R.path ------------------------------------------------------------------


def test_R_turn_own_piece_then_an_opponent_piece_orthogonally() -> None:
    position = pos(dark=(21, 25), light=(9,))
    assert broken(position, 21, 22) == [("R.turn", (21,), "")]
    assert ends(position, 9) == {8, 10, 12}  # one step: never diagonal (11, 13 are diagonal to 9)
    position.push(position.find_move(0, 9, 8))
    assert position.turn is LIGHT and position.stage is Stage.OTHER
    assert broken(position, 8, 7) == [("R.turn", (8,), "")]
    assert {m.from_square for m in position.legal_moves(0)} == {21, 25}
    position.push(position.legal_moves(0)[0])
    assert position.turn is DARK and position.stage is Stage.OWN


def test_R_distance_the_pieces_in_the_row_or_column_whichever_are_more() -> None:
    position = pos(dark=(1, 3), light=(10, 21))
    variant = position.variant
    assert variant.steps(position.board, 1, 0) == 3  # 1, 3 and 10 in the first row; 1 and 21 in its column
    assert variant.steps(position.board, 21, 0) == 2  # alone in the third row; 1 and 21 in its column
    assert broken(position, 10, 2) == [("R.distance", tuple(sorted(ends(position, 10))), "steps")]


def test_R_path_touches_no_square_twice_and_ends_on_an_empty_square() -> None:
    position = pos(dark=(1, 21), light=(9,))  # 9 goes 2 steps (1 and 9 in its row)
    assert broken(position, 9, 9) == [("R.path", (9, 9), "twice")]
    crowded = pos(dark=(1, 7), light=(9,))  # 9 goes 3 steps; 7 is taken
    assert 7 not in ends(crowded, 9)
    assert broken(crowded, 9, 7) == [("R.path", (7,), "occupied")]


def test_R_path_passes_over_occupied_squares() -> None:
    position = pos(dark=(2, 21), light=(1,))  # 1 goes 2 steps, over dark's piece on 2
    assert 3 in ends(position, 1)


# -- R.long ----------------------------------------------------------------------------------


def test_R_long_from_the_short_end_a_piece_stops_in_any_third() -> None:
    position = pos(dark=(21, 25), light=(14,))
    assert ends(position, 14) == {7, 11, 12, 13, 15, 27}


def test_R_long_from_a_long_side_it_stops_in_that_third_and_goes_on_by_the_short_end() -> None:
    one = pos(dark=(21, 25), light=(9,))
    assert ends(one, 9) == {8, 10, 12}
    two = pos(dark=(1, 21), light=(9,))  # two steps: in beside 9, out by the short end 14
    assert ends(two, 9) == {7, 11, 13, 14}
    assert broken(two, 9, 29) == [("R.long", (11, 12, 13), "")]  # never from side to side


def test_R_long_a_piece_in_a_third_leaves_beside_that_third_or_by_the_short_end() -> None:
    position = pos(dark=(21, 25), light=(12,))
    assert ends(position, 12) == {9, 14, 29}
    assert broken(position, 12, 10) == [("R.long", (11, 12, 13), "")]


def test_R_long_counts_as_one_square_on_the_way() -> None:
    position = pos(dark=(16, 21), light=(14,))  # 14 goes 2 steps: through the long cell and out beside it
    assert {8, 9, 10, 28, 29, 30} <= ends(position, 14)


# -- R.marked, R.win ---------------------------------------------------------------------------


def test_R_marked_an_opponent_piece_on_a_marked_square_stays_but_your_own_may_leave() -> None:
    other = pos(dark=(27, 5), light=(1, 26), stage=Stage.OTHER)  # light moves one of dark's pieces
    assert {m.from_square for m in other.legal_moves(0)} == {5}
    assert broken(other, 27, 17) == [("R.marked", (27,), "")]
    own = pos(dark=(27, 5), light=(1, 26))
    assert ends(own, 26)  # light's own piece leaves its marked square


def test_R_win_three_marked_squares_held() -> None:
    position = pos(dark=(5, 6), light=(26, 28, 9))
    wins = {m.to_square: m.winner for m in position.legal_moves(0) if m.from_square == 9}
    assert wins[27] == LIGHT and wins[7] == 0
    pushed = pos(dark=(26, 28, 9), light=(5, 6), stage=Stage.OTHER)  # light's part puts dark's third piece there
    assert {m.to_square: m.winner for m in pushed.legal_moves(0) if m.from_square == 9}[27] == DARK


def test_R_win_a_player_who_cannot_carry_out_a_part_loses() -> None:
    game = Game(V)
    game.position = pos(dark=(26, 27), light=(1, 2))  # both dark pieces stand on marked squares
    game.ready_part()
    move = game.options.moves[0]
    game.play(move.from_square, move.to_square)  # light's own part; now light must move a dark piece, and none may
    assert game.is_over and game.position.winner is DARK and str(game.turns[-1]) == "light other 0 pass"
