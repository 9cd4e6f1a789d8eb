"""Power cuts during a game: ``senet run --autoplay`` killed (SIGKILL) at random moments.

Each run is killed at a random moment within 4 s of starting to play. Every move the
companion announced (it announces a move after it is in the match store) must be in the
store after the kill, and every restart must resume the match where it stood (start without
an error, keep what the store held, and go on from there). Prints
``kills=N announced_moves=M lost=L resumed=R`` (goal: lost=0, resumed=N).

    python bench/sigkill.py [--kills 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from senet.device.store import EventKind, MatchStore


def stored_moves(path: Path) -> list[tuple[int, int]]:
    store = MatchStore.open(path)
    try:
        return [(e.data["from"], e.data["to"]) for m in reversed(store.matches()) for e in store.events(m.id) if e.kind is EventKind.MOVE]
    finally:
        store.close()


def one_run(path: Path, seed: int, kill_after: float) -> tuple[list[tuple[int, int]], bool]:
    """Run the companion, kill it ``kill_after`` seconds after it started playing; the moves
    it announced, and whether it started (resuming the store's match) without an error."""
    command = [sys.executable, "-m", "senet.device.cli", "run", "--variant", "netherworld", "--seed", str(seed), "--fps", "30",
               "--settle", "0.2", "--autoplay", "--no-page", "--store", str(path)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    announced: list[tuple[int, int]] = []
    playing = threading.Event()

    def listen() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("senet run:"):
                playing.set()
            if line.startswith("move "):
                fields = dict(part.split("=", 1) for part in line.split() if "=" in part and part.split("=", 1)[0] in ("from", "to"))
                announced.append((int(fields["from"]), int(fields["to"]) if fields["to"].isdigit() else 31))

    listener = threading.Thread(target=listen)
    listener.start()
    started = playing.wait(60)
    time.sleep(kill_after)
    process.kill()
    process.wait()
    listener.join()
    assert process.stderr is not None
    errors = process.stderr.read()
    return announced, started and "Traceback" not in errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    path = Path(tempfile.mkdtemp()) / "matches.db"
    lost = resumed = total = 0
    for kill in range(args.kills):
        before = stored_moves(path) if path.exists() else []
        announced, started = one_run(path, args.seed + kill, rng.uniform(0.0, 4.0))
        after = stored_moves(path)
        total += len(announced)
        # The announced moves are in the store, right after what it held before this run.
        kept = after[len(before): len(before) + len(announced)]
        lost += sum(1 for a, b in zip(announced, kept) if a != b) + max(0, len(announced) - len(kept))
        resumed += started and after[: len(before)] == before
    print(f"kills={args.kills} announced_moves={total} lost={lost} resumed={resumed}", flush=True)


if __name__ == "__main__":
    main()
