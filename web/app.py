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

import json
import math
import re
import secrets
import time
from collections.abc import Callable
from functools import wraps
from itertools import accumulate
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    stream_with_context,
)
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from senet.engine.layout import SENET, Layout
from senet.engine.moves import Stage
from senet.engine.rulebook import RULE_SYSTEMS
from senet.engine.throws import Dice, DiceThrows, StickThrows, throw_odds
from senet.engine.variants import VARIANTS
from senet.web import access, i18n
from senet.web.access import PinLimiter, admin_required, is_admin, pin_matches, sign_in, sign_out
from senet.web.board_svg import board_svg
from senet.web.events import EventBus, HeldStream, StreamRefused, StreamSlots, stream
from senet.web.i18n import N_, Words, gettext
from senet.web.matches import fairness_words, local_time, players_words, result_words, step_words

pages = Blueprint("pages", __name__)
#: A JSON body deeper than this is not one the page sends (and could exhaust the stack).
MAX_JSON_DEPTH = 8
#: A refused event stream is tried again after this long (app.js waits as long, with some jitter).
STREAM_RETRY_SECONDS = 10
#: An escaped character in a JSON text, then what is not a bracket outside the text's strings.
JSON_ESCAPE, JSON_NOT_BRACKET = re.compile(r"\\.", re.S), re.compile(r'"[^"]*"|[^\[\]{}]')
#: A square of the drawn board, to put a piece on it.
BOARD_SQUARE = re.compile(r'class="sq" data-square="(\d+)"')


def create_app(runtime: Any, bus: EventBus | None = None, keep_alive: float = 15.0, admin_pin: str = "",
               stream_slots: StreamSlots | None = None, default_language: str = "en", phone_url: str = "") -> Flask:
    """The page's app. ``bus`` carries state snapshots to the event streams (the runtime's own
    bus when it has one); ``admin_pin`` guards the operator's actions ("" leaves them open);
    ``stream_slots`` caps the open event streams (``senet.web.server`` fits its threads to them);
    ``default_language`` is for phones whose own language is not offered; ``phone_url`` is the
    address the QR code gives phones ("": the address the page was opened with)."""
    app = Flask(__name__)
    app.secret_key = secrets.token_hex(32)  # sessions last while the companion runs
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict")
    app.config["ADMIN_PIN"] = admin_pin
    app.config["DEFAULT_LANGUAGE"] = default_language
    app.config["PHONE_URL"] = phone_url
    app.config["PIN_LIMITER"] = PinLimiter()
    app.config["RUNTIME"] = runtime
    app.config["BUS"] = bus or getattr(runtime, "bus", None) or EventBus()
    app.config["KEEP_ALIVE"] = keep_alive
    app.config["STREAM_SLOTS"] = stream_slots or StreamSlots()
    app.config["MAX_CONTENT_LENGTH"] = 4096
    app.register_blueprint(pages)
    access.setup(app)
    i18n.setup(app)
    return app


def _json_body() -> Any:
    """The request's JSON value (None for an empty body); a 400 with the reason for anything
    that is not one small JSON value: not UTF-8, not JSON, no finite number, nested too deep."""
    try:
        text = request.get_data().decode("utf-8")
        if not text.strip():
            return None
        brackets = JSON_NOT_BRACKET.sub("", JSON_ESCAPE.sub("", text))
        if max(accumulate(1 if bracket in "[{" else -1 for bracket in brackets), default=0) > MAX_JSON_DEPTH:
            raise ValueError(f"nested more than {MAX_JSON_DEPTH} deep")
        return json.loads(text, parse_float=_finite, parse_constant=_finite)
    except ValueError as error:
        abort(make_response(jsonify(error=f"send one small JSON value, as UTF-8 ({error})"), 400))


def _finite(text: str) -> float:
    """A JSON number as a float, refusing what is no finite number (NaN, Infinity, 1e999)."""
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text[:20]} is no finite number")
    return number


