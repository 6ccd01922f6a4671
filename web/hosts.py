"""Host names and bind addresses as the web server's guards and settings compare them: the allow-list's names
cleaned, the names a bind address answers to, and whether a bind is reached from this machine only.

Apart from deckcheck.web.guard so that deckcheck.web.settings (which validates --allowed-host) and the guards both
take these names from below, and neither imports the other for them."""
from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable

from deckcheck.errors import DeckcheckError

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARD_BINDS = ("0.0.0.0", "::", "")


class GuardError(DeckcheckError):
    """A guard option that cannot be used (a bad rate or host name): `serve` stops with exit 2."""


def loopback_bind(bind: str) -> bool:
    """Whether a server listening on `bind` is reached from this machine only (127.0.0.1, ::1, localhost)."""
    bind = bind.strip().strip("[]").lower()
    return bind == "localhost" or is_loopback_address(bind)


def clean_host_name(name: str) -> str:
    """A host name of the allow-list as compared: lower case, no brackets or final dot; GuardError if not a name."""
    text = name.strip().lower()
    if text in ("*", "0.0.0.0", "::", "[::]"):
        return text.strip("[]")
    host = text.strip("[]").rstrip(".")
    bare = host[2:] if host.startswith("*.") else host
    if not bare or len(host) > 253 or not all(c.isalnum() or c in "-.:" for c in bare):
        raise GuardError(f"--allowed-host {name!r} is not a host name (e.g. desk.example.org, *.example.org "
                         "or 192.168.1.20)")
    return host


def hosts_for_bind(bind: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The allow-list of a server bound to `bind`: that address; the loopback names when it is loopback or
    every address; this machine's name (and NAME.local) when every address; then the names given.

    Bound to every address (0.0.0.0 or ::), the list holds that wildcard too, which lets in any IP address
    written as the host (http://192.168.1.20:8000/ as a phone on the LAN opens it): a page on another site
    that rebinds its name to this machine still sends its own name, never an address.
    """
    bind = bind.strip().strip("[]").lower()
    wildcard = bind in WILDCARD_BINDS
    names: list[str] = ["0.0.0.0" if bind == "" else bind]
    if wildcard or loopback_bind(bind):
        names += LOOPBACK_NAMES
    if wildcard:
        machine = socket.gethostname().lower().rstrip(".")
        if machine and all(c.isalnum() or c in "-." for c in machine):
            names += [machine, f"{machine.split('.')[0]}.local"]
    names = [n if n in WILDCARD_BINDS else clean_host_name(n) for n in names]
    return tuple(dict.fromkeys(names + [clean_host_name(h) for h in extra]))


def is_loopback_address(text: str) -> bool:
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False
