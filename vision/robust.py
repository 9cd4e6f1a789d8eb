"""A quick median and percentile of many pixels' values (as :func:`numpy.median` and
:func:`numpy.percentile` without their overhead), for those the reader takes every frame,
and the noise measured with them; and each pixel's median over the pixels around it.

    >>> median(np.array([3.0, 1.0, 2.0, 10.0])), percentile(np.array([5.0, 1.0, 4.0, 2.0, 8.0, 3.0]), 25)
    (2.5, 2.25)
    >>> round(spread_below_zero(np.array([-0.01, -0.02, -0.03])), 4)
    0.0297

Many small sets at once (a few pieces' pixels, say), each a row's values that a mask keeps,
give the same numbers as one by one:

    >>> values, kept = np.array([[5.0, 1.0, 4.0, 2.0], [3.0, 9.0, 0.0, 7.0]]), np.array([[1, 1, 1, 1], [1, 1, 0, 0]], bool)
    >>> row_percentiles(values, kept, 25).tolist(), row_medians(values, kept).tolist()
    ([1.75, 4.5], [3.0, 6.0])
"""

from __future__ import annotations

import cv2
import numpy as np


def median(values: np.ndarray) -> float:
    """The median of a non-empty array's values."""
    flat = values.ravel()
    low, high = (flat.size - 1) // 2, flat.size // 2
    parted = np.partition(flat, (low, high))
    return float(parted[low] + parted[high]) / 2


def percentile(values: np.ndarray, share: float) -> float:
    """The ``share`` th percentile (0-100) of a non-empty array's values, between the two
    nearest as :func:`numpy.percentile` takes it by default."""
    flat = values.ravel()
    place = share / 100 * (flat.size - 1)
    low = int(place)
    high = min(low + 1, flat.size - 1)
    below, above = np.partition(flat, (low, high))[[low, high]].tolist()  # plain floats: quicker
    step, apart = place - low, above - below
    return above - apart * (1 - step) if step >= 0.5 else below + apart * step  # rounded as numpy does


def row_percentiles(values: np.ndarray, kept: np.ndarray, share: float) -> np.ndarray:
    """Per row of ``values`` (2-D), :func:`percentile` of the values ``kept`` (a bool mask of
    the same shape) marks there; NaN where it marks none."""
    ordered, counts = _kept_in_order(values, kept)
    place = share / 100 * np.maximum(counts - 1, 0)
    low = place.astype(np.intp)
    high = np.minimum(low + 1, np.maximum(counts - 1, 0))
    rows = np.arange(len(ordered))
    below, above = ordered[rows, low].astype(np.float64), ordered[rows, high].astype(np.float64)
    step = place - low
    with np.errstate(invalid="ignore"):  # inf - inf in the rows that keep nothing: NaN, as they get
        apart = above - below
        return np.where(counts > 0, np.where(step >= 0.5, above - apart * (1 - step), below + apart * step), np.nan)


def row_medians(values: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """Per row of ``values`` (2-D), :func:`median` of the values ``kept`` marks there; NaN where it marks none."""
    ordered, counts = _kept_in_order(values, kept)
    rows, last = np.arange(len(ordered)), np.maximum(counts - 1, 0)
    middle = (ordered[rows, last // 2] + ordered[rows, (last + 1) // 2]).astype(np.float64) / 2  # summed as median() sums
    return np.where(counts > 0, middle, np.nan)


def _kept_in_order(values: np.ndarray, kept: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row of ``values`` sorted, the values ``kept`` leaves out last; and how many it keeps per row."""
    return np.sort(np.where(kept, values, np.inf).astype(values.dtype, copy=False), axis=1), kept.sum(axis=1)


def spread_below_zero(values: np.ndarray) -> float:
    """The noise of a measure that what is sought only raises, from its non-empty ``values``
    at or below zero: their median distance below it, as a normal's deviation."""
    return 1.4826 * median(-values)


def median_around(values: np.ndarray, size: int, middle: float | None = None) -> np.ndarray:
    """Each pixel's median over ``size`` (odd) pixels each way of an image of log values, to
    0.01 and within 1.27 of ``middle`` (by default the image's median): coded so in 8 bits,
    where OpenCV's median filter is quick at any size.

        >>> values = np.zeros((40, 40), np.float32)
        >>> values[18:21, :] = 1.0  # a thin line
        >>> float(median_around(values, 31)[19, 19])
        0.0
    """
    middle = float(np.median(values)) if middle is None else middle
    code = np.clip((values - middle) * 100 + 128, 0, 255).astype(np.uint8)
    return (cv2.medianBlur(code, size).astype(np.float32) - 128) / 100 + middle
