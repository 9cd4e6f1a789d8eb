"""Random games: for ``senet rules play``, the benchmarks and the property tests.

    >>> game = random_game("netherworld", seed=7)
    >>> game.is_over, game.record == random_game("netherworld", seed=7).record
    (True, True)
"""

from __future__ import annotations

import random

from senet.engine.game import Game
from senet.engine.throws import DiceThrows, SeededSticks, throw_value
from senet.engine.variants import StartRitual, Variant, find_variant

#: No random game has come near this; it only stops a broken rule from looping forever.
MAX_TURNS = 20_000


def random_game(variant: Variant | str, seed: int) -> Game:
    """Play a whole game with seeded fair sticks (or dice) and uniformly random move choices."""
    game = Game(find_variant(variant) if isinstance(variant, str) else variant)
    sticks = SeededSticks(seed)
    chooser = random.Random(seed ^ 0x5E7E7)
    if game.variant.start_ritual is StartRitual.LOTS:
        game.start_by_lot(chooser.randrange(2))
    while not game.is_over:
        if len(game.turns) >= MAX_TURNS:
            raise RuntimeError(f"{game.variant.name} game with seed {seed} did not end in {MAX_TURNS} turns")
        if game.needs_throw:
            throws = game.variant.throws
            game.throw(throws.roll(chooser) if isinstance(throws, DiceThrows) else throw_value(sticks.throw().light_up, game.variant.zero_value))
            continue
        options = game.options
        choices = len(options.moves) + (1 if options.pass_move is not None else 0)
        pick = chooser.randrange(choices)
        if pick < len(options.moves):
            move = options.moves[pick]
            game.play(move.from_square, move.to_square)
        else:
            game.pass_turn()
    return game
