"""The board as data: where each square lies, which squares are cells, marked or long.

Every game of the companion is played on Senet's grid of 3 rows by 10 columns, squares
numbered 1-30 along the S-shaped path (row 1 left to right, row 2 right to left, row 3
left to right). A :class:`Layout` says how a game uses that grid: its cells (one square,
or a *long cell* of several squares in a line, RAMSES), its marked squares, and the
track order where the game races along one. The engine, the printed mat, the camera and
the page's drawing all read the same layout.

A piece on a long cell stands on one of the cell's squares (which third of the cell it
is in), so a board stays a list of squares whatever the layout.

    >>> SENET.row_col(11), SENET.row_col(21)
    ((1, 9), (2, 0))
    >>> SENET.neighbours(11)
    (10, 12, 30)
    >>> ramses = find_layout("ramses")
    >>> ramses.cell_of(12), ramses.is_marked(27), ramses.track
    ((11, 12, 13), True, None)
    >>> ramses.short_ends((11, 12, 13)), ramses.sides(12)
    ((14,), (9, 29))
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

ROWS = 3
COLUMNS = 10
#: Every square of the grid, in path order (the board's indices 1-30).
SQUARES = range(1, ROWS * COLUMNS + 1)
#: Where the shipped layout files are; a museum edits them (or points the configuration at its own).
LAYOUTS = Path(__file__).resolve().parent / "layouts"


class LayoutError(ValueError):
    """A layout file that cannot be used; the message names the file, the key and the fix."""


def _row_col(square: int) -> tuple[int, int]:
    row, offset = divmod(square - 1, COLUMNS)
    return row, (COLUMNS - 1 - offset if row % 2 else offset)


_POSITIONS = {square: _row_col(square) for square in SQUARES}
_SQUARE_AT = {position: square for square, position in _POSITIONS.items()}


@dataclass(frozen=True)
class Layout:
    """How a game uses the 3 x 10 grid. ``long_cells`` are runs of squares in a straight
    line that count as one cell; ``raced`` says whether the game races along the S-path."""

    name: str
    marked: frozenset[int] = frozenset()
    long_cells: tuple[tuple[int, ...], ...] = ()
    raced: bool = True
    _cell: dict[int, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cells = {square: (square,) for square in SQUARES}
        for cell in self.long_cells:
            cells.update(dict.fromkeys(cell, cell))
        object.__setattr__(self, "_cell", cells)

    # -- the grid -----------------------------------------------------------------

    @staticmethod
    def row_col(square: int) -> tuple[int, int]:
        """Grid row (0 = the row of squares 1-10) and column (0 = left) of a square."""
        return _POSITIONS[square]

    @staticmethod
    def neighbours(square: int) -> tuple[int, ...]:
        """The squares left, right, above and below ``square`` on the grid, smallest first."""
        row, col = _POSITIONS[square]
        found = (_SQUARE_AT.get((row + dr, col + dc)) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
        return tuple(sorted(s for s in found if s is not None))

    @property
    def track(self) -> tuple[int, ...] | None:
        """The squares in racing order, or None for a game not raced along a track."""
        return tuple(SQUARES) if self.raced else None

    # -- cells ----------------------------------------------------------------------

    @cached_property
    def cells(self) -> tuple[tuple[int, ...], ...]:
        """Every cell as the tuple of its squares, ordered by its first square."""
        return tuple(sorted(set(self._cell.values())))

    def cell_of(self, square: int) -> tuple[int, ...]:
        """The squares of the cell ``square`` belongs to (itself alone unless it is long)."""
        return self._cell[square]

    def is_long(self, square: int) -> bool:
        return len(self._cell[square]) > 1

    def is_marked(self, square: int) -> bool:
        return square in self.marked

    def short_ends(self, cell: tuple[int, ...]) -> tuple[int, ...]:
        """The squares beyond the two ends of a long cell, in its line (one at the grid's edge)."""
        rows, cols = zip(*(_POSITIONS[s] for s in cell), strict=True)
        if len(set(rows)) == 1:
            ends = [(rows[0], min(cols) - 1), (rows[0], max(cols) + 1)]
        else:
            ends = [(min(rows) - 1, cols[0]), (max(rows) + 1, cols[0])]
        return tuple(sorted(s for s in (_SQUARE_AT.get(end) for end in ends) if s is not None))

    def sides(self, square: int) -> tuple[int, ...]:
        """The squares beside ``square`` across a long side of its cell (not along the cell)."""
        cell = self._cell[square]
        ends = self.short_ends(cell)
        return tuple(s for s in self.neighbours(square) if s not in cell and s not in ends)

    # -- files ----------------------------------------------------------------------

    @classmethod
    def load(cls, path: Path) -> Layout:
        """Read a layout file (TOML: ``name``, ``marked``, ``long``, ``raced``); LayoutError says what to fix."""
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise LayoutError(f"{path}: cannot read the layout file ({error.strerror})") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise LayoutError(f"{path}: not a valid TOML file ({error})") from None
        unknown = sorted(set(data) - {"name", "marked", "long", "raced"})
        if unknown:
            raise LayoutError(f"{path}: unknown key {unknown[0]!r}; a layout has name, marked, long and raced")
        name = data.get("name", path.stem)
        if not isinstance(name, str) or not name:
            raise LayoutError(f"{path}: name must be a non-empty string such as \"ramses\"")
        raced = data.get("raced", False)
        if not isinstance(raced, bool):
            raise LayoutError(f"{path}: raced must be true or false")
        marked = _squares(path, "marked", data.get("marked", []))
        long_cells = data.get("long", [])
        if not isinstance(long_cells, list):
            raise LayoutError(f"{path}: long must be a list of square lists such as [[11, 12, 13]]")
        cells = tuple(tuple(sorted(_squares(path, "long", cell))) for cell in long_cells)
        return cls(name, frozenset(marked), _check_long_cells(path, cells), raced)


def _squares(path: Path, key: str, value: object) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in value):
        raise LayoutError(f"{path}: {key} must be a list of square numbers 1-30, such as [26, 27, 28]")
    outside = [s for s in value if s not in SQUARES]
    if outside:
        raise LayoutError(f"{path}: {key} names square {outside[0]}, which is not on the board (1-30)")
    if len(set(value)) != len(value):
        raise LayoutError(f"{path}: {key} names a square twice")
    return value