def _local_path(target: str) -> str:
    r"""``target`` if it is a path on this site, else "/": browsers drop tabs and newlines and
    read a backslash as a slash, so "/\t/evil.example" would leave the site.

    >>> [_local_path(target) for target in ("/rules/kendall?x=1", "//evil.example", "/\t/evil.example", "/\\evil.example")]
    ['/rules/kendall?x=1', '/', '/', '/']
    """
    parts = urlsplit(target)
    local = target.startswith("/") and not target.startswith("//") and "\\" not in target and not parts.scheme and not parts.netloc
    return target if local and all(char.isprintable() and not char.isspace() for char in target) else "/"


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
    runtime = current_app.config["RUNTIME"]  # the page loads without a companion too: its script says why
    state = runtime.state() if runtime is not None else {"variant": "kendall", "throws": "sticks"}
    board = board_svg(board_label=gettext("the board"), square_label=gettext("square {square}"),
                      layout=VARIANTS[state["variant"]].layout)
    return render_template("index.html", csrf=generate_csrf(), board=board, texts=i18n.script_texts(), may_play=_may_play(),
                           throws=state["throws"])


@pages.get("/language/<code>")
def choose_language(code: str) -> Any:
    """The language switcher: remembers the choice in a cookie and goes back to the page."""
    if code not in i18n.languages():
        abort(404, f"no language {code!r} here; choose one of {', '.join(i18n.languages())}")
    response = redirect(_local_path(request.args.get("next", "/")))
    response.set_cookie(i18n.COOKIE, code, max_age=365 * 24 * 3600, httponly=True, samesite="Lax")
    return response


@pages.get("/admin")
def admin() -> str:
    """The operator's view: sign in, new game, rule system, teaching, undo, position, settings, QR code."""
    runtime = _runtime()
    return render_template("admin.html", csrf=generate_csrf(), admin=is_admin(), state=runtime.state(),
                           settings=runtime.settings(), variants=_variants(), qr=_qr_svg(), url=_phone_url(),
                           texts=i18n.script_texts())


@pages.post("/admin/login")
def admin_login() -> Any:
    """The operator's PIN: {"pin": TEXT}; wrong PINs are rate-limited per address."""
    data = _json_body()
    limiter: PinLimiter = current_app.config["PIN_LIMITER"]
    address, now = request.remote_addr or "?", time.monotonic()
    if not limiter.attempt(address, now):
        return jsonify(error=gettext("too many wrong PINs: wait a few minutes")), 429, {"Retry-After": str(int(limiter.window))}
    pin = data.get("pin") if isinstance(data, dict) else None
    if not isinstance(pin, str) or not pin_matches(pin, current_app.config["ADMIN_PIN"] or pin):
        return jsonify(error=gettext("wrong PIN")), 403
    limiter.succeeded(address, now)
    sign_in()
    return jsonify(admin=True)


@pages.post("/admin/logout")
def admin_logout() -> Any:
    sign_out()
    return jsonify(admin=False)


@pages.get("/rules/<variant>")
def rules(variant: str) -> str:
    """Every rule of a variant with its ID, this companion's readings, and where it comes from."""
    if variant not in VARIANTS:
        abort(404, f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
    chosen = VARIANTS[variant]
    throws = chosen.throws
    odds = throw_odds(throws.zero_value) if isinstance(throws, StickThrows) else {}
    dice = [throws.face_odds(throws.own_faces), throws.face_odds(throws.other_faces)] if isinstance(throws, DiceThrows) else []
    return render_template("rules.html", variant=chosen, system=RULE_SYSTEMS[chosen.prefix], odds=odds, dice=dice,
                           variants=_variants())


@pages.get("/qr")
def qr() -> str:
    """A QR code leading phones to this page (to show at the table or print on the mat)."""
    return render_template("qr.html", url=_phone_url(), svg=_qr_svg())


def _qr_svg() -> Markup:
    return Markup(segno.make(_phone_url(), error="m").svg_inline(scale=8, dark="#222", light="#fff"))


@pages.get("/healthz")
def healthz() -> Any:
    return jsonify(ok=True)


@pages.get("/events")
def events() -> Response:
    """Server-Sent Events: the state now, then every change, with keep-alive comments. Each
    stream holds a server thread: past the caps of ``StreamSlots`` a stream is refused (429 for
    one address, 503 for the server) and the browser tries again later."""
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    if request.method == "HEAD":
        return Response(mimetype="text/event-stream", headers=headers)
    slots: StreamSlots = current_app.config["STREAM_SLOTS"]
    address = request.remote_addr or "?"
    try:
        slots.take(address)
    except StreamRefused as refused:
        return Response(f"{refused.reason}: try again later\n", refused.status, mimetype="text/plain",
                        headers={"Retry-After": str(STREAM_RETRY_SECONDS)})
    try:
        runtime = current_app.config["RUNTIME"]
        initial = runtime.state() if runtime is not None else None
        chunks = stream(current_app.config["BUS"], current_app.config["KEEP_ALIVE"], initial, i18n.localise, i18n.language())
        body = HeldStream(stream_with_context(chunks), lambda: slots.release(address))
    except BaseException:
        slots.release(address)
        raise
    return Response(body, mimetype="text/event-stream", headers=headers)


@pages.get("/api/state")
def state() -> Any:
    return _state()


@pages.post("/api/settings")
@admin_required
def settings() -> Any:
    """The operator's settings: {"idle_reset_minutes": N, "settle_seconds": N}, kept across restarts."""
    data = _json_body()
    if not isinstance(data, dict) or not data or any(isinstance(value, (dict, list)) for value in data.values()):
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


@pages.post("/api/dice")
@_players_only
def enter_dice() -> Any:
    """PHARAO at a real table: the dice as the players read them, {"own": 0..4, "other": 0..2}."""
    data = _json_body()
    own, other = (data.get("own"), data.get("other")) if isinstance(data, dict) else (None, None)
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in (own, other)):
        return jsonify(error='send {"own": 0..4, "other": 0..2}'), 400
    try:
        _runtime().enter_dice(own, other)
    except ValueError as error:
        return jsonify(error=str(error)), 400
    return _state()


