"""``ramses``: RAMSES, the second grid game of the Hungarian source (seed 000), RULES.md section 7.

Nothing is thrown: a piece goes as many steps as there are pieces in its row or its
column, whichever is more. The pieces are placed first, one at a time; the board (with
two long cells and five marked squares) is a layout file a museum can edit.

    >>> from senet.engine.position import Position
    >>> position = Position.start("ramses")
    >>> position.turn.label, position.stage.word, len(position.legal_moves(0))
    ('dark', 'place', 25)
"""

from __future__ import annotations

from senet.engine.board import board_from_squares
from senet.engine.layout import SQUARES, Layout, find_layout
from senet.engine.moves import OFF, PLACING, Move, Stage, Violation
from senet.engine.player import Player
from senet.engine.throws import NoThrows
from senet.engine.variants.base import Options, Why
from senet.engine.variants.grid import GridVariant

#: R.win: this many marked squares held win.
MARKS_TO_WIN = 3


class Ramses(GridVariant):
    """Placement, distances from the position, long cells, marked squares."""

    name = "ramses"
    prefix = "R"
    description = "RAMSES (seed 000): 4 pieces a side placed on the grid, distances from the position, own piece then an opponent's."
    first_player = Player.DARK
    first_stage = Stage.PLACE
    turn_rule = "R.turn"
    distance_rule = "R.distance"
    path_rule = "R.path"
    long_rule = "R.long"
    start_rule = "R.setup"
    win_rule = "R.win"

    def __init__(self, layout: Layout | None = None) -> None:
        self.layout = layout or find_layout("ramses")

    @property
    def throws(self) -> NoThrows:
        return NoThrows()

    @property
    def throw_values(self) -> frozenset[int]:
        return frozenset({0})

    def calibration_board(self) -> tuple[int, ...]:
        """The board starts empty: for the camera to learn the pieces they stand on the first row
        first (light on 1, 3, 5, 7, dark on 2, 4, 6, 8), and are then taken off for the placing."""
        return board_from_squares((2, 4, 6, 8), (1, 3, 5, 7))

    def steps(self, board: tuple[int, ...], square: int, throw: int) -> int:
        """R.distance: the pieces in the piece's row or column (itself included), whichever are more.

            >>> from senet.engine.board import parse_board
            >>> Ramses().steps(parse_board("DL......L." + "." * 20), 1, 0)   # 3 in row 1, 1 in its column
            3
        """
        row, col = self.layout.row_col(square)
        in_row = sum(1 for s in SQUARES if board[s] and self.layout.row_col(s)[0] == row)
        in_column = sum(1 for s in SQUARES if board[s] and self.layout.row_col(s)[1] == col)
        return max(in_row, in_column)

    def held(self, board: tuple[int, ...], me: int, square: int, stage: Stage) -> Violation | None:
        if stage is Stage.OTHER and self.layout.is_marked(square):
            return Violation("R.marked", (square,))
        return None

    def part_over(self, cells: list[int], me: int, stage: Stage, moved_to: int) -> tuple[int, int, Stage]:
        for player in (me, 3 - me):  # R.win (this companion's reading: whoever holds three, after any part)
            if sum(1 for s in self.layout.marked if cells[s] == player) >= MARKS_TO_WIN:
                return 0, player, stage
        if stage is Stage.OWN:
            return me, 0, Stage.OTHER
        return 3 - me, 0, Stage.OWN

    def placements(self, board: tuple[int, ...], me: int, why: Why | None) -> Options:
        """R.setup: on any empty unmarked cell (on a long cell, in any third of it)."""
        moves = []
        placed = sum(1 for s in SQUARES if board[s]) + 1
        turn, stage = (Player.LIGHT, Stage.OWN) if placed == 2 * self.pieces else (3 - me, Stage.PLACE)
        for square in SQUARES:
            if self.layout.is_marked(square):
                if why is not None:
                    why.append((OFF, square, Violation("R.setup", (square,), "marked")))
                continue
            taken = self.occupant(board, square)
            if taken:
                if why is not None:
                    why.append((OFF, square, Violation("R.setup", (taken,))))
                continue
            cells = list(board)
            cells[square] = me
            moves.append(Move(OFF, square, tuple(cells), turn, 0, 0, PLACING, stage))
        return Options(moves, None)
