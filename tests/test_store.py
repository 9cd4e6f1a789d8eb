"""The match store: every match kept, the one in progress resumed after a kill or a power cut,
a damaged or foreign file put aside, a full disk survived."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from senet.device.companion import Companion
from senet.device.lights import Lights, Wiring
from senet.device.store import EventKind, MatchStore, Termination
from senet.engine.board import format_board
from senet.engine.referee import Referee
from senet.engine.throws import SeededSticks
from senet.engine.variants import VARIANTS
from senet.vision.geometry import known_mats
from senet.vision.reader import BoardReader


def state(referee: Referee) -> tuple[object, ...]:
    game = referee.game
    return (game.variant.name, game.position.board, game.position.turn, game.current_throw, game.record.format(), referee.expected)


LIGHTS: list[Lights] = []


@pytest.fixture(autouse=True)
def _close_lights() -> Iterator[None]:
    yield
    while LIGHTS:
        LIGHTS.pop().close()


def companion_on(store: MatchStore, variant: str, seed: int = 5) -> Companion:
    referee = store.resume_or_begin(variant, "Room 61")
    LIGHTS.append(Lights(Wiring(), pin_factory=MockFactory()))
    return Companion(referee, BoardReader(known_mats()[0]), LIGHTS[-1], sticks=SeededSticks(seed), store=store, place="Room 61")


def play(companion: Companion, turns: int, rng: random.Random) -> None:
    """Throw the electronic sticks and make a random legal move on the board, ``turns`` times."""
    for _ in range(turns):
        game = companion.referee.game
        if game.is_over:
            return
        companion.electronic_throw()
        game = companion.referee.game
        if game.current_throw is None or game.is_over:
            continue
        if game.options.moves:
            companion.settled_board(format_board(rng.choice(game.options.moves).after))
        elif game.options.pass_move is not None:
            companion.confirm()


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_restart_resumes_the_match_exactly(tmp_path: Path, variant: str) -> None:
    path = tmp_path / "matches.db"
    store = MatchStore.open(path)
    companion = companion_on(store, variant)
    play(companion, 25, random.Random(variant))
    companion.undo()
    before = state(companion.referee)
    store.close()
    again = MatchStore.open(path)
    assert state(again.resume_or_begin(variant)) == before
    assert again.current is not None and again.current.place == "Room 61"


def test_every_event_is_kept_with_its_time_and_the_match_with_its_result(tmp_path: Path) -> None:
    store = MatchStore.open(tmp_path / "matches.db")
    companion = companion_on(store, "netherworld")
    while not companion.referee.game.started:
        companion.electronic_throw()
    companion.electronic_throw()
    throw = companion.referee.game.current_throw
    wrong = list(companion.referee.game.position.board)
    wrong[10], wrong[10 + (throw % 5) + 1] = 0, wrong[10]  # a piece moved by the wrong count
    verdicts = companion.settled_board(format_board(tuple(wrong)))
    assert verdicts[0].event == "illegal"
    events = store.events(store.current.id)
    kinds = [event.kind for event in events]
    assert kinds[-1] is EventKind.ILLEGAL and set(kinds[:-1]) == {EventKind.THROW}
    assert events[-1].data["rules"] == list(verdicts[0].rules) and events[0].data["source"] == "electronic"
    assert all(event.at.endswith("Z") for event in events)
    companion.set_position("." * 29 + "D", "dark", 1)  # the operator sets a won-next-move position
    companion.settled_board("." * 30)  # ...and dark bears off its last piece
    match = store.match(store.current.id)
    assert match.winner == "dark" and match.result == "dark" and match.ended_at is None
    companion.settled_board(format_board(VARIANTS["netherworld"].start_board()))  # set up again: the next game
    finished, playing = store.matches()[1], store.matches()[0]
    assert finished.termination is Termination.WIN and finished.ended_at is not None
    assert playing.ended_at is None and playing.events == 0 and companion.referee.game.position.winner is None


def test_a_new_game_and_an_idle_reset_end_the_match_in_progress(tmp_path: Path) -> None:
    store = MatchStore.open(tmp_path / "matches.db")
    companion = companion_on(store, "kendall")
    play(companion, 4, random.Random(1))
    companion.new_game("houses")
    companion.new_game("houses", Termination.IDLE_RESET)
    matches = store.matches()
    assert [m.variant for m in matches] == ["houses", "houses", "kendall"]
    assert [m.termination for m in matches] == [None, Termination.IDLE_RESET, Termination.NEW_GAME]
    assert [m.result for m in matches] == ["*", "abandoned", "abandoned"]
    store.close()
    assert MatchStore.open(tmp_path / "matches.db").resume_or_begin("kendall").game.variant.name == "houses"


@pytest.mark.parametrize("content", [b"not a database at all\n" * 50, b"", b"SQLite format 3\x00" + bytes(range(256)) * 8])
def test_a_damaged_file_is_put_aside_and_a_new_store_started(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "matches.db"
    path.write_bytes(content)
    said: list[str] = []
    store = MatchStore.open(path, said.append)
    if content:  # an empty file is simply a new store
        assert said and "kept as" in said[0] and store.put_aside
        aside = [p for p in tmp_path.iterdir() if p.name.endswith(".unusable")]
        assert len(aside) == 1 and aside[0].read_bytes() == content
    store.resume_or_begin("kendall")
    assert store.current is not None


def test_another_programs_database_is_put_aside(tmp_path: Path) -> None:
    path = tmp_path / "matches.db"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE recipes (name TEXT)")
    other.commit()
    other.close()
    said: list[str] = []
    MatchStore.open(path, said.append)
    assert "not a Senet Companion match store" in said[0]


def test_a_match_whose_events_no_longer_fit_is_closed_and_a_new_one_begun(tmp_path: Path) -> None:
    store = MatchStore.open(tmp_path / "matches.db")
    store.begin_match("netherworld")
    store.add(EventKind.THROW, {"light_up": 1, "source": "camera"})
    store.add(EventKind.MOVE, {"from": 10, "to": 30})  # no throw takes a piece there
    said: list[str] = []
    referee = store.resume_or_begin("netherworld", say=said.append)
    assert not referee.game.started and "event 2 (move)" in said[0]
    assert store.matches()[1].termination is Termination.DAMAGED


def test_a_full_disk_shows_amber_keeps_the_throw_and_writes_it_when_there_is_room(tmp_path: Path) -> None:
    store = MatchStore.open(tmp_path / "matches.db")
    companion = companion_on(store, "kendall")
    pages = store.connection.execute("PRAGMA page_count").fetchone()[0]
    store.connection.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full now
    filler = "x" * 20000
    for _ in range(3):
        companion.electronic_throw()
        store.add(EventKind.ILLEGAL, {"note": filler})
    assert store.problem and companion.trouble_kind == "store" and companion.lights.state()["amber"]
    waiting = store.events(store.current.id)
    assert sum(e.kind is EventKind.THROW for e in waiting) >= 1  # nothing is lost while it waits
    store.connection.execute("PRAGMA max_page_count = 1073741823")  # room again
    companion.step(None, 0.0)
    assert not store.problem and companion.trouble_kind != "store"
    store.close()
    again = MatchStore.open(tmp_path / "matches.db")
    assert [e.kind for e in again.events(again.current.id)] == [e.kind for e in waiting]


KILLED_WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from senet.device.store import EventKind, MatchStore
    store = MatchStore.open(Path(sys.argv[1]))
    if store.current is None:
        store.begin_match("kendall")
    count = len(store.events(store.current.id))
    while True:
        store.add(EventKind.ILLEGAL, {"n": count})
        count += 1
        print(count, flush=True)  # written and on disk: the LEDs may change now
""")


