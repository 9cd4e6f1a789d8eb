"""LEDs, buttons and electronic sticks on gpiozero's mock pins: the pin states a visitor sees."""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from senet.device.companion import Companion
from senet.device.lights import Buttons, Lights, Wiring
from senet.engine.referee import Referee
from senet.engine.throws import SeededSticks
from senet.vision.geometry import known_mats
from senet.vision.reader import BoardReader


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    mock = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = mock
    yield mock
    mock.reset()
    Device.pin_factory = None


def pin(factory: MockFactory, number: int) -> bool:
    return bool(factory.pin(number).state)


def test_lights_drive_their_pins(factory: MockFactory) -> None:
    wiring = Wiring(buzzer=26)
    lights = Lights(wiring, pin_factory=factory)
    lights.show(green=False, red=True, amber=False, turn="light")
    assert [pin(factory, n) for n in (17, 27, 5, 6)] == [False, True, False, True]
    lights.show(green=True, red=False, amber=True, turn="dark")
    assert [pin(factory, n) for n in (17, 27, 5, 6)] == [True, False, True, False]
    seen = set()
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and len(seen) < 2:
        seen.add(pin(factory, 22))
        time.sleep(0.05)
    assert seen == {True, False}  # amber blinks
    lights.beep()
    lights.close()


def test_electronic_sticks_light_the_stick_leds_and_reach_the_referee(factory: MockFactory) -> None:
    lights = Lights(Wiring(), pin_factory=factory)
    companion = Companion(Referee("houses"), BoardReader(known_mats()[0]), lights, sticks=SeededSticks(3))
    expected = SeededSticks(3).throw()
    verdicts = companion.electronic_throw()
    assert [pin(factory, n) for n in (12, 16, 20, 21)] == list(expected.light_sides)
    assert verdicts[0].event == "throw" and verdicts[0].light_up == expected.light_up
    assert lights.state()["sticks"] == list(expected.light_sides)
    lights.close()


def test_buttons_throw_confirm_and_undo(factory: MockFactory) -> None:
    calls: list[str] = []
    buttons = Buttons(Wiring(), lambda: calls.append("throw"), lambda: calls.append("confirm"),
                      lambda: calls.append("undo"), pin_factory=factory)
    buttons.undo.hold_time = 0.2
    factory.pin(23).drive_low()
    factory.pin(23).drive_high()
    factory.pin(24).drive_low()
    factory.pin(24).drive_high()
    factory.pin(24).drive_low()
    time.sleep(0.6)
    factory.pin(24).drive_high()
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and len(calls) < 3:
        time.sleep(0.02)
    assert calls == ["throw", "confirm", "undo"]
    buttons.close()


def test_a_lost_camera_blinks_amber(factory: MockFactory) -> None:
    lights = Lights(Wiring(), pin_factory=factory)
    companion = Companion(Referee("kendall"), BoardReader(known_mats()[0]), lights)
    companion.step(None, 0.0)
    assert lights.state()["amber"] is True and lights.state()["green"] is False
    lights.close()


@pytest.mark.parametrize("paper", ["a3", "a4"])
def test_the_companion_learns_the_board_on_whichever_printed_mat_the_camera_shows(factory: MockFactory, paper: str) -> None:
    from senet.vision.mat import MatLayout
    from senet.vision.simulator import Conditions, Scene, Simulator
    from senet.vision.sources import START_BOARD

    mats = tuple(known_mats())
    simulator, rng = Simulator(MatLayout.for_paper(paper)), np.random.default_rng(2)
    lights = Lights(Wiring(), pin_factory=factory)
    companion = Companion(Referee("kendall"), BoardReader(mats[0]), lights, mats=mats)
    companion.step(simulator.render(Scene(START_BOARD), Conditions.plain(), rng), 0.0)
    assert companion.reader.calibrated and companion.trouble == ""
    shown = MatLayout.for_paper(paper).markers
    assert set(companion.reader.geometry.markers) == {marker.id for marker in shown}
    seen = companion.reader.read(simulator.render(Scene(START_BOARD, (True, False, False, False)), Conditions.plain(), rng))
    assert (seen.status, seen.board, seen.light_up) == ("ok", START_BOARD, 1)
    lights.close()


@pytest.mark.parametrize(("picture", "reason"), [
    (np.zeros((480, 640), np.uint8), "not an 8-bit colour image"),
    (np.full((480, 640, 3), 128, np.uint8), "markers are visible"),  # a camera that shows no mat
])
def test_a_picture_without_a_mat_leaves_the_companion_waiting_to_calibrate(factory: MockFactory, picture: np.ndarray, reason: str) -> None:
    lights = Lights(Wiring(), pin_factory=factory)
    mats = tuple(known_mats())
    companion = Companion(Referee("kendall"), BoardReader(mats[0]), lights, mats=mats)
    companion.step(picture, 0.0)
    assert not companion.reader.calibrated and reason in companion.trouble and companion.reader.geometry is mats[0]
    assert lights.state()["amber"] is True
    lights.close()


def test_companion_ignores_a_blank_frame_without_crashing(factory: MockFactory) -> None:
    from senet.vision.mat import MatLayout
    from senet.vision.simulator import Conditions, Scene, Simulator
    from senet.vision.sources import START_BOARD

    reader = BoardReader(known_mats()[0])
    reader.calibrate(Simulator(MatLayout.for_paper("a3")).render(Scene(START_BOARD), Conditions.plain(), np.random.default_rng(0)))
    reader.locator.location = None
    lights = Lights(Wiring(), pin_factory=factory)
    companion = Companion(Referee("kendall"), reader, lights)
    assert companion.step(np.zeros((480, 640, 3), np.uint8), 0.0) == []
    assert lights.state()["amber"] is True
    lights.close()


def test_a_board_the_referee_accepts_from_the_camera_teaches_the_reader(factory: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    from senet.vision.stability import SettledBoard

    learnt: list[str] = []
    reader = BoardReader(known_mats()[0])
    monkeypatch.setattr(BoardReader, "calibrated", True)  # as if it had learnt the board already
    monkeypatch.setattr(reader, "read", lambda frame: None)
    monkeypatch.setattr(reader, "learn", learnt.append)
    lights = Lights(Wiring(), pin_factory=factory)
    companion = Companion(Referee("kendall"), reader, lights)
    settled = iter([[SettledBoard("?" + "DLDLDLDLD" + "." * 20)], [SettledBoard("." * 29 + "L")]])
    monkeypatch.setattr(companion.stabiliser, "feed", lambda seen, now: next(settled))
    companion.step(np.zeros((480, 640, 3), np.uint8), 0.0)
    companion.step(np.zeros((480, 640, 3), np.uint8), 1.0)
    assert learnt == ["LDLDLDLDLD" + "." * 20]  # the start position, its '?' filled in; not the odd board
    lights.close()
