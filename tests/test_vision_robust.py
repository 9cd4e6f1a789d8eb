"""The reader's quick statistics give numpy's answers, and many small sets at once the same as one by one."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from senet.vision.robust import median, percentile, row_medians, row_percentiles

values = arrays(np.float64, st.integers(1, 400), elements=st.floats(-1e6, 1e6, allow_nan=False))


@given(values, st.floats(0, 100))
def test_a_percentile_is_numpys(sample: np.ndarray, share: float) -> None:
    assert percentile(sample, share) == float(np.percentile(sample, share))


@given(values)
def test_a_median_is_numpys(sample: np.ndarray) -> None:
    assert median(sample) == float(np.median(sample))


#: A few pieces' pixels (float32, as the reader's planes), and which of them are kept.
rows = st.tuples(st.integers(1, 12), st.integers(1, 40)).flatmap(
    lambda shape: st.tuples(arrays(np.float32, shape, elements=st.floats(-10, 10, width=32)), arrays(np.bool_, shape)))


@given(rows, st.floats(0, 100))
def test_rows_of_kept_values_give_each_set_s_percentile_and_median(sets: tuple[np.ndarray, np.ndarray], share: float) -> None:
    values, kept = sets
    percentiles, medians = row_percentiles(values, kept, share), row_medians(values, kept)
    for row, keep, each_percentile, each_median in zip(values, kept, percentiles, medians):
        if keep.any():
            assert (each_percentile, each_median) == (percentile(row[keep], share), median(row[keep]))
        else:
            assert np.isnan(each_percentile) and np.isnan(each_median)
