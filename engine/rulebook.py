"""Every rule of every variant, by its RULES.md ID, in words for a visitor.

Each rule has a title, the rule itself, a sentence for when a move breaks it (with the
squares filled in; a rule broken in several ways has one per way, its ``cases``), and,
where the sources are silent, this companion's reading.

    >>> rule("K.capture").title
    'Capture by swapping'
    >>> describe_violation("K.capture", (14, 15), from_square=12, to_square=14, throw=2)
    'The piece on 14 is guarded by a neighbour of its own colour on 15, so it cannot be captured.'
    >>> RULE_SYSTEMS["LK"].title
    "Kendall's rules as coded in Ludii"
    >>> describe_violation("R.path", (14,), from_square=9, to_square=14, throw=2, case="occupied")
    'Square 14 is not empty: a move must end on an empty square.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Rule:
    """One rule. ``broken`` may use {square} (the first square involved), {others} (the
    rest), {squares} (all), {from}, {to} and {throw}."""

    id: str
    title: str
    text: str
    broken: str
    reading: str | None = None
    #: Other sentences for other ways of breaking the rule, by the violation's ``case``.
    cases: tuple[tuple[str, str], ...] = ()

    def sentence(self, case: str = "") -> str:
        """The sentence for one way of breaking the rule (``broken`` unless ``case`` has its own)."""
        return dict(self.cases).get(case, self.broken)


@dataclass(frozen=True)
class RuleSystem:
    prefix: str
    title: str
    source: str
    rules: tuple[Rule, ...]


def _system(prefix: str, title: str, source: str, *rules: tuple[object, ...]) -> RuleSystem:
    return RuleSystem(prefix, title, source, tuple(Rule(f"{prefix}.{r[0]}", *r[1:]) for r in rules))  # type: ignore[arg-type]


_SETUP = "Each player has five pieces. They start on row 1, alternating: dark on 2, 4, 6, 8, 10 and light on 1, 3, 5, 7, 9."
_SETUP_BROKEN = "The game must start from the set-up position (square {squares})."
_THROW_6 = "Four sticks are thrown; the throw is the number of flat (light) sides up, 1 to 4. No flat side up counts 6. There is no 5."
_THROW_5 = "Four sticks are thrown; the throw is the number of flat (light) sides up, 1 to 4. No flat side up counts 5."
_THROW_BROKEN = "With a throw of {throw} the piece on {from} cannot go to {to}."
_OWN = "A piece may not end its move on a square that already holds a piece of its own colour."
_OWN_BROKEN = "Square {squares} already holds one of your own pieces."
_TURN_BROKEN = "The piece on {squares} is not yours to move now: it is the other player's turn."
_WIN_BROKEN = "The game is over: no more moves."

KENDALL = _system(
    "K",
    "Kendall's reconstruction",
    "The Italian leaflet (seed 004), after Timothy Kendall's reconstruction of the rules from Egyptian texts.",
    ("setup", "Starting position", _SETUP, _SETUP_BROKEN),
    ("throw", "Throwing the sticks", _THROW_6, _THROW_BROKEN),
    ("start", "Who starts",
     "Players throw in turn until someone throws a 1. That player plays dark and must use the 1 to move the piece on 10 to 11. "
     "Light's first move must use the piece on square 9.",
     "The first move must be made with the piece on square {squares}.",
     "This companion's reading: if light's piece on 9 cannot move on light's first turn, light may move any piece."),
    ("again", "Throwing again",
     "After a move with 1, 4 or 6 the same player throws again; after 2 or 3 the turn passes. A piece reaching square 26 also earns another throw.",
     _TURN_BROKEN),
    ("exact", "Exact moves", "Move one piece exactly the number thrown. A throw cannot be split between pieces.", _THROW_BROKEN),
    ("forward", "Forward only", "Pieces move forward along the S-shaped path (1 to 30), except when K.backward applies.",
     "The piece may not move backward from {from} to {to}."),
    ("jump", "Jumping and blocks",
     "A piece may jump over any pieces except a block: three or more opponent pieces on neighbouring squares. Your own runs can be jumped.",
     "Squares {squares} are a block of three opponent pieces: no piece may pass it."),
    ("own", "Not on your own piece", _OWN, _OWN_BROKEN),
    ("capture", "Capture by swapping",
     "A piece may end on an opponent's piece: the two swap squares. A piece with a neighbour of its own colour (the square before or after it) is guarded and cannot be captured.",
     "The piece on {square} is guarded by a neighbour of its own colour on {others}, so it cannot be captured."),
    ("backward", "Moving backward",
     "Only if no piece can move forward, the player must move one piece backward by the throw, obeying all other rules. If that is impossible too, the turn passes.",
     "A backward move is allowed only when no piece can move forward; the piece on {squares} can.",
     "This companion's reading: a backward move with a 1, 4 or 6 still earns another throw."),
    ("safe", "Safe squares", "Pieces on 26 (House of Happiness), 28, 29 and 30 are safe: they cannot be captured.",
     "Square {squares} is a safe square: the piece there cannot be captured."),
    ("water", "House of Water",
     "A piece ending its move on 27 falls into the water and goes back to square 1, or to the first empty square after 1.",
     "A piece that ends on 27 falls into the water and must be put on square {squares}."),
    ("exit", "Bearing off",
     "A piece leaves the board only with the exact throw to reach 'square 31': 6 from 25, 3 from 28, 2 from 29, 1 from 30.",
     "The piece on {squares} needs the exact throw to leave the board."),
    ("win", "Winning", "The first player to bear off all five pieces wins.", _WIN_BROKEN),
    ("score", "Match scoring",
     "Optionally, the winner scores 1 point for each opponent piece left on row 3, 2 for each on row 2 and 3 for each on row 1.",
     "Scoring is counted when the game ends."),
)

SWAP_BARRIER = _system(
    "S",
    "Swap and barrier (Hungarian online rules)",
    "The first part of the Hungarian text (seed 000): rules chosen for playing Senet online.",
    ("setup", "Starting position", _SETUP, _SETUP_BROKEN,
     "This companion's reading: the text's figure is missing, so the pieces start as in Kendall's rules."),
    ("throw", "Throwing the sticks", _THROW_6, _THROW_BROKEN),
    ("start", "Who starts",
     "Players throw in turn; the first to throw a 1 plays dark and uses it to move the piece on 10 to 11.",
     "The first move must be made with the piece on square {squares}."),
    ("again", "Throwing again", "After 1, 4 or 6 the same player throws again; after 2 or 3 the opponent throws.", _TURN_BROKEN),
    ("exact", "Exact moves", "Move one piece exactly the number thrown. A throw cannot be split between pieces.", _THROW_BROKEN),
    ("forward", "Forward only", "Pieces move forward along the path, except when S.backward applies.",
     "The piece may not move backward from {from} to {to}."),
    ("own", "Not on your own piece", _OWN, _OWN_BROKEN),
    ("swap", "Swapping a lone piece",
     "Pieces are never removed. An opponent piece can be taken only if it stands alone: it then swaps squares with the piece that took it.",
     "The piece on {square} is not alone: its neighbour on {others} protects it."),
    ("block", "Three in a row",
     "No piece may pass three opponent pieces standing on neighbouring squares.",
     "Squares {squares} hold three opponent pieces in a row: no piece may pass them.",
     "This companion's reading: the block also stops pieces moving backward."),
    ("backward", "Moving backward",
     "If no piece can move forward, the player must move one backward by the throw; landing on a lone opponent swaps it forward.",
     "A backward move is allowed only when no piece can move forward; the piece on {squares} can."),
    ("stuck", "Stuck loses", "A player who cannot move at all loses the game.", "With no move at all, this player loses the game."),
    ("water", "House of Water",
     "A piece landing on 27 goes to square 15, or to square 1 if 15 is taken.",
     "Square 27 may be entered only when no other move exists; a piece that lands there goes on to square {squares}.",
     "This companion's reading: if 1 is taken too, the first empty square after 1; and a move into the water is allowed only when the player has no other move at all, forward or backward."),
    ("safe", "Safe squares", "Pieces on 26, 28 and 29 cannot be attacked.", "Square {squares} is a safe square: the piece there cannot be attacked."),
    ("barrier", "The barrier",
     "No piece may leave the board while a piece of the same colour still stands on squares 1 to 10 (also after falling back from the water).",
     "The piece on {square} cannot leave yet: you still have pieces on {others}, in row 1."),
    ("off", "Bearing off",
     "A piece that reaches square 30 or beyond with its throw leaves the board. No exact throw is needed.",
     "The piece on {squares} leaves the board by reaching square 30 or beyond.",
     "This companion's reading: reaching 30 already takes the piece off, so square 30 is never occupied."),
    ("win", "Winning", "The first player with all five pieces off the board wins.", _WIN_BROKEN),
)

BLOCKADE = _system(
    "B",
    "Blockade rules (Hungarian)",
    "The Hungarian text of seed 001: strict turns, blockades of two and three, touch-move.",
    ("setup", "Starting position", _SETUP, _SETUP_BROKEN,
     "This companion's reading: the text's figure is missing, so the pieces start as in Kendall's rules."),
    ("start", "Who starts",
     "Lots decide who starts (the companion can draw them). The starter plays dark and must first move the piece on square 10.",
     "The first move must be made with the piece on square {squares}.",
     "This companion's reading: the starter throws and moves the piece on 10 by whatever was thrown."),
    ("throw", "Throwing the sticks", _THROW_6, _THROW_BROKEN),
    ("turns", "One throw each", "Players simply alternate: one throw and one move each. There are no extra throws.", _TURN_BROKEN),
    ("capture", "Capture by swapping",
     "Landing on an opponent piece swaps the two pieces, unless that piece is part of a blockade: two or three pieces of one colour side by side. A move may not end on your own piece.",
     "The piece on {square} is part of a blockade (or is your own), so the move cannot end there."),
    ("block3", "Three in a row", "A row of three or more opponent pieces cannot be passed.",
     "Squares {squares} hold three opponent pieces in a row: no piece may pass them."),
    ("backward", "Moving backward",
     "If no piece can move forward, the player must move one backward by the throw; capturing backward is allowed. If neither is possible, the turn passes.",
     "A backward move is allowed only when no piece can move forward; the piece on {squares} can."),
    ("safe", "Safe squares", "Pieces on 26, 28 and 29 are safe from capture.", "Square {squares} is a safe square: the piece there cannot be captured."),
    ("water", "House of Water",
     "A piece entering 27 goes back to square 1. Entering 27 is allowed only when there is no other move.",
     "Square 27 may be entered only when no other move exists; a piece that lands there goes on to square {squares}.",
     "This companion's reading: if square 1 is taken, the first empty square after it; 'no other move' means no other move forward or backward."),
    ("touch", "Touch-move",
     "A player who picks up one of their pieces must move that piece, if it has a legal move.",
     "You touched the piece on {squares}: that piece must be moved."),
    ("home", "Home row first",
     "Pieces may leave the board only when all of the player's pieces are on the last row (21 to 30) or already off.",
     "The piece on {square} cannot leave yet: your pieces on {others} are not on the last row."),
    ("exit", "Bearing off", "Leaving the board needs the exact throw: 1 from 30, 2 from 29, 3 from 28, 6 from 25.",
     "The piece on {squares} needs the exact throw to leave the board."),
    ("optional", "Passing in the endgame",
     "When all of a player's pieces are on the last row or off, and the throw lets no piece leave, the player may decline to move.",
     "Passing is allowed only in the endgame, when no piece can leave with this throw.",
     "This companion's reading: moves along the last row stay allowed; passing is a choice, not a duty."),
    ("win", "Winning", "The first player with all pieces off the board wins.", _WIN_BROKEN),
)

HOUSES = _system(
    "H",
    "The Houses (Russian reading)",
    "The Russian text of seed 002, where the pieces are dancers and the last five squares are Houses with rules of their own.",
    ("setup", "Starting position", _SETUP, _SETUP_BROKEN,
     "This companion's reading: dark, the first mover, takes the even squares."),
    ("throw", "Throwing the sticks", _THROW_5, _THROW_BROKEN),
    ("start", "Who starts",
     "Players throw until one throws a 1; that player plays dark and starts.",
     "The first move belongs to the player who threw the first 1.",
     "This companion's reading: the deciding 1 is not played; the starter then throws and moves normally."),
    ("again", "Throwing again",
     "After 1, 4 or 5 the player moves and throws again; after 2 or 3 the turn passes. A throw used by a piece in or entering a House (26 to 30) never earns another throw.",
     _TURN_BROKEN),
    ("jump", "No passing two pieces",
     "A piece may jump over a single piece, but never over two or more pieces standing side by side, whatever their colours.",
     "Squares {squares} hold two pieces side by side: no piece may pass them."),
    ("capture", "Capture by swapping",
     "Landing on a lone opponent piece swaps the two. Two pieces of one colour side by side guard each other; in a row of three or more, the second piece from the rear (the lower-numbered end) can be captured, splitting the row. A move may not end on your own piece.",
     "The piece on {square} is guarded (or is your own), so the move cannot end there."),
    ("overshoot", "Too big a throw",
     "If no piece can use the whole throw, a piece may go as far forward as it can and spend the rest moving backward. If it falls short by exactly one, it may instead stop one square short. Only if nothing is possible is the turn skipped.",
     "This kind of move is allowed only when no piece can use the whole throw; the piece on {squares} can.",
     "This companion's reading: the piece turns round on the farthest empty square it can reach (never beyond 26) and may not end where it started; stopping one short needs that square to be reachable and empty. A throw that would carry the piece past 26 ends on 26, so when 26 is taken the piece may also stop on 25."),
    ("beauty", "House of Beauty (26)",
     "Every piece must stop on 26, even with points left over. From 26 a later throw decides: 5 takes it off; 1 to 4 moves it to 27, 28, 29 or 30; if that square is taken it goes to 27, and if 27 is taken too, to 15.",
     "The piece must go to square {squares}: every piece stops on 26, and a taken House sends it on."),
    ("water", "House of Water (27)",
     "A piece in the water must use its owner's next throw: 5 leaves it where it is, 4 takes it off the board, 1, 2 or 3 send it to 15.",
     "The throw must be used by the piece in the water on square {squares}.",
     "This companion's reading: a 5 is used by the piece staying in the water, so the turn passes."),
    ("truths", "House of Three Truths (28)", "A piece on 28 leaves the board only with a 3; otherwise it stays.",
     "The piece on {squares} can only leave the board, and only with a 3."),
    ("isis", "House of Isis and Nephthys (29)", "A piece on 29 leaves the board only with a 2; otherwise it stays.",
     "The piece on {squares} can only leave the board, and only with a 2."),
    ("ra", "House of Ra-Horakhty (30)", "A piece on 30 leaves the board only with a 1; otherwise it stays.",
     "The piece on {squares} can only leave the board, and only with a 1."),
    ("houses", "Inside the Houses", "Inside the Houses (26 to 30) there is no normal movement and no capture.",
     "Square {squares} is a House: no piece can be captured there."),
    ("rebirth", "House of Rebirth (15)",
     "A piece sent to 15 that finds it taken stands on the first empty square behind it (14, 13, ...).",
     "The piece must go to square {squares}, the first free square at or behind 15."),
    ("win", "Winning", "The first player with all five pieces off the board wins.", _WIN_BROKEN),
)

NETHERWORLD = _system(
    "N",
    "Passing through the netherworld",
    "The Czech and English text of seed 003, 'Senet or the game of passing through the netherworld'.",
    ("setup", "Starting position and start",
     "Each player has five pieces, alternating on squares 1 to 10. Players throw until one throws a 1; that player plays dark and starts.",
     "The game starts from the set-up position, and the player who threw the first 1 moves first (square {squares}).",
     "This companion's reading: dark takes the even squares and starts; the deciding 1 is not played."),
    ("throw", "Throwing the sticks", _THROW_5, _THROW_BROKEN),
    ("again", "Throwing again", "After 1, 4 or 5 the player throws again; after 2 or 3 the turn is over.", _TURN_BROKEN),
    ("capture", "Capture by swapping",
     "Landing on a lone opponent piece swaps the two. A player may not land on their own piece.",
     "Square {squares} holds one of your own pieces."),
    ("guard", "Guarding pieces",
     "Two or more pieces of one colour side by side cannot be attacked. Nothing stops pieces jumping over others.",
     "The piece on {square} is guarded by its neighbour on {others}, so it cannot be attacked.",
     "This companion's reading: a piece on 26 is guarded by its own colour on 25 or on 27 (the source's unguarded last four squares are the pieces on 27 to 30, which are never guarded)."),
    ("backward", "Moving backward",
     "A player must move forward if any piece can. Otherwise one piece moves backward and the turn ends, with no extra throw. With no move at all the turn is lost.",
     "A backward move is allowed only when no piece can move forward; the piece on {squares} can.",
     "This companion's reading: a piece on 26 may move backward; pieces on 27 to 30 never do."),
    ("good", "House of Good (26)",
     "Every piece must stop on 26 with an exact throw before going further: no move may pass 26. From 26: 1 goes to 27, 2 to 28, 3 to 29, 4 to 30, and 5 takes the piece off.",
     "No move may pass square {squares}: every piece must stop there first."),
    ("last4", "The last four squares",
     "On 27 to 30 pieces do not guard each other. A piece landing on an opponent there sends it to 27 if 27 is empty; otherwise the two swap.",
     "The captured piece must go to square {squares}."),
    ("water", "House of Water (27)",
     "Landing on 27 ends the turn. At the owner's next turn, before throwing, the owner chooses: return the piece to 15 (turn over; if 15 is taken, the first empty square behind it), or throw for a 4: a 4 takes it off with another throw, anything else loses the turn.",
     "While your piece is in the water (square {squares}) the turn is about that piece.",
     "This companion's reading: returning to 15 is also accepted after the sticks were thrown."),
    ("judges3", "House of Three Judges (28)", "A piece on 28 cannot move; it leaves the board with exactly 3.",
     "The piece on {squares} can only leave the board, and only with a 3."),
    ("judges2", "House of Two Judges (29)", "A piece on 29 cannot move; it leaves the board with exactly 2.",
     "The piece on {squares} can only leave the board, and only with a 2."),
    ("horus", "House of Horus (30)", "A piece on 30 leaves the board with any throw.", "The piece on {squares} can only leave the board."),
    ("win", "Winning", "The first player with all five pieces off the board wins.", _WIN_BROKEN),
)

LUDII_KENDALL = _system(
    "LK",
    "Kendall's rules as coded in Ludii",
    "Ludii 1.3.13 (Maastricht University's general game system), ruleset 'Kendall (Scholarly)' of Senet.lud, and its 'Kendall 5 pieces' option. This companion follows Ludii move for move.",
    ("setup", "Starting position",
     "Seven pieces each, alternating on squares 1 to 14: dark on 2, 4, ..., 14 and light on 1, 3, ..., 13. With the five-piece option, five each on 1 to 10.",
     _SETUP_BROKEN),
    ("start", "Who starts",
     "Players throw until one throws a 1. That player plays dark; the front piece moves by itself from 14 to 15 (10 to 11 with five pieces), and dark throws again.",
     "The first move belongs to the player who threw the first 1 (square {squares})."),
    ("throw", "Throwing the sticks", _THROW_5, _THROW_BROKEN),
    ("again", "Throwing again",
     "After 1, 4 or 5 the player throws again, even after having to pass; after 2 or 3 the turn passes.",
     _TURN_BROKEN,
     "As in Ludii: moves out of the water, and the forced move of a piece that came out of it, never earn another throw."),
    ("capture", "Capture by swapping",
     "A piece may land on an opponent piece, forward or backward, and the two swap, unless the target has a piece of its own colour next to it on the path. No rule stops pieces passing three in a row. A move may not end on your own piece.",
     "The piece on {square} is guarded by a neighbour of its own colour (or is your own), so the move cannot end there.",
     "As in Ludii: a piece on 11 is also guarded by one of its colour on 30, and a piece on 20 by one on 1 (Ludii looks along the grid)."),
    ("backward", "Moving backward",
     "Only if no piece can move forward, a piece moves backward by the throw, and only from squares 1 to 26.",
     "A backward move is allowed only when no piece can move forward (the piece on {squares} can), and never from 27 to 30."),
    ("26", "Square 26",
     "A piece on 1 to 25 may not go beyond 26: 26 must be hit exactly. From 26: 1 to 27 (if empty), 2 to 28, 3 to 29, 4 to 30, 5 off the board.",
     "The move cannot go past or through square {squares}.",
     "As in Ludii 1.3.13: from 26 an opponent on 27 to 30 cannot be captured (its test for an empty 27 never succeeds)."),
    ("27", "The water (27)",
     "While a player has a piece on 27 it is the only piece they can use: a 4 bears it off; any other throw moves it to 15 if 15 is empty, or the player passes. No extra throw comes from the water.",
     "While your piece is in the water (square {squares}) it is the only piece you can use.",
     "As in Ludii: the player may also pass instead of moving the piece to 15."),
    ("15", "Out of the water (15)",
     "A piece that came to 15 from the water must be the piece moved at its owner's next turn: forward if possible, else backward. Pairs still protect during that move.",
     "The piece on square {squares} came out of the water and must move now."),
    ("exit", "Bearing off", "From 28 a piece leaves with exactly 3, from 29 with exactly 2, from 30 with any throw.",
     "The piece on {squares} leaves only with the exact throw."),
    ("win", "Winning", "The first player to remove all their pieces wins.", _WIN_BROKEN),
)

_PARTS_BROKEN = "The piece on {squares} is not the one to move now: first one of your own pieces, then one of your opponent's."
_OCCUPIED = ("occupied", "Square {square} is not empty: a move must end on an empty square.")
_TWICE = ("twice", "The piece on {from} could reach {to} only by touching a square twice.")

PHARAO = _system(
    "P",
    "PHARAO",
    "The second part of the Hungarian text of seed 000, 'PHARAO, SENET-Spiele' from the German-speaking area: "
    "a game on the Senet board in which pieces move like rooks, one step at a time.",
    ("setup", "Starting position",
     "Each player has four pieces: light on 2, 3, 4 and 5, dark on 20, 21, 22 and 23. Light starts.",
     _SETUP_BROKEN),
    ("dice", "The two dice",
     "Two special dice are thrown together. The own die has the faces 0, 0, 1, 2, 3 and 4; the opponent die 0, 0, 1, 2, 1 and 2.",
     "The dice cannot show that: the own die shows 0 to 4 and the opponent die 0 to 2."),
    ("turn", "A turn in two parts",
     "First move one of your own pieces by the own die, then one of your opponent's pieces by the opponent die. A 0 skips that part.",
     _PARTS_BROKEN),
    ("path", "Moving one step at a time",
     "A piece moves exactly as many steps as its die shows, each step to a neighbouring square to the left, right, up or down "
     "on the 3 by 10 grid (not along the S-shaped path). The path may not touch any square twice and must end on an empty square.",
     "With {throw} steps the piece on {from} cannot reach {to}.",
     "This companion's reading: the path may pass over occupied squares.",
     (_OCCUPIED, _TWICE)),
    ("must", "Moving is compulsory",
     "Each part of the turn must be played. A player who cannot carry out a part (with a die other than 0) loses.",
     "A move is possible, so this part cannot be left out."),
    ("water", "The water (27)",
     "A piece ending on 27 has fallen into the water. You may move your own piece onto 27 only if you have no other move; "
     "your opponent's pieces may be pushed in freely. A piece in the water cannot be moved by either die.",
     "You may move your own piece into the water (27) only when you have no other move.",
     None,
     (("held", "The piece on 27 is in the water: neither die can move it."),)),
    ("rescue", "Rescue from the water (26)",
     "At the end of the owner's next own move, if one of the owner's pieces stands on 26, the drowning piece is rescued and at once "
     "makes a 3-step move of the owner's choice; if it cannot, it drowns. Otherwise it drowns: it leaves the board before the opponent part.",
     "The piece rescued from the water (square {squares}) must make its 3-step move now.",
     "This companion's reading: the piece on 26 may have moved there this turn or stood there already, the rescued piece's "
     "3 steps follow the path rule, and a part skipped with a 0 counts as the owner's move."),
    ("lucky", "The lucky square (15)",
     "A player with a single piece left who moves it onto 15 with the own die wins at once.",
     _WIN_BROKEN),
    ("win", "Winning",
     "A player wins by drowning all the opponent's pieces, or when the opponent cannot carry out a part of the turn.",
     _WIN_BROKEN),
)

RAMSES = _system(
    "R",
    "RAMSES",
    "The third part of the Hungarian text of seed 000. The text itself says that neither the name nor the rules are ancient; "
    "its figure of the board is lost.",
    ("board", "The board",
     "The 3 by 10 Senet grid. Squares 26 to 30 are marked; squares 11 to 13 and 18 to 20 each form one long square of the middle row.",
     "Square {squares} is not a square of this board.",
     "This companion's reading: the figure is lost, so this board is a reconstruction; a museum with the real board can change it "
     "in the layout file."),
    ("setup", "Placing the pieces",
     "Dark and light take turns placing one piece at a time, four each, on unmarked squares. Dark places first; light makes the first move.",
     "Square {square} is taken: place the piece on an empty unmarked square.",
     "This companion's reading: dark places first and light moves first; a piece placed on a long square stands in the third "
     "where it was put.",
     (("marked", "Square {square} is marked: pieces are placed on unmarked squares only."),)),
    ("turn", "A turn in two parts",
     "Move one of your own pieces, then one of your opponent's, each one step at a time to the left, right, up or down: "
     "turning is allowed, diagonal steps never.",
     _PARTS_BROKEN),
    ("distance", "How far a piece goes",
     "A piece goes as many steps as there are pieces in its row or in its column, whichever is more.",
     "The piece on {from} must go exactly {throw} steps (the pieces in its row or column), so it cannot reach {to}.",
     "This companion's reading: the piece itself counts, pieces of both colours count, and a piece on a long square is in "
     "the column of the third it stands in."),
    ("path", "The path",
     "No square, empty or occupied, may be touched twice in one move, and the move must end on an empty square.",
     "Square {square} is not empty: a move must end on an empty square.",
     None,
     (_OCCUPIED, _TWICE)),
    ("long", "Long squares",
     "A long square counts as one square and holds one piece. A piece passes through it from a short end out to a neighbour "
     "along a long side, or the reverse. A piece that stops on it stands in one third of it, beside the neighbours it may leave by.",
     "A long square ({squares}) is crossed from a short end to a long side or the reverse, never from side to side.",
     "This companion's reading: the position is what the board shows, the third a piece stands in. A piece standing in a third "
     "leaves by a neighbour beside that third or by a short end (the source limits the way out by the way in, which a board "
     "does not show)."),
    ("marked", "Marked squares",
     "An opponent's piece on a marked square (26 to 30) may not be moved; your own may leave.",
     "The opponent's piece on {square} stands on a marked square: you may not move it."),
    ("win", "Winning",
     "A player wins by holding three of the five marked squares, or when the opponent cannot carry out a part of the turn.",
     _WIN_BROKEN,
     "This companion's reading: three marked squares win for whoever holds them, after any part of a turn, even when the "
     "opponent's part put the third piece there."),
)

RULE_SYSTEMS: Mapping[str, RuleSystem] = MappingProxyType(
    {system.prefix: system for system in (KENDALL, SWAP_BARRIER, BLOCKADE, HOUSES, NETHERWORLD, LUDII_KENDALL, PHARAO, RAMSES)}
)
_BY_ID = MappingProxyType({r.id: r for system in RULE_SYSTEMS.values() for r in system.rules})


def rule(rule_id: str) -> Rule:
    """The rule with this ID; KeyError naming it when there is none."""
    try:
        return _BY_ID[rule_id]
    except KeyError:
        raise KeyError(f"no rule {rule_id!r} in the rule book") from None


def join_squares(squares: tuple[int, ...] | list[int]) -> str:
    """'14', '14 and 15', '3, 5 and 7'.

        >>> join_squares((3, 5, 7))
        '3, 5 and 7'
    """
    names = ["off" if square == 31 else str(square) for square in squares]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def violation_fields(squares: tuple[int, ...], from_square: int, to_square: int, throw: int,
                     join: Callable[[tuple[int, ...]], str] = join_squares) -> dict[str, object]:
    """The values a ``broken`` sentence may use; ``join`` names squares (another language's may).

        >>> violation_fields((14, 15), 12, 31, 2)["to"], violation_fields((14, 15), 12, 14, 2)["squares"]
        ('off', '14 and 15')
    """
    return {"square": join(squares[:1]), "others": join(squares[1:]), "squares": join(squares), "throw": throw,
            "from": join((from_square,)), "to": join((to_square,))}


def describe_violation(rule_id: str, squares: tuple[int, ...], from_square: int, to_square: int, throw: int, case: str = "") -> str:
    """The sentence a visitor reads for a broken rule, with its squares filled in (English)."""
    return rule(rule_id).sentence(case).format(**violation_fields(squares, from_square, to_square, throw))
