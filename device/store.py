"""The match store: every match the companion saw, in one SQLite file that survives a power cut.

Each match has its rule system, start and end times, the place and the players' names when
given, and every event with its time: throws (camera or electronic), moves, illegal
attempts with the rules they broke, passes, undos, positions set by hand, and how it ended.
Every event is one transaction, on disk (WAL, ``synchronous=FULL``) before the LEDs change.
A restart replays the match in progress into a fresh referee (:meth:`MatchStore.resume`).

A file that is not a match store (damaged, or another program's) is moved aside with a clear
message and a fresh store is started. When the disk is full the events wait in memory
(:attr:`MatchStore.problem` says why) and are written as soon as there is room again.

    >>> import pathlib, tempfile
    >>> store = MatchStore.open(pathlib.Path(tempfile.mkdtemp()) / "matches.db")
    >>> match = store.begin_match("netherworld", place="Room 61")
    >>> store.add(EventKind.THROW, {"light_up": 1, "source": "camera"})
    >>> store.add(EventKind.THROW, {"light_up": 3, "source": "camera"})
    >>> store.add(EventKind.MOVE, {"from": 10, "to": 13})
    >>> referee = store.resume()
    >>> referee.game.position.board_text[:13]
    'LDLDLDLDL...D'
    >>> [event.kind.value for event in store.events(match)]
    ['throw', 'throw', 'move']
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from typing import Any

from senet.engine.game import GameError
from senet.engine.moves import Stage, Violation
from senet.engine.player import Player
from senet.engine.position import IllegalMoveError, Position
from senet.engine.referee import Referee
from senet.engine.throws import Dice, DiceThrows

#: Marks the file as ours (SQLite's application_id: "SNET"), and the layout of its tables.
APPLICATION_ID = 0x534E4554
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    place TEXT NOT NULL DEFAULT '',
    dark_player TEXT NOT NULL DEFAULT '',
    light_player TEXT NOT NULL DEFAULT '',
    winner TEXT,
    termination TEXT
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    at TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX events_of_match ON events(match_id, id);
"""


class StoreError(RuntimeError):
    """The store cannot be used (the message says what to do)."""


class UnusableFile(StoreError):
    """The file is not a match store this companion can read (it is put aside)."""


class EventKind(str, Enum):
    """What happened in a match. Throws, moves, passes, undos and positions make the game;
    illegal attempts are kept for the record."""

    THROW = "throw"  # {"light_up": N, "source": "camera"|"electronic", "sticks": [...]?}, or {"dice": [own, other], "source"}
    MOVE = "move"  # {"from": N, "to": N}
    ILLEGAL = "illegal"  # {"from": N?, "to": N?, "rules": [...], "throw": N?}
    PASS = "pass"  # {}
    UNDO = "undo"  # {}
    POSITION = "position"  # {"board": 30 characters, "turn": "dark"|"light", "throw": N?, "dice": [own, other]?, "stage": "own"...?}


class Termination(str, Enum):
    """How a match ended."""

    WIN = "win"
    NEW_GAME = "new-game"  # the operator started another
    IDLE_RESET = "idle-reset"  # museum mode: abandoned
    DAMAGED = "damaged"  # its events no longer replay (kept, closed)


@dataclass(frozen=True)
class MatchEvent:
    kind: EventKind
    data: dict[str, Any]
    at: str


@dataclass(frozen=True)
class Match:
    """One match's header (times are ISO 8601, UTC)."""

    id: int
    variant: str
    started_at: str
    ended_at: str | None = None
    place: str = ""
    dark_player: str = ""
    light_player: str = ""
    winner: str | None = None  # "dark" or "light"
    termination: Termination | None = None
    events: int = 0

    @property
    def result(self) -> str:
        """"dark", "light", "abandoned" or "*" (in progress), as exports write it."""
        if self.winner:
            return self.winner
        return "*" if self.ended_at is None else "abandoned"


