"""A one-line text form of a position that round-trips, like chess's FEN.

Fields: variant, the 30-square board, the player to move (``d``/``l``, ``-`` once the
game is over), the marked square (``-`` for none), the winner (``-`` while playing).
In the grid games (PHARAO, RAMSES) the fourth field is the part of the turn to play:
``own``, ``other``, ``rescue`` or ``place``. A piece on a long cell is written on the
square of the third it stands in; a piece in PHARAO's water stands on 27.

    >>> from senet.engine.position import Position
    >>> text = format_position(Position.start("kendall"))
    >>> text
    'kendall LDLDLDLDLD.................... d 10 -'
    >>> parse_position(text) == Position.start("kendall")
    True
    >>> format_position(Position.start("ramses"))
    'ramses .............................. d place -'
"""

from __future__ import annotations

from senet.engine.board import format_board, parse_board
from senet.engine.moves import Stage
from senet.engine.player import Player
from senet.engine.position import Position
from senet.engine.variants import find_variant


def format_position(position: Position) -> str:
    turn = position.turn.letter.lower() if position.turn else "-"
    mark = str(position.mark) if position.mark else "-"
    if position.variant.in_parts:
        mark = position.stage.word
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
    stage = Stage.from_word(mark) if variant.in_parts else Stage.OWN
    return Position(
        variant,
        parse_board(board),
        None if turn == "-" else Player.from_name(turn),
        0 if mark == "-" or variant.in_parts else int(mark),
        None if winner == "-" else Player.from_name(winner),
        stage,
    )
