"""The page under load: 50 phones on the event stream while pages and /healthz are loaded.

Serves the app of a simulated companion with waitress on 127.0.0.1 (nothing leaves this
machine); the phones ask for the seven languages in turn, so every state is put into words
seven times. Publishes state changes with a time stamp, and prints the p50/p99 time of
``/healthz`` and of event delivery:

    python bench/web.py [--viewers 50] [--events 100] [--rate 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import threading
import time

from waitress.server import create_server

from senet.device.config import Config
from senet.device.service import build_runtime
from senet.web.app import create_app
from senet.web.events import StreamSlots
from senet.web.i18n import languages


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def viewer(port: int, expected: int, delays: list[float], ready: threading.Barrier, language: str) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/events", headers={"Accept-Language": language})
    response = connection.getresponse()
    ready.wait()
    received = 0
    while received < expected:
        line = response.fp.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            data = json.loads(line[6:])
            if "sent" in data:
                delays.append((time.perf_counter() - data["sent"]) * 1000)
                received += 1
    connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--rate", type=float, default=20.0, help="state changes a second")
    args = parser.parse_args()
    runtime = build_runtime(Config(variant="kendall", camera="simulator"), seed=1, autoplay=False, say=lambda line: None)
    for _ in range(12):  # a game under way: throws, the start, a log to put into words
        runtime.throw()
    state = runtime.state()
    server = create_server(create_app(runtime, keep_alive=5.0, stream_slots=StreamSlots(per_address=args.viewers, total=args.viewers)), host="127.0.0.1", port=0, threads=args.viewers + 14)
    port = server.effective_port
    threading.Thread(target=server.run, daemon=True).start()
    delays: list[float] = []
    ready = threading.Barrier(args.viewers + 1)
    codes = languages()
    viewers = [threading.Thread(target=viewer, args=(port, args.events, delays, ready, codes[number % len(codes)]), daemon=True)
               for number in range(args.viewers)]
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
        runtime.bus.publish({**state, "number": number, "sent": time.perf_counter()})
        time.sleep(1 / args.rate)
    for thread in viewers:
        thread.join(timeout=30)
    stop.set()
    for thread in loaders:
        thread.join(timeout=10)
    server.close()
    runtime.close()
    print(f"web viewers={args.viewers} events_delivered={len(delays)}/{args.viewers * args.events} "
          f"event_p50_ms={statistics.median(delays):.1f} event_p99_ms={percentile(delays, 0.99):.1f} "
          f"healthz_p50_ms={statistics.median(health):.1f} healthz_p99_ms={percentile(health, 0.99):.1f} "
          f"healthz_requests={len(health)}", flush=True)


if __name__ == "__main__":
    main()
