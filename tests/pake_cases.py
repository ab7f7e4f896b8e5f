"""What the handshake's tests share in Python and in node: RFC 9382's test vectors for
SPAKE2-P256-SHA256-HKDF-HMAC (Appendix B, ``rfc9382_vectors.json``) and degenerate
points a peer might send."""

from __future__ import annotations

import json
from pathlib import Path

from president.net.pake import PRIME, G, encode_point

VECTORS_FILE = Path(__file__).parent / "rfc9382_vectors.json"
VECTORS: list[dict[str, str]] = json.loads(VECTORS_FILE.read_text())
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B  # P-256's b


def _point_with_small_x() -> tuple[int, int]:
    """A point of the curve whose x plus the prime still fits in 32 bytes."""
    for x in range(1, 1000):
        rhs = (x ** 3 - 3 * x + B) % PRIME
        y = pow(rhs, (PRIME + 1) // 4, PRIME)
        if y * y % PRIME == rhs:
            return x, y
    raise AssertionError("none")


def degenerate() -> list[bytes]:
    """Encodings that are no point of the group to accept (RFC 9382 §7)."""
    x, y = _point_with_small_x()
    good = encode_point(G)
    return [
        b"\x00",                                        # the identity's encoding
        bytes(65),                                      # zeros
        b"\x04" + bytes(64),                            # (0, 0): not on the curve
        good[:-1] + bytes([good[-1] ^ 1]),              # off the curve
        b"\x02" + good[1:33],                           # compressed
        b"\x04" + (x + PRIME).to_bytes(32, "big") + y.to_bytes(32, "big"),  # x out of range
        good + b"\x00",                                 # too long
    ]
