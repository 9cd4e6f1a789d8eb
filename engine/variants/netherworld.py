"""``netherworld``: "passing through the netherworld" (seed 003, Czech and English), RULES.md section 5."""

from __future__ import annotations

from senet.engine.board import pieces_of
from senet.engine.moves import BACKWARD, FORWARD, OFF, SPECIAL, Move, Violation
from senet.engine.variants.base import ANY, Options, Variant, Why, finish, first_empty_behind, pass_move

REBIRTH = 15
GOOD = 26
WATER = 27
#: N.judges3, N.judges2: the one throw that takes a piece off 28 and 29.
JUDGES = {28: (3, "N.judges3"), 29: (2, "N.judges2")}


class Netherworld(Variant):
    """0 counts 5; no blocks; every piece stops on 26; the water offers a choice.

        >>> from senet.engine.board import parse_board
        >>> board = parse_board("." * 26 + "D..L")
        >>> [str(m) for m in Netherworld().options(board, 1, 0, 2).moves]  # N.water
        ['27-15']
    """

    name = "netherworld"
    prefix = "N"
    description = "Passing through the netherworld (Czech/English): 5 pieces, 0 counts 5, pairs guard, stop on 26, judges on 28-29."
    zero_value = 5
    turn_rule = "N.again"
    distance_rule = "N.throw"
    start_rule = "N.setup"
    win_rule = "N.win"

    def options(self, board: tuple[int, ...], me: int, mark: int, throw: int, why: Why | None = None) -> Options:
        pieces = pieces_of(board, me)
        if board[WATER] == me:
            return self._water(board, me, throw, pieces, why)
        again = throw in (1, 4, 5)  # N.again
        moves: list[Move] = []
        for start in pieces:
            self._forward(board, start, throw, me, again, moves, why)
        if moves and why is None:
            return Options(moves, None)
        backward: list[Move] = []
        for start in pieces:
            if start <= GOOD and start - throw >= 1:
                self._land(board, start, start - throw, me, False, BACKWARD, backward, why)
        if moves:
            movers = tuple(sorted({m.from_square for m in moves}))
            assert why is not None
            why.extend((m.from_square, m.to_square, Violation("N.backward", movers)) for m in backward)
            return Options(moves, None)
        if backward:
            return Options(backward, None)
        return Options([], pass_move(board, 3 - me, 0))

    def _water(self, board: tuple[int, ...], me: int, throw: int, pieces: list[int], why: Why | None) -> Options:
        """N.water: return to 15 (any time), or throw for a 4 (off, and throw again)."""
        if why is not None:
            why.extend((square, ANY, Violation("N.water", (WATER,))) for square in pieces if square != WATER)
        cells = list(board)
        cells[WATER] = 0
        moves = []
        if throw == 4:
            moves.append(finish(list(cells), WATER, OFF, me, True, 0, SPECIAL))
        dest = first_empty_behind(cells, REBIRTH)
        cells[dest] = me
        moves.append(finish(cells, WATER, dest, me, False, 0, SPECIAL))
        return Options(moves, None if throw == 4 else pass_move(board, 3 - me, 0))

    def _forward(
        self, board: tuple[int, ...], start: int, throw: int, me: int, again: bool, out: list[Move], why: Why | None
    ) -> None:
        if start in JUDGES or start == 30:
            needed, rule = JUDGES.get(start, (throw, "N.horus"))
            if throw == needed:
                cells = list(board)
                cells[start] = 0
                out.append(finish(cells, start, OFF, me, again, 0, SPECIAL))
            elif why is not None:
                why.append((start, ANY, Violation(rule, (start,))))
            return
        if start == GOOD and throw == 5:
            cells = list(board)
            cells[start] = 0
            out.append(finish(cells, start, OFF, me, again, 0, SPECIAL))
            return
        target = start + throw
        if start < GOOD < target:
            if why is not None:
                why.append((start, min(target, OFF), Violation("N.good", (GOOD,))))
            return
        self._land(board, start, target, me, again, FORWARD, out, why)

    def _land(
        self, board: tuple[int, ...], start: int, target: int, me: int, again: bool, kind: int,
        out: list[Move], why: Why | None,
    ) -> None:
        """Land on ``target``: N.capture, N.guard, and N.last4 on squares 27-30."""
        opp = 3 - me
        there = board[target]
        cells = list(board)
        cells[start] = 0
        if there == me:
            if why is not None:
                why.append((start, target, Violation("N.capture", (target,))))
            return
        if there:
            if target >= WATER:  # N.last4: no guarding; the opponent goes to 27 if it is free
                if target != WATER and not board[WATER]:
                    cells[WATER] = opp
                else:
                    cells[start] = opp
            else:
                guard = target - 1 if board[target - 1] == opp else 0
                if not guard and target <= GOOD and board[target + 1] == opp:  # N.guard: 26 is guarded from 25 or 27
                    guard = target + 1
                if guard:
                    if why is not None:
                        why.append((start, target, Violation("N.guard", (target, guard))))
                    return
                cells[start] = opp
        cells[target] = me
        out.append(finish(cells, start, target, me, again and target != WATER, 0, kind))
