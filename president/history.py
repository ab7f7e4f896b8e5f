"""The hand history: a session as JSON Lines (``rules-docs/hand-history.md``).

Writing: a ``session`` header, then one line per engine event, ``{"type": code,
**params}``. ``lead`` and ``ready`` events are not written (both are implied);
``decree`` events are (their text cannot be re-derived).

Reading: ``replay_history`` re-creates the session from the header and drives
the engine with the actions the lines imply, checking that every regenerated
line equals the file's line byte for byte.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from president.actions import Action, Ready, action_from_dict
from president.engine import apply, end_session, new_session
from president.errors import HistoryError, IllegalAction, NotationError, RulesError
from president.events import Event
from president.rules import HouseRules
from president.state import Phase, State

FORMAT_VERSION = 1

# Events that are not written: ``lead`` follows from the rules and the deal,
# ``ready`` is implied by the next ``deal``.
UNWRITTEN = frozenset({"lead", "ready"})
LINE_TYPES = (
    "session", "deal", "tax", "play", "pass", "skip", "revolution", "clear", "out",
    "hand_end", "session_end", "decree", "cut", "back", "reverse", "forbidden", "downfall",
    "lock",
    "give", "discard", "return",
)
# Lines that stand for a player's action (a ``tax`` line only when it is a return).
ACTION_TYPES = {"play": "play", "pass": "pass", "tax": "give_back", "decree": "decree",
                "give": "give", "discard": "discard"}


# ---------------------------------------------------------------- writing


def encode_line(data: dict[str, Any]) -> str:
    """One line: ``type`` first, then the other keys sorted (nested keys sorted too),
    compact separators, UTF-8 text kept as is. Same data, same bytes."""
    rest = {key: value for key, value in data.items() if key != "type"}
    head = '{"type":' + json.dumps(data["type"], ensure_ascii=False)
    if not rest:
        return head + "}"
    body = json.dumps(rest, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return head + "," + body[1:]


def session_line(rules: HouseRules, preset: str, players: Sequence[str], seed: int) -> str:
    return encode_line({
        "type": "session", "version": FORMAT_VERSION, "preset": preset,
        "rules": rules.to_dict(),
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(players)],
        "seed": seed,
    })


def event_line(event: Event) -> str | None:
    """The history line of an event, or None for an event that is not written."""
    if event.code in UNWRITTEN:
        return None
    return encode_line(event.to_dict())


def history_lines(
    rules: HouseRules, preset: str, players: Sequence[str], seed: int, events: Iterable[Event]
) -> Iterator[str]:
    """Every line of a history (without newlines)."""
    yield session_line(rules, preset, players, seed)
    for event in events:
        line = event_line(event)
        if line is not None:
            yield line


class HistoryWriter:
    """Writes a history to a text stream as the session goes: the header at once,
    then ``write(events)`` after each ``new_session``/``apply``/``end_session``."""

    def __init__(
        self, out: TextIO, rules: HouseRules, preset: str, players: Sequence[str], seed: int
    ) -> None:
        self.out = out
        out.write(session_line(rules, preset, players, seed) + "\n")

    def write(self, events: Iterable[Event]) -> None:
        for event in events:
            line = event_line(event)
            if line is not None:
                self.out.write(line + "\n")


# ---------------------------------------------------------------- reading


@dataclass(frozen=True, slots=True)
class HandSummary:
    hand: int
    order: tuple[int, ...]  # finishing order, seats
    roles: tuple[str, ...]  # by seat
    scores: tuple[int, ...]  # totals after the hand, by seat


@dataclass(frozen=True, slots=True)
class SessionHeader:
    version: int
    preset: str
    rules: HouseRules
    players: tuple[str, ...]
    seed: int


def read_history_file(path: str | Path) -> list[str]:
    """The lines of a history file (UTF-8, ``\\n``-separated; a final newline is optional)."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise HistoryError("unreadable_file", path=str(path), detail=error.strerror) from None
    chunks = data.split(b"\n")
    if chunks and chunks[-1] == b"":
        chunks.pop()
    lines = []
    for number, chunk in enumerate(chunks, 1):
        try:
            lines.append(chunk.decode("utf-8"))
        except UnicodeDecodeError:
            raise HistoryError("bad_encoding", line=number) from None
    return lines


