"""The address phones are given: the configured name, else the machine's network address, never localhost."""

from __future__ import annotations

import re
import subprocess
import sys

from senet.device.address import network_addresses, phone_url
from senet.web.app import create_app


def test_a_configured_name_or_url_is_used_as_it_is() -> None:
    assert phone_url("senet.local", 8080) == "http://senet.local:8080/"
    assert phone_url("https://senet.museum.org/game", 8080) == "https://senet.museum.org/game/"
    assert phone_url("192.168.1.40", 80) == "http://192.168.1.40/"


def test_without_a_name_it_is_this_machines_network_address() -> None:
    assert all(not address.startswith("127.") for address in network_addresses())
    url = phone_url("", 8080)
    assert url == (f"http://{network_addresses()[0]}:8080/" if network_addresses() else "http://localhost:8080/")


def test_the_qr_code_and_the_operator_view_give_the_phone_address() -> None:
    app = create_app(runtime=None, phone_url="http://senet.local:8080/")
    page = app.test_client().get("/qr").get_data(as_text=True)
    assert "http://senet.local:8080/" in page and "localhost" not in page


def test_the_start_up_line_gives_the_phone_address(tmp_path) -> None:
    config = tmp_path / "companion.toml"
    config.write_text('public_address = "senet.local"\nport = 18261\ncamera = "simulator"\n')
    result = subprocess.run([sys.executable, "-m", "senet.device.cli", "run", "--config", str(config), "--autoplay",
                             "--turns", "1"], capture_output=True, text=True, timeout=120)
    assert re.search(r"^the page: http://senet\.local:18261/$", result.stdout, re.MULTILINE), result.stdout
    assert "admin_pin" in result.stdout  # /admin is open without a PIN, and it says so
