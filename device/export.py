"""Match records out of the store and back in: readable text in the spirit of PGN, and JSON.

The text form has header tags, then one line per event with its time::

    [Event "Senet match 3"]
    [Site "Room 61"]
    [Date "2026-11-24T08:30:00Z"]
    [End "-"]
    [Variant "netherworld"]
    [Dark ""]
    [Light ""]
    [Result "*"]
    [Termination "-"]

    2026-11-24T08:30:05Z throw 1 camera
    2026-11-24T08:30:09Z throw 3 electronic 1110
    2026-11-24T08:30:20Z move 10-13
    2026-11-24T08:30:40Z illegal 9-13 3 N.occupied LDLDLDLDL...D................
    2026-11-24T08:31:00Z pass
    2026-11-24T08:31:10Z undo
    2026-11-24T08:32:00Z position .............................D dark 1

Several matches follow each other, a blank line apart. Reading one back replays every
event through the rules: the first line that does not fit is named and nothing is taken.

    >>> text = '[Variant "netherworld"]\\n\\n2026-11-24T08:30:05Z throw 1 camera\\n'
    >>> [(m.variant, [e.kind.value for e in events]) for m, events in parse_text(text)]
    [('netherworld', ['throw'])]
"""

from __future__ import annotations

import json
import re
from typing import Any

from senet.device.store import EventKind, Match, MatchEvent, Termination, apply_event
from senet.engine.moves import Stage, parse_square, square_name
from senet.engine.referee import Referee
from senet.engine.throws import Dice
from senet.engine.variants import VARIANTS


class RecordError(ValueError):
    """A record that cannot be imported; the message names the line (or the JSON entry)."""


_TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')


def to_text(match: Match, events: list[MatchEvent]) -> str:
    """One match as text (see the module's example)."""
    tags = {"Event": f"Senet match {match.id}", "Site": match.place, "Date": match.started_at, "End": match.ended_at or "-",
            "Variant": match.variant, "Dark": match.dark_player, "Light": match.light_player, "Result": match.result,
            "Termination": match.termination.value if match.termination else "-"}
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()] + [""]
    lines += [f"{event.at} {_event_text(event)}" for event in events]
    return "\n".join(lines) + "\n"


def to_json(match: Match, events: list[MatchEvent]) -> dict[str, Any]:
    """One match as a JSON object."""
    return {"id": match.id, "variant": match.variant, "place": match.place, "dark_player": match.dark_player,
            "light_player": match.light_player, "started_at": match.started_at, "ended_at": match.ended_at,
            "winner": match.winner, "termination": match.termination.value if match.termination else None,
            "events": [{"at": event.at, "kind": event.kind.value} | event.data for event in events]}


def parse_text(text: str) -> list[tuple[Match, list[MatchEvent]]]:
    """Matches from text (checked against the rules); RecordError names the first bad line."""
    matches: list[tuple[int, dict[str, str], list[tuple[int, MatchEvent]]]] = []
    in_header = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("["):
            if not in_header:
                matches.append((number, {}, []))
                in_header = True
            tag = _TAG.match(line)
            if tag is None:
                raise RecordError(f"line {number}: a header tag is [Name \"value\"], not {line!r}")
            matches[-1][1][tag.group(1)] = _unescape(tag.group(2))
            continue
        in_header = False
        if not matches:
            raise RecordError(f"line {number}: the record starts with its header tags ([Variant \"...\"] at least)")
        try:
            matches[-1][2].append((number, _parse_event(line)))
        except (ValueError, IndexError) as error:
            raise RecordError(f"line {number}: {error}") from None
    if not matches:
        raise RecordError("no match in the record")
    return [_checked(number, _match_from_tags(number, tags), events) for number, tags, events in matches]


