"""The reader's quick statistics give numpy's answers."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from senet.vision.robust import median, percentile

values = arrays(np.float64, st.integers(1, 400), elements=st.floats(-1e6, 1e6, allow_nan=False))


@given(values, st.floats(0, 100))
def test_a_percentile_is_numpys(sample: np.ndarray, share: float) -> None:
    assert percentile(sample, share) == float(np.percentile(sample, share))


@given(values)
def test_a_median_is_numpys(sample: np.ndarray) -> None:
    assert median(sample) == float(np.median(sample))
