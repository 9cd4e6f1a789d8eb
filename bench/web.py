"""The page under load: 50 phones on the event stream while pages and /healthz are loaded.

Serves the app with waitress on 127.0.0.1 (nothing leaves this machine), publishes state
changes with a time stamp, and prints the p50/p99 time of ``/healthz`` and of event delivery:

    python bench/web.py [--viewers 50] [--events 100] [--rate 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import threading
import time
from typing import Any

from waitress.server import create_server

from senet.web.app import create_app
from senet.web.events import EventBus


class StubRuntime:
    """Just enough of the companion for the page: a state and its event bus."""

    def __init__(self) -> None:
        self.bus = EventBus()

    def state(self) -> dict[str, Any]:
        return {"variant": "kendall", "board": "LDLDLDLDLD" + "." * 20, "sent": time.perf_counter()}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def viewer(port: int, expected: int, delays: list[float], ready: threading.Barrier) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/events")
    response = connection.getresponse()
    ready.wait()
    received = 0
    while received < expected:
        line = response.fp.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            data = json.loads(line[6:])
            if "event" in data:
                delays.append((time.perf_counter() - data["sent"]) * 1000)
                received += 1
    connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--rate", type=float, default=20.0, help="state changes a second")
    args = parser.parse_args()
    runtime = StubRuntime()
    server = create_server(create_app(runtime, keep_alive=5.0), host="127.0.0.1", port=0, threads=args.viewers + 14)
    port = server.effective_port
    threading.Thread(target=server.run, daemon=True).start()
    delays: list[float] = []
    ready = threading.Barrier(args.viewers + 1)
    viewers = [threading.Thread(target=viewer, args=(port, args.events, delays, ready), daemon=True) for _ in range(args.viewers)]
    for thread in viewers:
        thread.start()
    ready.wait()
    while runtime.bus.viewers < args.viewers:
        time.sleep(0.01)
    health: list[float] = []
    stop = threading.Event()

    def load() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while not stop.is_set():
            for path in ("/healthz", "/"):
                began = time.perf_counter()
                connection.request("GET", path)
                connection.getresponse().read()
                if path == "/healthz":
                    health.append((time.perf_counter() - began) * 1000)
            time.sleep(0.02)
        connection.close()

    loaders = [threading.Thread(target=load, daemon=True) for _ in range(4)]
    for thread in loaders:
        thread.start()
    for number in range(args.events):
        runtime.bus.publish({"event": number, "sent": time.perf_counter()})
        time.sleep(1 / args.rate)
    for thread in viewers:
        thread.join(timeout=30)
    stop.set()
    for thread in loaders:
        thread.join(timeout=10)
    server.close()
    print(f"web viewers={args.viewers} events_delivered={len(delays)}/{args.viewers * args.events} "
          f"event_p50_ms={statistics.median(delays):.1f} event_p99_ms={percentile(delays, 0.99):.1f} "
          f"healthz_p50_ms={statistics.median(health):.1f} healthz_p99_ms={percentile(health, 0.99):.1f} "
          f"healthz_requests={len(health)}", flush=True)


if __name__ == "__main__":
    main()
