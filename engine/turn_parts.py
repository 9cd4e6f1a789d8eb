"""How the referee reads a grid game's board: the parts of the turn that explain it, or the part that went wrong.

In PHARAO and RAMSES a turn moves an own piece, then an opponent piece (with PHARAO's
rescue from the water between them). Players may stop after a part or make the whole turn
before the board settles, so a settled board is explained by one, two or three parts.

    >>> from senet.engine.game import Game
    >>> from senet.engine.throws import Dice
    >>> game = Game("pharao")
    >>> game.throw(Dice(1, 2))
    >>> board = list(game.position.board)
    >>> board[5], board[6], board[20], board[18] = 0, 2, 0, 1     # light 5-6, then dark's 20-18
    >>> [str(parts) for parts, _ in explaining_parts(game, tuple(board), set())]
    ["('5-6', '20-18')"]
"""

from __future__ import annotations

from senet.engine.game import Game, part_number
from senet.engine.layout import SQUARES
from senet.engine.moves import Move, Stage
from senet.engine.position import Position
from senet.engine.throws import Dice


class Parts(tuple[Move, ...]):
    """The chosen parts of one turn, in order (the parts the rules play alone come between)."""

    def __str__(self) -> str:
        return str(tuple(str(move) for move in self))


def play_forced(position: Position, dice: Dice | None) -> None:
    """After a chosen part, play the parts the rules decide alone (a thrown 0, a drowning, a
    loss), as the game does; ``dice`` are the turn's, and a new turn waits for its own."""
    while position.turn is not None:
        number = part_number(position.variant, position.stage, None if position.stage is Stage.OWN else dice)
        if number is None:
            return
        options = position.options(number)
        if options.moves or options.pass_move is None:
            return
        position.push(options.pass_move)


def _colour_of_part(stage: Stage, me: int) -> int:
    return 3 - me if stage is Stage.OTHER else me


def turn_endings(game: Game, cells: tuple[int, ...], unsure: set[int]) -> list[tuple[Parts, Position]]:
    """Every way to go on from the game's position within the turn, as (parts, position after):
    one part, or more while the turn goes on. Only continuations that keep the mover's colour
    as the board shows it are followed (the later parts move the other colour)."""
    endings: list[tuple[Parts, Position]] = []
    start = game.position
    if start.turn is None:
        return endings
    me = start.turn
    unchanged = {s for s in SQUARES if cells[s] and cells[s] == start.board[s]}  # perhaps a piece the rules removed

    def agrees(position: Position, colour: int) -> bool:
        return all((position.board[s] == colour) == (cells[s] == colour) for s in SQUARES
                   if s not in unsure and not (s in unchanged and not position.board[s]))

    def walk(position: Position, parts: tuple[Move, ...]) -> None:
        number = part_number(position.variant, position.stage, game.dice)
        if number is None:
            return
        for move in position.options(number).moves:
            after = position.copy()
            after.push(move)
            play_forced(after, game.dice)
            endings.append((Parts((*parts, move)), after))
            goes_on = after.turn is me and after.stage is not Stage.OWN and after.winner is None
            moved = _colour_of_part(position.stage, me)
            if goes_on and (_colour_of_part(after.stage, me) == moved or agrees(after, moved)) and len(parts) < 2:
                walk(after, (*parts, move))

    walk(start.copy(), ())
    return endings


def explaining_parts(game: Game, cells: tuple[int, ...], unsure: set[int]) -> list[tuple[Parts, Position]]:
    """The part sequences whose outcome the board shows (squares in ``unsure`` not compared),
    each with the position it leads to. A piece the rules took off (it drowned) may still
    stand where it was."""
    before = game.position.board
    found = []
    for parts, position in turn_endings(game, cells, unsure):
        moved_from = {move.from_square for move in parts}
        taken_off = {s for s in SQUARES if before[s] and not position.board[s] and s not in moved_from and cells[s] == before[s]}
        if all(position.board[s] == cells[s] for s in SQUARES if s not in unsure | taken_off):
            found.append((parts, position))
    return found


def changed(before: tuple[int, ...], now: tuple[int, ...], colour: int) -> tuple[list[int], list[int]]:
    """The squares a colour left and the squares it came to."""
    gone = [s for s in SQUARES if before[s] == colour and now[s] != colour]
    came = [s for s in SQUARES if now[s] == colour and before[s] != colour]
    return gone, came
