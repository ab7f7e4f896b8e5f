"""Every seed of a session, derived from its one session seed by one scheme.

``derive_seed(seed, *parts)`` gives the integer for a purpose (the deal of hand 3,
the bot of seat 2, a bot's decision at action 41); ``hand_rng`` is the deal's
generator. A session seed plus the journaled actions therefore replays a session
exactly. ``new_session_seed`` is where a host's fresh seed comes from.
"""

from __future__ import annotations

import hashlib
import random
import secrets


def derive_seed(seed: int, *parts: int | str) -> int:
    """The seed of ``parts`` within session ``seed``: ``Random(derive_seed(s, *p))``
    is ``Random("president:s:p1:p2…")`` (how the deals were always seeded)."""
    text = ":".join(["president", str(seed), *map(str, parts)]).encode()
    return int.from_bytes(text + hashlib.sha512(text).digest(), "big")


def hand_rng(seed: int, hand_number: int) -> random.Random:
    """The one source of randomness of a deal: a generator per (session seed, hand)."""
    return random.Random(derive_seed(seed, hand_number))


def bot_seed(seed: int, number: int) -> int:
    """The seed of the session's bot ``number`` (a seat, or a host's count of bots made)."""
    return derive_seed(seed, "bot", number)


def move_seed(seed: int, seat: int, actions: int) -> int:
    """The seed of one bot decision: seat ``seat`` after ``actions`` accepted actions. A
    table resumed from its journal so decides as the uninterrupted one would have."""
    return derive_seed(seed, "move", seat, actions)


SESSION_SEED_BITS = 128  # every deal of a session follows from its seed: not guessable


def new_session_seed() -> int:
    """A fresh session seed for a host that was given none: 128 secret bits, so that
    nobody rebuilds the other hands from their own (the seed is never shown to
    players; the journal and the history keep it for replays)."""
    return secrets.randbits(SESSION_SEED_BITS)
