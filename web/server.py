"""Serving the page with waitress: threads fitted to the app's event-stream caps, clear errors.

Every open event stream holds a thread, and ``StreamSlots`` caps them; waitress gets that many
threads and ``PAGE_THREADS`` more, so pages, the API and ``/healthz`` are always answered.
A busy port or a host that is not this machine's is a ``ServerError`` that says what to do:

    >>> from senet.web.app import create_app
    >>> server = make_server(create_app(runtime=None), "127.0.0.1", 0)
    >>> make_server(create_app(runtime=None), "127.0.0.1", int(server.effective_port))
    Traceback (most recent call last):
    senet.web.server.ServerError: port ... is already in use (is another senet run going?): choose another with --port
    >>> server.close()
"""

from __future__ import annotations

import errno

from flask import Flask
from waitress.server import BaseWSGIServer, MultiSocketServer, create_server

from senet.web.events import StreamSlots

#: Threads kept for everything but event streams.
PAGE_THREADS = 8
#: Open connections (streams, phones' idle keep-alive connections, refused ones not yet closed).
CONNECTION_LIMIT = 512


class ServerError(OSError):
    """The page cannot be served where it was asked to be (the message says why and what to do)."""


def make_server(app: Flask, host: str, port: int) -> BaseWSGIServer | MultiSocketServer:
    """A waitress server for ``app`` listening on ``host``:``port`` (0: any free port, see
    ``effective_port``); ``run()`` serves, ``close()`` stops listening."""
    if not 0 <= port <= 65535:
        raise ServerError(f"port {port} does not exist: choose one from 1024 to 65535 with --port")
    slots: StreamSlots = app.config["STREAM_SLOTS"]
    try:
        return create_server(app, host=host, port=port, threads=slots.total + PAGE_THREADS,
                             connection_limit=CONNECTION_LIMIT, ident="senet")
    except ValueError as error:  # waitress: a host name that does not resolve
        raise ServerError(f"cannot serve the page on {host!r}: it is neither an address nor a name of this machine") from error
    except OSError as error:
        raise ServerError(_explain(error, host, port)) from error


def _explain(error: OSError, host: str, port: int) -> str:
    if error.errno == errno.EADDRINUSE:
        return f"port {port} is already in use (is another senet run going?): choose another with --port"
    if error.errno == errno.EADDRNOTAVAIL:
        return f"{host} is not an address of this machine: use 0.0.0.0 (every address) or one of its own"
    if error.errno == errno.EACCES:
        return f"port {port} needs administrator rights: choose one above 1023 with --port"
    return f"cannot serve the page on {host}:{port}: {error.strerror or error}"

