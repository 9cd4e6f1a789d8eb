"""The page: the game as the companion sees it, served by the Pi (Flask app factory).

The runtime is the running companion (``senet.device.service.Runtime``): the page reads its
state and, in simulation, throws the virtual sticks and moves the virtual pieces.

    >>> app = create_app(runtime=None)
    >>> app.test_client().get("/healthz").get_json()
    {'ok': True}
    >>> app.test_client().post("/api/throw").status_code  # no CSRF token
    403
"""

from __future__ import annotations

import hmac
import secrets
import time
from typing import Any

import segno
from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request, session, stream_with_context
from markupsafe import Markup

from senet.engine.rulebook import RULE_SYSTEMS
from senet.engine.throws import throw_odds
from senet.engine.variants import VARIANTS
from senet.web.access import PinLimiter, admin_required, check_csrf, csrf_token
from senet.web.board_svg import board_svg
from senet.web.events import EventBus, stream

pages = Blueprint("pages", __name__)


def create_app(runtime: Any, bus: EventBus | None = None, keep_alive: float = 15.0, admin_pin: str = "") -> Flask:
    """The page's app. ``bus`` carries state snapshots to the event streams (the runtime's own
    bus when it has one); ``admin_pin`` guards the operator's actions ("" leaves them open)."""
    app = Flask(__name__)
    app.secret_key = secrets.token_hex(32)  # sessions last while the companion runs
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict")
    app.config["ADMIN_PIN"] = admin_pin
    app.config["PIN_LIMITER"] = PinLimiter()
    app.config["RUNTIME"] = runtime
    app.config["BUS"] = bus or getattr(runtime, "bus", None) or EventBus()
    app.config["KEEP_ALIVE"] = keep_alive
    app.config["MAX_CONTENT_LENGTH"] = 4096
    app.register_blueprint(pages)
    app.before_request(_guard_posts)
    return app


def _guard_posts() -> None:
    if request.method == "POST":
        check_csrf()


def _runtime() -> Any:
    runtime = current_app.config["RUNTIME"]
    if runtime is None:
        abort(503, "the companion is not running")
    return runtime


@pages.get("/")
def index() -> str:
    return render_template("index.html", csrf=csrf_token(), board=board_svg())


@pages.post("/admin/login")
def admin_login() -> Any:
    """The operator's PIN; wrong PINs are rate-limited per address."""
    limiter: PinLimiter = current_app.config["PIN_LIMITER"]
    address = request.remote_addr or "?"
    if not limiter.allowed(address, time.monotonic()):
        return jsonify(error="too many wrong PINs: wait a few minutes"), 429, {"Retry-After": str(int(limiter.window))}
    data = request.get_json(silent=True)
    pin = data.get("pin") if isinstance(data, dict) else None
    if not isinstance(pin, str) or not hmac.compare_digest(pin, current_app.config["ADMIN_PIN"] or pin):
        limiter.failed(address, time.monotonic())
        return jsonify(error="wrong PIN"), 403
    session["admin"] = True
    return jsonify(admin=True)


@pages.post("/admin/logout")
def admin_logout() -> Any:
    session.pop("admin", None)
    return jsonify(admin=False)


@pages.get("/rules/<variant>")
def rules(variant: str) -> str:
    """Every rule of a variant with its ID, this companion's readings, and where it comes from."""
    if variant not in VARIANTS:
        abort(404, f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
    chosen = VARIANTS[variant]
    return render_template("rules.html", variant=chosen, system=RULE_SYSTEMS[chosen.prefix],
                           odds=throw_odds(chosen.zero_value), variants=list(VARIANTS))


@pages.get("/qr")
def qr() -> str:
    """A QR code leading phones to this page (to show at the table or print on the mat)."""
    url = request.host_url
    svg = segno.make(url, error="m").svg_inline(scale=8, dark="#222", light="#fff")
    return render_template("qr.html", url=url, svg=Markup(svg))


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
@admin_required
def undo() -> Any:
    _runtime().undo()
    return jsonify(_runtime().state())


@pages.post("/api/new-game")
@admin_required
def new_game() -> Any:
    """The operator starts a new game, optionally under another rule system: {"variant": NAME}."""
    data = request.get_json(silent=True) or {}
    variant = data.get("variant") if isinstance(data, dict) else None
    if variant is not None and not isinstance(variant, str):
        return jsonify(error="variant must be a name such as \"kendall\""), 400
    try:
        _runtime().new_game(variant)
    except ValueError as error:
        return jsonify(error=str(error)), 400
    return jsonify(_runtime().state())


@pages.post("/api/teaching")
@admin_required
def teaching() -> Any:
    """The operator turns teaching mode on or off: {"on": true|false}."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not isinstance(data.get("on"), bool):
        return jsonify(error='send {"on": true} or {"on": false}'), 400
    _runtime().set_teaching(data["on"])
    return jsonify(_runtime().state())


@pages.get("/matches")
def matches() -> str:
    """The matches the companion keeps: for now the one being played, with its record."""
    return render_template("matches.html", state=_runtime().state())


@pages.get("/matches/current.txt")
def current_record() -> Any:
    """The current match's record, as text that replays through the engine."""
    return Response(_runtime().state()["record"], mimetype="text/plain")


@pages.post("/api/position")
@admin_required
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
