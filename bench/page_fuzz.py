"""The page under fuzzed requests: every route, random methods, paths, query strings, headers
and bodies (deep JSON, invalid UTF-8, huge numbers), through Flask's test client with a
simulated companion. Prints how many answers fell in each status class; the goal is no 5xx:

    python bench/page_fuzz.py [--requests 5000] [--seed 1]

``fuzz`` is also what tests/test_web_hardening.py runs, smaller.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
from collections import Counter
from typing import Any

from flask.testing import FlaskClient

ROUTES = ("/", "/admin", "/admin/login", "/admin/logout", "/rules/kendall", "/rules/{word}", "/qr", "/healthz", "/events",
          "/api/state", "/api/settings", "/api/throw", "/api/pass", "/api/undo", "/api/new-game", "/api/teaching",
          "/matches", "/matches/current.txt", "/matches/{word}.txt", "/api/position", "/api/move", "/language/{word}",
          "/language/de", "/static/app.js", "/static/{word}", "/{word}", "/api/{word}")
METHODS = ("GET", "GET", "POST", "POST", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH")
KEYS = ("from", "to", "board", "turn", "throw", "variant", "on", "pin", "idle_reset_minutes", "settle_seconds", "teaching",
        "camera", "")
HOSTILE_TEXTS = ("/\t/evil.example", "//evil.example", "/\\evil.example", "https://evil.example/", "/\r\n/x", "\x00", "",
                 "٢٤٦٨", "e\u0301", "\ud800", "\u202e", "a" * 3000, "../../etc/passwd", "%ff%fe", "off", "dark", "kendall")


def hostile_value(rng: random.Random, depth: int = 0) -> Any:
    """A JSON value the page does not expect: huge or odd numbers, odd text, nested containers."""
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return rng.choice((0, -1, 1, 30, 31, 2**63, -(2**70), 10**300, 1e308, -0.0, 0.5, True, False, None))
    if kind == 1:
        return int("9" * rng.randint(1, 3000))
    if kind in (2, 3):
        return rng.choice(HOSTILE_TEXTS)
    if kind == 4:
        return "".join(rng.choice(string.printable + "éمД\u0300\ufeff") for _ in range(rng.randint(0, 40)))
    if kind == 5:
        return rng.randint(-5, 40)
    if kind == 6:
        return [hostile_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(KEYS): hostile_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def hostile_body(rng: random.Random) -> bytes:
    """A request body: JSON the page might get, deep JSON, bare constants, invalid UTF-8, noise."""
    kind = rng.randrange(8)
    if kind == 0:
        depth = rng.choice((9, 100, 2000, 5000))
        return (rng.choice(("[", '{"a":')) * depth).encode()
    if kind == 1:
        return rng.choice((b"NaN", b"Infinity", b'{"throw": -Infinity}', b"1e999", b"9" * 4500, b'{"pin": 1e999999}'))
    if kind == 2:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 200)))
    if kind == 3:
        return b'{"pin": "\xff\xfe"}'
    if kind == 4:
        return b""
    if kind == 5:
        return b"x" * rng.choice((4097, 10000))
    return json.dumps({rng.choice(KEYS): hostile_value(rng) for _ in range(rng.randint(1, 4))}).encode()


def hostile_text(rng: random.Random) -> str:
    """Header-safe text (what a server decodes as latin-1): odd, long, or non-ASCII."""
    alphabet = string.printable.replace("\r", "").replace("\n", "") + "éÿ\x7f\x80"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, rng.choice((10, 300)))))


def hostile_request(rng: random.Random, token: str) -> dict[str, Any]:
    """Arguments for ``FlaskClient.open``: one fuzzed request."""
    word = rng.choice(("x", "kendall", "%ff%fe", "..%2f..", "a" * 300, "\u0661", "%00", "current", "en", "app.css"))
    path = rng.choice(ROUTES).replace("{word}", word)
    query = {rng.choice(("next", "lang", "x", "")): rng.choice(HOSTILE_TEXTS[:7] + (hostile_text(rng),)) for _ in range(rng.randint(0, 3))}
    headers = {"Accept-Language": rng.choice(("ar", "de-CH,de;q=0.8", "*", "xx-YY;q=2", hostile_text(rng)))}
    if rng.random() < 0.8:
        headers["X-CSRF-Token"] = token if rng.random() < 0.7 else hostile_text(rng)
    if rng.random() < 0.2:
        headers["Cookie"] = rng.choice(("lang=" + hostile_text(rng), "session=" + hostile_text(rng), "lang=ar"))
    content_type = rng.choice(("application/json", "application/json", "text/plain", "application/x-www-form-urlencoded",
                               "multipart/form-data; boundary=x", "application/json; charset=latin-1"))
    return {"path": path, "method": rng.choice(METHODS), "query_string": query, "headers": headers,
            "data": hostile_body(rng), "content_type": content_type}


def fuzz(client: FlaskClient, requests: int, seed: int) -> tuple[Counter[str], list[str]]:
    """Send ``requests`` fuzzed requests; the count per status class ("2xx" ...) and the 5xx ones."""
    rng = random.Random(seed)
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page)[1]
    classes: Counter[str] = Counter()
    failures: list[str] = []
    for _ in range(requests):
        request = hostile_request(rng, token)
        response = client.open(**request, buffered=False)
        if response.mimetype != "text/event-stream":
            response.get_data()  # the body too, where an error could also happen
        response.close()
        classes[f"{response.status_code // 100}xx"] += 1
        if response.status_code >= 500:
            failures.append(f"{request['method']} {request['path']} {request['query_string']} -> {response.status_code}")
    return classes, failures


def main() -> None:
    from senet.device.config import Config
    from senet.device.service import build_runtime
    from senet.web.app import create_app

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    runtime = build_runtime(Config(variant="kendall", camera="simulator"), seed=1, autoplay=False, say=lambda line: None)
    try:
        classes, failures = fuzz(create_app(runtime, keep_alive=0.05).test_client(), args.requests, args.seed)
    finally:
        runtime.close()
    print("page_fuzz requests=%d " % args.requests + " ".join(f"{name}={classes[name]}" for name in ("2xx", "3xx", "4xx", "5xx")),
          flush=True)
    for failure in failures[:20]:
        print("  5xx:", failure)


if __name__ == "__main__":
    main()
