"""A one-line text form of a position that round-trips, like chess's FEN.

Fields: variant, the 30-square board, the player to move (``d``/``l``, ``-`` once the
game is over), the marked square (``-`` for none), the winner (``-`` while playing).

    >>> from senet.engine.position import Position
    >>> text = format_position(Position.start("kendall"))
    >>> text
    'kendall LDLDLDLDLD.................... d 10 -'
    >>> parse_position(text) == Position.start("kendall")
    True
"""

from __future__ import annotations

from senet.engine.board import format_board, parse_board
from senet.engine.player import Player
from senet.engine.position import Position
from senet.engine.variants import find_variant


def format_position(position: Position) -> str:
    turn = position.turn.letter.lower() if position.turn else "-"
    mark = str(position.mark) if position.mark else "-"
    winner = position.winner.letter.lower() if position.winner else "-"
    return f"{position.variant.name} {format_board(position.board)} {turn} {mark} {winner}"


def parse_position(text: str) -> Position:
    """Read :func:`format_position`'s form; ValueError says which field is wrong."""
    fields = text.split()
    if len(fields) != 5:
        raise ValueError(
            f"a position has 5 fields (variant board turn mark winner), got {len(fields)}: {text!r}"
        )
    name, board, turn, mark, winner = fields
    variant = find_variant(name)
    return Position(
        variant,
        parse_board(board),
        None if turn == "-" else Player.from_name(turn),
        0 if mark == "-" else int(mark),
        None if winner == "-" else Player.from_name(winner),
    )
