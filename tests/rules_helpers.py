"""Small helpers for the per-rule tests: boards by squares, moves as (from, to) pairs."""

from __future__ import annotations

from senet.engine import OFF, Move, Player, Position
from senet.engine.board import board_from_squares, format_board

DARK, LIGHT = Player.DARK, Player.LIGHT


def board(dark: tuple[int, ...] = (), light: tuple[int, ...] = ()) -> str:
    """The 30-character board with dark and light pieces on the given squares."""
    shared = set(dark) & set(light)
    assert not shared, f"squares {sorted(shared)} given to both sides"
    return format_board(board_from_squares(dark, light))


def position(variant: str, dark: tuple[int, ...] = (), light: tuple[int, ...] = (), turn: Player = DARK, mark: int = 0) -> Position:
    return Position.from_board_text(variant, board(dark, light), turn, mark)


def pairs(pos: Position, throw: int) -> set[tuple[int, int]]:
    """The legal moves as (from, to) pairs; 31 is off the board."""
    return {(m.from_square, m.to_square) for m in pos.legal_moves(throw)}


def play(pos: Position, throw: int, start: int, end: int) -> Move:
    """The legal move start-end (the test fails, listing the legal moves, if it is not legal)."""
    for move in pos.legal_moves(throw):
        if (move.from_square, move.to_square) == (start, end):
            return move
    raise AssertionError(f"{start}-{end} with {throw} is not legal; legal: {sorted(pairs(pos, throw))}")


def board_after(pos: Position, throw: int, start: int, end: int) -> str:
    """The board after a legal move."""
    return format_board(play(pos, throw, start, end).after)


def after(pos: Position, throw: int, start: int, end: int) -> tuple[str, Player | None]:
    """The board after a legal move and who throws next."""
    move = pos.find_move(throw, start, end)
    return format_board(move.after), (Player(move.next_turn) if move.next_turn else None)


def rules(pos: Position, throw: int, start: int, end: int) -> set[str]:
    """The rule IDs an attempted move breaks."""
    return {v.rule for v in pos.explain(throw, start, end)}


__all__ = ["DARK", "LIGHT", "OFF", "after", "board", "board_after", "pairs", "play", "position", "rules"]
