"""rules-docs/hand-history.md describes every line the engine writes (issue 31): every
event code the engine can emit is a documented line type or a documented unwritten
event, and every field the engine puts on a line is named in that line's section."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

from president import engine
from president.events import EVENT_CODES, Event
from president.history import LINE_TYPES, UNWRITTEN
from president.rules import PRESETS, HouseRules

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "rules-docs" / "hand-history.md").read_text(encoding="utf-8")

# Fields the engine writes only in rare positions (a random session may hold none).
RARE_FIELDS = {("out", "holding"), ("out", "leader"), ("forbidden", "leader"),
               ("session_end", "early"), ("play", "declared")}


def sections() -> dict[str, str]:
    """Line type -> the text of its section (``### `type```)."""
    parts = re.split(r"^### `(\w+)`.*$", DOC, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1].split("\n## ")[0] for i in range(1, len(parts), 2)}


def emitted_in_source() -> set[str]:
    """The event codes written as literals in president/: ``Event("code", ...)``,
    ``trick.event("code", ...)`` and the clearing plays' ``trick.cut = "code"``."""
    pattern = re.compile(r'(?:\bEvent\(|\.event\(|\btrick\.cut = )\s*"(\w+)"')
    found: set[str] = set()
    for path in (ROOT / "president").rglob("*.py"):
        found.update(pattern.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_line_type_has_its_section_and_nothing_more() -> None:
    assert set(sections()) == set(LINE_TYPES)


def test_every_event_the_engine_can_emit_is_documented() -> None:
    emitted = emitted_in_source()
    assert emitted == set(EVENT_CODES), emitted ^ set(EVENT_CODES)
    assert set(EVENT_CODES) - UNWRITTEN == set(LINE_TYPES) - {"session"}
    unwritten = DOC.split("## Events that are not written")[1].split("\n## ")[0]
    for code in UNWRITTEN:
        assert f"`{code}`" in unwritten, code


def random_events(rules: HouseRules, players: int, seed: int, hands: int = 2) -> list[Event]:
    """Every event of a short session of random legal moves."""
    rules = replace(rules, session_end="hands", session_length=hands)
    state, events = engine.new_session(rules, [f"P{s}" for s in range(players)], seed)
    chooser = random.Random(seed)
    every = list(events)
    while state.phase.value != "session_over":
        legal = [action for seat in state.seats for action in engine.legal_actions(state, seat)]
        state, events = engine.apply(state, chooser.choice(legal))
        every.extend(events)
    return every


def test_every_field_the_engine_writes_is_named_in_its_section() -> None:
    every_rule = HouseRules(
        jokers=2, joker_mode="wild", equal_rank="skip", sequences=3, revolution="quad",
        eight_cut=True, jack_back=True, five_skip=True, nine_reverse=True,
        spade_three_return=True, downfall=True, forbidden_finish=True, suit_lock="suits_and_step",
        seven_pass=True, ten_discard=True, run_revolution=True, decree=False)
    events = (random_events(PRESETS["daihinmin_local"], 5, 1, 3)
              + random_events(every_rule, 4, 2, 3) + random_events(PRESETS["classic"], 3, 3))
    fields = {(event.code, key) for event in events if event.code not in UNWRITTEN
              for key in event.params} | RARE_FIELDS
    assert {code for code, _ in fields} >= {"play", "cut", "back", "reverse", "lock", "out"}
    by_type = sections()
    missing = sorted((code, key) for code, key in fields if f"`{key}`" not in by_type[code])
    assert not missing, missing
