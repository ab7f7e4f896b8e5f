"""Abuse limits of the host: pure bookkeeping, no sockets (the host calls it).

- connections per address (``AddressBook.admit``/``release``): ``too_many_connections``;
- messages per connection, a token bucket (``TokenBucket``): ``rate_limited``;
- hellos, by the whole host and by the seat a hello's hint names: ``host_full``;
- wrong PINs or forged tokens per address in a window: ``too_many_attempts``;
- wrong PINs at a table from anyone (``PinGuard``): a budget per window, each answer
  past the first few later than the last, then ``too_many_attempts`` for every new
  player until the window has passed (a LAN's addresses are cheap to change);
- player names (``name_problem``): ``name_invalid``; chat (``chat_problem``): ``chat_too_long``.

Refusal codes are listed in ``CODES`` (the UI translates them).
"""

from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import dataclass, field

CODES = ("too_many_connections", "rate_limited", "too_many_attempts", "name_invalid",
         "chat_too_long")

# Refusals of a hello that count as a guess at a PIN or a token.
GUESSES = frozenset({"wrong_pin", "bad_token"})


NAME_MAX = 24       # characters of a player's name: the host refuses longer, clients cut there


@dataclass(frozen=True, slots=True)
class Limits:
    per_address: int = 16           # open connections from one address (a LAN party: NAT is rare)
    # Actions are also held back by the host's in-flight limit; the bucket stops floods of
    # anything (pings, snapshot requests), and chat (sent on to everyone) has its own.
    rate: float = 200.0             # messages per second a connection may send, sustained
    burst: float = 400.0            # ... and in one burst
    chat_rate: float = 2.0          # chat lines per second, sustained
    chat_burst: float = 8.0         # ... and in one burst
    strikes: int = 400              # messages refused for rate before the connection is closed
    name_max: int = NAME_MAX
    chat_max: int = 200             # characters of a chat line
    guesses: int = 10               # wrong PINs / forged tokens per address ...
    guess_window: float = 60.0      # ... in this many seconds, then hellos are refused
    addresses_kept: int = 4096      # guessing addresses remembered (oldest forgotten)
    pin_budget: int = 30            # wrong PINs per table, from any address ...
    pin_window: float = 600.0       # ... in this many seconds, then new players are refused
    pin_free: int = 3               # wrong PINs answered at once; then each waits ...
    pin_delay: float = 0.5          # ... this long, doubling, ...
    pin_delay_max: float = 8.0      # ... up to this
    hello_deadline: float = 10.0    # seconds a new connection has to say hello
    # Hellos answered per second by the whole host: each costs a few ms of CPU (the
    # handshake's exponentiations, net/pake.py), so a flood from many addresses cannot
    # take the host's time from the tables; past it a hello gets ``host_full`` (retried).
    handshake_rate: float = 40.0
    handshake_burst: float = 80.0
    # Hellos naming one seat (its token's hint, in clear in every hello that comes back):
    # replaying it costs the replayer this rate, not the host's.
    hint_rate: float = 2.0
    hint_burst: float = 6.0
    # open connections in all; None: below the process's open-file limit
    # (``connection_cap``), so that a flood cannot leave no file for a real player
    connections: int | None = None


FILES_KEPT = 64     # open files the host keeps for itself: journal, zeroconf, the page…


def connection_cap(limits: Limits) -> int:
    """How many connections the host holds at once."""
    if limits.connections is not None:
        return limits.connections
    try:
        import resource
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, ValueError, OSError):
        return 1000
    if soft == resource.RLIM_INFINITY:
        return 4096
    return max(8, min(4096, soft - FILES_KEPT))


class TokenBucket:
    """``take(now)`` is True while the sender keeps to ``rate`` per second (``burst`` at once)."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, now

    def take(self, now: float) -> bool:
        elapsed = max(0.0, now - self.stamp)
        self.stamp = now
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass
class AddressBook:
    """Open connections and recent guesses, by remote address."""

    limits: Limits
    open: dict[str, int] = field(default_factory=dict)
    _guesses: dict[str, deque[float]] = field(default_factory=dict)

    def admit(self, address: str) -> bool:
        """Count a new connection from ``address``; False (not counted) when over the limit."""
        count = self.open.get(address, 0)
        if count >= self.limits.per_address:
            return False
        self.open[address] = count + 1
        return True

    def release(self, address: str) -> None:
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
        else:
            self.open.pop(address, None)

    def guessed(self, address: str, now: float) -> None:
        """A wrong PIN or a forged token came from ``address``."""
        times = self._guesses.setdefault(address, deque())
        times.append(now)
        self._expire(address, times, now)
        if len(self._guesses) > self.limits.addresses_kept:  # bounded, whatever the flood
            for old in list(self._guesses):
                self._expire(old, self._guesses[old], now)
            while len(self._guesses) > self.limits.addresses_kept:
                del self._guesses[next(iter(self._guesses))]  # the longest unseen

    @property
    def remembered(self) -> int:
        """Addresses with recent guesses on record."""
        return len(self._guesses)

    def blocked(self, address: str, now: float) -> bool:
        times = self._guesses.get(address)
        if times is None:
            return False
        self._expire(address, times, now)
        return len(times) >= self.limits.guesses

    def _expire(self, address: str, times: deque[float], now: float) -> None:
        while times and now - times[0] > self.limits.guess_window:
            times.popleft()
        while len(times) > self.limits.guesses:  # bounded memory whatever the flood
            times.popleft()
        if not times:
            del self._guesses[address]


@dataclass
class PinGuard:
    """Wrong PINs at one table, from any address: ``allows`` says whether a new player's
    PIN may still be checked; ``failed`` counts one and says how long its refusal waits
    (growing, so that guessing is slow even within the budget)."""

    limits: Limits
    failures: deque[float] = field(default_factory=deque)

    def allows(self, now: float) -> bool:
        while self.failures and now - self.failures[0] > self.limits.pin_window:
            self.failures.popleft()
        return len(self.failures) < self.limits.pin_budget

    def failed(self, now: float) -> float:
        self.failures.append(now)
        late = len(self.failures) - self.limits.pin_free
        if late <= 0:
            return 0.0
        return min(self.limits.pin_delay_max, self.limits.pin_delay * 2 ** (late - 1))


def name_problem(name: str, limits: Limits) -> dict[str, int | str] | None:
    """None for an acceptable name, else the params of a ``name_invalid`` refusal.

    The protocol already asks for printable text without surrounding spaces; this
    also refuses format characters (bidi overrides, zero-width joiners) and long names.
    """
    if not name or len(name) > limits.name_max:
        return {"max": limits.name_max}
    if name != name.strip() or any(
            unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
            for char in name):
        return {"reason": "characters"}
    return None


def chat_problem(text: str, limits: Limits) -> dict[str, int] | None:
    """None for an acceptable chat line, else the params of a ``chat_too_long`` refusal."""
    if len(text) > limits.chat_max:
        return {"max": limits.chat_max}
    return None
