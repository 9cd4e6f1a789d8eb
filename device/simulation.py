"""The virtual table of the simulation: a board only the simulated camera sees, moved by
people on the page or by two simulated players.

    >>> from senet.vision.sources import SimulatedSource
    >>> table = VirtualTable(SimulatedSource(), "netherworld")
    >>> table.move(10, 11)
    >>> table.board[8:12]
    'L.D.'
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from senet.device.companion import Companion
from senet.engine.board import format_board
from senet.engine.layout import SQUARES
from senet.engine.variants import find_variant
from senet.vision.simulator import Scene
from senet.vision.sources import SimulatedSource


class VirtualTable:
    """The pieces on the simulated board (30 characters), as the simulated camera films them."""

    def __init__(self, source: SimulatedSource, variant: str, board: str | None = None) -> None:
        self.source = source
        self.set_up(board or format_board(find_variant(variant).start_board()))

    @property
    def board(self) -> str:
        return self.source.scene.board

    def set_up(self, board: str) -> None:
        """Put the pieces as ``board`` has them (a new game's start, a restart's position)."""
        self.source.scene = Scene(board)

    def move(self, start: int, end: int | None) -> None:
        """A person picks up the piece on ``start`` and puts it on ``end`` (None: off the
        board); a piece already there goes to ``start`` (a swap by hand). ValueError when
        there is no such piece or square."""
        cells = list(self.board)
        if start not in SQUARES or cells[start - 1] == "." or (end is not None and end not in SQUARES):
            raise ValueError("pick a square with a piece, and a square 1..30 (or off) to put it on")
        piece, cells[start - 1] = cells[start - 1], "."
        if end is not None:
            cells[start - 1], cells[end - 1] = cells[end - 1], piece
        self.source.scene = replace(self.source.scene, board="".join(cells))

    def place(self, square: int, piece: str) -> None:
        """A person puts a new ``piece`` ('D' or 'L') on an empty ``square`` (RAMSES' placing)."""
        cells = list(self.board)
        if square not in SQUARES or cells[square - 1] != "." or piece not in ("D", "L"):
            raise ValueError("pick an empty square 1..30 to place the piece on")
        cells[square - 1] = piece
        self.source.scene = replace(self.source.scene, board="".join(cells))


@dataclass
class SimulatedPlayers:
    """Play both sides at the virtual table: throw, then move a random legal piece; after a
    game, set up the start position again (the next game begins)."""

    companion: Companion
    table: VirtualTable
    rng: random.Random

    def act(self) -> None:
        referee = self.companion.referee
        game = referee.game
        if game.is_over:
            self.table.set_up(format_board(game.variant.start_board()))
            return
        if referee.illegal or (referee.seen is not None and referee.seen != referee.expected):
            self.table.set_up(format_board(referee.expected))  # put right what is wrong, finish what a rule moved
            return
        if game.current_throw is None:
            self.companion.electronic_throw()
            return
        moves = game.options.moves
        if moves:
            self.table.set_up(format_board(self.rng.choice(moves).after))
        elif game.options.pass_move is not None:
            self.companion.confirm()
