"""``ludii-kendall`` and ``ludii-kendall-5``: Ludii 1.3.13's "Kendall (Scholarly)", RULES.md section 8.

Move for move what Ludii's Senet.lud does, so the engine can be checked against its traces.
"""

from __future__ import annotations

from senet.engine.board import pieces_of
from senet.engine.moves import BACKWARD, FORWARD, OFF, SPECIAL, Move, Violation
from senet.engine.variants.base import ANY, Options, Variant, Why, carry_mark, finish, guard_of, pass_move

ANKH = 15
NEFER = 26
WATER = 27
#: LK.exit: the throw that takes a piece off 28 and 29 (30 leaves with any throw).
EXITS = {28: 3, 29: 2}
#: Ludii tests guards with lines on the 3 x 10 grid: at the ends of the middle row the
#: vertical line also reaches the far row, so 11 is guarded from 30 and 20 from 1.
GRID_GUARDS = {11: 30, 20: 1}


def ludii_guard_of(board: tuple[int, ...], square: int, colour: int) -> int:
    """The square guarding ``square`` for LK.capture, as Ludii 1.3.13 decides it.

        >>> board = (0, 2) + (0,) * 18 + (2,) + (0,) * 11
        >>> ludii_guard_of(board, 20, 2), guard_of(board, 20, 2)
        (1, 0)
    """
    guard = guard_of(board, square, colour)
    if not guard and square in GRID_GUARDS and board[GRID_GUARDS[square]] == colour:
        return GRID_GUARDS[square]
    return guard


