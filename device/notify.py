"""Telling systemd the companion is up and alive (``sd_notify``): one datagram to ``$NOTIFY_SOCKET``.

The unit (``systemd/senet-companion.service``) is ``Type=notify`` with a watchdog: the
companion says ``READY=1`` once the camera is calibrated and the page is served, and the
companion loop says ``WATCHDOG=1`` after every round it finishes; if the loop hangs the
datagrams stop and systemd restarts the service. Without ``$NOTIFY_SOCKET`` (not started by
systemd) every call does nothing. The protocol is a single datagram, so no library is needed
(python-systemd must be built against libsystemd, which a virtualenv does not have).

    >>> notifier = Notifier(socket_path="")
    >>> notifier.ready(), notifier.alive(now=0.0)
    (False, False)
"""

from __future__ import annotations

import os
import socket


class Notifier:
    """Datagrams to systemd's notification socket; ``alive`` sends at most one per ``interval``."""

    def __init__(self, socket_path: str | None = None, interval: float | None = None) -> None:
        self.socket_path = os.environ.get("NOTIFY_SOCKET", "") if socket_path is None else socket_path
        watchdog_us = os.environ.get("WATCHDOG_USEC", "")
        #: Half the watchdog's period, as systemd advises (10 s when it gives none).
        self.interval = interval if interval is not None else (int(watchdog_us) / 2e6 if watchdog_us.isdigit() else 10.0)
        self._last = float("-inf")

    def send(self, message: str) -> bool:
        """Send one notification; False when there is no socket to send to (or it is gone)."""
        if not self.socket_path:
            return False
        address = "\0" + self.socket_path[1:] if self.socket_path.startswith("@") else self.socket_path
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as channel:
                channel.connect(address)
                channel.sendall(message.encode())
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> bool:
        """The service is up: systemd's start job is done."""
        return self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def alive(self, now: float) -> bool:
        """Feed the watchdog (at most once per ``interval``); ``now`` is a monotonic time."""
        if now - self._last < self.interval:
            return False
        self._last = now
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")
