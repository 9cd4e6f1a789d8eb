"""Server-Sent Events: every viewer gets the companion's state as it changes.

Each viewer has a small queue; a slow phone loses old states, never blocks the referee.
A state is put into words (``render``) once per language however many phones watch it.
The stream sends a keep-alive comment every ``keep_alive`` seconds and tells browsers to
reconnect after two seconds (after a Pi restart, or a phone that slept).

    >>> bus = EventBus()
    >>> viewer = bus.subscribe()
    >>> bus.publish({"turn": "dark"})
    >>> events = stream(bus, viewer, keep_alive=0.01, initial=None)
    >>> next(events), next(events)
    ('retry: 2000\\n\\n', 'data: {"turn": "dark"}\\n\\n')
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

MAX_WAITING = 16

Render = Callable[[dict[str, Any]], dict[str, Any]]


class Snapshot:
    """One published state; its event text is made at most once per language."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self._texts: dict[str, str] = {}
        self._lock = threading.Lock()

    def text(self, render: Render | None = None, language: str = "") -> str:
        text = self._texts.get(language)
        if text is None:
            with self._lock:  # the phones of one language wake together: one of them makes the text
                text = self._texts.get(language)
                if text is None:
                    text = self._texts[language] = f"data: {json.dumps(render(self.data) if render else self.data)}\n\n"
        return text


class EventBus:
    """Fan-out of state snapshots to every open event stream."""

    def __init__(self) -> None:
        self._viewers: set[queue.Queue[Snapshot]] = set()
        self._lock = threading.Lock()

    def subscribe(self) -> queue.Queue[Snapshot]:
        viewer: queue.Queue[Snapshot] = queue.Queue(maxsize=MAX_WAITING)
        with self._lock:
            self._viewers.add(viewer)
        return viewer

    def unsubscribe(self, viewer: queue.Queue[Snapshot]) -> None:
        with self._lock:
            self._viewers.discard(viewer)

    @property
    def viewers(self) -> int:
        return len(self._viewers)

    def publish(self, data: dict[str, Any]) -> None:
        snapshot = Snapshot(data)
        with self._lock:
            viewers = list(self._viewers)
        for viewer in viewers:
            try:
                viewer.put_nowait(snapshot)
            except queue.Full:  # a slow viewer: drop its oldest state, keep the newest
                try:
                    viewer.get_nowait()
                    viewer.put_nowait(snapshot)
                except (queue.Empty, queue.Full):
                    pass


def stream(bus: EventBus, viewer: queue.Queue[Snapshot], keep_alive: float = 15.0, initial: dict[str, Any] | None = None,
           render: Render | None = None, language: str = "") -> Iterator[str]:
    """The text of one viewer's event stream in its ``language`` (ends when the viewer goes away)."""
    try:
        yield "retry: 2000\n\n"
        if initial is not None:
            yield Snapshot(initial).text(render, language)
        while True:
            try:
                yield viewer.get(timeout=keep_alive).text(render, language)
            except queue.Empty:
                yield ": keep-alive\n\n"
    finally:
        bus.unsubscribe(viewer)
