"""Server-Sent Events: every viewer gets the companion's state as it changes.

Each viewer has a small queue; a slow phone loses old states, never blocks the referee.
The stream sends a keep-alive comment every ``keep_alive`` seconds and tells browsers to
reconnect after two seconds (after a Pi restart, or a phone that slept).

    >>> bus = EventBus()
    >>> viewer = bus.subscribe()
    >>> bus.publish({"turn": "dark"})
    >>> next(stream(bus, viewer, keep_alive=0.01, initial=None))
    'retry: 2000\\n\\n'
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator
from typing import Any

MAX_WAITING = 16


class EventBus:
    """Fan-out of state snapshots to every open event stream."""

    def __init__(self) -> None:
        self._viewers: set[queue.Queue[str]] = set()
        self._lock = threading.Lock()

    def subscribe(self) -> queue.Queue[str]:
        viewer: queue.Queue[str] = queue.Queue(maxsize=MAX_WAITING)
        with self._lock:
            self._viewers.add(viewer)
        return viewer

    def unsubscribe(self, viewer: queue.Queue[str]) -> None:
        with self._lock:
            self._viewers.discard(viewer)

    @property
    def viewers(self) -> int:
        return len(self._viewers)

    def publish(self, data: dict[str, Any]) -> None:
        message = f"data: {json.dumps(data)}\n\n"
        with self._lock:
            viewers = list(self._viewers)
        for viewer in viewers:
            try:
                viewer.put_nowait(message)
            except queue.Full:  # a slow viewer: drop its oldest state, keep the newest
                try:
                    viewer.get_nowait()
                    viewer.put_nowait(message)
                except (queue.Empty, queue.Full):
                    pass


def stream(bus: EventBus, viewer: queue.Queue[str], keep_alive: float = 15.0, initial: dict[str, Any] | None = None) -> Iterator[str]:
    """The text of one viewer's event stream (ends when the viewer goes away)."""
    try:
        yield "retry: 2000\n\n"
        if initial is not None:
            yield f"data: {json.dumps(initial)}\n\n"
        while True:
            try:
                yield viewer.get(timeout=keep_alive)
            except queue.Empty:
                yield ": keep-alive\n\n"
    finally:
        bus.unsubscribe(viewer)
