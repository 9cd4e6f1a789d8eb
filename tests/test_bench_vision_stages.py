"""bench/vision_stages.py: the stages it times add up to the frames it reads; and the timing
benches' command line (bench/vision.py's ``arguments``)."""

from __future__ import annotations

import pytest
from bench_helpers import load_bench


def test_every_stage_takes_part_of_each_frame_and_the_rest_is_what_they_leave() -> None:
    start, pictures, *_ = load_bench("vision").frames((640, 480), 2)
    medians = load_bench("vision_stages").stage_times(start, pictures, runs=1)
    assert list(medians) == ["read", "pieces", "tray", "board_warp", "rest"]
    assert all(medians[stage] > 0 for stage in ("pieces", "tray", "board_warp"))
    assert 0 <= medians["rest"] < medians["read"]
    assert abs(medians["pieces"] + medians["tray"] + medians["board_warp"] + medians["rest"] - medians["read"]) < 1e-9


@pytest.mark.parametrize("given", [["--frames", "0"], ["--runs", "-2"], ["--frames", "many"], ["--runs", "1.5"]])
def test_the_timing_benches_refuse_a_count_of_runs_or_frames_that_is_no_whole_number_above_0(given: list[str],
                                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        load_bench("vision").arguments("bench", given)
    assert exit_.value.code == 2 and "is not a whole number above 0" in capsys.readouterr().err


def test_the_timing_benches_take_the_runs_and_frames_given() -> None:
    args = load_bench("vision").arguments("bench", ["--runs", "3", "--frames", "7"])
    assert (args.runs, args.frames) == (3, 7)
