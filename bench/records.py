"""Match records round-trip: whole random matches of every variant (with wrong moves put
right, undos and passes, as the tests play them) stored, exported as text and JSON,
imported into another store and exported again.

Prints per variant ``variant=V matches=N exact=E seconds=T`` (goal: exact = N) and a total.

    python bench/records.py [--matches 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from gpiozero.pins.mock import MockFactory  # noqa: E402
from test_export import READER, play_a_match  # noqa: E402 - the tests' players

from senet.device.companion import Companion  # noqa: E402
from senet.device.export import parse_json, parse_text, to_json, to_text  # noqa: E402
from senet.device.lights import Lights, Wiring  # noqa: E402
from senet.device.store import MatchStore  # noqa: E402
from senet.engine.throws import SeededSticks  # noqa: E402
from senet.engine.variants import VARIANTS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    lights = Lights(Wiring(), pin_factory=MockFactory())
    total = exact_total = 0
    for variant in VARIANTS:
        began, exact = time.perf_counter(), 0
        store, other = MatchStore.open(folder / f"{variant}.db"), MatchStore.open(folder / f"{variant}-imported.db")
        companion = Companion(store.resume_or_begin(variant), READER, lights, sticks=SeededSticks(args.seed), store=store)
        for number in range(args.matches):
            play_a_match(companion, random.Random(args.seed * 100_000 + number))
            companion.new_game(variant)
            match = store.matches()[1]
            events = store.events(match.id)
            text, as_json = to_text(match, events), json.dumps(to_json(match, events))
            (from_text, text_events), = parse_text(text)
            (from_json, json_events), = parse_json(as_json)
            first, second = other.import_matches([(from_text, text_events), (from_json, json_events)])
            again_text = to_text(other.match(first), other.events(first))
            again_json = to_json(other.match(second), other.events(second))
            exact += again_text.split("\n", 1)[1] == text.split("\n", 1)[1] and again_json | {"id": match.id} == to_json(match, events)
        store.close()
        other.close()
        total, exact_total = total + args.matches, exact_total + exact
        print(f"variant={variant} matches={args.matches} exact={exact} seconds={time.perf_counter() - began:.1f}", flush=True)
    lights.close()
    print(f"records matches={total} exact={exact_total}", flush=True)


if __name__ == "__main__":
    main()
