"""A whole game from the first throw: the start ritual, throws, moves, passes and undo.

    >>> game = Game("kendall")
    >>> game.throw(3), game.throw(1)          # the second seat throws the first 1: it plays dark
    (None, None)
    >>> [str(m) for m in game.options.moves]  # K.start: dark's first move is 10-11
    ['10-11']
    >>> str(game.play(10, 11)), game.position.turn.label
    ('10-11', 'dark')
"""

from __future__ import annotations

from senet.engine.moves import Move
from senet.engine.player import Player
from senet.engine.position import IllegalMoveError, Position
from senet.engine.record import GameRecord, Turn
from senet.engine.variants import Options, Variant, find_variant


class GameError(ValueError):
    """Something done out of turn: a move without a throw, a throw while a move is due."""


class Game:
    """Drives a :class:`Position` through the start ritual and the turns, keeping the record.

    Seats are the two people at the table: seat 0 throws first in the ritual. Whoever
    wins the ritual plays dark (``dark_seat``).
    """

    def __init__(self, variant: Variant | str) -> None:
        self.variant = find_variant(variant) if isinstance(variant, str) else variant
        self.position = Position.start(self.variant)
        self.start_throws: list[int] = []
        self.dark_seat: int | None = None
        self.turns: list[Turn] = []
        self.current_throw: int | None = None
        self._options: Options | None = None

    # -- state -----------------------------------------------------------------------

    @property
    def started(self) -> bool:
        """The start ritual is over."""
        return self.dark_seat is not None

    @property
    def seat_to_throw(self) -> int:
        """During the ritual: which seat throws next."""
        return len(self.start_throws) % 2

    @property
    def options(self) -> Options:
        """The options for the current throw (no moves while no throw is pending)."""
        return self._options or Options([], None)

    @property
    def is_over(self) -> bool:
        return self.position.is_game_over

    # -- actions ---------------------------------------------------------------------

    def throw(self, value: int) -> Move | None:
        """Record a throw. Returns the pass it forces, if the player cannot move."""
        if value not in self.variant.throw_values:
            raise GameError(f"{self.variant.name} has no throw of {value}")
        if self.is_over:
            raise GameError("the game is over")
        if not self.started:
            if self.variant.start_ritual != "first-one":
                raise GameError(f"{self.variant.name} starts by lot: call start_by_lot first")
            self.start_throws.append(value)
            if value == 1:
                self._finish_ritual(len(self.start_throws) - 1 & 1)
            return None
        if self.current_throw is not None:
            raise GameError(f"{self.position.turn.label} must first use the throw of {self.current_throw}")
        self.current_throw = value
        self._options = self.position.options(value)
        if not self._options.moves and self._options.pass_move is not None:
            return self._push(self._options.pass_move)
        return None

    def start_by_lot(self, seat: int) -> None:
        """Blockade's start: the seat drawn by lot plays dark and throws first."""
        if self.started:
            raise GameError("the game has started already")
        self._finish_ritual(seat)

    def _finish_ritual(self, seat: int) -> None:
        self.dark_seat = seat
        if self.variant.opening_jump:
            start, end = self.variant.opening_jump  # LK.start: the front piece jumps by itself
            cells = list(self.position.board)
            cells[start], cells[end] = 0, cells[start]
            self.position = Position(self.variant, tuple(cells), Player.DARK)
        if self.variant.deciding_one_played:
            self.current_throw = 1
            self._options = self.position.options(1)

    def play(self, from_square: int, to_square: int, touched: int = 0) -> Move:
        """Make a move with the current throw; IllegalMoveError names the broken rules."""
        if self.current_throw is None:
            raise GameError("throw the sticks before moving")
        if not touched and self._options is not None:
            for move in self._options.moves:
                if move.from_square == from_square and move.to_square == to_square:
                    return self._push(move)
        return self._push(self.position.find_move(self.current_throw, from_square, to_square, touched))

    def pass_turn(self) -> Move:
        """Decline to move, where the rules allow it (B.optional, N.water, LK.27)."""
        if self.current_throw is None or self._options is None or self._options.pass_move is None:
            raise IllegalMoveError("passing is not allowed now", [])
        return self._push(self._options.pass_move)

    def _push(self, move: Move) -> Move:
        assert self.current_throw is not None and self.position.turn is not None
        self.turns.append(Turn(self.position.turn, self.current_throw, move.from_square, move.to_square))
        self.position.push(move)
        self.current_throw = None
        self._options = None
        return move

    def undo(self) -> Turn:
        """Take back the last turn; its throw stays pending unless it was a forced pass."""
        if not self.turns:
            raise GameError("there is no move to take back")
        turn = self.turns.pop()
        self.position.pop()
        self.current_throw = None
        self._options = None
        options = self.position.options(turn.throw)
        if options.moves:
            self.current_throw, self._options = turn.throw, options
        return turn

    # -- records ---------------------------------------------------------------------

    @property
    def record(self) -> GameRecord:
        winner = self.position.winner
        return GameRecord(self.variant.name, tuple(self.start_throws), self.dark_seat, tuple(self.turns), winner)

    @classmethod
    def replay(cls, record: GameRecord) -> Game:
        """Play a record through the engine; GameError names the first turn that does not fit."""
        game = cls(record.variant)
        for value in record.start_throws:
            game.throw(value)
        if game.variant.start_ritual == "lots" and record.dark_seat is not None:
            game.start_by_lot(record.dark_seat)
        if record.turns and not game.started:
            raise GameError("the record's start ritual never decides who plays dark")
        for index, turn in enumerate(record.turns, 1):
            try:
                if game.position.turn is not turn.player:
                    turn_label = game.position.turn.label if game.position.turn else "nobody"
                    raise GameError(f"it is {turn_label}'s turn, the record says {turn.player.label}")
                if game.current_throw is None:
                    if game.throw(turn.throw) is not None:
                        if not turn.is_pass:
                            raise GameError("no move is possible with that throw: the turn passes")
                        continue
                elif game.current_throw != turn.throw:
                    raise GameError(f"the throw is {game.current_throw}, the record says {turn.throw}")
                if turn.is_pass:
                    game.pass_turn()
                else:
                    game.play(turn.from_square, turn.to_square)
            except IllegalMoveError as error:
                raise GameError(f"turn {index} ({turn}): {error}") from error
            except GameError as error:
                raise GameError(f"turn {index} ({turn}): {error}") from error
        if game.position.winner != record.winner:
            raise GameError(f"the record says the winner is {record.winner}, the game gives {game.position.winner}")
        return game
