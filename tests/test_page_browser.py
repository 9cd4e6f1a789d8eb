"""The page in a real headless Chromium (Debian's package, driven by Playwright; no browser is
downloaded), on phone-sized screens: a move made on one phone appears live on another, the
language switch is remembered, and Arabic reads right to left. Screenshots go to test-artifacts/."""

from __future__ import annotations

import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from senet.web.i18n import TRANSLATIONS

playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def translated(code: str, text: str) -> str:
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", "rb") as file:
        return read_po(file)[text].string


def served(runtime: Any) -> Iterator[str]:
    """The page of ``runtime`` on a free port of 127.0.0.1, its companion loop running; closed afterwards."""
    from waitress.server import create_server

    from senet.device.loop import CompanionLoop
    from senet.web.app import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = create_server(create_app(runtime), host="127.0.0.1", port=port, threads=16)
    threading.Thread(target=server.run, daemon=True).start()
    threading.Thread(target=CompanionLoop(runtime).run, daemon=True).start()
    yield f"http://127.0.0.1:{port}/"
    runtime.close()
    server.close()


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    from senet.device.config import Config
    from senet.device.service import build_runtime

    runtime = build_runtime(Config(variant="houses", camera="simulator", settle_seconds=0.3, fps=20), seed=5,
                            autoplay=False, say=lambda line: None)
    yield from served(runtime)


