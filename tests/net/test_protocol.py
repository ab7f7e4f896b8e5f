"""The sans-I/O protocol: frames and messages, no sockets."""

from __future__ import annotations

import struct

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from president.errors import LocalProtocolError, ProtocolError
from president.net.protocol import (
    CLIENT,
    HOST,
    MAX_CLIENT_FRAME,
    PROTOCOL_VERSION,
    SCHEMAS,
    AgainRequest,
    Decoder,
    TableUpdate,
    encode,
    pack,
    parse,
)
from president.rules import HouseRules

TOKEN = "0123456789abcdef0123456789abcdef"
INFO = {
    "id": "main", "name": "Kitchen", "preset": "classic", "rules": HouseRules().to_dict(),
    "seats": 4, "players": ["Ada", None, "Bot 1", "Bot 2"], "bots": [False, False, True, True],
    "connected": [True, False, False, False], "started": False, "over": False, "pin": True,
    "spectators": 0, "proto": PROTOCOL_VERSION, "turn_timer": 0,
    "states": ["playing", "free", "bot", "bot"], "standin_hands": [0, 0, 0, 0],
    "seat_requests": [], "late_askers": [], "again": False, "hints": True,
}

SHARE = bytes(range(65))
MAC = bytes(32)
SAMPLES: dict[str, list[dict]] = {
    CLIENT: [
        {"type": "hello", "version": PROTOCOL_VERSION, "name": "Ada", "language": "it",
         "share": SHARE, "seat_hint": None, "spectate": False, "table": None,
         "knock": False},
        {"type": "hello", "version": PROTOCOL_VERSION, "name": "Zoë Ł", "language": "pl_PL",
         "share": SHARE, "seat_hint": "0123456789abcdef", "spectate": True, "table": "main",
         "knock": False},
        {"type": "proof", "proof": MAC},
        {"type": "play", "id": 1, "cards": "7C 7D", "declared": ""},
        {"type": "play", "id": 1, "cards": "7C 7D JK", "declared": "7H"},
        {"type": "pass", "id": 2},
        {"type": "give_back", "id": 3, "cards": "3C 4D"},
        {"type": "give", "id": 4, "cards": "3C 4D"},
        {"type": "discard", "id": 5, "cards": "9H"},
        {"type": "ready", "id": 4},
        {"type": "decree", "id": 5, "text": "Everyone stands up"},
        {"type": "start", "id": 6},
        {"type": "end_session", "id": 7},
        {"type": "play_again", "id": 10},
        {"type": "play_duplicate", "id": 10},
        {"type": "seat_answer", "id": 8, "seat": 2, "give": True},
        {"type": "rules", "id": 9, "preset": "bga", "rules": HouseRules().to_dict()},
        {"type": "chat", "text": "ciao!"},
        {"type": "hint_request", "id": 11},
        {"type": "snapshot_request"},
        {"type": "leave"},
        {"type": "ping", "nonce": 7},
        {"type": "pong", "nonce": 2**32 - 1},
    ],
    HOST: [
        {"type": "challenge", "key": SHARE, "share": SHARE},
        {"type": "confirm", "proof": MAC},
        {"type": "welcome", "version": PROTOCOL_VERSION, "seat": 1, "token": TOKEN,
         "table": INFO},
        {"type": "welcome", "version": PROTOCOL_VERSION, "seat": None, "token": None,
         "table": INFO},
        {"type": "refused", "id": 3, "code": "too_low", "params": {"phase": "play"}},
        {"type": "refused", "id": None, "code": "wrong_pin", "params": {}},
        {"type": "accepted", "id": 3},
        {"type": "hint", "id": 11, "hints": [
            {"action": {"type": "play", "seat": 0, "cards": "5C 5D"}, "reason": "lead_low",
             "params": {"keep": "2C 2H"}},
            {"action": {"type": "pass", "seat": 0}, "reason": "pass_keep", "params": {}}]},
        {"type": "state", "seq": 1, "view": {"seat": 0, "hand": "3C 4D", "legal": []}},
        {"type": "view_delta", "seq": 4, "view": {"hand": "4D", "turn": 2}},
        {"type": "event", "seq": 2, "event": {"type": "play", "seat": 1, "cards": "5H"},
         "by": ""},
        {"type": "event", "seq": 3, "event": {"type": "pass", "seat": 2}, "by": "standin"},
        {"type": "table", "table": INFO},
        {"type": "chat", "seat": None, "name": "Eve", "text": "hi"},
        {"type": "ping", "nonce": 0},
        {"type": "pong", "nonce": 1},
        {"type": "bye", "code": "session_over", "params": {}},
    ],
}


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def packed(obj: object) -> bytes:
    return frame(msgpack.packb(obj, use_bin_type=True))


