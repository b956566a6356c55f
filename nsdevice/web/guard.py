"""Who may act on the page, and how often (issue 22): the box's own names, the join code's
budget for the whole box, and the seat a phone joined for.

- Only the box's own names are answered (against DNS rebinding), and nothing a browser
  sends from another site may act: it is refused before any code is checked, so it can
  neither guess nor spend the box's budget.
- Wrong codes draw on one budget for the whole box (a token bucket: a burst of
  `BURST`, then one every `REFILL` seconds), whatever address they come from; while it
  is empty no code is checked at all, the right one included, so a flood learns nothing.
  Each address (an IPv6 /64 as one) may also use only `TRIES` of it a minute, so one
  machine cannot hold the budget alone. The right code spends nothing: a room of phones
  joins at once.
- Joining gives a seat token: an HMAC of the game, the seat and the join code under a
  secret drawn at start (a room seat's also of its claim's hash, web.seating). The page
  keeps nothing per phone; a new code (a new game, or NEXT on the box's Phones screen)
  ends every token.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import socket
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable

BURST = 10  # wrong codes the box takes at once…
REFILL = 1.2  # …then one per this many seconds: at most 10 + 60 / 1.2 = 60 in a minute
TRIES = 5  # wrong codes per address (or IPv6 /64) per minute, within the box's budget
WINDOW = 60.0  # seconds
MOST_KEYS = 4096  # addresses remembered; the oldest is forgotten first, never all at once
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def address_key(address: str) -> str:
    """The unit a limit counts: an IPv4 address, or an IPv6 address's /64 (one machine
    can use a whole /64, so each of its addresses is not a fresh budget)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


class Window:
    """At most `most` events per key in a sliding window of `WINDOW` seconds; at most
    `MOST_KEYS` keys, the longest unseen forgotten first."""

    def __init__(self, most: int, clock: Callable[[], float] = time.monotonic) -> None:
        self._most = most
        self._clock = clock
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()

    def full(self, key: str) -> bool:
        seen = self._seen.get(key)
        if seen is None:
            return False
        since = self._clock() - WINDOW
        while seen and seen[0] <= since:
            seen.popleft()
        if not seen:
            del self._seen[key]
        return len(seen) >= self._most

    def add(self, key: str) -> None:
        seen = self._seen.pop(key, None) or deque()
        seen.append(self._clock())
        self._seen[key] = seen  # now the most recent
        while len(self._seen) > MOST_KEYS:
            self._seen.popitem(last=False)


class Budget:
    """Wrong join codes for the whole box: see the module's docstring."""

    def __init__(
        self,
        burst: int = BURST,
        refill: float = REFILL,
        tries: int = TRIES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._burst, self._refill, self._clock = burst, refill, clock
        self._left = float(burst)
        self._at = clock()
        self._addresses = Window(tries, clock)
        self.checked_wrong = 0  # for the reliability check and the docs' figures

    def _fill(self) -> None:
        now = self._clock()
        self._left = min(self._burst, self._left + (now - self._at) / self._refill)
        self._at = now

    def closed(self, address: str) -> str | None:
        """Why no code from `address` may be checked now, or None."""
        if self._addresses.full(address_key(address)):
            return "too many wrong codes from this phone; wait a minute"
        self._fill()
        if self._left < 1:
            return "too many wrong codes at this box; try again in a moment"
        return None

    def missed(self, address: str) -> None:
        self._fill()
        self._left -= 1
        self.checked_wrong += 1
        self._addresses.add(address_key(address))


class Seats:
    """Seat tokens: `issue` on joining, `seat_of` (one table) or `place_of` (a room) on
    every act. A room's token also binds the table: a phone acts for its own seat at its
    own table only."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret or secrets.token_bytes(32)

    def _mac(self, game: int, seat: int, code: str, table: int, claim: str = "") -> str:
        # a room's message has its own prefix: no one-table token is ever a room's
        said = f"room:{game}:{table}:{seat}:{code}:{claim}" if table else f"{game}:{seat}:{code}"
        return hmac.new(self._secret, said.encode(), hashlib.sha256).hexdigest()[:32]

    def issue(self, game: int, seat: int, code: str, table: int = 0, claim: str = "") -> str:
        """The token of `seat` (at room table `table`; 0: the one table) in this game; a
        room seat's is bound to the hash of the `claim` holding it (web.seating)."""
        place = f"{table}-{seat}" if table else str(seat)
        return f"{place}.{self._mac(game, seat, code, table, claim)}"

    def place_of(
        self,
        token: str,
        game: int,
        code: str,
        claim_of: Callable[[tuple[int, int]], str | None] = lambda place: "",
    ) -> tuple[int, int] | None:
        """(table, seat) `token` was issued for in this game under this code (table 0:
        a one-table game's), else None; a room seat's only while `claim_of` it is the
        claim the token was issued under (None: nobody holds the seat)."""
        place, _, mac = token.partition(".")
        table, dash, seat = place.rpartition("-")
        if not code or not seat.isdigit() or len(seat) > 2:
            return None
        if dash and not (table.isdigit() and len(table) <= 2 and table[0] != "0"):
            return None
        number = int(table) if dash else 0
        claim = claim_of((number, int(seat))) if number else ""
        if claim is None:
            return None
        expected = self._mac(game, int(seat), code, number, claim)
        if not hmac.compare_digest(mac.encode(), expected.encode()):
            return None
        return number, int(seat)

    def seat_of(self, token: str, game: int, code: str) -> int | None:
        """The seat `token` was issued for in this one-table game under this code, else None."""
        place = self.place_of(token, game, code)
        return place[1] if place is not None and place[0] == 0 else None


def own_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """The names the box answers to besides its addresses: localhost, its host name and
    its mDNS name (`NAME.local`), lower case."""
    host = socket.gethostname().lower()
    return frozenset({*LOOPBACK_NAMES, host, f"{host}.local", *(n.lower() for n in extra)})


def host_name(host: str) -> str:
    """The name in a Host header or an origin's authority, without the port or brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else ""
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def own_host(host: str, names: frozenset[str], local_address: str | None) -> bool:
    """A Host the box answers: one of its names, or the address this connection reached
    (an address in the Host header is its own origin: no rebinding through it)."""
    name = host_name(host)
    if name in names:
        return True
    try:
        asked = ipaddress.ip_address(name)
    except ValueError:
        return False
    if asked.is_loopback:
        return True
    return local_address is not None and host_name(local_address) == str(asked)


def same_origin(headers: Callable[[str], str | None], host: str) -> bool:
    """True unless a browser says the request comes from another site: `Sec-Fetch-Site`
    when sent, else `Origin` must name this very host. A request with neither comes from
    no browser page (curl, a script), which no other site can make a phone send."""
    site = headers("sec-fetch-site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = headers("origin")
    if origin is None:
        return True
    scheme, _, authority = origin.partition("://")
    return scheme in ("http", "https") and authority.lower() == host.strip().lower()
