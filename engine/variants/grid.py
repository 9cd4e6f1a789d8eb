"""What the grid games (PHARAO, RAMSES) share: paths over a layout's cells, and turns in parts.

A grid game's piece walks a *path* of single steps between neighbouring cells (left,
right, up, down; never diagonal), touching no cell twice, and ends on an empty cell.
A long cell counts as one cell: a path passes through it from a short end out to a long
side or the reverse; a piece that stops on it stands on one of its squares (which third),
and later leaves by a neighbour beside that third or by a short end.

Every turn has two parts: the mover moves an own piece (:attr:`Stage.OWN`), then one of
the opponent's pieces (:attr:`Stage.OTHER`). Paths do not depend on what stands on the
squares they pass, so they are computed once per layout, start and length.

    >>> from senet.engine.layout import SENET, find_layout
    >>> sorted(path_ends(SENET, 1, 2))
    [3, 19, 21]
    >>> ramses = find_layout("ramses")
    >>> sorted(path_ends(ramses, 14, 1))   # into the long cell 11-13 from its short end: any third
    [7, 11, 12, 13, 15, 27]
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache
from typing import ClassVar

from senet.engine.board import pieces_of
from senet.engine.layout import Layout
from senet.engine.moves import FORWARD, PASS, PASSING, Move, Stage, Violation
from senet.engine.variants.base import ANY, Options, StartRitual, Variant, Why, named_in


class Entry(Enum):
    """How a piece came into the cell it is in."""

    STANDING = 0  # it stood there when the move began
    END = 1  # into a single square, or into a long cell across a short end
    SIDE = 2  # into a long cell across a long side


def _exits(layout: Layout, square: int, entry: Entry) -> tuple[int, ...]:
    """The squares one step on from ``square`` (R.long: through a long cell from end to side)."""
    cell = layout.cell_of(square)
    if len(cell) == 1:
        return layout.neighbours(square)
    if entry is Entry.END:
        return tuple(side for s in cell for side in layout.sides(s))
    if entry is Entry.SIDE:
        return layout.short_ends(cell)
    return layout.sides(square) + layout.short_ends(cell)


def _entering(layout: Layout, came_from: int, square: int) -> tuple[tuple[int, ...], Entry]:
    """Where a piece stepping from ``came_from`` into ``square``'s cell may stand, and how it entered."""
    cell = layout.cell_of(square)
    if len(cell) == 1 or came_from in layout.short_ends(cell):
        return cell, Entry.END
    return (square,), Entry.SIDE


@lru_cache(maxsize=4096)
def path_ends(layout: Layout, start: int, steps: int) -> dict[int, tuple[int, ...]]:
    """Every square a piece on ``start`` can stop on after exactly ``steps`` steps, with one
    path there (the squares stepped into); no cell is touched twice, whatever stands on it."""
    ends: dict[int, tuple[int, ...]] = {}

    def walk(square: int, entry: Entry, visited: frozenset[tuple[int, ...]], trail: tuple[int, ...]) -> None:
        for step in _exits(layout, square, entry):
            cell = layout.cell_of(step)
            if cell in visited:
                continue
            stops, entered = _entering(layout, square, step)
            if len(trail) + 1 == steps:
                for stop in stops:
                    ends.setdefault(stop, (*trail, stop))
            else:
                walk(step, entered, visited | {cell}, (*trail, step))

    if steps > 0:
        walk(start, Entry.STANDING, frozenset({layout.cell_of(start)}), ())
    return ends


@lru_cache(maxsize=4096)
def walk_ends(layout: Layout, start: int, steps: int, free: tuple[int, ...] = ()) -> frozenset[int]:
    """Squares reached by ``steps`` steps when a cell may be touched again, and the long cell
    ``free`` may be entered and left by any neighbour. Set against :func:`path_ends`, they tell
    which rule a refused move broke (the path touched a cell twice; a long cell's way through)."""
    here = {(start, Entry.STANDING)}
    for _ in range(steps):
        after = set()
        for square, entry in here:
            cell = layout.cell_of(square)
            if cell == free:
                exits = tuple(n for s in cell for n in layout.neighbours(s) if n not in cell)
            else:
                exits = _exits(layout, square, entry)
            for step in exits:
                stops, entered = _entering(layout, square, step)
                if layout.cell_of(step) == free:
                    stops = free
                after |= {(stop, entered) for stop in stops}
        here = after
    return frozenset(square for square, _ in here)


