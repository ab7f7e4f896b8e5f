"""The page's words (cli/web/static/text.js, run in node) say what the terminal's say
(cli/text.py): the suit lock's event and its word on the pile line, in every language."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from president.cards import Suit
from president.cli.text import Text
from president.cli.web.texts import page_texts
from president.events import Event
from president.locks import Lock

NODE = shutil.which("node")
STATIC = Path(__file__).resolve().parents[2] / "cli" / "web" / "static"
PLAYERS = ["Anna", "Bob", "Cleo"]
LOCK_EVENTS = [
    {"type": "lock", "hand": 1, "suits": "HS", "step": False},
    {"type": "lock", "hand": 1, "suits": "", "step": True},
    {"type": "lock", "hand": 1, "suits": "DDD", "step": True},
]
LOCKS = [Lock((Suit.HEARTS, Suit.SPADES)), Lock((), True), Lock((Suit.CLUBS,), True)]

SCRIPT = """
import { readFileSync } from "node:fs";
import { Texts } from "./i18n.mjs";
import { Text } from "./text.mjs";
const [texts, events, locks] = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const text = new Text(new Texts(texts));
console.log(JSON.stringify([
  events.map((event) => text.event(event, PLAYERS, 0)),
  locks.map((lock) => text.lock(lock)),
]));
""".replace("PLAYERS", json.dumps(PLAYERS))


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("language", ["en", "it", "nl", "pl"])
def test_the_page_words_a_lock_as_the_terminal_does(language: str, tmp_path: Path) -> None:
    for name in ("i18n", "text"):  # as modules, whatever node makes of a .js file
        shutil.copy(STATIC / f"{name}.js", tmp_path / f"{name}.mjs")
    (tmp_path / "run.mjs").write_text(SCRIPT, encoding="utf-8")
    wire = [["".join(suit.symbol for suit in lock.suits), lock.step] for lock in LOCKS]
    data = [json.loads(page_texts(language) or b""), LOCK_EVENTS, wire]
    (tmp_path / "data.json").write_text(json.dumps(data), encoding="utf-8")
    assert NODE is not None
    done = subprocess.run([NODE, str(tmp_path / "run.mjs"), str(tmp_path / "data.json")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    events, words = json.loads(done.stdout)
    text = Text(language)
    expected = [text.event(Event("lock", {k: v for k, v in e.items() if k != "type"}),
                           PLAYERS, 0) for e in LOCK_EVENTS]
    assert events == expected
    assert words == [text.lock(lock) for lock in LOCKS]
    assert "♦" in events[2] and "♦♦" not in events[2]  # a run's suit, once


BANNER_SCRIPT = """
import { readFileSync } from "node:fs";
import { Texts } from "./i18n.mjs";
import { Text } from "./text.mjs";
const [texts, views] = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const text = new Text(new Texts(texts));
console.log(JSON.stringify(views.map((view) => text.orderBanner(view))));
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_page_names_an_eleven_back_not_a_revolution(language: str, tmp_path: Path) -> None:
    """The status line during an 11-back: the terminal's title words (it said
    'REVOLUTION: order reversed' though no revolution was played)."""
    from president.cli.ui_text import load_texts

    for name in ("i18n", "text"):
        shutil.copy(STATIC / f"{name}.js", tmp_path / f"{name}.mjs")
    (tmp_path / "run.mjs").write_text(BANNER_SCRIPT, encoding="utf-8")
    views = [{"back": True, "reversed": True}, {"back": True, "reversed": False},
             {"back": False, "reversed": True}, {"back": False, "reversed": False}, None]
    data = [json.loads(page_texts(language) or b""), views]
    (tmp_path / "data.json").write_text(json.dumps(data), encoding="utf-8")
    assert NODE is not None
    done = subprocess.run([NODE, str(tmp_path / "run.mjs"), str(tmp_path / "data.json")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    tr, _ = load_texts(language)
    assert json.loads(done.stdout) == [
        tr.gettext("11-BACK: order reversed for this trick"),
        tr.gettext("11-BACK: usual order for this trick"),
        tr.gettext("REVOLUTION: order reversed"), "", ""]


# ------------------------------------------------------------ every text, both clients

AGREEMENT_SCRIPT = """
import { readFileSync } from "node:fs";
import { Texts } from "./i18n.mjs";
import { Text } from "./text.mjs";
const data = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const text = new Text(new Texts(data.texts));
console.log(JSON.stringify({
  events: data.events.map(([event, players, seat]) => text.event(event, players, seat)),
  reasons: data.reasons.map(([code, params]) => text.reason(code, params)),
  roles: data.roles.map(([role, titleSet]) => text.roleTitle(role, titleSet)),
  phases: data.phases.map((phase) => text.phase(phase)),
  actions: data.actions.map((kind) => text.action(kind)),
  statuses: data.statuses.map((status) => text.status(status)),
  counts: data.counts.map(([what, n]) => text.count(what, n)),
  hints: data.hints.map((idea) => text.hint(idea)),
  beats: data.beats.map((args) => text.toBeat(...args)),
  chats: data.chats.map((line) => text.chatText(line)),
}));
"""


def session_events(preset: str, seed: int, players: int) -> list[Event]:
    """Every event of a short session of random legal moves (decrees included)."""
    import random
    from dataclasses import replace

    from president import engine
    from president.actions import Decree
    from president.rules import PRESETS

    rules = replace(PRESETS[preset], session_end="hands", session_length=3)
    state, events = engine.new_session(rules, [f"P{s}" for s in range(players)], seed)
    chooser = random.Random(seed)
    out = list(events)
    while state.phase.value != "session_over":
        legal = [a for s in range(players) for a in engine.legal_actions(state, s)]
        if not legal:
            break
        decrees = [a for a in legal if isinstance(a, Decree)]
        action = decrees[0] if decrees else chooser.choice(legal)
        state, events = engine.apply(state, action)
        out.extend(events)
    return out


HINT_MOVE_OF = {"play": "play", "pass": "pass", "give_back": "give_back"}

# A few events a short random session may not hold, as the host sends them.
RARE_EVENTS = [
    Event("out", {"hand": 2, "seat": 1, "place": 3, "holding": True}),
    Event("forbidden", {"hand": 2, "seat": 0, "place": 4}),
    Event("forbidden", {"hand": 2, "seat": 2, "place": 4}),
    Event("forbidden", {"hand": 2, "seat": 0, "place": 4, "why": "joker"}),
    Event("forbidden", {"hand": 2, "seat": 1, "place": 4, "why": "best", "rank": "3"}),
    Event("forbidden", {"hand": 2, "seat": 2, "place": 4, "why": "eight", "leader": 0}),
    Event("forbidden", {"hand": 2, "seat": 0, "place": 3, "why": "spade_three"}),
    Event("downfall", {"hand": 2, "seat": 0, "place": 4, "cards": "3C"}),
    Event("downfall", {"hand": 2, "seat": 1, "place": 4, "cards": "3C"}),
    Event("back", {"hand": 1, "on": True}), Event("back", {"hand": 1, "on": False}),
    Event("revolution", {"hand": 1, "reversed": False}),
    Event("play", {"hand": 1, "seat": 1, "cards": "5C 5D 5H 5S 5S"}),
    Event("play", {"hand": 1, "seat": 0, "cards": "5H 5S JK", "declared": "5D"}),
    Event("play", {"hand": 1, "seat": 1, "cards": "4H JK 6H", "declared": "5H"}),
    Event("session_end", {"scores": [1, 1, 0], "winners": [0, 1]}),
    Event("session_end", {"scores": [1, 1, 0], "winners": [0], "early": True}),
    Event("return", {"hand": 1, "seat": 2}),
    Event("out", {"hand": 1, "seat": 0, "place": 1, "leader": 1}),
    Event("forbidden", {"hand": 1, "seat": 1, "place": 4, "leader": 2}),
    Event("decree", {"hand": 2, "seat": 0, "text": "Ogni 2 canta"}),
    Event("mystery", {"hand": 1}),
]


# The host's own words to one player or all (not engine events): a return, a late
# arrival, the end of a duplicate session.
HOST_EVENTS = [
    Event("away", {"seat": 1, "moves": 1, "tricks": 0, "role": None, "title_set": "classic"}),
    Event("away", {"seat": 1, "moves": 6, "tricks": 2, "role": "vice_president",
                   "title_set": "daifugo"}),
    Event("late", {"seat": 2, "was": "Bot 1"}),
    Event("duplicate", {"before": ["Anna", "Bob", "Cleo"], "before_scores": [3, -1, 1000],
                        "players": ["Cleo", "Anna", "Bob"], "scores": [0, 2, -2]}),
]


# Quick reactions travel as codes; anything else is shown as typed.
CHATS = ["/r1", "/r2", "/r3", "/r4", "/r9", "hello /r1", "Auć!"]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("language", ["en", "it", "nl", "pl"])
def test_every_text_reads_the_same_on_the_page_and_in_the_terminal(
        language: str, tmp_path: Path) -> None:
    """Every event code (as a seat, as another seat, as a spectator; by a timeout or a
    stand-in), every refusal, every role in every title set, phase, action, status and
    count: the page's renderer (node) gives the terminal's words."""
    from president.cards import Rank, Suit
    from president.cli.text import (
        ACTIONS,
        CONNECTION_STATUS,
        COUNTS,
        HINT_REASONS,
        PHASES,
        REASON_LIMITS,
        REASONS,
        TITLE_SETS,
    )
    from president.combos import make_combo
    from president.events import EVENT_CODES, project_event
    from president.locks import Lock
    from president.roles import Role
    from president.rules import HouseRules

    names = ["Anna", "Bob", "Cleo", "Dario", "Ewa"]
    happened = (session_events("daihinmin_local", 3, 4) + session_events("classic", 5, 5)
                + session_events("polish", 8, 4) + RARE_EVENTS + HOST_EVENTS)
    assert set(EVENT_CODES) <= {event.code for event in happened}
    cases: list[tuple[Event, list[str], int | None, str]] = []
    for k, event in enumerate(happened):
        for seat in (0, 1, None):
            by = ("", "timeout", "standin")[k % 3] if seat is not None else ""
            cases.append((project_event(event, seat), names, seat, by))
    reasons: list[tuple[str, dict[str, object]]] = [(code, {}) for code in REASONS]
    reasons += [(code, {"max": n}) for code in REASON_LIMITS for n in (1, 2, 5, 24)]
    reasons += [("name_invalid", {"reason": "characters"}), ("no_such_code", {})]
    roles = [(role.value, title_set) for title_set in TITLE_SETS for role in Role]
    counts = [(what, n) for what in COUNTS for n in (0, 1, 2, 3, 5, 12, 22, 1000)]
    beats = [(make_combo(kind, size, rank), equal, rev, back, lock, can_pass)
             for kind, size, rank in (("set", 1, Rank.NINE), ("set", 2, Rank.QUEEN),
                                      ("set", 3, Rank.JACK), ("set", 4, Rank.FIVE),
                                      ("set", 5, Rank.SEVEN), ("set", 8, Rank.TEN),
                                      ("run", 3, Rank.KING))
             for equal in ("off", "allowed") for rev, back in ((False, False), (True, False),
                                                              (True, True), (False, True))
             for lock in (None, Lock((Suit.HEARTS, Suit.SPADES), False), Lock((), True))
             for can_pass in (True, False)]
    hints = [{"action": action, "reason": reason, "params": params}
             for reason in HINT_REASONS for params in ({}, {"keep": "2C JK"})
             for action in ({"type": "play", "seat": 0, "cards": "5C 5D"},
                            {"type": "pass", "seat": 0},
                            {"type": "give_back", "seat": 0, "cards": "3C"})]
    data = {
        "texts": json.loads(page_texts(language) or b""),
        "events": [[{**event.to_dict(), **({"by": by} if by else {})}, players, seat]
                   for event, players, seat, by in cases],
        "reasons": reasons, "roles": roles, "phases": list(PHASES),
        "actions": list(ACTIONS), "statuses": list(CONNECTION_STATUS), "counts": counts,
        "chats": CHATS,
        "hints": hints,
        "beats": [[[top.kind, top.size, top.rank.symbol, None], equal, rev, back,
                   None if lock is None else ["".join(s.symbol for s in lock.suits), lock.step],
                   can_pass] for top, equal, rev, back, lock, can_pass in beats],
    }
    for name in ("i18n", "text"):
        shutil.copy(STATIC / f"{name}.js", tmp_path / f"{name}.mjs")
    (tmp_path / "run.mjs").write_text(AGREEMENT_SCRIPT, encoding="utf-8")
    (tmp_path / "data.json").write_text(json.dumps(data), encoding="utf-8")
    assert NODE is not None
    done = subprocess.run([NODE, str(tmp_path / "run.mjs"), str(tmp_path / "data.json")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    page = json.loads(done.stdout)
    text = Text(language)
    terminal = {
        "events": [text.event(event, players, seat, by) for event, players, seat, by in cases],
        "reasons": [text.reason(code, params) for code, params in reasons],
        "roles": [text.role_title(role, title_set) for role, title_set in roles],
        "phases": [text.phase(phase) for phase in PHASES],
        "actions": [text.action(kind) for kind in ACTIONS],
        "statuses": [text.status(status) for status in CONNECTION_STATUS],
        "counts": [text.count(what, n) for what, n in counts],
        "chats": [text.chat_text(line) for line in CHATS],
        "beats": [text.to_beat(top, HouseRules(equal_rank=equal), rev, back, lock, can_pass)
                  for top, equal, rev, back, lock, can_pass in beats],
        "hints": [text.hint(HINT_MOVE_OF[h["action"]["type"]], h["action"].get("cards", ""),
                            h["reason"], h["params"]) for h in hints],
    }
    for part, lines in terminal.items():
        differ = [(i, mine, theirs) for i, (mine, theirs) in enumerate(zip(lines, page[part],
                                                                          strict=True))
                  if mine != theirs]
        assert not differ, (part, differ[:5])
    assert page["chats"][1] == text.tr.gettext("Ouch!")  # in the reader's language
    for line in page["events"] + page["reasons"] + page["roles"] + page["hints"] \
            + page["beats"]:
        assert "undefined" not in line and "{" not in line, line
