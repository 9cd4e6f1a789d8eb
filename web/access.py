"""Who may do what on the page: visitors look, players act, the operator needs the PIN.

Every POST carries the session's CSRF token (the page sends it in ``X-CSRF-Token``); admin
actions also need the session to have logged in with the PIN from the configuration
(none configured: a kitchen table, admin actions are open). Wrong PINs are rate-limited per
address. The session cookie is HttpOnly and SameSite=Strict.

    >>> limiter = PinLimiter(attempts=2, window=60.0)
    >>> limiter.allowed("10.0.0.5", now=0.0), limiter.failed("10.0.0.5", 0.0), limiter.failed("10.0.0.5", 1.0)
    (True, None, None)
    >>> limiter.allowed("10.0.0.5", now=2.0), limiter.allowed("10.0.0.5", now=61.5)
    (False, True)
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections import defaultdict, deque
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import abort, current_app, jsonify, request, session

from senet.web.i18n import gettext


class PinLimiter:
    """At most ``attempts`` wrong PINs per address in ``window`` seconds."""

    def __init__(self, attempts: int = 5, window: float = 300.0) -> None:
        self.attempts, self.window = attempts, window
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def allowed(self, address: str, now: float) -> bool:
        with self._lock:
            failures = self._failures[address]
            while failures and now - failures[0] > self.window:
                failures.popleft()
            return len(failures) < self.attempts

    def failed(self, address: str, now: float) -> None:
        with self._lock:
            self._failures[address].append(now)


def csrf_token() -> str:
    """The session's token, made on first use (the page embeds it)."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return str(session["csrf"])


def check_csrf() -> None:
    """Refuse a POST without the session's token (403, with a reason)."""
    sent = request.headers.get("X-CSRF-Token", "")
    if "csrf" not in session or not hmac.compare_digest(sent, str(session["csrf"])):
        response = jsonify(error=gettext("missing or wrong CSRF token: reload the page"))
        response.status_code = 403
        abort(response)


def is_admin() -> bool:
    return not current_app.config["ADMIN_PIN"] or bool(session.get("admin"))


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