class GridVariant(Variant):
    """A game of two-part turns on a layout's cells. Subclasses say how far a piece goes,
    which pieces may not move, what ends a part, and what happens when nothing can move."""

    pieces = 4
    in_parts = True
    dark_start = ()
    light_start = ()
    start_ritual = StartRitual.NONE
    #: The rule of paths (touch no cell twice, end on an empty cell).
    path_rule: ClassVar[str]
    #: The rule of long cells ("" where the layout has none).
    long_rule: ClassVar[str] = ""

    # -- hooks --------------------------------------------------------------------------

    def steps(self, board: tuple[int, ...], square: int, throw: int) -> int:
        """How many steps the piece on ``square`` goes in this part: the throw, unless the rules
        count it from the position."""
        return throw

    def held(self, board: tuple[int, ...], me: int, square: int, stage: Stage) -> Violation | None:
        """The rule that keeps the piece on ``square`` from moving in this part, or None."""
        return None

    def last_resort(self, me: int, stage: Stage, square: int) -> Violation | None:
        """The rule that allows ending on ``square`` only when nothing else moves, or None."""
        return None

    def part_over(self, cells: list[int], me: int, stage: Stage, moved_to: int) -> tuple[int, int, Stage]:
        """Finish a part that left ``cells`` (the hook may change them: a piece drowns).
        Returns (who moves next, winner or 0, the stage that follows)."""
        raise NotImplementedError

    def stuck(self, board: tuple[int, ...], me: int, stage: Stage, throw: int) -> Move:
        """The pass when this part has no move; by default the mover loses (P.must, R.win)."""
        return Move(PASS, PASS, board, 0, 0, 3 - me, PASSING, stage)

    def placements(self, board: tuple[int, ...], me: int, why: Why | None) -> Options:
        """The legal placements (games that begin by placing their pieces)."""
        raise NotImplementedError

    # -- moves --------------------------------------------------------------------------

    def movers(self, board: tuple[int, ...], me: int, stage: Stage) -> list[int]:
        """The squares of the pieces this part moves: the opponent's in OTHER, else the mover's."""
        return pieces_of(board, 3 - me if stage is Stage.OTHER else me)

    def occupant(self, board: tuple[int, ...], square: int) -> int:
        """The square of the piece in ``square``'s cell (a long cell holds one piece anywhere in it), or 0."""
        return next((s for s in self.layout.cell_of(square) if board[s]), 0)

    def options(self, board: tuple[int, ...], me: int, mark: int, throw: int, why: Why | None = None) -> Options:
        return self.legal(board, me, mark, throw, why=why)

    def legal(
        self, board: tuple[int, ...], me: int, mark: int, throw: int, touched: int = 0, why: Why | None = None,
        stage: Stage = Stage.OWN,
    ) -> Options:
        if stage is Stage.PLACE:
            return self.placements(board, me, why)
        moves: list[Move] = []
        resort: list[Move] = []
        for start in self.movers(board, me, stage):
            held = self.held(board, me, start, stage)
            if held is not None:
                if why is not None:
                    why.append((start, ANY, held))
                continue
            for end in path_ends(self.layout, start, self.steps(board, start, throw)):
                taken = self.occupant(board, end)
                if taken:
                    if why is not None:
                        why.append((start, end, Violation(self.path_rule, (taken,), "occupied")))
                    continue
                late = self.last_resort(me, stage, end)
                (resort if late else moves).append(self._move(board, me, stage, start, end))
                if late and why is not None:
                    why.append((start, end, late))
        moves = moves or resort
        if moves:
            return Options(moves, None)
        return Options([], self.stuck(board, me, stage, throw))

    def _move(self, board: tuple[int, ...], me: int, stage: Stage, start: int, end: int) -> Move:
        cells = list(board)
        cells[start], cells[end] = 0, cells[start]
        turn, winner, after = self.part_over(cells, me, stage, end)
        return Move(start, end, tuple(cells), turn, 0, winner, FORWARD, after)

    def skip(self, board: tuple[int, ...], me: int, stage: Stage) -> Move:
        """The part passes without a move (a thrown 0, a piece the water keeps), and ends as parts do."""
        cells = list(board)
        turn, winner, after = self.part_over(cells, me, stage, PASS)
        return Move(PASS, PASS, tuple(cells), turn, 0, winner, PASSING, after)

    # -- explanations ----------------------------------------------------------------

    def explain(
        self, board: tuple[int, ...], me: int, mark: int, throw: int, from_square: int, to_square: int, touched: int = 0,
        stage: Stage = Stage.OWN,
    ) -> list[Violation]:
        """The rules a move from ``from_square`` to ``to_square`` in this part breaks ([] if legal)."""
        if not me:
            return [Violation(self.win_rule, ())]
        why: Why = []
        options = self.legal(board, me, mark, throw, why=why, stage=stage)
        if any(m.from_square == from_square and m.to_square == to_square for m in options.moves):
            return []
        if stage is Stage.PLACE:
            return [v for _, t, v in why if t == to_square][:1] or [Violation(self.start_rule, (to_square,))]
        if from_square not in self.movers(board, me, stage):
            return [Violation(self.turn_rule, (from_square,))]
        found = named_in(why, from_square, to_square)
        if found:
            return found
        steps = self.steps(board, from_square, throw)
        if to_square in walk_ends(self.layout, from_square, steps):
            return [Violation(self.path_rule, (from_square, to_square), "twice")]  # only by touching a cell twice
        for cell in self.layout.long_cells:
            if to_square in walk_ends(self.layout, from_square, steps, cell):
                return [Violation(self.long_rule, cell)]  # only by crossing the long cell another way
        return [Violation(self.distance_rule, tuple(sorted(path_ends(self.layout, from_square, steps))), "steps")]

