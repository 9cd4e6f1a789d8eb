"""The kept matches on the page, in the visitor's words: a match's events one step at a time,
its result, and what the throws say about the sticks.

    >>> from babel.support import NullTranslations
    >>> from senet.engine.fairness import judge
    >>> say = Words("en", NullTranslations())
    >>> result_words(Match(1, "kendall", "2026-11-24T08:30:00Z", winner="light"), say)
    'light wins'
    >>> fairness_words("camera", judge([1, 2, 3, 0, 0]), 5, say).verdict
    'Too few throws to tell yet (6 of the 80 needed).'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from babel.dates import format_datetime, format_time
from babel.numbers import format_decimal

from senet.device.store import EventKind, Match, Step, Termination
from senet.engine.board import format_board
from senet.engine.fairness import FAIR_CHANCES, Fairness, Verdict
from senet.engine.throws import throw_value
from senet.engine.variants import VARIANTS
from senet.web.i18n import EVENT_TITLES, N_, PLAYERS, Words

#: A match that ended without a winner, by how it ended.
ENDINGS = {
    Termination.NEW_GAME: N_("abandoned: a new game was started"),
    Termination.IDLE_RESET: N_("abandoned: nobody played for a while"),
    Termination.DAMAGED: N_("closed: its record no longer fits the rules"),
}
WINS = {"dark": N_("dark wins"), "light": N_("light wins")}
THROWN_WITH = {"camera": N_("thrown with the sticks on the table, seen by the camera"),
               "electronic": N_("thrown with the button (electronic sticks)")}
#: What the referee says of a piece moved before the sticks were thrown (an attempt without its squares).
NOT_THROWN = N_("Throw the sticks before moving a piece: put it back.")
STICKS = {"camera": N_("The sticks on the table (camera)"), "electronic": N_("The electronic sticks (button)")}
#: Where PHARAO's dice came from.
DICE_FROM = {"electronic": N_("thrown with the button (electronic dice)"), "table": N_("the dice on the table, entered on the page")}


@dataclass(frozen=True)
class StepWords:
    """One step of a match as the page shows it: the board after it and what happened."""

    number: int
    kind: str
    board: str
    title: str
    squares: str  # "12-15", "3" for a throw, "" for the rest (read left to right)
    text: str
    rules: tuple[str, ...]
    status: str
    time: str
    marked: tuple[int, ...]  # the squares a move or an attempt went from and to


@dataclass(frozen=True)
class FairnessWords:
    """One set of sticks: its verdict in words and, per number of light sides, the throws seen and expected."""

    title: str
    verdict: str
    fairness: Fairness
    p_value: str  # the chi-square test's ("" while there are too few throws)
    rows: tuple[tuple[int, int, int, str], ...]  # light sides up, the throw it is, seen, expected of fair sticks


def local_time(iso: str, code: str, with_date: bool = True) -> str:
    """A stored UTC time in this companion's time zone, as the visitor's language writes it."""
    try:
        moment = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return iso
    return format_datetime(moment, "short", locale=code) if with_date else format_time(moment, "medium", locale=code)


def result_words(match: Match, say: Words) -> str:
    """Who won, that the match goes on, or why it ended without a winner."""
    if match.winner in WINS:
        return say(WINS[match.winner])
    if match.ended_at is None:
        return say(N_("playing"))
    return say(ENDINGS.get(match.termination, N_("abandoned")))


def players_words(match: Match, say: Words) -> str:
    """The players' names when given: "dark: Ann · light: Ben"."""
    names = [f"{say(PLAYERS[side])}: {name}" for side, name in (("dark", match.dark_player), ("light", match.light_player)) if name]
    return " · ".join(names)


