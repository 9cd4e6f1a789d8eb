"""``kendall``: Kendall's reconstruction, from the Italian leaflet (seed 004), RULES.md section 1."""

from __future__ import annotations

from senet.engine.board import pieces_of
from senet.engine.variants.base import first_empty_from
from senet.engine.variants.track import SwapTrackVariant


class Kendall(SwapTrackVariant):
    """Throw 0 counts 6; 1, 4, 6 and reaching 26 throw again; blocks of three stop a piece.

        >>> from senet.engine.board import parse_board
        >>> board = parse_board("LDLDLDLDL.D" + "." * 19)
        >>> [str(m) for m in Kendall().options(board, 2, 9, 2).moves]  # K.start: piece on 9
        ['9-11']
    """

    name = "kendall"
    prefix = "K"
    description = "Kendall's reconstruction (Italian leaflet): 5 pieces, 0 counts 6, swap captures, blocks of three."
    zero_value = 6
    safe = frozenset({26, 28, 29, 30})
    deciding_one_played = True
    opening_mark = 10
    mark_after = {10: 9}  # K.start: after dark's forced 10-11, light's first move uses the piece on 9
    turn_rule = "K.again"
    distance_rule = "K.exact"
    start_rule = "K.start"
    win_rule = "K.win"
    jump_rule = "K.jump"
    own_rule = "K.own"
    capture_rule = "K.capture"
    safe_rule = "K.safe"
    water_rule = "K.water"
    exit_rule = "K.exit"
    backward_rule = "K.backward"

    def water_square(self, cells: list[int]) -> int:
        return first_empty_from(cells, 1)  # K.water

    def again(self, throw: int, final: int) -> bool:
        return throw in (1, 4, 6) or final == 26  # K.again

    def score(self, board: tuple[int, ...], winner: int) -> int:
        """K.score: the winner's match points, 1 per opponent piece on row 3, 2 on row 2, 3 on row 1.

            >>> from senet.engine.board import board_from_squares
            >>> Kendall().score(board_from_squares([], [5, 15, 25]), winner=1)
            6
        """
        loser = 3 - winner
        return sum(3 - (square - 1) // 10 for square in pieces_of(board, loser))
