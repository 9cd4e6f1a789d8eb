"""The printable board mat: layout in millimetres, rendering, and the ``mat.json`` contract.

The mat is what a museum prints and lays under its pieces: the 3 x 10 grid (numbered,
with marks on the special squares 15 and 26-30), eight ArUco markers (DICT_4X4_50) with
white quiet zones around it, a throwing tray for four sticks of about 13 x 1.8 cm, and a
QR code for the phone page. Everything is placed in millimetres and drawn at any dpi.
A game on another board (RAMSES' layout) gets its long squares drawn as one, with ticks
where their thirds meet, and a diamond on each marked square.

    >>> mat = MatLayout.for_paper("a4")
    >>> mat.width_mm, mat.height_mm, len(mat.markers)
    (297.0, 210.0, 8)
    >>> geometry = mat.geometry(dpi=150)
    >>> geometry["width_px"], len(geometry["squares"]), geometry["squares"]["1"][0]
    (1754, 30, [197.83, 183.07])
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import segno
from PIL import Image

from senet.engine.board import square_row_col
from senet.engine.layout import SENET, SQUARES, Layout

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
ARUCO_DICTIONARY_NAME = "DICT_4X4_50"
#: Colours (BGR). The squares and tray are a mid green so that pale and dark pieces and
#: sticks both stand out, and hands and sleeves do not look like the mat.
PAPERS = ("a3", "a4")
PAPER = (255, 255, 255)
FIELD = (112, 160, 98)
INK = (30, 45, 30)
SPECIAL_SQUARES = (15, 26, 27, 28, 29, 30)
MM_PER_INCH = 25.4
#: The resolutions ``mat.png`` is written at: below 150 dpi the markers' edges print soft;
#: drawing an A3 mat at 600 dpi already takes about half a gigabyte.
MIN_DPI, MAX_DPI = 150, 600

Point = tuple[float, float]


@dataclass(frozen=True)
class Marker:
    """An ArUco marker: its id and top-left corner (mm); ``size`` is its black square."""

    id: int
    x: float
    y: float
    size: float

    def corners(self) -> list[Point]:
        """Top-left, top-right, bottom-right, bottom-left: ArUco's own corner order."""
        s = self.size
        return [(self.x, self.y), (self.x + s, self.y), (self.x + s, self.y + s), (self.x, self.y + s)]


@dataclass(frozen=True)
class MatLayout:
    """Where everything on the mat is, in millimetres from the paper's top-left corner."""

    paper: str
    width_mm: float
    height_mm: float
    square_mm: float
    grid_x: float
    grid_y: float
    markers: tuple[Marker, ...]
    tray: tuple[float, float, float, float]
    qr: tuple[float, float, float]

    @classmethod
    def for_paper(cls, paper: str) -> MatLayout:
        """The layout for ``a3`` or ``a4`` landscape paper (markers 0-7 on A3, 8-15 on A4)."""
        if paper == "a3":
            width, height, square, marker, edge = 420.0, 297.0, 33.0, 28.0, 8.0
        elif paper == "a4":
            width, height, square, marker, edge = 297.0, 210.0, 23.0, 20.0, 6.0
        else:
            raise ValueError(f"unknown paper {paper!r}: use 'a3' or 'a4'")
        gap = marker / 4  # white quiet zone kept around every marker
        grid_x = (width - 10 * square) / 2
        grid_y = edge + marker + gap
        grid_mid = grid_y + 1.5 * square - marker / 2
        right, bottom, middle = width - edge - marker, height - edge - marker, (width - marker) / 2
        # The tray runs between the two bottom markers, from below the grid to the paper's edge.
        tray_x = edge + marker + gap
        tray_y = grid_y + 3 * square + gap
        tray = (tray_x, tray_y, width - 2 * tray_x, height - edge - tray_y)
        # The QR code sits in the top band between the first two markers.
        qr_size = marker
        qr = ((edge + marker + middle) / 2 - qr_size / 2, edge, qr_size)
        places = [
            (edge, edge), (middle, edge), (right, edge),
            (edge, grid_mid), (right, grid_mid),
            (edge, bottom), (right, bottom),
            ((middle + marker + right) / 2 - marker / 2, edge),
        ]
        first_id = 0 if paper == "a3" else 8  # the marker ids tell which paper a picture shows
        markers = tuple(Marker(first_id + i, x, y, marker) for i, (x, y) in enumerate(places))
        return cls(paper, width, height, square, grid_x, grid_y, markers, tray, qr)

    def square_corners(self, square: int) -> list[Point]:
        """The four corners of square 1..30 (TL, TR, BR, BL) in mm."""
        row, col = square_row_col(square)
        x, y, s = self.grid_x + col * self.square_mm, self.grid_y + row * self.square_mm, self.square_mm
        return [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]

    def tray_corners(self) -> list[Point]:
        x, y, w, h = self.tray
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]

    def qr_corners(self) -> list[Point]:
        x, y, s = self.qr
        return [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]

    def geometry(self, dpi: int) -> dict[str, Any]:
        """The ``mat.json`` contract: everything in mat pixels at ``dpi``."""
        scale = dpi / MM_PER_INCH

        def px(points: list[Point]) -> list[list[float]]:
            return [[round(x * scale, 2), round(y * scale, 2)] for x, y in points]

        return {
            "width_px": round(self.width_mm * scale),
            "height_px": round(self.height_mm * scale),
            "dpi": dpi,
            "paper": self.paper,
            "marker_dictionary": ARUCO_DICTIONARY_NAME,
            "markers": [{"id": m.id, "corners": px(m.corners())} for m in self.markers],
            "squares": {str(n): px(self.square_corners(n)) for n in range(1, 31)},
            "tray": px(self.tray_corners()),
            "qr": px(self.qr_corners()),
        }


def render_mat(layout: MatLayout, dpi: int = 150, url: str | None = None, board: Layout = SENET) -> np.ndarray:
    """The mat as a BGR image at ``dpi``; ``url`` fills the QR space (left blank without one);
    ``board`` is the game's layout (long squares, marked squares)."""
    scale = dpi / MM_PER_INCH
    image = np.full((round(layout.height_mm * scale), round(layout.width_mm * scale), 3), PAPER, np.uint8)

    def pt(x: float, y: float) -> tuple[int, int]:
        return round(x * scale), round(y * scale)

    line = max(1, round(0.8 * scale))
    for square in SQUARES:
        corners = layout.square_corners(square)
        cv2.rectangle(image, pt(*corners[0]), pt(*corners[2]), FIELD, -1)
        cv2.rectangle(image, pt(*corners[0]), pt(*corners[2]), INK, line)
        _draw_square_label(image, layout, square, scale, board)
    for start, end in inner_edges(layout, board):  # a long square's thirds: ticks at its edges, not a line across
        (ax, ay), (bx, by) = start, end
        cut = 0.15
        cv2.line(image, pt(ax + cut * (bx - ax), ay + cut * (by - ay)), pt(bx - cut * (bx - ax), by - cut * (by - ay)), FIELD, line + 1)
    x, y, w, h = layout.tray
    cv2.rectangle(image, pt(x, y), pt(x + w, y + h), FIELD, -1)
    cv2.rectangle(image, pt(x, y), pt(x + w, y + h), INK, line)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    for marker in layout.markers:
        side = round(marker.size * scale)
        tile = cv2.aruco.generateImageMarker(dictionary, marker.id, side)
        left, top = pt(marker.x, marker.y)
        image[top : top + side, left : left + side] = tile[:, :, None]
    _draw_qr(image, layout, scale, url)
    return image


def _zigzag(dy: float) -> list[tuple[float, ...]]:
    points = [(-2 + i, dy + (0.4 if i % 2 else -0.4)) for i in range(5)]
    return [("line", *a, *b) for a, b in zip(points, points[1:])]


#: The marks of the special squares, drawn below a square's middle, in units of a twentieth
#: of the square's side around that point: ("line", x1, y1, x2, y2) or ("circle", x, y, r).
#: The printed mat and the page's board draw the same marks.
GLYPHS: dict[int, list[tuple[float, ...]]] = {
    15: [("circle", 0, -1.2, 0.6), ("line", -1, -0.4, 1, -0.4), ("line", 0, -0.6, 0, 1.2)],  # ankh
    26: [shape for dx in (-1.5, 0, 1.5) for shape in (("line", dx, -1, dx, 1), ("line", dx - 0.4, -0.3, dx + 0.4, -0.3))],  # nefer x3
    27: _zigzag(-0.5) + _zigzag(0.5),  # water
    28: [("line", dx, -1, dx, 1) for dx in (-1.2, 0, 1.2)],  # three judges
    29: [("line", dx, -1, dx, 1) for dx in (-0.6, 0.6)],  # two judges
    30: [("circle", 0, 0, 1)],  # the sun
}


#: The mark of a marked square on a board other than Senet's track (RAMSES): a diamond.
MARKED_GLYPH: list[tuple[float, ...]] = [("line", 0, -1.3, 1.3, 0), ("line", 1.3, 0, 0, 1.3), ("line", 0, 1.3, -1.3, 0),
                                         ("line", -1.3, 0, 0, -1.3)]


def glyphs_of(board: Layout, square: int) -> list[tuple[float, ...]]:
    """The marks drawn on a square: Senet's special squares on a raced board, diamonds on marked ones otherwise."""
    if board.raced:
        return GLYPHS.get(square, [])
    return MARKED_GLYPH if board.is_marked(square) else []


def inner_edges(layout: MatLayout, board: Layout) -> list[tuple[Point, Point]]:
    """The edges (mm) between the squares of a long cell, where its thirds meet."""
    edges = []
    for cell in board.long_cells:
        for a, b in zip(cell, cell[1:]):
            shared = sorted(set(layout.square_corners(a)) & set(layout.square_corners(b)))
            if len(shared) == 2:
                edges.append((shared[0], shared[1]))
    return edges


