"""What every track variant shares: the Variant interface, board helpers and explanations.

A variant turns (board, player to move, mark, throw) into :class:`Options`: the legal
moves and, when allowed, a pass. Given a ``why`` list it also records every move the
rules refuse, as ``(from, target, Violation)``, which :meth:`Variant.explain` reads.

    >>> from senet.engine.variants import find_variant
    >>> kendall = find_variant("kendall")
    >>> board = kendall.start_board()
    >>> [str(m) for m in kendall.options(board, 1, 10, 1).moves]
    ['10-11']
    >>> kendall.explain(board, 1, 10, 1, 8, 9)
    [Violation(rule='K.start', squares=(10,))]
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, NamedTuple

from senet.engine.board import board_from_squares
from senet.engine.layout import SENET, SQUARES, Layout
from senet.engine.moves import OFF, PASS, PASSING, Move, Stage, Violation
from senet.engine.player import Player
from senet.engine.throws import StickThrows, ThrowKind

#: Entries a variant adds to ``why``: (from square, target square, broken rule).
Why = list[tuple[int, int, Violation]]
#: A ``why`` target meaning "wherever this piece goes".
ANY = -1


def named_in(why: Why, from_square: int, to_square: int) -> list[Violation]:
    """The rules ``why`` names for moving ``from_square`` to ``to_square``, each once.

    >>> rule = Violation("K.safe", (7,))
    >>> named_in([(5, 7, rule), (5, ANY, rule), (6, 7, Violation("K.exact", (6,)))], 5, 7)
    [Violation(rule='K.safe', squares=(7,))]
    """
    return list(dict.fromkeys(v for f, t, v in why if f == from_square and t in (to_square, ANY)))


class Options(NamedTuple):
    """The legal moves for one throw, and the pass when the rules allow one."""

    moves: list[Move]
    pass_move: Move | None

    @property
    def stuck(self) -> str | None:
        """What happens when no move exists: ``'pass'``, ``'loses'``, or None if moves exist."""
        if self.moves:
            return None
        if self.pass_move is None:
            return None
        return "loses" if self.pass_move.winner else "pass"

    @property
    def may_pass(self) -> bool:
        """Passing is allowed although moves exist."""
        return bool(self.moves) and self.pass_move is not None


class StartRitual(StrEnum):
    """How a game decides who begins."""

    #: Throw in turn until someone throws a 1; that seat plays dark.
    FIRST_ONE = "first-one"
    #: The seat that plays dark is drawn by lot.
    LOTS = "lots"
    #: The rules say who begins (``Variant.first_player``); there is nothing to decide.
    NONE = "none"


class Variant:
    """A rule system. Subclasses set the class attributes and implement ``options``."""

    name: ClassVar[str]
    prefix: ClassVar[str]
    description: ClassVar[str]
    #: The board the game is played on.
    layout: Layout = SENET
    pieces: ClassVar[int] = 5
    zero_value: ClassVar[int]
    dark_start: ClassVar[tuple[int, ...]] = (2, 4, 6, 8, 10)
    light_start: ClassVar[tuple[int, ...]] = (1, 3, 5, 7, 9)
    start_ritual: ClassVar[StartRitual] = StartRitual.FIRST_ONE
    #: Who moves first once the game has begun.
    first_player: ClassVar[Player] = Player.DARK
    #: The part of the turn a game begins in (RAMSES begins by placing its pieces).
    first_stage: ClassVar[Stage] = Stage.OWN
    #: Turns come in parts: an own piece, then an opponent's (the grid games).
    in_parts: ClassVar[bool] = False
    #: The deciding 1 of the ritual is dark's first throw (it must move ``opening_mark``).
    deciding_one_played: ClassVar[bool] = False
    #: The piece dark must move first (0: any).
    opening_mark: ClassVar[int] = 0
    #: A move the rules make by themselves when the ritual ends (Ludii's front-piece jump).
    opening_jump: ClassVar[tuple[int, int] | None] = None
    touch_move: ClassVar[bool] = False
    # Rule IDs for the generic explanations.
    turn_rule: ClassVar[str]
    distance_rule: ClassVar[str]
    start_rule: ClassVar[str]
    win_rule: ClassVar[str]

    # -- the interface -------------------------------------------------------------

    @property
    def throws(self) -> ThrowKind:
        """What a turn throws (the track games: four sticks)."""
        return StickThrows(self.zero_value)

    @property
    def throw_values(self) -> frozenset[int]:
        """The numbers one move can be asked to go."""
        return self.throws.values

    @property
    def rule_prefix(self) -> str:
        return self.prefix

    @property
    def throw_rule(self) -> str:
        """The rule a move made before the throw breaks."""
        return f"{self.prefix}.throw"

    def start_board(self) -> tuple[int, ...]:
        return board_from_squares(self.dark_start, self.light_start)

    def calibration_board(self) -> tuple[int, ...]:
        """Where the pieces stand while the camera learns what they look like: the start position,
        unless the game starts with too few pieces on the board to learn from (RAMSES)."""
        return self.start_board()

    def options(self, board: tuple[int, ...], me: int, mark: int, throw: int, why: Why | None = None) -> Options:
        raise NotImplementedError

    def legal(
        self, board: tuple[int, ...], me: int, mark: int, throw: int, touched: int = 0, why: Why | None = None,
        stage: Stage = Stage.OWN,
    ) -> Options:
        """``options`` with touch-move applied (for variants that have it). The track games
        have one stage; the grid games override this to read it."""
        options = self.options(board, me, mark, throw, why)
        if self.touch_move and touched and board[touched] == me:
            held = [move for move in options.moves if move.from_square == touched]
            if held:
                if why is not None:
                    why.extend(
                        (m.from_square, m.to_square, Violation(f"{self.prefix}.touch", (touched,)))
                        for m in options.moves
                        if m.from_square != touched
                    )
                return Options(held, options.pass_move)
        return options

    def explain(
        self, board: tuple[int, ...], me: int, mark: int, throw: int, from_square: int, to_square: int, touched: int = 0,
        stage: Stage = Stage.OWN,
    ) -> list[Violation]:
        """The rules that moving ``from_square`` to ``to_square`` breaks ([] if legal)."""
        if not me:
            return [Violation(self.win_rule, ())]
        if from_square not in SQUARES or board[from_square] != me:
            return [Violation(self.turn_rule, (from_square,))]
        why: Why = []
        options = self.legal(board, me, mark, throw, touched, why)
        if any(m.from_square == from_square and m.to_square == to_square for m in options.moves):
            return []
        found = named_in(why, from_square, to_square)
        if found:
            return found
        targets = {m.to_square for m in options.moves if m.from_square == from_square}
        if not targets:
            targets = {t for f, t, _ in why if f == from_square and 1 <= t <= OFF}
        return [Violation(self.distance_rule, tuple(sorted(targets)))]

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"


# -- board helpers shared by the variants -------------------------------------------


def guard_of(board: tuple[int, ...] | list[int], square: int, colour: int) -> int:
    """A neighbour on the path holding ``colour`` (the piece guarding ``square``), else 0."""
    if square > 1 and board[square - 1] == colour:
        return square - 1
    if square < 30 and board[square + 1] == colour:
        return square + 1
    return 0


def run_between(board: tuple[int, ...], low: int, high: int, colour: int, length: int) -> tuple[int, ...]:
    """The first ``length`` consecutive ``colour`` pieces strictly between two squares."""
    count = 0
    for square in range(low + 1, high):
        if board[square] == colour:
            count += 1
            if count == length:
                return tuple(range(square - length + 1, square + 1))
        else:
            count = 0
    return ()


def first_empty_from(board: list[int], square: int) -> int:
    """``square`` or, if occupied, the first empty square after it."""
    while board[square]:
        square += 1
    return square


def pair_between(board: tuple[int, ...] | list[int], low: int, high: int) -> tuple[int, ...]:
    """The first two consecutive occupied squares (any colours) strictly between two squares."""
    for square in range(low + 2, high):
        if board[square] and board[square - 1]:
            return (square - 1, square)
    return ()


def first_empty_behind(board: list[int], square: int) -> int:
    """``square`` or, if occupied, the first empty square behind it (lower numbers)."""
    while square > 1 and board[square]:
        square -= 1
    return square


def finish(cells: list[int], from_square: int, to_square: int, me: int, again: bool, mark: int, kind: int) -> Move:
    """Build the Move for a changed board, ending the game if ``me`` has no piece left."""
    if to_square == OFF and me not in cells:
        return Move(from_square, to_square, tuple(cells), 0, 0, me, kind)
    return Move(from_square, to_square, tuple(cells), me if again else 3 - me, mark, 0, kind)


def pass_move(board: tuple[int, ...], next_turn: int, mark: int, loser: int = 0) -> Move:
    """A pass: nothing moves; ``loser`` set when being stuck loses the game."""
    if loser:
        return Move(PASS, PASS, board, 0, 0, 3 - loser, PASSING)
    return Move(PASS, PASS, board, next_turn, mark, 0, PASSING)


def carry_mark(mark: int, moved_from: int, moved_to: int) -> int:
    """Where a marked piece stands after it (or a piece swapped with it) moved."""
    if mark == moved_from:
        return 0 if moved_to == OFF else moved_to
    return mark
