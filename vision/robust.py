"""A quick median of many pixels' values (as :func:`numpy.median` without its overhead),
for the medians the reader takes every frame, and the noise measured with it.

    >>> median(np.array([3.0, 1.0, 2.0, 10.0]))
    2.5
    >>> round(spread_below_zero(np.array([-0.01, -0.02, -0.03])), 4)
    0.0297
"""

from __future__ import annotations

import numpy as np


def median(values: np.ndarray) -> float:
    """The median of a non-empty array's values."""
    flat = values.ravel()
    low, high = (flat.size - 1) // 2, flat.size // 2
    parted = np.partition(flat, (low, high))
    return float(parted[low] + parted[high]) / 2


def spread_below_zero(values: np.ndarray) -> float:
    """The noise of a measure that what is sought only raises, from its non-empty ``values``
    at or below zero: their median distance below it, as a normal's deviation."""
    return 1.4826 * median(-values)