def test_every_message_is_a_typed_message_and_back() -> None:
    for sender in (CLIENT, HOST):
        for sample in SAMPLES[sender]:
            msg = parse(sample, sender)
            assert type(msg).TYPE == sample["type"] and msg.to_wire() == sample
            assert encode(msg) == pack(sample, sender)
            assert Decoder(sender).feed(encode(msg)) == [msg]


def test_play_again_is_the_owners_request_and_the_table_says_when_it_waits() -> None:
    assert parse({"type": "play_again", "id": 12}, CLIENT) == AgainRequest(id=12)
    for sender, bad, code in [
            (HOST, {"type": "play_again", "id": 1}, "unknown_type"),      # only a client's
            (CLIENT, {"type": "play_again", "id": -1}, "bad_field"),
            (CLIENT, {"type": "play_again", "id": 1, "seat": 0}, "unknown_field"),
            (HOST, {"type": "table", "table": {**INFO, "again": "yes"}}, "bad_field")]:
        with pytest.raises(ProtocolError) as caught:
            Decoder(sender).feed(packed(bad))
        assert caught.value.code == code, bad
    waiting = parse({"type": "table", "table": {**INFO, "again": True}}, HOST)
    assert isinstance(waiting, TableUpdate) and waiting.table.again
    without = {key: value for key, value in INFO.items() if key != "again"}
    with pytest.raises(ProtocolError):          # an older host's table: another version
        parse({"type": "table", "table": without}, HOST)


def test_a_play_carries_what_its_wild_jokers_stand_for() -> None:
    from president.actions import Play
    from president.cards import parse_cards
    from president.net.protocol import PlayRequest, action_request

    play = Play(2, parse_cards("7C 7D JK"), parse_cards("7H"))
    request = action_request(play, 5)
    assert request == PlayRequest(id=5, cards="7C 7D JK", declared="7H")
    assert request.action(2) == play
    plain = action_request(Play(2, parse_cards("7C")), 6)
    assert plain.to_wire()["declared"] == "" and plain.action(2) == Play(2, parse_cards("7C"))
    with pytest.raises(ProtocolError):
        parse({"type": "play", "id": 1, "cards": "7C JK", "declared": 7}, CLIENT)


def test_a_table_with_rules_that_are_no_rules_is_refused() -> None:
    bad = {"type": "table", "table": {**INFO, "rules": {"tax": "all"}}}
    with pytest.raises(ProtocolError) as caught:
        Decoder(HOST).feed(packed(bad))
    assert caught.value.code == "bad_field"


def test_every_message_type_has_a_sample():
    for sender, schemas in SCHEMAS.items():
        assert {m["type"] for m in SAMPLES[sender]} == set(schemas)


@pytest.mark.parametrize("sender", [CLIENT, HOST])
def test_round_trip_of_every_message(sender):
    for msg in SAMPLES[sender]:
        assert Decoder(sender).feed_maps(pack(msg, sender)) == [msg]


@pytest.mark.parametrize("sender", [CLIENT, HOST])
def test_stream_fed_byte_by_byte_and_all_at_once(sender):
    stream = b"".join(pack(m, sender) for m in SAMPLES[sender])
    decoder = Decoder(sender)
    got = []
    for i in range(len(stream)):
        got.extend(decoder.feed_maps(stream[i:i + 1]))
    assert got == SAMPLES[sender]
    assert Decoder(sender).feed_maps(stream) == SAMPLES[sender]
    assert decoder.buffered == 0


def test_truncated_frame_needs_more():
    data = pack(SAMPLES[CLIENT][2], CLIENT)
    decoder = Decoder(CLIENT)
    assert decoder.feed_maps(data[:2]) == []
    assert decoder.feed_maps(data[2:-1]) == []
    assert decoder.feed_maps(data[-1:]) == [SAMPLES[CLIENT][2]]


