"""The Senet rules engine: positions, throws, legal moves, explanations and records.

Pure Python with no I/O, in the spirit of python-chess::

    >>> from senet.engine import Position, find_variant
    >>> position = Position.start(find_variant("kendall"))
    >>> [str(move) for move in position.legal_moves(4)]
    ['10-14']
"""

from senet.engine.game import Game, GameError
from senet.engine.moves import OFF, PASS, Move, Violation
from senet.engine.player import Player
from senet.engine.position import Position
from senet.engine.variants import VARIANTS, Variant, find_variant

__all__ = [
    "OFF",
    "PASS",
    "VARIANTS",
    "Game",
    "GameError",
    "Move",
    "Player",
    "Position",
    "Variant",
    "Violation",
    "find_variant",
]
