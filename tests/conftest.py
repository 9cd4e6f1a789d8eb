"""Shared fixtures: a companion running in simulation, and Flask's test client as the page uses it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from senet.device.config import Config
from senet.device.runtime import Runtime
from senet.device.service import build_runtime
from senet.web.app import create_app


@pytest.fixture
def runtime() -> Iterator[Runtime]:
    runtime = build_runtime(Config(variant="netherworld", camera="simulator", settle_seconds=0.3, fps=20), seed=4,
                            autoplay=False, say=lambda line: None)
    yield runtime
    runtime.close()


class Client:
    """Flask's test client that sends the page's CSRF token, as the page does."""

    def __init__(self, client: Client) -> None:
        self.client = client
        page = client.get("/").get_data(as_text=True)
        self.token = re.search(r'name="csrf-token" content="([^"]+)"', page)[1]

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self.client.get(*args, **kwargs)

    def post(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("headers", {})["X-CSRF-Token"] = self.token
        return self.client.post(*args, **kwargs)


@pytest.fixture
def client(runtime: Runtime) -> Client:
    return Client(create_app(runtime).test_client())
