"""A match journal that survives a power cut: every accepted throw, move, pass and undo.

One JSON object per line, flushed and fsync'ed before the LEDs change, so a kill at any
moment loses no accepted move. On start the journal is replayed into a fresh referee; a
last line cut short by the power cut is ignored.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "match.jsonl"
    >>> journal = Journal(path, "netherworld")
    >>> journal.write({"throw": 1}); journal.write({"throw": 3}); journal.write({"move": [10, 13]})
    >>> referee = Journal(path, "netherworld").resume()
    >>> referee.game.position.board_text[:13]
    'LDLDLDLDL...D'
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from senet.engine.referee import Referee, Verdict


class JournalError(ValueError):
    """The journal cannot be replayed; the message names the file and the line."""


class Journal:
    def __init__(self, path: Path, variant: str) -> None:
        self.path = path
        self.variant = variant
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.stat().st_size == 0:
            self.write({"variant": variant})

    def write(self, entry: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(entry) + "\n")
            file.flush()
            os.fsync(file.fileno())

    def record(self, verdicts: list[Verdict], entry: dict[str, Any], event: str) -> None:
        """Write ``entry`` when the referee accepted it (``event`` among the verdicts)."""
        if any(v.event == event for v in verdicts):
            self.write(entry)

    def resume(self) -> Referee:
        """A referee in the state the journal ends in."""
        lines = self.path.read_text(encoding="utf-8").split("\n")
        complete = lines[:-1]  # the part after the last newline is empty, or a line cut short
        entries = []
        for number, line in enumerate(complete, 1):
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError:
                raise JournalError(f"{self.path} line {number} is damaged; move the file aside to start a new match") from None
        if not entries or entries[0].get("variant") != self.variant:
            raise JournalError(f"{self.path} is the journal of another match (not {self.variant}); move it aside")
        referee = Referee(self.variant)
        for number, entry in enumerate(entries[1:], 2):
            try:
                if "throw" in entry:
                    referee.throw(int(entry["throw"]))
                elif "move" in entry:
                    referee.replay_move(*entry["move"])
                elif "pass" in entry:
                    referee.pass_turn()
                elif "undo" in entry:
                    referee.undo()
            except (ValueError, TypeError) as error:
                raise JournalError(f"{self.path} line {number} does not fit the game: {error}") from None
        return referee
