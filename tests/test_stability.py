"""The stabiliser: only what held still for the settle time reaches the referee."""

from __future__ import annotations

from senet.vision.reader import Observation
from senet.vision.stability import Clear, SettledBoard, SettledThrow, Stabiliser, Trouble

BOARD = "LDLDLDLDLD" + "." * 20
MOVED = "LDLDLDLDL.D" + "." * 19


def seen(board: str = BOARD, light_up: int | None = None, motion: float = 0.0, status: str = "ok") -> Observation:
    tray = "sticks" if light_up is not None else "empty"
    labels = board if status == "ok" else None
    return Observation(status, board if status == "ok" else None, light_up, tray, (1.0,) * 30, motion,
                       "" if status == "ok" else "a hand covers squares 4", labels)


def feed(stabiliser: Stabiliser, observations: list[Observation], start: float = 0.0) -> list[object]:
    events: list[object] = []
    for index, observation in enumerate(observations):
        events += stabiliser.feed(observation, start + index / 10)
    return events


def test_five_still_frames_at_10_fps_make_half_a_second() -> None:
    assert [type(e) for e in feed(Stabiliser(0.5), [seen()] * 5)] == [Clear, SettledBoard]
    assert [type(e) for e in feed(Stabiliser(0.5), [seen()] * 4)] == [Clear]


def test_motion_and_hands_restart_the_wait_and_show_trouble() -> None:
    stabiliser = Stabiliser(0.5)
    events = feed(stabiliser, [seen()] * 5 + [seen(MOVED, motion=0.3)] * 3 + [seen(status="occluded")] * 2 + [seen(MOVED)] * 5)
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["Clear", "SettledBoard", "Trouble", "Clear", "SettledBoard"]
    assert events[-1] == SettledBoard(MOVED) and isinstance(events[2], Trouble)


def test_a_throw_needs_sticks_lying_still_after_an_empty_tray() -> None:
    stabiliser = Stabiliser(0.5)
    events = feed(stabiliser, [seen()] * 5 + [seen(light_up=3)] * 6 + [seen(light_up=3)] * 6)
    assert [e for e in events if isinstance(e, SettledThrow)] == [SettledThrow(3)]  # once, not again
    events = feed(stabiliser, [seen()] * 2 + [seen(light_up=2)] * 5, start=2.0)
    assert [e for e in events if isinstance(e, SettledThrow)] == [SettledThrow(2)]
