"""The ``senet`` command.

    senet rules list                  variant names and what they are
    senet rules show VARIANT          the rules with their IDs
    senet rules moves < queries.jsonl legal moves, one JSON line per position
    senet rules play VARIANT --seed N a random game's record
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from typing import TextIO

from senet.engine.playout import random_game
from senet.engine.query import answer_query
from senet.engine.rulebook import RULE_SYSTEMS
from senet.engine.throws import throw_odds
from senet.engine.variants import VARIANTS, find_variant


def rules_list(out: TextIO) -> int:
    """One variant name per line, then its short description."""
    width = max(map(len, VARIANTS))
    for name, variant in VARIANTS.items():
        out.write(f"{name:<{width}}  {variant.description}\n")
    return 0


def rules_show(name: str, out: TextIO) -> int:
    """The rules of one variant as a person reads them, each with its ID."""
    variant = find_variant(name)
    system = RULE_SYSTEMS[variant.prefix]
    wrap = textwrap.TextWrapper(width=88, initial_indent="    ", subsequent_indent="    ")
    out.write(f"{variant.name}: {system.title}\n{variant.description}\n\n")
    out.write("\n".join(textwrap.wrap(f"Source: {system.source}", 88)) + "\n\n")
    odds = ", ".join(f"{value}: {chance}" for value, chance in throw_odds(variant.zero_value).items())
    out.write(f"Throw values and their chances with fair sticks: {odds}\n\n")
    for rule in system.rules:
        out.write(f"{rule.id}  {rule.title}\n")
        out.write(wrap.fill(rule.text) + "\n")
        if rule.reading:
            out.write(wrap.fill(rule.reading) + "\n")
        out.write("\n")
    return 0


def rules_moves(source: TextIO, out: TextIO) -> int:
    """Answer JSON-lines queries; exit code 2 if any line had an error."""
    failed = False
    for line in source:
        answer = answer_query(line)
        failed |= "error" in answer
        out.write(json.dumps(answer, separators=(",", ":")) + "\n")
        out.flush()
    return 2 if failed else 0


def rules_play(name: str, seed: int, as_json: bool, out: TextIO) -> int:
    """Play a random game and print its record."""
    record = random_game(find_variant(name), seed).record
    out.write(json.dumps(record.to_dict()) + "\n" if as_json else record.format())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="senet", description="Senet Companion: referee, teacher and match recorder.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules = commands.add_parser("rules", help="the rules engine: variants, rules, legal moves, random games")
    rule_commands = rules.add_subparsers(dest="rules_command", required=True, metavar="ACTION")
    rule_commands.add_parser("list", help="list the variants")
    show = rule_commands.add_parser("show", help="print a variant's rules with their IDs")
    show.add_argument("variant", choices=list(VARIANTS), metavar="VARIANT")
    rule_commands.add_parser("moves", help="read JSON-lines positions on stdin, write their legal moves")
    play = rule_commands.add_parser("play", help="play a random game and print its record")
    play.add_argument("variant", choices=list(VARIANTS), metavar="VARIANT")
    play.add_argument("--seed", type=int, default=0, help="the same seed gives the same game")
    play.add_argument("--json", action="store_true", help="print the record as JSON")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = sys.stdout
    if args.rules_command == "list":
        return rules_list(out)
    if args.rules_command == "show":
        return rules_show(args.variant, out)
    if args.rules_command == "moves":
        return rules_moves(sys.stdin, out)
    return rules_play(args.variant, args.seed, args.json, out)


if __name__ == "__main__":
    sys.exit(main())
