"""The join handshake's cryptography, sans-I/O: the PIN is never sent, the host proves its key.

RFC 9382 SPAKE2 as its suite SPAKE2-P256-SHA256-HKDF-HMAC (the elliptic-curve
arithmetic is pycryptodome's, HKDF cryptography's), with the host's long-term key
mixed in the way Noise's NK pattern does:

    client (A)                                   host (B; long-term s, S = s·G)
    x random; pA = x·G + w·M       --hello pA-->
                                   <--challenge S, pB--  y random; pB = y·G + w·N
    K = x·(pB - w·N); D = x·S                    K = y·(pA - w·M); D = s·(pA - w·M)
    TT, Ke, Ka, KcA, KcB as RFC 9382 §4, with
      A = the hello's fields, B = the host key S, AAD = the context and D
    proof cA = HMAC(KcA, TT)       --proof cA-->  checks it: the password was right
                                   <--confirm cB--        (only then)
    the channel (net/channel.py): keys HKDF(Ke, salt D), one per direction

``w`` comes from the password: the PIN ("" when the table has none), or, for a player
coming back to their seat, the seat's token (128 secret bits, no PIN needed; the hello
names the seat by a hash of the token, ``token_hint``). PINs and tokens are hashed to
``w`` under different contexts (``PIN``, ``SEAT``), which the key also binds.

An eavesdropper learns nothing about the password; a client or an impostor host gets
one guess per connection, which the host counts (``PinGuard``). Only the holder of
``s`` can compute ``D``: a host whose key is not the one the client expects is refused
before the client proves anything, and an impostor that shows the real host's key
cannot check a guess (the proof depends on ``D``). The page does the same in
``cli/web/static/pake.js`` with the noble libraries.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from dataclasses import dataclass, field

from Crypto.PublicKey import ECC
from Crypto.PublicKey.ECC import EccPoint
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from president.errors import ProtocolError

CURVE = "p256"
# SEC 2, section 2.4.2: the order of P-256's group and its field's prime.
ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
PRIME = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
POINT_SIZE = 65                 # an uncompressed SEC 1 point: 04 || x || y
MAC_SIZE = 32
FINGERPRINT_CHARS = 16          # what people compare aloud: 64 bits, "3F2A-91BC-07DE-55A1"

# Contexts of the password: a table's PIN, or a seat's token.
PIN, SEAT = b"president v7 pin", b"president v7 seat"
KNOCK = b"president v7 knock"  # a knock: the empty password, under its own label


def generator() -> EccPoint:
    return ECC.construct(curve="P-256", d=1).pointQ


def decode_point(data: bytes, field_name: str = "share") -> EccPoint:
    """A peer's point; ``ProtocolError`` (bad_field) unless it is an uncompressed point of
    P-256 other than the identity, each coordinate below the field's prime (RFC 9382 §7).
    (P-256's cofactor is 1: every point of the curve is in the prime-order group.)"""
    if len(data) != POINT_SIZE or data[0] != 4:
        raise ProtocolError("bad_field", field=field_name)
    x, y = int.from_bytes(data[1:33], "big"), int.from_bytes(data[33:], "big")
    if x >= PRIME or y >= PRIME:
        raise ProtocolError("bad_field", field=field_name)
    try:
        point = EccPoint(x, y, CURVE)
    except ValueError:  # not on the curve
        raise ProtocolError("bad_field", field=field_name) from None
    if point.is_point_at_infinity():
        raise ProtocolError("bad_field", field=field_name)
    return point


def encode_point(point: EccPoint) -> bytes:
    x, y = point.xy
    return b"\x04" + int(x).to_bytes(32, "big") + int(y).to_bytes(32, "big")


def _compressed(hex_text: str) -> EccPoint:
    """A point given compressed (RFC 9382 §6 prints M and N so)."""
    key = ECC.import_key(bytes.fromhex(hex_text), curve_name="P-256")
    return key.pointQ


# RFC 9382 §6, for P-256.
M = _compressed("02886e2f97ace46e55ba9dd7242579f2993b64e16ef3dcab95afd497333d8fa12f")
N = _compressed("03d8bbd6c639c62937b04d997f38c3770719c629d7014d49a24b4f98baa1292b49")
G = generator()


def _hkdf(ikm: bytes, info: bytes, length: int, salt: bytes | None = None) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def password_scalar(password: str, context: bytes) -> int:
    """``w`` (RFC 9382 §3.2): the password hashed to 64 bits more than the group's order,
    reduced. (A memory-hard function would add nothing here: a PIN is a few digits, and
    SPAKE2 gives an attacker no transcript to test guesses against offline.)"""
    return int.from_bytes(_hkdf(password.encode(), context, 40), "big") % ORDER


def random_scalar() -> int:
    return secrets.randbelow(ORDER - 1) + 1


def _len(data: bytes) -> bytes:
    return struct.pack("<Q", len(data)) + data


def transcript(a: bytes, b: bytes, pa: bytes, pb: bytes, k: bytes, w: int) -> bytes:
    """TT of RFC 9382 §4: each part after its 8-byte little-endian length."""
    return b"".join(_len(part) for part in (a, b, pa, pb, k, w.to_bytes(32, "big")))


@dataclass(frozen=True)
class Schedule:
    """The key schedule of RFC 9382 §4 for one transcript."""

    tt: bytes = field(repr=False)
    ke: bytes = field(repr=False)
    ka: bytes = field(repr=False)
    kca: bytes = field(repr=False)
    kcb: bytes = field(repr=False)

    @classmethod
    def of(cls, tt: bytes, aad: bytes = b"") -> Schedule:
        digest = hashlib.sha256(tt).digest()
        ke, ka = digest[:16], digest[16:]
        confirmation = _hkdf(ka, b"ConfirmationKeys" + aad, 32)
        return cls(tt, ke, ka, confirmation[:16], confirmation[16:])

    @property
    def ca(self) -> bytes:
        return hmac.new(self.kca, self.tt, hashlib.sha256).digest()

    @property
    def cb(self) -> bytes:
        return hmac.new(self.kcb, self.tt, hashlib.sha256).digest()


def share(scalar: int, w: int, mask: EccPoint) -> EccPoint:
    """``scalar·G + w·mask`` (pA with M, pB with N)."""
    return G * scalar + mask * w


def unmasked(peer_share: bytes, w: int, mask: EccPoint) -> EccPoint:
    """The peer's share without the password's mask; ``ProtocolError`` for a share that is
    no point, or whose unmasking leaves the identity (nothing secret would be left)."""
    point = decode_point(peer_share) + (-(mask * w) if w else G * 0)
    if point.is_point_at_infinity():
        raise ProtocolError("bad_field", field="share")
    return point


def token_hint(token: str) -> str:
    """A short hash of a seat's token: enough to find its table, useless to claim it."""
    return hashlib.sha256(b"president token hint\0" + token.encode()).hexdigest()[:16]



def fingerprint(public: bytes) -> str:
    """The host key's full fingerprint (hex), as advertised and remembered."""
    return hashlib.sha256(b"president host key\0" + public).hexdigest()


def short_fingerprint(full: str) -> str:
    """What people read aloud: 64 bits in four groups, "3F2A-91BC-07DE-55A1"."""
    short = full[:FINGERPRINT_CHARS].upper()
    return "-".join(short[i:i + 4] for i in range(0, FINGERPRINT_CHARS, 4))


def matches(expected: str, offered: str) -> bool:
    """Whether an offered full fingerprint is the one expected: in full, or (typed or read
    from a QR code) its short form, case and dashes aside."""
    wanted = expected.replace("-", "").lower()
    return len(wanted) >= FINGERPRINT_CHARS and hmac.compare_digest(
        offered[:len(wanted)].encode(), wanted.encode())


@dataclass(frozen=True)
class HostKey:
    """The host's long-term key (kept in the data folder)."""

    secret: int

    @classmethod
    def generate(cls) -> HostKey:
        return cls(random_scalar())

    @classmethod
    def from_hex(cls, text: str) -> HostKey:
        """``ValueError`` for anything but a P-256 key written by ``to_hex``."""
        kind, _, number = text.partition(":")
        secret = int(number, 16) if kind == "p256" else 0
        if not 0 < secret < ORDER:
            raise ValueError("host key")
        return cls(secret)

    def to_hex(self) -> str:
        return f"p256:{self.secret:064x}"

    @property
    def public(self) -> bytes:
        return encode_point(G * self.secret)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)


