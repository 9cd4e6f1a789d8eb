"""Reading the four throwing sticks in the tray.

The tray is warped to a small top-down image (1.5 mm a pixel) and compared with the
empty tray seen at calibration. Things lying in it are found by colour: the tray is
green, wood is not, and a shadow (of a stick or a hand) darkens the tray without changing
its colour, so it is left out; but no shadow is as dark as a dark side, which in dim light
keeps too little colour to tell. Each patch of changed colour is one stick, sticks lying
against each other, or something else (a hand: "occluded" only when it is bigger than
all four sticks, so that sticks lying together never hide the board).

Brightness against the lit tray near it tells the pale (flat) side from the dark (rounded)
one; a lamp's glint, a thin pale line along a dark stick's back, is part of the dark side.
A camera that looks from the side sees a stick's top and one of its sides, so a pale
stick shows a darker strip along it and looks wider than it lies; and colour marks the
middle of a rounded back more than its edges, so a dark stick looks narrower. How one
stick of each side looks here (its area and width, its shares of pale and dark pixels) is
measured on the patches shaped like one stick, and every other patch is counted in those
units: sticks lying together, or partly hidden over the tray's edge or in a washed-out
spot (where several counts may fit one patch). Sticks lying side by side, each a whole
stick long, are counted by their stripes, which needs no measured look (a small tray holds
its sticks so). Nothing is reported unless four sticks are seen and every way to count them
that sees four gives the same throw. Sticks lying too close together to count patch by patch
are traced as bars of a stick's size (:mod:`senet.vision.bars`), unless something reaches in
(crosses the paper beside the tray, where a stick traced in the tray does not lie and end);
so are sticks of which none lies apart (each may lie partly over another, and so look smaller
than it is), and then the count and the tracing must agree. Where the tray alone traces no
throw, the paper beside and below it is looked at too: a stick lying mostly over the rim
shows there.

    >>> TrayReading("sticks", 3, 4, "").light_up
    3
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from statistics import median
from typing import NamedTuple

import cv2
import numpy as np

from senet.vision import robust
from senet.vision.bars import BarFitter, light_up, polygon_mask
from senet.vision.geometry import MatGeometry
from senet.vision.parts import labelled_parts, measured_parts
from senet.vision.plane import CLIPPED, CLIPPED_FROM, LOG
from senet.vision.still import StillFrames
from senet.vision.warp import Warp

#: The tray's top view, mm per pixel. Coarser reads quicker, but sticks lying side by side
#: part less plainly: at 1.6 (5% fewer instructions a frame) one throw of 100 hard generated A4
#: pictures went unread, at 2.0 (12% fewer) five.
MM_PER_PX = 1.5
#: A stick's footprint (length, width) in tray pixels: 130 x 18 mm.
STICK_PX = (130.0 / MM_PER_PX, 18.0 / MM_PER_PX)
STICK_AREA = STICK_PX[0] * STICK_PX[1]
#: The thickest stick's height as it lies (mm): a half-round 18 mm across is 9 mm high, and
#: some are thicker.
STICK_HEIGHT_MM = 12.0
#: Summed change of the two log colour ratios that marks a pixel as "not tray".
COLOUR_CHANGE = 0.24
#: The same on the paper beside the tray: a cream stick's top lying over the rim changes white
#: paper by about 0.2. (Lower, and a dark stick's shadow on the paper joins the table's checks
#: beyond it, as a hand reaching in would.)
PAPER_CHANGE = 0.18
#: A pale stick's top on the paper looks at least 0.6 as bright as the paper (log of it): it
#: shows at 0.8-1.2 of it. A dark stick's brown back shows at 0.3-0.6, and darker skins as dark.
PALE_TOP_ON_PAPER = float(np.log(0.6))
#: The most the light's or the camera's colour (log colour ratios) and brightness (log)
#: may drift since the calibration: skin or a sleeve differ from the green by 0.4 or more.
#: Where less than FREE_TRAY of the tray stays that near, something covers most of it.
LAMP_SHIFT, LIGHT_CHANGE, FREE_TRAY = 0.25, float(np.log(2.0)), 0.2
#: Log brightness against the lit tray near it, in the camera's (gamma-compressed) values: a
#: pale side is brighter than the green tray, a dark side darker than 0.8 of it. Between
#: them (the light on a rounded back, a pale side in a lamp's glare on the paper) is neither.
PALE, DARK = 0.0, float(np.log(0.8))
#: Log brightness against the free tray's that no shadow reaches (under a third of its camera
#: value: a full shadow with the room's fill light at its dimmest keeps about 0.4): only a
#: dark side is so dark, and one this dark may keep too little colour to tell from the tray's.
DARKER_THAN_SHADOW = float(np.log(0.3))
#: A near-black stick keeps so little colour that much of it stays under COLOUR_CHANGE.
#: Darker than DIM against the free tray (under 0.45 of its camera value: only a full shadow
#: under the dimmest fill light is as dark, and it keeps the tray's colour), a pixel whose
#: colour moved at least half COLOUR_CHANGE is a dark side too; but not within a stick's
#: height of a pale top, whose shaded side is as dark and as far from the tray's colour.
DIM = float(np.log(0.45))
#: A clipped channel (plane.CLIPPED) where that channel of the empty tray was at most
#: CLIPPED_FROM is a pale side. Elsewhere, red or blue clipped while green is not is no tray
#: either, where the tray (as the light is now) shows that channel at least DIMMER (log units)
#: below its green: a brighter light would clip its green first.
DIMMER = 0.1
#: Nor is a clipped pixel whose channel still short of clipping grew brighter than the tray as a
#: whole by more than RISEN (log units: a quarter): a pale side's blue, say, where the tray's
#: green and red clipped at calibration (a lamp's glare stays where it was, as bright).
RISEN = float(np.log(1.25))
#: Length range (in stick lengths) of a patch that may be one stick on its own.
SINGLE_LENGTH = (0.8, 1.35)
#: Widest (in stick widths) one stick may look, by its side up: a pale (flat) side shows the
#: stick's side too when seen from 30 degrees, a dark (rounded) one does not. Without any
#: other stick to compare with, the widest of either seen from straight above.
SINGLE_WIDTH, LONE_WIDTH = {"pale": 1.8, "dark": 1.45}, 1.6
#: One stick of a side looks at most this much bigger than another as they lie; a patch
#: shaped like one stick but bigger is two lying side by side.
SINGLE_SPREAD = 1.4
#: Patches smaller than this share of a stick are specks (a glint, the top of a piece on the
#: board's last row, a fingertip or a sliver of a stick at the edge). None is counted: if
#: one is a stick, fewer than four are seen and no throw is read.
SPECK = 0.3
#: A dark patch with at least SLIVER of its dark pixels along the tray's far rim, where a camera
#: from aside sees a pale stick's side (and a stick's length of them), and fewer pale ones than
#: SLIVER_TOP of its dark ones (no more of its top than a strip blurred into the side), may be
#: the side of a pale stick lying beyond the rim.
SLIVER, SLIVER_TOP = 0.95, 0.5
#: How far one stick's area and width (as a share of them) may stray from the single sticks
#: seen: sticks look bigger or smaller as they lie (their sides), under the lamp, with blur.
#: And how far its shares of pale and dark pixels may fall below or rise above theirs:
#: sticks lying together shade and blur each other's edges.
SLACK, SHARE_SLACK = 0.25, (0.15, 0.1)
#: One stick seen on its own: a pale one shows at least PALE_SHARE of pale pixels (its top:
#: a tan top on a light tray is hardly brighter, and part of it may not be) and at most SIDE
#: of dark ones (its side); a dark one at least DARK_SHARE of dark pixels and at most GLINT
#: of pale ones (the light on its rounded back).
PALE_SHARE, SIDE, DARK_SHARE, GLINT = 0.35, 0.35, 0.5, 0.25
#: A patch touching where a hand or an arm came in from beyond counts only in the shape of one
#: stick (:attr:`Patch.single`: fingers laid over a stick make it wider, fingers alone shorter),
#: and a dark one with at most this share of pale pixels: a glint along a dark stick's back is
#: taken as dark (see GLINT_PX), but pale fingers over it, or a pale stick under dark fingers, are
#: not. (Pale fingers over a dark stick by the rim may still make a patch like one pale stick
#: and its side.)
REACHED_GLINT = 0.1
#: A lamp's glint along a dark stick's back is a pale line narrower than this (tray pixels, 6 mm);
#: a pale side is three times as wide.
GLINT_PX = 5
#: A stick partly over the tray's edge (or in a washed-out spot) shows at least the first
#: share of its length and area; lying along the edge, its whole length and the second
#: share of its area.
PARTIAL = (0.6, 0.35)
#: A patch touching the tray's edge along less than this (in stick widths) only grazes it
#: (a dark stick's colour may show only along the middle of its back: one the rim cuts off
#: may touch it along half its width); along less than END (in stick lengths), it touches it
#: by an end or a corner.
GRAZE, END = 0.5, 0.5
#: The band of paper beside and below the tray (mm) that a hand reaching in crosses; a stick
#: lying over the tray's edge reaches less far.
BAND_MM = 12.0
#: Where the paper meets the table the camera sees a blend of both, up to EDGE_BLUR_MM wide
#: (at 640x480 a pixel spans about a millimetre of the mat, and the picture is soft): where the
#: empty paper looked other than paper (by PAPER_CHANGE in colour, or EDGE_DARKER in brightness)
#: on the way to its edge. A hand of the blend's colour changes nothing there, only the paper
#: before it and the table after: the blend counts as changed where both sides of it did.
EDGE_BLUR_MM, EDGE_DARKER = 4.5, float(np.log(0.8))
EDGE_BLUR_PX = round(EDGE_BLUR_MM / MM_PER_PX)
#: What crosses that band is a stick lying over the tray's rim when at least this share of it
#: lies within the footprint of a stick traced in the tray, that ends within the band.
OVER_THE_RIM = 0.9
#: Sticks lying side by side: each shows as a stripe at least this share of a stick's width
#: wide, a dark one at least the second; narrower ones are a seam, or a pale stick's side seen
#: at an angle (up to half a stick's width, with the camera well off to the side).
STRIPE, DARK_STRIPE = 0.5, 0.6
#: ...and at least this share of a stripe's pixels show its side (pale or dark).
STRIPE_PURITY = 0.8
#: A hand or arm: more than this many sticks' area in one patch (all four at their biggest
#: cover no more).
MAX_STICKS = 4.0
#: Counts above this are not followed (there are four sticks).
MAX_COUNT = 8
#: What comes into the tray from beyond is told to the board's view this many tray pixels
#: (1.5 mm each) wider all round.
REACHING_SLACK = 3
#: A tray looks empty without a picture of it empty to compare with (a match resumed after a
#: restart may find sticks in it) when no lump of it as big as EMPTY_LUMP of a stick (wider than
#: LUMP_PX) differs in colour from the tray around it (its median over AROUND_PX: the light's
#: gradients and a lamp's glare change slowly across the tray, a stick is narrow) or is darker
#: than LUMP_DARKER of it (a dark stick of the tray's own hue); and, where asked, at least
#: EMPTY_SHARE of the tray is of one colour (a hand over most of the tray is no lump against
#: itself). On 4,000 generated empty trays the biggest lump was 0.07 of a stick and the least
#: share of one colour 0.83; with four sticks in the tray and no hand, the biggest lump was 0.27
#: of a stick at least. A lamp's glare that whitens a patch of the tray looks like a pale stick.
EMPTY_LUMP, LUMP_PX, AROUND_PX, LUMP_DARKER, EMPTY_SHARE = 0.12, 5, 31, float(np.log(0.6)), 0.8
#: Frames of a running camera (:attr:`TrayReader.stream`): the tray holds still when what
#: changed in it differs from the frame before's, once the pixel along its edges that the
#: camera's noise flickers is taken off (a 3 x 3 erosion), in at most this share of the pixels
#: either marks. Between still frames of the same sticks (generated scenes, and an independent
#: renderer's game at 10 frames a second) no pixel was left; a hand moving in the tray leaves
#: 40% and more.
STILL_SHARE = 0.03
#: Why a frame of a running camera gives no throw while things move in the tray.
MOVING = "something moves in the tray or beside it: the sticks are read once it holds still"
_SQUARE3 = np.ones((3, 3), np.uint8)
_LUMP = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (LUMP_PX, LUMP_PX))
#: The lit tray near a pixel, that its brightness is told against: the brightest free tray
#: within this window (20 mm), smoothed over it. _NONE marks pixels with no free tray.
_NEAR, _NONE = (13, 13), -10.0
#: A stick's height each way: as far as a pale stick's side may show beside its top.
_SIDE_REACH = np.ones((2 * round(STICK_HEIGHT_MM / MM_PER_PX) + 1,) * 2, np.uint8)
#: Sticks lying against each other are parted by the cores of their pale and dark pixels: these
#: eroded this many rounds (tray pixels, 1.5 mm each), each at least this share of a stick.
SEAM, CORE = 2, 0.3


@dataclass(frozen=True)
class TrayReading:
    """``state``: "empty", "sticks", "unclear" or "occluded"; ``light_up`` only with four sticks."""

    state: str
    light_up: int | None
    sticks: int
    reason: str
    #: Where the sticks lie: a coarse mask of the tray (one cell per ~12 mm), to tell a new
    #: throw from the same sticks seen again after a hand passed over them.
    layout: np.ndarray | None = None
    #: Where in the tray's top view (a bool mask) lies what crosses the paper beside it from
    #: beyond (a hand or an arm): what lies there may reach on to the board. The whole tray
    #: when something covers most of it; None when nothing comes from beyond.
    reaching: np.ndarray | None = None
    #: Sticks lie too close together to count, and were not traced (``TrayReader.read``
    #: with ``trace=False``): "unclear" until they are.
    untraced: bool = False
    #: What crosses the paper beside the tray was not traced to tell a stick lying over the
    #: rim from a hand (``TrayReader.read`` with ``trace=False``): ``reaching`` may hold a
    #: stick, and the rest of the reading may take it for a hand. Read again with ``trace`` to know.
    unchecked: bool = False
    #: A frame of a running camera that needed tracing (sticks lying together, or something
    #: crossing the paper beside the tray), in which something moved in the tray since the frame
    #: before (a hand, sticks still rolling): the tracing was left for a frame in which the tray
    #: holds still, and this one gives no throw ("unclear", or "occluded" where that shows
    #: untraced), ``reaching`` taking whatever crosses the paper beside the tray for a hand.
    moving: bool = False

    @property
    def from_beyond(self) -> bool:
        """Whether something comes into the tray from beyond (see ``reaching``)."""
        return self.reaching is not None

    def same_layout(self, other: TrayReading | None) -> bool:
        """Whether the sticks lie where they lay in ``other`` (overlap of their cells)."""
        if other is None or self.layout is None or other.layout is None:
            return False
        both = np.logical_and(self.layout, other.layout).sum()
        either = np.logical_or(self.layout, other.layout).sum()
        return bool(either) and both / either > 0.6


class TrayMasks(NamedTuple):
    """Masks of the tray (uint8 0/1): things lying in it, and of those the pale and dark pixels;
    its edge where something crosses the paper beside it from beyond (a hand reaching in); and,
    when something touches the tray's edge, where the paper beside and below it changed (the
    tray's view widened by the band of paper; 2 where darker than any shadow; None otherwise);
    and whether what crossed that paper was the top of a stick lying over the tray's rim read
    pale from a sliver in the tray with the paper's help (:attr:`Bar.pale_sliver`); and what
    crosses that paper when it was left unchecked for a stick lying over the rim (a mask of the
    banded view, all of it in ``reached``; None once checked, or when nothing crosses); and
    the pale sides up of the bars that explained something crossing it so, when they are
    four sticks each plainly pale or dark (None otherwise, or when nothing was so explained)."""

    objects: np.ndarray
    pale: np.ndarray
    dark: np.ndarray
    reached: np.ndarray
    beside: np.ndarray | None
    pale_sliver: bool = False
    unchecked: np.ndarray | None = None
    over_the_rim: int | None = None


@dataclass(frozen=True)
class Patch:
    """One patch of changed colour in the tray (sizes in tray pixels)."""

    area: int
    length: float
    pale: int  # pixels brighter than the lit tray near them
    dark: int  # pixels darker than the lit tray near them
    #: Pixels along the edge of what can be seen (the tray's edge, a washed-out spot): part of
    #: it may not show (a stick over the tray's edge, an arm reaching in).
    edge: int = 0
    #: Of those, pixels along a washed-out spot: a pale side may vanish there, its shaded side not.
    washed: int = 0
    #: ...and pixels where something crosses the paper beside the tray from beyond: a hand.
    reached: int = 0
    #: (pale, dark) sticks lying side by side, each a whole stick long, when the patch is
    #: such stripes (see :func:`stripes`).
    stripes: tuple[int, int] | None = None
    #: Parted from sticks it touches (see :func:`_touching`): one of them may lie over part of it.
    parted: bool = False
    #: Of its dark pixels, those that may be a pale stick's shaded side, seen beside its top by
    #: a camera looking from the side (see :meth:`BarFitter.pale_sides`).
    sides: int = 0

    @property
    def width(self) -> float:
        return self.area / max(self.length, 1.0)

    @cached_property  # asked of each patch many times while the sticks are counted
    def kind(self) -> str | None:
        """"pale" or "dark" when it looks like sticks of one side only, else None."""
        if self.pale >= PALE_SHARE * self.area and self.dark <= SIDE * self.area:
            return "pale"
        if self.dark >= DARK_SHARE * self.area and self.pale <= GLINT * self.area:
            return "dark"
        return None

    @cached_property
    def single(self) -> bool:
        """Whether it has the shape of one stick, one side up."""
        kind = self.kind
        return (kind is not None and SINGLE_LENGTH[0] <= self.length / STICK_PX[0] <= SINGLE_LENGTH[1]
                and self.width <= SINGLE_WIDTH[kind] * STICK_PX[1])


@dataclass(frozen=True)
class Look:
    """How one stick of a kind looks here: ranges of its patch's area and width, and of the
    shares of its area that are pale and dark."""

    area: tuple[float, float]
    width: tuple[float, float]
    pale: tuple[float, float]
    dark: tuple[float, float]
    #: Measured on sticks lying whole in view: well inside the tray, or touching its edge by an
    #: end, all alike (one smaller than the others may lie partly beyond the edge).
    sure: bool = False
    guessed: bool = False

    @classmethod
    def measure(cls, singles: list[Patch], sure: bool = False) -> Look:
        """The ranges over patches of single sticks: around their middle by SLACK (as a share
        of the middle area or width) or SHARE_SLACK, and beyond them by a third of that.

        >>> Look.measure([Patch(1000, 88.0, 900, 50), Patch(1100, 90.0, 950, 100)]).area
        (787.5, 1312.5)
        """
        def span(values: list[float], below: float, above: float, most: float = np.inf) -> tuple[float, float]:
            middle = median(values)
            return max(0.0, min(min(values) - below / 3, middle - below)), min(most, max(max(values) + above / 3, middle + above))

        area = median([p.area for p in singles])
        width = median([p.width for p in singles])
        return cls(span([p.area for p in singles], SLACK * area, SLACK * area), span([p.width for p in singles], SLACK * width, SLACK * width),
                   span([p.pale / p.area for p in singles], *SHARE_SLACK, 1.0), span([p.dark / p.area for p in singles], *SHARE_SLACK, 1.0), sure)

    def within(self, other: Look) -> bool:
        """Whether the middle of this look's area and width lies in ``other``'s ranges."""
        return all(low <= sum(mine) / 2 <= high for mine, (low, high) in ((self.area, other.area), (self.width, other.width)))

    @classmethod
    def guess(cls, kind: str, other: Look) -> Look:
        """A loose look for a kind not seen on its own, from the other kind's. Seen from above
        a pale (flat) side looks as wide as a dark (rounded) one or up to twice as wide."""
        if kind == "pale":
            return cls((other.area[0], 2 * other.area[1]), (other.width[0], 2 * other.width[1]), (PALE_SHARE, 1.0), (0.0, SIDE), guessed=True)
        return cls((other.area[0] / 2, other.area[1]), (other.width[0] / 2, other.width[1]), (0.0, GLINT), (DARK_SHARE, 1.0), guessed=True)


class Unclear(Exception):
    """The tray cannot be read for sure; ``state`` is "unclear" or "occluded"."""

    def __init__(self, state: str, reason: str) -> None:
        super().__init__(reason)
        self.state, self.reason = state, reason


@dataclass
class TrayReader:
    """Warps the tray to a top view and finds the sticks, against the calibrated empty tray."""

    geometry: MatGeometry
    reference: np.ndarray | None = None
    #: Frames come from a running camera, one after another: what takes tracing waits for a
    #: frame in which the tray holds still (see :meth:`read`). Separate pictures are read whole.
    stream: bool = False
    #: What changed in the tray in the last frame whose masks were made (None: nothing known,
    #: or something covered the tray).
    _last_objects: np.ndarray | None = field(default=None, init=False, repr=False)
    #: The camera last set (the point of the mat below it, x and y, and its height; mm).
    _camera: tuple[float, float, float] | None = field(default=None, init=False, repr=False)
    #: The frame last read without tracing (:meth:`read`), its homography, its masks, its tray
    #: and band as warped, and whether its tray held still since the frame before.
    _untraced: tuple[np.ndarray, np.ndarray, TrayMasks, np.ndarray, bool] | None = field(default=None, init=False, repr=False)
    #: The last reading made to the end, with the homography it was read through, kept with
    #: its tray and band as warped.
    _still: StillFrames[tuple[np.ndarray, TrayReading]] = field(default_factory=StillFrames, init=False, repr=False)
    #: Where the band shows the picture, and where what crosses it comes from beyond then (:meth:`_beyond_in`).
    _beyond_view: tuple[np.ndarray, np.ndarray] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        px_per_mat_px = 25.4 / self.geometry.dpi / MM_PER_PX
        quad = self.geometry.tray
        w = int(np.linalg.norm(quad[1] - quad[0]) * px_per_mat_px)
        h = int(np.linalg.norm(quad[3] - quad[0]) * px_per_mat_px)
        self.size = (w, h)
        # The tray is warped with a band of the paper beside and below it (the grid lies above).
        band = self._band = round(BAND_MM / MM_PER_PX)
        self._warp = Warp((w + 2 * band, h + band), cv2.BORDER_CONSTANT)
        canonical = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
        to_mat = cv2.getPerspectiveTransform(canonical, quad.astype(np.float32))
        self._to_mat = to_mat @ np.array([[1, 0, -band], [0, 1, 0], [0, 0, 1]], np.float64)
        self._ring = np.ones((h + band, w + 2 * band), np.uint8)
        self._ring[:h, band : band + w] = 0
        self._to_band = np.linalg.inv(self._to_mat)  # mat pixels to the banded view
        for marker in self.geometry.markers.values():  # printed black and white: no colour to change
            corners = cv2.perspectiveTransform(marker.reshape(1, 4, 2).astype(np.float64), self._to_band)[0]
            cv2.fillConvexPoly(self._ring, np.round(corners).astype(np.int32), 0)
        self._ring_pixels = np.flatnonzero(self._ring)
        self._ring_values = (self._ring_pixels[:, None] * 3 + np.arange(3)).ravel()  # their places in a view of 3 channels
        # Where the band ends, or the paper (the table, often of a hand's colour, lies beyond):
        # what crosses the band to there comes from beyond.
        self._beyond = np.zeros_like(self._ring)
        self._beyond[:, 0] = self._beyond[:, -1] = self._beyond[-1, :] = 1
        paper = np.array([(0, 0), (self.geometry.width_px, 0), (self.geometry.width_px, self.geometry.height_px), (0, self.geometry.height_px)])
        on_paper = np.zeros_like(self._ring)
        cv2.fillConvexPoly(on_paper, np.round(cv2.perspectiveTransform(paper.reshape(1, 4, 2).astype(np.float64), self._to_band)[0]).astype(np.int32), 1)
        self._beyond |= cv2.dilate(1 - on_paper, _SQUARE3)
        self._on_paper = on_paper
        self._blurred = np.zeros_like(on_paper)  # the paper's blurred edge, once calibrated
        self._beside = cv2.dilate(1 - self._ring, _SQUARE3) & self._ring
        self._beside[:h, band : band + w] = 0
        self._band_reference = np.zeros((h + band, w + 2 * band, 3), np.float32)
        self._ring_reference = self._ring_of(self._band_reference)
        self._inner = np.zeros((h, w), np.uint8)
        self._inner[2:-2, 2:-2] = 1  # leave out the printed border line
        self.bars = BarFitter(self._inner, STICK_PX, self._ring)  # traces sticks lying together, and over the rim
        self._far_rim = np.zeros_like(self._inner)  # where a pale stick's side may show alone (see set_camera)
        self._side_reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(STICK_PX[1]) | 1,) * 2)
        self._border = self._inner - cv2.erode(self._inner, _SQUARE3)
        self._edge = np.flatnonzero(self._border)  # where a patch may be cut off: the edge, washed-out spots
        self._washed = np.zeros(0, np.intp)
        # A grid of tray pixels that stands for the whole tray in medians.
        ys, xs = np.mgrid[4 : h - 4 : 5, 4 : w - 4 : 5]
        self._grid = (ys.ravel() * w + xs.ravel()).astype(np.intp)
        self._below_green = (np.zeros((h, w), np.float32),) * 2  # its blue and red against its green (log units)

    def set_camera(self, nadir_mm: np.ndarray, camera_height_mm: float) -> None:
        """Where the camera is (the point of the mat below it, and its height, mm): from the side,
        it sees a stick's top lie beyond its footprint, away from that point, and a pale stick's
        dark side between them. Called for every frame; only a camera that moved is worked out."""
        camera = (float(nadir_mm[0]), float(nadir_mm[1]), float(camera_height_mm))
        if camera == self._camera:
            return
        self._camera = camera
        self._still.forget()  # the sticks' sides show elsewhere
        per_mm = self.geometry.dpi / 25.4
        feet = self.geometry.tray.astype(np.float64)  # the tray's corners (mat pixels)
        away = feet / per_mm - np.asarray(nadir_mm, np.float64)
        tops = feet + away * STICK_HEIGHT_MM / max(camera_height_mm - STICK_HEIGHT_MM, 1.0) * per_mm
        feet, tops = (cv2.perspectiveTransform(points.reshape(1, -1, 2), self._to_band)[0] for points in (feet, tops))
        self.bars.set_lean(tops - feet)
        self._far_rim = self.bars.far_rim().astype(np.uint8)

    def reaching_in_view(self, reading: TrayReading, homography: np.ndarray, view_to_frame: np.ndarray, size: tuple[int, int]) -> np.ndarray | None:
        """Where, in a view of ``size`` (width, height) whose pixels ``view_to_frame`` maps to
        the frame's, lies what the ``reading`` (of the tray placed in the frame by ``homography``,
        from mat pixels) saw come into the tray from beyond (a bool mask, a few millimetres
        wider: the view may place the mat a little otherwise); None if nothing did."""
        if reading.reaching is None:
            return None
        wider = cv2.dilate(reading.reaching.astype(np.uint8), _SQUARE3, iterations=REACHING_SLACK)
        tray_from_frame = np.array([[1.0, 0, -self._band], [0, 1, 0], [0, 0, 1]]) @ np.linalg.inv(homography @ self._to_mat)
        return cv2.warpPerspective(wider, tray_from_frame @ view_to_frame, size, flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP) > 0

    def warp(self, frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
        """The tray seen from straight above, smoothed (uint8 BGR)."""
        return self._tray(self._warp_band(frame, homography))

    def footprint(self, homography: np.ndarray) -> np.ndarray:
        """The corners (4 x 2) in the frame of the tray and the band around it that it reads."""
        return self._warp.footprint(homography @ self._to_mat)

    def _warp_band(self, frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
        """The tray and the band of paper around it, from straight above, smoothed."""
        return cv2.blur(self._warp(frame, homography @ self._to_mat), (3, 3))

    def _tray(self, banded: np.ndarray) -> np.ndarray:
        w, h = self.size
        return banded[:h, self._band : self._band + w]

    def calibrate(self, frame: np.ndarray, homography: np.ndarray) -> None:
        """Learn the empty tray from a frame of the mat with nothing in the tray."""
        self._still.forget()
        self._last_objects = None
        banded = self._warp_band(frame, homography)
        self._band_reference = cv2.LUT(banded, LOG)
        self._ring_reference = self._ring_of(self._band_reference)
        tray = self._tray(banded)
        self.reference = cv2.blur(self._tray(self._band_reference), (3, 3))
        self._below_green = (self.reference[..., 0] - self.reference[..., 1], self.reference[..., 2] - self.reference[..., 1])
        self._blurred = self._blurred_edge()
        bright = (_brightest(tray) > CLIPPED_FROM).astype(np.uint8)  # too bright to tell a clipped pale side
        washed_out = cv2.dilate(bright, _SQUARE3, iterations=2) & self._inner
        self._edge = np.flatnonzero(self._border | washed_out)
        self._washed = np.flatnonzero(washed_out & (1 - self._border))

    def _blurred_edge(self) -> np.ndarray:
        """Where the calibrated band of paper looks other than the paper within EDGE_BLUR_MM of
        its edge, along a way from the edge that looks so all along (a mask of the banded view)."""
        blue_green, red_green, brightness = _ratios(self._band_reference)
        inner_paper = (cv2.erode(self._on_paper, _SQUARE3, iterations=3) & self._ring) > 0
        if not inner_paper.any():
            return np.zeros_like(self._ring)
        other = cv2.add(cv2.absdiff(blue_green, robust.median(blue_green[inner_paper])),
                        cv2.absdiff(red_green, robust.median(red_green[inner_paper]))) > PAPER_CHANGE
        other |= brightness < robust.median(brightness[inner_paper]) + EDGE_DARKER
        other = other.astype(np.uint8) & self._on_paper & self._ring  # not the markers printed in the band
        edge = 1 - self._on_paper
        for _ in range(EDGE_BLUR_PX):
            edge = cv2.dilate(edge, _SQUARE3) & (other | (1 - self._on_paper))
        return edge & self._on_paper

    def looks_empty(self, frame: np.ndarray, homography: np.ndarray, evenly: bool = True) -> bool:
        """Whether the tray of ``frame`` (placed by ``homography``) shows nothing but its own
        green, judged without a picture of it empty (see EMPTY_LUMP); ``evenly``: and most of
        it is of one colour."""
        blue_green, red_green, brightness = _ratios(cv2.LUT(self.warp(frame, homography), LOG))
        moved = cv2.add(cv2.absdiff(blue_green, robust.median_around(blue_green, AROUND_PX)), cv2.absdiff(red_green, robust.median_around(red_green, AROUND_PX)))
        inner = self._inner > 0
        other = ((moved > COLOUR_CHANGE) | (brightness < robust.median_around(brightness, AROUND_PX) + LUMP_DARKER)) & inner
        count, _, stats = measured_parts(cv2.morphologyEx(other.astype(np.uint8), cv2.MORPH_OPEN, _LUMP))
        if count > 1 and stats[1:, cv2.CC_STAT_AREA].max() >= EMPTY_LUMP * STICK_AREA:
            return False
        if not evenly:
            return True
        apart = cv2.add(cv2.absdiff(blue_green, robust.median(blue_green[inner])), cv2.absdiff(red_green, robust.median(red_green[inner])))
        return bool((apart[inner] < COLOUR_CHANGE).mean() >= EMPTY_SHARE)

    def read(self, frame: np.ndarray, homography: np.ndarray, trace: bool = True) -> TrayReading:
        """What lies in the tray of ``frame``. ``trace``: whether sticks lying too close together
        to count are traced, and what crosses the paper beside the tray is told from a stick
        lying over the rim (both take many times as long as the rest: a frame whose board a hand
        covers need not wait for them, nothing is read from it). Read again at once with
        ``trace``, a frame read without is not looked at afresh: its masks kept are traced.
        A frame whose tray and band, warped, show nothing new (:mod:`still`) since the last
        one read through the same ``homography`` to the end (traced and checked where it
        needed to be) gets that reading again: while a piece is moved, the sticks lie still.

        Frames of a running camera (:attr:`stream`) are traced only once the tray holds still
        (STILL_SHARE): while a hand moves in the tray, or sticks still roll, nothing that only
        still sticks could show is worked out, and such a frame is ``moving``: no throw. The
        next frame showing the same tray is traced (the referee waits for a throw to lie still
        anyway); one that shows nothing new at all is read again, not answered as this one."""
        kept, self._untraced = self._untraced, None
        if trace and kept is not None and kept[0] is frame and kept[1] is homography:
            untraced, banded, held_still = kept[2], kept[3], kept[4]
        else:
            untraced, banded = None, self._warp_band(frame, homography)
            unchanged = self._still.answer(banded)
            if unchanged is not None and np.array_equal(homography, unchanged[0]):
                return unchanged[1]
        try:
            if untraced is None:
                untraced = self.masks(frame, homography, False, banded)
                held_still = self.stream and self._still_since_last(untraced.objects)
        except Unclear as error:
            self._last_objects = None
            reading = TrayReading(error.state, None, 0, error.reason, reaching=np.ones(self.size[::-1], bool))
        else:
            if not trace:
                self._untraced = (frame, homography, untraced, banded, held_still)
            traced = trace and (held_still or not self.stream)
            masks = self._rim_checked(untraced) if traced else untraced
            reading = self._read(masks, traced)
            if trace and not traced and reading.state != "empty" and (masks.unchecked is not None or reading.untraced):
                waiting = reading if reading.state == "occluded" else replace(reading, state="unclear", light_up=None, reason=MOVING)
                return replace(waiting, untraced=False, moving=True)
            if masks.unchecked is not None:
                return replace(reading, unchecked=True)
            if reading.untraced:
                return reading
        self._still.keep(banded, (np.array(homography, copy=True), reading))
        return reading

    def _still_since_last(self, objects: np.ndarray) -> bool:
        """Whether what changed in the tray (``objects``, this frame's) is what changed in it
        in the last frame whose masks were made, but for the camera's flicker along its edges
        (STILL_SHARE); kept for the next frame.

            >>> reader = TrayReader.__new__(TrayReader)
            >>> reader._last_objects = None
            >>> stick = np.zeros((20, 40), np.uint8); stick[5:10, 5:35] = 1
            >>> flickered = stick.copy(); flickered[10, 5:35] = 1  # one row more along its edge
            >>> moved = np.roll(stick, 4, axis=0)
            >>> [reader._still_since_last(objects) for objects in (stick, flickered, moved)]
            [False, True, False]
        """
        last, self._last_objects = self._last_objects, objects
        if last is None or last.shape != objects.shape:
            return False
        changed = cv2.erode(cv2.bitwise_xor(last, objects), _SQUARE3)
        return cv2.countNonZero(changed) <= STILL_SHARE * max(1, cv2.countNonZero(cv2.bitwise_or(last, objects)))

    def _read(self, masks: TrayMasks, trace: bool) -> TrayReading:
        """What the tray's ``masks`` show (see :meth:`read`)."""
        objects, patches = masks.objects, self.patches(masks)
        from_beyond = any(patch.reached for patch in patches)
        reaching = _reaching(objects, masks.pale, masks.dark, masks.reached) if from_beyond else None
        if not patches:
            return TrayReading("empty", None, 0, "")
        try:
            pale_up, total = count_sticks(patches)
            reason = "" if pale_up is not None else f"{total} {'stick' if total == 1 else 'sticks'} seen in the tray, not 4"
        except Unclear as error:
            if error.state == "occluded":
                return TrayReading(error.state, None, 0, error.reason, reaching=np.ones(self.size[::-1], bool))
            pale_up, total, reason = None, 0, error.reason
        # Sticks lying together: trace them as bars, where the patches could not be counted or
        # where no stick lies apart to measure the others by (each may lie partly over another,
        # a pale one perhaps showing little more than its shaded side): then the tracer must
        # agree with the count. A dark sliver along the tray's far rim may be the side of a
        # pale stick lying over it, its top on the paper; a sliver read pale only with the
        # paper's help, its top crossing the paper, may be counted as a dark stick at the edge:
        # the tracer, looking there too, must agree with the count as well.
        sliver = not from_beyond and masks.beside is not None and (masks.pale_sliver or self._sliver_at_far_rim(masks))
        if not from_beyond and (pale_up is None or sliver or all(patch.parted for patch in patches)):
            if not trace:
                return TrayReading("unclear", None, total, reason or "sticks lie too close together to count", untraced=True)
            traced = None if sliver else self.bars.light_up(masks.objects, masks.pale, masks.dark)
            if traced is None and masks.beside is not None:  # a stick lying over the rim, seen on the paper too
                traced = self.bars.light_up(masks.objects, masks.pale, masks.dark, masks.beside)
            if pale_up is None:
                pale_up = traced
            elif traced != pale_up:
                pale_up, total, reason = None, 0, "sticks lie too close together to count"
        # What crossed the paper was taken for a stick lying over the rim, by bars whose own
        # throw is another: fingers laid over the sticks may have been traced as part of them.
        if not from_beyond and pale_up is not None and masks.over_the_rim not in (None, pale_up):
            pale_up, total, reason = None, 0, "something crosses the paper beside the tray, and the sticks there cannot be told from a hand"
        if pale_up is None:
            return TrayReading("unclear", None, total, reason, reaching=reaching)
        w, h = self.size
        layout = cv2.resize(objects, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_AREA) > 0
        return TrayReading("sticks", pale_up, 4, "", layout, reaching)

    def patches(self, masks: TrayMasks) -> list[Patch]:
        """The patches bigger than specks in the tray's :meth:`masks`."""
        objects, pale, dark, reached = masks.objects, masks.pale, masks.dark, masks.reached
        count, labels, stats = measured_parts(objects)
        edge = np.zeros(objects.shape, np.uint8)
        edge.flat[self._edge] = 1
        edge.flat[self._washed] = 2
        edge[reached > 0] = 3
        sides = self.bars.pale_sides(pale, dark) if count > 1 else None
        found = []
        for index in range(1, count):
            x, y, w, h, area = stats[index]
            if area < SPECK * STICK_AREA:
                continue
            box = (slice(y, y + h), slice(x, x + w))
            member = cv2.compare(labels[box], int(index), cv2.CMP_EQ)
            own = _own(member, pale[box], dark[box])
            parts = _touching(member, *own)
            if parts:
                found += [_patch(part, _own(part, *own), edge[box], sides[box], parted=True) for part in parts]
            else:
                found.append(_patch(member, own, edge[box], sides[box], parted=False))
        return found

    def _sliver_at_far_rim(self, masks: TrayMasks) -> bool:
        """Whether something in the tray is a dark sliver along its edge away from the camera,
        no wider than a pale stick's side shows there (see SLIVER)."""
        dark_at_rim = masks.dark & self._far_rim
        if cv2.countNonZero(dark_at_rim) < STICK_PX[0]:  # no sliver a stick long (most frames)
            return False
        count, labels = labelled_parts(masks.objects)
        at_rim, dark, pale = (np.bincount(labels[mask > 0], minlength=count)[1:] for mask in (dark_at_rim, masks.dark, masks.pale))
        return bool(((at_rim >= np.maximum(STICK_PX[0], SLIVER * dark)) & (pale <= SLIVER_TOP * dark)).any())

    def masks(self, frame: np.ndarray, homography: np.ndarray, trace: bool = True, banded: np.ndarray | None = None) -> TrayMasks:
        """The tray's masks (see :class:`TrayMasks`); ``trace``: whether what crosses the paper
        beside the tray is told from a stick lying over the rim by tracing the sticks;
        ``banded``: the frame's tray and band, when warped already (:meth:`_warp_band`). Raises
        Unclear when something covers most of the tray."""
        assert self.reference is not None, "calibrate first"
        banded = self._warp_band(frame, homography) if banded is None else banded
        tray, logged = self._tray(banded), cv2.LUT(banded, LOG)
        change = cv2.subtract(self._tray(logged), self.reference)  # log ratio per channel
        # 1. Where the tray's colour changed. A drift of the light's colour moves the whole tray:
        # it is measured on the pixels still near the tray's colour and brightness (too few, and
        # something covers the tray). A clipped pixel has lost its colour, but one that was far
        # from clipping, or clipped in a channel the tray shows dimmer than green, is a pale side;
        # and no shadow is as dark as a dark side, nor as dark and of another colour (DIM).
        blue_green, red_green, brightness = _ratios(change)
        samples = np.stack([blue_green.ravel()[self._grid], red_green.ravel()[self._grid]])
        sampled_brightness = brightness.ravel()[self._grid]
        tray_like = (np.abs(samples) < LAMP_SHIFT).all(axis=0) & (np.abs(sampled_brightness) < LIGHT_CHANGE)
        if tray_like.sum() < FREE_TRAY * len(self._grid):
            raise Unclear("occluded", "something covers most of the tray")
        shift = np.array([robust.median(samples[0, tray_like]), robust.median(samples[1, tray_like])])
        moved = cv2.blur(cv2.add(cv2.absdiff(blue_green, float(shift[0])), cv2.absdiff(red_green, float(shift[1]))), (3, 3))
        clipped = _brightest(tray) >= CLIPPED
        drift = robust.median(sampled_brightness[tray_like])
        near_pale = cv2.dilate(((brightness > drift + PALE) & (moved > COLOUR_CHANGE)).astype(np.uint8), _SIDE_REACH) > 0
        unseen_colour = (brightness < drift + DARKER_THAN_SHADOW) | ((brightness < drift + DIM) & (moved > COLOUR_CHANGE / 2) & ~near_pale)
        no_tray = np.zeros_like(clipped)  # looked at only where a pixel clips: usually few
        if clipped.any():
            no_tray[clipped] = self._beyond_clipping(clipped, tray, change, drift) | self._clipped_before_green(clipped, tray, shift)
        found = (no_tray | (((moved > COLOUR_CHANGE) | unseen_colour) & ~clipped)) & (self._inner > 0)  # no_tray lies where it clips
        objects = cv2.morphologyEx(found.astype(np.uint8), cv2.MORPH_OPEN, _SQUARE3)
        # 2. Brightness against the lit tray near it (lamps vary slowly): the brightest free
        # tray near it, as shadows and the parts of sticks too dark to show a colour only darken.
        free = (self._inner & (1 - objects)) > 0
        lit = cv2.dilate(np.where(free, brightness, np.float32(_NONE)), np.ones(_NEAR, np.uint8))
        unlit = lit <= _NONE  # no free tray near: the free tray's middle brightness
        if unlit.any():
            free_samples = sampled_brightness[free.ravel()[self._grid]]
            lit[unlit] = robust.median(free_samples) if free_samples.size else 0.0
        around = cv2.blur(lit, _NEAR)
        relative = brightness - around
        pale = objects & ((relative > PALE) | clipped)
        dark = objects & (relative < DARK) & ~clipped
        glint = _glint(pale.astype(np.uint8), (objects & ~pale).astype(np.uint8)) > 0
        pale, dark = (pale & ~glint).astype(np.uint8), (dark | glint).astype(np.uint8)
        beside = None
        if objects[self._border > 0].any():  # only what touches the tray's edge lies beyond it, or comes from beyond
            beside = self._changed_beside(logged, shift, drift)
            crossing = self._crossing(beside, self._warp.coverage(frame.shape, homography @ self._to_mat))
            if crossing.any():
                masks = TrayMasks(objects, pale, dark, self._reached(crossing), beside, unchecked=crossing)
                return self._rim_checked(masks) if trace else masks
        return TrayMasks(objects, pale, dark, np.zeros_like(objects), beside)

    def _rim_checked(self, masks: TrayMasks) -> TrayMasks:
        """``masks`` with what crosses the paper beside the tray checked for a stick lying over
        the rim (:meth:`_not_over_the_rim`)."""
        if masks.unchecked is None:
            return masks
        crossing, pale_sliver, over_the_rim = self._not_over_the_rim(masks.unchecked, masks.objects, masks.pale, masks.dark, masks.beside)
        return masks._replace(reached=self._reached(crossing), pale_sliver=pale_sliver, unchecked=None, over_the_rim=over_the_rim)

    def _reached(self, crossing: np.ndarray) -> np.ndarray:
        """The tray's edge where what ``crossing`` the paper beside it (a mask of the banded view) comes in."""
        return self._tray(cv2.dilate(crossing, _SQUARE3, iterations=3)) & self._border

    def _clipped_before_green(self, clipped: np.ndarray, tray: np.ndarray, shift: np.ndarray) -> np.ndarray:
        """Of the ``clipped`` pixels (a mask), those whose red or blue is clipped and green is
        not, where the tray (its colour drifted by ``shift``, blue-green and red-green) shows
        that channel dimmer than green."""
        blue, green, red = tray[clipped].T
        dimmer_blue, dimmer_red = (below[clipped] + float(drift) < -DIMMER for below, drift in zip(self._below_green, shift))
        return (green < CLIPPED) & (((blue >= CLIPPED) & dimmer_blue) | ((red >= CLIPPED) & dimmer_red))

    def _beyond_clipping(self, clipped: np.ndarray, tray: np.ndarray, change: np.ndarray, drift: float) -> np.ndarray:
        """Of the ``clipped`` pixels (a mask), those that the tray, only as much brighter as the
        whole tray's ``drift`` (log units), cannot have made: a channel that clips now though it
        was short of CLIPPED_FROM at calibration, or one short of clipping that grew by more
        than RISEN (``change``: log units per channel since calibration)."""
        assert self.reference is not None
        short = tray[clipped] < CLIPPED
        jumped = (~short & (self.reference[clipped] + drift < LOG[CLIPPED_FROM])).any(axis=1)
        return jumped | (np.where(short, change[clipped], -np.inf).max(axis=1) > drift + RISEN)

    def _changed_beside(self, logged: np.ndarray, shift: np.ndarray, drift: float) -> np.ndarray:
        """Where the band of paper beside and below the tray changed colour since calibration (a
        mask of the banded view, uint8: 1 where it is as bright as a pale top on the paper looks,
        2 where it is darker than any shadow, 3 between: a brown back, a hand's skin), the
        light's drift (``shift`` in colour, ``drift`` in brightness) taken off. ``logged``: the
        banded view's log values."""
        blue_green, red_green, brightness = _ratios(cv2.subtract(self._ring_of(logged), self._ring_reference))
        moved = cv2.add(cv2.absdiff(blue_green, float(shift[0])), cv2.absdiff(red_green, float(shift[1])))
        kind = (moved > PAPER_CHANGE).astype(np.uint8)
        kind[(kind > 0) & (brightness < drift + PALE_TOP_ON_PAPER)] = 3
        kind[(kind > 0) & (brightness < drift + DARKER_THAN_SHADOW)] = 2
        changed = np.zeros(self._ring.shape, np.uint8)
        changed.flat[self._ring_pixels] = kind.ravel()
        return changed

    def _ring_of(self, banded: np.ndarray) -> np.ndarray:
        """The pixels of the band of paper beside and below the tray, of a banded view of three
        channels, as one row (a seventh of the view: quicker to work on than all of it)."""
        return np.take(banded.ravel(), self._ring_values, mode="wrap").reshape(1, -1, 3)

    def _beyond_in(self, in_view: np.ndarray) -> np.ndarray:
        """Where what crosses the band comes from beyond (uint8 0/1): the band's far side, off
        the paper, or next to where the band leaves the picture (``in_view``: 1 where the
        band shows it; the same array while the camera stays put, and so this)."""
        if self._beyond_view is None or self._beyond_view[0] is not in_view:
            self._beyond_view = (in_view, self._beyond | cv2.dilate(1 - in_view, _SQUARE3))
        return self._beyond_view[1]

    def _crossing(self, changed: np.ndarray, in_view: np.ndarray) -> np.ndarray:
        """What crosses the band of paper beside the tray (a mask of the banded view, uint8 0/1):
        something of another colour (``changed``, :meth:`_changed_beside`) from the tray to the
        band's far side or the picture's edge, a hand or an arm (a stick lying a little over the
        tray's edge reaches less far). ``in_view``: 1 where the band shows the picture. The
        paper's blurred edge counts as changed where the paper before it and the table after it
        changed (see EDGE_BLUR_MM)."""
        reach = EDGE_BLUR_PX + 1  # the blend's width, and the view's smoothing
        moved = (changed > 0).astype(np.uint8)
        beyond = self._beyond_in(in_view)
        if not cv2.countNonZero(cv2.bitwise_and(moved, beyond)):  # most frames: nothing at the far side (beyond holds all off the paper), no edge to fill in
            return np.zeros_like(moved)
        off_paper = moved & (1 - self._on_paper)
        before, after = (cv2.dilate(side, _SQUARE3, iterations=reach) for side in (moved & self._on_paper & (1 - self._blurred), off_paper))
        changed = moved | (self._blurred & before & after)
        count, labels = labelled_parts(changed)
        if count > 1:
            across = _parts_touching(labels, count, beyond > 0) & _parts_touching(labels, count, self._beside > 0)
            if across.any():  # most frames: nothing crosses
                return across[labels].astype(np.uint8)
        return np.zeros_like(changed)

    def _not_over_the_rim(self, crossing: np.ndarray, objects: np.ndarray, pale: np.ndarray, dark: np.ndarray,
                          beside: np.ndarray) -> tuple[np.ndarray, bool, int | None]:
        """``crossing`` without what a stick lying over the tray's rim explains: the patches
        crossing the band that lie within the top of a stick traced in the tray and on the
        paper beside it (``beside``), whose footprint's far side ends within the band (a finger
        reaching in is traced as a bar that runs on beyond it, and a hand leaves more than bars
        explain: nothing is traced then; fingers laid over the sticks, traced with the paper,
        make more bars than the four sticks, and traced in the tray alone leave what no bar
        explains). Seen from aside, a stick's top lies beyond its footprint: a low camera sees
        the top of a stick against the rim reach across the band. Where the paper leaves the
        sticks untraced (a stick whose footprint lies over the rim, its top leaning back into the
        tray, shows on the paper only as a strip of its edge: the bare paper under the rest
        counts against its bar, and it is left over), the bars traced in the tray alone are
        looked at instead. And whether a stick read pale from its sliver in the tray with the
        paper's help (:attr:`Bar.pale_sliver`) explains some of it; and, where something was
        explained so, the pale sides up of those bars when they are four plain sticks
        (:attr:`TrayMasks.over_the_rim`)."""
        height, width = crossing.shape
        bars = self.bars.traced(objects, pale, dark, beside)
        if len(bars) > 4 and not self.bars.traced(objects, pale, dark):
            return crossing, False, None
        if not bars:  # untraced with the paper
            bars = self.bars.traced(objects, pale, dark)
        tops, slivers = np.zeros_like(crossing), np.zeros_like(crossing)
        for bar in bars:
            corners = bar.corners + (self._band, 0)
            ends_in_band = any((feet[:, 0] >= -1).all() and (feet[:, 0] <= width).all() and (feet[:, 1] <= height).all()
                               for feet in (corners, corners - self.bars.lean))  # a camera from aside sees its top beyond its footprint
            if (bar.pale is not None or bar.side_only) and ends_in_band:
                top = polygon_mask(crossing.shape, corners)
                tops |= top
                if bar.pale_sliver:
                    slivers |= top
        tops = cv2.dilate(tops, self._side_reach)  # its side and shadow, seen from aside
        count, labels = labelled_parts(crossing)
        inside = np.bincount(labels.ravel(), tops.ravel(), count) >= OVER_THE_RIM * np.bincount(labels.ravel(), minlength=count)
        inside[0] = False
        explained = inside[labels]
        over_the_rim = light_up(bars) if inside.any() else None
        return np.where(explained, 0, crossing).astype(np.uint8), bool(slivers[explained].any()), over_the_rim


def _reaching(objects: np.ndarray, pale: np.ndarray, dark: np.ndarray, reached: np.ndarray) -> np.ndarray:
    """The things in the tray that touch where something ``reached`` in from beyond (a bool
    mask): each connected part of ``objects`` that does, less the sticks lying against what
    reached in (its parts, as :func:`_touching` parts them, that have the shape of one stick
    and do not touch where it crossed themselves; any other part may be more of a hand).

        >>> objects = np.array([[1, 1, 0, 1], [0, 1, 0, 1]], np.uint8)
        >>> no_side = np.zeros_like(objects)
        >>> _reaching(objects, no_side, no_side, np.array([[1, 0, 0, 0], [0, 0, 0, 0]], np.uint8)).astype(int).tolist()
        [[1, 1, 0, 0], [0, 1, 0, 0]]
    """
    count, labels, stats = measured_parts(objects)
    found = np.zeros(objects.shape, bool)
    for index in np.flatnonzero(_parts_touching(labels, count, reached > 0)).tolist():
        x, y, w, h, _ = stats[index]
        box = (slice(y, y + h), slice(x, x + w))
        member = cv2.compare(labels[box], int(index), cv2.CMP_EQ)
        own = _own(member, pale[box], dark[box])
        for part in _touching(member, *own) or [member]:
            if (reached[box][part > 0] > 0).any() or not _measured(part, *_own(part, *own))[0].single:
                found[box] |= part > 0
    return found


def _parts_touching(labels: np.ndarray, count: int, mask: np.ndarray) -> np.ndarray:
    """Per label of ``count`` connected parts (0: the background), whether the part has a
    pixel where ``mask`` (bool) is set.

        >>> _parts_touching(np.array([[0, 1, 1], [2, 0, 0]]), 3, np.array([[True, False, True], [False, False, False]])).tolist()
        [False, True, False]
    """
    touching = np.zeros(count, bool)
    touching[labels[mask]] = True
    touching[0] = False
    return touching


def _own(member: np.ndarray, pale: np.ndarray, dark: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ``pale`` and ``dark`` pixels (0/1) of the patch whose pixels ``member`` marks (uint8 0/255).

        >>> pale, member = np.array([[1, 1, 0, 1]], np.uint8), np.array([[255, 0, 0, 255]], np.uint8)
        >>> [side.tolist() for side in _own(member, pale, 1 - pale)]
        [[[1, 0, 0, 1]], [[0, 0, 0, 0]]]
    """
    return cv2.bitwise_and(pale, member), cv2.bitwise_and(dark, member)


def _patch(member: np.ndarray, own: tuple[np.ndarray, np.ndarray], edge: np.ndarray, sides: np.ndarray, parted: bool) -> Patch:
    """The patch of the pixels ``member`` marks (uint8 0/255; ``own``: its pale and dark pixels,
    0/1, :func:`_own`), with its stripes when it is not one stick; ``edge``: 1 along the edge
    of what can be seen, 2 along a washed-out spot, 3 where something reached in; ``sides``:
    the dark pixels that may be a pale stick's side (bool); ``parted``: whether it was parted
    from sticks it touches."""
    shape, rect = _measured(member, *own)  # whether it is one stick is in its shape
    edges = cv2.calcHist([edge], [0], member, [4], [0, 4]).ravel().astype(int).tolist()
    patch = Patch(shape.area, shape.length, shape.pale, shape.dark, edge=sum(edges[1:]), washed=edges[2], reached=edges[3], parted=parted,
                  sides=cv2.countNonZero(cv2.bitwise_and(sides.view(np.uint8), member)))
    return patch if patch.single else replace(patch, stripes=stripes(member > 0, own[0] > 0, own[1] > 0, rect))


def _measured(member: np.ndarray, pale: np.ndarray, dark: np.ndarray) -> tuple[Patch, tuple]:
    """The size and sides of the patch of the pixels ``member`` marks (uint8 0/255; ``pale``
    and ``dark``: its own pixels of either side, 0/1, :func:`_own`), and the least rectangle
    round it (``cv2.minAreaRect``).

        >>> member = np.zeros((20, 120), np.uint8)
        >>> member[4:16, 10:110] = 255  # a pale stick, 100 by 12 pixels
        >>> patch, _ = _measured(member, member & 1, 0 * member)
        >>> patch.area, round(patch.length), patch.pale, patch.single
        (1200, 99, 1200, True)
    """
    outline, _ = cv2.findContours(member, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    rect = cv2.minAreaRect(np.concatenate(outline))
    return Patch(cv2.countNonZero(member), float(max(rect[1])), cv2.countNonZero(pale), cv2.countNonZero(dark)), rect


def _touching(member: np.ndarray, pale: np.ndarray, dark: np.ndarray) -> list[np.ndarray]:
    """Sticks lying against each other in one patch (uint8 0/255; ``pale`` and ``dark`` its
    own pixels of either side, 0/1, :func:`_own`): the shadowed seam between them is no stick,
    so the cores of the pale and of the dark pixels (a slight erosion takes off a pale stick's
    dark side and the blur at the seams) part them. Each core big enough to be a stick grows
    back over the patch's pixels nearest it; no parts when there are fewer than two such cores.

        >>> two = np.zeros((40, 120), np.uint8)
        >>> two[5:30, 10:100] = 255  # two pale sticks fused by the shadow between them
        >>> pale = np.zeros_like(two)
        >>> pale[5:16, 10:100] = pale[19:30, 10:100] = 1
        >>> [int((part > 0).sum()) for part in _touching(two, pale, np.zeros_like(two))]
        [1080, 1170]
    """
    eroded = [cv2.erode(side, _SQUARE3, iterations=SEAM, borderType=cv2.BORDER_CONSTANT, borderValue=0) for side in (pale, dark)]
    sizes = [cv2.countNonZero(core) for core in eroded]
    if sum(size // (CORE * STICK_AREA) for size in sizes) < 2:  # room for fewer than two cores big enough (most patches: one stick)
        return []
    cores = []  # (labels, label) of each core big enough
    for core, size in zip(eroded, sizes):
        if size < CORE * STICK_AREA:  # no core big enough (a pale stick's dark side)
            continue
        _, labels, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=4)
        cores += [(labels, label) for label in (np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= CORE * STICK_AREA) + 1).tolist()]
    if len(cores) < 2:
        return []
    seeds = np.zeros(member.shape, np.uint16)
    for count, (labels, label) in enumerate(cores, start=1):
        seeds[labels == label] = count
    # Grow the cores back over the patch a pixel at a time (the nearer core takes a pixel).
    free = (member > 0) & (seeds == 0)
    for _ in range(max(member.shape)):
        if not free.any():
            break
        grown = cv2.dilate(seeds, _SQUARE3)
        taken = free & (grown > 0)
        if not taken.any():
            break
        np.copyto(seeds, grown, where=taken)
        free &= ~taken
    return [cv2.compare(seeds, label, cv2.CMP_EQ) for label in range(1, len(cores) + 1)]


def _glint(pale: np.ndarray, rest: np.ndarray) -> np.ndarray:
    """The lamp's glint along dark sticks' rounded backs (uint8 0/1): pale lines narrower than
    GLINT_PX with the rest of a stick (pixels not pale) on both sides. A pale side is a stick's
    width across, and a pale stick's sliver over the tray's rim has a stick beside it on one
    side only.

        >>> rest = np.zeros((20, 60), np.uint8); rest[4:16, 5:55] = 1
        >>> pale = np.zeros_like(rest); pale[9:11, 8:52] = 1; rest[9:11, 8:52] = 0
        >>> int(_glint(pale, rest).sum())
        88
    """
    line = cv2.getStructuringElement(cv2.MORPH_RECT, (GLINT_PX, GLINT_PX))
    thin = cv2.subtract(pale, cv2.morphologyEx(pale, cv2.MORPH_OPEN, line))
    return thin & cv2.morphologyEx(rest, cv2.MORPH_CLOSE, line)


def _ratios(logged: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pixel of a BGR image of log values (or of their change): blue over green, red over
    green, and the brightness (the channels' mean).

        >>> [float(v[0, 0]) for v in _ratios(np.array([[[1.0, 2.0, 6.0]]], np.float32))]
        [-1.0, 4.0, 3.0]
    """
    blue, green, red = cv2.split(logged)
    return cv2.subtract(blue, green), cv2.subtract(red, green), cv2.add(cv2.add(blue, green), red) * (1 / 3)


def _brightest(image: np.ndarray) -> np.ndarray:
    """Each pixel's brightest channel."""
    blue, green, red = cv2.split(image)
    return cv2.max(cv2.max(blue, green), red)


def looks(patches: list[Patch]) -> dict[str, Look] | None:
    """How one pale and one dark stick look, from the patches of single sticks: those well
    inside the tray when there are any, else those touching its edge only by an end (a stick
    lying along the edge may be partly hidden; by a washed-out spot, it may be a pale stick's
    shaded side). A kind seen only along the edge that does not look as the other kind
    measured well says it may, and a kind not seen alone, are guessed from the other kind.
    None without any single stick.
    """
    measured = {}
    for kind in ("pale", "dark"):
        singles = [p for p in patches if p.single and p.kind == kind and p.washed <= GRAZE * STICK_PX[1]]
        inside = [p for p in singles if p.edge <= GRAZE * STICK_PX[1]]
        by_an_end = [p for p in singles if p.edge <= END * STICK_PX[0]]
        best = inside or by_an_end or singles
        if best:
            smallest = min(p.area for p in best)
            alike = [p for p in best if p.area <= SINGLE_SPREAD * smallest]
            # By an end, a stick may lie partly beyond the edge: the smallest is sure only when
            # the others are alike.
            measured[kind] = Look.measure(alike, sure=bool(inside) or (bool(by_an_end) and len(alike) == len(best)))
    if not measured:
        return None
    for kind, other in (("pale", "dark"), ("dark", "pale")):
        if other not in measured:
            continue
        guess = Look.guess(kind, measured[other])
        if kind not in measured or (measured[other].sure and not measured[kind].sure and not measured[kind].within(guess)):
            measured[kind] = guess
    return measured


def fits(patch: Patch, pale: Look, dark: Look) -> list[tuple[int, int]]:
    """The (pale, dark) stick counts that explain a patch's area and its pale and dark pixels.

    >>> one = Look((900.0, 1100.0), (11.0, 13.0), (0.8, 1.0), (0.0, 0.1))
    >>> fits(Patch(2000, 150.0, 1750, 50), one, Look.guess("dark", one))
    [(2, 0)]
    """
    return [(light, sticks - light) for sticks in range(1, 5) for light in range(sticks + 1) if _explains(patch, light, sticks - light, pale, dark)]


def _explains(patch: Patch, light: int, rest: int, pale: Look, dark: Look) -> bool:
    """Whether ``light`` pale and ``rest`` dark sticks can make the patch: some split of its
    area between them fits their areas and both shares of pale and dark pixels."""
    area = float(patch.area)
    # The range of the pale sticks' part of the area, narrowed by each bound in turn.
    low = max(light * pale.area[0], area - rest * dark.area[1])
    high = min(light * pale.area[1], area - rest * dark.area[0])
    for seen, light_share, dark_share in ((patch.pale, pale.pale, dark.pale), (patch.dark, pale.dark, dark.dark)):
        # Pixels seen >= (area - part) * dark_share[0] + part * light_share[0], and <= the same with [1].
        for i, sign in ((0, 1.0), (1, -1.0)):
            base, slope = sign * (area * dark_share[i] - seen), sign * (light_share[i] - dark_share[i])
            if slope > 1e-9:
                high = min(high, -base / slope)
            elif slope < -1e-9:
                low = max(low, -base / slope)
            elif base > 0:
                return False
    return low <= high + 1e-6


def count_sticks(patches: list[Patch]) -> tuple[int | None, int]:
    """(pale sides up, sticks) of the patches, or raise Unclear. Several counts may fit a
    patch of touching sticks; the throw is known when all ways to see four sticks agree
    (None when none sees four).

    >>> one = Patch(1100, 88.0, 950, 100)
    >>> count_sticks([one, Patch(2200, 150.0, 1900, 200), Patch(900, 86.0, 0, 880)])
    (3, 4)
    """
    measured = looks(patches)
    seen = {(0, 0)}  # (pale, sticks) over the patches so far, every way they may be counted
    for patch in patches:
        seen = {(light + pale, total + pale + dark) for light, total in seen for pale, dark in _options(patch, measured)
                if total + pale + dark <= MAX_COUNT}
    four = {light for light, total in seen if total == 4}
    if len(four) == 1:
        return four.pop(), 4
    totals = {total for _, total in seen}
    if len(totals) == 1 and not four:
        return None, totals.pop()
    raise Unclear("unclear", "sticks lie too close together to count")


def _options(patch: Patch, measured: dict[str, Look] | None) -> list[tuple[int, int]]:
    """The (pale, dark) counts a patch may hold, or raise Unclear when it is not sticks (one
    touching where something came in from beyond may be a hand's: see REACHED_GLINT)."""
    one = [(int(patch.kind == "pale"), int(patch.kind == "dark"))]
    _not_a_hand(patch, LONE_WIDTH * STICK_AREA if measured is None else max(look.area[1] for look in measured.values() if not look.guessed))
    if patch.reached and not (patch.single and (patch.kind == "pale" or patch.pale <= REACHED_GLINT * patch.area)):  # a hand's
        raise Unclear("unclear", "something reaches into the tray, or sticks lie together at its edge")
    if measured is None:  # no stick lies alone to measure the others by
        if patch.stripes is not None:
            return [patch.stripes]
        if patch.single and patch.width <= LONE_WIDTH * STICK_PX[1]:
            return one
        raise Unclear("unclear", "sticks lie too close together to count")
    pale, dark = measured["pale"], measured["dark"]
    if patch.stripes is not None:
        return [patch.stripes]
    if patch.edge > GRAZE * STICK_PX[1]:
        found = _at_edge(patch, measured)
    else:
        look = measured[patch.kind] if patch.kind else None
        if patch.single and look is not None and look.area[0] <= patch.area <= look.area[1]:
            return one
        found = [(light, rest) for light, rest in fits(patch, pale, dark)
                 if SINGLE_LENGTH[0] * STICK_PX[0] <= patch.length <= (light + rest) * SINGLE_LENGTH[1] * STICK_PX[0]]
        if not found:
            raise Unclear("unclear", "part of a stick is hard to see" if patch.area < dark.area[0] else "something in the tray is not a stick")
    if not (pale.sure and dark.sure) and len({light + rest for light, rest in found}) > 1:
        # A look guessed, or measured only on sticks along the tray's edge (partly hidden
        # there), is too loose to let the four sticks decide: with a stick out of view, or one
        # lying partly over another, it would find one more or one fewer in the patch.
        raise Unclear("unclear", "sticks lie too close together to count")
    return found


def _at_edge(patch: Patch, measured: dict[str, Look]) -> list[tuple[int, int]]:
    """The (pale, dark) counts of a patch at the tray's edge (or a washed-out spot), where part
    of it may not show: one stick along the edge (its whole length seen) or over it (its
    whole width seen); or, bigger or longer than one stick, sticks lying together, their whole
    length seen (along the edge, or touching it by their ends) and not come in from beyond the
    tray (fingers reaching in across the paper beside it), the last of them perhaps partly
    hidden (several counts may fit: the four sticks of the whole tray decide).
    A pale side may vanish in a washed-out spot, but not its shaded side: there, only a whole
    dark stick or pale sticks are counted. Dark pixels where the camera sees a pale stick's
    side may be that side or a dark stick: both are counted (one stick's patch is pale where,
    those pixels left out, it looks pale). Raise Unclear when no count fits."""
    pale, dark = measured["pale"], measured["dark"]
    # Its dark pixels all where the camera may see a pale stick's side, it may be that side and
    # the part of its top that shows (the rest over the rim): without them, is it pale?
    kind = patch.kind or ("pale" if replace(patch, dark=patch.dark - patch.sides).kind == "pale" else None)
    look = measured[kind] if kind else None
    washed = patch.washed > GRAZE * STICK_PX[1]
    if washed and patch.kind != "pale" and not (patch.area >= dark.area[0] and patch.width >= dark.width[0]):
        raise Unclear("unclear", "a glare on the tray hides part of a stick")
    whole_length = patch.length >= SINGLE_LENGTH[0] * STICK_PX[0]
    one_long = patch.length <= SINGLE_LENGTH[1] * STICK_PX[0]
    if look is not None and one_long and patch.area <= look.area[1] and patch.width <= look.width[1]:
        along = whole_length and patch.area >= PARTIAL[1] * look.area[0]
        over = patch.length >= PARTIAL[0] * STICK_PX[0] and patch.area >= PARTIAL[0] * look.area[0]
        if along or over:
            return [(int(kind == "pale"), int(kind == "dark"))]
    found = []
    if whole_length and not washed and not patch.reached and (look or pale).sure and (look or dark).sure:
        for sticks in range(2, 5):
            found += [(light, sticks - light) for light in range(sticks + 1)
                      if _explains_at_edge(patch, light, sticks - light, pale, dark)
                      and patch.length <= sticks * SINGLE_LENGTH[1] * STICK_PX[0]
                      and patch.width <= light * pale.width[1] + (sticks - light) * dark.width[1]]
    if not found:
        raise Unclear("unclear", "something reaches into the tray, or sticks lie together at its edge")
    return found


def _explains_at_edge(patch: Patch, light: int, rest: int, pale: Look, dark: Look) -> bool:
    """Whether ``light`` pale and ``rest`` dark sticks lying together at the tray's edge can
    make the patch, the last of them perhaps partly hidden (:func:`_partly_hidden`). Dark
    pixels where the camera sees a pale stick's side may be that side or a dark stick; but a
    dark stick all but hidden beyond the edge is told only by dark pixels no side may be (a
    pale stick's side along the edge is just such a sliver)."""
    sided = replace(patch, dark=patch.dark - patch.sides)  # its sides taken as sides
    return any(_explains(one, light, rest, pale_look, dark_look)
               for pale_look, dark_look, hidden in _partly_hidden(pale, dark, light, rest)
               for one in ({sided} if hidden == "dark" else {patch, sided}))


def _partly_hidden(pale: Look, dark: Look, light: int, rest: int) -> list[tuple[Look, Look, str | None]]:
    """The looks of ``light`` pale and ``rest`` dark sticks lying together at the tray's edge,
    loosened for each way part of them may not show, and the side of the stick partly hidden:
    the last of them may show as little as PARTIAL[1] of its area (that stick pale, or dark,
    or None: the shortfall spread over all), and their seams and sides (cut off the single
    sticks along the edge they may have been measured on) mix the shares of pale and dark.

    >>> pale = Look((800.0, 1200.0), (10.0, 14.0), (0.8, 1.0), (0.0, 0.1))
    >>> dark = Look((700.0, 1100.0), (10.0, 14.0), (0.0, 0.1), (0.85, 1.0))
    >>> [(round(p.area[0]), round(d.area[0]), hidden) for p, d, hidden in _partly_hidden(pale, dark, 1, 1)]
    [(540, 473, None), (280, 700, 'pale'), (800, 245, 'dark')]
    >>> _partly_hidden(pale, dark, 2, 0)[0][0].pale  # seams lower a pale look's pale share
    (0.65, 1.0)
    """
    sticks = light + rest
    spread = (sticks - 1 + PARTIAL[1]) / sticks
    ways: list[tuple[float, float, str | None]] = [(spread, spread, None)]
    if light and rest:  # one stick of either side the one partly hidden, the others whole
        ways += [((light - 1 + PARTIAL[1]) / light, 1.0, "pale"), (1.0, (rest - 1 + PARTIAL[1]) / rest, "dark")]
    return [(_mixed(pale, pale_share), _mixed(dark, dark_share), hidden) for pale_share, dark_share, hidden in ways]


def _mixed(look: Look, share: float) -> Look:
    """``look`` with its smallest area scaled by ``share`` and its shares of pale and dark
    loosened by SHARE_SLACK (a dark look's pale share may rise, its dark share fall)."""
    mixed = {"pale": (max(0.0, look.pale[0] - SHARE_SLACK[0]), look.pale[1]), "dark": (look.dark[0], min(1.0, look.dark[1] + SHARE_SLACK[1]))}
    if look.dark[0] > look.pale[0]:  # a dark look: its pale share may rise, its dark share fall
        mixed = {"pale": (look.pale[0], min(1.0, look.pale[1] + SHARE_SLACK[1])), "dark": (max(0.0, look.dark[0] - SHARE_SLACK[0]), look.dark[1])}
    return replace(look, area=(look.area[0] * share, look.area[1]), **mixed)


def stripes(member: np.ndarray, pale: np.ndarray, dark: np.ndarray, rect: tuple) -> tuple[int, int] | None:
    """(pale, dark) sticks lying side by side in a patch, counted as the stripes that run along
    it, each a whole stick long and about one stick wide (a pale stick's dark side seen at an
    angle, or a seam, is narrower). ``member``, ``pale`` and ``dark``: the patch's masks in its
    bounding box; ``rect``: its ``cv2.minAreaRect`` there. None when the patch is not such
    stripes (sticks crossing, a hand, two sticks of one side with no seam between them).

        >>> member = np.zeros((40, 100), bool); member[5:35, 5:95] = True
        >>> pale = member.copy(); pale[17:20] = False  # two pale sticks and a seam...
        >>> dark = np.zeros_like(member); dark[20:35, 5:95] = True; pale[20:35] = False  # ...and a dark one
        >>> stripes(member, pale, dark, ((49.5, 19.5), (90.0, 30.0), 0.0))
        (1, 1)
    """
    (cx, cy), sides, angle = rect
    if not SINGLE_LENGTH[0] * STICK_PX[0] <= max(sides) <= 2 * SINGLE_LENGTH[1] * STICK_PX[0]:  # side by side, maybe staggered
        return None
    theta = np.deg2rad(angle if sides[0] >= sides[1] else angle + 90)
    ys, xs = np.nonzero(member)
    along = (xs - cx) * np.cos(theta) + (ys - cy) * np.sin(theta)
    across = np.floor(-(xs - cx) * np.sin(theta) + (ys - cy) * np.cos(theta)).astype(np.intp)
    across -= across.min()
    total = np.maximum(np.bincount(across), 1)  # a row across with no pixel (a gap) is neither side
    sides = (pale[ys, xs], dark[ys, xs])
    shares = (np.bincount(across, sides[0]) / total, np.bincount(across, sides[1]) / total)
    kinds = np.where(shares[0] >= 0.5, 1, np.where(shares[1] >= 0.5, 2, 0))
    counts = [0, 0, 0]
    start = 0
    for end in range(1, len(kinds) + 1):
        if end < len(kinds) and kinds[end] == kinds[start]:
            continue
        width = end - start
        if width >= (DARK_STRIPE if kinds[start] == 2 else STRIPE) * STICK_PX[1]:
            run = (across >= start) & (across < end)
            length = float(np.ptp(along[run]))
            if kinds[start] == 0 or width > LONE_WIDTH * STICK_PX[1] or not SINGLE_LENGTH[0] <= length / STICK_PX[0] <= SINGLE_LENGTH[1]:
                return None
            if sides[kinds[start] - 1][run].mean() < STRIPE_PURITY:  # fingers over a stick, not a stick
                return None
            counts[kinds[start]] += 1
        start = end
    return (counts[1], counts[2]) if counts[1] + counts[2] > 1 else None


def _not_a_hand(patch: Patch, area: float) -> None:
    """Raise Unclear("occluded") for a patch bigger than MAX_STICKS sticks, given one stick's
    biggest ``area``: a hand or an arm. (A smaller one might be sticks lying together; it is
    left unclear, and the board is still read.)"""
    if patch.area > MAX_STICKS * area:
        raise Unclear("occluded", "something that is not a stick lies in the tray")
