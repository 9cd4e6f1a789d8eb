"""A kill at any moment loses no accepted move: the journal is replayed on start."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from senet.device.companion import Companion
from senet.device.journal import Journal, JournalError
from senet.device.lights import Lights, Wiring
from senet.engine.throws import SeededSticks
from senet.vision.geometry import known_mats
from senet.vision.reader import BoardReader


def test_a_restart_resumes_the_match_where_it_stood(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    lights = Lights(Wiring(), pin_factory=MockFactory())
    companion = Companion(Journal(path, "houses").resume(), BoardReader(known_mats()[0]), lights,
                          sticks=SeededSticks(5), journal=Journal(path, "houses"))
    while not companion.referee.game.started:
        companion.electronic_throw()
    companion.electronic_throw()
    game = companion.referee.game
    if game.options.moves:
        move = game.options.moves[0]
        assert [v.event for v in companion.settled_board("".join(".DL"[c] for c in move.after[1:31]))][0] == "move"
    lights.close()
    before = (game.position.board, game.position.turn, game.current_throw, len(game.turns))
    # The power goes: a new process reads the journal.
    again = Journal(path, "houses").resume().game
    assert (again.position.board, again.position.turn, again.current_throw, len(again.turns)) == before
    assert '"sticks"' in path.read_text()  # the electronic sticks are recorded with the match


def test_a_line_cut_short_by_the_power_cut_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    journal = Journal(path, "netherworld")
    journal.write({"throw": 1})
    journal.write({"throw": 3})
    with path.open("a") as file:
        file.write('{"move": [10, ')  # killed while writing
    referee = Journal(path, "netherworld").resume()
    assert referee.game.current_throw == 3 and referee.game.position.board_text.startswith("LDLDLDLDLD")


def test_a_damaged_or_foreign_journal_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_text('{"variant": "netherworld"}\nnot json\n{"throw": 1}\n')
    with pytest.raises(JournalError, match="line 2 is damaged"):
        Journal(path, "netherworld").resume()
    other = tmp_path / "other.jsonl"
    other.write_text('{"variant": "kendall"}\n')
    with pytest.raises(JournalError, match="another match"):
        Journal(other, "houses").resume()
    bad_move = tmp_path / "bad.jsonl"
    bad_move.write_text('{"variant": "netherworld"}\n{"throw": 1}\n{"throw": 3}\n{"move": [10, 12]}\n')
    with pytest.raises(JournalError, match="line 4 does not fit"):
        Journal(bad_move, "netherworld").resume()
