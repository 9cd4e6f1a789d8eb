"""The page against an attacker on the network: capped event streams, no leaked viewers, no
redirect off the site, no 500 for any body, header or PIN, sign-outs that hold, a server
that says why it cannot start, and fuzzed requests that never get a 5xx."""

from __future__ import annotations

import re
import socket
import threading
import time
import unicodedata
from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from bench_helpers import load_bench
from conftest import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.device.service import Runtime
from senet.web.app import create_app
from senet.web.events import StreamSlots
from senet.web.server import ServerError, make_server

POST_ROUTES = ("/admin/login", "/api/settings", "/api/new-game", "/api/teaching", "/api/position", "/api/move")


def open_stream(client: Any, address: str = "127.0.0.1") -> Any:
    return client.get("/events", buffered=False, environ_base={"REMOTE_ADDR": address})


def test_event_streams_are_capped_per_address_and_in_all(runtime: Runtime) -> None:
    """(Streams in the test client share one thread: they are closed last opened first.)"""
    client = create_app(runtime, stream_slots=StreamSlots(per_address=2, total=3)).test_client()
    first, second = open_stream(client), open_stream(client)
    refused = open_stream(client)
    assert (first.status_code, second.status_code, refused.status_code) == (200, 200, 429)
    assert refused.mimetype == "text/plain" and int(refused.headers["Retry-After"]) > 0
    assert "from this address" in refused.get_data(as_text=True)
    other = open_stream(client, "10.0.0.9")
    busy = open_stream(client, "10.0.0.10")
    assert other.status_code == 200 and busy.status_code == 503 and int(busy.headers["Retry-After"]) > 0
    other.close()  # a stream that ends gives its slot back, whether it was read or not
    again = open_stream(client, "10.0.0.10")
    assert again.status_code == 200
    for response in (again, second, first):
        response.close()
    assert client.application.config["STREAM_SLOTS"].open == 0


def test_head_requests_and_dropped_streams_leave_no_viewer(runtime: Runtime) -> None:
    app = create_app(runtime, keep_alive=0.05)
    client, bus, slots = app.test_client(), app.config["BUS"], app.config["STREAM_SLOTS"]
    for _ in range(1000):
        reply = client.head("/events")
        assert reply.status_code == 200 and reply.mimetype == "text/event-stream"
    assert bus.viewers == 0 and slots.open == 0
    for reads in (0, 1, 3):  # dropped before, at and after the first state
        response = open_stream(client)
        chunks = iter(response.response)
        for _ in range(reads):
            next(chunks)
        response.close()
    assert bus.viewers == 0 and slots.open == 0


def browser_target(location: str) -> str:
    """Where a browser goes for a Location header on http://localhost/: it drops tabs and
    newlines, trims controls and spaces, and reads backslashes as slashes."""
    cleaned = re.sub(r"[\t\n\r]", "", location).strip("".join(map(chr, range(33)))).replace("\\", "/")
    return urlsplit(urljoin("http://localhost/page", cleaned)).netloc


LANGUAGE_CLIENT = create_app(runtime=None).test_client()


@pytest.mark.parametrize("target", ["/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "/\\evil.example",
                                    "\\\\evil.example", "//evil.example", "https://evil.example/", " //evil.example",
                                    "/\x00/evil.example", "/\u3000/evil.example", "javascript:alert(1)", "/%09/evil.example"])
def test_the_language_switch_never_sends_the_visitor_to_another_site(target: str) -> None:
    reply = LANGUAGE_CLIENT.get("/language/en", query_string={"next": target})
    assert reply.status_code == 302 and browser_target(reply.headers["Location"]) == "localhost"
    assert LANGUAGE_CLIENT.get("/language/en?next=/%09/evil.example").headers["Location"] == "/"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("/\\\t\n\r .:@?#%ae\x00\x7f\u3000\u2028\ufeff/"), max_size=12) | st.text(max_size=20))
def test_any_next_value_gives_a_redirect_to_this_site(target: str) -> None:
    reply = LANGUAGE_CLIENT.get("/language/de", query_string={"next": target})
    assert reply.status_code == 302 and browser_target(reply.headers["Location"]) == "localhost"


def test_a_page_s_own_path_is_kept(client: Client) -> None:
    assert client.get("/language/it?next=/rules/kendall?x=1").headers["Location"] == "/rules/kendall?x=1"


@pytest.mark.parametrize("body", [b"[" * 2000, b'{"a":' * 600 + b"1" + b"}" * 600, b'{"pin": "\xff\xfe"}', b"NaN",
                                  b'{"throw": Infinity}', b'{"settle_seconds": 1e999}', b"\x00", b'{"from": 1, "to": '])