def parse_json(text: str) -> list[tuple[Match, list[MatchEvent]]]:
    """Matches from JSON (one object, or a list of them); RecordError names the bad entry."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordError(f"not JSON: {error}") from None
    found = []
    for index, entry in enumerate(data if isinstance(data, list) else [data], 1):
        where = f"match {index}"
        if not isinstance(entry, dict) or not isinstance(entry.get("events"), list):
            raise RecordError(f"{where}: a match is an object with \"variant\" and \"events\"")
        try:
            match = Match(0, _variant(entry.get("variant")), _text(entry, "started_at"), entry.get("ended_at") and _text(entry, "ended_at"),
                          _text(entry, "place"), _text(entry, "dark_player"), _text(entry, "light_player"),
                          _winner(entry.get("winner")), _termination(entry.get("termination")))
        except ValueError as error:
            raise RecordError(f"{where}: {error}") from None
        events = []
        for number, item in enumerate(entry["events"], 1):
            try:
                if not isinstance(item, dict):
                    raise ValueError("an event is an object with \"at\" and \"kind\"")
                data = {key: value for key, value in item.items() if key not in ("at", "kind")}
                events.append((number, MatchEvent(EventKind(item.get("kind")), data, _text(item, "at"))))
            except ValueError as error:
                raise RecordError(f"{where}, event {number}: {error}") from None
        found.append(_checked(0, match, events, where))
    return found


def _checked(line: int, match: Match, events: list[tuple[int, MatchEvent]], where: str = "") -> tuple[Match, list[MatchEvent]]:
    """Replay the events through the rules: the first that does not fit is named."""
    referee = Referee(match.variant)
    for number, event in events:
        try:
            if event.kind is not EventKind.ILLEGAL:
                apply_event(referee, event)
        except ValueError as error:
            place = f"{where}, event {number}" if where else f"line {number}"
            raise RecordError(f"{place}: {error}") from None
    winner = referee.game.position.winner
    if match.winner != (winner.label if winner else None):
        place = where or f"line {line}"
        raise RecordError(f"{place}: the result says {match.winner or 'no winner'}, the moves give {winner.label if winner else 'no winner'}")
    return match, [event for _, event in events]


def _match_from_tags(line: int, tags: dict[str, str]) -> Match:
    try:
        result = tags.get("Result", "*")
        termination = tags.get("Termination", "-")
        end = tags.get("End", "-")
        return Match(0, _variant(tags.get("Variant")), tags.get("Date", ""), None if end == "-" else end, tags.get("Site", ""),
                     tags.get("Dark", ""), tags.get("Light", ""), result if result in ("dark", "light") else None,
                     None if termination == "-" else _termination(termination))
    except ValueError as error:
        raise RecordError(f"line {line}: {error}") from None


def _event_text(event: MatchEvent) -> str:
    data, kind = event.data, event.kind
    if kind is EventKind.THROW:
        if "dice" in data:
            return f"throw {Dice(*data['dice'])} {data.get('source', 'electronic')}"
        sticks = "".join(str(int(bool(side))) for side in data["sticks"]) if "sticks" in data else ""
        return f"throw {data['light_up']} {data.get('source', 'camera')} {sticks}".rstrip()
    if kind is EventKind.MOVE:
        return f"move {square_name(data['from'])}-{square_name(data['to'])}"
    if kind is EventKind.ILLEGAL:
        squares = f"{_or_dash(data.get('from'))}-{square_name(data['to']) if data.get('to') else '-'}"
        return f"illegal {squares} {_or_dash(data.get('throw'))} {','.join(data.get('rules', [])) or '-'} {data.get('board') or '-'}"
    if kind is EventKind.POSITION:
        throw = Dice(*data["dice"]) if data.get("dice") else data.get("throw")
        stage = f" {data['stage']}" if data.get("stage") else ""
        return f"position {data['board']} {data['turn']} {_or_dash(throw)}{stage}"
    return kind.value


def _parse_event(line: str) -> MatchEvent:
    at, kind_name, *fields = line.split()
    kind = EventKind(kind_name)
    data: dict[str, Any] = {}
    if kind is EventKind.THROW and "+" in fields[0]:
        data = {"dice": list(Dice.parse(fields[0])), "source": fields[1]}
    elif kind is EventKind.THROW:
        data = {"light_up": _count(fields[0]), "source": fields[1]}
        if fields[1] not in ("camera", "electronic"):
            raise ValueError(f"a throw comes from the camera or the electronic sticks, not {fields[1]!r}")
        if len(fields) > 2:
            if not re.fullmatch(r"[01]{4}", fields[2]) or fields[2].count("1") != data["light_up"]:
                raise ValueError(f"the four sticks {fields[2]!r} do not show {data['light_up']} light sides")
            data["sticks"] = [side == "1" for side in fields[2]]
    elif kind is EventKind.MOVE:
        start, _, end = fields[0].partition("-")
        data = {"from": parse_square(start), "to": parse_square(end)}
    elif kind is EventKind.ILLEGAL:
        start, _, end = fields[0].partition("-")
        data = {"from": None if start == "-" else parse_square(start), "to": None if end == "-" else parse_square(end),
                "throw": None if fields[1] == "-" else int(fields[1]), "rules": [] if fields[2] == "-" else fields[2].split(","),
                "board": None if fields[3] == "-" else fields[3]}
    elif kind is EventKind.POSITION and "+" in fields[2]:
        data = {"board": fields[0], "turn": fields[1], "throw": None, "dice": list(Dice.parse(fields[2]))}
    elif kind is EventKind.POSITION:
        data = {"board": fields[0], "turn": fields[1], "throw": None if fields[2] == "-" else int(fields[2])}
    elif fields:
        raise ValueError(f"{kind.value} takes nothing after it")
    if kind is EventKind.POSITION and len(fields) > 3:
        data["stage"] = Stage.from_word(fields[3]).word
    return MatchEvent(kind, data, at)


def _variant(name: object) -> str:
    if not isinstance(name, str) or name not in VARIANTS:
        raise ValueError(f"unknown rule system {name!r}; known: {', '.join(VARIANTS)}")
    return name


def _winner(value: object) -> str | None:
    if value not in (None, "dark", "light"):
        raise ValueError(f"the winner is \"dark\", \"light\" or null, not {value!r}")
    return value  # type: ignore[return-value]


def _termination(value: object) -> Termination | None:
    return None if value is None else Termination(value)


def _text(entry: dict[str, Any], key: str) -> str:
    value = entry.get(key, "")
    if not isinstance(value, str):
        raise ValueError(f"{key} must be text")
    return value


def _count(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 4:
        raise ValueError(f"four sticks show 0 to 4 light sides, not {value}")
    return value


def _or_dash(value: object) -> str:
    return "-" if value is None else str(value)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)
