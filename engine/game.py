"""A whole game from the first throw: the start ritual, throws, moves, passes and undo.

    >>> game = Game("kendall")
    >>> game.throw(3), game.throw(1)          # the second seat throws the first 1: it plays dark
    (None, None)
    >>> [str(m) for m in game.options.moves]  # K.start: dark's first move is 10-11
    ['10-11']
    >>> str(game.play(10, 11)), game.position.turn.label
    ('10-11', 'dark')

The grid games play each turn in parts, each part one move with its own number:

    >>> game = Game("pharao")
    >>> game.throw(Dice(own=1, other=2))
    >>> str(game.play(5, 6)), game.position.stage.word, game.current_throw
    ('5-6', 'other', 2)
    >>> str(game.play(20, 18)), game.position.turn.label, game.needs_throw
    ('20-18', 'dark', True)
"""

from __future__ import annotations

from senet.engine.layout import SQUARES
from senet.engine.moves import Move, Stage
from senet.engine.player import Player
from senet.engine.position import IllegalMoveError, Position
from senet.engine.record import GameRecord, Turn
from senet.engine.throws import Dice, DiceThrows, NoThrows
from senet.engine.variants import Options, StartRitual, Variant, find_variant


class GameError(ValueError):
    """Something done out of turn: a move without a throw, a throw while a move is due."""


