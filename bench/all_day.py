"""A day at the museum, shortened: game after game in simulation, the players leaving after
each and the idle reset setting up the next.

Two simulated players play whole games (``--autoplay``'s players, through the simulated
camera, the reader, the referee and the match store); after each game they go away, the
idle reset ends the finished match and the next begins. Prints one line per game
(``game=N variant=V winner=W moves=M minutes=T termination=...``) and a summary
``games=N loop_errors=E store_problems=P`` (goal: every game won, no errors).

    python bench/all_day.py [--games 3] [--variant netherworld] [--seed 1]
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

from senet.device.config import Config
from senet.device.loop import CompanionLoop
from senet.device.service import build_runtime

#: The idle reset of the run (minutes) and how long the players stay away after a game (seconds).
IDLE_MINUTES, AWAY_SECONDS = 0.05, 5.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--variant", default="netherworld")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    config = Config(variant=args.variant, camera="simulator", settle_seconds=0.2, fps=30, idle_reset_minutes=IDLE_MINUTES,
                    store=str(Path(tempfile.mkdtemp()) / "matches.db"))
    runtime = build_runtime(config, seed=args.seed, autoplay=True, say=lambda line: None)
    store, players = runtime.companion.store, runtime.players
    assert store is not None and players is not None
    loop = CompanionLoop(runtime)
    worker = threading.Thread(target=loop.run, daemon=True)
    worker.start()
    began = time.monotonic()
    try:
        for number in range(1, args.games + 1):
            while not runtime.companion.referee.game.is_over:
                time.sleep(0.2)
            runtime.players = None  # the players go away...
            match = store.current
            time.sleep(AWAY_SECONDS)
            while store.current is not None and match is not None and store.current.id == match.id:
                time.sleep(0.2)  # ...and the idle reset ends their match
            assert match is not None
            done = store.match(match.id)
            moves = sum(e.kind.value == "move" for e in store.events(match.id))
            print(f"game={number} variant={done.variant} winner={done.winner} moves={moves} "
                  f"minutes={(time.monotonic() - began) / 60:.1f} termination={done.termination.value if done.termination else None}",
                  flush=True)
            runtime.players = players  # the next visitors
    finally:
        runtime.stop.set()
        worker.join(10)
        print(f"games={args.games} loop_errors={loop.errors} store_problems={int(bool(store.problem))}", flush=True)
        runtime.close()


if __name__ == "__main__":
    main()