def now_iso() -> str:
    """The time now, as the store writes it (UTC, to the second)."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def apply_event(referee: Referee, event: MatchEvent) -> None:
    """Make a stored event happen again in ``referee`` (ValueError when it does not fit).

        >>> referee = Referee("netherworld")
        >>> apply_event(referee, MatchEvent(EventKind.THROW, {"light_up": 1}, ""))
        >>> referee.game.started
        True
    """
    data = event.data
    try:
        if event.kind is EventKind.THROW:
            accepted = referee.throw_dice(_dice(data["dice"])) if "dice" in data else referee.throw(int(data["light_up"]))
            if not any(v.event == "throw" for v in accepted):
                raise ValueError(f"a throw of {data.get('dice', data.get('light_up'))} is not taken now ({accepted[0].message})")
        elif event.kind is EventKind.MOVE:
            referee.replay_move(int(data["from"]), int(data["to"]))
        elif event.kind is EventKind.PASS:
            if referee.pass_turn()[0].event != "pass":
                raise ValueError("passing is not allowed here")
        elif event.kind is EventKind.UNDO:
            if referee.undo()[0].event != "undo":
                raise ValueError("there is no move to take back")
        elif event.kind is EventKind.POSITION:
            variant = referee.game.variant
            throw = _dice(data["dice"]) if data.get("dice") else data.get("throw")
            if isinstance(throw, Dice) and not (isinstance(variant.throws, DiceThrows) and variant.throws.allows(throw)) or \
                    isinstance(throw, int) and throw not in variant.throw_values:
                raise ValueError(f"{variant.name} has no throw of {throw}")
            stage = Stage.from_word(str(data["stage"])) if data.get("stage") else variant.first_stage if variant.in_parts else Stage.OWN
            turn = Player.from_name(str(data["turn"]))
            referee.set_position(Position.from_board_text(variant, str(data["board"]), turn, stage=stage), throw)
    except (KeyError, TypeError) as error:
        raise ValueError(f"a {event.kind.value} without its {error}") from None
    except (GameError, IllegalMoveError) as error:
        raise ValueError(str(error)) from None


def _dice(value: object) -> Dice:
    """Stored dice: [own, other]."""
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(d, int) for d in value)):
        raise ValueError(f"dice are [own, other], not {value!r}")
    return Dice(*value)


@dataclass(frozen=True)
class Step:
    """A match after one of its events: the board (30 characters), whose turn, the throw to use."""

    event: MatchEvent
    board: str
    turn: str | None
    throw: int | None
    #: An illegal attempt's rules, each with the squares that show it in the position it was made in.
    broken: tuple[Violation, ...] = ()


def replay(variant: str, events: list[MatchEvent]) -> list[Step]:
    """The match event by event, to step through it (an event that does not fit ends it).

        >>> throw, move = EventKind.THROW, EventKind.MOVE
        >>> steps = replay("netherworld", [MatchEvent(throw, {"light_up": 1}, ""), MatchEvent(throw, {"light_up": 3}, ""),
        ...                                MatchEvent(move, {"from": 10, "to": 13}, "")])
        >>> [(step.board[8:13], step.turn, step.throw) for step in steps]
        [('LD...', 'dark', None), ('LD...', 'dark', 3), ('L...D', 'light', None)]
    """
    referee, steps = Referee(variant), []
    for event in events:
        broken: tuple[Violation, ...] = ()
        if event.kind is EventKind.ILLEGAL:
            broken = _explained(referee, event.data)
        else:
            try:
                apply_event(referee, event)
            except ValueError:
                break
        game = referee.game
        turn = game.position.turn
        steps.append(Step(event, game.position.board_text, turn.label if turn and game.started else None, game.current_throw, broken))
    return steps


def _explained(referee: Referee, attempt: dict[str, Any]) -> tuple[Violation, ...]:
    """The rules an illegal attempt broke as the store kept them, with the squares the referee
    names for each when it explains the attempt again (none where it cannot)."""
    start, end, position = attempt.get("from") or 0, attempt.get("to") or 0, referee.game.position
    found: dict[str, Violation] = {}
    if start and end and position.turn is not None:
        number = referee.game.current_throw if position.variant.in_parts else attempt.get("throw")
        try:
            found = {v.rule: v for v in position.explain(number or 0, start, end, referee.touched)}
        except ValueError:  # a throw the rules do not know: the rules' names alone
            pass
    return tuple(found.get(rule, Violation(rule, ())) for rule in attempt.get("rules", []))


@dataclass
class MatchStore:
    """The matches in one SQLite file; one match at a time is in progress."""

    path: Path
    connection: sqlite3.Connection
    #: Why the last write did not reach the disk ("" when everything is written).
    problem: str = ""
    #: Set when the file found at start was put aside (the message for the operator).
    put_aside: str = ""
    _current: Match | None = None
    _next_match: int = 1
    _pending: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    _lock: threading.RLock = field(default_factory=threading.RLock)

    @classmethod
    def open(cls, path: Path, say: Callable[[str], None] = lambda line: None) -> MatchStore:
        """Open (or create) the store; a damaged or foreign file is moved aside (``say`` tells)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        put_aside = ""
        try:
            connection = _connect(path)
        except sqlite3.OperationalError as error:  # locked, no permission, no room: the file may be fine
            raise StoreError(f"cannot open the match store {path}: {error}") from None
        except (sqlite3.DatabaseError, UnusableFile) as error:
            aside = path.with_name(f"{path.name}.{datetime.now().strftime('%Y%m%d-%H%M%S')}.unusable")
            for suffix in ("", "-wal", "-shm"):
                part = Path(str(path) + suffix)
                if part.exists():
                    part.rename(Path(str(aside) + suffix))
            put_aside = f"{path} could not be used ({error}); it was kept as {aside} and a new match store started"
            say(put_aside)
            connection = _connect(path)
        store = cls(path, connection, put_aside=put_aside)
        row = connection.execute("SELECT MAX(id) FROM matches").fetchone()
        store._next_match = (row[0] or 0) + 1
        open_match = connection.execute("SELECT id FROM matches WHERE ended_at IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        if open_match:
            store._current = store.match(open_match[0])
        return store

    def close(self) -> None:
        with self._lock:
            self.connection.close()

    # -- the match in progress --------------------------------------------------------

    @property
    def current(self) -> Match | None:
        """The match in progress, if any."""
        return self._current

    def begin_match(self, variant: str, place: str = "", dark_player: str = "", light_player: str = "") -> int:
        """Start a new match (the one in progress must have ended); its id."""
        with self._lock:
            if self._current is not None:
                raise StoreError(f"match {self._current.id} is still in progress")
            match = Match(self._next_match, variant, now_iso(), place=place, dark_player=dark_player, light_player=light_player)
            self._next_match += 1
            self._current = match
            self._write("INSERT INTO matches (id, variant, started_at, place, dark_player, light_player) VALUES (?, ?, ?, ?, ?, ?)",
                        (match.id, variant, match.started_at, place, dark_player, light_player))
            return match.id

    def add(self, kind: EventKind, data: dict[str, Any]) -> None:
        """Record an event of the match in progress (kept in memory while the disk is full)."""
        with self._lock:
            if self._current is None:
                raise StoreError("no match is in progress")
            self._write(_INSERT_EVENT, (self._current.id, now_iso(), kind.value, _stored(data)))

    def end_match(self, termination: Termination) -> None:
        """End the match in progress (nothing happens when none is)."""
        with self._lock:
            if self._current is None:
                return
            self._write("UPDATE matches SET ended_at = ?, termination = ? WHERE id = ?", (now_iso(), termination.value, self._current.id))
            self._current = None

    def resume_or_begin(self, variant: str, place: str = "", say: Callable[[str], None] = lambda line: None) -> Referee:
        """The referee of the match in progress, or of a new match of ``variant`` when there is
        none (or when its events no longer replay: it is closed as damaged, ``say`` tells)."""
        with self._lock:
            if self._current is not None:
                try:
                    return self.resume()
                except ValueError as error:
                    say(f"{error}: that match is closed and a new one started")
                    self.end_match(Termination.DAMAGED)
            self.begin_match(variant, place=place)
            return Referee(variant)

    def set_winner(self, winner: Player | None) -> None:
        """The match in progress was won (None: a move taken back, it goes on); it ends when
        the next begins."""
        with self._lock:
            if self._current is not None:
                self._write("UPDATE matches SET winner = ? WHERE id = ?", (winner.label if winner else None, self._current.id))

    def retry(self) -> bool:
        """Write what waits in memory (the disk was full); whether everything is written now."""
        with self._lock:
            return self._flush()

    def resume(self) -> Referee:
        """A referee in the state the match in progress stands in (the match's own rule system).

        Raises ValueError naming the event that does not fit; :meth:`resume_or_begin` deals with it."""
        with self._lock:
            if self._current is None:
                raise StoreError("no match is in progress")
            referee = Referee(self._current.variant)
            for number, event in enumerate(self.events(self._current.id), 1):
                try:
                    apply_event(referee, event)
                except ValueError as error:
                    raise ValueError(f"match {self._current.id}, event {number} ({event.kind.value}): {error}") from None
            return referee

    # -- reading ----------------------------------------------------------------------

    def matches(self) -> list[Match]:
        """Every match, newest first."""
        with self._lock:
            rows = self.connection.execute(f"{_MATCH_QUERY} GROUP BY m.id ORDER BY m.id DESC").fetchall()
        return [_match(row) for row in rows]

    def match(self, match_id: int) -> Match:
        """One match (KeyError when there is none of that id)."""
        with self._lock:
            row = self.connection.execute(f"{_MATCH_QUERY} WHERE m.id = ? GROUP BY m.id", (match_id,)).fetchone()
        if row is None:
            raise KeyError(match_id)
        return _match(row)

    def events(self, match_id: int) -> list[MatchEvent]:
        """A match's events in order (those still waiting for room on the disk included)."""
        with self._lock:
            rows = self.connection.execute("SELECT kind, data, at FROM events WHERE match_id = ? ORDER BY id", (match_id,)).fetchall()
            waiting = [params for sql, params in self._pending if sql == _INSERT_EVENT and params[0] == match_id]
        return [MatchEvent(EventKind(kind), json.loads(data), at) for kind, data, at in rows] + [
            MatchEvent(EventKind(kind), json.loads(data), at) for _, at, kind, data in waiting]

    def throw_counts(self) -> dict[str, list[int]]:
        """The throws of every match by the sticks they came from ("camera": the table's own,
        "electronic": the button's): how many showed 0, 1, 2, 3 and 4 light sides."""
        counts = {"camera": [0] * 5, "electronic": [0] * 5}
        with self._lock:
            rows = self.connection.execute(
                "SELECT json_extract(data, '$.source'), json_extract(data, '$.light_up'), COUNT(*) FROM events"
                " WHERE kind = 'throw' GROUP BY 1, 2").fetchall()
        for source, light_up, count in rows:
            if source in counts and isinstance(light_up, int) and 0 <= light_up <= 4:
                counts[source][light_up] += count
        return counts

    def import_matches(self, matches: list[tuple[Match, list[MatchEvent]]]) -> list[int]:
        """Add finished matches from elsewhere (an export), all in one transaction; their new ids."""
        with self._lock:
            self._flush()
            ids = list(range(self._next_match, self._next_match + len(matches)))
            try:
                with self.connection:
                    for new_id, (match, events) in zip(ids, matches):
                        self.connection.execute(
                            "INSERT INTO matches (id, variant, started_at, ended_at, place, dark_player, light_player, winner, termination)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (new_id, match.variant, match.started_at, match.ended_at, match.place, match.dark_player,
                             match.light_player, match.winner, match.termination.value if match.termination else None))
                        self.connection.executemany(_INSERT_EVENT, [(new_id, e.at, e.kind.value, _stored(e.data)) for e in events])
            except sqlite3.Error as error:
                raise StoreError(f"cannot write to {self.path}: {error}; nothing was imported") from None
            self._next_match += len(matches)
            return ids

    # -- writing ------------------------------------------------------------------------

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        self._pending.append((sql, params))
        self._flush()

    def _flush(self) -> bool:
        if not self._pending:
            return True
        try:
            with self.connection:  # one transaction: all of it is on disk, or none
                for sql, params in self._pending:
                    self.connection.execute(sql, params)
        except sqlite3.Error as error:
            self.problem = f"the match store cannot write ({error}): {len(self._pending)} events wait in memory; free some disk space"
            return False
        self._pending.clear()
        self.problem = ""
        return True


