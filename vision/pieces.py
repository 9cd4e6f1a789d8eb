"""Finding the standing pieces in the top view of the board, wherever they stand.

A piece may stand anywhere in its square, and a tilted camera sees a tall piece leaning
away from the point below it. So the finder does not look at fixed spots: it slides a
model of a piece over a fine lattice of base positions covering the grid. For a base
position the model says where the piece's body shows in the top view (its base disc and
its top, pushed outwards by the camera's parallax) and where plain field must show just
around it. The field is told apart by how much less green than the empty board (learnt
from the start picture) a pixel is, so shadows, lamp colour and the printed lines do not count as pieces.
Peaks of the fit are pieces; each counts for the square its base stands in, with a
probability that falls off near the square's edge (the more the piece leans, the sooner).
A piece whose base hides behind a nearer piece's top is looked for again in what the
pieces found leave unexplained. Light and dark are told by the brightness and colour of
the piece against the field around it, as learnt from the start position (with how both
kinds' looks drift along the rows, where the start pieces show that). Whatever else
covers the grid is a hand when it comes in from beyond the view (wider than a finger where
it crosses the view's border), over the paper or the tray, or is larger than a piece;
otherwise (a piece not found among crowded ones) its squares are '?'.

The piece's size and height are learnt from the start picture: the shape that fits the
start pieces best.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from itertools import product
from math import ceil, erf, floor, hypot, prod, sqrt
from typing import NamedTuple

import cv2
import numpy as np

from senet.vision.parts import labelled_parts, measured_parts
from senet.vision.plane import CLIPPED, LOG, SQUARE_PX, BoardPlane, colour_planes, part_means
from senet.vision.robust import median, median_around, percentile, row_medians, row_percentiles, spread_below_zero

#: The kinds of piece (their letters on a board) as reasons name them.
KIND_NAMES = {"D": "dark", "L": "light"}
#: Lattice steps per square side.
STEPS = 10
#: Radii and heights (shares of a square's side: a set of pieces fits its board) and top/base
#: radius ratios tried for the start pieces: drums and spools (1) and cones (0.3).
RADII = (0.22, 0.26, 0.3, 0.34, 0.38)
HEIGHTS = (0.03, 0.15, 0.27, 0.39, 0.52)
TOP_RATIOS = (1.0, 0.3)
#: Rounds of finer steps between them around the best (each halves the step).
REFINE_ROUNDS = 2
#: Inside samples: along the axis from base to top (t), points of a disc of this size.
AXIS_STEPS = (0.0, 0.33, 0.67, 1.0)
DISC = np.array([(0.0, 0.0)] + [(0.55 * np.cos(a), 0.55 * np.sin(a)) for a in np.arange(6) * np.pi / 3])
INSIDE = 0.85
#: Outside samples: this far (in base radii) beyond the body's outline.
GAP = 0.25
#: A lattice position is a piece when this share of its body looks like a piece.
FOUND = 0.5
FOUND_SPREAD = 0.05
#: How sure the finder is of a piece's base position near a square's edge: in picture pixels
#: (where the picture is coarser than the top view), and at least in top-view pixels. A pose
#: or a height learnt a little off moves every base of a picture alike, by up to 2-3 pixels
#: in one picture of a hundred (generated hard pictures): at 0.8, a base found 1.5 pixels
#: over the line, that far from its square, was sure of the square beside.
POSITION_SIGMA_PICTURE, POSITION_SIGMA = 0.7, 1.0
#: A start piece's base is found at most this far from its square's middle (in squares).
START_REACH = 0.85
#: Each start piece's body covers what is seen around it at least this well (intersection over
#: union). In 1,924 hard generated start pictures where all ten pieces stand, the least of the
#: ten was 0.31 or more, 0.5 in most. Of 120 with one piece taken away (seed 1 of
#: :func:`senet.vision.testset.starts_with_a_piece_missing`, A3), 29 were learnt from nine
#: pieces without this check, 15 with it.
START_OVERLAP = 0.25
#: A shape that finds this many start pieces twice (more peaks on a start square than the one
#: piece standing there) is smaller than the pieces, and no fit of them: its two finds of a
#: neighbour can stand in for a missing piece. In 1,780 hard generated start pictures where
#: all ten pieces stand (seeds 1-3, A3 and A4), the shape learnt found at most two twice but
#: in two (3 and 4): those are learnt with another shape now, and still calibrate. Of 240
#: with a piece taken away (seed 1), 10 were learnt from nine pieces without this check
#: (shapes finding 3 to 14 twice), none with it; of 300 more (seed 2), 31 and 4.
FOUND_TWICE = 3
#: A rim (:func:`_rims`) is an edge this steep (grey levels, Canny's upper threshold) that
#: votes this often for one circle.
RIM_EDGE, RIM_VOTES = 60, 30
#: The start picture is looked at for rims only where they show at least this share of some
#: start square that colour showed bare: 0.48 on the cream piece of a refused picture, 0.07 or
#: less on most of 120 hard ones with a piece missing (0.2 at most).
RIM_SHOWN = 0.15
#: Two pieces' bases are never closer than this many base radii (solid pieces touch at 2).
APART = 1.5
#: A piece found behind another shows at least this share of its body, and its base is placed
#: this many times less surely (the part that shows is what places it).
SHOWN, BEHIND_SIGMA = 0.35, 3.0
#: A piece of a kind less green than the field shows at least a quarter of its body over the
#: field this share of its kind's drop less green (a dark thing as green as the field is a deep
#: shadow, perhaps a hand's).
FIELD_GREEN = 0.5
#: A piece found this many base radii from another may be its shadow.
SHADOW_REACH = 3.5
#: How far off a piece's lean may be, as a share of it (its height is learnt roughly), and the
#: least height a piece may have (a share of a square's side), however flat it was learnt: a
#: height learnt near zero may be far off (1,584 of 7,989 calibrations of generated pictures
#: learnt under 3 mm, their pieces 5.5-15.8 mm tall), and a tall piece standing on a line leans
#: over it unseen.
LEAN_DOUBT, LEAST_HEIGHT = 0.25, 0.4
#: How far off (one deviation) the middle of what shows places a base along the lean, as a share
#: of the lean it takes off (the height learnt from the start picture is often a third to a
#: half off: medians 0.36-0.43 of the true height on generated pictures, bench/vision_shape.py),
#: and how far off the near end of what shows places it, in top-view pixels (1.2, measured on
#: them). The two places are weighed by these.
LEAN_ERROR, NEAR_END_ERROR = 0.5, 1.2
#: The near end of what shows, and of the model's body: this percentile of their pixels along
#: the lean (a few stray pixels do not move it).
NEAR_END_PERCENTILE = 3
#: A base found this far (in squares) beyond the grid's edge stands on the edge square.
EDGE_SLACK = 0.1
#: A piece's light is the bare field's about its square where that shows at least this much
#: (in squares' areas, over the square and those around it).
FIELD_SHOWN = 0.5
#: A piece whose surroundings are this much not-field is part of something larger (a hand),
#: unless the bodies of the pieces found (its own among them) explain enough of them.
CROWDED = 0.55
#: A piece whose base shows less than this share of piece is not surely on its square.
GROUNDED = 0.5
#: A piece whose base lies within this many base radii of something lying at the tray's rim
#: (its RIM pixels) that is as long as STICK_LIKE squares may be a stick lying over the rim
#: (a piece's own shadow or overhang there is shorter).
BY_THE_TRAY, RIM, STICK_LIKE = 1.5, 2, 1.5
#: A square whose area is this much not-field, not explained by pieces found, is doubtful...
DOUBTFUL = 0.06
#: ...or whose area this much (the second of FAINT) shows a faint sign of a piece (evidence
#: above the first) that no piece found explains: a piece hardly unlike the field under this
#: light (a yellow piece under a warm lamp) is found by nothing else. Of 18,000 bare squares
#: read empty on clear hard generated pictures, none showed more than 0.13 so; such a missed
#: piece, 0.37. A pale piece in a lamp's glare, clipped and its colour lost, is such a sign too
#: (:meth:`PieceFinder._clipped_in_glare`), and so is a rim where the start pieces showed by
#: their rims (:attr:`PieceFinder.rims_shown`).
FAINT = (0.15, 0.2)
#: A pixel of the grid clipped in green and red where the empty field, as the light is now,
#: showed green at most GLARE_FROM: only something brighter than the field clips so, a pale
#: piece in a lamp's glare. (At the tray's CLIPPED_FROM, 210, cream pieces on a field at 212-216
#: gave no sign: a board was read "ok" with two of them missed.)
GLARE_FROM = 225
#: ...unless a piece stands on it this surely; and this much, covered...
HELD = 0.99
COVERED = 0.25
#: ...by what is larger than this many pieces' bodies (as drawn to explain what shows, with
#: the most lean on the grid): a smaller patch may be a piece not found (crowded by its
#: neighbours, or behind one), so its squares are only doubtful.
PIECE_SIZED = 1.0
#: ...or, where a piece surely stands, this much: the rest of its lean and shadow (its body as
#: modelled misses a crescent of a piece standing off its square's middle) fills a quarter.
HELD_COVERED = 0.4
#: The bodies of the pieces found, drawn this much larger, explain what shows of them.
EXPLAINED_GROW = 1.3
#: A square this much under something that reaches in from beyond the view (an arm) is covered.
REACHED = 0.1
#: Something reaches in from beyond the view where it meets the view's border over at least
#: this many millimetres: a child's finger is wider, while pieces borne off beside the mat,
#: which the border just grazes, meet it over a few.
REACHING_MM = 10.0
#: Changes of the paper around the grid that no shadow makes (log units, against the empty
#: mat): redder (skin) or bluer (a sleeve), another greenness, or darker than any shadow.
REDDER, GREENNESS_CHANGE = 0.25, 0.2
#: ...or redder and darker at once, by this much of each (log units): a greyish skin, redder
#: than the paper by about REDDER itself, where it shades (a shadow alone only darkens). A
#: hand's fingers over the paper margin otherwise showed as broken streaks, meeting the view's
#: border or not as the camera's exposure moved them by a few levels.
SKIN_REDDER, SKIN_DARKER = 0.15, 0.2
#: The bare field is at least this share of the grid, whatever covers the rest, and its drop
#: over red varies this little (log units).
FIELD_SHARE, FIELD_WIDTH = 0.05, 0.05
#: The bare field's colour ratios move with the paper's (log units, the light's colour); what
#: looks bare and moved this much more is something covering the field (a hand over the grid).
FIELD_DRIFT = 0.25
#: Evidence of a piece starts this many times the picture's noise (its deviation on the bare
#: field, measured in each picture on what lies below the field's colour: no piece makes a
#: pixel greener) above the field, at the least: in a dim, noisy picture the noise is as large
#: as what the start picture's pieces showed, and on the printed lines larger. In a frame,
#: each part is measured on at least NOISE_SAMPLES pixels.
NOISE_SIGMAS, NOISE_SAMPLES = 4.0, 50
#: The grid's printed lines and marks are this much darker than its field (log units).
PRINT_DARKER = 0.25
#: The grid's printed outline (top-view pixels), left out of the field.
BORDER = 2
#: Brightness against the field (log units) beyond which a pixel is surely a piece (or a hand):
#: shadows are not this dark, and the field is never this bright.
DARKER, BRIGHTER = 0.8, 0.35
#: The side (top-view pixels) of the mean over which a dark pixel's colour is told to be the
#: field's, a shadow's (see :func:`_field_hued`): pixel by pixel, a dark shadow's is noisy.
SHADOW_COLOUR_PX = 5
#: A kind of piece is told from the field by being this much less green (log units, the start
#: pieces' median), or else by a brightness no shadow or field has (half sure, at the least:
#: :func:`_bright_or_dark`): black pieces of the field's own hue are plain to see.
LEAST_DROP = 0.12
#: Floor on the colour spread, so ten pieces cannot make a model too sure; and the degrees of
#: freedom of its heavy tails.
MIN_COLOUR_SPREAD, COLOUR_TAIL = 0.08, 3.0
#: The two kinds' looks must lie at least this many spreads apart (both features together), or
#: the start pieces must part cleanly: along the line from one kind's look to the other's,
#: every light piece at least KINDS_PARTED spreads beyond every dark one (pieces of a kind that
#: differ among themselves, some mirroring a lamp, widen the spread but leave the kinds apart).
#: Either way they lie this many least spreads (MIN_COLOUR_SPREAD) apart: start pieces that
#: part cleanly by less would still be unsure in every picture after.
KINDS_APART, KINDS_PARTED = 3.0, 0.5
#: A freer fit of the start pieces' looks (a bulge, :func:`_bend`, or a drift of each kind's
#: own) is learnt where a plainer one parts the kinds too only when it parts them this many
#: times as cleanly.
FREER_EARNS = 3.0
#: The features that tell the kinds apart (:class:`ColourModel`): brightness by the darker
#: quarter, and blue-red.
DECIDE = slice(0, 2)
#: The same with brightness by the median: a piece it calls the other kind is torn between them.
DECIDE_BY_MEDIAN = [2, 1]
#: The least share of plain pixels nearby (Gaussian weight) to fill a hidden pixel from them.
FILL_WEIGHT = 0.02
#: How far from the grid's outer edge (top-view pixels) its printed outline may show, a few
#: pixels off where the grid's fit puts it (a lens bends the grid near its corners). A piece
#: found more than OUTLINE_SHARE on that band where the start pieces hid it (the bare board
#: there was filled in from the field around, green) may be the outline. A piece standing
#: at the very edge of its square may show as little: such a square is unsure, not empty.
OUTLINE_REACH, OUTLINE_SHARE = 6, 0.9
#: Two pieces found on one square, one called dark and the other light at least this surely,
#: are two pieces (one piece has one kind), not one piece found twice (:func:`two_kinds`). A
#: crowded start's dark piece beside a light one over its line may be called at 94% only; at
#: 0.9, 1,600 generated starts with a piece missing were accepted no more often than at 0.95.
TWO_KINDS = 0.9
#: An accepted board teaches the colours of the pieces placed this surely on their squares,
#: moving each kind's look this share of the way towards them.
LOOK_SURE, LEARN_RATE = 0.95, 0.2
#: A picture's pieces whose brightness parts into a darker and a lighter group, this many
#: colour spreads apart, show the two kinds as they look now: a piece the colour model calls
#: against its group is doubtful.
SPLIT_GAP = 2.0
#: A picture's pieces whose brightness parts into two groups, called dark and light on the whole
#: (none at least LEANING surely the other way), this many of the groups' own spreads apart, say
#: how sure each piece's kind is.
GROUPS_APART, LEANING = 4.0, 0.75


class CalibrationError(ValueError):
    """The start picture cannot teach the reader (what is wrong is in the message). ``missing``:
    the start squares on which no piece is seen, where that is what is wrong."""

    def __init__(self, reason: str, missing: frozenset[int] = frozenset()) -> None:
        super().__init__(reason)
        self.missing = missing

    @classmethod
    def not_the_start(cls, wanted: set[int], seen: set[int]) -> CalibrationError:
        """The start position, whose pieces stand on the squares ``wanted``, is not what the
        camera sees, pieces on the squares ``seen``: naming the squares where none is seen.

            >>> CalibrationError.not_the_start({1, 2}, {1}).missing
            frozenset({2})
        """
        return cls(_what_is_wrong(wanted, seen), frozenset(wanted - seen))


@dataclass(frozen=True)
class PieceShape:
    """A piece seen as a solid: base radius, height and top radius over base radius (mm)."""

    radius_mm: float
    height_mm: float
    top_ratio: float


@dataclass(frozen=True)
class Piece:
    """A piece found: base position (top-view pixels), its square, how sure, how light."""

    x: float
    y: float
    square: int
    found: float  # probability that a piece stands here
    light: float  # probability that it is a light piece
    crowded: bool
    spread: tuple[float, float] = (1.0, 1.0)  # how surely the base is placed: deviations in x, y
    #: Whether its base shows as a piece: a piece standing beside the grid, its body leaning
    #: over an edge square, shows none there.
    grounded: bool = True
    #: Whether it is found beside a stick lying over the tray's rim: it may be that stick.
    by_stick: bool = False
    #: Whether it shows the field's own green, though its kind does not: found by its darkness
    #: (or brightness) alone, it may be a deep shadow (or a glare).
    field_coloured: bool = False
    #: Whether most of what shows of it lies on the grid's outline where the start pieces hid
    #: it (:attr:`Background.hidden_outline`): it may be that outline.
    on_outline: bool = False


@dataclass(frozen=True)
class SquareReadings:
    """Per square: label ('.', 'D', 'L' or '?'), confidence, probabilities and covered."""

    labels: str
    confidence: np.ndarray  # (30,)
    probabilities: np.ndarray  # (30, 3): empty, dark, light
    covered: np.ndarray  # (30,) bool: a hand or arm lies over the square
    pieces: tuple[Piece, ...] = ()


@dataclass
class Lattice:
    """Sample positions of the piece model at every lattice point, as flat top-view indices."""

    positions: np.ndarray  # (N, 2) base positions
    inside: np.ndarray  # (N, I) indices
    outside: np.ndarray  # (N, O) indices
    axis: np.ndarray  # (N, 2) from the base to the top's place in the top view
    radius: float  # base radius, top-view pixels
    top_radius: float  # the top's radius as it shows in the top view
    known: np.ndarray  # flat float mask of the pixels judged (the grid: the paper is not)
    inside_known: np.ndarray  # (N,) how many of each point's inside samples are known
    outside_known: np.ndarray  # (N,) and of its outside samples

    @classmethod
    def build(cls, plane: BoardPlane, nadir: np.ndarray, camera_height_mm: float, shape: PieceShape, known: np.ndarray) -> Lattice:
        """``nadir``: the point below the camera in top-view pixels; ``known``: the mask of the
        pixels to judge."""
        x0, y0 = plane.square_origin(1)
        step = SQUARE_PX / STEPS
        ys, xs = np.mgrid[0 : 3 * STEPS, 0 : 10 * STEPS]
        positions = np.column_stack([x0 + (xs.ravel() + 0.5) * step, y0 + (ys.ravel() + 0.5) * step])
        lean = _lean_per_px(camera_height_mm, shape.height_mm)
        axis = (positions - nadir) * lean
        length = np.linalg.norm(axis, axis=1, keepdims=True)
        along = np.where(length > 1e-6, axis / np.maximum(length, 1e-6), np.array([[1.0, 0.0]]))
        across = np.column_stack([-along[:, 1], along[:, 0]])
        radius = shape.radius_mm / plane.mm_per_px
        top = radius * shape.top_ratio * (1.0 + lean)

        def points(t: float, offsets: np.ndarray, scale: float, gap: float) -> np.ndarray:
            size = radius + t * (top - radius)
            centre = positions + t * axis
            return centre[:, None, :] + (offsets[None, :, :1] * along[:, None, :] + offsets[None, :, 1:] * across[:, None, :]) * (size * scale + gap)

        inside = np.concatenate([points(t, DISC, INSIDE, 0.0) for t in AXIS_STEPS], axis=1)
        diagonal = np.sqrt(0.5)
        outside = np.concatenate([
            points(0.0, np.array([(-1.0, 0.0), (-diagonal, diagonal), (-diagonal, -diagonal)]), 1.0, GAP * radius),
            points(0.5, np.array([(0.0, 1.0), (0.0, -1.0)]), 1.0, GAP * radius),
            points(1.0, np.array([(1.0, 0.0), (diagonal, diagonal), (diagonal, -diagonal)]), 1.0, GAP * radius),
        ], axis=1)
        inside, outside = _flat(inside, plane.size), _flat(outside, plane.size)
        weight = known.ravel().astype(np.float32)
        return cls(positions, inside, outside, axis, radius, top, weight,
                   np.maximum(weight[inside].sum(axis=1), 1.0), np.maximum(weight[outside].sum(axis=1), 1.0))

    def scores(self, evidence: np.ndarray, hidden: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Per lattice point: the share of the body and of the surroundings that look like a
        piece, counting only the known pixels that are not ``hidden`` (by pieces found)."""
        known, inside_known, outside_known = self.known, self.inside_known, self.outside_known
        if hidden is not None:
            known = known * ~hidden.ravel()
            inside_known, outside_known = (np.maximum(_row_sums(_gather(known, self.inside)), 1.0),
                                           np.maximum(_row_sums(_gather(known, self.outside)), 1.0))
        flat = evidence.ravel() * known
        return ((_row_sums(_gather(flat, self.inside)) / inside_known).reshape(3 * STEPS, 10 * STEPS),
                (_row_sums(_gather(flat, self.outside)) / outside_known).reshape(3 * STEPS, 10 * STEPS))

    def base_shares(self, evidence: np.ndarray, bases: Sequence[tuple[float, float]]) -> np.ndarray:
        """Per base (x, y; at the nearest lattice point), the share of its known samples that
        look like a piece (whatever the camera's angle, a standing piece covers its own base)."""
        samples = self.inside[[self.nearest(x, y) for x, y in bases], : len(DISC)]
        known = self.known[samples]
        return (evidence.ravel()[samples] * known).sum(axis=1).astype(np.float64) / np.maximum(known.sum(axis=1).astype(np.float64), 1.0)

    def nearest(self, x: float, y: float) -> int:
        """The index of the lattice point nearest (x, y) (the points form a 10 x 3 squares grid,
        :data:`STEPS` a square each way)."""
        left, top, columns, rows = self._frame
        step = SQUARE_PX / STEPS
        column = min(max(int((x - left) // step), 0), columns - 1)
        row = min(max(int((y - top) // step), 0), rows - 1)
        return row * columns + column

    @cached_property
    def _frame(self) -> tuple[float, float, int, int]:
        """The lattice's top-left corner (x, y) and its columns and rows (plain numbers: quick)."""
        step = SQUARE_PX / STEPS
        left, top = (self.positions[0] - step / 2).tolist()
        columns = int(round((float(self.positions[-1][0]) - left) / step + 0.5))
        return left, top, columns, len(self.positions) // columns

    def largest_body(self, grow: float) -> float:
        """The area (top-view pixels) of the largest body :meth:`body_mask` draws at ``grow``:
        the piece's widest disc swept along the most lean on the grid."""
        radius = grow * max(self.radius, self.top_radius)
        return float(np.pi * radius**2 + 2 * radius * self._most_lean)

    @cached_property
    def _most_lean(self) -> float:
        """The length of the longest lean on the grid (top-view pixels)."""
        return float(np.linalg.norm(self.axis, axis=1).max())

    def shown(self, hidden: np.ndarray) -> np.ndarray:
        """Per lattice point: the share of the body's known samples that ``hidden`` leaves in view."""
        known = self.known * ~hidden.ravel()
        return (_row_sums(_gather(known, self.inside)) / self.inside_known).reshape(3 * STEPS, 10 * STEPS)

    def body_mask(self, points: list[int], size: tuple[int, int], grow: float = 1.15) -> np.ndarray:
        """The top-view pixels covered by the bodies of the pieces at lattice ``points``."""
        mask = np.zeros((size[1], size[0]), np.uint8)
        thickness = max(1, int(round(2 * grow * max(self.radius, self.top_radius))))
        base_radius, top_radius = int(round(grow * self.radius)), int(round(grow * max(self.top_radius, 1.0)))
        for (x, y), (lean_x, lean_y) in zip(self.positions[points].tolist(), self.axis[points].tolist()):  # plain floats: quicker
            _draw_body(mask, (round(x), round(y)), (round(x + lean_x), round(y + lean_y)), base_radius, top_radius, thickness)
        return mask.astype(bool)


@dataclass(frozen=True)
class Background:
    """The empty board in the top view (:func:`colour_planes`), and the field's extent."""

    over_red: np.ndarray
    over_blue: np.ndarray
    brightness: np.ndarray
    grid: np.ndarray  # bool mask of the grid's squares, without their outline
    paper: np.ndarray  # bool mask of the paper around the grid, the tray and the markers left out
    edge: np.ndarray  # bool mask of where something comes in: the view's border
    tray: np.ndarray  # bool mask of the tray (its sticks are no pieces)
    tray_rim: np.ndarray  # bool mask of the tray's rim inside the view
    outline: np.ndarray  # bool mask of the grid's printed outline, between the grid and the paper
    filled: np.ndarray  # bool mask of what the start pieces hid: filled in from the bare board around

    @cached_property
    def printed(self) -> np.ndarray:
        """The grid's printed lines and marks: darker than its field."""
        return self.grid & (self.brightness < median(self.brightness[self.grid]) - PRINT_DARKER)

    @cached_property
    def hidden_outline(self) -> np.ndarray:
        """What the start pieces hid (:attr:`filled`) within OUTLINE_REACH of the grid's outer
        edge: the grid's printed outline may show there now, a few pixels off where the
        grid's fit put it, though the bare board was filled in green."""
        rows, columns = np.flatnonzero(self.grid.any(axis=1)), np.flatnonzero(self.grid.any(axis=0))
        top, left = int(rows[0]) - BORDER, int(columns[0]) - BORDER
        bottom, right = int(rows[-1]) + 1 + BORDER, int(columns[-1]) + 1 + BORDER
        near = np.zeros_like(self.grid)
        near[max(top - OUTLINE_REACH, 0) : bottom + OUTLINE_REACH, max(left - OUTLINE_REACH, 0) : right + OUTLINE_REACH] = True
        near[top + OUTLINE_REACH : bottom - OUTLINE_REACH, left + OUTLINE_REACH : right - OUTLINE_REACH] = False
        return near & self.filled

    @cached_property
    def noise_samples(self) -> tuple[np.ndarray, np.ndarray]:
        """The grid's :attr:`sample` split into its field's pixels and its print's."""
        printed = self.printed.flat[self.sample]
        return self.sample[~printed], self.sample[printed]

    @cached_property
    def sample(self) -> np.ndarray:
        """Flat indices of every other pixel of the grid each way: enough for its noise, its
        printed lines' too (thin: few of its pixels)."""
        return np.flatnonzero(_every(2, self.grid.shape) & self.grid)

    @cached_property
    def field_sample(self) -> np.ndarray:
        """Flat indices of every fourth pixel of the grid each way (some 1,500 at SQUARE_PX 30):
        plenty for the field's colour and light each frame, a quarter of the work of :attr:`sample`."""
        return np.flatnonzero(_every(4, self.grid.shape) & self.grid)

    @cached_property
    def paper_sample(self) -> np.ndarray:
        """Flat indices of every fourth pixel of the paper each way: plenty for its statistics."""
        return np.flatnonzero(_every(4, self.paper.shape) & self.paper)

    @cached_property
    def tray_rows(self) -> slice:
        """The view's rows from the tray's first on."""
        rows = np.flatnonzero(self.tray.any(axis=1))
        return slice(int(rows[0]) if rows.size else self.tray.shape[0], None)

    @cached_property
    def green(self) -> np.ndarray:
        """Each pixel's log green (brightness and the two greennesses are its means and ratios)."""
        return self.brightness + (self.over_red + self.over_blue) / 3

    @cached_property
    def edge_beside_tray(self) -> np.ndarray:
        """The view's border where it does not cut the tray off."""
        return self.edge & ~self.tray

    def changes(self, planes: tuple[np.ndarray, ...]) -> Changes:
        """How a frame's :func:`colour_planes` differ from the empty board's."""
        drop_red, drop_blue = self.over_red - planes[0], self.over_blue - planes[1]
        return Changes(drop_red, drop_blue, planes[2] - self.brightness, drop_red - drop_blue)


@dataclass(frozen=True)
class Changes:
    """Per pixel, against the empty board (log units): how much less green over red and over
    blue, how much brighter, and how much redder against blue."""

    drop_red: np.ndarray
    drop_blue: np.ndarray
    lighter: np.ndarray
    redder: np.ndarray


@dataclass
class ColourModel:
    """Light and dark pieces against the field around them, per kind: its features
    (brightness by a piece's darker quarter, blue-red, brightness by its median: see
    :meth:`PieceFinder._features`), and how far one piece strays from its kind's. That spread
    comes of the light and the camera, alike for both kinds: five pieces of a kind are too few
    to tell it apart (a kind whose one piece stood in a lamp's glare would claim every odd piece).
    Both kinds' looks may drift along the rows (:func:`_trend`), or bulge (:func:`_bend`):
    features are judged levelled (:meth:`level`). Each kind's look may drift on its own too
    (:attr:`kind_trend`): a levelled piece is judged against the kinds' looks where it stands.

    A piece is judged by its brightness and blue-red. The darker quarter's brightness decides
    (a lamp mirrored in a glossy dark top leaves its rim dark); where the median's calls the
    piece the other kind (a light piece's own shaded side, or a dark piece behind it, darkens
    its darker quarter), the piece is torn between the kinds: doubtful.

        >>> model = ColourModel(np.array([[-0.8, 1.0, -0.7], [0.35, 0.7, 0.4]]), np.array([0.2, 0.08, 0.2]))
        >>> round(model.light(np.array([-0.75, 0.95, -0.7])), 3), round(model.light(np.array([0.3, 0.72, 0.4])), 3)
        (0.002, 0.999)
        >>> [torn for _, torn in model.judge(np.array([[0.3, 0.72, 0.4], [-0.7, 0.72, 0.4]]))]
        [False, True]
    """

    means: np.ndarray  # (2, 3): dark, light
    spread: np.ndarray  # (3,): per feature
    #: (3,): how each feature changes per top-view pixel along the rows, for both kinds (the
    #: start pieces' own: see :func:`_trend`), and where along them it is nil.
    trend: np.ndarray = field(default_factory=lambda: np.zeros(3))
    middle: float = 0.0
    #: (3,): how each feature bends along the rows, per pixel squared from :attr:`middle`.
    bend: np.ndarray = field(default_factory=lambda: np.zeros(3))
    #: (2, 3): how each kind's look (dark, light) drifts per pixel along the rows beyond
    #: :attr:`trend`: a lamp mirrored in one kind's glossy tops at one end of the row.
    kind_trend: np.ndarray = field(default_factory=lambda: np.zeros((2, 3)))
    #: The start pieces' deciding features (:data:`DECIDE`, levelled), each less its kind's
    #: look (N, 2), and whether each is light (N,): how the kinds' pieces looked about their
    #: looks, following the looks as they move (:meth:`PieceFinder.learn`). Empty: none known.
    examples: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    examples_light: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))

    def level(self, features: np.ndarray, x: float | np.ndarray) -> np.ndarray:
        """A piece's ``features`` at ``x`` along the rows (top-view pixels), as the same piece
        would look at :attr:`middle`: the model's means are the kinds' looks there (or each
        row of ``features`` at its ``x``).

            >>> model = ColourModel(np.zeros((2, 3)), np.ones(3), np.array([0.01, 0.0, 0.01]), 100.0)
            >>> model.level(np.array([0.5, 0.2, 0.5]), 150.0).tolist()
            [0.0, 0.2, 0.0]
            >>> replace(model, trend=np.zeros(3), bend=np.array([-1e-4, 0.0, 0.0])).level(np.array([-0.25, 0.2, 0.5]), 150.0).tolist()
            [0.0, 0.2, 0.5]
        """
        away = np.asarray(x, float)[..., None] - self.middle
        return features - self.trend * away - self.bend * away**2

    def kind_drift(self, kinds: np.ndarray | int, x: np.ndarray | float) -> np.ndarray:
        """How far each kind's own drift (:attr:`kind_trend`) moves the look of a piece of
        ``kinds`` (0: dark, 1: light) at ``x`` along the rows from its look in the middle.

            >>> model = ColourModel(np.zeros((2, 3)), np.ones(3), middle=100.0, kind_trend=np.array([[0.01, 0, 0], [0, 0, 0]]))
            >>> model.kind_drift(np.array([0, 1]), np.array([150.0, 150.0])).tolist()
            [[0.5, 0.0, 0.0], [0.0, 0.0, 0.0]]
        """
        return self.kind_trend[kinds] * (np.asarray(x, float) - self.middle)[..., None]

    def looks_at(self, x: float | np.ndarray) -> np.ndarray:
        """The kinds' looks (dark, light: 2 x 3) that levelled features at each ``x`` along the
        rows (top-view pixels) are judged against (N x 2 x 3): :attr:`means`, each kind
        drifted by its own :attr:`kind_trend`.

            >>> model = ColourModel(np.array([[0.0, 0, 0], [1.0, 0, 0]]), np.ones(3), middle=100.0,
            ...                     kind_trend=np.array([[0.01, 0, 0], [0, 0, 0]]))
            >>> model.looks_at(150.0)[0, :, 0].tolist()
            [0.5, 1.0]
        """
        return self.means[None] + self.kind_drift(np.arange(2), np.asarray(x, float).reshape(-1, 1))

    def light(self, features: np.ndarray) -> float:
        """Probability that a piece with these features, in the middle of the rows, is light.
        The looks spread with heavy tails (Student's t): a piece unlike both kinds (a lamp's
        glare on a dark top) is doubtful, not surely of the kind it is a little less unlike."""
        return float(_light_odds(np.asarray(features, float)[None, DECIDE], self.means[:, DECIDE], self.spread[DECIDE])[0])

    def judge(self, features: np.ndarray, along: np.ndarray | None = None) -> list[tuple[float, bool]]:
        """Per piece (a row of ``features``, standing at ``along`` the rows: by default all at
        the middle), :meth:`light`, and whether the piece is torn: its
        brightness by its median calls it the other kind, or the start piece it looks most like
        (:attr:`examples`) was of the other kind. A start piece in shade can look far from its
        kind's look and yet nearer it than the other kind's: the model's call for a piece
        looking as it did would go against what the start showed such a piece to be.

            >>> model = ColourModel(np.array([[-1.7, 0.0, -1.5], [0.5, 0.0, 0.7]]), np.full(3, 0.1),
            ...                     examples=np.array([[0.0, 0.0], [-1.5, 0.0]]), examples_light=np.array([False, True]))
            >>> [(round(light, 2), torn) for light, torn in model.judge(np.array([[-1.05, 0.0, -1.3], [-1.65, 0.0, -1.5]]))]
            [(0.01, True), (0.0, False)]
        """
        values = np.asarray(features, float).reshape(-1, len(self.spread))
        if not len(values):
            return []
        looks = self.looks_at(np.full(len(values), self.middle) if along is None else along)
        light, by_median = (_light_odds(values[:, by], looks[:, :, by], self.spread[by]) for by in (DECIDE, DECIDE_BY_MEDIAN))
        judged = list(zip(light.tolist(), ((light - 0.5) * (by_median - 0.5) < 0).tolist()))
        if not len(self.examples):
            return judged
        examples = self.examples[None] + looks[:, self.examples_light.astype(np.intp), DECIDE]
        distances = (((values[:, None, DECIDE] - examples) / self.spread[DECIDE]) ** 2).sum(axis=2)
        nearest_light = self.examples_light[distances.argmin(axis=1)].tolist()
        return [(light, torn or (light > 0.5) != like_light) for (light, torn), like_light in zip(judged, nearest_light)]


@dataclass
class PieceFinder:
    """Learns the empty board, the pieces' shape and their colours, then finds pieces."""

    plane: BoardPlane
    shape: PieceShape | None = None
    background: Background | None = None
    colours: ColourModel | None = None
    #: Not-field evidence: greenness drop from the empty board giving 0 and 1.
    evidence_range: tuple[float, float] = (0.1, 0.25)
    #: How much less green than the field the kinds ("D", "L") told from it so are (see
    #: LEAST_DROP): their start pieces' median drop.
    kind_drops: dict[str, float] = field(default_factory=dict)
    #: The kinds whose start pieces are less green than the field over red and over blue alike,
    #: by LEAST_DROP at least (the lesser of the two drops; see :meth:`_field_coloured`).
    less_green_over_both: set[str] = field(default_factory=set)
    #: Whether the start picture showed what is darker than the field but of its colour as
    #: shadows, not pieces (see :meth:`calibrate`): frames are read so too.
    green_shadows: bool = False
    #: Whether some start piece showed by its rim alone (see :meth:`calibrate`): in frames, a
    #: rim no piece found explains is a faint sign of a piece too (its square is unsure).
    rims_shown: bool = False
    _lattice: Lattice | None = field(default=None, repr=False)
    _camera: tuple[float, float, float] | None = field(default=None, repr=False)
    _position_sigma: float = field(default=POSITION_SIGMA, repr=False)
    #: The last frame's pieces placed surely on a square: (square, where along the rows they
    #: stand, their colour features).
    _looks: list[tuple[int, float, np.ndarray]] = field(default_factory=list, repr=False)
    #: The last frame read, without what reaches in from beyond the view: what lies on its grid,
    #: what changed on its paper and tray, and its squares (see :meth:`reached_from`).
    _unreached: tuple[np.ndarray, np.ndarray, SquareReadings] | None = field(default=None, repr=False)

    # -- learning --------------------------------------------------------------------------

    def calibrate(self, view: np.ndarray, nadir: np.ndarray, camera_height_mm: float, start: str) -> None:
        """Learn from the top view of the start position ``start`` (30 characters).

        A lamp low beside the board casts each piece's shadow over the squares beside it,
        darker than many a dark piece, and green: taken for part of the pieces, the shadows
        misplace them. When the start picture cannot be learnt as it shows, it is learnt again
        with what is darker than the field but of its colour taken for shadows, and frames are
        read so (:attr:`green_shadows`). Only then: pieces of the field's own hue are plain by
        their darkness alone; and read so in every light, 3 of 1,499 generated clear frames and
        one under a hand read a wrong board (the darkness beside a piece had left a square
        unsure). Last, round outlines the size of a piece count as pieces too (:func:`_rims`):
        a cream piece where a lamp washes out the field differs from it in colour no more than
        the picture's noise, yet its rim shows.

        Raises CalibrationError saying what to change (what the first look found wrong).
        """
        next(self.calibrations(view, nadir, camera_height_mm, start))

    def calibrations(self, view: np.ndarray, nadir: np.ndarray, camera_height_mm: float, start: str) -> Iterator[None]:
        """:meth:`calibrate` one way of looking after another: each time the next is asked for,
        the start picture is learnt the next way that fits it (the caller found the one before
        wrong, reading the start back). Raises CalibrationError as :meth:`calibrate` when no
        way fits."""
        planes = colour_planes(view)
        grid = self._grid_mask()
        wrong: CalibrationError | None = None
        learnt = False
        for green_shadows, rims_shown, evidence in self._ways_of_looking(view, planes, grid, start):
            try:
                self._learn_start(planes, grid, evidence, nadir, camera_height_mm, start)
            except CalibrationError as error:
                wrong = wrong or error
                continue
            self.green_shadows, self.rims_shown, learnt = green_shadows, rims_shown, True
            yield
        if not learnt:
            assert wrong is not None
            raise wrong

    def _ways_of_looking(self, view: np.ndarray, planes: tuple[np.ndarray, np.ndarray, np.ndarray], grid: np.ndarray,
                         start: str) -> Iterator[tuple[bool, bool, np.ndarray]]:
        """The ways :meth:`calibrate` looks at the start picture, in turn (each worked out only
        when the one before failed, or read the start back wrong): whether it takes green
        darkness for shadows, whether it takes rims for pieces, and the evidence of pieces it
        takes. The rims (:func:`_rims`) of the top ``view`` are added last, and only where
        they show at least RIM_SHOWN of some start square that the evidence as seen left bare
        (not in most start pictures refused: a piece missing, the pieces not set up yet)."""
        as_seen = _start_evidence(planes, grid)
        yield False, False, as_seen
        yield True, False, _start_evidence(planes, grid, green_shadows=True)
        rims = _rims(view, grid)
        wanted = [square - 1 for square, letter in enumerate(start, 1) if letter != "."]
        if self.plane.square_means((rims > 0.5) & (as_seen <= 0.5))[wanted].max() >= RIM_SHOWN:
            yield False, True, np.maximum(as_seen, rims)

    def _learn_start(self, planes: tuple[np.ndarray, np.ndarray, np.ndarray], grid: np.ndarray, evidence: np.ndarray,
                     nadir: np.ndarray, camera_height_mm: float, start: str) -> None:
        """:meth:`calibrate` on the start picture's :func:`colour_planes`, taking ``evidence``
        (:func:`_start_evidence`) for its pieces."""
        wanted = [i + 1 for i, c in enumerate(start) if c != "."]
        closest: tuple[int, set[int]] = (-1, set())
        side = SQUARE_PX * self.plane.mm_per_px

        def fit(radius: float, height: float, top_ratio: float) -> tuple[float, PieceShape, Lattice, dict[int, int]] | None:
            """How well pieces of this shape (shares of the square) explain the start picture."""
            nonlocal closest
            shape = PieceShape(radius * side, height * side, top_ratio)
            lattice = Lattice.build(self.plane, nadir, camera_height_mm, shape, grid)
            inside, outside = lattice.scores(evidence)
            peaks = self._peaks(lattice, inside - 0.5 * outside, inside)
            on_start = [square for square in (self._square_at(lattice.positions[p]) for p in peaks) if square in wanted]
            if len(on_start) - len(set(on_start)) >= FOUND_TWICE:
                return None
            chosen, seen = self._match_start(lattice, peaks, wanted)
            overlaps = {} if chosen is None else dict(zip(chosen, _overlaps(lattice, list(chosen.values()), evidence > 0.5, grid, self.plane.size)))
            # A shape too small for the pieces finds one twice, or a piece's shadow on the
            # square beside it left empty: the body put there explains little of what is seen.
            seen = seen - {square for square, share in overlaps.items() if share < START_OVERLAP}
            hits = len(seen & set(wanted)) - len(seen - set(wanted))
            if hits > closest[0]:
                closest = (hits, seen)
            if chosen is None or min(overlaps.values()) < START_OVERLAP:
                return None
            # Something on an empty square (a glint of the lamp) belongs to the empty board.
            extra = len(peaks) - len(wanted)
            quality = float(np.mean(list(overlaps.values()))) - 0.02 * extra
            return quality, shape, lattice, chosen

        best = None
        for radius, height, top_ratio in product(RADII, HEIGHTS, TOP_RATIOS):
            tried = fit(radius, height, top_ratio)
            if tried is not None and (best is None or tried[0] > best[0]):
                best = tried
        if best is None:
            raise CalibrationError.not_the_start(set(wanted), closest[1])
        # Between the shapes tried: a height and a radius nearer the pieces' own (where a piece's
        # body shows depends on both), in finer and finer steps.
        step_r, step_h = RADII[1] - RADII[0], HEIGHTS[1] - HEIGHTS[0]
        for _ in range(REFINE_ROUNDS):
            step_r, step_h = step_r / 2, step_h / 2
            radius, height, top_ratio = best[1].radius_mm / side, best[1].height_mm / side, best[1].top_ratio
            for dr, dh in ((-step_r, 0), (step_r, 0), (0, -step_h), (0, step_h)):
                tried = fit(radius + dr, max(height + dh, 0.0), top_ratio)
                if tried is not None and tried[0] > best[0]:
                    best = tried
        _, self.shape, lattice, chosen = best
        self._lattice, self._camera = lattice, (float(nadir[0]), float(nadir[1]), camera_height_mm)
        bodies = lattice.body_mask(list(chosen.values()), self.plane.size, grow=1.8)
        hidden = bodies | cv2.dilate(((evidence > 0.5) & grid & bodies).astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        self.background = Background(*(_fill(plane, hidden, grid) for plane in planes), grid, *self._surroundings(grid), filled=hidden)
        self._learn_colours(planes, start, chosen)

    def _match_start(self, lattice: Lattice, peaks: list[int], wanted: list[int]) -> tuple[dict[int, int] | None, set[int]]:
        """The start squares' pieces among the ``peaks`` found: each square gets the peak that
        keeps the pieces in their order along the path and nearest their squares' middles (a
        crowded start row leans pieces over their neighbours' squares). Also the squares where
        something stands, to say what is wrong when some square gets no piece.
        """
        def path(point: np.ndarray) -> float:
            square = self._square_at(point)
            x = (point[0] - self.plane.square_origin(square)[0]) / SQUARE_PX
            ahead = self._square_at(point + (SQUARE_PX, 0)) in (square + 1, 0) if square % 10 else x < 0.5
            return square - 0.5 + (x if ahead else 1 - x)

        order = sorted(peaks, key=lambda p: path(lattice.positions[p]))
        middles = {s: np.add(self.plane.square_origin(s), SQUARE_PX / 2) for s in wanted}
        cost = np.array([[np.linalg.norm(lattice.positions[p] - middles[s]) / SQUARE_PX for p in order] for s in wanted])
        allowed = cost < START_REACH
        seen = {self._square_at(lattice.positions[p]) for p in order}
        # Order-keeping assignment: total[i, j] is the least cost of the first i squares on the first j peaks.
        total = np.full((len(wanted) + 1, len(order) + 1), np.inf)
        total[0, :] = 0.0
        for i in range(1, len(wanted) + 1):
            for j in range(i, len(order) + 1):
                take = total[i - 1, j - 1] + cost[i - 1, j - 1] ** 2 if allowed[i - 1, j - 1] else np.inf
                total[i, j] = min(total[i, j - 1], take)
        if not np.isfinite(total[-1, -1]):
            return None, seen
        chosen, j = {}, len(order)
        for i in range(len(wanted), 0, -1):
            while total[i, j] == total[i, j - 1]:
                j -= 1
            chosen[wanted[i - 1]] = order[j - 1]
            j -= 1
        standing = [self._square_at(lattice.positions[p]) for p in chosen.values()]
        if len(set(standing)) < len(standing):  # one piece found twice stands in for a missing one
            return None, seen
        return chosen, seen

    def _learn_colours(self, planes: tuple[np.ndarray, np.ndarray, np.ndarray], start: str, chosen: dict[int, int]) -> None:
        """The two kinds' colours from the start pieces (square: lattice point), given the start
        picture's :func:`colour_planes`; and the evidence range from the weaker drop from the
        field's green of the kinds told by it (see LEAST_DROP)."""
        assert self._lattice is not None and self.background is not None
        changes = self.background.changes(planes)
        drop, least_drop = np.maximum(changes.drop_red, changes.drop_blue), np.minimum(changes.drop_red, changes.drop_blue)
        drops: dict[str, list[float]] = {"D": [], "L": []}
        least_drops: dict[str, list[float]] = {"D": [], "L": []}
        lighter: dict[str, list[float]] = {"D": [], "L": []}
        own = drop > 0.06
        for square, index in chosen.items():
            kind = start[square - 1]
            body = self._lattice.inside[index]
            drops[kind].append(float(np.median(drop.flat[body])))
            least_drops[kind].append(float(np.median(least_drop.flat[body])))
            lighter[kind].append(float(np.median(changes.lighter.flat[body])))
        by_drop = {kind: float(np.median(drops[kind])) for kind in "DL" if np.median(drops[kind]) >= LEAST_DROP}
        for kind, name in KIND_NAMES.items():
            if kind not in by_drop and _bright_or_dark(np.float32(np.median(lighter[kind]))) < 0.5:
                raise CalibrationError(f"the {name} pieces look too much like the green squares: use more light, or pieces of another colour")
        self.kind_drops = by_drop
        self.less_green_over_both = {kind for kind in "DL" if np.median(least_drops[kind]) >= LEAST_DROP}
        weakest = min(by_drop.values(), default=LEAST_DROP)
        self.evidence_range = (0.3 * weakest, 0.65 * weakest)
        points = list(chosen.values())
        looks = self._features(points, changes, own, np.zeros((len(points), 2)), levelled=False)  # the start picture is its own light
        letters, along = np.array([start[square - 1] for square in chosen]), self._lattice.positions[points, 0]
        learnt = _start_looks(looks, letters, along)
        if not learnt.parted:
            raise CalibrationError(_why_alike(learnt.model.means[:, DECIDE], learnt.spreads[:, DECIDE]))
        light = letters == "L"
        kinds = light.astype(np.intp)
        examples = (learnt.model.level(looks, along) - learnt.model.kind_drift(kinds, along))[:, DECIDE] - learnt.model.means[kinds, DECIDE]
        self.colours = replace(learnt.model, examples=examples, examples_light=light)

    def learn(self, board: str) -> None:
        """The board (30 characters) the referee accepted for the last frame read: how its
        pieces looked there moves each kind's colour a step towards it, so the model follows
        the light through the day (a lamp switched on, the sun going round)."""
        if self.colours is None:
            return
        colours = self.colours
        for kind, letter in enumerate("DL"):  # each piece's look as it would look in the middle of the rows
            seen = [features - colours.kind_drift(kind, x) for square, x, features in self._looks if board[square - 1] == letter]
            if seen:
                colours.means[kind] += LEARN_RATE * (np.median(seen, axis=0) - colours.means[kind])

    # -- reading ---------------------------------------------------------------------------

    @property
    def calibrated(self) -> bool:
        return self.colours is not None

    def set_camera(self, nadir: np.ndarray, camera_height_mm: float, view_px_per_picture_px: float = 1.0) -> None:
        """The camera seen from the mat now (rebuilds the piece model when it moved), and how
        many top-view pixels one pixel of its picture spans on the grid (where it sees worst)."""
        assert self.shape is not None and self.background is not None
        self._position_sigma = max(POSITION_SIGMA, POSITION_SIGMA_PICTURE * view_px_per_picture_px)
        camera = (float(nadir[0]), float(nadir[1]), camera_height_mm)
        if self._camera is None or np.abs(np.subtract(camera, self._camera)).max() > 0.5:
            self._lattice = Lattice.build(self.plane, nadir, camera_height_mm, self.shape, self.background.grid)
            self._camera = camera

    def read(self, view: np.ndarray, from_beyond: np.ndarray | None = None) -> SquareReadings:
        """The pieces on the top view of a frame. ``from_beyond``: where in the view (a bool
        mask) lies what the tray reader saw cross the paper beside the tray into it (a hand or
        an arm), or None; whatever else lies in the tray where the view cuts it off is sticks."""
        assert self._lattice is not None and self.background is not None and self.colours is not None
        lattice, background = self._lattice, self.background
        changes = background.changes(colour_planes(view))
        paper = self._paper_drift(changes)
        # The light's colour changed: take off the bare field's drop (a hand may hide most of it).
        field_red, field_blue = _field_drops(*(d.ravel()[background.field_sample] for d in (changes.drop_red, changes.drop_blue)))
        if max(abs(field_red - paper[0]), abs(field_blue - paper[1])) > FIELD_DRIFT:  # what looks bare is not
            field_red, field_blue = paper[0], paper[1]
        red_drop, blue_drop = changes.drop_red - field_red, changes.drop_blue - field_blue
        drop, least_drop = np.maximum(red_drop, blue_drop), np.minimum(red_drop, blue_drop)
        low, width = self._evidence_floor(drop)
        green = _to_unit((drop - low) / width)
        field = background.field_sample[green.ravel()[background.field_sample] < 0.5]
        overall = (median(changes.lighter.ravel()[field]), median(changes.redder.ravel()[field])) if field.size else (0.0, 0.0)
        # Brighter than the start picture is no sign here: the start pieces' shadows are gone.
        # Darker is, but not where the colour is the field's, when the start picture showed
        # that as shadows.
        dark = _dark(changes.lighter - overall[0])
        if self.green_shadows:
            dark[_field_hued(red_drop, low) & _field_hued(blue_drop, low)] = 0.0
        evidence = _solid(np.maximum(green, dark).astype(np.float32, copy=False))
        evidence[background.tray] = 0.0
        inside, outside = lattice.scores(evidence)
        peaks = self._peaks(lattice, inside - 0.5 * outside, inside, minimum=0.25)
        changed = self._paper_changed(changes, paper)
        by_stick = self._by_the_tray(changed)
        own = green > 0.5  # the pieces' own pixels: a shadow on the field is darker, but green
        seen = evidence > 0.5  # what lies on the field
        field_light = self._field_light(changes, seen, overall)
        places = dict(zip(peaks, lattice.positions[peaks].tolist()))
        placed = []  # (lattice point, base, where it stands on the grid, its square, whether its base lies beside the grid)
        for index in peaks:
            base = self._refine(index, places, evidence)
            x, y = self._onto_grid(*base)
            square = self._square_at((x, y))
            # A base beyond the grid, less than its radius off: the piece stands over the edge
            # of the square beside (or was put down beside the board): doubtful either way.
            beside = not square
            if beside:
                x, y = self._onto_grid(*base, slack=lattice.radius)
                square = self._square_at((x, y))
                if not square:
                    continue
            placed.append((index, base, (x, y), square, beside))
        # Every piece's looks at once: a few numpy calls for all, not a few for each.
        indices = [index for index, *_ in placed]
        features = self._features(indices, changes, own, field_light[[square - 1 for *_, square, _ in placed]], bases=[base for _, base, *_ in placed])
        judged = self.colours.judge(features, np.array([base[0] for _, base, *_ in placed], float))
        grounded = lattice.base_shares(evidence, [where for _, _, where, _, _ in placed]) >= GROUNDED
        on_outline = self._on_hidden_outline(lattice.inside[indices], evidence)
        shadows = [self._beside_another(index, places) for index in indices]
        field_coloured = self._field_coloured(lattice.inside[indices], drop, [light for light, _ in judged], least_drop, shadows)
        found = [_found(inside.flat[index]) for index in indices]
        # Each piece's kind as the picture's own pieces show them (those surely found: not a
        # speck or a shadow), and unsure where it is torn between the kinds (whatever the others show).
        lights = np.array([light for light, _ in judged])
        surely = [number for number, chance in enumerate(found) if chance > 0.5]
        looks = features[surely, 0]
        doubted = _against_the_others(looks / self.colours.spread[0], lights[surely], SPLIT_GAP)
        lights[surely] = np.where(doubted, 0.5, _as_the_others_show(looks, lights[surely]))
        lights[np.array([torn for _, torn in judged], bool)] = 0.5
        pieces, shares, sure, self._looks = [], [], [], []
        for (index, base, (x, y), square, beside), its_features, light, chance, base_shows, coloured, outline in zip(
                placed, features, lights.tolist(), found, grounded, field_coloured, on_outline):
            near_stick = self._near(by_stick, x, y)
            piece = Piece(x, y, square, chance, light, bool(outside.flat[index] > CROWDED), self._spread(index),
                          bool(base_shows) and not near_stick and not beside, near_stick, coloured, bool(outline))
            pieces.append(piece)
            shares.append(self._shares(piece))
            if chance > 0.5:
                sure.append(index)
                if shares[-1].get(square, 0.0) > LOOK_SURE and not outline:  # the outline teaches no look
                    self._looks.append((square, base[0], its_features))
        explained = lattice.body_mask(sure, self.plane.size, grow=EXPLAINED_GROW)
        unexplained = seen & ~explained & background.grid
        unclear = self.plane.square_means(unexplained)
        behind: list[tuple[int, Piece]] = []
        if unclear.max() > DOUBTFUL:
            behind = self._behind(evidence, own, drop, explained, peaks, changes, field_light)
            pieces += [piece for _, piece in behind]
            shares += [self._shares(piece) for _, piece in behind]
            explained |= lattice.body_mask([index for index, _ in behind], self.plane.size, grow=EXPLAINED_GROW)
            unexplained &= ~explained
            unclear = self.plane.square_means(unexplained)
        # Only a piece's crowded flag changes: each keeps its place, and its shares stand.
        pieces = self._uncrowded(pieces, list(zip(surely, sure)), behind, evidence)
        # A piece on the last row may overhang the paper between the grid and the tray, where
        # a stick may touch it: that is no arm (above the grid, fingers found as pieces are).
        overhang = explained.copy()
        overhang[: self.plane.grid_origin[1] + 3 * SQUARE_PX] = False
        part = self.plane.grid_part
        sign = (part(evidence) > FAINT[0]) | self._clipped_in_glare(part(view), overall[0])
        if self.rims_shown:
            sign |= part(_rims(view, background.grid)) > 0.5
        faint = self.plane.part_square_means(sign & ~part(explained) & part(background.grid))
        large = self.plane.part_square_means(self._larger_than_a_piece(part(unexplained)))
        self._unreached = (seen, changed & ~overhang, self._squares(pieces, shares, unclear, large, faint))
        return self.reached_from(from_beyond)

    def reached_from(self, from_beyond: np.ndarray | None) -> SquareReadings:
        """The squares of the frame last read (:meth:`read`), what the tray reader saw come into
        the tray from beyond lying where ``from_beyond`` says. A square is covered where
        something reaching in from beyond the view lies over REACHED of it: the more of the
        tray ``from_beyond`` holds, the more may be covered, never fewer."""
        assert self._unreached is not None, "read a frame first"
        seen, on_paper, squares = self._unreached
        reached = self.plane.square_means(self._reaching_in(seen, on_paper, from_beyond)) > REACHED
        return replace(squares, covered=squares.covered | reached)

    def _uncrowded(self, pieces: list[Piece], found: list[tuple[int, int]], behind: list[tuple[int, Piece]],
                   evidence: np.ndarray) -> list[Piece]:
        """``pieces`` in their order, none of them crowded by other pieces alone (:meth:`_crowded`):
        only that flag changes, never a piece's place. ``found``:
        the pieces surely found, by their number in ``pieces`` and their lattice point. A piece
        found ``behind`` one on its square (a tall piece's top, found again) crowds it no more
        than another piece does."""
        assert self._lattice is not None
        lattice, pieces = self._lattice, list(pieces)
        crowded = [(number, index) for number, index in found if pieces[number].crowded]
        if not crowded:
            return pieces
        covering = lattice.body_mask([index for _, index in found], self.plane.size, grow=1.0)
        for number, index in crowded:
            again = [point for point, piece in behind if piece.found > 0.5 and piece.square == pieces[number].square]
            around = covering | lattice.body_mask(again, self.plane.size, grow=1.0) if again else covering
            if not self._crowded(index, evidence, around):
                pieces[number] = replace(pieces[number], crowded=False)
        return pieces

    def _crowded(self, index: int, evidence: np.ndarray, covering: np.ndarray) -> bool:
        """Whether more than CROWDED of the surroundings of the piece at lattice point ``index``
        look like no field, of those no piece's body covers (``covering``: the bodies of the
        pieces found, this piece's among them): two pieces standing close in squares side by
        side crowd each other, and are no hand; nor is a piece taller or leaning more than the
        shape learnt, its own body as modelled reaching its surroundings."""
        assert self._lattice is not None
        lattice = self._lattice
        samples = lattice.outside[index]
        counted = (lattice.known[samples] > 0) & ~covering.flat[samples]
        return float((evidence.flat[samples] * counted).sum()) > CROWDED * max(int(counted.sum()), 1)

    def _behind(self, evidence: np.ndarray, own: np.ndarray, drop: np.ndarray, hidden: np.ndarray, peaks: list[int],
                changes: Changes, light: np.ndarray) -> list[tuple[int, Piece]]:
        """Pieces standing behind the pieces found (which ``hidden`` covers), nearer the camera:
        the two make one patch, whose best fit is the nearer piece. They are looked for again
        in what the pieces found leave unexplained, judged on the part of them that shows."""
        assert self._lattice is not None and self.colours is not None
        lattice = self._lattice
        inside, outside = lattice.scores(evidence, hidden)
        shown = lattice.shown(hidden)
        reach = APART * lattice.radius
        placed = []  # (lattice point, its square)
        for index in self._peaks(lattice, inside - 0.5 * outside, inside):
            x, y = lattice.positions[index]
            if shown.flat[index] < SHOWN or min((np.hypot(*(lattice.positions[p] - (x, y))) for p in peaks), default=np.inf) < reach:
                continue
            square = self._square_at((x, y))
            if square:
                placed.append((index, square))
        indices = [index for index, _ in placed]
        judged = self.colours.judge(self._features(indices, changes, own, light[[square - 1 for _, square in placed]], hidden=hidden),
                                    lattice.positions[indices, 0])
        kinds = [0.5 if doubtful else called for called, doubtful in judged]
        bodies = lattice.inside[indices]
        field_coloured = self._field_coloured(bodies, drop, kinds, shown=~hidden.ravel()[bodies])
        found = []
        for (index, square), kind, coloured in zip(placed, kinds, field_coloured):
            x, y = lattice.positions[index].tolist()
            found.append((index, Piece(x, y, square, _found(inside.flat[index]), kind, bool(outside.flat[index] > CROWDED), self._spread(index, BEHIND_SIGMA),
                                       field_coloured=coloured)))
        return found

    def _evidence_floor(self, drop: np.ndarray) -> tuple[np.ndarray | float, float]:
        """Where evidence of a piece starts (per pixel, or one for all) and how much more drop
        makes it sure, given a frame's drop from the field's green: the start picture's
        ``evidence_range``, raised above the noise of the field and of its printed lines."""
        low, high = self.evidence_range
        background = self.background
        assert background is not None
        floors = []
        for samples in background.noise_samples:
            below = drop.ravel()[samples]
            below = below[below < 0]
            floors.append(low if below.size < NOISE_SAMPLES else max(low, NOISE_SIGMAS * spread_below_zero(below)))
        if max(floors) <= low:
            return low, high - low
        return np.where(background.printed, np.float32(floors[1]), np.float32(floors[0])), high - low

    def _paper_drift(self, changes: Changes) -> tuple[float, float, float, float]:
        """How the light changed the paper around the grid as a whole (medians of the four
        :class:`Changes`): the white balance and the lamps drift; a hand covers less than half
        of it. A change of the light's colour moves the field's colour ratios as much."""
        background = self.background
        assert background is not None
        paper = background.paper_sample
        drop_red, drop_blue, lighter, redder = (median(plane.ravel()[paper]) for plane in
                                                (changes.drop_red, changes.drop_blue, changes.lighter, changes.redder))
        return drop_red, drop_blue, lighter, redder

    def _clipped_in_glare(self, grid: np.ndarray, drift: float) -> np.ndarray:
        """Where the ``grid`` (the top view's part over it, :meth:`BoardPlane.grid_part`) clips
        in green and red though the empty board, its light changed by ``drift`` (log units),
        was short of clipping there (GLARE_FROM): a pale piece in a lamp's glare, its colour
        lost (it shows hardly less green than the field). A mask of that part."""
        background = self.background
        assert background is not None
        part = self.plane.grid_part
        clipped = (cv2.inRange(grid, (0, CLIPPED, CLIPPED), (255, 255, 255)) > 0) & part(background.grid)  # green and red
        if not clipped.any():  # most frames; white paper in a lamp's glare clips, and is no piece
            return clipped
        return clipped & (part(background.green) + drift < LOG[GLARE_FROM])

    def _paper_changed(self, changes: Changes, drift: tuple[float, float, float, float]) -> np.ndarray:
        """The pixels of the paper and the tray that look unlike the empty mat's in a way no
        shadow does (a skin, a sleeve, a stick), against how the light changed the paper as a
        whole (``drift``, :meth:`_paper_drift`)."""
        background = self.background
        assert background is not None
        drop_red, drop_blue, lighter, redder = drift
        changed = ((cv2.absdiff(changes.redder, redder) > REDDER) | (cv2.absdiff(changes.drop_red, drop_red) > GREENNESS_CHANGE)
                   | (cv2.absdiff(changes.drop_blue, drop_blue) > GREENNESS_CHANGE) | (changes.lighter - lighter < -DARKER)
                   | ((changes.redder - redder > SKIN_REDDER) & (changes.lighter - lighter < -SKIN_DARKER)))
        return cv2.morphologyEx((changed & (background.paper | background.tray)).astype(np.uint8), cv2.MORPH_OPEN, _SQUARE3) > 0

    def _by_the_tray(self, changed: np.ndarray) -> np.ndarray:
        """The top-view points (y, x) of the tray's rim where a stick lies over it (``changed``:
        :meth:`_paper_changed`). A stick over the rim shows along the grid's last row as pieces
        standing at its edge would: a piece found near it (:meth:`_near`) is not surely one."""
        background = self.background
        assert background is not None
        rows = background.tray_rows
        at_rim = changed[rows] & background.tray_rim[rows]
        if not at_rim.any():
            return np.zeros((0, 2), np.intp)
        count, labels, stats = measured_parts((changed[rows] & background.tray[rows]).astype(np.uint8))
        stick = (stats[:, cv2.CC_STAT_WIDTH:cv2.CC_STAT_HEIGHT + 1].max(axis=1) >= STICK_LIKE * SQUARE_PX) & (np.arange(count) > 0)
        return np.argwhere(stick[labels] & at_rim) + (rows.start, 0)

    def _near(self, points: np.ndarray, x: float, y: float) -> bool:
        """Whether one of ``points`` (y, x) lies within BY_THE_TRAY base radii of a base at (x, y)."""
        assert self._lattice is not None
        return bool(len(points)) and bool((((points - (y, x)) ** 2).sum(axis=1) <= (BY_THE_TRAY * self._lattice.radius) ** 2).any())

    def _reaching_in(self, on_grid: np.ndarray, on_paper: np.ndarray, from_beyond: np.ndarray | None) -> np.ndarray:
        """The grid's pixels under something that comes in from beyond the view over the paper
        or the tray (``on_paper``), meeting the border over REACHING_MM at least: a hand or an
        arm, whatever pieces it looks like. In the tray, only what lies where ``from_beyond``
        (a mask, or None) says comes from beyond: the rest there is sticks, even where the view
        cuts them off."""
        background = self.background
        assert background is not None
        beyond = background.edge_beside_tray if from_beyond is None else background.edge_beside_tray | (from_beyond & background.tray)
        if not on_paper[beyond].any():  # nothing comes in (the grid lies well inside the view)
            return np.zeros_like(on_grid)
        # What lies on the paper reaches over the grid's printed outline to what lies on the grid.
        bridge = cv2.dilate(on_paper.astype(np.uint8), _BRIDGE).astype(bool) & background.outline
        count, labels = labelled_parts(((on_grid & background.grid) | on_paper | bridge).astype(np.uint8))
        if count <= 1:
            return np.zeros_like(on_grid)
        from_beyond = np.bincount(labels[beyond], minlength=count) * self.plane.mm_per_px >= REACHING_MM
        from_beyond[0] = False
        return from_beyond[labels] & background.grid

    def _larger_than_a_piece(self, patches: np.ndarray) -> np.ndarray:
        """The parts of ``patches`` (a bool mask of what the pieces found leave unexplained)
        larger than PIECE_SIZED bodies of a piece, drawn as the explained ones are."""
        assert self._lattice is not None
        if not patches.any():
            return patches
        _, labels, stats = measured_parts(patches.astype(np.uint8))
        large = stats[:, cv2.CC_STAT_AREA] > PIECE_SIZED * self._lattice.largest_body(EXPLAINED_GROW)
        large[0] = False
        return large[labels] if large.any() else np.zeros_like(patches)

    def _squares(self, pieces: list[Piece], shares: list[dict[int, float]], unclear: np.ndarray, large: np.ndarray,
                 faint: np.ndarray) -> SquareReadings:
        """The squares as the ``pieces`` found show them (each with its ``shares`` of the squares:
        :meth:`_shares`), covered where patches no piece explains, larger than a piece, lie or
        pieces found crowded stand (what reaches in from beyond: :meth:`reached_from`).
        ``unclear``, ``large`` and ``faint``: per square, the share of it that no piece explains,
        that such large patches cover, and that shows a faint sign of a piece none explains."""
        occupied_not = np.ones(31)
        light_weight = np.zeros(31)
        weight = np.zeros(31)
        shares = _one_a_square(pieces, shares)
        for piece, its_shares in zip(pieces, shares):
            for square, share in its_shares.items():
                occupied_not[square] *= 1.0 - piece.found * share
                light_weight[square] += piece.light * piece.found * share
                weight[square] += piece.found * share
        occupied = 1.0 - occupied_not[1:]
        light = np.where(weight[1:] > 0, light_weight[1:] / np.maximum(weight[1:], 1e-9), 0.5)
        probabilities = np.column_stack([1 - occupied, occupied * (1 - light), occupied * light])
        covered = large > np.where(occupied >= HELD, HELD_COVERED, COVERED)
        for piece in pieces:
            if piece.crowded and piece.found > 0.5:
                covered[piece.square - 1] = True
        # Something there that is not a whole piece (a piece half hidden?), or a faint sign of a
        # piece no piece found explains: doubtful, unless a piece surely stands there (a square
        # holds one piece: the rest is its shadow).
        doubtful = ((unclear > DOUBTFUL) | (faint > FAINT[1])) & (occupied < HELD)
        # So is a piece that may be the grid's outline, unless another piece surely stands there.
        outline = {piece.square for piece in pieces if piece.on_outline and piece.found > 0.5}
        for square in outline:
            empty = prod(1.0 - piece.found * its_shares.get(square, 0.0) for piece, its_shares in zip(pieces, shares) if not piece.on_outline)
            doubtful[square - 1] |= empty > 1 - HELD
        for piece in pieces:  # seen, but its base not (it may stand beside the grid), or a shadow?
            if piece.found > 0.5 and (not piece.grounded or piece.field_coloured):
                doubtful[piece.square - 1] = True
        for square in self._stood_over_a_line(pieces):
            doubtful[square - 1] = True
        confidence = np.where(doubtful, np.minimum(probabilities.max(axis=1), 0.5), probabilities.max(axis=1))
        labels = "".join(".DL"[k] for k in probabilities.argmax(axis=1))
        return SquareReadings(labels, confidence, probabilities, covered, tuple(pieces))

    def _field_coloured(self, bodies: np.ndarray, drop: np.ndarray, lights: Sequence[float], least_drop: np.ndarray | None = None,
                        shadows: Sequence[bool] = (), shown: np.ndarray | None = None) -> list[bool]:
        """Per piece (a row of ``bodies``: flat indices of the view, of which ``shown`` marks
        those that show, by default all), whether a piece of its ``lights`` (the probability it
        is light) is hardly less green than the field (``drop``: per pixel,
        how much less) where its kind plainly is: even the least green quarter of its body on
        the field is less than FIELD_GREEN of its kind's drop, that share being at least
        LEAST_DROP (a kind less green than the field by little is, in a noisy picture, at times
        no less green at all). The quarter, not the middle: a body placed a little off the
        piece shows the field too.

        ``least_drop`` (per pixel, the lesser of the drops over red and over blue), looked at
        for the pieces found beside another (where ``shadows`` is true), whose shadow they may
        be: a shadow lit by a fill light of another colour than the lamp's is less green over
        one of red and blue, but greener over the other, as the light's colour moved. Where the
        kind is less green over both, a body whose least green quarter is not is that shadow."""
        assert self.background is not None
        on_field = self.background.grid.ravel()[bodies]
        if shown is not None:
            on_field &= shown
        quarter = -row_percentiles(-drop.ravel()[bodies], on_field, 25)
        least_quarter = -row_percentiles(-least_drop.ravel()[bodies], on_field, 25) if least_drop is not None and any(shadows) else None
        coloured = []
        for number, light in enumerate(lights):
            kinds = "D" if light < 0.5 else "L" if light > 0.5 else "DL"
            if not on_field[number].any() or any(kind not in self.kind_drops for kind in kinds):
                coloured.append(False)
                continue
            least = FIELD_GREEN * min(self.kind_drops[kind] for kind in kinds)
            coloured.append(bool(least >= LEAST_DROP and quarter[number] < least)
                            or (least_quarter is not None and shadows[number] and set(kinds) <= self.less_green_over_both and bool(least_quarter[number] < 0)))
        return coloured

    def _on_hidden_outline(self, bodies: np.ndarray, evidence: np.ndarray) -> np.ndarray:
        """Per piece (a row of ``bodies``: flat indices of the view), whether more than
        OUTLINE_SHARE of what shows of it on the grid (``evidence`` over half) lies on
        :attr:`Background.hidden_outline`."""
        assert self.background is not None and self._lattice is not None
        shows = (evidence.ravel()[bodies] > 0.5) & (self._lattice.known[bodies] > 0)
        on = shows & self.background.hidden_outline.ravel()[bodies]
        return on.sum(axis=1) > OUTLINE_SHARE * np.maximum(shows.sum(axis=1), 1)

    def _beside_another(self, index: int, places: dict[int, list[float]]) -> bool:
        """Whether another of the pieces found (lattice point: base position) stands within
        SHADOW_REACH base radii of the one at the lattice point ``index``."""
        assert self._lattice is not None
        x, y = places[index]
        reach = SHADOW_REACH * self._lattice.radius
        return any(hypot(other[0] - x, other[1] - y) < reach for point, other in places.items() if point != index)

    def _spread(self, index: int, scale: float = 1.0) -> tuple[float, float]:
        """How surely a piece's base at a lattice point is placed (deviations in x and y): as
        the picture's resolution allows, and along its lean less surely the farther it leans
        (the piece's height is known only roughly, and it may be LEAST_HEIGHT tall however flat
        it was learnt)."""
        assert self._lattice is not None and self._camera is not None and self.shape is not None
        nadir_x, nadir_y, camera_height = self._camera
        x, y = self._lattice.positions[index].tolist()
        learnt = _lean_per_px(camera_height, self.shape.height_mm)
        least = _lean_per_px(camera_height, max(self.shape.height_mm, LEAST_HEIGHT * SQUARE_PX * self.plane.mm_per_px))
        # Off by a share of the lean learnt, and, were the piece as tall as LEAST_HEIGHT, by the
        # share of the lean unlearnt that the middle of what shows is taken to lean.
        doubt = hypot(LEAN_DOUBT * learnt, _centroid_share(self.shape.top_ratio) * (least - learnt))
        lean_x, lean_y = (x - nadir_x) * doubt, (y - nadir_y) * doubt
        return scale * hypot(self._position_sigma, lean_x), scale * hypot(self._position_sigma, lean_y)

    def _stood_over_a_line(self, pieces: Sequence[Piece]) -> set[int]:
        """The squares that may hold a piece found on the square beside: where two pieces of
        two kinds are found on one square (:func:`two_kinds`), one stands over a line, its base
        placed a few pixels over it: the one nearer a line of the square. The square across
        that line, if no piece is found on it."""
        surely = [piece for piece in pieces if piece.found > 0.5]
        held = {piece.square for piece in surely}
        on: dict[int, list[Piece]] = {}
        for piece in surely:
            on.setdefault(piece.square, []).append(piece)
        across = {min(self._across_nearer_line(piece) for piece in found)[1] for found in on.values() if two_kinds([piece.light for piece in found])}
        return across - held - {0}

    def _across_nearer_line(self, piece: Piece) -> tuple[float, int]:
        """How far (top-view pixels) the piece's base is from the nearest line of its square,
        and the square across that line (0: the line is the grid's edge).

            >>> from senet.vision.geometry import MatGeometry
            >>> from senet.vision.mat import MatLayout
            >>> finder = PieceFinder(BoardPlane(MatGeometry.from_dict(MatLayout.for_paper("a3").geometry(150))))
            >>> x0, y0 = finder.plane.grid_origin
            >>> finder._across_nearer_line(Piece(x0 + 2.2 * SQUARE_PX, y0 + 15.0, 3, 1.0, 1.0, False))
            (6.0, 2)
        """
        x0, y0 = self.plane.grid_origin
        col, row = (piece.x - x0) / SQUARE_PX, (piece.y - y0) / SQUARE_PX
        c, r = min(max(floor(col), 0), 9), min(max(floor(row), 0), 2)
        fx, fy = col - c, row - r
        if min(fx, 1 - fx) <= min(fy, 1 - fy):
            near, c = min(fx, 1 - fx), c + (-1 if fx < 0.5 else 1)
        else:
            near, r = min(fy, 1 - fy), r + (-1 if fy < 0.5 else 1)
        return round(near * SQUARE_PX, 6), int(self.plane.cells[r, c]) if 0 <= r < 3 and 0 <= c < 10 else 0

    def _shares(self, piece: Piece) -> dict[int, float]:
        """How likely the piece's base is in its square and in the squares beside it (the one
        across the nearer corner too: a base near a corner may lie over either line)."""
        x0, y0 = self.plane.grid_origin
        col, row = (piece.x - x0) / SQUARE_PX, (piece.y - y0) / SQUARE_PX
        c, r = floor(col), floor(row)
        fx, fy = col - c, row - r

        def inside(fraction: float, cell: int, cells: int, sigma: float) -> tuple[float, int]:
            """(probability of staying, direction of the nearer neighbour); beyond the grid's
            edge there is no square to stand on."""
            direction = -1 if fraction < 0.5 else 1
            if not 0 <= cell + direction < cells:
                return 1.0, direction
            near = min(fraction, 1 - fraction) * SQUARE_PX
            return 0.5 * (1 + erf(near / sigma / sqrt(2))), direction

        stay_x, dx = inside(fx, c, 10, piece.spread[0])
        stay_y, dy = inside(fy, r, 3, piece.spread[1])
        shares = {piece.square: stay_x * stay_y}
        for (nr, nc), share in (((r, c + dx), (1 - stay_x) * stay_y), ((r + dy, c), stay_x * (1 - stay_y)),
                                ((r + dy, c + dx), (1 - stay_x) * (1 - stay_y))):
            if 0 <= nr < 3 and 0 <= nc < 10 and share > 1e-4:
                shares[int(self.plane.cells[nr, nc])] = share
        return shares

    def _features(self, indices: Sequence[int], changes: Changes, own: np.ndarray, light: np.ndarray, hidden: np.ndarray | None = None,
                  bases: Sequence[tuple[float, float]] | None = None, levelled: bool = True) -> np.ndarray:
        """Per piece (a row each), its brightness, blue-red and brightness again against the
        start picture, less its row of ``light``: how much brighter and redder the bare field
        around it is now (:meth:`_field_light`). Its own pixels are those ``own`` marks (no
        longer the field's green: a shadow on the field is darker, but green), leaving out what
        ``hidden`` covers; its brightness is its darker quarter's, and then its median's
        (:class:`ColourModel` judges by both). The pieces are seen as at the lattice points
        ``indices``, moved to stand on their ``bases`` when given (a piece overhanging the
        grid's edge stands beyond the lattice, and its body there is in the picture).
        ``levelled``: as the colour model levels them (not the start pieces', which teach it)."""
        assert self._lattice is not None
        bodies, along = self._lattice.inside[indices], self._lattice.positions[indices, 0]
        if bases is not None:
            standing = np.array(bases, float).reshape(-1, 2)
            moves = np.round(standing - self._lattice.positions[indices])
            bodies = np.clip(bodies + (moves[:, 1] * own.shape[1] + moves[:, 0]).astype(np.intp)[:, None], 0, own.size - 1)
            along = standing[:, 0]
        shown = np.ones(bodies.shape, bool) if hidden is None else ~hidden.ravel()[bodies]
        solid = shown & own.ravel()[bodies]
        mine = np.where((solid.sum(axis=1) >= 4)[:, None], solid, shown)
        lighter = changes.lighter.ravel()[bodies]
        features = np.column_stack([row_percentiles(lighter, mine, 25) - light[:, 0], row_medians(changes.redder.ravel()[bodies], mine) - light[:, 1],
                                    row_medians(lighter, mine) - light[:, 0]])
        if not levelled:
            return features
        assert self.colours is not None
        return self.colours.level(features, along)

    def _field_light(self, changes: Changes, seen: np.ndarray, overall: tuple[float, float]) -> np.ndarray:
        """(30, 2): how much brighter and redder than in the start picture the bare field is
        about each square now, the light a piece there stands in: over the field the start
        picture showed (what its pieces hid is only filled in), away from what is ``seen`` on
        it (a piece's own shadow is no light on its top), in the square and those around it,
        each as much as it shows. Where hardly any field shows, the whole field's (``overall``)."""
        background = self.background
        assert background is not None
        part, reach = self.plane.grid_part, _SHADOW.shape[0] // 2
        shaded = cv2.dilate(part(seen, reach).astype(np.uint8), _SHADOW)[reach:-reach, reach:-reach]  # the grid, and a shadow's reach round it
        plain = (part(background.grid) & ~part(background.filled) & (shaded == 0)).astype(np.float32)
        shown, lighter, redder = (_around(part_means(layer)) for layer in (plain, part(changes.lighter) * plain, part(changes.redder) * plain))
        around = np.where((shown >= FIELD_SHOWN)[..., None], np.dstack([lighter, redder]) / np.maximum(shown, 1e-6)[..., None], overall)
        light = np.zeros((30, 2))
        light[self.plane.cells - 1] = around
        return light

    def _peaks(self, lattice: Lattice, score: np.ndarray, inside: np.ndarray, minimum: float = FOUND) -> list[int]:
        """Lattice points that score best within the closest two pieces can stand and show enough
        of a piece."""
        reach = max(1, int(round(APART * lattice.radius / (SQUARE_PX / STEPS))))
        top = cv2.dilate(score.astype(np.float32), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1,) * 2))
        candidates = np.flatnonzero((score >= top - 1e-6) & (inside >= minimum))
        rows, columns = score.shape
        # Best first, each taking the points within its reach (plateaus: one peak each).
        taken = np.zeros((rows + 2 * reach, columns + 2 * reach), bool)  # padded by the reach
        dy, dx = np.ogrid[-reach : reach + 1, -reach : reach + 1]
        within = dy**2 + dx**2 <= reach**2
        kept: list[int] = []
        for index in candidates[np.argsort(-score.ravel()[candidates], kind="stable")].tolist():
            r, c = divmod(index, columns)
            if not taken[r + reach, c + reach]:
                kept.append(index)
                taken[r : r + 2 * reach + 1, c : c + 2 * reach + 1] |= within
        return kept

    def _refine(self, index: int, places: dict[int, list[float]], evidence: np.ndarray) -> tuple[float, float]:
        """The piece's base position between lattice points: the middle of what shows of it
        (near this peak rather than another: ``places`` holds every peak's position), less the
        lean of its body, moved toward where the near end of what shows puts it.

        What shows of a solid lies between its base and its top, at :func:`_centroid_share` of
        the way to the top for its shape; a couple of rounds of that settle on the piece. That
        takes off a lean by the height learnt, which may be far off; the end of the piece
        nearest the point below the camera is its base's, whatever its height
        (:meth:`_near_end_shift`). The farther the piece leans, the more that end counts.
        """
        assert self._lattice is not None and self.shape is not None
        lattice = self._lattice
        axis = lattice.axis[index]
        axis_x, axis_y = axis.tolist()  # plain floats: quicker
        lean = hypot(axis_x, axis_y)
        share = _centroid_share(self.shape.top_ratio)
        lean_x, lean_y = axis_x * share, axis_y * share
        reach = 1.2 * max(lattice.radius, lattice.top_radius) + 0.5 * lean
        x, y = places[index]
        # The other pieces near enough to count (within two reaches of where the search ends,
        # a reach from its start), seen as leaning as this one.
        others = [(px + lean_x, py + lean_y) for peak, (px, py) in places.items()
                  if peak != index and (px - x) ** 2 + (py - y) ** 2 < (3 * reach + 1) ** 2]
        height, width = evidence.shape
        for _ in range(2):
            cx, cy = x + lean_x, y + lean_y
            x0, y0 = max(floor(cx - reach), 0), max(floor(cy - reach), 0)
            x1, y1 = min(ceil(cx + reach) + 1, width), min(ceil(cy + reach) + 1, height)
            if x1 <= x0 or y1 <= y0:
                return x, y
            xs, ys = np.arange(x0 - cx, x1 - cx), np.arange(y0 - cy, y1 - cy)[:, None]  # from the centre
            mine = xs**2 + ys**2 <= reach**2
            # Nearer this piece than another at a: p . a < |a|^2 / 2 (only one within two reaches counts).
            for ox, oy in others:
                ax, ay = ox - cx, oy - cy
                limit = (ax**2 + ay**2) / 2
                if limit < 2 * reach**2:
                    mine &= xs * ax + ys * ay < limit
            shows = evidence[y0:y1, x0:x1] * mine
            moments = cv2.moments(shows)
            if moments["m00"] < 1.0:
                return x, y
            x, y = x0 + moments["m10"] / moments["m00"] - lean_x, y0 + moments["m01"] / moments["m00"] - lean_y
        if lean > 1.0:
            shift = self._near_end_shift((x, y), axis, (x0, y0), shows > 0.5, mine)
            if shift is not None:
                doubt = (LEAN_ERROR * share * lean) ** 2
                weight = doubt / (doubt + NEAR_END_ERROR**2)
                x, y = x + weight * shift * axis_x / lean, y + weight * shift * axis_y / lean
        return x, y

    def _near_end_shift(self, base: tuple[float, float], axis: np.ndarray, corner: tuple[int, int], solid: np.ndarray,
                        mine: np.ndarray) -> float | None:
        """How far along the lean (``axis``: from the base to the top) the base should move so
        that the model's body there ends nearest the camera where what shows does (``solid``,
        within ``mine``: a window whose top-left is ``corner`` in the top view); None with too
        little of either.
        The model is drawn with the radius learnt, which holds the picture's blur as what shows
        does, so the blur moves both ends alike.

            >>> finder = PieceFinder.__new__(PieceFinder)
            >>> finder._lattice = Lattice(*[np.zeros((1, 2))] * 4, 4.0, 4.0, *[np.zeros(1)] * 3)
            >>> rows, columns = np.indices((30, 30))
            >>> def body(x):  # a drum 4 px in radius leaning 8 px to the right, its base at (x, 16)
            ...     return (np.hypot(columns - x, rows - 16) <= 4) | ((columns >= x) & (columns <= x + 8) & (abs(rows - 16) <= 4)) | (np.hypot(columns - x - 8, rows - 16) <= 4)
            >>> round(finder._near_end_shift((12.0, 16.0), np.array([8.0, 0.0]), (0, 0), body(10), np.ones((30, 30), bool)))
            -2
        """
        lattice = self._lattice
        assert lattice is not None
        if solid.sum() < 10:
            return None
        x, y = base
        left, top = corner
        model = np.zeros(solid.shape, np.uint8)
        eighths = 8  # cv2 draws at sub-pixel places given in eighths (shift=3)
        foot = (round((x - left) * eighths), round((y - top) * eighths))
        head = (round((x + float(axis[0]) - left) * eighths), round((y + float(axis[1]) - top) * eighths))
        top_radius = max(lattice.top_radius, 1.0)
        _draw_body(model, foot, head, round(lattice.radius * eighths), round(top_radius * eighths),
                   max(1, round(2 * min(lattice.radius, top_radius))), shift=3)
        drawn = (model > 0) & mine
        if drawn.sum() < 10:
            return None
        (axis_x, axis_y), length = axis.tolist(), float(np.linalg.norm(axis))
        along_x, along_y = axis_x / length, axis_y / length
        height, width = solid.shape
        distance = (np.arange(width) + left - x) * along_x + (np.arange(height)[:, None] + top - y) * along_y
        return percentile(distance[solid], NEAR_END_PERCENTILE) - percentile(distance[drawn], NEAR_END_PERCENTILE)

    def _onto_grid(self, x: float, y: float, slack: float = EDGE_SLACK * SQUARE_PX) -> tuple[float, float]:
        """A base that lies just beyond the grid's edge, up to ``slack`` top-view pixels (a piece
        on an edge square seen where it overhangs the edge), onto the grid; one farther out
        stays where it is."""
        x0, y0 = self.plane.grid_origin
        inner = 0.01
        near_x = min(max(x, x0 + inner), x0 + 10 * SQUARE_PX - inner)
        near_y = min(max(y, y0 + inner), y0 + 3 * SQUARE_PX - inner)
        return (near_x, near_y) if max(abs(near_x - x), abs(near_y - y)) <= slack else (x, y)

    def _square_at(self, point: tuple[float, float] | np.ndarray) -> int:
        x0, y0 = self.plane.grid_origin
        col, row = int(np.floor((point[0] - x0) / SQUARE_PX)), int(np.floor((point[1] - y0) / SQUARE_PX))
        return int(self.plane.cells[row, col]) if 0 <= row < 3 and 0 <= col < 10 else 0

    def _surroundings(self, grid: np.ndarray) -> tuple[np.ndarray, ...]:
        """The paper around the grid (without the tray, the markers and the grid's outline),
        where something can come in from (the view's border), the tray, its rim and the grid's outline.
        (A marker's sharp print changes with the least shift of the picture: no sign of an arm.)"""
        width, height = self.plane.size
        tray, markers = np.zeros((height, width), np.uint8), np.zeros((height, width), np.uint8)
        cv2.fillConvexPoly(tray, np.round((self.plane.geometry.tray - self.plane.origin) * self.plane.scale).astype(np.int32), 1)
        for quad in self.plane.geometry.markers.values():
            cv2.fillConvexPoly(markers, np.round((quad - self.plane.origin) * self.plane.scale).astype(np.int32), 1)
        markers = cv2.dilate(markers, np.ones((2 * BORDER + 1,) * 2, np.uint8)).astype(bool)
        outline = cv2.dilate(grid.astype(np.uint8), np.ones((2 * BORDER + 3,) * 2, np.uint8)).astype(bool) & ~grid & ~tray.astype(bool)
        edge = np.zeros((height, width), bool)
        edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
        rim = tray & cv2.dilate(1 - tray, _SQUARE3, iterations=RIM)
        return ~grid & ~tray.astype(bool) & ~outline & ~markers, edge, tray.astype(bool), rim.astype(bool), outline

    def _grid_mask(self) -> np.ndarray:
        mask = np.zeros((self.plane.size[1], self.plane.size[0]), bool)
        x0, y0 = self.plane.grid_origin
        mask[y0 + BORDER : y0 + 3 * SQUARE_PX - BORDER, x0 + BORDER : x0 + 10 * SQUARE_PX - BORDER] = True
        return mask


_SQUARE3 = np.ones((3, 3), np.uint8)

#: How far a piece's own shadow reaches over the field (a third of a square).
_SHADOW = np.ones((2 * (SQUARE_PX // 3) + 1,) * 2, np.uint8)

#: How far what lies on the paper reaches over the grid's outline (a third of a square: the
#: shade of a hand hides the fingers' last part from the colour test).
_BRIDGE = np.ones((2 * (SQUARE_PX // 3) + 1,) * 2, np.uint8)


def _around(cells: np.ndarray) -> np.ndarray:
    """Per cell of the grid (3 x 10), the sum over it and the cells around it.

        >>> _around(np.eye(3, 10))[:, :4].tolist()
        [[2.0, 2.0, 1.0, 0.0], [2.0, 3.0, 2.0, 1.0], [1.0, 2.0, 2.0, 1.0]]
    """
    return cv2.boxFilter(cells, -1, (3, 3), normalize=False, borderType=cv2.BORDER_CONSTANT)


def _every(step: int, shape: tuple[int, ...]) -> np.ndarray:
    """A mask of every ``step``-th pixel each way.

        >>> _every(2, (3, 4)).astype(int).tolist()
        [[1, 0, 1, 0], [0, 0, 0, 0], [1, 0, 1, 0]]
    """
    mask = np.zeros(shape, bool)
    mask[::step, ::step] = True
    return mask


def _gather(flat: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """``flat[indices]`` for indices known to lie within ``flat`` (a lattice's samples): told
    so (``mode="wrap"``, which never wraps them), numpy gathers tens of thousands of samples in
    half the time that indexing takes.

        >>> _gather(np.arange(10.0) * 2, np.array([[0, 9], [3, 4]])).tolist()
        [[0.0, 18.0], [6.0, 8.0]]
    """
    return np.take(flat, indices, mode="wrap")


def _row_sums(values: np.ndarray) -> np.ndarray:
    """Each row's sum of a 2-D array: on short rows several times quicker than
    ``values.sum(axis=1)``. Not a matrix product: that wakes the BLAS library's threads,
    which on a busy machine costs milliseconds a call.

        >>> _row_sums(np.arange(6.0).reshape(2, 3)).tolist()
        [3.0, 12.0]
    """
    return np.einsum("ij->i", values)


def _one_a_square(pieces: Sequence[Piece], shares: list[dict[int, float]]) -> list[dict[int, float]]:
    """Each piece's ``shares`` of the squares (:meth:`PieceFinder._shares`), none on a square
    beside its own where another piece surely stands (HELD): a square holds one piece, so a
    piece standing near that square's line stands on its own side of it.

        >>> held, near_line = Piece(15.0, 15.0, 1, 1.0, 0.0, False), Piece(31.0, 15.0, 2, 1.0, 1.0, False)
        >>> _one_a_square([held, near_line], [{1: 1.0}, {2: 0.8, 1: 0.2}])
        [{1: 1.0}, {2: 1.0}]
    """
    held = {piece.square for piece, its in zip(pieces, shares) if piece.found * its.get(piece.square, 0.0) >= HELD}
    settled = []
    for piece, its in zip(pieces, shares):
        kept = {square: share for square, share in its.items() if square == piece.square or square not in held}
        total = sum(kept.values())
        settled.append({square: share / total for square, share in kept.items()} if len(kept) < len(its) and total > 0 else its)
    return settled


def two_kinds(lights: Sequence[float]) -> bool:
    """Whether pieces found on one square, of these ``lights`` (each the probability that it is
    light), are two of two kinds: one surely dark, one surely light (TWO_KINDS). A square
    holds one piece, so one of them stands over its line; anything else found more than once
    on a square may be one piece found twice (a tall piece's top and its base).

        >>> two_kinds([0.01, 0.99]), two_kinds([0.2, 0.99]), two_kinds([0.0, 1.0, 1.0])
        (True, False, False)
    """
    return len(lights) == 2 and min(lights) <= 1 - TWO_KINDS and max(lights) >= TWO_KINDS


def _found(share: float) -> float:
    """The probability that a piece stands where this share of its body looks like one.

        >>> _found(FOUND), round(_found(FOUND + 4 * FOUND_SPREAD), 2)
        (0.5, 0.98)
    """
    return float(1.0 / (1.0 + np.exp(-(share - FOUND) / FOUND_SPREAD)))


def _against_the_others(brightness: np.ndarray, light: np.ndarray, gap: float) -> np.ndarray:
    """Which pieces' calls (``light`` > 0.5: light) the picture's own pieces contradict: their
    ``brightness`` parts (:func:`_parted`), by a gap of at least ``gap``, into a darker group
    of pieces mostly called dark and a lighter one of pieces mostly called light; a piece
    called against its group is contradicted. A person compares the pieces with each other so
    (a gap that parts off a light piece in a lamp's glare from pieces of both kinds parts no
    kinds).

    >>> _against_the_others(np.array([-3.0, 1.0, 1.5, 6.0, 6.5]), np.array([0.0, 0.9, 0.1, 1.0, 1.0]), 2.0).tolist()
    [False, True, False, False, False]
    >>> _against_the_others(np.array([5.0, 5.5, 6.0, 9.0]), np.ones(4), 2.0).tolist()  # one kind, one in glare
    [False, False, False, False]
    >>> _against_the_others(np.array([-5.0, -4.0, 0.0, 1.0, 1.5, 5.0]), np.array([0.0, 0.0, 1.0, 1.0, 1.0, 1.0]), 2.0).tolist()
    [False, False, False, False, False, False]
    """
    doubted = np.zeros(len(brightness), bool)
    if len(brightness) < 2:
        return doubted
    darker, apart = _parted(brightness)
    called_light = light > 0.5
    if apart < gap or called_light[darker].mean() >= 0.5 or called_light[~darker].mean() <= 0.5:
        return doubted
    return darker == called_light


def _parted(brightness: np.ndarray) -> tuple[np.ndarray, float]:
    """The pieces' ``brightness`` (at least two pieces) parted in two groups as alike within
    themselves as can be (least squared deviation from their means): the pieces of the darker
    group, and the gap between the groups. A piece far darker than the rest (in a shadow) is
    not a group of its own when the rest part better.

        >>> darker, gap = _parted(np.array([0.9, 0.2, 1.0, 0.3]))
        >>> darker.tolist(), round(gap, 2)
        ([False, True, False, True], 0.6)
        >>> darker, gap = _parted(np.array([-0.22, 0.23, 0.32, 0.42, 0.45, 0.77, 0.79, 0.83, 0.85, 0.93]))
        >>> int(darker.sum()), round(gap, 2)  # not the widest gap: the one dark piece in a shadow
        (5, 0.32)
    """
    order = np.argsort(brightness)
    values = brightness[order].astype(np.float64)
    count = np.arange(1, len(values))  # pieces in the darker group, per place to part
    sums, squares = np.cumsum(values)[:-1], np.cumsum(values**2)[:-1]
    rest = len(values) - count
    deviation = (squares - sums**2 / count) + ((values**2).sum() - squares - (values.sum() - sums) ** 2 / rest)
    best = int(np.argmin(deviation))
    darker = np.zeros(len(brightness), bool)
    darker[order[: best + 1]] = True
    return darker, float(values[best + 1] - values[best])


def _trend(looks: np.ndarray, kinds: np.ndarray, along: np.ndarray) -> np.ndarray:
    """How each feature of the pieces' ``looks`` (one row each) changes per pixel ``along`` the
    rows, the same for every kind (``kinds``: a letter each): the median change between two
    pieces of a kind at least a square apart. A tilted camera sees more of the pieces' shaded
    sides towards one end of the board, and the looks of both kinds drift so, by as much as
    the kinds differ; a median, not a fit, so a single piece in glare leaves it be. Nil with
    no such pair.

        >>> along = np.arange(7) * 32.0
        >>> looks = np.column_stack([0.01 * along + [0, 1, 0, 1, 0, 1, 0], [0, 0, 0, 0, 0, 0, 2.0]])  # the last in glare
        >>> _trend(looks, np.array(list("DLDLDLD")), along).round(3).tolist()
        [0.01, 0.0]
    """
    pairs = [(i, j) for i in range(len(looks)) for j in range(i + 1, len(looks))
             if kinds[i] == kinds[j] and abs(along[j] - along[i]) >= SQUARE_PX]
    if not pairs:
        return np.zeros(looks.shape[1])
    first, second = np.array(pairs).T
    return np.median((looks[second] - looks[first]) / (along[second] - along[first])[:, None], axis=0)


class StartLooks(NamedTuple):
    """What the start pieces show of the kinds (:func:`_start_looks`)."""

    model: ColourModel
    spreads: np.ndarray  # (2, 3): how far each kind's pieces stray from its look
    gap: float  # how cleanly the kinds part: see _kinds_gap
    along: np.ndarray  # where the start pieces stand along the rows

    @property
    def parted(self) -> bool:
        """Whether the kinds lie far enough apart for the colour model, wherever a start piece
        stands (each kind's look may drift on its own): as far apart as it tells them, or the
        start pieces themselves part cleanly; and no nearer than steady pieces of a kind could
        stray in the next picture (see KINDS_APART)."""
        looks, spread = self.model.looks_at(self.along)[:, :, DECIDE], self.model.spread[DECIDE]
        apart, steadily_apart = (float(np.linalg.norm((looks[:, 1] - looks[:, 0]) / scale, axis=1).min()) for scale in (spread, MIN_COLOUR_SPREAD))
        return steadily_apart >= KINDS_APART and (apart >= KINDS_APART or self.gap >= KINDS_PARTED)


def _start_looks(looks: np.ndarray, letters: np.ndarray, along: np.ndarray) -> StartLooks:
    """The kinds' looks from the start pieces' ``looks`` (one row each, of the kind its letter
    says, standing at ``along`` the rows): their medians and spreads, and how cleanly the
    pieces part by the features that decide (:func:`_kinds_gap`). Both kinds' looks may drift
    along the rows (:func:`_trend`), learnt where that parts the kinds (:attr:`StartLooks.parted`)
    and no drift does not, or parts them more cleanly. Freer fits are tried next: both kinds'
    looks bulging (:func:`_bend`: a lamp over the middle of the row), then each kind's look
    drifting on its own (a lamp mirrored in the dark tops at one end drifts those only). Each
    is learnt only where the fit before it does not part the kinds, or where it parts them
    FREER_EARNS times as cleanly: a freer fit follows ten pieces more closely, and the other
    rows, lit otherwise, less well.

        >>> along = (np.arange(10) - 4.5) * 30.0  # the middle at 0
        >>> looks = np.column_stack([np.where(np.arange(10) % 2, -1.0, 1.0) + 0.003 * along, np.zeros(10), np.zeros(10)])
        >>> learnt = _start_looks(looks, np.array(list("LDLDLDLDLD")), along)
        >>> learnt.model.trend.round(4).tolist(), learnt.model.means[:, 0].round(2).tolist()
        ([0.003, 0.0, 0.0], [-1.0, 1.0])
    """
    middle, flat = float(along.mean()), np.zeros(looks.shape[1])
    fits = [_levelled(looks, letters, along, ColourModel(flat, flat, trend, middle)) for trend in (flat, _trend(looks, letters, along))]
    cleanest = partial(max, key=lambda fit: (fit.parted, fit.gap))
    best = cleanest(fits)
    trend, bend = _bend(looks, letters, along - middle)
    own_trends = np.array([_trend(looks[letters == kind], letters[letters == kind], along[letters == kind]) for kind in "DL"])
    for freer in (ColourModel(flat, flat, trend, middle, bend), ColourModel(flat, flat, flat, middle, kind_trend=own_trends)):
        fit = _levelled(looks, letters, along, freer)
        if not best.parted or fit.gap >= FREER_EARNS * max(best.gap, KINDS_PARTED):
            best = cleanest([best, fit])
    return best


def _levelled(looks: np.ndarray, letters: np.ndarray, along: np.ndarray, drift: ColourModel) -> StartLooks:
    """The kinds' looks (:func:`_start_looks`) from the start pieces' ``looks`` levelled by
    ``drift``: a colour model of which only the drifts along the rows count (both kinds',
    and each kind's own)."""
    levelled = np.array([drift.level(look, x) for look, x in zip(looks, along.tolist())])
    levelled -= drift.kind_drift((letters == "L").astype(np.intp), along)
    means = np.array([np.median(levelled[letters == kind], axis=0) for kind in "DL"])
    spreads = np.array([1.4826 * np.median(np.abs(levelled[letters == kind] - means[number]), axis=0) for number, kind in enumerate("DL")])
    spread = np.maximum(np.sqrt((spreads**2).mean(axis=0)), MIN_COLOUR_SPREAD)
    gap = _kinds_gap(levelled[letters == "D"][:, DECIDE], levelled[letters == "L"][:, DECIDE], means[:, DECIDE], spread[DECIDE])
    return StartLooks(replace(drift, means=means, spread=spread), spreads, gap, along)


def _bend(looks: np.ndarray, kinds: np.ndarray, away: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How each feature of the pieces' ``looks`` (one row each) drifts and bends with the
    distance ``away`` from the middle of the rows (per pixel, and per pixel squared), the same
    for every kind (``kinds``: a letter each): a least-squares fit with each kind's own look.
    A lamp over the middle of the board, mirrored in glossy tops, lights the pieces there most,
    of both kinds: a dark piece in the middle may look as bright as the light ones at the ends,
    though plainly darker than the light pieces beside it.

        >>> away = (np.arange(10) - 4.5) * 30.0
        >>> looks = np.column_stack([np.where(np.arange(10) % 2, 1.0, 0.0) + 0.002 * away - 1e-4 * away**2, np.full(10, 0.3)])
        >>> trend, bend = _bend(looks, np.array(list("DLDLDLDLDL")), away)
        >>> round(float(trend[0]), 5), round(float(bend[0]), 5)  # the brightness; the blue-red is level
        (0.002, -0.0001)
    """
    terms = np.column_stack([kinds == "D", kinds == "L", away, away**2]).astype(float)
    fitted = np.linalg.lstsq(terms, looks, rcond=None)[0]
    return fitted[2], fitted[3]


def _kinds_gap(dark: np.ndarray, light: np.ndarray, means: np.ndarray, spread: np.ndarray) -> float:
    """How far (in ``spread``) the lightest-looking dark piece lies from the darkest-looking
    light one along the line from the dark kind's look to the light's (``means``); negative
    when the kinds' pieces (features per piece) overlap.

        >>> means, spread = np.array([[0.0, 0.0], [1.0, 0.0]]), np.array([0.25, 0.25])
        >>> _kinds_gap(np.array([[-0.2, 0.1], [0.3, 0.0]]), np.array([[0.6, -0.3], [1.4, 0.0]]), means, spread)
        1.2
    """
    along = (means[1] - means[0]) / spread
    along /= np.linalg.norm(along)
    return float((light / spread @ along).min() - (dark / spread @ along).max())


def _why_alike(means: np.ndarray, spreads: np.ndarray) -> str:
    """What to change when the kinds' looks (the start pieces' medians and spreads, dark then
    light) lie too close for the colour model: when one kind's pieces stray far more than the
    other's, as under a lamp mirrored in some of their tops, the light is uneven; else the
    kinds look alike in this light.

        >>> _why_alike(np.array([[0.0, 0.2], [0.9, 0.3]]), np.array([[0.6, 0.03], [0.2, 0.01]]))
        'the dark pieces look unlike each other (a lamp mirrored in some of them, or a shadow over some): light the board evenly, from above or from beside the camera'
        >>> _why_alike(np.array([[0.6, 0.2], [0.9, 0.3]]), np.array([[0.15, 0.03], [0.2, 0.01]]))
        "the light and dark pieces look alike under this light: use more light, or check the camera's exposure"
    """
    steadier = np.maximum(spreads.min(axis=0), MIN_COLOUR_SPREAD)
    if np.linalg.norm((means[1] - means[0]) / steadier) >= KINDS_APART:
        name = KIND_NAMES["D" if np.linalg.norm(spreads[0] / steadier) > np.linalg.norm(spreads[1] / steadier) else "L"]
        return f"the {name} pieces look unlike each other (a lamp mirrored in some of them, or a shadow over some): light the board evenly, from above or from beside the camera"
    return "the light and dark pieces look alike under this light: use more light, or check the camera's exposure"


def _as_the_others_show(brightness: np.ndarray, light: np.ndarray) -> np.ndarray:
    """The pieces' calls (``light``: probability of light) made as sure as the picture's own
    pieces show them: when their ``brightness`` (log units) parts into a darker and a lighter
    group, called so on the whole and none of them surely the other way, lying many of the
    groups' own spreads apart, a piece is as sure of its kind as its distance to the two groups
    says. Under one light the pieces of a kind look alike, however much they strayed from the
    start picture's look (and a light that left the start picture's two looks close leaves
    every call unsure, but the groups plain).

        >>> _as_the_others_show(np.array([0.25, 0.3, 0.35, 0.9, 0.95, 1.2]), np.array([0.1, 0.2, 0.1, 0.9, 0.8, 0.99])).round(3).tolist()
        [0.0, 0.0, 0.001, 0.999, 1.0, 0.997]
        >>> _as_the_others_show(np.array([0.25, 0.3, 0.9, 0.95]), np.array([0.3, 0.55, 0.6, 0.7])).round(3).tolist()  # all unsure
        [0.0, 0.001, 0.999, 1.0]
        >>> _as_the_others_show(np.array([0.25, 0.3, 0.9, 0.95]), np.array([0.1, 0.8, 0.9, 0.8])).tolist()  # one surely against
        [0.1, 0.8, 0.9, 0.8]
    """
    if len(brightness) < 4:
        return light
    darker, gap = _parted(brightness)
    if (min(darker.sum(), (~darker).sum()) < 2 or light[darker].mean() >= 0.5 or light[~darker].mean() <= 0.5
            or (light[darker] > LEANING).any() or (light[~darker] < 1 - LEANING).any()):
        return light
    means = np.array([median(brightness[darker]), median(brightness[~darker])])
    spread = max(1.4826 * median(np.abs(brightness - np.where(darker, means[0], means[1]))), MIN_COLOUR_SPREAD)
    if gap < GROUPS_APART * spread:
        return light
    shown = _light_odds(brightness[:, None], means[:, None], np.array([spread]))
    return np.where(darker, np.minimum(light, shown), np.maximum(light, shown))


def _light_odds(looks: np.ndarray, means: np.ndarray, spread: np.ndarray) -> np.ndarray:
    """Probability that each piece of these ``looks`` (a row each) is light, the kinds' looks
    lying about their ``means`` (dark, light: a row each, or such a pair per piece) by
    ``spread`` with heavy tails (Student's t). All pieces at once: a few numpy calls for all.

        >>> _light_odds(np.array([[0.1], [0.6]]), np.array([[0.0], [1.0]]), np.array([0.2])).round(3).tolist()
        [0.007, 0.794]
    """
    apart = (((looks[:, None, :] - means) / spread) ** 2).sum(axis=2)
    dark, light = (-(COLOUR_TAIL + 2) / 2 * np.log1p(apart / COLOUR_TAIL)).T
    return 1.0 / (1.0 + np.exp(np.clip(dark - light, -50.0, 50.0)))


def _draw_body(mask: np.ndarray, foot: tuple[int, int], head: tuple[int, int], radius: int, top_radius: int, band: int,
               shift: int = 0) -> None:
    """Draw (1) a piece's body as the camera sees it: its base's disc at ``foot``, its top's at
    ``head``, and a band ``band`` pixels wide between them; places and radii in pixels, or in
    ``2**shift`` ths of one (OpenCV's sub-pixel drawing)."""
    cv2.circle(mask, foot, radius, 1, -1, shift=shift)
    cv2.circle(mask, head, top_radius, 1, -1, shift=shift)
    cv2.line(mask, foot, head, 1, band, shift=shift)


def _lean_per_px(camera_height_mm: float, height_mm: float) -> float:
    """How far a piece's top leans out from its base, per pixel its base lies from the point
    below the camera: a camera ``camera_height_mm`` above the mat sees the top of a piece
    ``height_mm`` tall where it would see a point of the mat that much farther out.

        >>> round(_lean_per_px(600.0, 12.0), 4)
        0.0204
    """
    return camera_height_mm / max(camera_height_mm - height_mm, 1.0) - 1.0


def _centroid_share(top_ratio: float) -> float:
    """How far from base to top the middle of a solid's outline lies (a trapezoid's centroid).

        >>> _centroid_share(1.0), round(_centroid_share(0.3), 2)
        (0.5, 0.41)
    """
    return (1 + 2 * top_ratio) / (3 * (1 + top_ratio))


def _overlaps(lattice: Lattice, points: list[int], seen: np.ndarray, known: np.ndarray, size: tuple[int, int]) -> list[float]:
    """How well the model's body at each of ``points`` covers what is ``seen`` around it: their
    intersection over union, judged on ``known`` pixels where no other piece's body lies."""
    bodies = [lattice.body_mask([p], size, grow=1.0) for p in points]
    everything = np.sum(bodies, axis=0)
    scores = []
    for body in bodies:
        near = cv2.dilate(body.astype(np.uint8), np.ones((int(lattice.radius) + 1,) * 2, np.uint8)).astype(bool)
        own = near & known & ((everything - body) == 0)
        union = (own & (body | seen)).sum()
        scores.append(float((own & body & seen).sum() / max(union, 1)))
    return scores


def _field_drops(red: np.ndarray, blue: np.ndarray) -> tuple[float, float]:
    """The bare field's drops of green over red and over blue now, from the grid's pixels.
    Over blue, brown and yellow things are greener than the field: the field's pixels are
    those the drop over red tells.

        >>> field, brown = np.array([0.1, -0.05]), np.array([0.6, -0.5])
        >>> pixels = np.array([field] * 60 + [brown] * 40)
        >>> [round(v, 2) for v in _field_drops(pixels[:, 0], pixels[:, 1])]
        [0.1, -0.05]
    """
    field_red = _field_drop(red)
    bare = np.abs(red - field_red) < FIELD_WIDTH
    return field_red, (median(blue[bare]) if bare.any() else _field_drop(blue))


def _field_drop(drops: np.ndarray) -> float:
    """The drop of green over red the bare field shows now (the light's colour changed), from
    the grid's drops: the lowest value that many pixels share, as anything lying on the field
    is less green than the field; a hand or pale pieces may cover more of it than is left bare.

        >>> round(_field_drop(np.array([0.1] * 30 + [0.12] * 10 + [0.4] * 60)), 2)
        0.1
    """
    bins = np.clip(((drops + 1.0) * 50).astype(np.intp), 0, 99)  # 100 bins over -1..1
    counts = np.bincount(bins.ravel(), minlength=100)
    smooth = np.convolve(counts, [1, 2, 3, 2, 1], mode="same")
    mass = np.convolve(counts, np.ones(5), mode="same")
    padded = np.concatenate([smooth[:1], smooth, smooth[-1:]])
    top = (smooth > 0) & (smooth >= padded[:-2]) & (smooth >= padded[2:]) & (mass >= FIELD_SHARE * drops.size)
    peak = int(np.argmax(top)) if top.any() else int(np.argmax(smooth))
    middle = (peak + 0.5) / 50 - 1.0
    near = drops[np.abs(drops - middle) < FIELD_WIDTH]
    return median(near) if near.size else float(middle)


def _start_evidence(planes: tuple[np.ndarray, ...], grid: np.ndarray, green_shadows: bool = False) -> np.ndarray:
    """Not-field evidence in the start picture (its :func:`colour_planes`), before the empty
    board is known: less green over red or blue than the field around (a median over two
    squares) beyond the field's own noise, or a brightness no field shows. ``green_shadows``:
    darker counts only where the colour is not the field's (:func:`_field_hued`, within half
    that noise).
    """
    green = np.zeros_like(planes[0])
    field_hued = np.ones(planes[0].shape, bool)
    for plane in planes[:2]:
        drop = _local_field(plane, grid) - plane
        upper = drop[grid & (drop <= 0)]
        spread = spread_below_zero(upper) if upper.size else 0.02
        threshold = max(0.06, NOISE_SIGMAS * spread)
        green = np.maximum(green, _to_unit((drop - threshold) / (threshold / 2) + 0.5))
        if green_shadows:
            field_hued &= _field_hued(drop, threshold / 2)
    lighter = planes[2] - _local_field(planes[2], grid)
    bright_or_dark = _bright_or_dark(lighter)
    if green_shadows:
        bright_or_dark[field_hued & (lighter < 0)] = 0.0
    return _solid(np.maximum(green, bright_or_dark))


def _rims(view: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Evidence of round outlines on the grid of a top ``view``: a disc for each circle of a
    piece's size (its radius a sixth to 0.55 of a square's side) that OpenCV's Hough transform
    finds in the view's greys, its rim's edge plain all round.

        >>> view = np.full((60, 60, 3), 200, np.uint8)
        >>> rim = cv2.circle(view, (30, 30), 10, (90, 90, 90), 2)  # a grey ring on a pale field
        >>> evidence = _rims(view, np.ones((60, 60), bool))
        >>> float(evidence[30, 30]), float(evidence[5, 5])
        (1.0, 0.0)
    """
    grey = cv2.GaussianBlur(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    circles = cv2.HoughCircles(grey, cv2.HOUGH_GRADIENT, dp=1, minDist=0.7 * SQUARE_PX, param1=RIM_EDGE, param2=RIM_VOTES,
                               minRadius=SQUARE_PX // 6, maxRadius=SQUARE_PX * 11 // 20)
    discs = np.zeros(grid.shape, np.uint8)
    for x, y, radius in [] if circles is None else circles[0]:
        cv2.circle(discs, (round(float(x)), round(float(y))), round(float(radius)), 1, -1)
    return (discs.astype(bool) & grid).astype(np.float32)


def _field_hued(drop: np.ndarray, within: float | np.ndarray) -> np.ndarray:
    """Where a drop of greenness from the field's (per pixel, log units) is within ``within``
    of none, as a mean over SHADOW_COLOUR_PX pixels each way."""
    return np.abs(cv2.blur(drop, (SHADOW_COLOUR_PX, SHADOW_COLOUR_PX))) < within


def _local_field(values: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """The field's value around each pixel: a median over two squares, the grid only."""
    middle = float(np.median(values[grid]))
    return median_around(np.where(grid, values, middle), 2 * SQUARE_PX + 1, middle)


def _bright_or_dark(lighter: np.ndarray) -> np.ndarray:
    """Evidence from brightness against the field alone."""
    return np.maximum(_to_unit((lighter - BRIGHTER) / 0.15), _dark(lighter)).astype(np.float32, copy=False)


def _dark(lighter: np.ndarray) -> np.ndarray:
    """Evidence from darkness against the field alone (:func:`_bright_or_dark` without the brightness)."""
    return _to_unit((-lighter - DARKER) / 0.3).astype(np.float32, copy=False)


def _to_unit(values: np.ndarray) -> np.ndarray:
    """``values`` clipped to 0..1, in place (pass an array of your own, e.g. a fresh result):
    numpy 1.x's ``np.clip`` steps through float32 one value at a time, while ``np.maximum``
    and ``np.minimum`` take several at once.

        >>> _to_unit(np.array([-0.5, 0.25, 2.0], np.float32)).tolist()
        [0.0, 0.25, 1.0]
    """
    values = np.asarray(values)
    return np.minimum(np.maximum(values, 0, out=values), 1, out=values)


def _solid(evidence: np.ndarray) -> np.ndarray:
    """Evidence without thin lines and specks (printed lines the start picture's pieces hid)."""
    return cv2.morphologyEx(evidence, cv2.MORPH_OPEN, _SQUARE3)


def _flat(points: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    xy = np.round(points).astype(np.intp)
    x = np.clip(xy[..., 0], 0, size[0] - 1)
    y = np.clip(xy[..., 1], 0, size[1] - 1)
    return y * size[0] + x


def _fill(values: np.ndarray, hidden: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """``values`` with the ``hidden`` pixels filled in from the plain pixels around them: the
    grid's from the grid, the paper's from the paper; from farther away where a crowded start
    row hides everything near (and from the part's median where nothing shows at all).

        >>> values, grid = np.full((60, 60), 2.0, np.float32), np.ones((60, 60), bool)
        >>> values[:40] = 9.0  # a row of pieces hides the top two thirds
        >>> hidden = values > 5
        >>> float(_fill(values, hidden, grid)[5, 30])
        2.0
    """
    filled = values.copy()
    for part in (grid, ~grid):
        plain = (part & ~hidden).astype(np.float32)
        if not plain.any():
            continue
        estimate = np.full(values.shape, median(values[plain > 0]), np.float32)
        for sigma in (2.0 * SQUARE_PX, 0.5 * SQUARE_PX):  # the nearer the plain pixels, the better
            weight = cv2.GaussianBlur(plain, (0, 0), sigma)
            smooth = cv2.GaussianBlur(values * plain, (0, 0), sigma) / np.maximum(weight, 1e-6)
            estimate = np.where(weight > FILL_WEIGHT, smooth, estimate)
        filled[part & hidden] = estimate[part & hidden]
    return filled.astype(np.float32)


def _what_is_wrong(wanted: set[int], seen: set[int]) -> str:
    missing, extra = sorted(wanted - seen), sorted(seen - wanted)
    parts = []
    if missing:
        parts.append("no piece is seen on square" + ("s " if len(missing) > 1 else " ") + ", ".join(map(str, missing)))
    if extra:
        parts.append("something stands on square" + ("s " if len(extra) > 1 else " ") + ", ".join(map(str, extra)))
    detail = "; ".join(parts) or "the pieces cannot be told apart"
    return (f"the start position is not what the camera sees ({detail}): set up the start position with every piece "
            "inside its square, empty the tray, and check that the light is even and the whole mat is in view")
