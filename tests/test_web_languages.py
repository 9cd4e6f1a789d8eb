"""The page in the visitor's language: Accept-Language, the remembered switcher, right to left,
and the referee's words (illegal moves above all) in each viewer's own language."""

from __future__ import annotations

import json

import pytest
from babel.messages.pofile import read_po
from conftest import Client
from flask import Flask

from senet.device.service import Runtime
from senet.engine.rulebook import rule
from senet.web import i18n
from senet.web.app import create_app
from senet.web.i18n import TRANSLATIONS


def translated(code: str, text: str) -> str:
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", "rb") as file:
        return read_po(file)[text].string


@pytest.mark.parametrize(("header", "code", "direction"), [
    ("hu-HU,hu;q=0.9,en;q=0.8", "hu", "ltr"), ("ru", "ru", "ltr"), ("cs-CZ", "cs", "ltr"), ("it-IT,it", "it", "ltr"),
    ("de-CH,de;q=0.8", "de", "ltr"), ("ar-EG,ar;q=0.9", "ar", "rtl"), ("ja-JP,fr;q=0.5", "en", "ltr"), ("", "en", "ltr"),
])
def test_the_phone_s_language_is_chosen(client: Client, header: str, code: str, direction: str) -> None:
    page = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
    assert f'<html lang="{code}" dir="{direction}">' in page
    if code != "en":
        assert translated(code, "Throw the sticks") in page and "Throw the sticks<" not in page


def test_the_switcher_is_remembered_and_goes_back_to_the_page(client: Client) -> None:
    reply = client.get("/language/ar?next=/rules/kendall", headers={"Accept-Language": "de"})
    assert reply.status_code == 302 and reply.headers["Location"] == "/rules/kendall"
    page = client.get("/rules/kendall", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="ar" dir="rtl">' in page and translated("ar", rule("K.capture").title) in page
    assert client.get("/language/hu?next=//elsewhere.example/").headers["Location"] == "/"  # never another site
    assert '<html lang="hu"' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("code", ["xx", "EN", "de-DE", "x-y", "a" * 300])
def test_an_unknown_language_code_is_a_clear_404(client: Client, code: str) -> None:
    reply = client.get(f"/language/{code}")
    assert reply.status_code == 404 and "choose one of en, hu, ru, cs, it, de, ar" in reply.get_data(as_text=True)


def test_every_viewer_reads_an_illegal_move_in_their_own_language(client: Client, runtime: Runtime) -> None:
    """A piece moved one square too far: the shared state is put into each phone's own words."""
    game = runtime.companion.referee.game
    while not (game.current_throw and game.options.moves):
        client.post("/api/throw")
    board = game.position.board_text
    start = next(m.from_square for m in game.options.moves if board[m.to_square] == ".")  # the square after is free
    end = start + game.current_throw + 1
    runtime.companion.settled_board(board[:start - 1] + "." + board[start:end - 1] + board[start - 1] + board[end:])
    entry = runtime.state()["log"][0]
    assert entry["event"] == "illegal" and [v["rule"] for v in entry["violations"]] == ["N.throw"]
    for code in i18n.languages():
        words = client.get("/api/state", headers={"Accept-Language": code}).get_json()["words"]
        sentence = rule("N.throw").broken if code == "en" else translated(code, rule("N.throw").broken)
        assert words["log"][0]["text"] == sentence.format(throw=game.current_throw, **{"from": start, "to": end})
        assert words["log"][0]["title"] == ("Illegal move" if code == "en" else translated(code, "Illegal move"))


def test_the_event_stream_speaks_the_viewer_s_language(runtime: Runtime) -> None:
    app = create_app(runtime, keep_alive=0.05)
    for code in ("it", "ar"):
        response = app.test_client().get("/events", headers={"Accept-Language": code}, buffered=False)
        chunks = iter(response.response)
        next(chunks)  # retry: 2000
        data = json.loads(next(chunks).decode()[len("data: "):])
        response.close()
        assert data["words"]["language"] == code
        assert data["words"]["rule_system"] == translated(code, "Passing through the netherworld")


def test_squares_are_listed_the_way_each_language_lists_them() -> None:
    app = Flask(__name__)
    i18n.setup(app)
    entry = {"event": "illegal", "from": 12, "to": 14, "throw": 2, "violations": [{"rule": "K.capture", "squares": [14, 15, 31]}]}
    for header, joined in (("en", "15 and off"), ("de", "15 und " + translated("de", "off")), ("it", "15 e " + translated("it", "off"))):
        with app.test_request_context(headers={"Accept-Language": header}):
            assert joined in i18n.Words.current().describe(entry)


def test_a_translation_that_lost_its_placeholder_falls_back_to_english() -> None:
    """A museum edited a catalog by hand and misspelt {throw}: the page keeps working, in English for that text."""

    class MisspeltCatalog:
        def ugettext(self, text: str) -> str:
            return "Wurf {wurf}" if "{throw}" in text else text

    words = i18n.Words("de", MisspeltCatalog())
    assert words.describe({"event": "waiting", "note": "first use the throw of {throw}", "params": {"throw": 4}}) \
        == "first use the throw of 4"