_INSERT_EVENT = "INSERT INTO events (match_id, at, kind, data) VALUES (?, ?, ?, ?)"


def _stored(data: dict[str, Any]) -> str:
    """An event's data as the store keeps it (compact JSON)."""
    return json.dumps(data, separators=(",", ":"))


_MATCH_QUERY = """SELECT m.id, m.variant, m.started_at, m.ended_at, m.place, m.dark_player, m.light_player, m.winner,
    m.termination, COUNT(e.id) FROM matches m LEFT JOIN events e ON e.match_id = m.id"""


def _match(row: tuple[Any, ...]) -> Match:
    *fields, termination, events = row
    return Match(*fields, termination=Termination(termination) if termination else None, events=events)


def _connect(path: Path) -> sqlite3.Connection:
    """Open the file as a match store, creating its tables when it is new; UnusableFile (or
    sqlite3.DatabaseError) when it is something else."""
    connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = FULL")
        application, version = (connection.execute(f"PRAGMA {name}").fetchone()[0] for name in ("application_id", "user_version"))
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables and application == 0:
            connection.executescript(f"BEGIN; {_SCHEMA} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
        elif application != APPLICATION_ID:
            raise UnusableFile("it is not a Senet Companion match store")
        elif version != SCHEMA_VERSION:
            raise UnusableFile(f"its layout is version {version}; this companion reads version {SCHEMA_VERSION}")
        connection.execute("SELECT COUNT(*) FROM events").fetchone()  # a damaged file fails here at the latest
        connection.isolation_level = "DEFERRED"
    except BaseException:
        connection.close()
        raise
    return connection

