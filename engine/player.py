"""The two sides of a Senet game.

Dark is the player who wins the start ritual and owns the pieces on the even squares.

    >>> Player.DARK.opponent
    <Player.LIGHT: 2>
    >>> Player.from_name("light").letter
    'L'
"""

from __future__ import annotations

from enum import IntEnum


class Player(IntEnum):
    """A side. The values double as the board codes (0 is an empty square)."""

    DARK = 1
    LIGHT = 2

    @property
    def opponent(self) -> Player:
        return Player.LIGHT if self is Player.DARK else Player.DARK

    @property
    def letter(self) -> str:
        """The board letter: ``D`` or ``L``."""
        return "D" if self is Player.DARK else "L"

    @property
    def label(self) -> str:
        """The lower-case name used in JSON and records: ``dark`` or ``light``."""
        return self.name.lower()

    @classmethod
    def from_name(cls, name: str) -> Player:
        """Accept ``dark``/``light`` (any case) or ``d``/``l``."""
        key = name.strip().lower()
        if key in ("dark", "d"):
            return cls.DARK
        if key in ("light", "l"):
            return cls.LIGHT
        raise ValueError(f"unknown player {name!r}: use 'dark' or 'light'")
