"""The page in the visitor's language: gettext catalogs, the language choice, and the game state in words.

Catalogs are standard PO files in ``web/translations/<code>/LC_MESSAGES/messages.po`` (edit
them with any PO editor, then restart); they are compiled when the page starts, and every
folder there is a language the switcher offers. The language is the one the visitor chose
(remembered in a cookie), else the best match for the phone's Accept-Language, else English.

The companion's state is shared by every viewer; ``localise`` adds its words in one language:

    >>> app = Flask(__name__)
    >>> setup(app)
    >>> with app.test_request_context(headers={"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"}):
    ...     language(), text_direction()
    ('de', 'ltr')
    >>> with app.test_request_context(headers={"Accept-Language": "ar"}):
    ...     text_direction()
    'rtl'
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations
from flask import Flask, current_app, request
from flask_babel import Babel, get_translations

from senet.engine.rulebook import RULE_SYSTEMS, rule, violation_fields
from senet.engine.variants import VARIANTS

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
SCRIPTS = Path(__file__).resolve().parent / "static"
#: The languages of the sources first, then German and Arabic; other folders follow by code.
ORDER = ("en", "hu", "ru", "cs", "it", "de", "ar")
COOKIE = "lang"
OFF = 31


def N_(text: str) -> str:
    """Marks a text for extraction where it is defined; ``gettext`` translates it where it is shown."""
    return text


#: The log's headings, one per referee event.
EVENT_TITLES = {
    "throw": N_("Throw"), "start": N_("Start"), "move": N_("Move"), "illegal": N_("Illegal move"), "pass": N_("Pass"),
    "undo": N_("Undo"), "game-over": N_("Game over"), "waiting": N_("Waiting"), "instruction": N_("Please"),
    "corrected": N_("Board put right"),
}
#: What the amber light means, by the kind of trouble.
TROUBLE = {
    "no-picture": N_("The camera gives no picture: check its cable."),
    "no-board": N_("The camera cannot find the board: is the whole mat in view?"),
    "occluded": N_("Something covers the board or the tray: a hand, a sleeve, a shadow?"),
    "calibrating": N_("The camera is learning the board: set up the pieces as the game starts, tray empty, no hand over the board."),
}
PLAYERS = {"dark": N_("dark"), "light": N_("light")}
#: A piece borne off, where a square's number would stand.
OFF_WORD = N_("off")


@functools.cache
def languages() -> tuple[str, ...]:
    """The codes of every language with a catalog, and English (the texts' own language);
    read once, like the catalogs themselves."""
    found = {path.parent.parent.name for path in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po")} | {"en"}
    return tuple(sorted(found, key=lambda code: (ORDER.index(code) if code in ORDER else len(ORDER), code)))


def language_names() -> dict[str, str]:
    """Each language in its own words, for the switcher: {'de': 'Deutsch', ...}."""
    return {code: Locale.parse(code).get_display_name(code).capitalize() for code in languages()}


@functools.cache
def compiled_catalogs() -> str:
    """The PO files compiled to MO files in a folder of their own (once per process)."""
    folder = Path(tempfile.mkdtemp(prefix="senet-translations-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    for po in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"):
        with open(po, "rb") as file:
            catalog = read_po(file, locale=po.parent.parent.name)
        target = folder / po.relative_to(TRANSLATIONS).with_suffix(".mo")
        target.parent.mkdir(parents=True)
        with open(target, "wb") as file:
            write_mo(file, catalog)
    return str(folder)


def language() -> str:
    """The visitor's language: the remembered choice, else the phone's preference, else the
    companion's default language (the configuration's ``language``)."""
    chosen = request.cookies.get(COOKIE, "")
    if chosen in languages():
        return chosen
    return request.accept_languages.best_match(languages()) or current_app.config.get("DEFAULT_LANGUAGE", "en")


def text_direction(code: str | None = None) -> str:
    """'rtl' for a language written right to left (Arabic), else 'ltr'."""
    return "rtl" if Locale.parse(code or language()).character_order == "right-to-left" else "ltr"


def setup(app: Flask) -> None:
    """flask-babel on the compiled catalogs, choosing the language per request."""
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = compiled_catalogs()
    Babel(app, locale_selector=language)
    app.jinja_env.globals.update(language=language, text_direction=text_direction, language_names=language_names)


@functools.cache
def script_messages() -> tuple[str, ...]:
    """The texts the page's scripts show, found as pybabel finds them: ``t("...")`` calls."""
    found: dict[str, None] = {}
    for script in sorted(SCRIPTS.glob("*.js")):
        with open(script, "rb") as file:
            for _, message, _, _ in extract("javascript", file, keywords={"t": None}):
                found[message] = None
    return tuple(found)