def test_oversized_frame_refused_from_the_header_alone():
    decoder = Decoder(CLIENT)
    with pytest.raises(ProtocolError) as caught:
        decoder.feed_maps(struct.pack(">I", MAX_CLIENT_FRAME + 1))  # no body sent at all
    assert caught.value.code == "frame_too_large"
    assert decoder.buffered == 0
    with pytest.raises(ProtocolError):  # the decoder stays dead
        decoder.feed_maps(pack(SAMPLES[CLIENT][3], CLIENT))


def test_huge_length_prefix_refused():
    with pytest.raises(ProtocolError) as caught:
        Decoder(HOST).feed_maps(b"\xff\xff\xff\xff")
    assert caught.value.code == "frame_too_large"


def test_empty_frame_refused():
    with pytest.raises(ProtocolError) as caught:
        Decoder(CLIENT).feed_maps(b"\0\0\0\0")
    assert caught.value.code == "empty_frame"


@pytest.mark.parametrize("body", [
    b"\xc1",                                    # never-used msgpack byte
    b"\x81\xa4type",                            # truncated map
    msgpack.packb({"type": "pass", "id": 1}) + b"\x00",   # trailing data
    msgpack.packb(msgpack.ExtType(5, b"xx")),   # ext types are refused
    msgpack.packb({"type": "chat", "text": msgpack.Timestamp(5)}),  # ... Timestamps too
    msgpack.packb({"type": "refused", "id": 1, "code": "x",       # ... anywhere
                   "params": {"when": [msgpack.Timestamp(1, 2)]}}),
    msgpack.packb({1: 2}),                      # non-string keys
])
def test_garbage_bodies(body):
    with pytest.raises(ProtocolError) as caught:
        Decoder(CLIENT).feed_maps(frame(body))
    with pytest.raises(ProtocolError):
        Decoder(HOST).feed_maps(frame(body))
    assert caught.value.code in ("bad_msgpack", "not_a_map")


@pytest.mark.parametrize("obj, code", [
    ([1, 2], "not_a_map"),
    ("pass", "not_a_map"),
    ({"id": 1}, "unknown_type"),
    ({"type": "steal_cards", "id": 1}, "unknown_type"),
    ({"type": "welcome"}, "unknown_type"),                      # a host message from a client
    ({"type": "pass"}, "missing_field"),
    ({"type": "pass", "id": 1, "seat": 2}, "unknown_field"),    # no acting for another seat
    ({"type": "pass", "id": "1"}, "bad_field"),
    ({"type": "pass", "id": True}, "bad_field"),
    ({"type": "pass", "id": -1}, "bad_field"),
    ({"type": "pass", "id": 2**31}, "bad_field"),
    ({"type": "pass", "id": 1.0}, "bad_field"),
    ({"type": "play", "id": 1, "cards": 7}, "bad_field"),
    ({"type": "play", "id": 1, "cards": "7C " * 100}, "bad_field"),
    ({"type": "chat", "text": ""}, "bad_field"),
    ({"type": "chat", "text": "x" * 301}, "bad_field"),
    ({"type": "chat", "text": "bell\x07"}, "bad_field"),
    ({"type": "ping", "nonce": 2**32}, "bad_field"),
])
def test_bad_client_messages(obj, code):
    with pytest.raises(ProtocolError) as caught:
        Decoder(CLIENT).feed_maps(packed(obj))
    assert caught.value.code == code


def hello(**changes):
    msg = dict(SAMPLES[CLIENT][0])
    msg.update(changes)
    return msg


@pytest.mark.parametrize("changes, code", [
    ({"name": ""}, "bad_field"),
    ({"name": " padded "}, "bad_field"),
    ({"name": "x" * 65}, "bad_field"),  # the frame bound (the host refuses > 24: limits)
    ({"name": "new\nline"}, "bad_field"),
    ({"language": "Italian!"}, "bad_field"),
    ({"seat_hint": "not-a-hint"}, "bad_field"),
    ({"seat_hint": TOKEN}, "bad_field"),
    ({"share": SHARE[:-1]}, "bad_field"),
    ({"share": SHARE.hex()}, "bad_field"),
    ({"pin": "1234"}, "unknown_field"),
    ({"spectate": 1}, "bad_field"),
    ({"version": PROTOCOL_VERSION + 1}, "bad_version"),
    ({"version": "1"}, "bad_version"),
    ({"version": 0}, "bad_version"),
])
def test_bad_hello(changes, code):
    with pytest.raises(ProtocolError) as caught:
        Decoder(CLIENT).feed_maps(packed(hello(**changes)))
    assert caught.value.code == code
    if code == "bad_version":
        assert caught.value.params["want"] == PROTOCOL_VERSION