class LudiiKendall(Variant):
    """Seven pieces; 0 counts 5; 26 must be hit exactly; the water ties up its owner.

        >>> from senet.engine.board import parse_board
        >>> v = LudiiKendall()
        >>> board = parse_board("......D.LL...." + "L" + "." * 15)
        >>> [str(m) for m in v.options(board, 2, 15, 3).moves]  # LK.15
        ['15-18']
    """

    name = "ludii-kendall"
    prefix = "LK"
    description = "Ludii 1.3.13 Kendall (Scholarly): 7 pieces, 0 counts 5, hit 26 exactly, the water ties up its owner."
    pieces = 7
    zero_value = 5
    dark_start = (2, 4, 6, 8, 10, 12, 14)
    light_start = (1, 3, 5, 7, 9, 11, 13)
    opening_jump = (14, 15)
    turn_rule = "LK.again"
    distance_rule = "LK.throw"
    start_rule = "LK.start"
    win_rule = "LK.win"

    def options(self, board: tuple[int, ...], me: int, mark: int, throw: int, why: Why | None = None) -> Options:
        again = throw in (1, 4, 5)  # LK.again
        if mark == ANKH and board[ANKH] == me:
            return self._from_ankh(board, me, throw, again, why)
        if board[WATER] == me:
            return self._water(board, me, mark, throw, why)
        pieces = pieces_of(board, me)
        moves: list[Move] = []
        for start in pieces:
            self._forward(board, start, throw, me, mark, again, moves, why)
        if moves and why is None:
            return Options(moves, None)
        backward: list[Move] = []
        for start in pieces:
            if start <= NEFER:
                if start - throw >= 1:
                    self._land(board, start, start - throw, me, mark, again, BACKWARD, backward, why)
            elif why is not None:
                why.append((start, start - throw, Violation("LK.backward", (start,))))
        if moves:
            movers = tuple(sorted({m.from_square for m in moves}))
            assert why is not None
            why.extend((m.from_square, m.to_square, Violation("LK.backward", movers)) for m in backward)
            return Options(moves, None)
        if backward:
            return Options(backward, None)
        return Options([], pass_move(board, me if again else 3 - me, mark))

    def _from_ankh(self, board: tuple[int, ...], me: int, throw: int, again: bool, why: Why | None) -> Options:
        """LK.15: the piece that came out of the water moves now; Ludii gives no extra throw."""
        if why is not None:
            why.extend(
                (square, ANY, Violation("LK.15", (ANKH,))) for square in pieces_of(board, me) if square != ANKH
            )
        moves: list[Move] = []
        self._land(board, ANKH, ANKH + throw, me, 0, False, SPECIAL, moves, why)
        if not moves:
            self._land(board, ANKH, ANKH - throw, me, 0, False, SPECIAL, moves, why)
        if moves:
            return Options(moves, None)
        return Options([], pass_move(board, me if again else 3 - me, ANKH))

    def _water(self, board: tuple[int, ...], me: int, mark: int, throw: int, why: Why | None) -> Options:
        """LK.27: only the piece in the water moves: off with a 4, else to 15 or a pass."""
        if why is not None:
            why.extend(
                (square, ANY, Violation("LK.27", (WATER,))) for square in pieces_of(board, me) if square != WATER
            )
        cells = list(board)
        cells[WATER] = 0
        if throw == 4:
            return Options([finish(cells, WATER, OFF, me, False, carry_mark(mark, WATER, OFF), SPECIAL)], None)
        moves = []
        if not board[ANKH]:
            cells[ANKH] = me
            moves.append(finish(cells, WATER, ANKH, me, False, ANKH, SPECIAL))
        elif why is not None:
            why.append((WATER, ANKH, Violation("LK.27", (ANKH,))))
        return Options(moves, pass_move(board, 3 - me, mark))

    def _forward(
        self, board: tuple[int, ...], start: int, throw: int, me: int, mark: int, again: bool,
        out: list[Move], why: Why | None,
    ) -> None:
        target = start + throw
        if start > NEFER:
            if start == 30 or EXITS[start] == throw:
                cells = list(board)
                cells[start] = 0
                out.append(finish(cells, start, OFF, me, again, carry_mark(mark, start, OFF), FORWARD))
            elif why is not None:
                why.append((start, ANY, Violation("LK.exit", (start,))))
            return
        if start == NEFER:
            if throw == 5:
                cells = list(board)
                cells[start] = 0
                out.append(finish(cells, start, OFF, me, again, carry_mark(mark, start, OFF), FORWARD))
                return
            if board[target] == 3 - me:
                # LK.26 as Ludii 1.3.13 plays it: its test for an empty 27 counts pieces, never
                # succeeds, and so an opponent on 27-30 cannot be taken from 26.
                if why is not None:
                    why.append((start, target, Violation("LK.26", (target,))))
                return
        elif target > NEFER:
            if why is not None:
                why.append((start, min(target, OFF), Violation("LK.26", (NEFER,))))
            return
        self._land(board, start, target, me, mark, again, FORWARD, out, why)

    def _land(
        self, board: tuple[int, ...], start: int, target: int, me: int, mark: int, again: bool, kind: int,
        out: list[Move], why: Why | None,
    ) -> None:
        """Land on ``target``, swapping with an unguarded opponent (LK.capture)."""
        there = board[target]
        cells = list(board)
        cells[start] = 0
        if there == me:
            if why is not None:
                why.append((start, target, Violation("LK.capture", (target,))))
            return
        if there:
            guard = ludii_guard_of(board, target, there)
            if guard:
                if why is not None:
                    why.append((start, target, Violation("LK.capture", (target, guard))))
                return
            cells[start] = there
        mark = start if there and mark == target else carry_mark(mark, start, target)
        cells[target] = me
        out.append(finish(cells, start, target, me, again, mark, kind))


class LudiiKendallFive(LudiiKendall):
    """The "Kendall 5 pieces" option: five pieces each on squares 1-10."""

    name = "ludii-kendall-5"
    description = "Ludii 1.3.13 Kendall (Scholarly) with its 5-piece option."
    pieces = 5
    dark_start = (2, 4, 6, 8, 10)
    light_start = (1, 3, 5, 7, 9)
    opening_jump = (10, 11)