class Game:
    """Drives a :class:`Position` through the start ritual and the turns, keeping the record.

    Seats are the two people at the table: seat 0 throws first in the ritual. Whoever
    wins the ritual plays dark (``dark_seat``); without a ritual seat 0 plays dark.

    ``current_throw`` is the number the part of the turn now due moves (the sticks' value;
    in PHARAO the own die, then the other die, 3 for a rescue; in RAMSES 0, as the position
    sets each distance), or None while a throw is awaited. A grid game's parts that the rules
    decide alone (a thrown 0, a piece drowning, a player with no move) are played at once.
    """

    def __init__(self, variant: Variant | str) -> None:
        self.variant = find_variant(variant) if isinstance(variant, str) else variant
        self.position = Position.start(self.variant)
        self.start_throws: list[int] = []
        self.dark_seat: int | None = 0 if self.variant.start_ritual is StartRitual.NONE else None
        self.turns: list[Turn] = []
        self.current_throw: int | None = None
        #: The dice of the turn in progress (PHARAO), and the dice when each turn of ``turns`` was played.
        self.dice: Dice | None = None
        self._dice_played: list[Dice | None] = []
        self._options: Options | None = None
        if self.in_parts:
            self.ready_part()

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

    @property
    def in_parts(self) -> bool:
        """A grid game: own piece, then an opponent piece, the rules playing forced parts."""
        return self.variant.in_parts

    @property
    def needs_throw(self) -> bool:
        """The next thing to happen is a throw."""
        return not self.is_over and self.current_throw is None and not isinstance(self.variant.throws, NoThrows)

    # -- actions ---------------------------------------------------------------------

    def throw(self, value: int | Dice) -> Move | None:
        """Record a throw (a number, or PHARAO's :class:`Dice`). Returns the pass it forces, if
        the player cannot move (a grid game: the first part the rules played alone)."""
        if isinstance(self.variant.throws, DiceThrows | NoThrows):
            return self._throw_dice(value)
        if value not in self.variant.throw_values:
            raise GameError(f"{self.variant.name} has no throw of {value}")
        if self.is_over:
            raise GameError("the game is over")
        if not self.started:
            if self.variant.start_ritual is not StartRitual.FIRST_ONE:
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

    def _throw_dice(self, value: int | Dice) -> Move | None:
        throws = self.variant.throws
        if not isinstance(throws, DiceThrows):
            raise GameError(f"nothing is thrown in {self.variant.name}: the position sets how far each piece goes")
        if not isinstance(value, Dice) or not throws.allows(value):
            raise GameError(f"{self.variant.name} throws two dice: own {sorted(set(throws.own_faces))}, "
                            f"other {sorted(set(throws.other_faces))}; not {value}")
        if self.is_over:
            raise GameError("the game is over")
        if not self.needs_throw:
            raise GameError(f"{self.position.turn.label} must first finish the turn with the dice {self.dice}")
        self.dice = value
        played = len(self.turns)
        self.ready_part()
        return self.position.move_stack[played] if len(self.turns) > played else None

    def ready_part(self) -> None:
        """A grid game: ready the part now due (after a throw, a move, an undo or a position set
        by hand), playing at once every part the rules decide alone."""
        while not self.is_over:
            self.current_throw = part_number(self.variant, self.position.stage, self.dice)
            if self.current_throw is None:
                self._options = None
                return
            self._options = self.position.options(self.current_throw)
            if self._options.moves or self._options.pass_move is None:
                return
            self._record(self._options.pass_move)
        self.current_throw, self._options = None, None

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
        self._record(move)
        if self.in_parts:
            self.ready_part()
        else:
            self.current_throw = None
            self._options = None
        return move

    def _record(self, move: Move) -> None:
        assert self.current_throw is not None and self.position.turn is not None
        number = self.current_throw
        if self.in_parts and move.from_square in SQUARES:
            number = self.variant.steps(self.position.board, move.from_square, number)  # RAMSES: the distance
        self.turns.append(Turn(self.position.turn, number, move.from_square, move.to_square, self.position.stage))
        self._dice_played.append(self.dice)
        self.position.push(move)
        if self.position.stage is Stage.OWN:
            self.dice = None  # a new turn begins: it throws again

    def undo(self) -> Turn:
        """Take back the last turn; its throw stays pending unless it was a forced pass.
        In a grid game: the last part a player chose, with every part the rules played after it."""
        if self.in_parts:
            return self._undo_part()
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

    def _undo_part(self) -> Turn:
        if all(turn.is_pass for turn in self.turns):
            raise GameError("there is no move to take back")
        while True:
            turn = self.turns.pop()
            self.dice = self._dice_played.pop()
            self.position.pop()
            if not turn.is_pass:
                break
        self.ready_part()
        return turn

    # -- records ---------------------------------------------------------------------

    @property
    def record(self) -> GameRecord:
        winner = self.position.winner
        seat = None if self.variant.start_ritual is StartRitual.NONE else self.dark_seat
        return GameRecord(self.variant.name, tuple(self.start_throws), seat, tuple(self.turns), winner)

    @classmethod
    def replay(cls, record: GameRecord) -> Game:
        """Play a record through the engine; GameError names the first turn that does not fit."""
        game = cls(record.variant)
        for value in record.start_throws:
            game.throw(value)
        if game.variant.start_ritual is StartRitual.LOTS and record.dark_seat is not None:
            game.start_by_lot(record.dark_seat)
        if record.turns and not game.started:
            raise GameError("the record's start ritual never decides who plays dark")
        if game.in_parts:
            game._replay_parts(record.turns)
        for index, turn in enumerate(() if game.in_parts else record.turns, 1):
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
            except (IllegalMoveError, GameError) as error:
                raise GameError(f"turn {index} ({turn}): {error}") from error
        if game.position.winner != record.winner:
            raise GameError(f"the record says the winner is {record.winner}, the game gives {game.position.winner}")
        return game

    def _replay_parts(self, turns: tuple[Turn, ...]) -> None:
        """Play a grid game's recorded parts; the parts the rules play alone must be recorded as played."""
        for index, turn in enumerate(turns):
            try:
                if index == len(self.turns) and self.needs_throw and turn.player is self.position.turn:
                    self.throw(Dice(turn.throw, other_die(turns, index)))
                if index < len(self.turns):
                    if self.turns[index] != turn:
                        raise GameError(f"the rules play {self.turns[index]} here")
                    continue
                if self.position.turn is not turn.player or self.position.stage is not turn.stage:
                    due = f"{self.position.turn.label} {self.position.stage.word}" if self.position.turn else "nobody"
                    raise GameError(f"the part due is {due}, the record says {turn.player.label} {turn.stage.word}")
                if turn.is_pass:
                    self.pass_turn()
                    continue
                self.play(turn.from_square, turn.to_square)
                if self.turns[index].throw != turn.throw:
                    raise GameError(f"that piece goes {self.turns[index].throw} steps, the record says {turn.throw}")
            except (IllegalMoveError, GameError) as error:
                raise GameError(f"turn {index + 1} ({turn}): {error}") from error


def part_number(variant: Variant, stage: Stage, dice: Dice | None) -> int | None:
    """The number a grid game's part moves: the own or the other die, 3 for PHARAO's rescue, 0 in
    RAMSES (the position sets the distance); None while the dice are awaited.

        >>> part_number(find_variant("pharao"), Stage.OTHER, Dice(3, 1))
        1
    """
    if isinstance(variant.throws, NoThrows):
        return 0
    if stage is Stage.RESCUE:
        return 3
    if dice is None:
        return None
    return dice.other if stage is Stage.OTHER else dice.own


def other_die(turns: tuple[Turn, ...], index: int) -> int:
    """The other die of the turn whose own part is ``turns[index]``: the number its OTHER part moved."""
    for turn in turns[index + 1:]:
        if turn.stage is Stage.OWN:
            break
        if turn.stage is Stage.OTHER:
            return turn.throw
    return 0
