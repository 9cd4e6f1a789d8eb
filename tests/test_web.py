"""The page in simulation: state, electronic throws and virtual pieces through the whole chain."""

from __future__ import annotations

import re
from typing import Any

import pytest

from senet.device.config import Config
from senet.device.service import Runtime, build_runtime
from senet.web.app import create_app


@pytest.fixture
def runtime() -> Runtime:
    runtime = build_runtime(Config(variant="netherworld", camera="simulator", settle_seconds=0.3, fps=20), seed=4,
                            autoplay=False, say=lambda line: None)
    yield runtime
    runtime.close()


class Client:
    """Flask's test client that sends the page's CSRF token, as the page does."""

    def __init__(self, client: Client) -> None:
        self.client = client
        page = client.get("/").get_data(as_text=True)
        self.token = re.search(r'name="csrf-token" content="([^"]+)"', page)[1]

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self.client.get(*args, **kwargs)

    def post(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("headers", {})["X-CSRF-Token"] = self.token
        return self.client.post(*args, **kwargs)


@pytest.fixture
def client(runtime: Runtime) -> Client:
    return Client(create_app(runtime).test_client())


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
    runtime.loop(turns=1)  # frames: render -> vision -> stabiliser -> referee -> LEDs
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

    page = client.get("/rules/houses").get_data(as_text=True)
    for rule in RULE_SYSTEMS["H"].rules:
        assert f'id="{rule.id}"' in page
    assert "This companion&#39;s reading" in page and "Russian" in page and "25%" in page
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
    assert other.post("/api/undo").status_code == 200
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
    runtime.idle_reset_s = 60.0
    runtime.throw()
    while not runtime.companion.referee.game.started:
        runtime.throw()
    assert not runtime.reset_if_idle(runtime.last_activity + 30)
    assert runtime.reset_if_idle(runtime.last_activity + 61)
    assert not runtime.companion.referee.game.started


def test_the_first_load_stays_under_100_kb(client: Client) -> None:
    page = client.get("/")
    sizes = [len(page.data)] + [len(client.get(f"/static/{name}").data) for name in ("app.css", "app.js")]
    assert sum(sizes) < 100_000
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
