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
from collections.abc import Callable
from functools import wraps
from typing import Any

import segno
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    stream_with_context,
)
from markupsafe import Markup

from senet.engine.rulebook import RULE_SYSTEMS
from senet.engine.throws import throw_odds
from senet.engine.variants import VARIANTS
from senet.web import i18n
from senet.web.access import PinLimiter, admin_required, check_csrf, csrf_token, is_admin
from senet.web.board_svg import board_svg
from senet.web.events import EventBus, stream
from senet.web.i18n import gettext

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
    i18n.setup(app)
    return app


def _guard_posts() -> None:
    if request.method == "POST":
        check_csrf()


def _runtime() -> Any:
    runtime = current_app.config["RUNTIME"]
    if runtime is None:
        abort(503, "the companion is not running")
    return runtime


def _state() -> Any:
    """The companion's state, with its words in the visitor's language."""
    return jsonify(i18n.localise(_runtime().state()))


def _variants() -> dict[str, str]:
    """Every variant with the title of its rule system, in the visitor's language."""
    return {name: i18n.translate(RULE_SYSTEMS[variant.prefix].title) for name, variant in VARIANTS.items()}


@pages.get("/")
def index() -> str:
    board = board_svg(board_label=gettext("the board"), square_label=gettext("square {square}"))
    return render_template("index.html", csrf=csrf_token(), board=board, texts=i18n.script_texts(), may_play=_may_play())


@pages.get("/language/<code>")
def choose_language(code: str) -> Any:
    """The language switcher: remembers the choice in a cookie and goes back to the page."""
    if code not in i18n.languages():
        abort(404, f"no language {code!r} here; choose one of {', '.join(i18n.languages())}")
    back = request.args.get("next", "/")
    if not back.startswith("/") or back.startswith("//"):
        back = "/"  # never send the visitor to another site
    response = redirect(back)
    response.set_cookie(i18n.COOKIE, code, max_age=365 * 24 * 3600, httponly=True, samesite="Lax")
    return response


@pages.get("/admin")
def admin() -> str:
    """The operator's view: sign in, new game, rule system, teaching, undo, position, settings, QR code."""
    runtime = _runtime()
    return render_template("admin.html", csrf=csrf_token(), admin=is_admin(), state=runtime.state(),
                           settings=runtime.settings(), variants=_variants(), qr=_qr_svg(), url=request.host_url,
                           texts=i18n.script_texts())


@pages.post("/admin/login")
def admin_login() -> Any:
    """The operator's PIN; wrong PINs are rate-limited per address."""
    limiter: PinLimiter = current_app.config["PIN_LIMITER"]
    address = request.remote_addr or "?"
    if not limiter.allowed(address, time.monotonic()):
        return jsonify(error=gettext("too many wrong PINs: wait a few minutes")), 429, {"Retry-After": str(int(limiter.window))}
    data = request.get_json(silent=True)
    pin = data.get("pin") if isinstance(data, dict) else None
    if not isinstance(pin, str) or not hmac.compare_digest(pin, current_app.config["ADMIN_PIN"] or pin):
        limiter.failed(address, time.monotonic())
        return jsonify(error=gettext("wrong PIN")), 403
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
                           odds=throw_odds(chosen.zero_value), variants=_variants())


@pages.get("/qr")
def qr() -> str:
    """A QR code leading phones to this page (to show at the table or print on the mat)."""
    return render_template("qr.html", url=request.host_url, svg=_qr_svg())


def _qr_svg() -> Markup:
    return Markup(segno.make(request.host_url, error="m").svg_inline(scale=8, dark="#222", light="#fff"))


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
    body = stream_with_context(stream(bus, viewer, current_app.config["KEEP_ALIVE"], initial, i18n.localise, i18n.language()))
    return Response(body, mimetype="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@pages.get("/api/state")
def state() -> Any:
    return _state()


@pages.post("/api/settings")
@admin_required
def settings() -> Any:
    """The operator's settings: {"idle_reset_minutes": N, "settle_seconds": N}, kept across restarts."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not data:
        return jsonify(error='send {"idle_reset_minutes": N, "settle_seconds": N} (either or both)'), 400
    try:
        _runtime().change_settings(data)
    except ValueError as error:
        return jsonify(error=str(error)), 400
    return jsonify(_runtime().settings())


def _may_play() -> bool:
    """Phones may throw and pass in simulation, at a kitchen table (no PIN), or for the operator;
    in a museum visitors only look: at the real board the sticks are thrown at the table."""
    return bool(getattr(current_app.config["RUNTIME"], "simulated", False)) or is_admin()


def _players_only(view: Callable[..., Any]) -> Callable[..., Any]:
    """Throwing and passing from a phone: 403 with the reason where phones only follow the game."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if not _may_play():
            return jsonify(error=gettext("At this board the sticks are thrown at the table: the page only follows the game.")), 403
        return view(*args, **kwargs)

    return guarded


@pages.post("/api/throw")
@_players_only
def throw() -> Any:
    _runtime().throw()
    return _state()


@pages.post("/api/pass")
@_players_only
def pass_turn() -> Any:
    _runtime().confirm()
    return _state()


@pages.post("/api/undo")
@admin_required
def undo() -> Any:
    _runtime().undo()
    return _state()


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
    return _state()


@pages.post("/api/teaching")
@admin_required
def teaching() -> Any:
    """The operator turns teaching mode on or off: {"on": true|false}."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not isinstance(data.get("on"), bool):
        return jsonify(error='send {"on": true} or {"on": false}'), 400
    _runtime().set_teaching(data["on"])
    return _state()


@pages.get("/matches")
def matches() -> str:
    """The matches the companion keeps: for now the one being played, with its record."""
    state = _runtime().state()
    return render_template("matches.html", state=state, variant_title=_variants()[state["variant"]])


@pages.get("/matches/<name>.txt")
def match_record(name: str) -> Any:
    """A match's record, as text that replays through the engine (for now the current match's)."""
    if name != "current":
        abort(404, f"no match {name!r}: the companion keeps the current match only")
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
    return _state()


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
    return _state()
