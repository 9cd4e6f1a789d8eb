"""What the translators translate: Babel extractors for texts that are data, not calls.

The rule book (titles, rules, readings, sentences for broken rules, rule systems, variant
descriptions) and the referee's notes are plain strings, so ``pybabel extract`` finds them
through the two extractors here, named in ``babel.cfg``; the page's own strings are found by
Babel's usual Python, Jinja and JavaScript extractors. ``messages()`` runs the same
extraction in-process, for the test that every text has a translation.

    >>> texts = {message.id for message in messages()}
    >>> "Capture by swapping" in texts and "finish the swap" in texts and "Throw the sticks" in texts
    True
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir

ROOT = Path(__file__).resolve().parent.parent
#: Babel's mapping: which extractor reads which files (the same file ``pybabel extract -F`` reads).
MAPPING = ROOT / "babel.cfg"
#: The keywords of the page's own strings: ``_``/``gettext``/``N_`` in Python and templates, ``t`` in app.js.
KEYWORDS = {"_": None, "gettext": None, "N_": None, "t": None}

Extracted = Iterator[tuple[int, str | None, str, list[str]]]


def extract_rulebook(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Extracted:
    """Every text of the rule book and of the variants, with the rule ID as the translator's comment."""
    from senet.engine.rulebook import RULE_SYSTEMS
    from senet.engine.variants import VARIANTS

    for system in RULE_SYSTEMS.values():
        yield 0, None, system.title, [f"title of the rule system {system.prefix}"]
        yield 0, None, system.source, [f"where the rule system {system.prefix} comes from"]
        for rule in system.rules:
            yield 0, None, rule.title, [f"{rule.id}: title"]
            yield 0, None, rule.text, [f"{rule.id}: the rule"]
            yield 0, None, rule.broken, [f"{rule.id}: said when a move breaks it; keep the {{names}} as they are"]
            for case, sentence in rule.cases:
                yield 0, None, sentence, [f"{rule.id}: said when a move breaks it ({case}); keep the {{names}} as they are"]
            if rule.reading:
                yield 0, None, rule.reading, [f"{rule.id}: this companion's reading where the sources are silent"]
    for name, variant in VARIANTS.items():
        yield 0, None, variant.description, [f"the variant {name}"]


def extract_notes(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Extracted:
    """The referee's notes: strings given as ``note=`` (directly, or through a module constant)."""
    tree = ast.parse(fileobj.read())
    constants = {target.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
                 for target in node.targets if isinstance(target, ast.Name)
                 and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "note":
            for part in ast.walk(node.value):
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    yield part.lineno, None, part.value, ["the referee tells the players; keep the {names}"]
                elif isinstance(part, ast.Name) and part.id in constants:
                    yield part.lineno, None, constants[part.id], ["the referee tells the players; keep the {names}"]


def messages() -> Catalog:
    """Everything to translate, extracted as ``pybabel extract -F babel.cfg`` would."""
    from babel.messages.frontend import parse_mapping_cfg

    with open(MAPPING, encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file)
    catalog = Catalog(project="senet-companion")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog
