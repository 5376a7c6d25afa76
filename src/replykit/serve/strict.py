"""How the playground's server reads what a request says: one strict rule for every
value it uses (docs/serve.md section 3).

- A number (``Content-Length``, the port of ``Host``) is ASCII digits ``0-9`` only,
  at most a fixed count of them: never ``int()``'s wider idea of a digit (``²``,
  Arabic-Indic digits), a sign, white space, or thousands of digits.
- The request line is ``METHOD SP TARGET SP HTTP/D.D``: a token, a target of printable
  ASCII without spaces, one digit each side of the version's dot.
- ``Host`` is compared case-insensitively, as a name or address literal and a port.
- A header the server reads may appear once.

Every function here is pure; the server turns a ``None`` or a problem into a refusal.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Sequence

#: Most digits a ``Content-Length`` may have (any 64-bit size fits in 19).
MAX_LENGTH_DIGITS = 19
#: Most digits of a port (65535).
MAX_PORT_DIGITS = 5
#: The headers the server reads; each may appear once in a request.
READ_HEADERS = ("Host", "Content-Length", "Content-Type", "Transfer-Encoding")

# RFC 9110 token characters for the method; the target is printable ASCII.
_REQUEST_LINE = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+ [\x21-\x7e]+ HTTP/[0-9]\.[0-9]")


def number(text: str, max_digits: int) -> int | None:
    """The value of ``text`` when it is 1 to ``max_digits`` ASCII digits, else ``None``."""
    if 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def request_line_ok(raw: bytes) -> bool:
    """True when ``raw`` (one request line, ending in CRLF or LF) is
    ``METHOD SP TARGET SP HTTP/D.D``."""
    line = raw.removesuffix(b"\n").removesuffix(b"\r").decode("latin-1")
    return _REQUEST_LINE.fullmatch(line) is not None


def duplicated(names: Sequence[str], counts: dict[str, int]) -> str | None:
    """The first of ``names`` whose count in ``counts`` (header name, lowercased ->
    occurrences) is over one, else ``None``."""
    for name in names:
        if counts.get(name.lower(), 0) > 1:
            return name
    return None


def host_and_port(value: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a ``Host`` header value, the name lowercased (an IPv6
    literal keeps its brackets), ``port`` ``None`` when absent; ``None`` when the
    value is not ``name[:port]`` with a port of at most 5 digits up to 65535."""
    value = value.lower()
    if value.startswith("["):
        end = value.find("]") + 1
        if end == 0:
            return None
        name, rest = value[:end], value[end:]
    else:
        name, colon, port = value.partition(":")
        rest = colon + port
    if not name:
        return None
    if not rest:
        return name, None
    port_number = number(rest[1:], MAX_PORT_DIGITS) if rest[0] == ":" else None
    if port_number is None or port_number > 65535:
        return None
    return name, port_number


def loopback_name(name: str) -> bool:
    """True when a ``Host`` name (lowercased) is ``localhost`` or a loopback address
    literal in its standard spelling (``127.0.0.1``, ``[::1]``): what a browser sends
    for a loopback URL, never a DNS name a page could rebind."""
    if name == "localhost":
        return True
    bracketed = name.startswith("[") and name.endswith("]")
    literal = name[1:-1] if bracketed else name
    if bracketed != (":" in literal):  # IPv6 in brackets, IPv4 without
        return False
    try:
        return _loopback(ipaddress.ip_address(literal))
    except ValueError:
        return False


def bound_loopback(host: str) -> bool:
    """True when listening on ``host`` listens on a loopback address only: the host
    is resolved as the socket resolves it (``127.1``, ``2130706433``, ``0x7f.1`` and
    ``127.0.0.1`` are one address; ``localhost`` is looked up; an IPv4-mapped IPv6
    loopback address counts). False for a host that does not resolve, and for ``""``
    and ``0.0.0.0`` (every interface)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        found = socket.getaddrinfo(host, None, family, socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError):
        return False
    try:
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found]
    except ValueError:
        return False
    return bool(addresses) and all(_loopback(address) for address in addresses)


def _loopback(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback
