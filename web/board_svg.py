"""The board on the page: an SVG drawn from the same layout and marks as the printed mat.

    >>> svg = board_svg()
    >>> svg.count('class="sq"'), 'aria-label="square 27"' in svg
    (30, True)
    >>> from senet.engine.layout import find_layout
    >>> svg = board_svg(layout=find_layout("ramses"))
    >>> svg.count('class="sq"'), svg.count('class="long"'), svg.count('class="marked"')
    (30, 2, 5)
"""

from __future__ import annotations

from markupsafe import Markup, escape

from senet.engine.layout import SENET, SQUARES, Layout
from senet.vision.mat import FIELD, INK, MatLayout, glyph_centre, glyphs_of, inner_edges


def _rgb(bgr: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*reversed(bgr))


def board_svg(paper: str = "a3", board_label: str = "the board", square_label: str = "square {square}",
              layout: Layout = SENET) -> Markup:
    """The 3 x 10 grid in mat millimetres: squares (numbered, special ones marked) with a
    piece slot each; the page's script shows pieces and highlights through attributes.
    A long cell (RAMSES) is drawn as one cell whose thirds are its squares, a marked square
    with an inner frame. The labels (for screen readers) come in the visitor's language."""
    mat = MatLayout.for_paper(paper)
    side = mat.square_mm
    x0, y0 = mat.grid_x, mat.grid_y
    parts = [
        f'<svg class="board" data-layout="{escape(layout.name)}" viewBox="{x0 - 1:.1f} {y0 - 1:.1f} {10 * side + 2:.1f} '
        f'{3 * side + 2:.1f}" role="group" aria-label="{escape(board_label)}">'
    ]
    for square in SQUARES:
        (left, top), _, (right, bottom), _ = mat.square_corners(square)
        cx, cy, unit = glyph_centre(mat, square)
        long = layout.is_long(square)
        outline = 'stroke="none"' if long else f'stroke="{_rgb(INK)}" stroke-width="0.8"'
        parts.append(
            f'<g class="sq" data-square="{square}" role="button" tabindex="0" aria-label="{escape(square_label.format(square=square))}">'
            f'<rect x="{left:.2f}" y="{top:.2f}" width="{side:.2f}" height="{side:.2f}" fill="{_rgb(FIELD)}" {outline}/>'
            f'<text x="{(left + right) / 2:.2f}" y="{top + 0.2 * side:.2f}" font-size="{0.16 * side:.2f}" '
            f'text-anchor="middle" fill="{_rgb(INK)}">{square}</text>'
        )
        if layout.is_marked(square) and not layout.raced:
            parts.append('<desc class="marked">marked</desc>')
        for kind, *values in glyphs_of(layout, square):
            if kind == "line":
                ax, ay, bx, by = (cx + values[0] * unit, cy + values[1] * unit, cx + values[2] * unit, cy + values[3] * unit)
                parts.append(f'<line x1="{ax:.2f}" y1="{ay:.2f}" x2="{bx:.2f}" y2="{by:.2f}" stroke="{_rgb(INK)}" stroke-width="0.45"/>')
            else:
                parts.append(f'<circle cx="{cx + values[0] * unit:.2f}" cy="{cy + values[1] * unit:.2f}" r="{values[2] * unit:.2f}" '
                             f'fill="none" stroke="{_rgb(INK)}" stroke-width="0.45"/>')
        parts.append(f'<circle class="piece" cx="{(left + right) / 2:.2f}" cy="{(top + bottom) / 2:.2f}" r="{0.34 * side:.2f}"/></g>')
    for (ax, ay), (bx, by) in inner_edges(mat, layout):  # where a long square's thirds meet: ticks, as on the mat
        for t0, t1 in ((0, 0.15), (0.85, 1)):
            parts.append(f'<line x1="{ax + t0 * (bx - ax):.2f}" y1="{ay + t0 * (by - ay):.2f}" x2="{ax + t1 * (bx - ax):.2f}" '
                         f'y2="{ay + t1 * (by - ay):.2f}" stroke="{_rgb(INK)}" stroke-width="0.8"/>')
    for cell in layout.long_cells:
        (left, top), (right, bottom) = _cell_box(mat, cell)
        parts.append(f'<rect class="long" x="{left:.2f}" y="{top:.2f}" width="{right - left:.2f}" height="{bottom - top:.2f}" '
                     f'fill="none" stroke="{_rgb(INK)}" stroke-width="0.8" pointer-events="none"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _cell_box(mat: MatLayout, cell: tuple[int, ...]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The top-left and bottom-right corners (mm) of a cell of several squares."""
    corners = [point for square in cell for point in mat.square_corners(square)]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return (min(xs), min(ys)), (max(xs), max(ys))
