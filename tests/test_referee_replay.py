"""A recorded game replays with exactly the right events: throws, moves, an illegal move and
its correction, hands over the board, a piece in the hand, half a swap."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rules_helpers import board

from senet.device.replay import replay
from senet.vision.recording import record_session, start_picture
from senet.vision.simulator import Scene
from senet.vision.sources import START_BOARD

UP = {k: tuple(i < k for i in range(4)) for k in range(5)}  # k light sides up


def kendall_session() -> list[tuple[Scene, float]]:
    light = (1, 3, 5, 7, 9)
    after_10_11 = board(dark=(2, 4, 6, 8, 11), light=light)
    wrong_11_13 = board(dark=(2, 4, 6, 8, 13), light=light)
    after_11_14 = board(dark=(2, 4, 6, 8, 14), light=light)
    after_9_11 = board(dark=(2, 4, 6, 8, 14), light=(1, 3, 5, 7, 11))
    half_swap = board(dark=(2, 4, 6, 11, 14), light=(1, 3, 5, 7))
    after_swap = board(dark=(2, 4, 6, 11, 14), light=(1, 3, 5, 7, 8))
    return [
        (Scene(START_BOARD), 1.0),
        (Scene(START_BOARD, UP[2]), 1.0),  # seat 1 throws a 2: no start yet
        (Scene(START_BOARD), 0.6),
        (Scene(START_BOARD, UP[1]), 1.0),  # seat 2 throws the first 1: dark, and must play 10-11
        (Scene(START_BOARD, UP[1], hand="board"), 0.5),
        (Scene(board(dark=(2, 4, 6, 8), light=light), UP[1]), 1.0),  # the piece is in the hand: waiting
        (Scene(after_10_11, UP[1]), 1.0),  # 10-11 accepted; a 1 throws again
        (Scene(after_10_11), 0.6),
        (Scene(after_10_11, UP[3]), 1.0),  # dark throws 3
        (Scene(wrong_11_13, UP[3]), 1.0),  # 11-13 is two squares: illegal (K.exact), red
        (Scene(after_10_11, UP[3]), 1.0),  # put back: red goes off
        (Scene(after_11_14, UP[3]), 1.0),  # 11-14 accepted, light's turn
        (Scene(after_11_14), 0.6),
        (Scene(after_11_14, UP[2]), 1.0),  # light throws 2: must use the piece on 9
        (Scene(after_9_11, UP[2], hand="board"), 0.5),
        (Scene(after_9_11, UP[2]), 1.0),  # 9-11 accepted
        (Scene(after_9_11), 0.6),
        (Scene(after_9_11, UP[3]), 1.0),  # dark throws 3: 8 can take the lone piece on 11
        (Scene(half_swap, UP[3]), 1.0),  # half a swap: light's piece still in the hand
        (Scene(after_swap, UP[3], hand="tray"), 0.5),
        (Scene(after_swap, UP[3]), 1.0),  # the swap is complete: 8-11 accepted
    ]


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("game")
    start = start_picture(folder / "start.png")
    record_session(folder / "frames", kendall_session(), fps=10)
    return start, folder / "frames"


def test_a_recorded_game_gives_exactly_the_right_events(recording: tuple[Path, Path]) -> None:
    start, frames = recording
    events = list(replay("kendall", start, frames, fps=10))
    summary = [(e["event"], e.get("light_up"), e.get("from"), e.get("to"), tuple(e.get("rules", ()))) for e in events]
    assert summary == [
        ("throw", 2, None, None, ()),
        ("throw", 1, None, None, ()),
        ("move", None, 10, 11, ()),
        ("throw", 3, None, None, ()),
        ("illegal", None, 11, 13, ("K.exact",)),
        ("move", None, 11, 14, ()),
        ("throw", 2, None, None, ()),
        ("move", None, 9, 11, ()),
        ("throw", 3, None, None, ()),
        ("move", None, 8, 11, ()),
    ]
    illegal = events[4]
    assert illegal["leds"] == {"green": False, "red": True, "amber": False, "turn": "dark"}
    assert events[5]["leds"] == {"green": True, "red": False, "amber": False, "turn": "light"}
    assert [e["frame"] for e in events] == sorted(e["frame"] for e in events)


def test_the_same_frames_always_give_the_same_events(recording: tuple[Path, Path]) -> None:
    start, frames = recording
    first = subprocess.run([sys.executable, "-m", "senet.device.cli", "referee", "replay", "--variant", "kendall",
                            "--calibrate", str(start), str(frames), "--json"], capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    lines = [json.loads(line) for line in first.stdout.splitlines()]
    assert lines == list(replay("kendall", start, frames, fps=10))


def test_sticks_thrown_again_under_a_hand_count_as_a_new_throw(tmp_path: Path) -> None:
    """No empty tray is seen between two throws: a hand picks the sticks up and throws again."""
    after = board(dark=(2, 4, 6, 8, 12), light=(1, 3, 5, 7, 9))
    steps = [
        (Scene(START_BOARD), 1.0),
        (Scene(START_BOARD, UP[1]), 1.0),  # netherworld: the first 1 decides, dark starts
        (Scene(START_BOARD, UP[1], hand="tray"), 0.5),
        (Scene(START_BOARD, UP[2]), 1.0),  # thrown again: a 2
        (Scene(START_BOARD, UP[2], hand="tray"), 0.5),  # a hand passes over the same sticks
        (Scene(START_BOARD, UP[2]), 1.0),
        (Scene(after, UP[2]), 1.0),
    ]
    start = start_picture(tmp_path / "start.png")
    record_session(tmp_path / "frames", steps, fps=10, seed=5)
    events = [(e["event"], e.get("light_up"), e.get("from"), e.get("to")) for e in replay("netherworld", start, tmp_path / "frames")]
    assert events == [("throw", 1, None, None), ("throw", 2, None, None), ("move", None, 10, 12)]
