"""``blockade``: the Hungarian blockade rules (seed 001), RULES.md section 3."""

from __future__ import annotations

from senet.engine.moves import OFF, Move, Violation
from senet.engine.variants.base import StartRitual, first_empty_from
from senet.engine.variants.track import SwapTrackVariant


class Blockade(SwapTrackVariant):
    """Strict alternation, touch-move, and pieces leave only from the home row.

        >>> from senet.engine.board import parse_board
        >>> board = parse_board("." * 24 + "D..D..")
        >>> opts = Blockade().options(board, 1, 0, 1)
        >>> [str(m) for m in opts.moves], opts.may_pass  # B.optional: nothing can leave
        (['25-26', '28-29'], True)
    """

    name = "blockade"
    prefix = "B"
    description = "Hungarian blockade rules: 5 pieces, 0 counts 6, strict turns, pairs block captures, touch-move."
    zero_value = 6
    safe = frozenset({26, 28, 29})
    water_last_resort = True  # B.water (D)
    start_ritual = StartRitual.LOTS
    opening_mark = 10
    touch_move = True
    turn_rule = "B.turns"
    distance_rule = "B.throw"
    start_rule = "B.start"
    win_rule = "B.win"
    jump_rule = "B.block3"
    own_rule = "B.capture"
    capture_rule = "B.capture"
    safe_rule = "B.safe"
    water_rule = "B.water"
    exit_rule = "B.exit"
    backward_rule = "B.backward"

    def water_square(self, cells: list[int]) -> int:
        return first_empty_from(cells, 1)  # B.water

    def exit_refused(self, board: tuple[int, ...], me: int, from_square: int) -> Violation | None:
        behind = tuple(square for square in range(1, 21) if board[square] == me)
        return Violation("B.home", (from_square, *behind)) if behind else None

    def may_decline(self, board: tuple[int, ...], me: int, moves: list[Move]) -> bool:
        home = all(board[square] != me for square in range(1, 21))
        return home and all(move.to_square != OFF for move in moves)  # B.optional (D)