@pages.post("/api/pass")
@_players_only
def pass_turn() -> Any:
    _runtime().confirm()
    return _state()


@pages.post("/api/undo")
@admin_required
def undo() -> Any:
    """Take back the last move; 409 with the referee's reason when there is none."""
    refused = [verdict for verdict in _runtime().undo() if verdict.event == "waiting"]
    if refused:
        return jsonify(error=i18n.translate(refused[0].note).format(**refused[0].params)), 409
    return _state()


@pages.post("/api/new-game")
@admin_required
def new_game() -> Any:
    """The operator starts a new game, optionally under another rule system and with the
    players' names: {"variant": NAME, "dark_player": NAME, "light_player": NAME} (each optional)."""
    data = _json_body() or {}
    if not isinstance(data, dict):
        data = {}
    variant, dark, light = data.get("variant"), data.get("dark_player", ""), data.get("light_player", "")
    if variant is not None and not isinstance(variant, str):
        return jsonify(error="variant must be a name such as \"kendall\""), 400
    if not isinstance(dark, str) or not isinstance(light, str):
        return jsonify(error="the players' names are text"), 400
    try:
        _runtime().new_game(variant, dark_player=dark, light_player=light)
    except ValueError as error:
        return jsonify(error=str(error)), 400
    return _state()


@pages.post("/api/teaching")
@admin_required
def teaching() -> Any:
    """The operator turns teaching mode on or off: {"on": true|false}."""
    data = _json_body()
    if not isinstance(data, dict) or not isinstance(data.get("on"), bool):
        return jsonify(error='send {"on": true} or {"on": false}'), 400
    _runtime().set_teaching(data["on"])
    return _state()


@pages.get("/matches")
def matches() -> str:
    """Every kept match, newest first, and whether the sticks look fair; without a match store
    the current game only, with its record."""
    runtime = _runtime()
    state, say = runtime.state(), Words.current()
    kept = runtime.companion.store is not None
    throws = VARIANTS[state["variant"]].throws
    zero_value = throws.zero_value if isinstance(throws, StickThrows) else None
    fairness = [fairness_words(source, verdict, zero_value, say) for source, verdict in runtime.stick_fairness().items()] if kept else []
    rows = [(match, local_time(match.started_at, say.code), players_words(match, say), result_words(match, say))
            for match in runtime.matches()]
    return render_template("matches.html", state=state, variants=_variants(), kept=kept, rows=rows, fairness=fairness)


@pages.get("/matches/<int:match_id>")
def match_page(match_id: int) -> str:
    """One match stepped through event by event (?step=N; 0 is the start)."""
    runtime, say = _runtime(), Words.current()
    try:
        match, steps = runtime.match(match_id)
    except KeyError:
        abort(404, _no_match(match_id))
    words = step_words(match, steps, say)
    step = min(max(request.args.get("step", 0, type=int), 0), len(words) - 1)
    shown = words[step]
    return render_template("match.html", match=match, steps=words, step=step, board=_board_showing(shown.board, shown.marked, VARIANTS[match.variant].layout),
                           variant_title=_variants()[match.variant], result=result_words(match, say),
                           players=players_words(match, say), started=local_time(match.started_at, say.code),
                           cut_short=len(steps) < match.events)


