"""The page in a real headless Chromium (Debian's package, driven by Playwright; no browser is
downloaded): on a phone-sized screen a throw and a move made on the page appear live."""

from __future__ import annotations

import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    from waitress.server import create_server

    from senet.device.config import Config
    from senet.device.service import build_runtime
    from senet.web.app import create_app

    runtime = build_runtime(Config(variant="houses", camera="simulator", settle_seconds=0.3, fps=20), seed=5,
                            autoplay=False, say=lambda line: None)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = create_server(create_app(runtime), host="127.0.0.1", port=port, threads=16)
    threading.Thread(target=server.run, daemon=True).start()
    loop = threading.Thread(target=runtime.loop, daemon=True)
    loop.start()
    yield f"http://127.0.0.1:{port}/"
    runtime.close()
    server.close()


def test_a_move_made_on_the_phone_appears_live(page_url: str) -> None:
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
        page.goto(page_url)
        page.wait_for_selector('[aria-label="square 30"]')
        for _ in range(20):  # throw until the start is decided and a move is possible
            page.click("#throw")
            page.wait_for_timeout(150)
            if ": " in page.inner_text("#status") and "no move" not in page.inner_text("#status"):
                break
        status = page.inner_text("#status")
        start, end = status.split(": ")[1].split(",")[0].split("-")
        page.click(f'[aria-label="square {start}"]')
        page.click(f'[aria-label="square {end}"]')
        page.wait_for_function(f"document.getElementById('log').innerText.includes('move {start}-{end}')", timeout=15000)
        assert page.locator(".led.green.on").count() == 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "phone-page.png"), full_page=True)
        browser.close()
