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
