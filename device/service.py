"""``senet run``: the companion itself, on a Pi or in simulation (the composition root).

In simulation (no Pi camera or pins) the simulated camera films a virtual table and mock
pins stand in for the LEDs; a person throws the electronic sticks and moves the virtual
pieces on the page (or, with ``--autoplay``, two simulated players do), so the whole chain
runs for real: render -> vision -> referee -> LEDs -> page. This module only wires the
parts: the camera (:mod:`senet.device.camera`), the virtual table
(:mod:`senet.device.simulation`), the loop (:mod:`senet.device.loop`), the page's actions
(:mod:`senet.device.runtime`) and the server (:mod:`senet.web.server`).
"""

from __future__ import annotations

import random
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpiozero import Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory

from senet.device.camera import CameraFeed
from senet.device.companion import Companion
from senet.device.config import Config, ConfigError, load_settings
from senet.device.lights import Buttons, Lights
from senet.device.loop import CompanionLoop
from senet.device.runtime import Runtime
from senet.device.simulation import SimulatedPlayers, VirtualTable
from senet.device.store import MatchStore
from senet.engine.referee import Referee, Verdict
from senet.engine.throws import SeededSticks
from senet.vision.geometry import known_mats
from senet.vision.reader import BoardReader, CalibrationError, NoBoardError
from senet.vision.sources import CameraError, FrameSource, SimulatedSource, open_source
from senet.vision.stability import Stabiliser
from senet.web.app import create_app
from senet.web.server import make_server

#: How long ``senet run`` waits for a picture it can calibrate on before it gives up (seconds).
CALIBRATION_SECONDS = 60.0


def pin_factory() -> Any:
    """The Pi's own pins when there are any, else mock pins (simulation)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gpiozero warns about every factory it cannot load
        try:
            return Device.ensure_pin_factory()
        except BadPinFactory:
            return MockFactory()


def camera_opener(camera: str, seed: int | None) -> tuple[Callable[[], FrameSource], SimulatedSource | None]:
    """How to (re)open the named camera, and the simulated camera when it is one; ``auto`` is
    the Pi camera when there is one, else the simulator. CameraError when it cannot open."""
    if camera == "auto":
        try:
            open_source("picamera2").close()
            camera = "picamera2"
        except CameraError:
            camera = "simulator"
    if camera == "simulator":
        simulated = SimulatedSource(seed=seed or 0)
        return (lambda: simulated), simulated
    open_source(camera).close()  # a camera that is not there is said at once, not retried for ever
    return (lambda: open_source(camera)), None


def build_runtime(config: Config, seed: int | None, autoplay: bool, say: Callable[[str], None]) -> Runtime:
    """Open the camera and the match store, calibrate on the start position, wire LEDs,
    buttons and referee (the operator's saved settings on top of ``config``)."""
    try:
        config = load_settings(config)
    except ConfigError as error:  # a damaged settings file: start with the configuration file's values
        say(f"{error}; using the configuration file's settings")
    store = MatchStore.open(Path(config.store), say) if config.store else None
    referee = store.resume_or_begin(config.variant, config.place, say) if store is not None else Referee(config.variant)
    opener, simulated = camera_opener(config.camera, seed)
    table = VirtualTable(simulated, referee.game.variant.name, referee.expected_text) if simulated is not None else None
    camera = CameraFeed(opener)
    reader = _calibrated_reader(camera, referee, say)
    lights = Lights(config.wiring, pin_factory=MockFactory() if simulated is not None else pin_factory())
    companion = Companion(referee, reader, lights, Stabiliser(config.settle_seconds), store=store, place=config.place)
    if seed is not None:
        companion.sticks = SeededSticks(seed)
    players = SimulatedPlayers(companion, table, random.Random(seed)) if table is not None and autoplay else None
    runtime = Runtime(companion, camera, table, players, config=config)
    runtime.buttons = Buttons(config.wiring, runtime.throw, runtime.confirm, runtime.undo, pin_factory=lights.pin_factory)
    companion.listeners.append(runtime.remember)
    return runtime


def _calibrated_reader(camera: CameraFeed, referee: Referee, say: Callable[[str], None]) -> BoardReader:
    """The reader, calibrated on the position the referee holds (the start, or where a resumed
    match stands), waiting while the camera connects or the picture does not show it yet
    (a hand over the board); CameraError or CalibrationError after ``CALIBRATION_SECONDS``."""
    reader = BoardReader(known_mats()[0], referee.game.variant.name)
    deadline = time.monotonic() + CALIBRATION_SECONDS
    while True:
        frame = camera.read()
        try:
            if frame is None:
                raise CameraError(f"no picture from the camera: {camera.status}")
            reader.calibrate(frame, referee.expected_text)
            return reader
        except (CameraError, NoBoardError, CalibrationError) as error:
            if camera.ended or time.monotonic() > deadline:
                raise
            say(f"waiting for the board: {error}")
            time.sleep(1.0)


def run(config: Config, seed: int | None, turns: int | None, autoplay: bool, port: int | None,
        say: Callable[[str], None], host: str = "0.0.0.0") -> int:
    """Run the companion until Ctrl-C (or ``turns`` moves, or the end of a recording); serve
    the page on ``host``:``port`` (ServerError when it cannot)."""
    runtime = build_runtime(config, seed, autoplay, say)

    def report(verdict: Verdict, leds: dict[str, object]) -> None:
        said = verdict.to_dict()
        details = " ".join(f"{key}={','.join(said[key]) if key == 'rules' else said[key]}" for key in ("throw", "from", "to", "rules") if said[key])
        say(f"{verdict.event} {details} {verdict.message} leds={leds}".replace("  ", " "))

    runtime.companion.listeners.append(report)
    what = "simulated camera and pins" if runtime.simulated else config.camera
    say(f"senet run: {runtime.companion.referee.game.variant.name}, {what}; Ctrl-C stops")
    loop = CompanionLoop(runtime, say)
    try:
        if port is None:
            loop.run(turns)
        else:
            server = make_server(create_app(runtime, admin_pin=config.admin_pin), host, port)
            worker = threading.Thread(target=_then_stop, args=(loop, turns, server), daemon=True)
            worker.start()
            say(f"the page: http://{'localhost' if host in ('0.0.0.0', '::') else host}:{server.effective_port}/")
            try:
                server.run()
            finally:
                server.close()
    except KeyboardInterrupt:
        say("stopped")
    finally:
        runtime.close()
    return 0


def _then_stop(loop: CompanionLoop, turns: int | None, server: Any) -> None:
    """Run the loop; when it ends (demo turns, end of a recording) the page stops too."""
    loop.run(turns)
    if not loop.runtime.stop.is_set():
        server.close()
