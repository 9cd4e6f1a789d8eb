"""bench/vision_accuracy.py's arguments: a bad one is refused, saying what is wanted."""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from pathlib import Path

import pytest
from bench_helpers import load_bench
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]


BENCH = load_bench("vision_accuracy")


@given(st.one_of(st.text(max_size=20), st.floats().map(repr), st.integers(-10, 10).map(str)))
def test_any_exposure_text_is_a_positive_finite_number_or_refused(text: str) -> None:
    try:
        value = BENCH.exposure(text)
    except argparse.ArgumentTypeError as error:
        assert "is not a positive number" in str(error)
    else:
        assert 0 < value < math.inf and value == float(text)


@pytest.mark.parametrize("text", ["0", "-1", "nan", "inf", "bright"])
def test_the_bench_refuses_a_bad_exposure_before_reading_anything(text: str) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "vision_accuracy.py"), "--exposure", text],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "is not a positive number, e.g. 1.15" in run.stderr and not run.stdout
