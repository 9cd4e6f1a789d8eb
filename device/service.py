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
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory

from senet.device.address import phone_url
from senet.device.camera import CameraFeed
from senet.device.companion import Companion
from senet.device.config import Config, ConfigError, load_settings
from senet.device.lights import Buttons, Lights, pin_factory
from senet.device.loop import CompanionLoop
from senet.device.notify import Notifier
from senet.device.runtime import Runtime
from senet.device.simulation import SimulatedPlayers, VirtualTable
from senet.device.store import MatchStore
from senet.engine.referee import Referee, Verdict
from senet.engine.throws import SeededSticks
from senet.vision.geometry import known_mats
from senet.vision.reader import BoardReader
from senet.vision.sources import CameraError, FrameSource, SimulatedSource, open_source
from senet.vision.stability import Stabiliser
from senet.web.app import create_app
from senet.web.server import make_server


def camera_opener(camera: str, seed: int | None, size: tuple[int, int] = (1280, 720)
                  ) -> tuple[Callable[[], FrameSource], SimulatedSource | None]:
    """How to (re)open the named camera (asking for ``size`` pictures), and the simulated camera
    when it is one; ``auto`` is the Pi camera when there is one, else the simulator. CameraError
    when it cannot open."""
    if camera == "auto":
        try:
            open_source("picamera2", size).close()
            camera = "picamera2"
        except CameraError:
            camera = "simulator"
    if camera == "simulator":
        simulated = SimulatedSource(seed=seed or 0)
        return (lambda: simulated), simulated
    open_source(camera, size).close()  # a camera that is not there is said at once, not retried for ever
    return (lambda: open_source(camera, size)), None


def build_runtime(config: Config, seed: int | None, autoplay: bool, say: Callable[[str], None]) -> Runtime:
    """Open the camera and the match store, calibrate on the start position, wire LEDs,
    buttons and referee (the operator's saved settings on top of ``config``)."""
    try:
        config = load_settings(config)
    except ConfigError as error:  # a damaged settings file: start with the configuration file's values
        say(f"{error}; using the configuration file's settings")
    store = MatchStore.open(Path(config.store), say) if config.store else None
    referee = store.resume_or_begin(config.variant, config.place, say) if store is not None else Referee(config.variant)
    opener, simulated = camera_opener(config.camera, seed, config.resolution)
    table = VirtualTable(simulated, referee.game.variant.name, referee.expected_text) if simulated is not None else None
    camera = CameraFeed(opener)
    mats = tuple(known_mats())
    reader = BoardReader(mats[0], referee.game.variant.name, stream=True)
    lights = Lights(config.wiring, pin_factory=MockFactory() if simulated is not None else pin_factory())
    companion = Companion(referee, reader, lights, Stabiliser(config.settle_seconds), store=store, place=config.place, mats=mats)
    if companion.calibration_board != referee.expected_text:
        say(f"for the camera to learn the pieces, set them as {companion.calibration_board} (square 1 first), "
            "then take them off for the game")
    if table is not None:  # the simulated players set the pieces up for the camera at once, then the game's position
        table.set_up(companion.calibration_board)
        companion.step(simulated.read(), 0.0)
        table.set_up(referee.expected_text)
    if seed is not None:
        companion.sticks = SeededSticks(seed)
    players = SimulatedPlayers(companion, table, random.Random(seed)) if table is not None and autoplay else None
    runtime = Runtime(companion, camera, table, players, config=config)
    runtime.buttons = Buttons(config.wiring, runtime.throw, runtime.confirm, runtime.undo, pin_factory=lights.pin_factory)
    companion.listeners.append(runtime.remember)
    return runtime


def run(config: Config, seed: int | None, turns: int | None, autoplay: bool, page: bool,
        say: Callable[[str], None]) -> int:
    """Run the companion until Ctrl-C or SIGTERM (or ``turns`` moves, or the end of a recording);
    serve the page on the configuration's host and port unless ``page`` is False (ServerError
    when it cannot). Tells systemd when it is up (see :mod:`senet.device.notify`)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)  # systemctl stop: close the store and the camera as Ctrl-C does
    runtime = build_runtime(config, seed, autoplay, say)
    notifier = Notifier()

    def report(verdict: Verdict, leds: dict[str, object]) -> None:
        said = verdict.to_dict()
        shown = {"rules": ",".join(said["rules"]), "dice": "+".join(map(str, said.get("dice") or ()))}
        details = " ".join(f"{key}={shown.get(key, said.get(key))}" for key in ("dice", "throw", "from", "to", "stage", "rules")
                           if said.get(key) is not None and said.get(key) != [] and not (key == "throw" and "dice" in said))
        say(f"{verdict.event} {details} {verdict.message} leds={leds}".replace("  ", " "))

    runtime.companion.listeners.append(report)
    what = "simulated camera and pins" if runtime.simulated else config.camera
    say(f"senet run: {runtime.companion.referee.game.variant.name}, {what}; Ctrl-C stops")
    loop = CompanionLoop(runtime, say, notifier=notifier)
    try:
        if not page:
            notifier.ready("refereeing, no page")
            loop.run(turns)
        else:
            everywhere = config.host in ("0.0.0.0", "::", "")
            url = phone_url(config.public_address if everywhere else config.host, config.port)
            app = create_app(runtime, admin_pin=config.admin_pin, default_language=config.language, phone_url=url)
            server = make_server(app, config.host, config.port)
            worker = threading.Thread(target=_then_stop, args=(loop, turns, server), daemon=True)
            worker.start()
            say(f"the page: {url}" + ("" if everywhere else " (this address only)"))
            if everywhere and not config.admin_pin:
                say("note: no admin_pin in the configuration, so the operator's view (/admin: undo, set the position, "
                    "new game) is open to everyone on this network; set one (docs/configuration.md)")
            notifier.ready(f"the page: {url}")
            try:
                server.run()
            finally:
                server.close()
    except KeyboardInterrupt:
        say("stopped")
    finally:
        notifier.stopping()
        runtime.close()
    return 0


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _then_stop(loop: CompanionLoop, turns: int | None, server: Any) -> None:
    """Run the loop; when it ends (demo turns, end of a recording) the page stops too."""
    loop.run(turns)
    if not loop.runtime.stop.is_set():
        server.close()
