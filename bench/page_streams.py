"""The page when one phone (or an attacker) opens far too many event streams.

Serves the real app, with a stub companion, through ``senet.web.server`` on 127.0.0.1 (an
ephemeral port; nothing leaves this machine). From that one address it opens ``--streams``
``/events`` streams and ``--silent`` sockets that ask for ``/events`` and never read, then
times ``/healthz`` and prints its p50/p99 and how many streams were refused (goal: p99 < 100 ms).
With ``--addresses N`` the streams come from 127.0.0.1 to 127.0.0.N in turn (many phones: the
global cap is reached instead):

    python bench/page_streams.py [--streams 200] [--silent 80] [--requests 200] [--addresses 1]
"""

from __future__ import annotations

import argparse
import http.client
import socket
import statistics
import threading
import time
from typing import Any

from senet.web.app import create_app
from senet.web.events import EventBus
from senet.web.server import make_server


class StubRuntime:
    """Just enough of a companion for the page: a state that never changes, and its bus."""

    simulated = True

    def __init__(self) -> None:
        self.bus = EventBus()

    def state(self) -> dict[str, Any]:
        return {"variant": "kendall", "turn": "dark", "log": []}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def open_stream(port: int, address: str) -> tuple[socket.socket, int]:
    """A socket from ``address`` that asked for ``/events``, and the status it got (open while the stream runs)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(address, 0))
    connection.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    status_line = connection.makefile("rb").readline()
    return connection, int(status_line.split()[1])


def silent_socket(port: int) -> socket.socket:
    """A socket that asks for ``/events`` and never reads the answer."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    connection.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    return connection


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--silent", type=int, default=80)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--addresses", type=int, default=1, choices=range(1, 255), metavar="1-254")
    args = parser.parse_args()
    app = create_app(StubRuntime(), keep_alive=0.2)
    server = make_server(app, "127.0.0.1", 0)
    port = int(server.effective_port)
    threading.Thread(target=server.run, daemon=True).start()
    held: list[socket.socket] = []
    refused = 0
    for number in range(args.streams):
        connection, status = open_stream(port, f"127.0.0.{number % args.addresses + 1}")
        if status == 200:
            held.append(connection)
        else:
            refused += 1
            connection.close()
    held += [silent_socket(port) for _ in range(args.silent)]
    time.sleep(0.5)  # the silent requests reach the server
    health: list[float] = []
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for _ in range(args.requests):
        began = time.perf_counter()
        connection.request("GET", "/healthz")
        connection.getresponse().read()
        health.append((time.perf_counter() - began) * 1000)
    connection.close()
    for sock in held:
        sock.close()
    slots = app.config["STREAM_SLOTS"]
    deadline = time.monotonic() + 5
    while slots.open and time.monotonic() < deadline:  # streams end at their next keep-alive
        time.sleep(0.05)
    server.close()
    print(f"healthz p50_ms={statistics.median(health):.1f} p99_ms={percentile(health, 0.99):.1f} "
          f"refused_streams={refused}/{args.streams} silent_sockets={args.silent} requests={len(health)}", flush=True)


if __name__ == "__main__":
    main()