def glyph_centre(layout: MatLayout, square: int) -> tuple[float, float, float]:
    """Where a square's mark is drawn (mm) and its unit (a twentieth of the side)."""
    (x0, _), _, (x1, y1), _ = layout.square_corners(square)
    return (x0 + x1) / 2, y1 - 0.13 * layout.square_mm, 0.05 * layout.square_mm


def _draw_square_label(image: np.ndarray, layout: MatLayout, square: int, scale: float, board: Layout = SENET) -> None:
    """The number at the top middle of the square; a special square's mark at the bottom middle.

    The corners and the centre stay plain: the reader samples the field colour there.
    """
    (x0, y0), _, (x1, _), _ = layout.square_corners(square)
    _text(image, str(square), ((x0 + x1) / 2, y0 + 0.14 * layout.square_mm), 0.13 * layout.square_mm, scale, INK)
    cx, cy, u = glyph_centre(layout, square)
    width = max(1, round(0.45 * scale))

    def px(x: float, y: float) -> tuple[int, int]:
        return round((cx + x * u) * scale), round((cy + y * u) * scale)

    for kind, *values in glyphs_of(board, square):
        if kind == "line":
            cv2.line(image, px(values[0], values[1]), px(values[2], values[3]), INK, width)
        else:
            cv2.circle(image, px(values[0], values[1]), round(values[2] * u * scale), INK, width)


def _text(
    image: np.ndarray, text: str, centre: Point, height_mm: float, scale: float, colour: tuple[int, int, int]
) -> None:
    """Draw ``text`` centred on ``centre`` (mm), its capitals ``height_mm`` tall."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    size = height_mm * scale / 22.0
    thickness = max(1, round(size * 2))
    (w, h), _ = cv2.getTextSize(text, font, size, thickness)
    origin = (round(centre[0] * scale - w / 2), round(centre[1] * scale + h / 2))
    cv2.putText(image, text, origin, font, size, colour, thickness, cv2.LINE_AA)


def _draw_qr(image: np.ndarray, layout: MatLayout, scale: float, url: str | None) -> None:
    x, y, size = layout.qr
    left, top, side = round(x * scale), round(y * scale), round(size * scale)
    cv2.rectangle(image, (left, top), (left + side, top + side), (200, 200, 200), max(1, round(0.3 * scale)))
    if not url:
        return
    matrix = np.array(segno.make(url, error="m").matrix, dtype=np.uint8)
    modules = matrix.shape[0] + 8  # a quiet zone of four modules on each side
    cell = side / modules
    for row, col in zip(*np.nonzero(matrix)):
        a = (round(left + (col + 4) * cell), round(top + (row + 4) * cell))
        b = (round(left + (col + 5) * cell) - 1, round(top + (row + 5) * cell) - 1)
        cv2.rectangle(image, a, b, (0, 0, 0), -1)


def check_dpi(dpi: int) -> int:
    """``dpi`` if the mat can be written at it; ValueError saying the range otherwise."""
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not MIN_DPI <= dpi <= MAX_DPI:
        raise ValueError(f"dpi {dpi!r} is outside {MIN_DPI}..{MAX_DPI}: below {MIN_DPI} the markers print soft, "
                         f"above {MAX_DPI} drawing the mat takes too much memory")
    return dpi


def check_mat_folder(out_dir: Path) -> Path:
    """``out_dir`` if the mat can be written into it (it may not exist yet); ValueError otherwise."""
    if out_dir.exists() and not out_dir.is_dir():
        raise ValueError(f"{out_dir} is a file, not a folder; name a folder to write mat.png, mat.pdf and mat.json into")
    return out_dir


def write_mat(out_dir: Path, paper: str = "a3", dpi: int = 150, url: str | None = None, board: Layout = SENET) -> list[Path]:
    """Write ``mat.png``, ``mat.pdf`` (page size = the paper) and ``mat.json`` into ``out_dir``,
    for the game's ``board`` (``mat.json`` names its long and marked squares).

    >>> write_mat(Path("mats"), dpi=20)
    Traceback (most recent call last):
    ValueError: dpi 20 is outside 150..600: below 150 the markers print soft, above 600 drawing the mat takes too much memory
    """
    check_dpi(dpi)
    check_mat_folder(out_dir)
    layout = MatLayout.for_paper(paper)
    out_dir.mkdir(parents=True, exist_ok=True)
    picture = Image.fromarray(cv2.cvtColor(render_mat(layout, dpi, url, board), cv2.COLOR_BGR2RGB))
    paths = [out_dir / "mat.png", out_dir / "mat.pdf", out_dir / "mat.json"]
    picture.save(paths[0], dpi=(dpi, dpi))
    picture.save(paths[1], resolution=dpi)
    geometry = layout.geometry(dpi) | {"board": {"name": board.name, "long": [list(cell) for cell in board.long_cells],
                                                 "marked": sorted(board.marked)}}
    paths[2].write_text(json.dumps(geometry, indent=1) + "\n")
    return paths
