"""Who may do what on the page: visitors look, players act, the operator needs the PIN.

Every POST carries the session's CSRF token (the page sends it in ``X-CSRF-Token``), checked by
Flask-WTF's ``CSRFProtect``; a missing or wrong token is a 403 with the reason. Admin actions
also need the operator to have signed in with the PIN from the configuration (none configured:
a kitchen table, admin actions are open). Signing in keeps a random token both in the session
and on the server, so signing out ends that session even where its cookie was copied. Wrong
PINs are rate-limited per address. The session cookie is HttpOnly and SameSite=Strict.

    >>> limiter = PinLimiter(attempts=2, window=60.0)
    >>> limiter.attempt("10.0.0.5", now=0.0), limiter.attempt("10.0.0.5", now=1.0), limiter.attempt("10.0.0.5", now=2.0)
    (True, True, False)
    >>> limiter.attempt("10.0.0.6", now=2.0), limiter.attempt("10.0.0.5", now=61.5)
    (True, True)
"""

from __future__ import annotations

import hmac
import secrets
import threading
import unicodedata
from collections import defaultdict, deque
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Flask, abort, current_app, jsonify, session
from flask_wtf.csrf import CSRFError, CSRFProtect

from senet.web.i18n import gettext


class PinLimiter:
    """At most ``attempts`` wrong PINs per address in ``window`` seconds.

    An attempt takes its place before the PIN is checked, so guesses sent all at once are
    counted too; a right PIN gives its place back:

    >>> limiter = PinLimiter(attempts=1, window=60.0)
    >>> limiter.attempt("10.0.0.5", now=0.0); limiter.succeeded("10.0.0.5", now=0.0)
    True
    >>> limiter.attempt("10.0.0.5", now=1.0), limiter.attempt("10.0.0.5", now=2.0)
    (True, False)
    """

    def __init__(self, attempts: int = 5, window: float = 300.0) -> None:
        self.attempts, self.window = attempts, window
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def attempt(self, address: str, now: float) -> bool:
        """Whether ``address`` may try a PIN now (counted as wrong until ``succeeded``)."""
        with self._lock:
            failures = self._failures[address]
            while failures and now - failures[0] > self.window:
                failures.popleft()
            if len(failures) >= self.attempts:
                return False
            failures.append(now)
            return True

    def succeeded(self, address: str, now: float) -> None:
        """The attempt made at ``now`` had the right PIN: it does not count."""
        with self._lock:
            if now in self._failures[address]:
                self._failures[address].remove(now)


def pin_matches(given: str, pin: str) -> bool:
    """Whether ``given`` is ``pin``, in constant time, compared as NFC-normalised UTF-8 (any text works).

    >>> pin_matches("٢٤٦٨", "٢٤٦٨"), pin_matches("Cafe\\u0301", "Café"), pin_matches("2468", "٢٤٦٨")
    (True, True, False)
    """

    def canonical(text: str) -> bytes:
        return unicodedata.normalize("NFC", text).encode("utf-8", "surrogatepass")

    return hmac.compare_digest(canonical(given), canonical(pin))


def setup(app: Flask) -> None:
    """CSRF checks on every POST (tokens valid while the companion runs) and the server's set of sign-ins."""
    app.config.update(WTF_CSRF_HEADERS=["X-CSRF-Token"], WTF_CSRF_TIME_LIMIT=None)
    CSRFProtect(app)
    app.register_error_handler(CSRFError, _refuse_without_token)
    app.extensions["senet_sign_ins"] = set()


def _refuse_without_token(error: CSRFError) -> Any:
    return jsonify(error=gettext("missing or wrong CSRF token: reload the page")), 403


def _sign_ins() -> set[str]:
    return current_app.extensions["senet_sign_ins"]


def sign_in() -> None:
    """The operator gave the PIN: a new token in the session and on the server (any earlier one ends)."""
    sign_out()
    token = secrets.token_urlsafe(32)
    _sign_ins().add(token)
    session["admin"] = token


def sign_out() -> None:
    """The session's sign-in ends on the server too: a copy of its cookie signs nobody in."""
    token = session.pop("admin", None)
    if isinstance(token, str):
        _sign_ins().discard(token)


def is_admin() -> bool:
    token = session.get("admin")
    return not current_app.config["ADMIN_PIN"] or (isinstance(token, str) and token in _sign_ins())


def admin_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Admin actions: 401 until the PIN was given."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if not is_admin():
            response = jsonify(error=gettext("this needs the operator's PIN: sign in on the operator's page first"))
            response.status_code = 401
            abort(response)
        return view(*args, **kwargs)

    return guarded
