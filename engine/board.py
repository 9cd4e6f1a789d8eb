"""The 3 x 10 board as a tuple of square codes, and the text form of a board.

Squares 1..30 follow the S-shaped path. A board is a tuple of 32 codes: index 0 and
index 31 are always empty sentinels, so neighbours of squares 1 and 30 need no bounds
checks; 0 is an empty square, 1 dark (:data:`Player.DARK`), 2 light.

    >>> board = parse_board("LD" * 5 + "." * 20)
    >>> board[1], board[2], board[11]
    (2, 1, 0)
    >>> format_board(board)[:12]
    'LDLDLDLDLD..'
    >>> square_row_col(11)
    (1, 9)
"""

from __future__ import annotations

from collections.abc import Iterable

from senet.engine.layout import SENET, SQUARES

EMPTY = 0
_LETTERS = {".": 0, "D": 1, "L": 2}
_CODES = ".DL"


def empty_board() -> tuple[int, ...]:
    return (0,) * 32


def board_from_squares(dark: Iterable[int], light: Iterable[int]) -> tuple[int, ...]:
    """A board with dark pieces on ``dark`` and light pieces on ``light``."""
    cells = [0] * 32
    for square in dark:
        cells[square] = 1
    for square in light:
        cells[square] = 2
    return tuple(cells)


def parse_board(text: str) -> tuple[int, ...]:
    """Read the 30-character form ('.', 'D', 'L'; square 1 first).

    Raises ValueError saying what is wrong and how to write it instead.
    """
    if not isinstance(text, str):
        raise ValueError("board must be a string of 30 characters '.', 'D' or 'L'")
    if len(text) != 30:
        raise ValueError(
            f"board has {len(text)} characters; it needs exactly 30 ('.', 'D', 'L'), square 1 first"
        )
    bad = sorted({char for char in text if char not in _LETTERS})
    if bad:
        raise ValueError(
            f"board has the characters {''.join(bad)!r}; use only '.' (empty), 'D' (dark) and 'L' (light)"
        )
    return (0, *(_LETTERS[char] for char in text), 0)


def format_board(board: tuple[int, ...]) -> str:
    """The 30-character form of ``board``."""
    return "".join(_CODES[code] for code in board[SQUARES.start:SQUARES.stop])


def square_row_col(square: int) -> tuple[int, int]:
    """Grid row (0 = top row, squares 1-10) and column (0 = left) of a square."""
    return SENET.row_col(square)


def pieces_of(board: tuple[int, ...], player: int) -> list[int]:
    """The squares holding ``player``'s pieces, in path order."""
    return [square for square in SQUARES if board[square] == player]
