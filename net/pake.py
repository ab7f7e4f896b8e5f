"""The join handshake's cryptography, sans-I/O: the PIN is never sent, the host proves its key.

SPAKE2 (Abdalla & Pointcheval) over the 2048-bit MODP group of RFC 3526, with the
host's long-term key mixed in (as Noise's NK pattern does):

    client                                       host (long-term x, X = g^x)
    a random; T = g^a · M^w        --hello T-->
                                   <--challenge X, S--  b random; S = g^b · N^w
    K1 = (S / N^w)^a, K2 = X^a                   K1 = (T / M^w)^b, K2 = (T / M^w)^x
    key = H(T, S, X, K1, K2, w)                  (the same key)
    proof: HMAC(key, "client")     --proof-->    checks it: the PIN was right
                                   <--welcome HMAC(key, "host")--

``w`` comes from the PIN ("" when the table has none), or, for a player coming back
to their seat, from the seat's token (128 secret bits: no PIN needed; the hello names
the token by a short hash, ``token_hint``, so that the host knows which). An
eavesdropper learns nothing about the PIN; a client or an impostor host gets one guess
per connection, which the host counts (``PinGuard``). Only the holder of ``x`` can
compute ``K2``: a host whose key does not hash to the fingerprint the lobby advertised
(or the client remembers) is refused before anything else is sent, and a welcome
without the host's proof is not believed.

Secret exponents are 256-bit (twice the group's security level, as RFC 3526 advises)
and even, so that every shared value lies in the prime-order subgroup.
The page for phones does the same in ``cli/web/static/pake.js``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from president.errors import ProtocolError

# RFC 3526, section 3: the 2048-bit MODP group; g = 2 generates the subgroup of order q.
P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74"
    "020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437"
    "4FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF05"
    "98DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB"
    "9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183"
    "995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF", 16)
G = 2
SIZE = 256                      # bytes of a group element on the wire
FINGERPRINT_CHARS = 8           # the short fingerprint people compare: "3F2A-91BC"


def _sha256(*parts: bytes) -> bytes:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(4, "big") + part)
    return digest.digest()


def _element(label: str) -> int:
    """A group element nobody knows the logarithm of: a hash, squared (RFC 9382 style)."""
    stream = b"".join(_sha256(label.encode(), bytes([i])) for i in range(9))  # 288 bytes
    return pow(int.from_bytes(stream, "big") % P, 2, P)


M = _element("president pake M")
N = _element("president pake N")


def to_bytes(element: int) -> bytes:
    return element.to_bytes(SIZE, "big")


def from_bytes(data: bytes, field_name: str) -> int:
    """A peer's group element; ``ProtocolError`` (bad_field) if it is not one."""
    value = int.from_bytes(data, "big")
    if len(data) != SIZE or not 1 < value < P - 1:
        raise ProtocolError("bad_field", field=field_name)
    return value


def _secret_exponent() -> int:
    return 2 * secrets.randbits(255) + 2


def pin_scalar(password: str | None) -> int:
    """The password (a PIN, "" or None for none, or a seat's token) as an exponent."""
    return int.from_bytes(_sha256(b"president pin", (password or "").encode()), "big")


def token_hint(token: str) -> str:
    """A short hash of a seat's token: enough to find its table, useless to claim it."""
    return _sha256(b"president token hint", token.encode()).hex()[:16]


def fingerprint(public: bytes) -> str:
    """The host key's full fingerprint (hex), as advertised and remembered."""
    return _sha256(b"president host key", public).hex()


def short_fingerprint(full: str) -> str:
    """What people read: "3F2A-91BC"."""
    short = full[:FINGERPRINT_CHARS].upper()
    return f"{short[:4]}-{short[4:]}"


@dataclass(frozen=True)
class HostKey:
    """The host's long-term key (kept in the data folder)."""

    secret: int

    @classmethod
    def generate(cls) -> HostKey:
        return cls(_secret_exponent())

    @classmethod
    def from_hex(cls, text: str) -> HostKey:
        secret = int(text, 16)
        if secret < 2 or secret % 2:
            raise ValueError("host key")
        return cls(secret)

    def to_hex(self) -> str:
        return format(self.secret, "x")

    @property
    def public(self) -> bytes:
        return to_bytes(pow(G, self.secret, P))

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)


def _key(t: bytes, s: bytes, x: bytes, k1: int, k2: int, w: int) -> bytes:
    return _sha256(b"president pake v1", t, s, x, to_bytes(k1), to_bytes(k2),
                   w.to_bytes(32, "big"))


def _mac(key: bytes, label: bytes) -> bytes:
    return hmac.new(key, label, hashlib.sha256).digest()


@dataclass
class ClientHandshake:
    """The client's half: ``share`` goes in the hello; ``answer`` the host's challenge.
    ``password``: the PIN, or the token of the seat we come back to."""

    password: str | None = None
    _a: int = field(default_factory=_secret_exponent, repr=False)
    share: bytes = b""
    key: bytes = field(default=b"", repr=False)

    def __post_init__(self) -> None:
        self._w = pin_scalar(self.password)
        self.share = to_bytes(pow(G, self._a, P) * pow(M, self._w, P) % P)

    def answer(self, host_public: bytes, host_share: bytes) -> bytes:
        """Our proof of the password (the key is kept for ``host_proved``).
        ``ProtocolError`` for values that are not group elements."""
        s = from_bytes(host_share, "share")
        x = from_bytes(host_public, "key")
        k1 = pow(s * pow(pow(N, self._w, P), -1, P) % P, self._a, P)
        k2 = pow(x, self._a, P)
        self.key = _key(self.share, host_share, host_public, k1, k2, self._w)
        return _mac(self.key, b"client")

    def host_proved(self, proof: bytes) -> bool:
        """Whether the welcome's proof shows the host knew both the PIN and its key."""
        return bool(self.key) and hmac.compare_digest(proof, _mac(self.key, b"host"))


class HostSecrets:
    """What a host computes once per password (``M^-w`` and ``N^w``): a table's PIN, or
    a seat's token."""

    def __init__(self, key: HostKey, password: str | None) -> None:
        self.key, self.public = key, key.public
        self.w = pin_scalar(password)
        self.m_inverse = pow(pow(M, self.w, P), -1, P)
        self.n_w = pow(N, self.w, P)


class HostHandshake:
    """The host's half for one connection: ``share`` answers the hello; ``check`` the proof."""

    def __init__(self, secrets_: HostSecrets, client_share: bytes) -> None:
        t = from_bytes(client_share, "share")
        b = _secret_exponent()
        self.share = to_bytes(pow(G, b, P) * secrets_.n_w % P)
        self.public = secrets_.public
        a_part = t * secrets_.m_inverse % P
        k1, k2 = pow(a_part, b, P), pow(a_part, secrets_.key.secret, P)
        self._key = _key(client_share, self.share, self.public, k1, k2, secrets_.w)

    def pin_proved(self, proof: bytes) -> bool:
        return hmac.compare_digest(proof, _mac(self._key, b"client"))

    @property
    def proof(self) -> bytes:
        """The host's proof, sent with the welcome (only after the client's checked)."""
        return _mac(self._key, b"host")
