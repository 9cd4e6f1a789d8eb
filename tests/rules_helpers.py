"""Small helpers for the per-rule tests: boards by squares, moves as (from, to) pairs."""

from __future__ import annotations

from senet.engine import OFF, Player, Position
from senet.engine.board import board_from_squares, format_board

DARK, LIGHT = Player.DARK, Player.LIGHT


def position(variant: str, dark: tuple[int, ...] = (), light: tuple[int, ...] = (), turn: Player = DARK, mark: int = 0) -> Position:
    return Position.from_board_text(variant, format_board(board_from_squares(dark, light)), turn, mark)


def pairs(pos: Position, throw: int) -> set[tuple[int, int]]:
    """The legal moves as (from, to) pairs; 31 is off the board."""
    return {(m.from_square, m.to_square) for m in pos.legal_moves(throw)}


def after(pos: Position, throw: int, start: int, end: int) -> tuple[str, Player | None]:
    """The board after a legal move and who throws next."""
    move = pos.find_move(throw, start, end)
    return format_board(move.after), (Player(move.next_turn) if move.next_turn else None)


def rules(pos: Position, throw: int, start: int, end: int) -> set[str]:
    """The rule IDs an attempted move breaks."""
    return {v.rule for v in pos.explain(throw, start, end)}


def board(dark: tuple[int, ...] = (), light: tuple[int, ...] = ()) -> str:
    return format_board(board_from_squares(dark, light))


__all__ = ["DARK", "LIGHT", "OFF", "after", "board", "pairs", "position", "rules"]
