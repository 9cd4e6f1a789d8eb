"""Properties of every variant, checked with hypothesis on arbitrary and played positions.

The grid games' positions also say which part of the turn is to play (``stage``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from senet.engine import OFF, Player, Position, find_variant
from senet.engine.game import Game
from senet.engine.layout import SQUARES
from senet.engine.moves import Stage
from senet.engine.notation import format_position, parse_position
from senet.engine.playout import random_game
from senet.engine.record import GameRecord
from senet.engine.rulebook import RULE_SYSTEMS
from senet.engine.variants import VARIANTS, Variant

variant_names = st.sampled_from(sorted(VARIANTS))


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any legal-looking board of a variant, either side to move, sometimes with a mark
    (a track game) or in any part of a turn (a grid game)."""
    variant = find_variant(draw(variant_names))
    squares = list(SQUARES)
    least = 0 if variant.first_stage is Stage.PLACE else 1
    dark = draw(st.lists(st.sampled_from(squares), unique=True, min_size=least, max_size=variant.pieces))
    rest = [square for square in squares if square not in dark and not _shares_a_cell(variant, square, dark)]
    light = draw(st.lists(st.sampled_from(rest), unique=True, min_size=least, max_size=variant.pieces))
    cells = [0] * 32
    for square in dark:
        cells[square] = Player.DARK
    for square in light:
        cells[square] = Player.LIGHT
    turn = draw(st.sampled_from(list(Player)))
    if not variant.in_parts:
        mark = draw(st.sampled_from([0, 0, 0, *dark, *light]))
        return Position(variant, tuple(cells), turn, mark)
    stages = [Stage.OWN, Stage.OTHER]
    if cells[27] == turn and variant.name == "pharao":
        stages.append(Stage.RESCUE)
    if variant.first_stage is Stage.PLACE and len(dark) + len(light) < 2 * variant.pieces:
        stages.append(Stage.PLACE)
    return Position(variant, tuple(cells), turn, stage=draw(st.sampled_from(stages)))


def _shares_a_cell(variant: Variant, square: int, taken: list[int]) -> bool:
    """A long cell holds one piece: ``square`` lies in a cell one of ``taken`` is in already."""
    return any(other in variant.layout.cell_of(square) for other in taken)


def throws_of(position: Position) -> list[int]:
    return sorted(position.variant.throw_values)


def moving_pieces(position: Position) -> list[int]:
    """The squares whose pieces the part to play moves (OFF for a placement)."""
    if position.stage is Stage.PLACE:
        return [OFF]
    if position.variant.in_parts:
        return position.variant.movers(position.board, position.turn, position.stage)
    return position.pieces(position.turn)


@settings(max_examples=400, deadline=None)
@given(positions())
def test_pieces_are_never_created_or_lost(position: Position) -> None:
    """After any legal move each side has as many pieces as before, minus one borne off (or
    drowned, PHARAO), plus one placed (RAMSES)."""
    me = position.turn
    for throw in throws_of(position):
        options = position.options(throw)
        for move in options.moves + ([options.pass_move] if options.pass_move else []):
            after = move.after
            assert len(after) == 32 and after[0] == 0 and after[31] == 0
            assert set(after) <= {0, 1, 2}
            assert after.count(me.opponent) == position.board.count(me.opponent)
            lost = position.board.count(me) - after.count(me)
            drowned = position.variant.name == "pharao" and position.board[27] == me and after[27] != me and move.to_square != 27
            if move.from_square == OFF:
                assert lost == -1 and position.stage is Stage.PLACE
            elif drowned and position.stage in (Stage.OWN, Stage.RESCUE):
                assert lost in (0, 1)
            else:
                assert lost == (1 if move.to_square == OFF else 0)
            if not move.is_pass and move.from_square != OFF:
                assert after[move.from_square] != position.board[move.from_square] or move.to_square == move.from_square


@settings(max_examples=300, deadline=None)
@given(positions())
def test_undo_restores_the_position_exactly(position: Position) -> None:
    """Pushing any legal move or pass and popping it gives back the same position."""
    before = format_position(position)
    for throw in throws_of(position):
        options = position.options(throw)
        for move in options.moves + ([options.pass_move] if options.pass_move else []):
            position.push(move)
            assert position.pop() == move
            assert format_position(position) == before


@settings(max_examples=300, deadline=None)
@given(positions(), st.data())
def test_explain_agrees_with_the_legal_moves(position: Position, data: st.DataObject) -> None:
    """A legal move is never explained as illegal; every other attempt names a rule of its variant."""
    prefix = position.variant.prefix
    known = {rule.id for rule in RULE_SYSTEMS[prefix].rules}
    throw = data.draw(st.sampled_from(throws_of(position)))
    legal = {(m.from_square, m.to_square) for m in position.legal_moves(throw)}
    for start, end in legal:
        assert position.explain(throw, start, end) == []
    for start in moving_pieces(position):
        for end in [*SQUARES, OFF]:
            if (start, end) not in legal and end != start:
                violations = position.explain(throw, start, end)
                assert violations, f"{start}-{end} is illegal but no rule is named"
                assert {v.rule for v in violations} <= known


@settings(max_examples=200, deadline=None)
@given(positions())
def test_notation_round_trips(position: Position) -> None:
    assert parse_position(format_position(position)) == position


@settings(max_examples=60, deadline=None)
@given(variant_names, st.integers(0, 2**32 - 1))
def test_random_games_end_and_their_records_replay(name: str, seed: int) -> None:
    """Random games end with a winner; their record round-trips and replays to the same end."""
    game = random_game(name, seed)
    assert game.is_over and game.position.winner is not None
    record = game.record
    assert GameRecord.parse(record.format()) == record
    replayed = Game.replay(record)
    assert replayed.position == game.position
