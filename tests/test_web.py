"""The page in simulation: state, electronic throws and virtual pieces through the whole chain."""

from __future__ import annotations

import html
from dataclasses import replace
from pathlib import Path
from typing import Any

from conftest import Client

from senet.device.config import Config
from senet.device.loop import CompanionLoop
from senet.device.runtime import Runtime
from senet.device.service import build_runtime
from senet.web.app import create_app


def test_the_page_and_its_state(client: Client) -> None:
    page = client.get("/")
    assert page.status_code == 200 and b"Senet Companion" in page.data and b"app.js" in page.data
    state = client.get("/api/state").get_json()
    assert state["variant"] == "netherworld" and state["simulated"] and state["board"] == state["virtual_board"]
    assert set(state["leds"]) >= {"green", "red", "amber", "turn", "sticks"}
    assert client.get("/healthz").get_json() == {"ok": True}


def test_a_move_made_on_the_page_goes_through_camera_vision_and_referee(client: Client, runtime: Runtime) -> None:
    state = client.get("/api/state").get_json()
    while not state["started"]:
        state = client.post("/api/throw").get_json()
    while not state["moves"]:
        state = client.post("/api/throw").get_json()
    move = state["moves"][0]
    assert client.post("/api/move", json={"from": move["from"], "to": move["to"]}).status_code == 200
    CompanionLoop(runtime).run(turns=1)  # frames: render -> vision -> stabiliser -> referee -> LEDs
    state = client.get("/api/state").get_json()
    assert state["log"][0]["event"] in ("move", "game-over") or any(e["event"] == "move" for e in state["log"])
    assert state["board"] == state["virtual_board"] and state["leds"]["green"]


def test_bad_requests_get_a_clear_error(client: Client) -> None:
    assert client.post("/api/move", data="nonsense", content_type="application/json").status_code == 400
    reply = client.post("/api/move", json={"from": 12, "to": 13})
    assert reply.status_code == 400 and "pick a square with a piece" in reply.get_json()["error"]
    assert client.post("/api/move", data="x" * 10000, content_type="application/json").status_code == 413
    assert client.get("/nowhere").status_code == 404


def test_the_throw_button_throws_the_electronic_sticks(runtime: Runtime) -> None:
    pin = runtime.companion.lights.pin_factory.pin(23)
    pin.drive_low()
    pin.drive_high()
    import time

    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and not runtime.log:
        time.sleep(0.02)
    assert runtime.log and runtime.log[0]["event"] in ("throw", "start")


def test_an_operator_sets_the_position_by_hand(client: Client) -> None:
    board = "LDLDLDLD" + "." * 10 + "LD" + "." * 10
    state = client.post("/api/position", json={"board": board, "turn": "light", "throw": 2}).get_json()
    assert state["board"] == board and state["throw"] == 2 and state["turn"] == "light"
    assert {(m["from"], m["to"]) for m in state["moves"]}  # light, throwing 2, has moves
    bad = client.post("/api/position", json={"board": "LLL", "turn": "light"})
    assert bad.status_code == 400 and "exactly 30" in bad.get_json()["error"]
    assert client.post("/api/position", json={"board": board, "turn": "light", "throw": 6}).status_code == 400