@pages.get("/matches/<name>.<any(txt, json):kind>")
def match_download(name: str, kind: str) -> Any:
    """A match's record as text or JSON, to download. "current" is the match in progress (the
    current game's record without a match store, as text that replays through the engine)."""
    runtime = _runtime()
    store = runtime.companion.store
    if name == "current":
        if store is None or store.current is None:
            if kind == "json":
                abort(404, "no match store: only current.txt, the current game's record, is kept")
            return Response(runtime.state()["record"], mimetype="text/plain")
        name = str(store.current.id)
    if not name.isdigit():
        abort(404, _no_match(name))
    try:
        text = runtime.match_export(int(name), kind == "json")
    except KeyError:
        abort(404, _no_match(name))
    mimetype = "application/json" if kind == "json" else "text/plain"
    return Response(text, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="senet-match-{int(name)}.{kind}"'})


def _no_match(name: object) -> str:
    return Words.current().fill(N_("There is no match {number} here: the list of matches is at /matches."), {"number": name})


def _board_showing(board: str, marked: tuple[int, ...] = (), layout: Layout = SENET) -> Markup:
    """The page's board drawn with ``board``'s pieces on it (30 characters . D L, square 1
    first), the squares of a move (from, to) picked out: a page that works without its script."""
    svg = board_svg(board_label=gettext("the board"), square_label=gettext("square {square}"), layout=layout)
    marks = dict(zip(marked, (" picked", " target")))

    def square(found: re.Match[str]) -> str:
        number = int(found[1])
        return f'class="sq{marks.get(number, "")}" data-square="{number}" data-piece="{board[number - 1].strip(".")}"'

    return Markup(BOARD_SQUARE.sub(square, svg))


@pages.post("/api/position")
@admin_required
def set_position() -> Any:
    """An operator corrects the position by hand: {"board": 30 characters, "turn": "dark"|"light", "throw": N?};
    the grid games also take "stage" (own, other, rescue, place) and PHARAO "dice" ([own, other])."""
    data = _json_body()
    if not isinstance(data, dict) or not isinstance(data.get("board"), str) or data.get("turn") not in ("dark", "light"):
        return jsonify(error='send {"board": "<30 characters . D L>", "turn": "dark" or "light", "throw": N (optional)}'), 400
    throw, dice, stage = data.get("throw"), data.get("dice"), data.get("stage")
    if throw is not None and (isinstance(throw, bool) or not isinstance(throw, int)):
        return jsonify(error="throw must be a number"), 400
    if dice is not None and not (isinstance(dice, list) and len(dice) == 2
                                 and all(isinstance(d, int) and not isinstance(d, bool) for d in dice)):
        return jsonify(error="dice must be [own, other]"), 400
    if stage is not None and stage not in {s.word for s in Stage}:
        return jsonify(error="stage must be own, other, rescue or place"), 400
    try:
        _runtime().set_position(data["board"], data["turn"], throw, Dice(*dice) if dice else None,
                                Stage.from_word(stage) if stage else None)
    except ValueError as error:
        return jsonify(error=str(error)), 400
    return _state()


@pages.post("/api/move")
def move() -> Any:
    """Simulation only: move a virtual piece, as a hand would on the real board ("from": "off" puts
    a new piece of the player to move on the board: RAMSES' placing)."""
    data = _json_body()
    if not isinstance(data, dict) or not (data.get("from") == "off" or _whole(data.get("from"))) or not (
        data.get("to") == "off" or _whole(data.get("to"))
    ):
        return jsonify(error='send {"from": SQUARE or "off", "to": SQUARE or "off"}'), 400
    try:
        _runtime().move_virtual(None if data["from"] == "off" else data["from"], None if data["to"] == "off" else data["to"])
    except ValueError as error:
        return jsonify(error=str(error)), 400
    return _state()


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _phone_url() -> str:
    """Where phones reach the page: this companion's network address or configured name (the
    address this page was opened with when it has none)."""
    return current_app.config.get("PHONE_URL") or request.host_url
