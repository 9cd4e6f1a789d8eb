"""The kept matches on the page: the list, a match stepped through event by event (with and
without the script), the downloads, the sticks' fairness, and all of it in another language."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from conftest import Client

from senet.device.companion import Companion
from senet.device.config import Config
from senet.device.export import parse_text
from senet.device.runtime import Runtime
from senet.device.service import build_runtime
from senet.device.store import EventKind, Termination
from senet.engine.board import format_board
from senet.engine.rulebook import rule
from senet.engine.variants import VARIANTS
from senet.web.app import create_app
from senet.web.i18n import TRANSLATIONS

PIECE = re.compile(r'data-square="(\d+)" data-piece="([DL]?)"')


def translated(code: str, text: str) -> str:
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", "rb") as file:
        return read_po(file)[text].string


@pytest.fixture
def kept(tmp_path: Path) -> Iterator[Runtime]:
    """A companion in simulation that keeps every match (Kendall's rules, in Room 61)."""
    runtime = build_runtime(Config(variant="kendall", camera="simulator", store=str(tmp_path / "m.db"), place="Room 61"),
                            seed=3, autoplay=False, say=lambda line: None)
    yield runtime
    runtime.close()


@pytest.fixture
def browse(kept: Runtime) -> Client:
    return Client(create_app(kept).test_client())


def play(companion: Companion, turns: int, seed: int = 1) -> None:
    """Throw the button's sticks and make a random legal move on the board, ``turns`` times."""
    rng = random.Random(seed)
    for _ in range(turns):
        companion.electronic_throw()
        game = companion.referee.game
        if game.is_over or game.current_throw is None:
            continue
        if game.options.moves:
            companion.settled_board(format_board(rng.choice(game.options.moves).after))
        elif game.options.pass_move is not None:
            companion.confirm()


def attempt_too_far(companion: Companion) -> None:
    """Throw until a move is possible, then move a piece one square further than thrown."""
    game = companion.referee.game
    while not (game.current_throw and any(game.position.board_text[m.to_square] == "." for m in game.options.moves)):
        companion.electronic_throw()
    board = game.position.board_text
    start = next(m.from_square for m in game.options.moves if board[m.to_square] == ".")
    end = start + game.current_throw + 1
    companion.settled_board(board[:start - 1] + "." + board[start:end - 1] + board[start - 1] + board[end:])


def board_shown(page: str) -> str:
    """The board the page draws, as 30 characters."""
    pieces = dict(PIECE.findall(page))
    return "".join(pieces[str(square)] or "." for square in range(1, 31))


def test_the_list_shows_every_kept_match_newest_first(kept: Runtime, browse: Client) -> None:
    play(kept.companion, 6)
    kept.new_game("houses")
    store = kept.companion.store
    store.end_match(Termination.IDLE_RESET)
    store.begin_match("netherworld", place="Room 62", dark_player="Ann", light_player="Ben")
    page = browse.get("/matches").get_data(as_text=True)
    first, second, third = (page.index(f'href="/matches/{number}"') for number in (3, 2, 1))
    assert first < second < third
    current = page[page.index('<li class="current">'):]
    assert current.index('href="/matches/3"') < current.index("</li>") and ">playing<" in current[:current.index("</li>")]
    assert "abandoned: a new game was started" in page and "abandoned: nobody played for a while" in page
    assert "dark: Ann · light: Ben" in page and "Room 62" in page and "Room 61" in page
    assert "Kendall&#39;s reconstruction" in page
    played = kept.matches()[-1].events
    assert f"events: {played}" in page and played > 6
    for download in ("/matches/1.txt", "/matches/1.json", "/matches/3.txt"):
        assert f'href="{download}" download' in page


def test_a_match_page_shows_the_board_and_the_event_of_each_step(kept: Runtime, browse: Client) -> None:
    play(kept.companion, 8)
    match, steps = kept.match(1)
    start = browse.get("/matches/1").get_data(as_text=True)
    assert board_shown(start) == format_board(VARIANTS["kendall"].start_board())
    assert f"Step 0 of {len(steps)}" in start and "Kendall&#39;s reconstruction" in start
    for number, step in enumerate(steps, 1):
        page = browse.get(f"/matches/1?step={number}").get_data(as_text=True)
        assert board_shown(page) == step.board
        assert f"Step {number} of {len(steps)}" in page
        event = page[page.index('id="step-event"'):page.index("</p>", page.index('id="step-event"'))]
        if step.event.kind is EventKind.THROW:
            assert "Throw" in event and f'<bdi dir="ltr">{step.event.data["light_up"] or 6}</bdi>' in event
            assert "Thrown with the button" in event
        elif step.event.kind is EventKind.MOVE:
            assert f'{step.event.data["from"]}-' in event
            assert 'class="sq picked" data-square="{}"'.format(step.event.data["from"]) in page
    too_far = browse.get("/matches/1?step=999").get_data(as_text=True)
    assert board_shown(too_far) == steps[-1].board and f"Step {len(steps)} of {len(steps)}" in too_far


def test_without_the_script_every_step_is_a_link(kept: Runtime, browse: Client) -> None:
    play(kept.companion, 5)
    events = kept.matches()[0].events
    page = browse.get("/matches/1?step=2").get_data(as_text=True)
    assert all(f'href="?step={number}"' in page for number in range(events + 1))
    assert 'id="previous" class="button" href="?step=1"' in page and 'id="next" class="button" href="?step=3"' in page
    assert f'id="last" class="button" href="?step={events}"' in page and "/static/match.js" in page


def test_an_illegal_attempt_shows_the_rule_it_broke(kept: Runtime, browse: Client) -> None:
    attempt_too_far(kept.companion)
    match, steps = kept.match(1)
    assert steps[-1].event.kind is EventKind.ILLEGAL
    page = browse.get(f"/matches/1?step={len(steps)}").get_data(as_text=True)
    event = page[page.index('id="step-event"'):page.index("</p>", page.index('id="step-event"'))]
    broken = steps[-1].event.data["rules"][0]
    assert "Illegal move" in event and f'href="/rules/kendall#{broken}"' in event
    sentence = rule(broken).broken.split("{")[0].strip()
    assert sentence[:10] in event


def test_a_piece_moved_before_any_throw_is_told_as_the_referee_told_it(kept: Runtime, browse: Client) -> None:
    board = kept.companion.referee.expected_text
    kept.companion.settled_board(board[:9] + "." + board[10] + board[9] + board[12:])  # the piece on 10 moved on 12
    page = browse.get("/matches/1?step=1").get_data(as_text=True)
    event = page[page.index('id="step-event"'):page.index("</p>", page.index('id="step-event"'))]
    assert "Throw the sticks before moving a piece: put it back." in event and 'href="/rules/kendall#K.throw"' in event


def test_an_undo_and_a_position_set_by_hand_are_told(kept: Runtime, browse: Client) -> None:
    play(kept.companion, 6)
    kept.undo()
    board = "LDLDLDLDL..D" + "." * 18
    kept.set_position(board, "light", 2)
    match, steps = kept.match(1)
    assert [step.event.kind for step in steps[-2:]] == [EventKind.UNDO, EventKind.POSITION]
    page = browse.get(f"/matches/1?step={len(steps)}").get_data(as_text=True)
    assert board_shown(page) == board and "Light threw 2" in page
    assert "Position set</strong>: The position was set by hand" in page and "Undo</strong>: The last move was taken back" in page


def test_the_downloads_are_the_exports(kept: Runtime, browse: Client) -> None:
    play(kept.companion, 6)
    text = browse.get("/matches/1.txt")
    assert text.mimetype == "text/plain" and text.headers["Content-Disposition"] == 'attachment; filename="senet-match-1.txt"'
    assert text.get_data(as_text=True) == kept.match_export(1, as_json=False)
    (match, events), = parse_text(text.get_data(as_text=True))
    assert match.variant == "kendall" and len(events) == kept.matches()[0].events
    data = browse.get("/matches/1.json")
    assert data.mimetype == "application/json" and data.headers["Content-Disposition"] == 'attachment; filename="senet-match-1.json"'
    assert json.loads(data.get_data(as_text=True))["id"] == 1
    assert browse.get("/matches/current.txt").get_data(as_text=True) == kept.match_export(1, as_json=False)


@pytest.mark.parametrize(("camera", "electronic", "verdicts"), [
    ([6, 25, 37, 25, 7], [2, 10, 60, 20, 8],
     ("These sticks look fair.", "They favour 2 of 4 light sides up: a throw of 2 in the current rules.")),
    ([20, 20, 20, 20, 20], [1, 2, 3, 0, 0],
     ("They favour 0 of 4 light sides up: a throw of 6 in the current rules.", "Too few throws to tell yet (6 of the 80 needed).")),
])
def test_the_sticks_fairness_for_the_table_and_the_button_apart(kept: Runtime, browse: Client, camera: list[int],
                                                                electronic: list[int], verdicts: tuple[str, str]) -> None:
    store = kept.companion.store
    for source, counts in (("camera", camera), ("electronic", electronic)):
        for light_up, count in enumerate(counts):
            for _ in range(count):
                store.add(EventKind.THROW, {"light_up": light_up, "source": source})
    page = browse.get("/matches").get_data(as_text=True)
    table = page.index("The sticks on the table (camera)")
    button = page.index("The electronic sticks (button)")
    assert table < page.index(verdicts[0]) < button < page.index(verdicts[1])
    assert f"Throws counted: {sum(camera)}" in page and f"Throws counted: {sum(electronic)}" in page
    counts = page[table:button]
    assert f"<tr><td>2</td><td>2</td><td>{camera[2]}</td><td>{sum(camera) * 6 / 16:.1f}</td></tr>" in counts


def test_unknown_matches_are_clear_404s(kept: Runtime, browse: Client, client: Client) -> None:
    for path in ("/matches/7", "/matches/7.txt", "/matches/7.json", "/matches/seven.txt"):
        reply = browse.get(path)
        assert reply.status_code == 404 and "There is no match" in reply.get_data(as_text=True), path
    assert client.get("/matches/1").status_code == 404  # no match store
    assert "no match store" in client.get("/matches/current.json").get_data(as_text=True)


def test_without_a_store_the_current_game_only(client: Client) -> None:
    page = client.get("/matches").get_data(as_text=True)
    assert "Only the current game is shown here" in page and "store setting" in page
    assert 'href="/matches/current.txt"' in page and "Are the sticks fair?" not in page
    assert client.get("/matches/current.txt").get_data(as_text=True).startswith("variant netherworld")


def test_the_match_pages_in_another_language(kept: Runtime, browse: Client) -> None:
    play(kept.companion, 4)
    german = browse.get("/matches", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert translated("de", "Match {number}").format(number=1) in german
    assert translated("de", "Too few throws to tell yet ({count} of the {needed} needed).").split("{")[0] in german
    assert translated("de", "playing") in german and "Are the sticks fair?" not in german
    browse.get("/language/ar")
    arabic = browse.get("/matches/1?step=1").get_data(as_text=True)
    assert '<html lang="ar" dir="rtl">' in arabic
    for text in ("Next", "Previous", "thrown with the button (electronic sticks)", "Step {step} of {count}"):
        assert translated("ar", text).split("{")[0] in arabic and text.split("{")[0] not in arabic


def test_a_damaged_match_is_shown_as_far_as_it_fits(tmp_path: Path) -> None:
    from senet.device.store import EventKind, MatchStore

    store = MatchStore.open(tmp_path / "m.db")
    store.begin_match("netherworld")
    store.add(EventKind.THROW, {"light_up": 1, "source": "camera"})
    store.add(EventKind.MOVE, {"from": 10, "to": 30})  # fits no rule
    store.add(EventKind.ILLEGAL, {"from": 9, "to": 12, "throw": 3, "rules": ["N.throw"], "board": None})
    store.close()
    runtime = build_runtime(Config(variant="netherworld", camera="simulator", store=str(tmp_path / "m.db")), seed=1,
                            autoplay=False, say=lambda line: None)
    try:
        page = create_app(runtime).test_client().get("/matches/1")
        assert page.status_code == 200
    finally:
        runtime.close()
