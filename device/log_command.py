"""``senet log``: the matches in the match store, listed, shown, exported and imported.

    senet log --store FILE list                          every match, newest first
    senet log --store FILE show ID                       one match as text
    senet log --store FILE export ID|--all [--format text|json] [--out FILE]
    senet log --store FILE import FILE                   matches from an export (all or none)

``--config FILE`` takes the store from the configuration instead of ``--store``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, TextIO

from senet.device.config import ConfigError, load_config
from senet.device.export import RecordError, parse_json, parse_text, to_json, to_text
from senet.device.store import Match, MatchStore, StoreError


def add_parser(commands: Any) -> None:
    """The ``log`` command and its actions, on the ``senet`` parser's sub-commands."""
    log = commands.add_parser("log", help="the match store: list, show, export and import matches")
    log.add_argument("--store", type=Path, help="the match store (SQLite file)")
    log.add_argument("--config", type=Path, help="a TOML configuration: its store setting")
    actions = log.add_subparsers(dest="log_command", required=True, metavar="ACTION")
    actions.add_parser("list", help="every match, newest first")
    show = actions.add_parser("show", help="one match as text")
    show.add_argument("match", type=int, metavar="ID")
    export = actions.add_parser("export", help="one match, or every match, as text or JSON")
    which = export.add_mutually_exclusive_group(required=True)
    which.add_argument("match", type=int, nargs="?", metavar="ID")
    which.add_argument("--all", action="store_true", help="every match")
    export.add_argument("--format", choices=["text", "json"], default="text")
    export.add_argument("--out", type=Path, help="write to this file (default: the screen)")
    take = actions.add_parser("import", help="matches from an export; every move is checked against the rules")
    take.add_argument("file", type=Path, metavar="FILE")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Carry out ``senet log``; 2 with a one-line reason on stderr when it cannot."""
    try:
        path = _store_path(args)
        if args.log_command != "import" and not path.exists():
            raise StoreError(f"there is no match store at {path}")
        store = MatchStore.open(path, lambda line: sys.stderr.write(f"senet log: {line}\n"))
        try:
            return _act(store, args, out)
        finally:
            store.close()
    except (StoreError, ConfigError, RecordError, OSError, UnicodeDecodeError) as error:
        sys.stderr.write(f"senet log: {error}\n")
        return 2


def _act(store: MatchStore, args: argparse.Namespace, out: TextIO) -> int:
    if args.log_command == "list":
        for match in store.matches():
            players = " - ".join(name or "?" for name in (match.dark_player, match.light_player)) if match.dark_player or match.light_player else ""
            fields = [str(match.id), match.started_at, match.variant, match.result, f"{match.events} events", match.place, players]
            out.write("  ".join(field for field in fields if field) + "\n")
        return 0
    if args.log_command == "show":
        out.write(to_text(*_one(store, args.match)))
        return 0
    if args.log_command == "export":
        matches = [_one(store, m.id) for m in reversed(store.matches())] if args.all else [_one(store, args.match)]
        if args.format == "json":
            records = [to_json(*match) for match in matches]
            text = json.dumps(records if args.all else records[0], indent=1) + "\n"
        else:
            text = "\n".join(to_text(*match) for match in matches)
        if args.out is not None:
            args.out.write_text(text, encoding="utf-8")
        else:
            out.write(text)
        return 0
    text = args.file.read_bytes().decode("utf-8", errors="strict")
    as_json = re.match(r"\s*(\{|\[\s*[{\]])", text) is not None  # text records open with [Tag "value"]
    matches = parse_json(text) if as_json else parse_text(text)
    for new_id, (match, events) in zip(store.import_matches(matches), matches):
        out.write(f"imported match {new_id}: {match.variant}, {match.result}, {len(events)} events\n")
    return 0


def _one(store: MatchStore, match_id: int) -> tuple[Match, list[Any]]:
    try:
        return store.match(match_id), store.events(match_id)
    except KeyError:
        raise StoreError(f"there is no match {match_id} in {store.path} (senet log list shows them)") from None


def _store_path(args: argparse.Namespace) -> Path:
    if args.store is not None:
        return args.store
    if args.config is not None:
        store = load_config(args.config).store
        if store:
            return Path(store)
        raise StoreError(f"{args.config} sets no store")
    raise StoreError("say which match store: --store FILE, or --config FILE with its store setting")
