"""A Senet position with a move stack, in the spirit of python-chess's ``Board``.

    >>> from senet.engine.variants import find_variant
    >>> position = Position.start(find_variant("netherworld"))
    >>> move = position.legal_moves(4)[0]
    >>> position.push(move)
    >>> position.turn, str(position.pop())
    (<Player.DARK: 1>, '8-12')
    >>> position.explain(2, 10, 11)
    [Violation(rule='N.throw', squares=(12,))]
"""

from __future__ import annotations

from dataclasses import dataclass

from senet.engine.board import format_board, parse_board, pieces_of
from senet.engine.layout import SQUARES
from senet.engine.moves import Move, Stage, Violation
from senet.engine.player import Player
from senet.engine.variants import Options, Variant, find_variant


class IllegalMoveError(ValueError):
    """A move the rules refuse; ``violations`` says which rules and squares."""

    def __init__(self, message: str, violations: list[Violation]) -> None:
        super().__init__(message)
        self.violations = violations


@dataclass(frozen=True)
class _Saved:
    board: tuple[int, ...]
    turn: Player | None
    mark: int
    winner: Player | None
    stage: Stage
    move: Move


class Position:
    """Board, player to move, mark, winner and stage, plus the stack of pushed moves.

    ``mark`` is the square of a piece that must be moved at its owner's next turn
    (kendall's and blockade's forced first moves, Ludii's piece out of the water); 0 for none.
    ``stage`` is the part of the turn to play (always :attr:`Stage.OWN` in the track games).
    """

    def __init__(
        self,
        variant: Variant,
        board: tuple[int, ...] | None = None,
        turn: Player | None = Player.DARK,
        mark: int = 0,
        winner: Player | None = None,
        stage: Stage = Stage.OWN,
    ) -> None:
        self.variant = variant
        self.board = variant.start_board() if board is None else board
        self.turn = turn
        self.mark = mark
        self.winner = winner
        self.stage = stage
        self._stack: list[_Saved] = []
        self._check()

    @classmethod
    def start(cls, variant: Variant | str) -> Position:
        """The set-up position, its first player to move, before any forced first move."""
        if isinstance(variant, str):
            variant = find_variant(variant)
        return cls(variant, turn=variant.first_player, mark=variant.opening_mark, stage=variant.first_stage)

    def _check(self) -> None:
        if len(self.board) != 32 or self.board[0] or self.board[31]:
            raise ValueError("a board is a tuple of 32 codes with empty sentinels at 0 and 31")
        for player in Player:
            count = self.board.count(player)
            if count > self.variant.pieces:
                raise ValueError(
                    f"{count} {player.label} pieces on the board; {self.variant.name} has {self.variant.pieces} a side"
                )
        if self.mark and not (self.mark in SQUARES and self.board[self.mark]):
            raise ValueError(f"must_move_from square {self.mark} holds no piece")

    # -- queries ---------------------------------------------------------------------

    def options(self, throw: int, touched: int = 0) -> Options:
        """The legal moves for ``throw`` and the pass, when one is allowed."""
        if self.turn is None:
            return Options([], None)
        if throw not in self.variant.throw_values:
            raise ValueError(
                f"{self.variant.name} has no throw of {throw}; its throws are "
                + ", ".join(map(str, sorted(self.variant.throw_values)))
            )
        return self.variant.legal(self.board, self.turn.value, self.mark, throw, touched, stage=self.stage)

    def legal_moves(self, throw: int, touched: int = 0) -> list[Move]:
        return self.options(throw, touched).moves

    def explain(self, throw: int, from_square: int, to_square: int, touched: int = 0) -> list[Violation]:
        """The rules a move from ``from_square`` to ``to_square`` breaks; [] when it is legal."""
        self.options(throw)  # validates the throw
        return self.variant.explain(self.board, self.turn.value if self.turn else 0, self.mark, throw, from_square, to_square,
                                    touched, self.stage)

    def find_move(self, throw: int, from_square: int, to_square: int, touched: int = 0) -> Move:
        """The legal move from/to these squares, or IllegalMoveError naming the broken rules."""
        for move in self.legal_moves(throw, touched):
            if move.from_square == from_square and move.to_square == to_square:
                return move
        violations = self.explain(throw, from_square, to_square, touched)
        names = ", ".join(str(v) for v in violations)
        raise IllegalMoveError(f"{from_square}-{to_square} with a throw of {throw} is illegal: {names}", violations)

    def pieces(self, player: Player) -> list[int]:
        return pieces_of(self.board, player)

    def off(self, player: Player) -> int:
        """How many of ``player``'s pieces are borne off."""
        return self.variant.pieces - self.board.count(player)

    @property
    def is_game_over(self) -> bool:
        return self.winner is not None

    @property
    def move_stack(self) -> list[Move]:
        return [saved.move for saved in self._stack]

    # -- changes ---------------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play a move (or a pass) taken from :meth:`options`."""
        self._stack.append(_Saved(self.board, self.turn, self.mark, self.winner, self.stage, move))
        self.board = move.after
        self.mark = move.mark
        self.stage = move.stage
        self.turn = Player(move.next_turn) if move.next_turn else None
        self.winner = Player(move.winner) if move.winner else None

    def pop(self) -> Move:
        """Take back the last move, restoring the position exactly."""
        saved = self._stack.pop()
        self.board, self.turn, self.mark, self.winner, self.stage = saved.board, saved.turn, saved.mark, saved.winner, saved.stage
        return saved.move

    def copy(self) -> Position:
        """A copy without the move stack."""
        return Position(self.variant, self.board, self.turn, self.mark, self.winner, self.stage)

    # -- text ------------------------------------------------------------------------

    def __str__(self) -> str:
        from senet.engine.notation import format_position

        return format_position(self)

    def __repr__(self) -> str:
        return f"<Position {self}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[object, ...]:
        return (self.variant.name, self.board, self.turn, self.mark, self.winner, self.stage)

    @property
    def board_text(self) -> str:
        return format_board(self.board)

    @classmethod
    def from_board_text(
        cls, variant: Variant | str, text: str, turn: Player = Player.DARK, mark: int = 0, stage: Stage = Stage.OWN
    ) -> Position:
        if isinstance(variant, str):
            variant = find_variant(variant)
        return cls(variant, parse_board(text), turn, mark, stage=stage)
