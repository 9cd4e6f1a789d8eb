"""Server-Sent Events: every viewer gets the companion's state as it changes.

Each viewer has a small queue; a slow phone loses old states, never blocks the referee.
A state is put into words (``render``) once per language however many phones watch it.
The stream sends a keep-alive comment every ``keep_alive`` seconds and tells browsers to
reconnect after two seconds (after a Pi restart, or a phone that slept). A stream
subscribes when it is first read, so a stream never read (a HEAD request) costs nothing.

    >>> bus = EventBus()
    >>> events = stream(bus, keep_alive=0.01, initial=None)
    >>> next(events), bus.viewers
    ('retry: 2000\\n\\n', 1)
    >>> bus.publish({"turn": "dark"})
    >>> next(events)
    'data: {"turn": "dark"}\\n\\n'
    >>> events.close(); bus.viewers
    0

Every open stream holds one of the server's threads, so ``StreamSlots`` caps them: a few
per address, and in all well below the server's threads, so pages are always answered.
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


def stream(bus: EventBus, keep_alive: float = 15.0, initial: dict[str, Any] | None = None,
           render: Render | None = None, language: str = "") -> Iterator[str]:
    """The text of one viewer's event stream in its ``language`` (ends when the viewer goes away)."""
    viewer = bus.subscribe()
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


class StreamRefused(Exception):
    """No slot for another stream: ``status`` 429 (this address has enough) or 503 (the server has)."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


class StreamSlots:
    """Open event streams: at most ``per_address`` from one address and ``total`` in all.

    >>> slots = StreamSlots(per_address=1, total=2)
    >>> slots.take("10.0.0.5"); slots.take("10.0.0.6")
    >>> slots.take("10.0.0.5")
    Traceback (most recent call last):
    senet.web.events.StreamRefused: 1 event streams are open from this address already
    >>> slots.release("10.0.0.5"); slots.open
    1
    """

    def __init__(self, per_address: int = 4, total: int = 48) -> None:
        self.per_address, self.total = per_address, total
        self.open = 0
        self._by_address: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, address: str) -> None:
        """A slot for a stream from ``address``, or ``StreamRefused``."""
        with self._lock:
            held = self._by_address.get(address, 0)
            if held >= self.per_address:
                raise StreamRefused(429, f"{held} event streams are open from this address already")
            if self.open >= self.total:
                raise StreamRefused(503, f"{self.total} event streams are open: the page is busy")
            self._by_address[address] = held + 1
            self.open += 1

    def release(self, address: str) -> None:
        with self._lock:
            held = self._by_address.pop(address, 0)
            if held > 1:
                self._by_address[address] = held - 1
            self.open -= min(held, 1)


class HeldStream:
    """A stream's body that gives its slot back when the server closes it, read or not
    (a generator never started would not run its ``finally``)."""

    def __init__(self, chunks: Iterator[Any], release: Callable[[], None]) -> None:
        self._chunks, self._release = chunks, release
        self._released = False
        self._lock = threading.Lock()

    def __iter__(self) -> HeldStream:
        return self

    def __next__(self) -> Any:
        return next(self._chunks)

    def close(self) -> None:
        try:
            close = getattr(self._chunks, "close", None)
            if close is not None:
                close()
        finally:
            with self._lock:
                released, self._released = self._released, True
            if not released:
                self._release()
