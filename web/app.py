"""The page: the game as the companion sees it, served by the Pi (Flask app factory).

The runtime is the running companion (``senet.device.service.Runtime``): the page reads its
state and, in simulation, throws the virtual sticks and moves the virtual pieces.

    >>> app = create_app(runtime=None)
    >>> app.test_client().get("/healthz").get_json()
    {'ok': True}
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request, stream_with_context

from senet.engine.rulebook import RULE_SYSTEMS
from senet.engine.throws import throw_odds
from senet.engine.variants import VARIANTS
from senet.web.events import EventBus, stream

pages = Blueprint("pages", __name__)


def create_app(runtime: Any, bus: EventBus | None = None, keep_alive: float = 15.0) -> Flask:
    """The page's app. ``bus`` carries state snapshots to the event streams (the runtime's own
    bus when it has one)."""
    app = Flask(__name__)
    app.config["RUNTIME"] = runtime
    app.config["BUS"] = bus or getattr(runtime, "bus", None) or EventBus()
    app.config["KEEP_ALIVE"] = keep_alive
    app.config["MAX_CONTENT_LENGTH"] = 4096
    app.register_blueprint(pages)
    return app


def _runtime() -> Any:
    runtime = current_app.config["RUNTIME"]
    if runtime is None:
        abort(503, "the companion is not running")
    return runtime


@pages.get("/")
def index() -> str:
    return render_template("index.html")


@pages.get("/rules/<variant>")
def rules(variant: str) -> str:
    """Every rule of a variant with its ID, this companion's readings, and where it comes from."""
    if variant not in VARIANTS:
        abort(404, f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
    chosen = VARIANTS[variant]
    return render_template("rules.html", variant=chosen, system=RULE_SYSTEMS[chosen.prefix],
                           odds=throw_odds(chosen.zero_value), variants=list(VARIANTS))


@pages.get("/healthz")
def healthz() -> Any:
    return jsonify(ok=True)


@pages.get("/events")
def events() -> Response:
    """Server-Sent Events: the state now, then every change, with keep-alive comments."""
    bus: EventBus = current_app.config["BUS"]
    runtime = current_app.config["RUNTIME"]
    initial = runtime.state() if runtime is not None else None
    viewer = bus.subscribe()
    body = stream_with_context(stream(bus, viewer, current_app.config["KEEP_ALIVE"], initial))
    return Response(body, mimetype="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@pages.get("/api/state")
def state() -> Any:
    return jsonify(_runtime().state())


@pages.post("/api/throw")
def throw() -> Any:
    _runtime().throw()
    return jsonify(_runtime().state())


@pages.post("/api/pass")
def pass_turn() -> Any:
    _runtime().confirm()
    return jsonify(_runtime().state())


@pages.post("/api/undo")
def undo() -> Any:
    _runtime().undo()
    return jsonify(_runtime().state())


@pages.post("/api/position")
def set_position() -> Any:
    """An operator corrects the position by hand: {"board": 30 characters, "turn": "dark"|"light", "throw": N?}."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not isinstance(data.get("board"), str) or data.get("turn") not in ("dark", "light"):
        return jsonify(error='send {"board": "<30 characters . D L>", "turn": "dark" or "light", "throw": N (optional)}'), 400
    throw = data.get("throw")
    if throw is not None and (isinstance(throw, bool) or not isinstance(throw, int)):
        return jsonify(error="throw must be a number"), 400
    try:
        _runtime().set_position(data["board"], data["turn"], throw)
    except ValueError as error:
        return jsonify(error=str(error)), 400
    return jsonify(_runtime().state())


@pages.post("/api/move")
def move() -> Any:
    """Simulation only: move a virtual piece, as a hand would on the real board."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not isinstance(data.get("from"), int) or not (
        data.get("to") == "off" or isinstance(data.get("to"), int)
    ):
        return jsonify(error='send {"from": SQUARE, "to": SQUARE or "off"}'), 400
    try:
        _runtime().move_virtual(data["from"], None if data["to"] == "off" else data["to"])
    except ValueError as error:
        return jsonify(error=str(error)), 400
    return jsonify(_runtime().state())
