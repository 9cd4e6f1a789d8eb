"""The referee: judges what happens on a real board, one settled event at a time.

Pure: it gets settled throws, settled boards (30 characters, ``?`` where the camera is
unsure) and button presses, and answers with verdicts. It never touches hardware.

    >>> referee = Referee("netherworld")
    >>> [v.event for v in referee.throw(1)]          # the first 1 decides: dark starts
    ['throw', 'start']
    >>> [v.event for v in referee.throw(3)]
    ['throw']
    >>> verdict = referee.board("LDLDLDLDL.." + "D" + "." * 18)[0]   # 10 -> 12 with a throw of 3
    >>> verdict.event, verdict.rules
    ('illegal', ('N.throw',))
    >>> [v.event for v in referee.board("LDLDLDLDL..." + "D" + "." * 17)]
    ['move']

In the grid games a turn comes in parts; the referee accepts each part as it settles, or a
whole turn at once, and names the part that went wrong:

    >>> referee = Referee("pharao")
    >>> [v.event for v in referee.throw_dice(Dice(1, 2))]
    ['throw']
    >>> [(v.event, v.stage.word) for v in referee.board(".LLL.L.............DDDD......."[:30])]
    [('move', 'own')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from senet.engine.board import format_board, parse_board
from senet.engine.game import Game, GameError, part_number
from senet.engine.layout import SQUARES
from senet.engine.moves import OFF, Move, Stage, Violation
from senet.engine.player import Player
from senet.engine.position import IllegalMoveError, Position
from senet.engine.rulebook import describe_violation
from senet.engine.throws import Dice, DiceThrows, StickThrows, throw_value
from senet.engine.turn_parts import changed, explaining_parts
from senet.engine.variants import StartRitual, Variant, find_variant

MOVE_ON = "move the piece on {from} to {to}"


@dataclass(frozen=True)
class Verdict:
    """What the referee decided. ``event``: throw, start, move, illegal, pass, undo,
    game-over, waiting, instruction or corrected."""

    event: str
    light_up: int | None = None
    throw: int | None = None
    from_square: int | None = None
    to_square: int | None = None
    violations: tuple[Violation, ...] = ()
    squares: tuple[int, ...] = ()
    winner: Player | None = None
    #: What to tell the players, as a message template (the page translates it) and its values.
    note: str = ""
    params: Mapping[str, object] = field(default_factory=dict)
    #: A grid game: both dice of a throw (PHARAO), and the part of the turn a move or an illegal attempt was.
    dice: Dice | None = None
    stage: Stage | None = None

    def to_dict(self) -> dict[str, object]:
        """The verdict as JSON-ready data, as the page's log, the console and the replay write it.
        A placement comes ``from`` ``"off"``; ``dice`` and ``stage`` are there in the grid games.

            >>> Verdict("move", throw=3, from_square=10, to_square=13).to_dict()["to"]
            13
        """
        data = {"event": self.event, "light_up": self.light_up, "throw": self.throw,
                "from": "off" if self.from_square == OFF else self.from_square, "to": self.to_square,
                "rules": list(self.rules), "violations": [v.to_dict() for v in self.violations],
                "winner": self.winner.label if self.winner else None, "note": self.note, "params": dict(self.params)}
        if self.dice is not None:
            data["dice"] = list(self.dice)
        if self.stage is not None:
            data["stage"] = self.stage.word
        return data

    @property
    def rules(self) -> tuple[str, ...]:
        """The IDs of the rules an illegal move broke."""
        return tuple(v.rule for v in self.violations)

    @property
    def message(self) -> str:
        """The note in English, or the broken rules' sentences.

            >>> Verdict("waiting", note="first use the throw of {throw}", params={"throw": 4}).message
            'first use the throw of 4'
        """
        if self.note:
            return self.note.format(**self.params)
        return " ".join(describe_violation(v.rule, v.squares, self.from_square or 0, self.to_square or 0, self.throw or 0, v.case)
                        for v in self.violations)


@dataclass
class Referee:
    """Runs one game on a physical board from the first throw to the last."""

    variant: Variant | str
    game: Game = field(init=False)
    #: The board the players must show now (the engine's position, or a position the
    #: players still have to make after a rule moved a piece by itself).
    expected: tuple[int, ...] = field(init=False)
    #: Boards on the way there that are fine to see (a piece still on 27 before it falls back).
    on_the_way: set[tuple[int, ...]] = field(init=False, default_factory=set)
    #: An illegal board is on the table: the red light stays until it is corrected.
    illegal: bool = False
    #: Blockade's touch-move: the square of an own piece seen lifted this turn.
    touched: int = 0
    seen: tuple[int, ...] | None = None
    #: A move a rule made by itself that the players still have to make by hand (LK.start's
    #: opening jump): reported as a move when the board shows it made.
    by_hand: tuple[int, int] | None = None
    #: Pieces the rules took off that may still stand on the board (PHARAO's drowned piece): square -> colour.
    taken_off: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.variant = find_variant(self.variant) if isinstance(self.variant, str) else self.variant
        self.game = Game(self.variant)
        self.expected = self.game.position.board

    @property
    def expected_text(self) -> str:
        """The board the players must show now, as the camera writes boards (30 characters)."""
        return format_board(self.expected)

    # -- events ------------------------------------------------------------------

    def throw(self, light_up: int) -> list[Verdict]:
        """A settled throw of the sticks (``light_up`` light sides up), or electronic sticks."""
        if not isinstance(self.variant.throws, StickThrows):
            dice = isinstance(self.variant.throws, DiceThrows)
            return [Verdict("waiting", light_up, note="no sticks in this game: throw the dice (the button or the page)" if dice
                            else "nothing is thrown in this game: the position sets how far a piece goes")]
        value = throw_value(light_up, self.variant.zero_value)
        verdicts: list[Verdict] = []
        if self.game.is_over:
            return [Verdict("waiting", light_up, value, note="the game is over")]
        if self.game.current_throw is not None:
            options = self.game.options
            if options.pass_move is None:
                return [Verdict("waiting", light_up, value, note="first use the throw of {throw}",
                                params={"throw": self.game.current_throw})]
            verdicts += self._passed(self.game.pass_turn())  # the player let a passable throw go
        if not self.game.started and self.variant.start_ritual is StartRitual.LOTS:
            self.game.start_by_lot(0)
            verdicts.append(Verdict("start", note="dark starts"))
        started = self.game.started
        forced = self.game.throw(value)
        verdicts.append(Verdict("throw", light_up, value))
        if not started and self.game.started:
            verdicts.append(Verdict("start", note="seat {seat} plays dark", params={"seat": self.game.dark_seat + 1}))
            self._expect(self.game.position.board)
            if self.variant.opening_jump:
                start, end = self.variant.opening_jump
                verdicts.append(Verdict("instruction", from_square=start, to_square=end, note=MOVE_ON,
                                        params={"from": start, "to": end}))
                self.on_the_way = {self.variant.start_board()}
                self.by_hand = (start, end)
        if forced is not None:
            verdicts += self._passed(forced)
        return verdicts

    def throw_dice(self, dice: Dice) -> list[Verdict]:
        """A throw of PHARAO's two dice (electronic, or read off real dice on the page)."""
        if self.game.is_over:
            return [Verdict("waiting", dice=dice, note="the game is over")]
        if not self.game.needs_throw:
            return [Verdict("waiting", dice=dice, note="first finish the turn")]
        played, before = len(self.game.turns), self.game.position.board
        try:
            self.game.throw(dice)
        except GameError as error:
            return [Verdict("waiting", dice=dice, note=str(error))]
        verdicts = [Verdict("throw", throw=dice.own, dice=dice), *self._parts_played(played)]
        self._expect(self.game.position.board)
        return verdicts + self._taken_off(before, set(), before) + self._after_turn()

    def pass_turn(self) -> list[Verdict]:
        """The player declares a pass (button), where the rules allow one."""
        try:
            return self._passed(self.game.pass_turn())
        except IllegalMoveError:
            return [Verdict("waiting", note="passing is not allowed now")]

    def shows_expected(self, text: str) -> str | None:
        """The position the referee holds (30 characters) when a camera board (30 characters,
        '?' where unsure) shows it and no illegal move is pending; else None. What the camera
        saw then is known for sure: the reader learns from it."""
        cells, unsure = _camera_board(text)
        return self.expected_text if not self.illegal and _matches(self.expected, cells, unsure) else None

    def board(self, text: str) -> list[Verdict]:
        """A settled board from the camera: 30 characters, '?' where unsure."""
        cells, unsure = _camera_board(text)
        self.seen = cells
        self.taken_off = {s: colour for s, colour in self.taken_off.items() if cells[s] == colour and not self.expected[s]}
        unsure |= set(self.taken_off)
        if _matches(self.expected, cells, unsure):
            self.on_the_way = set()
            if self.by_hand:
                return self._made_by_hand()
            if self.illegal:
                self.illegal = False
                return [Verdict("corrected")]
            return []
        if any(_matches(board, cells, unsure) for board in self.on_the_way):
            return [Verdict("waiting", note="finish the move")]
        if self.game.current_throw is None or self.game.is_over:
            return self._unexpected(cells, unsure)
        if self.variant.in_parts:
            return self._board_in_parts(cells, unsure)
        position = self.game.position
        why: list[tuple[int, int, Violation]] = []
        assert position.turn is not None
        options = self.variant.legal(position.board, position.turn.value, position.mark, self.game.current_throw, self.touched, why)
        # (from, square reached, square a rule sends the piece on to)
        relocations = {(start, raw, to) for start, raw, v in why for to in v.squares[:1]}
        fits = [m for m in options.moves if _matches(m.after, cells, unsure)]
        started = [m for m in options.moves if any(_matches(raw, cells, unsure) for raw in self._raw_boards(m, relocations))]
        if len({m.after for m in fits}) == 1:
            return self._accept(fits[0])
        if not fits and len(started) == 1:
            move = started[0]
            verdicts = self._accept(move)
            self.on_the_way = {cells}
            differ = [i for i in SQUARES if cells[i] != move.after[i]]
            verdicts.append(_instruction(cells, move.after, tuple(differ)))
            return verdicts
        if unsure or fits or len(started) > 1:
            return [Verdict("waiting", note="the camera is not sure: waiting for a clearer view")]
        return self._judge(cells)

    def replay_move(self, from_square: int, to_square: int) -> list[Verdict]:
        """Make a move recorded earlier (the match store replayed after a restart)."""
        if self.by_hand == (from_square, to_square):
            return self._made_by_hand()
        if self.game.current_throw is None:
            raise GameError("the record has a move without a throw")
        move = self.game.position.find_move(self.game.current_throw, from_square, to_square)
        if self.variant.in_parts:
            return self._accept_parts([move], move.after)
        return self._accept(move)

    def undo(self) -> list[Verdict]:
        """Take back the last accepted move (button long-press or the admin page)."""
        try:
            turn = self.game.undo()
        except GameError:
            return [Verdict("waiting", note="there is no move to take back")]
        self._expect(self.game.position.board)
        return [Verdict("undo", from_square=turn.from_square or None, to_square=turn.to_square or None,
                        note="put the board back as it was")]

    def set_position(self, position: Position, throw: int | Dice | None = None) -> None:
        """An operator corrects the game by hand (the camera was wrong); the start ritual counts as done.
        In PHARAO ``throw`` is the turn's dice."""
        if self.game.dark_seat is None:
            self.game.dark_seat = 0
        self.game.position = position
        if self.variant.in_parts:
            self.game.dice = throw if isinstance(throw, Dice) else None
            self.game.ready_part()
        else:
            self.game.current_throw = throw
            self.game._options = position.options(throw) if throw is not None else None
        self._expect(self.game.position.board)

    # -- helpers -----------------------------------------------------------------

    def _expect(self, board: tuple[int, ...]) -> None:
        self.expected, self.on_the_way, self.illegal, self.touched, self.by_hand = board, set(), False, 0, None
        self.taken_off = {}

    # -- the grid games: turns in parts ---------------------------------------------

    def _board_in_parts(self, cells: tuple[int, ...], unsure: set[int]) -> list[Verdict]:
        """A settled board in PHARAO or RAMSES: the parts that explain it, or the part that went wrong."""
        found = explaining_parts(self.game, cells, unsure)
        if len({position for _, position in found}) == 1:
            return self._accept_parts(list(found[0][0]), cells)
        if found or unsure:
            return [Verdict("waiting", note="the camera is not sure: waiting for a clearer view")]
        return self._judge_parts(cells)

    def _accept_parts(self, parts: list[Move], cells: tuple[int, ...]) -> list[Verdict]:
        """Play the chosen parts, with what the rules play alone between and after them."""
        verdicts: list[Verdict] = []
        before = self.game.position.board
        for move in parts:
            played = len(self.game.turns)
            stage, number = self.game.position.stage, self.game.current_throw
            self.game.play(move.from_square, move.to_square)
            verdicts.append(Verdict("move", throw=self.game.turns[played].throw if number is not None else None,
                                    from_square=move.from_square, to_square=move.to_square, stage=stage))
            verdicts += self._parts_played(played + 1)
        self._expect(self.game.position.board)
        return verdicts + self._taken_off(before, {move.from_square for move in parts}, cells) + self._after_turn()

    def _taken_off(self, before: tuple[int, ...], moved_from: set[int], cells: tuple[int, ...]) -> list[Verdict]:
        """Pieces the rules took off (PHARAO's drowned piece) that still stand on the board: tell
        the players, and do not count them as wrong until they are gone."""
        verdicts = []
        for square in SQUARES:
            colour = before[square]
            if colour and not self.expected[square] and square not in moved_from and cells[square] == colour:
                self.taken_off[square] = colour
                verdicts.append(Verdict("instruction", squares=(square,), note="take the piece on {square} off the board",
                                        params={"square": square}))
        return verdicts

    def _parts_played(self, since: int) -> list[Verdict]:
        """What the rules played alone since the game's turn number ``since``: skipped, drowned or lost parts."""
        verdicts = []
        for turn in self.game.turns[since:]:
            skipped = turn.throw == 0 and isinstance(self.variant.throws, DiceThrows)
            verdicts.append(Verdict("pass", throw=turn.throw, stage=turn.stage,
                                    note="the piece in the water cannot make its 3 steps: it drowns" if turn.stage is Stage.RESCUE
                                    else "a 0: this part is skipped" if skipped else "no move: this loses"))
        if self.game.position.stage is Stage.RESCUE and not self.game.is_over:
            verdicts.append(Verdict("instruction", squares=(27,), stage=Stage.RESCUE,
                                    note="the piece in the water is saved: move it 3 steps"))
        return verdicts

    def _judge_parts(self, cells: tuple[int, ...]) -> list[Verdict]:
        """A settled board no parts explain: which part went wrong, and the rule it broke."""
        position = self.game.position
        me = position.turn
        assert me is not None and self.game.current_throw is not None
        before = self.expected
        if position.stage is Stage.PLACE:
            came = [s for s in SQUARES if cells[s] and not before[s]]
            gone = [s for s in SQUARES if before[s] and cells[s] != before[s]]
            if len(came) == 1 and not gone:
                if cells[came[0]] != me:
                    return self._illegal_part(position, OFF, came[0], [Violation(self.variant.turn_rule, (came[0],))])
                return self._illegal_part(position, OFF, came[0])
            return [Verdict("waiting", note="the board does not match the game: put it back")]
        mine = me.opponent if position.stage is Stage.OTHER else me
        gone, came = changed(before, cells, mine)
        others_gone, others_came = changed(before, cells, mine.opponent)
        if len(gone) + len(others_gone) == 1 and not came and not others_came:
            return [Verdict("waiting", squares=tuple(gone + others_gone), note="a piece is in the hand")]
        if len(gone) == 1 and len(came) == 1:
            if position.explain(self.game.current_throw, gone[0], came[0]):
                return self._illegal_part(position, gone[0], came[0])
            if len(others_gone) == 1 and len(others_came) == 1:  # this part was right: the next one was not
                accepted = self._accept_parts([position.find_move(self.game.current_throw, gone[0], came[0])], cells)
                return accepted + self._illegal_part(self.game.position, others_gone[0], others_came[0])
        elif not gone and len(others_gone) == 1 and len(others_came) == 1:
            return self._illegal_part(position, others_gone[0], others_came[0])
        return [Verdict("waiting", note="the board does not match the game: put it back")]

    def _illegal_part(self, position: Position, start: int, end: int, violations: list[Violation] | None = None) -> list[Verdict]:
        number = part_number(self.variant, position.stage, self.game.dice)
        if violations is None:
            violations = position.explain(number or 0, start, end) if number is not None else []
        if not violations:
            return [Verdict("waiting", note="finish the move")]
        self.illegal = True
        if start in SQUARES and self.variant.in_parts:
            number = self.variant.steps(position.board, start, number or 0)
        squares = tuple(dict.fromkeys(s for v in violations for s in v.squares))
        return [Verdict("illegal", throw=number, from_square=start, to_square=end, violations=tuple(violations),
                        squares=squares, stage=position.stage)]

    def _made_by_hand(self) -> list[Verdict]:
        """The players made the move a rule had made by itself: it is a move like any other."""
        assert self.by_hand is not None
        (start, end), self.by_hand, self.illegal = self.by_hand, None, False
        return [Verdict("move", from_square=start, to_square=end)]

    def _accept(self, move: Move) -> list[Verdict]:
        throw = self.game.current_throw
        self.game.play(move.from_square, move.to_square, self.touched)
        self._expect(move.after)
        verdicts = [Verdict("move", throw=throw, from_square=move.from_square, to_square=move.to_square)]
        return verdicts + self._after_turn()

    def _passed(self, move: Move) -> list[Verdict]:
        self._expect(self.game.position.board)
        return [Verdict("pass", note="no move: the turn passes" if move.winner == 0 else "no move: this loses")] + self._after_turn()

    def _after_turn(self) -> list[Verdict]:
        winner = self.game.position.winner
        return [Verdict("game-over", winner=winner, note="dark wins" if winner is Player.DARK else "light wins")] if winner else []

    def _raw_boards(self, move: Move, relocations: set[tuple[int, int, int]]) -> list[tuple[int, ...]]:
        """Boards on the way to ``move``: the mover's piece already on its final square, or on
        the square a rule sends it on from (27 before the water takes it), with a captured piece
        swapped by hand; everything a rule moves by itself still to be done."""
        boards = []
        step = self.game.current_throw or 0
        for raw in (move.from_square + step, move.from_square - step):
            if raw not in SQUARES:
                continue
            if raw != move.to_square and (move.from_square, raw, move.to_square) not in relocations:
                continue
            cells = list(self.expected)
            me, cells[move.from_square] = cells[move.from_square], 0
            if cells[raw]:
                cells[move.from_square] = cells[raw]  # the usual swap, done by hand
            cells[raw] = me
            boards.append(tuple(cells))
        return boards

    def _judge(self, cells: tuple[int, ...]) -> list[Verdict]:
        """A settled board that is no legal move: which piece moved where, and which rule that breaks."""
        me = self.game.position.turn
        assert me is not None
        before, now = self.expected, cells
        gone, came = changed(before, now, me)
        others_gone, others_came = changed(before, now, me.opponent)
        if len(gone) == 1 and not came and not others_came:
            if self.variant.touch_move and not others_gone:
                self.touched = gone[0]
            return [Verdict("waiting", squares=(gone[0],), note="a piece is in the hand")]
        if len(gone) == 1 and len(came) == 1 and set(others_came) <= set(gone) and set(others_gone) <= set(came):
            if others_gone and not others_came:
                return [Verdict("waiting", note="finish the swap")]
            return self._illegal(gone[0], came[0])
        if len(gone) == 1 and not came and not others_gone and not others_came:
            return [Verdict("waiting", note="a piece is in the hand")]
        if not gone and others_gone and len(others_gone) == 1 and len(others_came) == 1:
            return self._illegal(others_gone[0], others_came[0])
        return [Verdict("waiting", note="the board does not match the game: put it back")]

    def _illegal(self, start: int, end: int) -> list[Verdict]:
        throw = self.game.current_throw or 0
        violations = self.game.position.explain(throw, start, end, self.touched)
        if not violations:
            return [Verdict("waiting", note="finish the move")]
        self.illegal = True
        squares = tuple(dict.fromkeys(s for v in violations for s in v.squares))
        return [Verdict("illegal", throw=throw, from_square=start, to_square=end, violations=tuple(violations), squares=squares)]

    def _unexpected(self, cells: tuple[int, ...], unsure: set[int]) -> list[Verdict]:
        """The board changed while nobody has a throw to use."""
        if unsure:
            return [Verdict("waiting", note="the camera is not sure: waiting for a clearer view")]
        if self.game.is_over:
            return [Verdict("waiting", note="the game is over")]
        self.illegal = True
        note = "Throw the dice before moving a piece: put it back." if isinstance(self.variant.throws, DiceThrows) else \
            "Throw the sticks before moving a piece: put it back."
        return [Verdict("illegal", violations=(Violation(self.variant.throw_rule, ()),), note=note)]


def _camera_board(text: str) -> tuple[tuple[int, ...], set[int]]:
    """A camera board (30 characters, '?' where unsure): its cells ('?' read as empty) and
    its unsure squares."""
    return parse_board(text.replace("?", ".")), {i + 1 for i, char in enumerate(text) if char == "?"}


def _matches(board: tuple[int, ...], cells: tuple[int, ...], unsure: set[int]) -> bool:
    """Whether the camera's board agrees with ``board`` on every square it is sure of."""
    return all(board[i] == cells[i] for i in SQUARES if i not in unsure)


def _instruction(now: tuple[int, ...], target: tuple[int, ...], changed: tuple[int, ...]) -> Verdict:
    """'move the piece on 27 to 1' and the like, for what a rule moved by itself."""
    moved_from = [i for i in SQUARES if now[i] and now[i] != target[i]]
    moved_to = [i for i in SQUARES if target[i] and target[i] != now[i]]
    if len(moved_from) == 1 and len(moved_to) == 1:
        return Verdict("instruction", squares=changed, note=MOVE_ON, params={"from": moved_from[0], "to": moved_to[0]})
    return Verdict("instruction", squares=changed, note="make the board look like {board}", params={"board": format_board(target)})