def step_words(match: Match, steps: list[Step], say: Words) -> list[StepWords]:
    """The match step by step: step 0 is the start, step N the position after event N."""
    variant = VARIANTS[match.variant]
    first = variant.first_player.label if variant.in_parts else None
    start = StepWords(0, "start", format_board(variant.start_board()), say(EVENT_TITLES["start"]), "",
                      say(N_("the pieces are set up; nobody has thrown yet")), (), _status(first, None, None, say, variant.in_parts),
                      local_time(match.started_at, say.code, with_date=False), ())
    words = [start]
    for number, step in enumerate(steps, 1):
        event, data = step.event, step.event.data
        squares, text, rules, marked = "", "", (), ()
        if event.kind is EventKind.THROW and "dice" in data:
            squares = "+".join(map(str, data["dice"]))
            text = say(DICE_FROM.get(data.get("source"), DICE_FROM["electronic"]))
        elif event.kind is EventKind.THROW:
            squares = str(throw_value(int(data["light_up"]), variant.zero_value))
            text = say(THROWN_WITH.get(data.get("source"), THROWN_WITH["camera"]))
        elif event.kind in (EventKind.MOVE, EventKind.ILLEGAL) and data.get("from") and data.get("to"):
            marked = (data["from"], data["to"])
            squares = f"{say.squares((data['from'],))}-{say.squares((data['to'],))}"
        if event.kind is EventKind.ILLEGAL:
            violations = [violation.to_dict() for violation in step.broken]
            rules = tuple(violation.rule for violation in step.broken)
            entry = {"violations": violations, "from": data.get("from"), "to": data.get("to"), "throw": data.get("throw")}
            text = say.describe(entry) if marked else say(NOT_THROWN)
        elif event.kind is EventKind.PASS:
            text = say(N_("no move: the turn passes"))
        elif event.kind is EventKind.UNDO:
            text = say(N_("the last move was taken back"))
        elif event.kind is EventKind.POSITION:
            text = say(N_("the position was set by hand"))
        winner = match.winner if number == len(steps) else None
        title = say(N_("Position set")) if event.kind is EventKind.POSITION else say(EVENT_TITLES[event.kind.value])
        words.append(StepWords(number, event.kind.value, step.board, title, squares, text, rules,
                               _status(step.turn, step.throw, winner, say, variant.in_parts),
                               local_time(event.at, say.code, with_date=False), marked))
    return words


def fairness_words(source: str, fairness: Fairness, zero_value: int | None, say: Words) -> FairnessWords:
    """The verdict on one set of sticks in plain words, with the throw each count is under ``zero_value``
    (None: the current rules throw no sticks)."""
    if fairness.verdict is Verdict.FAIR:
        verdict = say(N_("These sticks look fair."))
    elif fairness.verdict is Verdict.BIASED and fairness.favoured is not None and zero_value is None:
        verdict = say.fill(N_("They favour {light_up} of 4 light sides up."), {"light_up": fairness.favoured})
    elif fairness.verdict is Verdict.BIASED and fairness.favoured is not None:
        verdict = say.fill(N_("They favour {light_up} of 4 light sides up: a throw of {throw} in the current rules."),
                           {"light_up": fairness.favoured, "throw": throw_value(fairness.favoured, zero_value)})
    else:
        verdict = say.fill(N_("Too few throws to tell yet ({count} of the {needed} needed)."),
                           {"count": fairness.throws, "needed": fairness.needed})
    rows = tuple((light_up, "–" if zero_value is None else throw_value(light_up, zero_value), seen,
                  format_decimal(fairness.throws * chance, "0.0", locale=say.code))
                 for light_up, (seen, chance) in enumerate(zip(fairness.counts, FAIR_CHANCES)))
    p_value = "" if fairness.verdict is Verdict.TOO_FEW else format_decimal(fairness.p_value, "0.000", locale="en")
    return FairnessWords(say(STICKS[source]), verdict, fairness, p_value, rows)


def _status(turn: str | None, throw: int | None, winner: str | None, say: Words, in_parts: bool = False) -> str:
    """Whose turn it is and the throw to use, as a sentence (a grid game: whose turn it is)."""
    if winner in WINS:
        text = say(WINS[winner])
    elif in_parts and turn in PLAYERS:
        text = say.fill(N_("{player} to play"), {"player": say(PLAYERS[turn])})
    elif turn not in PLAYERS:
        text = say(N_("Throw the sticks: whoever throws a 1 first starts."))
    elif throw is None:
        text = say.fill(N_("{player} to throw"), {"player": say(PLAYERS[turn])})
    else:
        text = say.fill(N_("{player} threw {throw}"), {"player": say(PLAYERS[turn]), "throw": throw})
    return text[:1].upper() + text[1:]

