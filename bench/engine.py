"""Random playouts per second for every variant, on one core.

Prints ``VARIANT playouts_per_s=N moves_per_s=M``: the median of several runs, each
playing whole random games (fair sticks, uniformly random legal moves) through
``Position.options`` and ``push``, the loop the companion's move hints use. In the grid
games (PHARAO, RAMSES) every part of a turn counts as a move, RAMSES' placing included.

    python bench/engine.py [--seconds 1.0] [--runs 5] [--variant NAME]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from senet.engine import Position, find_variant
from senet.engine.game import Game, part_number
from senet.engine.moves import Stage
from senet.engine.throws import DiceThrows
from senet.engine.variants import VARIANTS, StartRitual


def grid_playout(variant_name: str, rng: random.Random) -> int:
    """One random grid game (dice thrown at each turn's own part); returns the number of parts played."""
    variant = find_variant(variant_name)
    position = Position.start(variant)
    dice = None
    parts = 0
    while position.turn is not None:
        if position.stage is Stage.OWN and isinstance(variant.throws, DiceThrows):
            dice = variant.throws.roll(rng)
        options = position.options(part_number(variant, position.stage, dice) or 0)
        moves = options.moves
        position.push(moves[rng.randrange(len(moves))] if moves else options.pass_move)
        parts += 1
    return parts


def playout(variant_name: str, rng: random.Random) -> int:
    """One random game from after the start ritual; returns the number of decisions."""
    if find_variant(variant_name).in_parts:
        return grid_playout(variant_name, rng)
    game = Game(variant_name)
    if game.variant.start_ritual is StartRitual.LOTS:
        game.start_by_lot(0)
    else:
        while not game.started:
            game.throw(1 if rng.random() < 0.25 else 2)
    position: Position = game.position
    values = (position.variant.zero_value, 1, 2, 3, 4)
    throw = game.current_throw
    decisions = 0
    while position.turn is not None:
        if throw is None:
            throw = values[(rng.getrandbits(4)).bit_count()]
        options = position.options(throw)
        moves = options.moves
        if moves:
            position.push(moves[rng.randrange(len(moves))])
        else:
            position.push(options.pass_move)
        throw = None
        decisions += 1
    return decisions


def measure(variant_name: str, seconds: float, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        decisions += playout(variant_name, rng)
        games += 1
    return games / elapsed, decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per variant; the median is printed")
    parser.add_argument("--variant", choices=list(VARIANTS), help="only this variant")
    args = parser.parse_args()
    for name in [args.variant] if args.variant else list(VARIANTS):
        find_variant(name)
        results = [measure(name, args.seconds, seed) for seed in range(args.runs)]
        games = statistics.median(r[0] for r in results)
        moves = statistics.median(r[1] for r in results)
        print(f"{name} playouts_per_s={games:.0f} moves_per_s={moves:.0f}", flush=True)


if __name__ == "__main__":
    main()
