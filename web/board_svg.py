"""The board on the page: an SVG drawn from the same layout and marks as the printed mat.

    >>> svg = board_svg()
    >>> svg.count('class="sq"'), 'aria-label="square 27"' in svg
    (30, True)
"""

from __future__ import annotations

from markupsafe import Markup, escape

from senet.vision.mat import FIELD, GLYPHS, INK, MatLayout, glyph_centre


def _rgb(bgr: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*reversed(bgr))


def board_svg(paper: str = "a3", board_label: str = "the board", square_label: str = "square {square}") -> Markup:
    """The 3 x 10 grid in mat millimetres: squares (numbered, special ones marked) with a
    piece slot each; the page's script shows pieces and highlights through attributes.
    The labels (for screen readers) come in the visitor's language."""
    layout = MatLayout.for_paper(paper)
    side = layout.square_mm
    x0, y0 = layout.grid_x, layout.grid_y
    parts = [
        f'<svg class="board" viewBox="{x0 - 1:.1f} {y0 - 1:.1f} {10 * side + 2:.1f} {3 * side + 2:.1f}" '
        f'role="group" aria-label="{escape(board_label)}">'
    ]
    for square in range(1, 31):
        (left, top), _, (right, bottom), _ = layout.square_corners(square)
        cx, cy, unit = glyph_centre(layout, square)
        parts.append(
            f'<g class="sq" data-square="{square}" role="button" tabindex="0" aria-label="{escape(square_label.format(square=square))}">'
            f'<rect x="{left:.2f}" y="{top:.2f}" width="{side:.2f}" height="{side:.2f}" fill="{_rgb(FIELD)}" '
            f'stroke="{_rgb(INK)}" stroke-width="0.8"/>'
            f'<text x="{(left + right) / 2:.2f}" y="{top + 0.2 * side:.2f}" font-size="{0.16 * side:.2f}" '
            f'text-anchor="middle" fill="{_rgb(INK)}">{square}</text>'
        )
        for kind, *values in GLYPHS.get(square, []):
            if kind == "line":
                ax, ay, bx, by = (cx + values[0] * unit, cy + values[1] * unit, cx + values[2] * unit, cy + values[3] * unit)
                parts.append(f'<line x1="{ax:.2f}" y1="{ay:.2f}" x2="{bx:.2f}" y2="{by:.2f}" stroke="{_rgb(INK)}" stroke-width="0.45"/>')
            else:
                parts.append(f'<circle cx="{cx + values[0] * unit:.2f}" cy="{cy + values[1] * unit:.2f}" r="{values[2] * unit:.2f}" '
                             f'fill="none" stroke="{_rgb(INK)}" stroke-width="0.45"/>')
        parts.append(f'<circle class="piece" cx="{(left + right) / 2:.2f}" cy="{(top + bottom) / 2:.2f}" r="{0.34 * side:.2f}"/></g>')
    parts.append("</svg>")
    return Markup("".join(parts))