def test_missing_version_is_a_version_error():
    msg = hello()
    del msg["version"]
    with pytest.raises(ProtocolError) as caught:
        Decoder(CLIENT).feed_maps(packed(msg))
    assert caught.value.code == "bad_version"


@pytest.mark.parametrize("obj", [
    {"type": "state", "seq": -1, "view": {}},
    {"type": "state", "seq": 1, "view": [1]},
    {"type": "event", "seq": 1, "event": {"seat": 1}},
    {"type": "welcome", "version": 1, "seat": 9, "token": None, "table": INFO},
    {"type": "welcome", "version": 1, "seat": 0, "token": None, "table": {**INFO, "x": 1}},
    {"type": "table", "table": {**INFO, "seats": "4"}},
    {"type": "bye", "code": "Not A Code", "params": {}},
])
def test_bad_host_messages(obj):
    with pytest.raises(ProtocolError):
        Decoder(HOST).feed_maps(packed(obj))


def test_encoding_an_invalid_message_is_our_bug():
    with pytest.raises(LocalProtocolError) as caught:
        pack({"type": "pass", "id": "x"}, CLIENT)
    assert caught.value.code == "bad_field"
    with pytest.raises(LocalProtocolError):
        pack({"type": "welcome"}, CLIENT)
    with pytest.raises(LocalProtocolError) as caught:
        pack({"type": "state", "seq": 1, "view": {"blob": "x" * 300_000}}, HOST)
    assert caught.value.code == "frame_too_large"


def test_valid_frames_after_bad_ones_are_not_read():
    decoder = Decoder(CLIENT)
    with pytest.raises(ProtocolError):
        decoder.feed_maps(packed({"type": "nope"}) + pack(SAMPLES[CLIENT][3], CLIENT))
    with pytest.raises(ProtocolError):
        decoder.feed_maps(b"")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_raise_only_protocol_errors(data):
    decoder = Decoder(CLIENT)
    try:
        for msg in decoder.feed_maps(data):
            assert msg["type"] in SCHEMAS[CLIENT]
    except ProtocolError:
        pass


json_like = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats()
    | st.text(max_size=20) | st.binary(max_size=10),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(SCHEMAS[CLIENT])), st.dictionaries(
    st.sampled_from(["id", "cards", "text", "nonce", "name", "version", "token", "seat"]),
    json_like, max_size=4))
def test_random_fields_are_validated_or_refused(kind, fields):
    decoder = Decoder(CLIENT)
    try:
        (msg,) = decoder.feed_maps(packed({"type": kind, **fields}))
    except ProtocolError:
        return
    # Accepted: then it really fits the schema.
    assert set(msg) == {"type", *SCHEMAS[CLIENT][kind]}
    for key, check in SCHEMAS[CLIENT][kind].items():
        assert check(msg[key])


@pytest.mark.parametrize("bad", [
    {"type": "table", "table": {**INFO, "states": ["asleep", "free", "bot", "bot"]}},
    {"type": "table", "table": {**INFO, "standin_hands": [-1, 0, 0, 0]}},
    {"type": "event", "seq": 2, "event": {"type": "pass", "seat": 1}, "by": "ghost"},
])
def test_seat_states_and_who_acted_are_from_their_lists(bad) -> None:
    with pytest.raises(ProtocolError) as caught:
        Decoder(HOST).feed(packed(bad))
    assert caught.value.code == "bad_field"


def test_a_hint_reply_holds_ideas_of_the_right_shape() -> None:
    good = {"action": {"type": "pass", "seat": 0}, "reason": "pass_only", "params": {}}
    for hints in ([good] * 6, [{**good, "reason": "Not A Code"}], [{**good, "extra": 1}],
                  [{**good, "params": {"keep": 5}}]):
        try:
            parse({"type": "hint", "id": 1, "hints": hints}, HOST)
        except ProtocolError as error:
            assert error.code == "bad_field"
        else:
            raise AssertionError(hints)
