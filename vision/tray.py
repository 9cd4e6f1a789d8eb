"""Reading the four throwing sticks in the tray.

The tray is warped to a small top-down image (1.5 mm a pixel). Sticks are found by
colour first: the tray is green, wood is not, and a shadow darkens the tray without
changing its colour. Inside those places, brightness against the tray around them tells
pale (flat side up) from dark sides, and separates sticks lying close together. Each
stick-shaped patch counts as one stick (touching ones by their area). Nothing is
reported unless exactly four sticks are seen.

    >>> TrayReading("sticks", 3, 4, "").light_up
    3
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from senet.vision.geometry import MatGeometry

MM_PER_PX = 1.5
STICK_PX = (130.0 / MM_PER_PX, 18.0 / MM_PER_PX)
STICK_AREA = STICK_PX[0] * STICK_PX[1]
#: Summed change of the two log colour ratios that marks a pixel as "not tray".
COLOUR_CHANGE = 0.24
#: Log brightness against the surrounding tray: pale sides are brighter, dark sides darker.
PALE, DARK = float(np.log(1.18)), float(np.log(0.72))
_LOG = np.log(np.arange(256, dtype=np.float32) + 1.0)
_BRIGHTNESS = np.full((1, 3), 1 / 3, np.float32)
_COLOUR = np.array([[1, -1, 0], [0, -1, 1]], np.float32)  # blue and red against green
_SQUARE3 = np.ones((3, 3), np.uint8)


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

    def same_layout(self, other: TrayReading | None) -> bool:
        """Whether the sticks lie where they lay in ``other`` (overlap of their cells)."""
        if other is None or self.layout is None or other.layout is None:
            return False
        both = np.logical_and(self.layout, other.layout).sum()
        either = np.logical_or(self.layout, other.layout).sum()
        return bool(either) and both / either > 0.6


@dataclass
class TrayReader:
    """Warps the tray to a top view and finds the sticks, against the calibrated empty tray."""

    geometry: MatGeometry
    reference: np.ndarray | None = None

    def __post_init__(self) -> None:
        px_per_mat_px = 25.4 / self.geometry.dpi / MM_PER_PX
        quad = self.geometry.tray
        w = int(np.linalg.norm(quad[1] - quad[0]) * px_per_mat_px)
        h = int(np.linalg.norm(quad[3] - quad[0]) * px_per_mat_px)
        self.size = (w, h)
        canonical = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
        self._to_mat = cv2.getPerspectiveTransform(canonical, quad.astype(np.float32))
        self._inner = np.zeros((h, w), np.uint8)
        self._inner[2:-2, 2:-2] = 1  # leave out the printed border line

    def warp(self, frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
        """The tray seen from straight above, smoothed, as log BGR."""
        tray = cv2.warpPerspective(frame, homography @ self._to_mat, self.size, flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP)
        return cv2.LUT(cv2.blur(tray, (3, 3)), _LOG)

    def calibrate(self, frame: np.ndarray, homography: np.ndarray) -> None:
        self.reference = cv2.blur(self.warp(frame, homography), (3, 3))

    def read(self, frame: np.ndarray, homography: np.ndarray) -> TrayReading:
        assert self.reference is not None, "calibrate first"
        change = cv2.subtract(self.warp(frame, homography), self.reference)  # log ratio per channel
        inner = self._inner.astype(bool)
        # 1. Where the tray's colour changed.
        colour = cv2.transform(change, _COLOUR)
        colour -= np.median(colour[inner][::5], axis=0)  # a change of lamp colour moves the whole tray
        moved = cv2.transform(np.abs(cv2.blur(colour, (3, 3))), np.ones((1, 2), np.float32))  # (h, w)
        candidate = cv2.dilate(((moved > COLOUR_CHANGE) & inner).astype(np.uint8), _SQUARE3)
        # 2. Brightness against the tray around it (shadows and lamps vary slowly).
        brightness = cv2.transform(change, _BRIGHTNESS)  # (h, w)
        free = (self._inner & (1 - candidate)).astype(np.float32)
        around = cv2.blur(brightness * free, (27, 27)) / np.maximum(cv2.blur(free, (27, 27)), 1e-3)
        relative = brightness - around
        on = candidate.astype(bool) & inner
        pale_patches = _patches(on & (relative > PALE))
        dark_patches = _patches(on & (relative < DARK))
        singles = [area for area, long, short in pale_patches + dark_patches if 0.75 < long / STICK_PX[0] < 1.35 and short < 1.8 * STICK_PX[1]]
        unit = float(np.median(singles)) if singles else STICK_AREA  # one stick, as big as it looks here
        counts = []
        for group in (pale_patches, dark_patches):
            number = 0
            for area, long, short in group:
                if long < 0.6 * STICK_PX[0]:
                    if area < 1.5 * unit and long < 2 * short:
                        continue  # a round spot (glare, a speck): not a stick
                    if area < 1.5 * unit:
                        return TrayReading("unclear", None, 0, "part of a stick is hard to see")
                    return TrayReading("occluded", None, 0, "something that is not a stick lies in the tray")
                sticks = max(1, round(area / unit))
                if sticks > 4 or area / long > 1.5 * STICK_PX[1] * sticks + 13:
                    return TrayReading("occluded", None, 0, "something that is not a stick lies in the tray")
                if sticks > 1 and abs(area / unit - sticks) > 0.25:
                    return TrayReading("unclear", None, 0, "sticks lie too close together to count")
                number += sticks
            counts.append(number)
        pale, dark = counts
        total = pale + dark
        if total == 0:
            return TrayReading("empty", None, 0, "")
        if total != 4:
            return TrayReading("unclear", None, total, f"{total} sticks seen in the tray, not 4")
        layout = cv2.resize(candidate, (max(1, candidate.shape[1] // 8), max(1, candidate.shape[0] // 8)), interpolation=cv2.INTER_AREA) > 0
        return TrayReading("sticks", pale, 4, "", layout)


def _patches(mask: np.ndarray) -> list[tuple[float, float, float]]:
    """(area, long side, short side) of every patch big enough to be part of a stick."""
    opened = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, _SQUARE3)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    found = []
    for index in range(1, count):
        x, y, w, h, area = stats[index]
        if area >= 0.35 * STICK_AREA:
            points = np.column_stack(np.nonzero(labels[y : y + h, x : x + w] == index)).astype(np.float32)
            (_, _), sides, _ = cv2.minAreaRect(points)
            found.append((float(area), max(sides), min(sides)))
    return found