def test_the_event_stream_sends_the_state_and_every_change(client: Client, runtime: Runtime) -> None:
    response = client.get("/events", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = iter(response.response)
    assert next(chunks) == b"retry: 2000\n\n"
    first = next(chunks).decode()
    assert first.startswith("data: ") and '"variant": "netherworld"' in first
    client.post("/api/throw")
    change = next(chunks).decode()
    assert change.startswith("data: ") and '"event": "throw"' in change
    response.close()


def test_keep_alive_comments_while_nothing_happens(runtime: Runtime) -> None:
    client = create_app(runtime, keep_alive=0.05).test_client()
    response = client.get("/events", buffered=False)
    chunks = iter(response.response)
    next(chunks), next(chunks)  # retry, then the state now
    assert next(chunks) == b": keep-alive\n\n"
    response.close()


def test_the_rules_page_lists_every_rule_with_its_id_and_readings(client: Client) -> None:
    from senet.engine.rulebook import RULE_SYSTEMS

    page = html.unescape(client.get("/rules/houses").get_data(as_text=True))
    for rule in RULE_SYSTEMS["H"].rules:
        assert f'id="{rule.id}"' in page
    assert "This companion's reading" in page and "Russian" in page and "25%" in page
    assert client.get("/rules/chess").status_code == 404


def test_posts_need_the_csrf_token(runtime: Runtime) -> None:
    raw = create_app(runtime).test_client()
    raw.get("/")
    reply = raw.post("/api/throw")
    assert reply.status_code == 403 and "CSRF" in reply.get_json()["error"]


def test_admin_actions_need_the_pin_and_wrong_pins_are_rate_limited(runtime: Runtime) -> None:
    client = Client(create_app(runtime, admin_pin="2468").test_client())
    assert client.post("/api/undo").status_code == 401
    for _ in range(5):
        assert client.post("/admin/login", json={"pin": "0000"}).status_code == 403
    limited = client.post("/admin/login", json={"pin": "2468"})
    assert limited.status_code == 429 and limited.headers["Retry-After"]
    other = Client(create_app(runtime, admin_pin="2468").test_client())
    assert other.post("/admin/login", json={"pin": "2468"}).get_json() == {"admin": True}
    assert other.post("/api/undo").status_code == 409  # signed in: the referee answers (no move to take back yet)
    cookie = other.client.get_cookie("session")
    assert cookie.http_only and cookie.same_site == "Strict"
    other.post("/admin/logout")
    assert other.post("/api/undo").status_code == 401


def test_the_qr_code_leads_to_the_page_and_the_state_has_the_odds(client: Client) -> None:
    page = client.get("/qr").get_data(as_text=True)
    assert "<svg" in page and "http://localhost/" in page
    state = client.get("/api/state").get_json()
    assert state["odds"] == {"1": 0.25, "2": 0.375, "3": 0.25, "4": 0.0625, "5": 0.0625}


def test_the_operator_starts_a_new_game_under_another_rule_system(client: Client) -> None:
    state = client.post("/api/new-game", json={"variant": "blockade"}).get_json()
    assert state["variant"] == "blockade" and not state["started"] and state["log"] == []
    assert client.post("/api/new-game", json={"variant": "chess"}).status_code == 400


def test_an_abandoned_game_goes_back_to_the_start(runtime: Runtime) -> None:
    runtime.config = replace(runtime.config, idle_reset_minutes=1.0)
    runtime.throw()
    while not runtime.companion.referee.game.started:
        runtime.throw()
    assert not runtime.reset_if_idle(runtime.last_activity + 30)
    assert runtime.reset_if_idle(runtime.last_activity + 61)
    assert not runtime.companion.referee.game.started


def test_the_first_load_stays_under_100_kb_in_every_language(client: Client) -> None:
    from senet.web.i18n import languages

    scripts = sum(len(client.get(f"/static/{name}").data) for name in ("app.css", "app.js"))
    for code in languages():
        page = client.get("/", headers={"Accept-Language": code})
        assert len(page.data) + scripts < 100_000
        assert b"http://" not in page.data and b"https://" not in page.data  # nothing from a CDN


def test_teaching_mode_is_switched_by_the_operator(client: Client) -> None:
    assert client.get("/api/state").get_json()["teaching"] is True
    assert client.post("/api/teaching", json={"on": False}).get_json()["teaching"] is False
    assert client.post("/api/teaching", json={"on": "yes"}).status_code == 400


def test_the_match_list_and_record(client: Client) -> None:
    from senet.engine.record import GameRecord

    state = client.get("/api/state").get_json()
    while not state["started"]:
        state = client.post("/api/throw").get_json()
    page = client.get("/matches").get_data(as_text=True)
    assert "netherworld" in page and "playing" in page
    record = GameRecord.parse(client.get("/matches/current.txt").get_data(as_text=True))
    assert record.variant == "netherworld" and record.start_throws


def test_an_unknown_match_is_a_clear_404(client: Client) -> None:
    reply = client.get("/matches/1999-01-01.txt")
    assert reply.status_code == 404 and "no match" in reply.get_data(as_text=True)


def test_the_operator_view_asks_for_the_pin_then_offers_every_action(runtime: Runtime) -> None:
    client = Client(create_app(runtime, admin_pin="2468").test_client())
    page = client.get("/admin").get_data(as_text=True)
    assert 'id="login"' in page and 'id="settings"' not in page and "<svg" in page  # the QR code is there for everyone
    client.post("/admin/login", json={"pin": "2468"})
    page = client.get("/admin").get_data(as_text=True)
    for form in ("new-game", "undo", "position", "settings", "logout"):
        assert f'id="{form}"' in page
    assert "Kept until the companion restarts" in page


def test_settings_are_checked_and_kept_across_a_restart(tmp_path: Path) -> None:
    config = Config(variant="kendall", camera="simulator", settle_seconds=0.3, fps=20, settings=str(tmp_path / "settings.json"))
    runtime = build_runtime(config, seed=1, autoplay=False, say=lambda line: None)
    client = Client(create_app(runtime).test_client())
    for bad in ({"idle_reset_minutes": -3}, {"settle_seconds": "soon"}, {"camera": "usb:1"}, [], {}):
        reply = client.post("/api/settings", json=bad)
        assert reply.status_code == 400 and reply.get_json()["error"]
    saved = client.post("/api/settings", json={"idle_reset_minutes": 15, "settle_seconds": 0.8, "teaching": False}).get_json()
    assert saved == {"variant": "kendall", "teaching": False, "idle_reset_minutes": 15.0, "settle_seconds": 0.8,
                     "kept_in": str(tmp_path / "settings.json")}
    assert runtime.companion.stabiliser.settle_s == 0.8 and client.get("/api/state").get_json()["teaching"] is False
    client.post("/api/new-game", json={"variant": "houses"})
    runtime.close()
    again = build_runtime(config, seed=1, autoplay=False, say=lambda line: None)
    assert again.settings()["variant"] == "houses" and again.companion.referee.game.variant.name == "houses"
    assert again.config.idle_reset_minutes == 15.0 and not again.config.teaching
    again.close()


def test_a_damaged_settings_file_is_reported_and_the_configuration_used(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text('{"idle_reset_minutes": ')
    said: list[str] = []
    config = Config(variant="blockade", camera="simulator", settings=str(tmp_path / "settings.json"))
    runtime = build_runtime(config, seed=1, autoplay=False, say=said.append)
    assert runtime.companion.referee.game.variant.name == "blockade"
    assert any("cannot read the saved settings" in line for line in said)
    runtime.close()


def test_museum_visitors_only_look_at_a_real_board(runtime: Runtime, monkeypatch: Any) -> None:
    """With the operator's PIN set and a real camera, phones follow the game; the sticks are thrown at the table."""
    monkeypatch.setattr(Runtime, "simulated", property(lambda self: False))
    client = Client(create_app(runtime, admin_pin="2468").test_client())
    assert 'id="throw"' not in client.get("/").get_data(as_text=True)
    for path in ("/api/throw", "/api/pass"):
        reply = client.post(path)
        assert reply.status_code == 403 and "thrown at the table" in reply.get_json()["error"]
    client.post("/admin/login", json={"pin": "2468"})
    assert client.post("/api/throw").status_code == 200 and 'id="throw"' in client.get("/").get_data(as_text=True)


def test_taking_back_a_move_when_there_is_none_says_so(client: Client) -> None:
    answer = client.post("/api/undo")
    assert answer.status_code == 409 and answer.get_json()["error"] == "there is no move to take back"
    german = client.post("/api/undo", headers={"Accept-Language": "de"})
    assert german.status_code == 409 and german.get_json()["error"] != "there is no move to take back"


def test_a_new_game_with_the_players_names_and_the_moves_counted(tmp_path: Path) -> None:
    runtime = build_runtime(Config(variant="netherworld", camera="simulator", store=str(tmp_path / "m.db")), seed=4,
                            autoplay=False, say=lambda line: None)
    try:
        client = Client(create_app(runtime).test_client())
        assert client.post("/api/new-game", json={"variant": "houses", "dark_player": "Ani", "light_player": "Tutu"}).status_code == 200
        assert (runtime.matches()[0].dark_player, runtime.matches()[0].light_player) == ("Ani", "Tutu")
        assert client.post("/api/new-game", json={"dark_player": 7}).status_code == 400
        while not runtime.companion.referee.game.started:  # houses' start: throws until the start ritual is done
            client.post("/api/throw")
        assert "moves so far: 0" in client.get("/admin").get_data(as_text=True)  # the start ritual is no move
    finally:
        runtime.close()