@dataclass(frozen=True)
class Keys:
    """What a finished handshake gives the channel: one key per direction."""

    client_to_host: bytes = field(repr=False)
    host_to_client: bytes = field(repr=False)


def _keys(schedule: Schedule, d: bytes) -> Keys:
    okm = _hkdf(schedule.ke, b"president v7 channel", 64, salt=d)
    return Keys(okm[:32], okm[32:])


def _x(point: EccPoint) -> bytes:
    return int(point.x).to_bytes(32, "big")


@dataclass
class ClientHandshake:
    """The client's half (A). ``identity``: the hello's fields but the share, encoded
    (``protocol.hello_identity``); ``context``: ``PIN`` or ``SEAT``."""

    password: str | None
    identity: bytes
    context: bytes = PIN
    _x: int = field(default_factory=random_scalar, repr=False)
    share: bytes = b""
    schedule: Schedule | None = field(default=None, repr=False)
    keys: Keys | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._w = password_scalar(self.password or "", self.context)
        self.share = encode_point(share(self._x, self._w, M))

    def answer(self, host_public: bytes, host_share: bytes) -> bytes:
        """Our proof of the password, cA (the schedule is kept for ``host_proved``).
        ``ProtocolError`` for values that are not points of the group."""
        host_key = decode_point(host_public, "key")
        k = unmasked(host_share, self._w, N) * self._x
        d = _x(host_key * self._x)
        tt = transcript(self.identity, host_public, self.share, host_share,
                        encode_point(k), self._w)
        self.schedule = Schedule.of(tt, self.context + d)
        self.keys = _keys(self.schedule, d)
        return self.schedule.ca

    def host_proved(self, proof: bytes) -> bool:
        """Whether the host's confirmation shows it knew both the password and its key."""
        return self.schedule is not None and hmac.compare_digest(proof, self.schedule.cb)