def _check_long_cells(path: Path, cells: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    seen: set[int] = set()
    for cell in cells:
        rows = {_POSITIONS[s][0] for s in cell}
        cols = sorted(_POSITIONS[s][1] for s in cell)
        in_row = len(rows) == 1 and cols == list(range(cols[0], cols[0] + len(cell)))
        row_list = sorted(_POSITIONS[s][0] for s in cell)
        in_column = len(set(cols)) == 1 and row_list == list(range(row_list[0], row_list[0] + len(cell)))
        if len(cell) < 2 or not (in_row or in_column):
            raise LayoutError(f"{path}: long cell {list(cell)} must be two or more neighbouring squares in one row or column")
        if seen & set(cell):
            raise LayoutError(f"{path}: square {min(seen & set(cell))} is in two long cells")
        seen |= set(cell)
    return cells


#: Senet's board: thirty single squares raced along the S-path (the track games and PHARAO).
SENET = Layout("senet")


def find_layout(name: str) -> Layout:
    """A shipped layout by name (``senet`` or a file in ``engine/layouts``)."""
    if name == SENET.name:
        return SENET
    path = LAYOUTS / f"{name}.toml"
    if not path.is_file():
        known = sorted(["senet", *(p.stem for p in LAYOUTS.glob("*.toml"))])
        raise LayoutError(f"unknown layout {name!r}; known layouts: {', '.join(known)}")
    return Layout.load(path)