@pytest.fixture(scope="module")
def kept_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A companion that keeps its matches, with one match of a few throws and moves played."""
    from senet.device.config import Config
    from senet.device.service import build_runtime
    from senet.engine.board import format_board

    store = tmp_path_factory.mktemp("store") / "matches.db"
    runtime = build_runtime(Config(variant="kendall", camera="simulator", store=str(store)), seed=3, autoplay=False,
                            say=lambda line: None)
    companion = runtime.companion
    for _ in range(6):
        companion.electronic_throw()
        game = companion.referee.game
        if game.current_throw is not None and game.options.moves:
            companion.settled_board(format_board(game.options.moves[0].after))
    runtime.table.set_up(companion.referee.expected_text)  # the simulated camera sees the board as played
    yield from served(runtime)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield browser
        browser.close()


def phone(browser: Any, locale: str) -> Any:
    """A new phone (its own cookies) whose browser prefers ``locale``."""
    return browser.new_context(locale=locale, **PHONE).new_page()


def test_a_move_made_on_one_phone_appears_live_on_another(browser: Any, page_url: str) -> None:
    player, watcher = phone(browser, "en-GB"), phone(browser, "hu-HU")
    for page in (player, watcher):
        page.goto(page_url)
        page.wait_for_selector('.sq[data-square="30"]')
    assert watcher.get_attribute("html", "lang") == "hu"
    moves: list[dict[str, Any]] = []
    for _ in range(30):  # throw until the start is decided and a move is possible
        player.click("#throw")
        player.wait_for_timeout(150)
        moves = player.evaluate("last.moves")
        if moves:
            break
    move = moves[0]
    player.click(f'.sq[data-square="{move["from"]}"]')
    player.click(f'.sq[data-square="{move["to"]}"]')
    seen = f"{move['from']}-{move['to']}"
    for page in (player, watcher):  # through the simulated camera, vision and referee, to both phones
        page.wait_for_function(f"[...document.querySelectorAll('#log li.move')].some(li => li.innerText.includes('{seen}'))",
                               timeout=15000)
    assert player.locator(".led.green.on").count() == 1
    assert translated("hu", "Move") in watcher.inner_text("#log li.move")
    ARTIFACTS.mkdir(exist_ok=True)
    player.screenshot(path=str(ARTIFACTS / "phone-page.png"), full_page=True)
    watcher.screenshot(path=str(ARTIFACTS / "phone-page-hu.png"), full_page=True)


def test_the_language_switch_is_remembered_and_arabic_reads_right_to_left(browser: Any, page_url: str) -> None:
    page = phone(browser, "en-US")
    page.goto(page_url)
    assert page.get_attribute("html", "lang") == "en" and page.inner_text("#throw") == "Throw the sticks"
    page.click('.languages a[lang="ar"]')
    page.wait_for_selector('html[lang="ar"][dir="rtl"]')
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    assert page.inner_text("#throw") == translated("ar", "Throw the sticks")
    page.wait_for_function("document.getElementById('status').innerText.length > 0")
    status = page.inner_text("#status")
    assert status and not any("a" <= char.lower() <= "z" for char in status)  # the live state is in Arabic too
    board = page.locator(".board").bounding_box()  # the board is not mirrored: square 1 stays on the left
    assert page.locator('.sq[data-square="1"]').bounding_box()["x"] < board["x"] + board["width"] / 2
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "phone-page-ar.png"), full_page=True)
    page.reload()
    assert page.get_attribute("html", "lang") == "ar"  # remembered
    page.goto(page_url + "rules/houses")
    assert page.get_attribute("html", "dir") == "rtl" and translated("ar", "Winning") in page.inner_text("dl.rules")
    page.click('.languages a[lang="de"]')
    page.wait_for_selector('html[lang="de"][dir="ltr"]')
    assert page.url.endswith("/rules/houses")  # the switch stays on the page the visitor was reading


def test_a_kept_match_is_stepped_through_with_the_buttons_and_the_arrow_keys(browser: Any, kept_url: str) -> None:
    page = phone(browser, "en-GB")
    page.goto(kept_url + "matches")
    page.click('a[href="/matches/1"]')
    page.wait_for_selector('.sq[data-square="30"]')
    pieces = "[...document.querySelectorAll('.sq')].map(cell => cell.dataset.piece || '.').join('')"
    boards = page.evaluate("[...document.querySelectorAll('#steps li')].map(item => item.dataset.board)")
    assert page.evaluate(pieces) == boards[0] and page.inner_text("#step-number") == f"Step 0 of {len(boards) - 1}"
    moved = next(number for number, board in enumerate(boards) if board != boards[0])
    for _ in range(moved):
        page.click("#next")
    assert page.evaluate(pieces) == boards[moved] != boards[0]  # the board changed, without loading the page again
    assert page.url.endswith(f"?step={moved}") and "Move" in page.inner_text("#step-event")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(pieces) == boards[moved - 1] and page.inner_text("#step-number").startswith(f"Step {moved - 1} ")
    page.keyboard.press("End")
    assert page.evaluate(pieces) == boards[-1]
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert page.locator("#steps li[aria-current]").inner_text() == page.locator("#steps li").nth(1).inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "phone-match.png"), full_page=True)


@pytest.fixture(scope="module")
def grid_url() -> Iterator[str]:
    """A simulated RAMSES table; the page may switch it to PHARAO."""
    from senet.device.config import Config
    from senet.device.service import build_runtime

    runtime = build_runtime(Config(variant="ramses", camera="simulator", settle_seconds=0.3, fps=20), seed=9,
                            autoplay=False, say=lambda line: None)
    yield from served(runtime)


def test_ramses_draws_its_long_and_marked_squares_and_a_tap_places_a_piece(browser: Any, grid_url: str) -> None:
    page = phone(browser, "en-GB")
    page.goto(grid_url)
    page.wait_for_function("document.getElementById('status').innerText.includes('places a piece')", timeout=30000)
    assert page.locator("rect.long").count() == 2 and page.locator("desc.marked").count() == 5
    assert page.locator("#throw").count() == 0  # nothing is thrown in RAMSES
    long_cell = page.locator("rect.long").first.bounding_box()
    assert long_cell["width"] > 2.5 * page.locator('.sq[data-square="1"] rect').bounding_box()["width"]
    page.click('.sq[data-square="12"]')  # dark places a piece in the middle third of 11-13
    page.wait_for_function("[...document.querySelectorAll('#log li.move')].some(li => li.innerText.includes('off-12'))",
                           timeout=15000)
    assert page.get_attribute('.sq[data-square="12"]', "data-piece") == "D"
    page.wait_for_function("document.getElementById('status').innerText.startsWith('Light places a piece')")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "phone-ramses.png"), full_page=True)


def test_pharao_throws_both_dice_and_the_page_shows_them(browser: Any, grid_url: str) -> None:
    page = phone(browser, "en-GB")
    page.goto(grid_url + "admin")
    page.evaluate("""fetch('/api/new-game', {method: 'POST', headers: {'Content-Type': 'application/json',
        'X-CSRF-Token': document.querySelector('meta[name=csrf-token]').content}, body: JSON.stringify({variant: 'pharao'})})""")
    page.goto(grid_url)
    page.wait_for_selector('svg.board[data-layout="senet"]')
    assert page.inner_text("#throw") == "Throw the dice" and page.locator("#enter-dice").count() == 1
    page.select_option("#own-die", "2")
    page.select_option("#other-die", "1")
    page.click("#enter-dice")
    page.wait_for_function("document.getElementById('status').innerText.startsWith('Dice 2 and 1')", timeout=15000)
    assert "light moves one of their own pieces" in page.inner_text("#status")
    assert "2+1" in page.inner_text("#log li.throw")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "phone-pharao.png"), full_page=True)
