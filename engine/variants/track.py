"""The swap-capture track games (kendall, swap-barrier, blockade) as one parametrised family.

They share one move: a piece goes exactly the throw forward (or backward when nothing
goes forward), may not pass a run of three opponent pieces, swaps with a lone opponent
unless that stands on a safe square, and falls from the House of Water (27) back down
the track. The subclasses say where it falls, how a piece leaves the board and who
throws next.
"""

from __future__ import annotations

from typing import ClassVar

from senet.engine.board import pieces_of
from senet.engine.moves import BACKWARD, FORWARD, OFF, WATER, Move, Violation
from senet.engine.variants.base import Options, Variant, Why, carry_mark, finish, guard_of, pass_move, run_between

WATER_SQUARE = 27


class SwapTrackVariant(Variant):
    """One throw, one piece, swap captures; the subclass hooks are below."""

    safe: ClassVar[frozenset[int]]
    #: A piece leaves with exactly the throw that reaches "square 31" (else: 30 or beyond).
    exact_exit: ClassVar[bool] = True
    #: A move into the water is allowed only when no other move exists.
    water_last_resort: ClassVar[bool] = False
    #: A player with no move at all loses (else the turn passes).
    stuck_loses: ClassVar[bool] = False
    #: The mark that follows a forced move (kendall: dark's 10-11, then light's piece on 9).
    mark_after: ClassVar[dict[int, int]] = {}
    jump_rule: ClassVar[str]
    own_rule: ClassVar[str]
    capture_rule: ClassVar[str]
    safe_rule: ClassVar[str]
    water_rule: ClassVar[str]
    exit_rule: ClassVar[str]
    backward_rule: ClassVar[str]

    # -- hooks -------------------------------------------------------------------------

    def water_square(self, cells: list[int]) -> int:
        """Where a piece that ended on 27 goes (``cells`` has 27 and its origin cleared)."""
        raise NotImplementedError

    def exit_refused(self, board: tuple[int, ...], me: int, from_square: int) -> Violation | None:
        """A rule that forbids bearing off now (barrier, home row), or None."""
        return None

    def again(self, throw: int, final: int) -> bool:
        """Whether the mover throws again after a move of ``throw`` ending on ``final``."""
        return False

    def may_decline(self, board: tuple[int, ...], me: int, moves: list[Move]) -> bool:
        """Whether the player may pass although ``moves`` exist (blockade's endgame)."""
        return False

    # -- move generation ---------------------------------------------------------------

    def _step(
        self, board: tuple[int, ...], start: int, throw: int, forward: bool, me: int, mark: int,
        out: list[Move], why: Why | None,
    ) -> None:
        """Append the move of the piece on ``start`` (or record why there is none)."""
        opp = 3 - me
        if forward:
            target = start + throw
            if target >= OFF or (not self.exact_exit and target >= 30):
                self._bear_off(board, start, throw, me, mark, out, why, target)
                return
            low, high, kind = start, target, FORWARD
        else:
            target = start - throw
            if target < 1:
                return
            low, high, kind = target, start, BACKWARD
        block = run_between(board, low, high, opp, 3)
        if block:
            if why is not None:
                why.append((start, target, Violation(self.jump_rule, block)))
            return
        there = board[target]
        if there == me:
            if why is not None:
                why.append((start, target, Violation(self.own_rule, (target,))))
            return
        cells = list(board)
        cells[start] = 0
        if there:
            if target in self.safe:
                if why is not None:
                    why.append((start, target, Violation(self.safe_rule, (target,))))
                return
            guard = guard_of(board, target, opp)
            if guard:
                if why is not None:
                    why.append((start, target, Violation(self.capture_rule, (target, guard))))
                return
            cells[start], cells[target] = opp, 0
        final = target
        if target == WATER_SQUARE:
            final = self.water_square(cells)
            if self.water_last_resort:
                kind = WATER
            if why is not None:
                why.append((start, target, Violation(self.water_rule, (final,))))
        cells[final] = me
        mark = start if there and mark == target else carry_mark(mark, start, final)
        out.append(finish(cells, start, final, me, self.again(throw, final), mark, kind))

    def _bear_off(
        self, board: tuple[int, ...], start: int, throw: int, me: int, mark: int,
        out: list[Move], why: Why | None, target: int,
    ) -> None:
        broken = None
        if target > OFF and self.exact_exit:
            broken = Violation(self.exit_rule, (start,))
        else:
            broken = self.exit_refused(board, me, start)
            block = run_between(board, start, OFF, 3 - me, 3)
            if broken is None and block:
                broken = Violation(self.jump_rule, block)
        if broken is not None:
            if why is not None:
                why.append((start, OFF, broken))
            return
        cells = list(board)
        cells[start] = 0
        out.append(finish(cells, start, OFF, me, self.again(throw, OFF), carry_mark(mark, start, OFF), FORWARD))

    def options(self, board: tuple[int, ...], me: int, mark: int, throw: int, why: Why | None = None) -> Options:
        pieces = pieces_of(board, me)
        forward: list[Move] = []
        for square in pieces:
            self._step(board, square, throw, True, me, mark, forward, why)
        moves = [m for m in forward if m.kind == FORWARD]
        backward: list[Move] = []
        if not moves or why is not None:
            for square in pieces:
                self._step(board, square, throw, False, me, mark, backward, why)
        if not moves:
            moves = [m for m in backward if m.kind == BACKWARD]
        elif why is not None:
            movers = tuple(sorted({m.from_square for m in moves}))
            why.extend((m.from_square, m.to_square, Violation(self.backward_rule, movers)) for m in backward)
        water = [m for m in forward + backward if m.kind == WATER]
        if not moves:
            moves = water
        elif why is not None:
            why.extend((m.from_square, 27, Violation(self.water_rule, (27,))) for m in water)
        active = mark if mark and board[mark] == me else 0
        if active:
            forced = [m._replace(mark=self.mark_after.get(active, 0)) for m in moves if m.from_square == active]
            if forced:
                if why is not None:
                    why.extend(
                        (m.from_square, m.to_square, Violation(self.start_rule, (active,)))
                        for m in moves if m.from_square != active
                    )
                moves = forced
            else:
                moves = [m._replace(mark=0) for m in moves]
        after_pass = 0 if active else mark
        if not moves:
            return Options(moves, pass_move(board, 3 - me, after_pass, loser=me if self.stuck_loses else 0))
        if self.may_decline(board, me, moves):
            return Options(moves, pass_move(board, 3 - me, after_pass))
        return Options(moves, None)
