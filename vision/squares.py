"""Telling empty squares from light and dark pieces, learnt from the start position.

Every square is judged against its own surroundings: the four plain corners of the
square show how the light falls on it now, compared with the start image; the centre is
then compared with what an empty centre would look like under that light. The
difference (a log colour ratio, so warm light and shadows cancel) is classified against
the three kinds seen in the start position: dark on 2..10, light on 1..9, empty 11..30.

    >>> import numpy as np
    >>> log_ratio(np.array([[200.0, 100.0, 50.0]]), np.array([[100.0, 100.0, 100.0]])).round(2)
    array([[ 0.69,  0.  , -0.69]], dtype=float32)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

START_DARK = (2, 4, 6, 8, 10)
START_LIGHT = (1, 3, 5, 7, 9)
LABELS = ".DL"
#: Floors on the spread of each kind, in log-ratio units, so five samples cannot make a
#: model too sure of itself.
MIN_SPREAD = np.array([0.07, 0.14, 0.14], np.float32)
#: A square further than this (in spreads) from every kind is unclear.
MAX_DISTANCE = 7.0
#: Corners of one square whose light changed this differently (log units) since the start.
UNEVEN_LIGHT = 0.55
#: A corner that changed this much (log units) is covered by something.
CHROMA_CHANGE = 0.28
DARKER, BRIGHTER = -1.0, 0.75
SATURATED = 248
#: A centre with this share of burnt-out white samples is glare, unless the light pieces burn out too.
GLARE_SHARE = 0.3


def log_ratio(current: np.ndarray, reference: np.ndarray) -> np.ndarray:
    return (np.log(np.maximum(current, 1.0)) - np.log(np.maximum(reference, 1.0))).astype(np.float32)


def changed(current: np.ndarray, reference: np.ndarray, chroma_change: float = CHROMA_CHANGE) -> np.ndarray:
    """Which samples changed colour or brightness too much to be the same paper (..., 3) -> (...)."""
    difference = log_ratio(current, reference)
    brightness = difference.mean(axis=-1)
    chroma = np.abs(difference - brightness[..., None]).max(axis=-1)
    return (chroma > chroma_change) | (brightness < DARKER) | (brightness > BRIGHTER)


@dataclass(frozen=True)
class SquareReadings:
    """Per square: label ('.', 'D', 'L' or '?' when unclear), confidence, covered corners."""

    labels: str
    confidence: np.ndarray  # (30,)
    covered: np.ndarray  # (30,) bool: a hand or arm lies over the square


@dataclass(frozen=True)
class SquareModel:
    """What the start position taught: corner colours, empty centres, the three kinds."""

    corners: np.ndarray  # (30, 4, 3) BGR of each corner cluster
    empty_centres: np.ndarray  # (30, 3) an empty centre under the start light
    means: np.ndarray  # (3, 3) per kind ('.', 'D', 'L'), log-ratio features
    spreads: np.ndarray  # (3, 3)
    #: The light pieces themselves burn out to white under this light, so white is no sign of glare.
    light_burns_out: bool

    @classmethod
    def calibrate(cls, centres: np.ndarray, corners: np.ndarray) -> SquareModel:
        """Learn from the start position: ``centres`` (30, 21, 3) and ``corners`` (30, 4, 4, 3)."""
        corner_colour = corners.mean(axis=2)
        centre_colour, burnt = _centre_colour(centres)
        empty = np.arange(10, 30)
        # An empty centre looks like its corners times the field's centre/corner ratio.
        ratio = np.median(centre_colour[empty] / np.maximum(corner_colour[empty].mean(axis=1), 1.0), axis=0)
        empty_centres = centre_colour.copy()
        empty_centres[:10] = corner_colour[:10].mean(axis=1) * ratio
        features = log_ratio(centre_colour, empty_centres)
        kinds = [empty, np.array(START_DARK) - 1, np.array(START_LIGHT) - 1]
        means = np.stack([np.median(features[k], axis=0) for k in kinds])
        # A robust spread (median absolute deviation), so one odd piece (glare) cannot widen a kind.
        spreads = np.stack(
            [np.maximum(1.4826 * np.median(np.abs(features[k] - means[i]), axis=0), MIN_SPREAD[i]) for i, k in enumerate(kinds)]
        )
        for kind, name in ((1, "dark"), (2, "light")):
            if np.abs((means[kind] - means[0]) / spreads[kind]).max() < 3:
                raise CalibrationError(f"the {name} pieces on the start squares look like empty squares")
        light_burns_out = bool(np.median(burnt[np.array(START_LIGHT) - 1]) > GLARE_SHARE)
        return cls(corner_colour, empty_centres, means, spreads, light_burns_out)

    def classify(self, centres: np.ndarray, corners: np.ndarray) -> SquareReadings:
        """Judge every square of a frame (same shapes as for calibration)."""
        corner_colour = corners.mean(axis=2)  # (30, 4, 3)
        global_gain = np.median((corner_colour / np.maximum(self.corners, 1.0)).reshape(-1, 3), axis=0)
        moved = changed(corner_colour, self.corners * global_gain)  # (30, 4)
        covered = moved.sum(axis=1) >= 2
        gains = corner_colour / np.maximum(self.corners, 1.0)
        weights = (~moved).astype(np.float32)[..., None]
        local_gain = (gains * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
        local_gain[covered] = global_gain
        # Light that changed unevenly across one square since the start picture (a glint, the
        # edge of a shadow) can make an empty square look like a piece: do not trust it.
        # Corners covered by a large piece say nothing about the light: leave them out.
        brightness_gain = np.log(np.maximum(gains.mean(axis=2), 1e-3))  # (30, 4)
        highest = np.where(moved, -np.inf, brightness_gain).max(axis=1)
        lowest = np.where(moved, np.inf, brightness_gain).min(axis=1)
        uneven = highest - lowest > UNEVEN_LIGHT
        centre_colour, burnt = _centre_colour(centres)
        glare = (burnt > GLARE_SHARE) & (not self.light_burns_out)
        features = log_ratio(centre_colour, self.empty_centres * local_gain)
        distance = np.sqrt((((features[:, None, :] - self.means[None]) / self.spreads[None]) ** 2).sum(axis=2))  # (30, 3)
        best = distance.argmin(axis=1)
        likelihood = np.exp(-0.5 * (distance - distance.min(axis=1, keepdims=True)) ** 2)
        confidence = likelihood.max(axis=1) / likelihood.sum(axis=1)
        unclear = (distance.min(axis=1) > MAX_DISTANCE) | glare | covered | uneven
        labels = "".join("?" if unclear[i] else LABELS[best[i]] for i in range(30))
        return SquareReadings(labels, np.where(unclear, 0.0, confidence), covered)


class CalibrationError(ValueError):
    """The start image does not show the start position clearly enough to learn from."""


def _centre_colour(centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean centre colour per square, and the share of its samples burnt out to white."""
    return centres.mean(axis=1), (centres.min(axis=2) >= SATURATED).mean(axis=1)
