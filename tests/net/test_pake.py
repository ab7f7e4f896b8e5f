"""The join handshake's cryptography (net/pake.py): RFC 9382's own test vectors for the
suite SPAKE2-P256-SHA256-HKDF-HMAC, the degenerate points it refuses, and what our
composition binds (the password's context, the hello, the host key)."""

from __future__ import annotations

import pytest
from pake_cases import VECTORS, degenerate

from president.errors import ProtocolError
from president.net.pake import (
    ORDER,
    PIN,
    SEAT,
    ClientHandshake,
    G,
    HostHandshake,
    HostKey,
    HostSecrets,
    M,
    N,
    Schedule,
    decode_point,
    encode_point,
    fingerprint,
    matches,
    password_scalar,
    share,
    short_fingerprint,
    transcript,
    unmasked,
)


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: f"A={v['A']!r},B={v['B']!r}")
def test_the_rfc_9382_vectors(vector: dict[str, str]) -> None:
    w, x, y = (int(vector[name], 16) for name in "wxy")
    pa, pb = encode_point(share(x, w, M)), encode_point(share(y, w, N))
    assert (pa.hex(), pb.hex()) == (vector["pA"], vector["pB"])
    k = encode_point(unmasked(pb, w, N) * x)
    assert k == encode_point(unmasked(pa, w, M) * y) and k.hex() == vector["K"]
    schedule = Schedule.of(transcript(vector["A"].encode(), vector["B"].encode(), pa, pb, k, w))
    assert {name: getattr(schedule, name.lower()).hex()
            for name in ("Ke", "Ka", "KcA", "KcB", "cA", "cB")} == {
        name: vector[name] for name in ("Ke", "Ka", "KcA", "KcB", "cA", "cB")}


def test_the_constants_are_the_rfcs() -> None:
    assert (G * ORDER).is_point_at_infinity()
    assert encode_point(M).hex().startswith("04886e2f97ace46e55ba9dd7242579f2993b64e16ef3dcab")


@pytest.mark.parametrize("bad", degenerate())
def test_degenerate_points_are_refused_as_shares_and_keys(bad: bytes) -> None:
    with pytest.raises(ProtocolError):
        decode_point(bad)
    key = HostKey.generate()
    with pytest.raises(ProtocolError):
        HostHandshake(HostSecrets(key, "1234"), bad, b"id")
    client = ClientHandshake("1234", b"id")
    host = HostHandshake(HostSecrets(key, "1234"), client.share, b"id")
    with pytest.raises(ProtocolError):
        client.answer(bad, host.share)
    with pytest.raises(ProtocolError):
        client.answer(host.public, bad)


def test_a_share_that_is_the_mask_itself_is_refused() -> None:
    """pA = w·M leaves the identity once unmasked: nothing secret would be left."""
    w = password_scalar("1234", PIN)
    with pytest.raises(ProtocolError):
        HostHandshake(HostSecrets(HostKey.generate(), "1234"), encode_point(M * w), b"id")


def handshake(client_password: str, host_password: str, *, client_context: bytes = PIN,
              host_context: bytes = PIN, client_id: bytes = b"id", host_id: bytes = b"id"
              ) -> tuple[ClientHandshake, HostHandshake, bytes]:
    client = ClientHandshake(client_password, client_id, client_context)
    host = HostHandshake(HostSecrets(HostKey.generate(), host_password, host_context),
                         client.share, host_id)
    return client, host, client.answer(host.public, host.share)


def test_the_right_password_gives_both_sides_the_same_keys_and_proofs() -> None:
    client, host, proof = handshake("1234", "1234")
    assert host.pin_proved(proof) and client.host_proved(host.proof)
    assert client.keys == host.keys and client.keys is not None
    assert client.keys.client_to_host != client.keys.host_to_client


@pytest.mark.parametrize("change", [
    {"host_password": "1235"},                              # a wrong PIN
    {"host_context": SEAT},                                 # a PIN is no seat's token
    {"host_id": b"another hello"},                          # a relay changed the hello
])
def test_the_key_binds_the_password_its_context_and_the_hello(change: dict) -> None:
    client, host, proof = handshake(**{"client_password": "1234", "host_password": "1234",
                                       **change})
    assert not host.pin_proved(proof) and not client.host_proved(host.proof)
    assert client.keys != host.keys


def test_a_host_without_the_keys_secret_cannot_confirm() -> None:
    """An impostor showing the real host's key (it is public) but holding another secret:
    even with the right PIN its confirm fails and its keys differ."""
    real, impostor = HostKey.generate(), HostKey.generate()
    client = ClientHandshake("1234", b"id")
    host = HostHandshake(HostSecrets(impostor, "1234"), client.share, b"id")
    proof = client.answer(real.public, host.share)
    assert not host.pin_proved(proof) and not client.host_proved(host.proof)


def test_the_fingerprint_people_read_has_64_bits_and_matches_in_short_or_full() -> None:
    full = fingerprint(HostKey.generate().public)
    short = short_fingerprint(full)
    assert len(short) == 19 and short.count("-") == 3
    assert matches(full, full) and matches(short, full) and matches(short.lower(), full)
    assert not matches(short, fingerprint(HostKey.generate().public))
    assert not matches(short[:9], full)  # 32 bits are not enough to match


def test_a_host_key_survives_its_file_and_an_old_one_is_refused() -> None:
    key = HostKey.generate()
    assert HostKey.from_hex(key.to_hex()) == key
    for text in ("1f" * 128, "p256:0", f"p256:{ORDER:x}", "p256:zz"):
        with pytest.raises(ValueError):
            HostKey.from_hex(text)
