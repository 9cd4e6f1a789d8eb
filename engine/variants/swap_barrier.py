"""``swap-barrier``: the Hungarian rules chosen for online play (seed 000, part 1), RULES.md section 2."""

from __future__ import annotations

from senet.engine.moves import Violation
from senet.engine.variants.base import first_empty_from
from senet.engine.variants.track import SwapTrackVariant


class SwapBarrier(SwapTrackVariant):
    """No piece leaves while one of its colour is still on row 1; being stuck loses.

        >>> from senet.engine.board import parse_board
        >>> board = parse_board("....L" + "." * 20 + "L....")
        >>> SwapBarrier().explain(board, 2, 0, 4, 26, 31)
        [Violation(rule='S.barrier', squares=(26, 5))]
    """

    name = "swap-barrier"
    prefix = "S"
    description = "Hungarian online rules: 5 pieces, 0 counts 6, lone pieces swap, no bearing off while a piece is on row 1, stuck loses."
    zero_value = 6
    safe = frozenset({26, 28, 29})
    exact_exit = False  # S.off
    water_last_resort = True  # S.water (D)
    stuck_loses = True  # S.stuck
    deciding_one_played = True
    opening_mark = 10
    turn_rule = "S.again"
    distance_rule = "S.exact"
    start_rule = "S.start"
    win_rule = "S.win"
    jump_rule = "S.block"
    own_rule = "S.own"
    capture_rule = "S.swap"
    safe_rule = "S.safe"
    water_rule = "S.water"
    exit_rule = "S.off"
    backward_rule = "S.backward"

    def water_square(self, cells: list[int]) -> int:
        return 15 if not cells[15] else first_empty_from(cells, 1)  # S.water

    def exit_refused(self, board: tuple[int, ...], me: int, from_square: int) -> Violation | None:
        behind = tuple(square for square in range(1, 11) if board[square] == me)
        return Violation("S.barrier", (from_square, *behind)) if behind else None

    def again(self, throw: int, final: int) -> bool:
        return throw in (1, 4, 6)  # S.again