def parse_line(text: str, number: int) -> dict[str, Any]:
    """A line as a dict with a known ``type``; HistoryError otherwise."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise HistoryError("bad_json", line=number) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise HistoryError("no_type", line=number)
    if data["type"] not in LINE_TYPES:
        raise HistoryError("unknown_type", line=number, type=data["type"])
    return data


def parse_header(text: str, number: int = 1) -> SessionHeader:
    data = parse_line(text, number)
    if data["type"] != "session":
        raise HistoryError("missing_session", line=number, type=data["type"])
    version, preset_name = data.get("version"), data.get("preset")
    rules, players, seed = data.get("rules"), data.get("players"), data.get("seed")
    if type(version) is not int:
        raise HistoryError("bad_session", line=number, field="version")
    if version != FORMAT_VERSION:
        raise HistoryError("unsupported_version", line=number, version=version,
                           allowed=[FORMAT_VERSION])
    if not isinstance(preset_name, str):
        raise HistoryError("bad_session", line=number, field="preset")
    if not isinstance(rules, dict):
        raise HistoryError("bad_session", line=number, field="rules")
    if type(seed) is not int:
        raise HistoryError("bad_session", line=number, field="seed")
    if not isinstance(players, list) or not all(
        isinstance(p, dict) and p.get("seat") == seat and type(p.get("seat")) is int
        and isinstance(p.get("name"), str)
        for seat, p in enumerate(players)
    ):
        raise HistoryError("bad_session", line=number, field="players")
    try:
        house_rules = HouseRules.from_dict(rules)
    except RulesError as error:
        raise HistoryError("bad_rules", line=number, reason=error.code, **error.params) from None
    except TypeError:
        raise HistoryError("bad_session", line=number, field="rules") from None
    names = tuple(p["name"] for p in players)
    header = SessionHeader(version, preset_name, house_rules, names, seed)
    if session_line(house_rules, preset_name, names, seed) != text:
        raise HistoryError("mismatch", line=number, expected=session_line(
            house_rules, preset_name, names, seed))
    return header


def replay_history(
    lines: Iterable[str], *, complete: bool = True
) -> tuple[State, list[HandSummary]]:
    """Replay a history through the engine; the final state and each hand's result.

    Raises ``HistoryError`` (with ``line``, 1-based) for unreadable JSON, an
    unknown type, an illegal move (``reason`` = the engine's code), or any line
    that differs from what the engine regenerates. With ``complete`` the history
    must end with ``session_end``.
    """
    numbered = enumerate((line.removesuffix("\r") for line in lines), 1)
    first = next(numbered, None)
    if first is None:
        raise HistoryError("empty", line=1)
    header = parse_header(first[1], first[0])
    try:
        state, events = new_session(header.rules, header.players, header.seed)
    except RulesError as error:
        raise HistoryError("bad_rules", line=1, reason=error.code, **error.params) from None
    pending: deque[str] = deque()
    summaries: list[HandSummary] = []

    def regenerate(new_events: list[Event]) -> None:
        for event in new_events:
            line = event_line(event)
            if line is not None:
                pending.append(line)
            if event.code == "hand_end":
                p = event.params
                summaries.append(HandSummary(
                    p["hand"], tuple(p["order"]), tuple(p["roles"]), tuple(p["scores"])
                ))

    regenerate(events)
    last = 1
    for number, text in numbered:
        last = number
        data = parse_line(text, number)
        if not pending and state.phase is Phase.HAND_OVER and data["type"] != "decree":
            if data["type"] == "session_end":
                state, events = end_session(state)
            else:
                state, events = _all_ready(state)
            regenerate(events)
        if not pending:
            state, events = _apply_line(state, data, number)
            regenerate(events)
        expected = pending.popleft() if pending else None
        if expected != text:
            raise HistoryError("mismatch", line=number, expected=expected)
    if pending:
        raise HistoryError("incomplete", line=last + 1, expected=pending[0])
    if complete and state.phase is not Phase.SESSION_OVER:
        raise HistoryError("incomplete", line=last + 1, expected="session_end")
    return state, summaries


def _all_ready(state: State) -> tuple[State, list[Event]]:
    """Between hands, every seat says it is ready (implied by the next ``deal``)."""
    events: list[Event] = []
    for seat in state.seats:
        if seat not in state.ready and state.phase is Phase.HAND_OVER:
            state, more = apply(state, Ready(seat))
            events.extend(more)
    return state, events


def _apply_line(state: State, data: dict[str, Any], number: int) -> tuple[State, list[Event]]:
    if state.phase is Phase.SESSION_OVER:
        raise HistoryError("after_session_end", line=number, type=data["type"])
    kind = ACTION_TYPES.get(data["type"])
    if kind is None:
        raise HistoryError("unexpected_line", line=number, type=data["type"])
    action = _action(data, kind, number)
    try:
        return apply(state, action)
    except IllegalAction as error:
        raise HistoryError(
            "illegal", line=number, reason=error.code, seat=action.seat, phase=state.phase.value
        ) from None


def _action(data: dict[str, Any], kind: str, number: int) -> Action:
    fields = dict(data, type=kind)
    if kind in ("give_back", "give"):
        fields["seat"] = data.get("from")
    try:
        return action_from_dict(fields)
    except (KeyError, TypeError, AttributeError, NotationError):
        raise HistoryError("bad_action", line=number, type=data["type"]) from None
