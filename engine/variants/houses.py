"""``houses``: the Russian Houses reading (seed 002), RULES.md section 4."""

from __future__ import annotations

from senet.engine.board import pieces_of
from senet.engine.moves import FORWARD, OFF, OVERSHOOT, SPECIAL, Move, Violation
from senet.engine.variants.base import (
    ANY,
    Options,
    Variant,
    Why,
    finish,
    first_empty_behind,
    pair_between,
    pass_move,
)

REBIRTH = 15
BEAUTY = 26
WATER = 27
#: H.truths, H.isis, H.ra: the one throw that takes a piece off each of these Houses.
HOUSE_EXITS = {28: (3, "H.truths"), 29: (2, "H.isis"), 30: (1, "H.ra")}


def houses_guard(board: tuple[int, ...] | list[int], square: int, colour: int) -> int:
    """The neighbour guarding ``square`` under H.capture, or 0 when it may be captured.

    Side-by-side pieces guard each other, but in a run of three or more the second piece
    from the rear (the lower-numbered end) may be taken.

        >>> board = (0, 0, 2, 2, 2) + (0,) * 27
        >>> houses_guard(board, 3, 2), houses_guard(board, 2, 2)
        (0, 3)
    """
    before = square > 1 and board[square - 1] == colour
    after = square < 30 and board[square + 1] == colour
    if not (before or after):
        return 0
    if before and after and not (square > 2 and board[square - 2] == colour):
        return 0
    return square + 1 if after else square - 1


class Houses(Variant):
    """0 counts 5; every piece stops on 26; each House lets a piece out its own way.

        >>> from senet.engine.board import parse_board
        >>> board = parse_board("." * 23 + "D" + "." * 6)
        >>> [str(m) for m in Houses().options(board, 1, 0, 5).moves]  # H.beauty
        ['24-26']
    """

    name = "houses"
    prefix = "H"
    description = "Russian Houses reading: 5 pieces, 0 counts 5, no passing two pieces, every piece stops on 26, each House has its exit."
    zero_value = 5
    turn_rule = "H.again"
    distance_rule = "H.throw"
    start_rule = "H.start"
    win_rule = "H.win"

    def options(self, board: tuple[int, ...], me: int, mark: int, throw: int, why: Why | None = None) -> Options:
        pieces = pieces_of(board, me)
        if board[WATER] == me:
            return self._water(board, me, throw, pieces, why)
        moves: list[Move] = []
        for square in pieces:
            self._normal(board, square, throw, me, moves, why)
        if moves and why is None:
            return Options(moves, None)
        overshoot: list[Move] = []
        for square in pieces:
            if square < BEAUTY:
                self._overshoot(board, square, throw, me, overshoot, why)
        if moves:
            movers = tuple(sorted({m.from_square for m in moves}))
            assert why is not None
            why.extend((m.from_square, m.to_square, Violation("H.overshoot", movers)) for m in overshoot)
            return Options(moves, None)
        if overshoot:
            return Options(overshoot, None)
        return Options([], pass_move(board, 3 - me, 0))

    def _water(self, board: tuple[int, ...], me: int, throw: int, pieces: list[int], why: Why | None) -> Options:
        """H.water: the owner's throw must be used by the piece on 27."""
        if why is not None:
            why.extend((square, ANY, Violation("H.water", (WATER,))) for square in pieces if square != WATER)
        if throw == 5:
            return Options([], pass_move(board, 3 - me, 0))
        cells = list(board)
        cells[WATER] = 0
        if throw == 4:
            return Options([finish(cells, WATER, OFF, me, False, 0, SPECIAL)], None)
        dest = first_empty_behind(cells, REBIRTH)  # H.rebirth
        cells[dest] = me
        return Options([finish(cells, WATER, dest, me, False, 0, SPECIAL)], None)

    def _normal(self, board: tuple[int, ...], start: int, throw: int, me: int, out: list[Move], why: Why | None) -> None:
        cells = list(board)
        cells[start] = 0
        if start in HOUSE_EXITS:
            needed, rule = HOUSE_EXITS[start]
            if throw == needed:
                out.append(finish(cells, start, OFF, me, False, 0, SPECIAL))
            elif why is not None:
                why.append((start, ANY, Violation(rule, (start,))))
            return
        if start == BEAUTY:
            if throw == 5:
                out.append(finish(cells, start, OFF, me, False, 0, SPECIAL))
                return
            target = BEAUTY + throw
            dest = target
            if cells[target]:
                dest = WATER if not cells[WATER] else first_empty_behind(cells, REBIRTH)
                if why is not None:
                    why.append((start, target, Violation("H.beauty", (dest,))))
            cells[dest] = me
            out.append(finish(cells, start, dest, me, False, 0, SPECIAL))
            return
        target = min(start + throw, BEAUTY)
        if why is not None and start + throw > BEAUTY:
            why.append((start, min(start + throw, OFF), Violation("H.beauty", (BEAUTY,))))
        block = pair_between(cells, start, target)
        if block:
            if why is not None:
                why.append((start, target, Violation("H.jump", block)))
            return
        move = self._land(cells, start, target, me, why)
        if move is not None:
            out.append(finish(move, start, target, me, throw in (1, 4, 5) and target < BEAUTY, 0, FORWARD))

    def _land(self, cells: list[int], start: int, target: int, me: int, why: Why | None) -> list[int] | None:
        """``cells`` (with ``start`` emptied) after landing on ``target``, or None (H.capture, H.houses)."""
        broken = None
        if cells[target] == me:
            broken = Violation("H.capture", (target,))
        elif cells[target]:
            if target >= BEAUTY:
                broken = Violation("H.houses", (target,))
            else:
                guard = houses_guard(cells, target, 3 - me)
                if guard:
                    broken = Violation("H.capture", (target, guard))
                else:
                    cells[start] = 3 - me
        if broken is not None:
            if why is not None:
                why.append((start, target, broken))
            return None
        cells[target] = me
        return cells

    def _overshoot(self, board: tuple[int, ...], start: int, throw: int, me: int, out: list[Move], why: Why | None) -> None:
        """H.overshoot: turn round on the farthest reachable empty square and spend the rest
        backward, or stop one short of the full throw's target (26 for a throw carrying the
        piece past it, H.beauty)."""
        target = min(start + throw, BEAUTY)
        turn = 0
        for step in range(1, throw):
            square = start + step
            if square > BEAUTY or (square - 2 > start and board[square - 1] and board[square - 2]):
                break
            if not board[square]:
                turn = square
        if not turn:
            return
        again = throw in (1, 4, 5)
        if turn == target - 1:
            cells = list(board)
            cells[start] = 0
            cells[turn] = me
            out.append(finish(cells, start, turn, me, again, 0, OVERSHOOT))
        back = turn - (throw - (turn - start))
        if back < 1 or back == start:
            return
        cells = list(board)
        cells[start] = 0
        block = pair_between(cells, back, turn)
        if block:
            if why is not None:
                why.append((start, back, Violation("H.jump", block)))
            return
        landed = self._land(cells, start, back, me, why)
        if landed is not None:
            out.append(finish(landed, start, back, me, again, 0, OVERSHOOT))