def test_a_kill_at_any_moment_loses_no_written_event_twice_in_a_row(tmp_path: Path) -> None:
    path = tmp_path / "matches.db"
    script = tmp_path / "writer.py"
    script.write_text(KILLED_WRITER)
    acknowledged = 0
    for round_ in range(2):
        process = subprocess.Popen([sys.executable, str(script), str(path)], stdout=subprocess.PIPE, text=True)
        assert process.stdout is not None
        for _ in range(30 + 17 * round_):
            acknowledged = int(process.stdout.readline())
        process.kill()  # SIGKILL: no clean-up, as a power cut
        process.wait()
        store = MatchStore.open(path)
        kept = [e.data["n"] for e in store.events(store.current.id)]
        assert kept == list(range(len(kept))) and len(kept) >= acknowledged
        store.close()


def test_a_write_ahead_log_cut_short_by_a_power_cut_opens_with_the_whole_transactions(tmp_path: Path) -> None:
    path = tmp_path / "matches.db"
    store = MatchStore.open(path)
    store.begin_match("kendall")
    store.connection.execute("PRAGMA wal_autocheckpoint = 0")
    for n in range(40):
        store.add(EventKind.ILLEGAL, {"n": n})
    wal = Path(f"{path}-wal")
    for cut in (wal.stat().st_size * 2 // 3, wal.stat().st_size // 3):  # twice in a row, shorter each time
        copy = tmp_path / f"copy{cut}"
        copy.mkdir()
        shutil.copy(path, copy / path.name)
        with open(wal, "rb") as source:
            (copy / wal.name).write_bytes(source.read(cut))
        again = MatchStore.open(copy / path.name)
        kept = [e.data["n"] for e in again.events(1)]
        assert kept == list(range(len(kept))) and 0 < len(kept) < 40
        again.add(EventKind.ILLEGAL, {"n": len(kept)})  # and it goes on from there
        assert [e.data["n"] for e in again.events(1)] == list(range(len(kept) + 1))
        again.close()
    store.close()
    assert os.path.exists(path)


def test_the_throws_of_each_set_of_sticks_are_counted_for_the_fairness_test(tmp_path: Path) -> None:
    store = MatchStore.open(tmp_path / "matches.db")
    store.begin_match("kendall")
    for light_up in (1, 2, 2, 4):
        store.add(EventKind.THROW, {"light_up": light_up, "source": "camera"})
    store.add(EventKind.THROW, {"light_up": 0, "source": "electronic", "sticks": [False] * 4})
    store.end_match(Termination.NEW_GAME)
    store.begin_match("houses")
    store.add(EventKind.THROW, {"light_up": 2, "source": "camera"})
    assert store.throw_counts() == {"camera": [0, 1, 3, 0, 1], "electronic": [1, 0, 0, 0, 0]}


def test_the_players_names_are_kept_with_their_match(tmp_path: Path) -> None:
    from senet.device.config import Config
    from senet.device.service import build_runtime

    runtime = build_runtime(Config(variant="kendall", camera="simulator", store=str(tmp_path / "m.db"), place="Club"), seed=1,
                            autoplay=False, say=lambda line: None)
    try:
        runtime.new_game("houses", dark_player="Nefertari", light_player=" Ani ")
        match = runtime.matches()[0]
        assert (match.variant, match.dark_player, match.light_player, match.place) == ("houses", "Nefertari", "Ani", "Club")
        with pytest.raises(ValueError, match="at most 40"):
            runtime.new_game(dark_player="x" * 41)
        with pytest.raises(ValueError, match="printable"):
            runtime.new_game(light_player="a\nb")
        assert len(runtime.matches()) == 2  # nothing changed
    finally:
        runtime.close()