class HostSecrets:
    """What a host computes once per password: ``w`` and ``w·M`` for a table's PIN, or
    for a seat's token."""

    def __init__(self, key: HostKey, password: str | None, context: bytes = PIN) -> None:
        self.key, self.public, self.context = key, key.public, context
        self.w = password_scalar(password or "", context)
        self.w_m = -(M * self.w) if self.w else G * 0
        self.w_n = N * self.w


class HostHandshake:
    """The host's half (B) for one connection: ``share`` answers the hello, ``pin_proved``
    checks the proof, ``proof`` (cB) confirms, ``keys`` open the channel.
    ``ProtocolError`` for a client share that is not a point of the group."""

    def __init__(self, secrets_: HostSecrets, client_share: bytes, identity: bytes) -> None:
        client = decode_point(client_share) + secrets_.w_m
        if client.is_point_at_infinity():
            raise ProtocolError("bad_field", field="share")
        y = random_scalar()
        self.share = encode_point(G * y + secrets_.w_n)
        self.public = secrets_.public
        d = _x(client * secrets_.key.secret)
        tt = transcript(identity, self.public, client_share, self.share,
                        encode_point(client * y), secrets_.w)
        self._schedule = Schedule.of(tt, secrets_.context + d)
        self.keys = _keys(self._schedule, d)

    def pin_proved(self, proof: bytes) -> bool:
        return hmac.compare_digest(proof, self._schedule.ca)

    @property
    def proof(self) -> bytes:
        """The host's confirmation, cB, sent only after the client's proof checked."""
        return self._schedule.cb
