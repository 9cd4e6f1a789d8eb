"""``pharao``: PHARAO, the first grid game of the Hungarian source (seed 000), RULES.md section 6.

Four pieces a side move like rooks of one step at a time; each turn throws two dice and
moves an own piece by the own die, then an opponent piece by the other die.

    >>> from senet.engine.position import Position
    >>> position = Position.start("pharao")
    >>> position.turn.label, position.board_text
    ('light', '.LLLL..............DDDD.......')
    >>> sorted(str(m) for m in position.legal_moves(1))
    ['2-1', '2-19', '3-18', '4-17', '5-16', '5-6']
"""

from __future__ import annotations

from senet.engine.layout import SENET
from senet.engine.moves import Move, Stage, Violation
from senet.engine.player import Player
from senet.engine.throws import PHARAO_DICE, DiceThrows
from senet.engine.variants.grid import GridVariant

#: P.water: a piece ending here has fallen into the water.
WATER = 27
#: P.rescue: an own piece here saves the drowning one.
RESCUER = 26
#: P.lucky: a last piece reaching this square with the own die wins.
LUCKY = 15
#: P.rescue: the saved piece's move.
RESCUE_STEPS = 3


class Pharao(GridVariant):
    """Both dice, the water on 27 with its rescue from 26, and the lucky square 15."""

    name = "pharao"
    prefix = "P"
    description = "PHARAO (seed 000): 4 pieces a side on the grid, two special dice, own piece then an opponent's."
    layout = SENET
    light_start = (2, 3, 4, 5)
    dark_start = (20, 21, 22, 23)
    first_player = Player.LIGHT
    turn_rule = "P.turn"
    distance_rule = "P.path"
    path_rule = "P.path"
    start_rule = "P.setup"
    win_rule = "P.win"

    @property
    def throws(self) -> DiceThrows:
        return PHARAO_DICE

    @property
    def throw_rule(self) -> str:
        return "P.dice"

    def movers(self, board: tuple[int, ...], me: int, stage: Stage) -> list[int]:
        if stage is Stage.RESCUE:
            return [WATER] if board[WATER] == me else []
        return super().movers(board, me, stage)

    def steps(self, board: tuple[int, ...], square: int, throw: int) -> int:
        return RESCUE_STEPS if square == WATER else throw

    def held(self, board: tuple[int, ...], me: int, square: int, stage: Stage) -> Violation | None:
        if square == WATER and stage is not Stage.RESCUE:
            return Violation("P.water", (WATER,), "held")
        return None

    def last_resort(self, me: int, stage: Stage, square: int) -> Violation | None:
        if square == WATER and stage is Stage.OWN:
            return Violation("P.water", (WATER,), "last")
        return None

    def part_over(self, cells: list[int], me: int, stage: Stage, moved_to: int) -> tuple[int, int, Stage]:
        if stage is Stage.OTHER:
            return 3 - me, 0, Stage.OWN
        if stage is Stage.OWN:
            if moved_to == LUCKY and cells.count(me) == 1:
                return 0, me, Stage.OWN  # P.lucky
            if cells[WATER] != me or moved_to == WATER:
                return me, 0, Stage.OTHER
            if cells[RESCUER] == me:
                return me, 0, Stage.RESCUE  # P.rescue: the owner's piece on 26 saves it
        if cells[WATER] == me:  # P.rescue: not saved, or saved without a 3-step move: it drowns
            cells[WATER] = 0
            if me not in cells:
                return 0, 3 - me, Stage.OWN  # P.win: every piece drowned
        return me, 0, Stage.OTHER

    def stuck(self, board: tuple[int, ...], me: int, stage: Stage, throw: int) -> Move:
        if stage is Stage.RESCUE or throw == 0:
            return self.skip(board, me, stage)  # P.turn: a 0 skips; P.rescue: it drowns
        return super().stuck(board, me, stage, throw)  # P.must

    def explain(
        self, board: tuple[int, ...], me: int, mark: int, throw: int, from_square: int, to_square: int, touched: int = 0,
        stage: Stage = Stage.OWN,
    ) -> list[Violation]:
        if me and stage is Stage.RESCUE and from_square != WATER:
            return [Violation("P.rescue", (WATER,))]
        return super().explain(board, me, mark, throw, from_square, to_square, touched, stage)
