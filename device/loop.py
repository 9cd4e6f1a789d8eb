"""The companion loop: a frame from the camera, through the companion, every 1/fps seconds,
game after game, until it is told to stop.

It never ends by itself: a game that ends waits for the next (the players set up again, or
the operator starts one); a camera that fails shows amber until it is back; an error in
one round is reported (amber, with the reason, and on the console) and the next round
starts afresh. Only ``stop``, the demos' ``turns`` or a recording that ran out end it.
Every round it finishes feeds systemd's watchdog: a loop that hangs stops feeding it.

    >>> from senet.device.config import Config
    >>> from senet.device.service import build_runtime
    >>> runtime = build_runtime(Config(variant="netherworld", camera="simulator"), seed=1, autoplay=False, say=print)
    >>> loop = CompanionLoop(runtime)
    >>> loop.round()
    >>> runtime.companion.trouble
    ''
    >>> runtime.close()
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

from senet.device.notify import Notifier
from senet.device.runtime import Runtime

#: After an error in a round, the loop waits this long before the next (seconds).
PAUSE_AFTER_ERROR = 1.0


@dataclass
class CompanionLoop:
    runtime: Runtime
    say: Callable[[str], None] = lambda line: None
    #: Moves seen since the loop started (the demos stop after ``turns``).
    moves: int = 0
    #: Errors the loop survived.
    errors: int = 0
    #: systemd's watchdog, fed after every round (nothing without systemd).
    notifier: Notifier = field(default_factory=Notifier)
    _started: float = field(default_factory=time.monotonic)
    _trouble: str = ""

    def run(self, turns: int | None = None) -> None:
        """Read frames until ``stop`` is set, ``turns`` moves were made, or a recording ran out."""
        runtime = self.runtime
        while not runtime.stop.is_set() and (turns is None or self.moves < turns) and not runtime.camera.ended:
            began = time.monotonic()
            try:
                self.round()
            except Exception as error:  # the loop goes on: a museum's companion must not fall silent
                self.errors += 1
                self.say(f"the companion loop hit an error and goes on: {error!r}\n{traceback.format_exc()}")
                with runtime.lock:
                    runtime.companion.trouble = f"an internal error ({type(error).__name__}); the companion goes on"
                    runtime.companion.trouble_kind = "error"
                    runtime.bus.publish(runtime.state())
                runtime.stop.wait(PAUSE_AFTER_ERROR)
            self.notifier.alive(time.monotonic())
            runtime.stop.wait(max(0.0, 1 / runtime.config.fps - (time.monotonic() - began)))
        if runtime.camera.ended:
            self.say(f"senet run: {runtime.camera.status}")

    def round(self) -> None:
        """One frame: read it, let the companion judge it, keep the page up to date."""
        runtime = self.runtime
        frame = runtime.camera.read()
        with runtime.lock:
            if runtime.stop.is_set():  # closed while the frame was read: its lights and store are gone
                return
            companion = runtime.companion
            if frame is not None and companion.trouble_kind in ("no-picture", "error"):
                companion.trouble, companion.trouble_kind = "", ""  # the camera is back
            verdicts = companion.step(frame, time.monotonic() - self._started, runtime.camera.status)
            self.moves += sum(v.event == "move" for v in verdicts)
            runtime.reset_if_idle(time.monotonic())
            if companion.trouble != self._trouble:  # the amber light changed without a verdict
                self._trouble = companion.trouble
                if companion.trouble_kind == "calibrating":  # on the console (the journal) too: what to set up
                    self.say(f"amber: {companion.trouble}")
                runtime.bus.publish(runtime.state())
            if runtime.players is not None and not verdicts and companion.reader.calibrated and companion.stabiliser_idle():
                runtime.players.act()
