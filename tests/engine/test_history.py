"""The hand history: writing, replaying, and rejecting bad histories by line number."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from president.actions import Decree
from president.bots import RandomBot
from president.cli.commands.selfplay import bot_seed, play_session
from president.engine import apply, end_session, legal_actions, new_session, to_act
from president.errors import HistoryError
from president.events import Event
from president.history import (
    FORMAT_VERSION,
    HistoryWriter,
    encode_line,
    history_lines,
    read_history_file,
    replay_history,
)
from president.rules import HouseRules, preset
from president.state import Phase, State
from president.view import view

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")


def recorded(
    rules: HouseRules, players: int = 5, seed: int = 3, hands: int = 4
) -> tuple[State, list[str]]:
    """A random-bot session of ``hands`` hands and its history lines."""
    rules = replace(rules, session_end="hands", session_length=hands)
    out = io.StringIO()
    writer = HistoryWriter(out, rules, "classic", NAMES[:players], seed)
    bots = [RandomBot(bot_seed(seed, seat)) for seat in range(players)]
    state = play_session(rules, NAMES[:players], seed, bots, writer.write)
    return state, out.getvalue().splitlines()


def types(lines: list[str]) -> list[str]:
    return [json.loads(line)["type"] for line in lines]


def first_index(lines: list[str], test: Callable[[dict], bool], start: int = 0) -> int:
    return next(i for i, line in enumerate(lines) if i >= start and test(json.loads(line)))


def rejected(lines: list[str], **kwargs: bool) -> HistoryError:
    with pytest.raises(HistoryError) as caught:
        replay_history(lines, **kwargs)
    return caught.value


# ---------------------------------------------------------------- writing and round trip


def test_round_trip_reproduces_the_session():
    live, lines = recorded(preset("classic"), hands=4)
    state, summaries = replay_history(lines)
    assert state.phase is Phase.SESSION_OVER
    assert (state.scores, state.winners, state.results) == (live.scores, live.winners,
                                                            live.results)
    assert [s.hand for s in summaries] == [1, 2, 3, 4]
    assert [s.order for s in summaries] == [r.order for r in live.results]
    assert [s.scores for s in summaries] == [r.scores for r in live.results]
    assert summaries[-1].roles == tuple(role.value for role in live.results[-1].roles)


def test_the_header_holds_version_rules_preset_players_and_seed():
    rules = preset("bga")
    live, lines = recorded(rules, hands=2)
    header = json.loads(lines[0])
    assert header["type"] == "session" and header["version"] == FORMAT_VERSION
    assert header["preset"] == "classic"  # as given to the writer
    assert HouseRules.from_dict(header["rules"]) == live.rules
    assert header["players"] == [{"name": n, "seat": s} for s, n in enumerate(NAMES)]
    assert header["seed"] == 3


def test_lines_are_canonical_type_first_then_sorted_keys():
    line = encode_line({"type": "play", "seat": 2, "hand": 1, "cards": "3C"})
    assert line == '{"type":"play","cards":"3C","hand":1,"seat":2}'
    assert encode_line({"type": "x", "b": {"z": 1, "a": "Zoë"}}) == (
        '{"type":"x","b":{"a":"Zoë","z":1}}'
    )


def test_the_tax_is_written_both_ways_and_lead_and_ready_are_not():
    _, lines = recorded(preset("classic"), hands=2)
    kinds = types(lines)
    assert "lead" not in kinds and "ready" not in kinds
    assert kinds[0] == "session" and kinds[1] == "deal" and kinds[-1] == "session_end"
    second = first_index(lines, lambda d: d["type"] == "deal" and d["hand"] == 2)
    tax = [json.loads(line) for line in lines[second + 1:second + 5]]
    assert [t["type"] for t in tax] == ["tax"] * 4  # 5 players, tax 2-1: 2 gifts, 2 returns
    gifts, returns = tax[:2], tax[2:]
    assert {(g["from"], g["to"]) for g in gifts} == {(r["to"], r["from"]) for r in returns}
    assert sorted(len(g["cards"].split()) for g in gifts) == [1, 2]


def test_history_lines_equals_the_writer():
    rules = replace(preset("classic"), session_length=2)
    state, events = new_session(rules, NAMES[:4], 9)
    everything: list[Event] = list(events)
    out = io.StringIO()
    writer = HistoryWriter(out, rules, "classic", NAMES[:4], 9)
    writer.write(events)
    bots = [RandomBot(seat) for seat in range(4)]
    while state.phase is not Phase.SESSION_OVER:
        seat = to_act(state)
        assert seat is not None
        state, events = apply(state, bots[seat].choose(view(state, seat)))
        writer.write(events)
        everything.extend(events)
    written = out.getvalue()
    assert written.endswith("\n")
    assert list(history_lines(rules, "classic", NAMES[:4], 9, everything)) == written.split(
        "\n")[:-1]


def test_decrees_are_written_and_replayed():
    rules = replace(preset("classic"), decree=True, session_length=3)
    state, events = new_session(rules, NAMES[:4], 5)
    out = io.StringIO()
    writer = HistoryWriter(out, rules, "classic", NAMES[:4], 5)
    writer.write(events)
    bots = [RandomBot(seat) for seat in range(4)]
    decrees = 0
    while state.phase is not Phase.SESSION_OVER:
        for seat in state.seats:  # the President decrees as soon as allowed
            if Decree(seat, "") in legal_actions(state, seat):
                state, events = apply(state, Decree(seat, f"Żółw rule {decrees}"))
                writer.write(events)
                decrees += 1
        seat = to_act(state)
        assert seat is not None
        state, events = apply(state, bots[seat].choose(view(state, seat)))
        writer.write(events)
    lines = out.getvalue().splitlines()
    assert types(lines).count("decree") == decrees == 2
    replayed, _ = replay_history(lines)
    assert replayed.scores == state.scores and replayed.decree == state.decree
    # A decree line from a seat that is not the President is an illegal move.
    index = first_index(lines, lambda d: d["type"] == "decree")
    data = json.loads(lines[index])
    lines[index] = encode_line({**data, "seat": (data["seat"] + 1) % 4})
    error = rejected(lines)
    assert (error.code, error.params["line"], error.params["reason"]) == (
        "illegal", index + 1, "not_president")


def test_a_session_the_host_ends_replays():
    rules = replace(preset("classic"), session_end="open")
    state, events = new_session(rules, NAMES[:3], 2)
    everything = list(events)
    bots = [RandomBot(seat) for seat in range(3)]
    while state.hand_number < 2 or state.phase is not Phase.HAND_OVER:
        seat = to_act(state)
        assert seat is not None
        state, events = apply(state, bots[seat].choose(view(state, seat)))
        everything.extend(events)
    state, events = end_session(state)
    everything.extend(events)
    lines = list(history_lines(rules, "classic", NAMES[:3], 2, everything))
    replayed, summaries = replay_history(lines)
    assert replayed.phase is Phase.SESSION_OVER and len(summaries) == 2
    assert replayed.winners == state.winners


def test_files_are_read_as_utf8_lines_split_only_on_newlines(tmp_path: Path):
    names = ("Zoë\u2028", "Łucja", "Bob")  # U+2028 must not split a line
    rules = replace(preset("classic"), session_length=1)
    state, events = new_session(rules, names, 4)
    bots = [RandomBot(seat) for seat in range(3)]
    everything = list(events)
    while state.phase is not Phase.SESSION_OVER:
        seat = to_act(state)
        assert seat is not None
        state, events = apply(state, bots[seat].choose(view(state, seat)))
        everything.extend(events)
    path = tmp_path / "h.jsonl"
    path.write_bytes(
        ("\n".join(history_lines(rules, "classic", names, 4, everything)) + "\n").encode()
    )
    replayed, _ = replay_history(read_history_file(path))
    assert replayed.players == names
    path.write_bytes(path.read_bytes().replace("Łucja".encode(), b"\xc5\x81\xff", 1))
    with pytest.raises(HistoryError) as caught:
        read_history_file(path)
    assert (caught.value.code, caught.value.params["line"]) == ("bad_encoding", 1)


# ---------------------------------------------------------------- rejection


def test_a_play_altered_to_cards_not_in_hand_is_rejected_with_its_line():
    _, lines = recorded(preset("classic"), hands=2)
    deal = json.loads(lines[1])
    index = first_index(lines, lambda d: d["type"] == "play")
    play = json.loads(lines[index])
    other = (play["seat"] + 1) % 5
    lines[index] = encode_line({**play, "cards": deal["hands"][other].split()[0]})
    error = rejected(lines)
    assert error.code == "illegal"
    assert error.params["line"] == index + 1
    assert error.params["reason"] == "not_in_hand"


def test_a_play_out_of_turn_is_rejected_with_the_engine_reason():
    _, lines = recorded(preset("classic"), hands=2)
    index = first_index(lines, lambda d: d["type"] == "play", start=5)
    play = json.loads(lines[index])
    lines[index] = encode_line({**play, "seat": (play["seat"] + 1) % 5})
    error = rejected(lines)
    assert (error.code, error.params["line"]) == ("illegal", index + 1)
    assert error.params["reason"] in ("not_your_turn", "already_out")


def test_a_pass_on_an_empty_pile_is_illegal():
    _, lines = recorded(preset("classic"), hands=1)
    index = first_index(lines, lambda d: d["type"] == "play")  # the hand's first lead
    play = json.loads(lines[index])
    lines[index] = encode_line({"type": "pass", "hand": play["hand"], "seat": play["seat"]})
    error = rejected(lines)
    assert (error.code, error.params["line"], error.params["reason"]) == (
        "illegal", index + 1, "must_lead")


def test_a_tax_return_by_the_giver_is_illegal():
    _, lines = recorded(preset("classic"), hands=2)
    second = first_index(lines, lambda d: d["type"] == "deal" and d["hand"] == 2)
    index = second + 3  # the first return (after the two gifts)
    back = json.loads(lines[index])
    lines[index] = encode_line({**back, "from": back["to"], "to": back["from"]})
    error = rejected(lines)
    assert (error.code, error.params["line"], error.params["reason"]) == (
        "illegal", index + 1, "no_tax_due")


def test_an_altered_derived_line_is_a_mismatch():
    _, lines = recorded(preset("classic"), hands=2)
    index = first_index(lines, lambda d: d["type"] == "clear")
    clear = json.loads(lines[index])
    lines[index] = encode_line({**clear, "leader": (clear["leader"] + 1) % 5})
    error = rejected(lines)
    assert (error.code, error.params["line"]) == ("mismatch", index + 1)
    deal = json.loads(lines[1])
    hands = deal["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    lines[1] = encode_line(deal)
    assert rejected(lines).params["line"] == 2


def test_reformatted_lines_do_not_replay():
    _, lines = recorded(preset("classic"), hands=1)
    lines[2] = json.dumps(json.loads(lines[2]))  # same data, other spacing
    error = rejected(lines)
    assert (error.code, error.params["line"]) == ("mismatch", 3)


@pytest.mark.parametrize("damage", ["cut", "garbage", "empty", "array"])
def test_an_unreadable_line_is_rejected_with_its_number(damage: str):
    _, lines = recorded(preset("classic"), hands=2)
    index = len(lines) // 2
    lines[index] = {
        "cut": lines[index][: len(lines[index]) // 2],
        "garbage": "not json at all",
        "empty": "",
        "array": "[1, 2]",
    }[damage]
    error = rejected(lines)
    assert error.code == ("no_type" if damage == "array" else "bad_json")
    assert error.params["line"] == index + 1


def test_an_unknown_type_is_rejected():
    _, lines = recorded(preset("classic"), hands=1)
    lines[4] = encode_line({"type": "lead", "hand": 1, "seat": 0})
    error = rejected(lines)
    assert (error.code, error.params["line"], error.params["type"]) == (
        "unknown_type", 5, "lead")


def test_a_truncated_file_is_incomplete():
    _, lines = recorded(preset("classic"), hands=2)
    error = rejected(lines[:-3])
    assert (error.code, error.params["line"]) == ("incomplete", len(lines) - 2)
    # Cut after a pass that leaves the trick open: nothing is owed by the engine.
    kinds = types(lines)
    after = next(
        i for i, kind in enumerate(kinds) if kind == "pass" and kinds[i + 1] in ("play", "pass")
    )
    state, _ = replay_history(lines[: after + 1], complete=False)
    assert state.phase is Phase.PLAY
    assert rejected(lines[: after + 1]).code == "incomplete"


def test_lines_after_the_end_are_rejected():
    _, lines = recorded(preset("classic"), hands=1)
    lines.append(encode_line({"type": "pass", "hand": 1, "seat": 0}))
    error = rejected(lines)
    assert (error.code, error.params["line"]) == ("after_session_end", len(lines))


def test_a_derived_line_where_an_action_is_due_is_unexpected():
    _, lines = recorded(preset("classic"), hands=1)
    index = first_index(lines, lambda d: d["type"] == "play")
    lines.insert(index, encode_line({"type": "clear", "hand": 1, "leader": 0}))
    error = rejected(lines)
    assert (error.code, error.params["line"]) == ("unexpected_line", index + 1)


def test_bad_headers_are_rejected_on_line_one():
    _, lines = recorded(preset("classic"), hands=1)
    assert rejected(lines[1:]).code == "missing_session"
    assert rejected([]).code == "empty"
    header = json.loads(lines[0])
    for change, code in [
        ({"version": 99}, "unsupported_version"),
        ({"seed": "1"}, "bad_session"),
        ({"players": [{"seat": 1, "name": "A"}]}, "bad_session"),
        ({"rules": {**header["rules"], "jokers": 7}}, "bad_rules"),
        ({"rules": {**header["rules"], "colour": "red"}}, "bad_rules"),
        ({"players": header["players"][:2]}, "bad_rules"),  # too few players
    ]:
        error = rejected([encode_line({**header, **change}), *lines[1:]])
        assert (error.code, error.params["line"]) == (code, 1), change


def test_a_bad_action_line_is_rejected():
    _, lines = recorded(preset("classic"), hands=1)
    index = first_index(lines, lambda d: d["type"] == "play")
    play = json.loads(lines[index])
    for change in ({"cards": "1Z"}, {"cards": 3}, {"seat": "0"}):
        bad = [*lines[:index], encode_line({**play, **change}), *lines[index + 1:]]
        error = rejected(bad)
        assert (error.code, error.params["line"]) == ("bad_action", index + 1), change


def test_readiness_is_implied_by_the_next_deal():
    live, lines = recorded(preset("classic"), hands=2)
    state, _ = replay_history(lines)
    assert state.hand_number == 2 and state.scores == live.scores
    # A play where the next deal is due: the engine deals first, so it is a mismatch.
    hand_end = first_index(lines, lambda d: d["type"] == "hand_end")
    lines.insert(hand_end + 1, encode_line({"type": "pass", "hand": 1, "seat": 0}))
    error = rejected(lines)
    assert (error.code, error.params["line"]) == ("mismatch", hand_end + 2)
    assert json.loads(error.params["expected"])["type"] == "deal"
