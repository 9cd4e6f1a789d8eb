"""Sticks lying against each other, found as bars of a stick's size.

Where the tray's patches cannot be counted one by one (sticks touching side by side or
staggered, one partly over the tray's rim), the sticks are traced the way a person does:
the bar of a stick's footprint that best covers what changed in the tray first, then the
best bar over what it leaves, and so on while a bar is still well covered. A bar may lie
partly beyond the tray's edge. Where the paper beside and below the tray is looked at too
(``ring``), what changed there counts for a bar of either side: a stick lying mostly over the
tray's rim shows as a sliver in the tray and the rest of it on the paper, as a person sees
it. Each bar's side up is read from its own pixels in the tray (those no earlier bar took).
A camera looking from the side sees a pale stick's dark rounded side along its top, on the
side nearer the camera (:meth:`BarFitter.set_lean`): dark pixels lying just there may be that
side, so they count for no bar and not in reading a side up (a dark stick lying there shows
more: its dark runs on), and a pale bar takes them with it.
The throw is given only when exactly four bars are found, each plainly pale or dark, and
together they explain all that changed: a finger laid over the sticks sticks out beside
them, and gives no throw.

    >>> inner = np.ones((70, 160), np.uint8)
    >>> objects, pale, dark = (np.zeros_like(inner) for _ in range(3))
    >>> for row, side in zip((8, 21, 34, 47), (pale, pale, dark, pale)):  # four sticks touching
    ...     objects[row : row + 13, 20:120] = side[row : row + 12, 20:120] = 1  # (and a seam)
    >>> BarFitter(inner, (100.0, 12.0)).light_up(objects, pale, dark)
    3
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from math import ceil, floor

import cv2
import numpy as np

from senet.vision.parts import measured_parts

#: The bar: the core of a stick's footprint, its length less its rounded ends (this share of
#: it) and its width. It is fitted on a view of half the tray's resolution, turned every STEP degrees.
CORE, STEP = 0.85, 4
#: A bar counts when at least SHOWN of it is seen, at least FILL of that changed (a dark stick
#: a little narrower than the bar, 15 of 18 mm say, its blurred edges as green as the tray,
#: fills four fifths of it or a little less), and it covers changed pixels worth SHOWN of a
#: whole bar (a stick mostly beyond the view is not counted); at least INSIDE of its footprint
#: lies in the tray (on the paper alone, it is no stick thrown; a camera looking from aside
#: sees a stick's top lie beyond its footprint, as far as its height); and at most UNDER of
#: what is seen of it lies under the bars found before (three sticks lying askew against each
#: other leave room for a fourth bar, mostly over them).
SHOWN, FILL, INSIDE, UNDER = 0.3, 0.75, 0.15, 0.5
#: Where bars lying further across cover changed pixels almost as well (within FLUSH of a bar,
#: not sliding out of view), the bar is laid flush with one edge of them: two sticks lying side
#: by side are traced one at a time, not by a bar between them that leaves half of each.
FLUSH = 0.03
#: A bar's own pixels show its side: pale with at least the first of SURE of them pale and at
#: most the first of MIXED dark; dark with at least the second of SURE dark and at most the
#: second of MIXED pale. A pale stick's shaded side is narrow beside its top, but a bar laid
#: over the rim or against the shadow it casts may take in a strip of them, a quarter of its
#: width; a dark stick's lit back may look neither paler nor darker than the tray (a red-brown
#: stick on a green tray: a third of it), as a dark stick's patch may (tray.DARK_SHARE).
SURE, MIXED = (0.7, 0.5), (0.25, 0.1)
#: A bar whose pixels in the tray may all be a pale stick's side (its top beyond the tray's rim,
#: say) shows its side up on the paper: of what changed under it there, at most the first of
#: DARK_ON_PAPER darker than any shadow and at least PALE_ON_PAPER as bright as a pale top
#: looks for a pale top; at least the second of DARK_ON_PAPER darker than any shadow, or at
#: most HARDLY_PALE_ON_PAPER as bright as a pale top (a brown back, lit), for a dark back.
DARK_ON_PAPER, PALE_ON_PAPER, HARDLY_PALE_ON_PAPER = (0.1, 0.5), 0.5, 0.2
#: A bar lying over the tray's rim shows a sliver in the tray, much of it the blur along its
#: edges: pale when at least RIM_PALE of it is pale and at most the second of MIXED dark, if
#: the paper beside the tray shows it pale too (as DARK_ON_PAPER and PALE_ON_PAPER tell).
RIM_PALE = 0.5
#: Changed pixels farther than NEAR (a share of a stick's width) from every stick found are left
#: over. Where a lump of them at least THICK of a stick's width across covers more than LUMP square
#: stick widths, something else lies in the tray (a finger laid over a stick sticks out beside
#: it); thinner slivers are the sticks' shaded sides and edges.
NEAR, THICK, LUMP = 0.3, 0.5, 0.3
#: A pale stick's side shows at most as wide as its top leans (see :meth:`BarFitter.set_lean`), and
#: this many tray pixels more (the blur between its side and its top).
SIDE_SLACK = 2
#: Bars are sought up to this many (there are four sticks; a fifth found says the count is wrong).
MOST = 5
#: Masks differing in at most this share of their pixels are the same sticks seen again (a few
#: pixels along their edges flicker with the camera's noise): they are not traced again.
SAME = 0.03
_SQUARE3 = np.ones((3, 3), np.uint8)


@dataclass(frozen=True)
class Bar:
    """One stick found: its whole footprint (a mask of the tray) and whether its pale side is up
    (None: its pixels do not plainly show)."""

    mask: np.ndarray
    pale: bool | None
    #: The footprint's corners (x, y tray pixels, 4 x 2), where it lies beyond the tray's edge too.
    corners: np.ndarray
    #: Whether its pixels in the tray may be only a pale stick's side, its top beyond the rim,
    #: where the paper does not plainly show it (``pale`` is None then): a stick all the same.
    side_only: bool = False
    #: Whether it lies over the tray's rim and was read pale from a sliver in the tray that
    #: does not plainly show it, with the paper's help (see RIM_PALE).
    pale_sliver: bool = False


@dataclass
class BarFitter:
    """Fits bars to the masks of one tray (``inner``: 1 where the tray can be seen, uint8), for
    sticks of ``stick`` (length, width) tray pixels; ``ring``: 1 where the paper beside and below
    the tray is seen, on the tray's view widened by an even number of pixels each side and below
    (0 over the tray itself), or None to look at the tray alone."""

    inner: np.ndarray
    stick: tuple[float, float]
    ring: np.ndarray | None = None
    #: The half-size view turned by each angle tried: the turn and the size of the view turned.
    _turns: list[tuple[np.ndarray, tuple[int, int]]] = field(init=False, repr=False)
    #: Each turn as maps for ``cv2.remap`` (:func:`turn_maps`), made when first needed.
    _maps: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, init=False, repr=False)
    #: Where a pale stick's top lies from the dark side the camera sees beside it (the offsets
    #: of a kernel centred on its middle), or None where the camera sees no sides.
    _side_kernel: np.ndarray | None = field(default=None, init=False, repr=False)
    #: How far and which way (x, y tray pixels) the camera sees a stick's top lie from its
    #: footprint, on the average over the tray.
    lean: np.ndarray = field(default_factory=lambda: np.zeros(2), init=False, repr=False)
    #: The last masks traced (what changed, and of it the pale pixels) and their bars, with the
    #: paper beside the tray and without.
    _last: dict[bool, tuple[np.ndarray, np.ndarray, np.ndarray | None, list[Bar]]] = field(default_factory=dict, init=False, repr=False)
    #: How much of a bar at each place of the half-size view turned by an angle must show to
    #: count (see SHOWN and UNDER), with the paper beside the tray and without (by the flag and
    #: the angle's index).
    _to_show: dict[tuple[bool, int], np.ndarray] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        height, width = self.inner.shape
        if self.ring is None:
            self.ring = np.zeros_like(self.inner)
        self._band = (self.ring.shape[1] - width) // 2
        assert self._band % 2 == 0 and self.ring.shape == (height + self._band, width + 2 * self._band)
        length, across = CORE * self.stick[0], self.stick[1]
        self._near = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(NEAR * across) + 1,) * 2)
        self._thick = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(THICK * across) | 1,) * 2)
        pad = round(length / 4) + 1  # half a bar, on the half-size view (the paper beside the tray lies in it)
        self._size = (width // 2 + 2 * pad, height // 2 + 2 * pad)
        self._origin = (pad, pad)  # where the tray lies in it
        self._bar = (round(length / 2), round(across / 2))
        self._whole = (round(self.stick[0] / 2), self._bar[1])  # the whole stick, its ends too
        # Each view turned is just big enough to hold the whole tray turned, and half a bar round it.
        centre, tray = np.array(self._size) / 2, (width // 2, height // 2)
        self._turns = []
        for angle in range(0, 180, STEP):
            cos, sin = abs(np.cos(np.radians(angle))), abs(np.sin(np.radians(angle)))
            size = (int(np.ceil(tray[0] * cos + tray[1] * sin)) + 2 * pad, int(np.ceil(tray[0] * sin + tray[1] * cos)) + 2 * pad)
            turn = cv2.getRotationMatrix2D(tuple(centre), angle, 1.0)
            turn[:, 2] += np.array(size) / 2 - centre
            self._turns.append((turn, size))

    def set_lean(self, leans: np.ndarray) -> None:
        """How far and which way (x, y tray pixels) the camera sees the top of the thickest
        stick lie from its footprint, at a few places in the tray (its corners, say): a pale
        stick's dark side shows between them."""
        reach = float(np.linalg.norm(leans, axis=1).max()) if len(leans) else 0.0
        self.lean = np.mean(leans, axis=0) if len(leans) else np.zeros(2)
        kernel = None
        if reach >= 1.0:
            half = int(np.ceil(reach)) + SIDE_SLACK
            fan = [(0.0, 0.0)] + [tuple(lean * (1 + SIDE_SLACK / max(np.linalg.norm(lean), 1e-9))) for lean in leans]
            kernel = np.zeros((2 * half + 1,) * 2, np.uint8)
            cv2.fillConvexPoly(kernel, np.round(cv2.convexHull(np.float32(fan) + half)).astype(np.int32), 1)
        if (kernel is None) != (self._side_kernel is None) or (kernel is not None and not np.array_equal(kernel, self._side_kernel)):
            self._side_kernel = kernel
            self._last.clear()

    def light_up(self, objects: np.ndarray, pale: np.ndarray, dark: np.ndarray, beside: np.ndarray | None = None) -> int | None:
        """Pale sides up of the four sticks the bars find (:func:`light_up`)."""
        return light_up(self.traced(objects, pale, dark, beside))

    def traced(self, objects: np.ndarray, pale: np.ndarray, dark: np.ndarray, beside: np.ndarray | None = None) -> list[Bar]:
        """The bars :meth:`fit` finds; sticks lying still are traced once, not on every frame."""
        last = self._last.get(beside is None)
        if last is not None and _same(last[0], objects) and _same(last[1], pale) and (beside is None or _same(last[2], beside)):
            return last[3]
        bars = self.fit(objects, pale, dark, beside)
        self._last[beside is None] = (objects.copy(), pale.copy(), None if beside is None else beside.copy(), bars)
        return bars

    def fit(self, objects: np.ndarray, pale: np.ndarray, dark: np.ndarray, beside: np.ndarray | None = None) -> list[Bar]:
        """The bars found, best first; empty when changed pixels are left over that no bar
        explains (something in the tray is not a stick). ``beside``: where the paper beside
        and below the tray changed (the shape of ``ring``), if it was looked at: 1, or 2 where
        it is darker than any shadow (a dark stick's back)."""
        seen = self.inner > 0
        # A bar of a side scores its side's pixels, less the other side's and the bare tray's,
        # over what it shows: the tray no bar took yet. On the paper, what changed counts for
        # either side, and the bare paper against both.
        bare = seen & (objects == 0)
        pale_sides = self.pale_sides(pale, dark)
        sides = [np.where(mine > 0, 1.0, np.where(bare | (other > 0), -1.0, 0.0)) * ~pale_sides for mine, other in ((pale, dark), (dark, pale))]
        score = self._half(np.dstack(sides + [seen, seen]).astype(np.float32))  # sides, seen, in the tray
        # Where the tops of sticks whose footprints lie in the tray are seen (up to the thickest).
        leaning = cv2.warpAffine(score[..., 3], np.float32([[1, 0, self.lean[0] / 2], [0, 1, self.lean[1] / 2]]), self._size)
        score[..., 3] = np.maximum(score[..., 3], leaning)
        if beside is not None:
            paper = np.where(beside > 0, 1.0, -1.0) * self.ring
            score += self._half(np.dstack([paper, paper, self.ring, np.zeros_like(paper)]).astype(np.float32))
        turned = _Turned(score, self._bar, [turn for turn, _ in self._turns], self._turn_maps, partial(self._to_show_at, beside is not None))
        taken = np.zeros(self.ring.shape, np.uint8)
        bars: list[Bar] = []
        while len(bars) < MOST:
            best = self._best(turned, beside is not None)
            if best is None:
                break
            core, stick = (self._box(*best, share) for share in (1.0, 1 / CORE))
            core_mask, stick_mask = (polygon_mask(objects.shape, corners) for corners in (core, stick))
            own = (core_mask > 0) & (self._tray(taken) == 0) & (objects > 0)
            footprint = polygon_mask(taken.shape, stick + (self._band, 0))
            shares = _shares(own, pale, dark, pale_sides)
            pale_up = _pale_up(shares)
            over_the_rim = footprint.sum() > self._tray(footprint).sum()
            # Mostly dark, lying over the rim, and all its pixels in the tray a side's sliver (at
            # the rim, the edge of a pale top may show too)?
            side_only = shares[1] >= SURE[1] and over_the_rim and self._maybe_a_side(own, core_mask)
            pale_sliver = False
            if side_only:  # the paper may tell (it changed only beside the tray)
                pale_up = None if beside is None else _pale_on_paper(footprint, beside)
            elif pale_up is None and over_the_rim and beside is not None and _pale_on_paper(footprint, beside):
                pale_up = _pale_up(shares, over_the_rim=True)
                pale_sliver = pale_up is not None
            bar = Bar(stick_mask > 0, pale_up, stick, side_only=side_only and pale_up is None, pale_sliver=pale_sliver)
            bars.append(bar)
            if bar.pale:  # with its side
                self._tray(footprint)[self._beside(stick_mask) & pale_sides] = 1
            taken |= cv2.dilate(footprint, _SQUARE3, iterations=2)
            turned.zero(self._half((taken if beside is not None else self._tray(taken)).astype(np.float32)) > 0)
        near = cv2.dilate(np.logical_or.reduce([bar.mask for bar in bars] or [np.zeros_like(seen)]).astype(np.uint8), self._near)
        left_over = cv2.morphologyEx(((objects > 0) & seen & (near == 0)).astype(np.uint8), cv2.MORPH_OPEN, self._thick)
        count, _, stats = measured_parts(left_over)
        if count > 1 and stats[1:, cv2.CC_STAT_AREA].max() > LUMP * self.stick[1] ** 2:
            return []
        return bars

    def _best(self, turned: _Turned, paper: bool) -> tuple[int, int, int] | None:
        """Where the best-covered bar of either side lies (x, y on the turned half-size view)
        and its angle's index, or None: sought at every other angle, then at the angles beside
        the best of those. ``paper``: whether the paper beside the tray is looked at too."""
        turns = len(self._turns)
        found = [(turned.best(index), index) for index in range(0, turns, 2)]
        best, index = max(found, key=lambda pair: pair[0][0])
        found = [(best, index)] + [(turned.best(beside % turns), beside % turns) for beside in (index - 1, index + 1)]
        (value, at), index = max(found, key=lambda pair: pair[0][0])
        if value < SHOWN * self._bar[0] * self._bar[1]:
            return None
        x, y = self._flush(turned, index, at, paper)
        return self._middle(turned, x, y, index), y, index

    def _box(self, x: int, y: int, index: int, longer: float) -> np.ndarray:
        """The corners (tray pixels) of the bar found at (x, y) of the ``index``th turned view,
        made ``longer`` times as long."""
        length, width = self._bar[0] * longer, self._bar[1]
        box = np.array([(x - length / 2, y - width / 2), (x + length / 2, y - width / 2), (x + length / 2, y + width / 2), (x - length / 2, y + width / 2)])
        back = cv2.invertAffineTransform(self._turns[index][0])
        return (box @ back[:, :2].T + back[:, 2] - self._origin) * 2

    def _to_show_at(self, paper: bool, index: int) -> np.ndarray:
        """How much of a bar must show at each place of the ``index``th turned view (see SHOWN
        and UNDER); ``paper``: with the paper beside the tray."""
        if (paper, index) not in self._to_show:
            view = self._half(self.inner.astype(np.float32)) + (self._half(self.ring.astype(np.float32)) if paper else 0.0)
            in_view = _sums(cv2.warpAffine(view, *self._turns[index]), self._bar)
            self._to_show[paper, index] = cv2.max(in_view * (1 - UNDER), SHOWN * self._bar[0] * self._bar[1])
        return self._to_show[paper, index]

    def _flush(self, turned: _Turned, index: int, at: tuple[int, int], paper: bool) -> tuple[int, int]:
        """Where (x, y) the bar best covering the ``index``th turned view, ``at`` (x, y), is laid:
        of the places across that cover almost as well and show as much, the end that covers
        best, flush with the edge of what changed (see FLUSH). Not on the paper beside the tray
        (``paper``), where a strip that changed is no stick's edge."""
        x, y = at
        covered, shown = turned.covered(index), turned.sums(index)[2]
        best, across = float(covered[y, x]), covered[:, x]
        slack = 0.0 if paper else FLUSH * self._bar[0] * self._bar[1]
        near_best = (across >= best - slack) & (shown[:, x] >= shown[y, x] - slack)
        stops = np.flatnonzero(~near_best)  # the run of them about y ends before and after these
        before, after = np.searchsorted(stops, y), np.searchsorted(stops, y, side="right")
        top = int(stops[before - 1]) + 1 if before > 0 else 0
        bottom = int(stops[after]) - 1 if after < len(stops) else len(across) - 1
        return x, top if across[top] >= across[bottom] else bottom

    def _middle(self, turned: _Turned, x: int, y: int, index: int) -> int:
        """Where along its length (x) a bar found at (x, y) of the ``index``th turned view lies in
        the middle of its stick: a bar is shorter than a stick, so several cover it alike; the
        one taken is the best cover by a bar as long as the whole stick."""
        pale, dark = cv2.split(_sums(turned.view(index)[..., :2], self._whole))
        row = (pale if pale[y, x] >= dark[y, x] else dark)[y]
        slack = (self._whole[0] - self._bar[0]) // 2 + 1
        start = max(0, x - slack)
        return start + int(np.argmax(row[start : x + slack + 1]))

    def pale_sides(self, pale: np.ndarray, dark: np.ndarray) -> np.ndarray:
        """The dark pixels that may be the side of a pale stick (bool): those lying just on the
        camera's side of pale ones, unless the dark runs on beyond (a dark stick lying there)."""
        if self._side_kernel is None:
            return np.zeros(pale.shape, bool)
        near = self._beside(pale)
        beyond = cv2.dilate(((dark > 0) & ~near).astype(np.uint8), self._side_kernel[::-1, ::-1]) > 0
        return (dark > 0) & near & ~beyond

    def _maybe_a_side(self, own: np.ndarray, bar: np.ndarray) -> bool:
        """Whether all a bar's own pixels (``own``, bool) lie along the edge of the bar (a mask)
        that faces the camera, no farther in than a pale stick's side shows: they may be the
        side of a pale stick whose top the tray does not show (beyond its rim, say).

        >>> fitter = BarFitter(np.ones((40, 60), np.uint8), (40.0, 12.0))
        >>> fitter.set_lean(np.array([[0.0, 3.0]]))  # tops lie 3 pixels down: the camera is up
        >>> bar, own = np.zeros((40, 60), np.uint8), np.zeros((40, 60), bool)
        >>> bar[20:32, 10:50] = 1
        >>> own[20:24, 10:50] = True  # the top 4 rows of the bar: maybe a side
        >>> fitter._maybe_a_side(own, bar), fitter._maybe_a_side(np.roll(own, 8, axis=0), bar)
        (True, False)
        """
        return bool(own.any()) and not (own & ~self._side_strip(bar, toward_camera=True)).any()

    def far_rim(self) -> np.ndarray:
        """The tray's pixels (bool) along its edge away from the camera, no farther in than a
        pale stick's side shows: a pale stick lying over the rim there may show only its side
        in the tray, its top beyond. Nothing where the camera sees no sides.

        >>> fitter = BarFitter(np.ones((20, 30), np.uint8), (20.0, 6.0))
        >>> fitter.set_lean(np.array([[0.0, 3.0]]))  # tops lie 3 pixels down: the camera is up
        >>> np.flatnonzero(fitter.far_rim().any(axis=1)).tolist()  # the bottom rows
        [15, 16, 17, 18, 19]
        """
        return self._side_strip(self.inner, toward_camera=False)

    def _side_strip(self, mask: np.ndarray, toward_camera: bool) -> np.ndarray:
        """The pixels of a mask (bool) no farther from its edge facing the camera (or facing
        away) than a pale stick's side shows (as far as its top leans, and SIDE_SLACK)."""
        reach = float(np.linalg.norm(self.lean))
        if reach < 1.0:
            return np.zeros(mask.shape, bool)
        shift = self.lean * (1 + SIDE_SLACK / reach) * (1 if toward_camera else -1)
        inward = cv2.warpAffine(mask.astype(np.uint8), np.float32([[1, 0, shift[0]], [0, 1, shift[1]]]), mask.shape[::-1])
        return (mask > 0) & (inward == 0)

    def _beside(self, top: np.ndarray) -> np.ndarray:
        """Where the camera may see the dark side of a pale stick whose top is ``top`` (a mask),
        and the top itself (bool): the top alone where it sees no sides."""
        if self._side_kernel is None:
            return top > 0
        return cv2.dilate(top.astype(np.uint8), self._side_kernel) > 0

    def _tray(self, canvas: np.ndarray) -> np.ndarray:
        """The tray's part of an image of the tray and the paper beside and below it."""
        height, width = self.inner.shape
        return canvas[:height, self._band : self._band + width]

    def _half(self, image: np.ndarray) -> np.ndarray:
        """An image of the tray, or of the tray and the paper beside and below it (the shape of
        ``ring``), at half size, padded by half a bar of nothing all round the tray."""
        half = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        padded = np.zeros((self._size[1], self._size[0], *half.shape[2:]), np.float32)
        left, top = self._origin
        left -= self._band // 2 if image.shape[:2] == self.ring.shape else 0
        padded[top : top + half.shape[0], left : left + half.shape[1]] = half
        return padded

    def _turn_maps(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """The ``index``th turn as maps for ``cv2.remap`` (:func:`turn_maps`), made once."""
        if index not in self._maps:
            self._maps[index] = turn_maps(*self._turns[index])
        return self._maps[index]


def _sums(image: np.ndarray, bar: tuple[int, int], depth: int = -1) -> np.ndarray:
    """Each pixel's sum of ``image`` over a ``bar`` (length, width) lying along the x axis,
    centred there; ``depth``: OpenCV's depth of the sums (-1: the image's)."""
    return cv2.boxFilter(image, depth, bar, normalize=False, borderType=cv2.BORDER_CONSTANT)


def turn_maps(turn: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Maps (OpenCV's fixed-point form) with which ``cv2.remap`` gives exactly the view that
    ``cv2.warpAffine(image, turn, size)`` gives, pixel for pixel, so that a part of that view
    can be made alone: warpAffine steps through the turn undone in 1/1024ths of a pixel,
    rounded once per row and once per column, and interpolates at the nearest 1/32nd.

        >>> image = np.random.default_rng(1).random((30, 40)).astype(np.float32)
        >>> turn = cv2.getRotationMatrix2D((20.0, 15.0), 37.0, 1.0)
        >>> whole = cv2.warpAffine(image, turn, (40, 30))
        >>> bool((cv2.remap(image, *turn_maps(turn, (40, 30)), cv2.INTER_LINEAR) == whole).all())
        True
    """
    back = cv2.invertAffineTransform(turn).astype(np.float64)  # as warpAffine undoes it
    fine = 1 << 10  # 1/1024ths of a pixel
    columns, rows = np.arange(size[0], dtype=np.float64), np.arange(size[1], dtype=np.float64)
    half_step = fine // 32 // 2  # rounds to the nearest 1/32nd
    x = (np.rint((back[0, 1] * rows + back[0, 2]) * fine).astype(np.int64)[:, None] + half_step + np.rint(back[0, 0] * columns * fine).astype(np.int64)) >> 5
    y = (np.rint((back[1, 1] * rows + back[1, 2]) * fine).astype(np.int64)[:, None] + half_step + np.rint(back[1, 0] * columns * fine).astype(np.int64)) >> 5
    return cv2.convertMaps((x / 32).astype(np.float32), (y / 32).astype(np.float32), cv2.CV_16SC2)


def _covered(summed: np.ndarray, to_show: np.ndarray, area: int) -> np.ndarray:
    """How well a bar of ``area`` pixels at each place covers a side, given its sums there
    (the planes pale, dark, shown and in the tray: float32) and how much of it must show: the
    better of its sides, or -inf where too little of it shows or lies in the tray, or too little
    of what shows changed (see SHOWN, INSIDE, FILL and UNDER)."""
    pale, dark, shown, inside = summed
    covered = np.maximum(pale, dark)
    return np.where((shown < to_show) | (inside < INSIDE * area) | (covered < (2 * FILL - 1) * shown), np.float32(-np.inf), covered)


@dataclass
class _TurnedView:
    """The scores turned by one angle, their sums over a bar (exact, and as float32 planes:
    pale, dark, shown, in the tray) and how well a bar covers them at each place; ``done``: how
    many patches zeroed they show."""

    turned: np.ndarray
    exact: np.ndarray
    sums: np.ndarray
    covered: np.ndarray
    done: int


class _Turned:
    """The scores of one fit turned by each angle tried (by each of ``turns``, remapped by the
    ``maps`` of it), their sums over a ``bar`` and how well a bar covers them (given how much of
    it must ``to_show`` at each place of a turned view), kept while the bars found zero the
    scores under them (:meth:`zero`). A view is made whole when first needed, and after that
    only where a patch zeroed since reaches it: exactly what turning and summing the whole
    scores again gives (the scores and OpenCV's weights are multiples of small powers of two,
    1/4096 and 1/1024, so their sums, added in double precision, are exact: the sums of a change
    added to them give what summing afresh gives).

        >>> score = np.zeros((40, 60, 4), np.float32)
        >>> score[10:30, 10:50] = 1.0
        >>> turns = [cv2.getRotationMatrix2D((30.0, 20.0), angle, 1.0) for angle in (0, 30)]
        >>> maps, to_show = lambda index: turn_maps(turns[index], (60, 40)), lambda index: np.full((40, 60), 20, np.float32)
        >>> turned = _Turned(score, (21, 4), turns, maps, to_show)
        >>> before = turned.sums(1).copy()
        >>> zeroed = np.zeros((40, 60), bool)
        >>> zeroed[10:20, 10:50] = True
        >>> turned.zero(zeroed)
        >>> whole = _sums(cv2.warpAffine(turned.score, turns[1], (60, 40)), (21, 4)).transpose(2, 0, 1)
        >>> bool((turned.sums(1) == whole).all()), bool((turned.sums(1) != before).any())
        (True, True)
    """

    def __init__(self, score: np.ndarray, bar: tuple[int, int], turns: list[np.ndarray],
                 maps: Callable[[int], tuple[np.ndarray, np.ndarray]], to_show: Callable[[int], np.ndarray]) -> None:
        self.score, self._bar, self._maps, self._to_show = score, bar, maps, to_show
        self._turns = [tuple(turn.ravel().tolist()) for turn in turns]  # plain numbers: quick
        self._zeroed: list[tuple[int, int, int, int]] = []  # (x, y, width, height) round each patch zeroed
        self._views: dict[int, _TurnedView] = {}

    def zero(self, mask: np.ndarray) -> None:
        """Zero the scores where ``mask`` (bool) is set."""
        changed = mask & self.score.any(axis=2)
        if changed.any():
            self.score[changed] = 0.0
            self._zeroed.append(cv2.boundingRect(changed.astype(np.uint8)))

    def view(self, index: int) -> np.ndarray:
        """The scores turned by the ``index``th angle."""
        return self._updated(index).turned

    def sums(self, index: int) -> np.ndarray:
        """The scores turned by the ``index``th angle, summed over the bar at each place (float32 planes)."""
        return self._updated(index).sums

    def covered(self, index: int) -> np.ndarray:
        """How well a bar covers the scores turned by the ``index``th angle at each place (:func:`_covered`)."""
        return self._updated(index).covered

    def best(self, index: int) -> tuple[float, tuple[int, int]]:
        """The best cover of a bar turned to the ``index``th angle, and where (x, y) it first lies."""
        covered = self.covered(index)
        y, x = np.unravel_index(int(np.argmax(covered)), covered.shape)
        return float(covered[y, x]), (int(x), int(y))

    def _updated(self, index: int) -> _TurnedView:
        maps, area = self._maps(index), self._bar[0] * self._bar[1]
        if index not in self._views:
            turned = cv2.remap(self.score, *maps, cv2.INTER_LINEAR)
            exact = _sums(turned, self._bar, cv2.CV_64F)
            sums = np.ascontiguousarray(exact.transpose(2, 0, 1), np.float32)
            self._views[index] = _TurnedView(turned, exact, sums, _covered(sums, self._to_show(index), area), len(self._zeroed))
        view = self._views[index]
        height, width = view.turned.shape[:2]
        reach = (self._bar[0] // 2 + 1, self._bar[1] // 2 + 1)  # how far a change of the turned scores moves their sums
        a, b, c, d, e, f = self._turns[index]
        for x, y, w, h in self._zeroed[view.done :]:
            # Each place of the view interpolates the 2 x 2 scores at or before where it comes from.
            xs, ys = (x - 1, x + w), (y - 1, y + h)
            across = [a * u + b * v + c for u in xs for v in ys]
            down = [d * u + e * v + f for u in xs for v in ys]
            part = _clipped(floor(min(across)) - 2, floor(min(down)) - 2, ceil(max(across)) + 3, ceil(max(down)) + 3, width, height)
            if part is None:
                continue
            left, top, right, bottom = part
            now = cv2.remap(self.score, maps[0][top:bottom, left:right], maps[1][top:bottom, left:right], cv2.INTER_LINEAR)
            # The sums change by the sums of the change, within a bar's reach of it.
            x0, y0, x1, y1 = _clipped(left - reach[0], top - reach[1], right + reach[0], bottom + reach[1], width, height) or part
            change = np.zeros((y1 - y0, x1 - x0, now.shape[2]), np.float32)  # held exactly: multiples of 1/4M, at most 2
            change[top - y0 : bottom - y0, left - x0 : right - x0] = now - view.turned[top:bottom, left:right]
            view.turned[top:bottom, left:right] = now
            view.exact[y0:y1, x0:x1] += _sums(change, self._bar, cv2.CV_64F)
            view.sums[:, y0:y1, x0:x1] = view.exact[y0:y1, x0:x1].transpose(2, 0, 1)
            view.covered[y0:y1, x0:x1] = _covered(view.sums[:, y0:y1, x0:x1], self._to_show(index)[y0:y1, x0:x1], area)
        view.done = len(self._zeroed)
        return view


def light_up(bars: list[Bar]) -> int | None:
    """Pale sides up of ``bars``, when they are four sticks each plainly pale or dark; else None."""
    return None if len(bars) != 4 or any(bar.pale is None for bar in bars) else sum(bool(bar.pale) for bar in bars)


def polygon_mask(shape: tuple[int, ...], corners: np.ndarray) -> np.ndarray:
    """A mask (uint8 0/1) of ``shape`` with the polygon of ``corners`` (x, y) filled."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return mask


def _same(before: np.ndarray, now: np.ndarray) -> bool:
    """Whether two masks (0/1) differ in at most SAME of the pixels either marks.

    >>> _same(np.array([1, 1, 0]), np.array([1, 0, 0]))
    False
    """
    return int(cv2.countNonZero(cv2.bitwise_xor(before, now))) <= SAME * max(1, int(cv2.countNonZero(cv2.bitwise_or(before, now))))


def _pale_on_paper(footprint: np.ndarray, beside: np.ndarray) -> bool | None:
    """Whether the paper shows a stick pale side up (True) or dark (False), or None when it does
    not plainly: what changed on the paper within its ``footprint`` (uint8, the shape of
    ``beside``) is mostly darker than any shadow (``beside`` 2: a dark back) or hardly any of it
    as bright as a pale top (``beside`` 1; 3 is between: a brown back, or skin); or hardly any
    of it darker than any shadow and mostly as bright as a pale top.

    >>> beside, footprint = np.zeros((4, 8), np.uint8), np.zeros((4, 8), np.uint8)
    >>> footprint[1:3, 1:7], beside[1:3, 0:5] = 1, 2
    >>> _pale_on_paper(footprint, beside), _pale_on_paper(footprint, beside // 2), _pale_on_paper(footprint, 0 * beside)
    (False, True, None)
    >>> _pale_on_paper(footprint, beside + beside // 2)  # changed, dimmer than a pale top: 3
    False
    >>> beside[1, 0:4] = 1  # as bright as a pale top on 3 of its 8 pixels, the rest between: skin?
    >>> print(_pale_on_paper(footprint, np.where(beside == 2, 3, beside)))
    None
    """
    changed = beside[(footprint > 0) & (beside > 0)]
    if changed.size == 0:
        return None
    dark_share, pale_share = (changed == 2).mean(), (changed == 1).mean()
    if dark_share >= DARK_ON_PAPER[1] or pale_share <= HARDLY_PALE_ON_PAPER:
        return False
    return True if dark_share <= DARK_ON_PAPER[0] and pale_share >= PALE_ON_PAPER else None


def _shares(own: np.ndarray, pale: np.ndarray, dark: np.ndarray, pale_sides: np.ndarray) -> tuple[float, float]:
    """The shares of a bar's own changed pixels (``own``, bool) that are pale and dark. Dark
    pixels that may be a pale stick's side (``pale_sides``, bool) do not count: a dark stick
    shows more than those.

    >>> own, pale_sides = np.ones((2, 10), bool), np.zeros((2, 10), bool)
    >>> pale, dark = np.zeros((2, 10), np.uint8), np.zeros((2, 10), np.uint8)
    >>> pale[1], dark[0], pale_sides[0] = 1, 1, True  # half its width a side along its top
    >>> _shares(own, pale, dark, pale_sides), _shares(own, pale, dark, np.zeros_like(pale_sides))
    ((1.0, 0.0), (0.5, 0.5))
    """
    own = own & ~pale_sides
    count = max(int(own.sum()), 1)
    return float((pale[own] > 0).sum() / count), float((dark[own] > 0).sum() / count)


def _pale_up(shares: tuple[float, float], over_the_rim: bool = False) -> bool | None:
    """True (pale) or False (dark) when a bar's own pixels plainly show one side, given the
    :func:`_shares` of them pale and dark, else None. ``over_the_rim``: they are the sliver of a
    bar lying over the tray's rim, which the paper shows pale (see RIM_PALE).

    >>> _pale_up((1.0, 0.0)), _pale_up((0.5, 0.5))  # a pale top; half of it dark, half pale
    (True, None)
    >>> _pale_up((0.0, 0.6))  # 60% dark, the rest neither: a dark stick's lit back
    False
    >>> _pale_up((0.6, 0.0)), _pale_up((0.6, 0.0), over_the_rim=True)  # 60% pale, the rest blur
    (None, True)
    """
    pale_share, dark_share = shares
    pale_from, dark_at_most = (RIM_PALE, MIXED[1]) if over_the_rim else (SURE[0], MIXED[0])
    if pale_share >= pale_from and dark_share <= dark_at_most:
        return True
    if dark_share >= SURE[1] and pale_share <= MIXED[1]:
        return False
    return None


def _clipped(left: int, top: int, right: int, bottom: int, width: int, height: int) -> tuple[int, int, int, int] | None:
    """The rectangle from (left, top) to before (right, bottom) within an image of ``width``
    and ``height``, or None when none of it lies there.

        >>> _clipped(-3, 2, 5, 50, 10, 20), _clipped(12, 0, 15, 5, 10, 20)
        ((0, 2, 5, 20), None)
    """
    left, top, right, bottom = max(left, 0), max(top, 0), min(right, width), min(bottom, height)
    return (left, top, right, bottom) if left < right and top < bottom else None
