"""Every text the page or the referee shows has a translation in every language, with its {names} kept."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from senet.engine.rulebook import RULE_SYSTEMS
from senet.web.catalog import messages
from senet.web.i18n import TRANSLATIONS, languages

LANGUAGES = ("hu", "ru", "cs", "it", "de", "ar")
PLACEHOLDER = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)[sd]")


@cache
def wanted() -> Catalog:
    return messages()


@cache
def catalog(code: str) -> Catalog:
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", "rb") as file:
        return read_po(file, locale=code)


def test_the_seven_languages_are_offered() -> None:
    assert set(languages()) >= {"en", *LANGUAGES} and languages()[0] == "en"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_text_is_translated_with_its_placeholders(code: str) -> None:
    translated = catalog(code)
    missing, fuzzy, broken = [], [], []
    for message in wanted():
        if not message.id:
            continue
        found = translated.get(message.id)
        if found is None or not found.string:
            missing.append(message.id)
        elif found.fuzzy:
            fuzzy.append(message.id)
        elif sorted(PLACEHOLDER.findall(message.id)) != sorted(PLACEHOLDER.findall(found.string)):
            broken.append((message.id, found.string))
    assert not missing, f"{code}: {len(missing)} texts have no translation, first: {missing[:3]}"
    assert not fuzzy, f"{code}: {len(fuzzy)} translations are marked fuzzy, first: {fuzzy[:3]}"
    assert not broken, f"{code}: placeholders differ from the English, first: {broken[:3]}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_rule_id_has_its_explanation(code: str) -> None:
    """The rule book, rule by rule: title, rule, the sentence for a broken rule, the reading."""
    translated = catalog(code)
    for system in RULE_SYSTEMS.values():
        for rule in system.rules:
            for text in (rule.title, rule.text, rule.broken, rule.reading):
                if text:
                    entry = translated.get(text)
                    assert entry is not None and entry.string and not entry.fuzzy, f"{code}: {rule.id} has no translation of {text!r}"