def script_texts() -> dict[str, str]:
    """The scripts' texts in the visitor's language, for the page to embed."""
    return {message: translate(message) for message in script_messages()}


def translate(text: str) -> str:
    """A text (from the rule book, the referee, a table of words) in the current request's
    language; itself when there is no translation."""
    return get_translations().ugettext(text) if text else text


def gettext(text: str) -> str:
    """``translate`` for a text written right here, where ``pybabel extract`` finds it."""
    return translate(text)


@dataclass(frozen=True)
class Words:
    """One language's words: its code and its catalog (looked up once, used for a whole state)."""

    code: str
    catalog: NullTranslations

    @classmethod
    def current(cls) -> Words:
        """The words of the current request's language."""
        return cls(language(), get_translations())

    def __call__(self, text: str) -> str:
        return self.catalog.ugettext(text) if text else text

    def squares(self, squares: tuple[int, ...]) -> str:
        """Squares joined the way the language joins a list: '3, 5 and 7', '3, 5 und 7'."""
        names = [self(OFF_WORD) if square == OFF else str(square) for square in squares]
        return format_list(names, locale=self.code) if names else ""

    def fill(self, text: str, values: dict[str, Any]) -> str:
        """The translation of ``text`` with its {names} filled in; the English when a
        hand-edited translation lost or misspelt one (the page goes on working)."""
        try:
            return self(text).format(**values)
        except (KeyError, IndexError, ValueError):
            return text.format(**values)

    def explain(self, violation: dict[str, Any], entry: dict[str, Any]) -> str:
        """The sentence for one broken rule, with its squares filled in."""
        fields = violation_fields(tuple(violation["squares"]), entry.get("from") or 0, entry.get("to") or 0,
                                  entry.get("throw") or 0, join=self.squares)
        return self.fill(rule(violation["rule"]).sentence(violation.get("case", "")), fields)

    def describe(self, entry: dict[str, Any]) -> str:
        """What one log entry tells the players."""
        if entry.get("note"):
            return self.fill(entry["note"], entry.get("params", {}))
        return " ".join(self.explain(violation, entry) for violation in entry.get("violations", []))


def localise(state: dict[str, Any]) -> dict[str, Any]:
    """The state with its words in the current request's language (names keep their keys)."""
    say = Words.current()
    variant = VARIANTS[state["variant"]]
    words: dict[str, Any] = {
        "language": say.code,
        "rule_system": say(RULE_SYSTEMS[variant.prefix].title),
        "turn": say(PLAYERS[state["turn"]]) if state.get("turn") else None,
        "opponent": say(PLAYERS["light" if state["turn"] == "dark" else "dark"]) if state.get("turn") else None,
        "winner": say(PLAYERS[state["winner"]]) if state.get("winner") else None,
        "trouble": say(TROUBLE[state["trouble_kind"]]) if state.get("trouble_kind") in TROUBLE else None,
        "log": [{"title": say(EVENT_TITLES.get(entry["event"], entry["event"])), "text": say.describe(entry)}
                for entry in state.get("log", [])],
    }
    return {**state, "words": words}
