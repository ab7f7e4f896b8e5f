"""The sealed channel's records (net/channel.py): what one side seals the other opens, in
order, once; a record changed, cut, replayed, reordered or of another key is refused
and the opener stays dead."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from president.errors import ProtocolError
from president.net.channel import CLIENT_RECORD, HOST_RECORD, TAG, Opener, Sealer

KEY = bytes(range(32))


@given(st.lists(st.binary(min_size=1, max_size=3000), min_size=1, max_size=8),
       st.integers(min_value=1, max_value=50))
def test_what_is_sealed_opens_whatever_the_pieces(chunks: list[bytes], cut: int) -> None:
    sealer, opener = Sealer(KEY, 1000), Opener(KEY, 1000)
    stream = b"".join(sealer.seal(chunk) for chunk in chunks)
    opened = b"".join(opener.open(stream[i:i + cut]) for i in range(0, len(stream), cut))
    assert opened == b"".join(chunks)


def records(count: int = 3) -> list[bytes]:
    sealer = Sealer(KEY, CLIENT_RECORD)
    return [sealer.seal(f"frame {n}".encode()) for n in range(count)]


def flipped(record: bytes, at: int) -> bytes:
    return record[:at] + bytes([record[at] ^ 1]) + record[at + 1:]


@pytest.mark.parametrize("attack", ["replay", "reorder", "flip_body", "flip_header",
                                    "truncate", "other_key", "oversize"])
def test_a_record_tampered_with_kills_the_opener(attack: str) -> None:
    one, two, three = records()
    stream = {
        "replay": one + one,
        "reorder": two + one,
        "flip_body": flipped(one, 10),
        "flip_header": flipped(one, 3),   # the length, bound as associated data
        "truncate": (len(one) - 5).to_bytes(4, "big") + one[4:-1],  # its last byte cut
        "other_key": Sealer(os.urandom(32), CLIENT_RECORD).seal(b"frame 0"),
        "oversize": (HOST_RECORD + TAG + 1).to_bytes(4, "big"),
    }[attack]
    opener = Opener(KEY, CLIENT_RECORD if attack != "oversize" else HOST_RECORD)
    with pytest.raises(ProtocolError) as refused:
        opener.open(stream)
    assert refused.value.code == "bad_record"
    with pytest.raises(ProtocolError):  # dead for good, even for a good record
        opener.open(three)


def test_a_long_write_is_cut_into_records_the_reader_accepts() -> None:
    data = os.urandom(3 * CLIENT_RECORD + 5)
    sealed = Sealer(KEY, CLIENT_RECORD).seal(data)
    assert Opener(KEY, CLIENT_RECORD).open(sealed) == data
