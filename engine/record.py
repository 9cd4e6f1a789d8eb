"""Game records: the variant, the start ritual, and every turn (throw and move or pass).

The text form is one item per line and round-trips::

    variant kendall
    start 3 1
    dark 1 10-11
    light 2 pass
    result -

A grid game records each part of a turn; parts other than the own move name their stage,
and the number is the part's steps (a die, 3 for a rescue, RAMSES' distance)::

    variant pharao
    light 3 2-5
    light other 1 21-22
    dark place 0 off-12

    >>> record = GameRecord.parse("variant kendall\\nstart 3 1\\ndark 1 10-11\\nresult -\\n")
    >>> record.turns[0]
    Turn(player=<Player.DARK: 1>, throw=1, from_square=10, to_square=11, stage=<Stage.OWN: 0>)
    >>> GameRecord.parse(record.format()) == record
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from senet.engine.moves import OFF, PASS, Stage, parse_square, square_name
from senet.engine.player import Player


@dataclass(frozen=True)
class Turn:
    """One throw used by one player: a move from/to, or a pass (both squares 0); in a grid
    game one part of a turn (``stage``), the player being the one whose turn it is."""

    player: Player
    throw: int
    from_square: int
    to_square: int
    stage: Stage = Stage.OWN

    @property
    def is_pass(self) -> bool:
        return self.from_square == PASS

    def __str__(self) -> str:
        action = "pass" if self.is_pass else f"{square_name(self.from_square)}-{square_name(self.to_square)}"
        stage = "" if self.stage is Stage.OWN else f" {self.stage.word}"
        return f"{self.player.label}{stage} {self.throw} {action}"

    @classmethod
    def parse(cls, text: str) -> Turn:
        """Read one turn line.

            >>> Turn.parse("light other 1 21-22")
            Turn(player=<Player.LIGHT: 2>, throw=1, from_square=21, to_square=22, stage=<Stage.OTHER: 1>)
        """
        fields = text.split()
        if len(fields) not in (3, 4):
            raise ValueError(f"a turn is 'PLAYER [STAGE] THROW FROM-TO' or 'PLAYER [STAGE] THROW pass', not {text!r}")
        stage = Stage.from_word(fields.pop(1)) if len(fields) == 4 else Stage.OWN
        player, throw, action = fields
        if action == "pass":
            return cls(Player.from_name(player), int(throw), PASS, PASS, stage)
        start, _, end = action.partition("-")
        return cls(Player.from_name(player), int(throw), parse_square(start), parse_square(end), stage)


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay a game through the engine."""

    variant: str
    start_throws: tuple[int, ...]
    dark_seat: int | None
    turns: tuple[Turn, ...]
    winner: Player | None

    def format(self) -> str:
        lines = [f"variant {self.variant}"]
        if self.start_throws:
            lines.append("start " + " ".join(map(str, self.start_throws)))
        elif self.dark_seat is not None:
            lines.append(f"lot {self.dark_seat}")
        lines += [str(turn) for turn in self.turns]
        lines.append(f"result {self.winner.label if self.winner else '-'}")
        return "\n".join(lines) + "\n"

    @classmethod
    def parse(cls, text: str) -> GameRecord:
        """Read :meth:`format`'s text; ValueError names the line that is wrong."""
        variant, start, seat, turns, winner = None, (), None, [], None
        for number, line in enumerate(text.splitlines(), 1):
            key, _, rest = line.strip().partition(" ")
            try:
                if not key or key.startswith("#"):
                    continue
                if key == "variant":
                    variant = rest.strip()
                elif key == "start":
                    start = tuple(int(value) for value in rest.split())
                    seat = (len(start) - 1) % 2 if start and start[-1] == 1 else None
                elif key == "lot":
                    seat = int(rest)
                elif key == "result":
                    winner = None if rest.strip() == "-" else Player.from_name(rest)
                else:
                    turns.append(Turn.parse(line))
            except ValueError as error:
                raise ValueError(f"record line {number}: {error}") from None
        if variant is None:
            raise ValueError("the record has no 'variant' line")
        return cls(variant, start, seat, tuple(turns), winner)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (used by exports and ``senet rules play --json``)."""
        return {
            "variant": self.variant,
            "start_throws": list(self.start_throws),
            "dark_seat": self.dark_seat,
            "turns": [
                {"player": t.player.label, "throw": t.throw}
                | ({} if t.stage is Stage.OWN else {"stage": t.stage.word})
                | ({"pass": True} if t.is_pass else {"from": "off" if t.from_square == OFF else t.from_square, "to": square_name(t.to_square)})
                for t in self.turns
            ],
            "winner": self.winner.label if self.winner else None,
        }
