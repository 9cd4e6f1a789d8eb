"""The companion's LEDs, buzzer and buttons, through gpiozero.

Default wiring (BCM numbers; change them in the configuration):

    green 17   red 27   amber 22   dark's turn 5   light's turn 6
    sticks 12 16 20 21 (lit = light side up)   buzzer none
    throw button 23   undo/confirm button 24 (hold 1.5 s to undo)

Each LED goes from its GPIO pin through a 330 ohm resistor to the LED's long leg, the
short leg to ground; each button from its pin to ground (internal pull-up).

    >>> from gpiozero.pins.mock import MockFactory
    >>> lights = Lights(Wiring(), pin_factory=MockFactory())
    >>> lights.show(green=True, red=False, amber=False, turn="dark")
    >>> lights.state()
    {'green': True, 'red': False, 'amber': False, 'turn': 'dark', 'sticks': None}
    >>> lights.close()
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpiozero import LED, Button, Buzzer, Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory


@dataclass(frozen=True)
class Wiring:
    green: int = 17
    red: int = 27
    amber: int = 22
    dark_turn: int = 5
    light_turn: int = 6
    sticks: tuple[int, int, int, int] = (12, 16, 20, 21)
    buzzer: int | None = None
    throw_button: int = 23
    undo_button: int = 24


class Lights:
    """Green (accepted / ready), red (illegal, until corrected), amber blinking (cannot see
    the board), one LED per player for whose turn, four stick LEDs, optional buzzer."""

    def __init__(self, wiring: Wiring, pin_factory: Any = None) -> None:
        def led(pin: int) -> LED:
            return LED(pin, pin_factory=pin_factory)

        self.green, self.red, self.amber = led(wiring.green), led(wiring.red), led(wiring.amber)
        self.dark_turn, self.light_turn = led(wiring.dark_turn), led(wiring.light_turn)
        self.sticks = [led(pin) for pin in wiring.sticks]
        self.buzzer = Buzzer(wiring.buzzer, pin_factory=pin_factory) if wiring.buzzer is not None else None
        self.pin_factory = pin_factory
        self._amber_on = False
        self._shown_sticks: tuple[bool, ...] | None = None

    def show(self, green: bool, red: bool, amber: bool, turn: str | None) -> None:
        self.green.value, self.red.value = green, red
        if amber and not self._amber_on:
            self.amber.blink(on_time=0.4, off_time=0.4)
        elif not amber and self._amber_on:
            self.amber.off()
        self._amber_on = amber
        self.dark_turn.value, self.light_turn.value = turn == "dark", turn == "light"

    def show_sticks(self, sticks: tuple[bool, ...] | None) -> None:
        """The electronic throw: a lit LED is a stick with its light side up."""
        self._shown_sticks = sticks
        for led, up in zip(self.sticks, sticks or (False,) * 4):
            led.value = up

    def show_number(self, number: int) -> None:
        """PHARAO's dice: the first ``number`` stick LEDs lit, the steps of the part due (the own
        die, then the opponent die).

            >>> from gpiozero.pins.mock import MockFactory
            >>> lights = Lights(Wiring(), pin_factory=MockFactory())
            >>> lights.show_number(3)
            >>> lights.state()["sticks"]
            [True, True, True, False]
            >>> lights.close()
        """
        self.show_sticks(tuple(index < number for index in range(len(self.sticks))))

    def beep(self) -> None:
        if self.buzzer is not None:
            self.buzzer.beep(on_time=0.15, off_time=0.1, n=2)

    def state(self) -> dict[str, object]:
        """What the LEDs show, for the event stream and the page."""
        turn = "dark" if self.dark_turn.is_lit else "light" if self.light_turn.is_lit else None
        return {"green": self.green.is_lit, "red": self.red.is_lit, "amber": self._amber_on, "turn": turn,
                "sticks": list(self._shown_sticks) if self._shown_sticks is not None else None}

    def close(self) -> None:
        for device in [self.green, self.red, self.amber, self.dark_turn, self.light_turn, *self.sticks]:
            device.close()
        if self.buzzer is not None:
            self.buzzer.close()


class Buttons:
    """The throw button and the undo/confirm button (a press confirms a pass, holding undoes)."""

    def __init__(self, wiring: Wiring, on_throw: Callable[[], None], on_confirm: Callable[[], None],
                 on_undo: Callable[[], None], pin_factory: Any = None) -> None:
        self.throw = Button(wiring.throw_button, pin_factory=pin_factory, bounce_time=0.05)
        self.undo = Button(wiring.undo_button, pin_factory=pin_factory, bounce_time=0.05, hold_time=1.5)
        self.throw.when_pressed = lambda: on_throw()
        self._held = False
        self.undo.when_held = self._hold(on_undo)
        self.undo.when_released = self._release(on_confirm)

    def _hold(self, on_undo: Callable[[], None]) -> Callable[[], None]:
        def held() -> None:
            self._held = True
            on_undo()
        return held

    def _release(self, on_confirm: Callable[[], None]) -> Callable[[], None]:
        def released() -> None:
            if not self._held:
                on_confirm()
            self._held = False
        return released

    def close(self) -> None:
        self.throw.close()
        self.undo.close()


def pin_factory() -> Any:
    """The Pi's own pins when there are any, else mock pins (simulation, a machine without GPIO)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gpiozero warns about every factory it cannot load
        try:
            return Device.ensure_pin_factory()
        except BadPinFactory:
            return MockFactory()
