"""The address phones use to reach the page: the configured name, else this machine's own
network address (never ``localhost``, which on a phone is the phone).

    >>> phone_url("senet.local", 8080)
    'http://senet.local:8080/'
    >>> phone_url("", 80, addresses=["192.168.1.20"])
    'http://192.168.1.20/'
    >>> phone_url("", 8080, addresses=[])
    'http://localhost:8080/'
"""

from __future__ import annotations

import socket

#: An address of TEST-NET-1 (RFC 5737): connecting a UDP socket to it sends nothing, but
#: tells which of this machine's addresses faces the network.
_PROBE = ("192.0.2.1", 9)


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, the one facing the network first."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            found.append(probe.getsockname()[0])
    except OSError:  # no network at all
        pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    found += [str(info[4][0]) for info in infos]
    return [address for address in dict.fromkeys(found) if not address.startswith("127.") and address != "0.0.0.0"]


def phone_url(public_address: str, port: int, addresses: list[str] | None = None) -> str:
    """The page's address for a phone: ``public_address`` (a name such as ``senet.local``, an
    address, or a whole URL) when configured, else this machine's network address."""
    if public_address.startswith(("http://", "https://")):
        return public_address if public_address.endswith("/") else public_address + "/"
    host = public_address or next(iter(network_addresses() if addresses is None else addresses), "localhost")
    return f"http://{host}/" if port == 80 else f"http://{host}:{port}/"