def test_a_body_that_is_not_one_small_json_value_is_a_clear_400(body: bytes) -> None:
    client = Client(create_app(runtime=None).test_client())  # the body is read before the companion is asked
    for route in POST_ROUTES:
        reply = client.post(route, data=body, content_type="application/json")
        assert reply.status_code == 400 and "JSON" in reply.get_json()["error"], route


def test_nested_values_in_the_settings_are_a_clear_400(client: Client) -> None:
    reply = client.post("/api/settings", json={"variant": {"a": 1}})
    assert reply.status_code == 400 and reply.get_json()["error"]


@pytest.mark.parametrize("token", ["é", "ÿ" * 40, "\x7f", "٢٤٦٨".encode().decode("latin-1")])
def test_an_odd_csrf_token_is_refused_not_an_error(token: str) -> None:
    client = create_app(runtime=None).test_client()
    client.get("/")
    reply = client.post("/api/throw", headers={"X-CSRF-Token": token})
    assert reply.status_code == 403 and "CSRF" in reply.get_json()["error"]


@pytest.mark.parametrize("pin", ["٢٤٦٨", "Café", "Cafe\u0301", "2468"])
def test_any_pin_signs_in_when_typed_the_same_way(pin: str) -> None:
    client = Client(create_app(runtime=None, admin_pin=pin).test_client())
    for wrong in ("\ud800", "٢٤٦٧", "\x00", "é" * 100):
        assert client.post("/admin/login", json={"pin": wrong}).status_code == 403
    assert client.post("/admin/login", json={"pin": unicodedata.normalize("NFD", pin)}).get_json() == {"admin": True}


def test_a_session_cookie_copied_before_sign_out_signs_nobody_in(runtime: Runtime) -> None:
    app = create_app(runtime, admin_pin="2468")
    operator = Client(app.test_client())
    operator.post("/admin/login", json={"pin": "2468"})
    copied = operator.client.get_cookie("session").value
    thief = app.test_client()
    thief.set_cookie("session", copied)
    headers = {"X-CSRF-Token": operator.token}
    assert thief.post("/api/undo", headers=headers).status_code == 409  # the copy works while signed in (no move to take back)
    operator.post("/admin/logout")
    assert thief.post("/api/undo", headers=headers).status_code == 401
    operator.post("/admin/login", json={"pin": "2468"})
    copied = operator.client.get_cookie("session").value
    operator.post("/admin/login", json={"pin": "2468"})  # a new sign-in ends the one before
    thief.set_cookie("session", copied)
    assert thief.post("/api/undo", headers=headers).status_code == 401
    assert operator.post("/api/undo").status_code == 409


@pytest.fixture
def served(runtime: Runtime) -> Iterator[tuple[int, Any]]:
    """The page on a real waitress server on 127.0.0.1 (any free port), two streams per address."""
    app = create_app(runtime, keep_alive=0.05, stream_slots=StreamSlots(per_address=2, total=10))
    server = make_server(app, "127.0.0.1", 0)
    threading.Thread(target=server.run, daemon=True).start()
    yield int(server.effective_port), app
    slots = app.config["STREAM_SLOTS"]
    deadline = time.monotonic() + 5
    while slots.open and time.monotonic() < deadline:  # dropped streams end at their next keep-alive
        time.sleep(0.02)
    server.close()


def ask(port: int, path: str) -> tuple[socket.socket, bytes]:
    """A socket that asked for ``path``, and the status line of the answer."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=5)
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return connection, connection.makefile("rb").readline()


def test_with_the_stream_cap_reached_the_page_still_answers(served: tuple[int, Any]) -> None:
    port, app = served
    streams = [ask(port, "/events") for _ in range(2)]
    assert all(b" 200 " in status for _, status in streams)
    health, status = ask(port, "/healthz")
    assert b" 200 " in status
    refused, status = ask(port, "/events")
    assert b" 429 " in status
    for connection in (health, refused, *(connection for connection, _ in streams)):
        connection.close()
    deadline = time.monotonic() + 5
    while app.config["BUS"].viewers and time.monotonic() < deadline:  # a dropped phone ends its stream
        time.sleep(0.02)
    assert app.config["BUS"].viewers == 0


def test_a_busy_port_or_a_foreign_host_is_a_clear_error(served: tuple[int, Any]) -> None:
    port, app = served
    with pytest.raises(ServerError, match=f"port {port} is already in use .*--port"):
        make_server(app, "127.0.0.1", port)
    with pytest.raises(ServerError, match="not an address of this machine"):
        make_server(app, "192.0.2.1", 0)  # TEST-NET-1: no machine's own address


def test_fuzzed_requests_never_get_a_5xx(runtime: Runtime) -> None:
    """bench/page_fuzz.py's requests, fewer and with a fixed seed."""
    classes, failures = load_bench("page_fuzz").fuzz(create_app(runtime, keep_alive=0.05).test_client(), 300, seed=7)
    assert sum(classes.values()) == 300 and not failures, failures
