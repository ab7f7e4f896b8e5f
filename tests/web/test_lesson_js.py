"""The page's side of Learn to play (cli/web/static/lesson.js) run by node against the
host's answers (cli/web/lesson.py): a LessonSession says what a table's Session says
(joined, each event, each view), the player's own move at once and each bot's play
after a pause; a refused move is not kept; another language asks again without frames."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from president.cli.web.lesson import lesson_reply

STATIC = Path(__file__).resolve().parents[2] / "cli" / "web" / "static"
NODE = shutil.which("node")

SCRIPT = r"""
import { readFileSync } from "node:fs";
import { LessonSession } from "./lesson.mjs";
const answers = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const asked = [];
const heard = [];
const post = async (url, body) => {
  asked.push([url, body]);
  return answers[url + " " + body] ?? null;
};
const session = new LessonSession({ name: "Ola", language: "en", delay: 30, post,
  listener: (kind, payload) => heard.push([kind, kind === "view" ? payload.turn
    : kind === "event" ? payload.type + ":" + payload.seat : null]) });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
await session.connect();
const out = { joined: heard.map(([kind]) => kind) };
heard.length = 0;
out.refused = await session.request("play", "9S");
out.movesAfterRefusal = session.moves.length;
out.accepted = await session.request("play", "4C 4D");
out.atOnce = [...heard];
await sleep(200);
out.all = [...heard];
out.hint = await session.request("hint");
await session.setLanguage("pl");
out.line = session.line;
out.asked = asked.map(([url, body]) => [url, JSON.parse(body)]);
console.log(JSON.stringify(out));
"""


def answer(language: str, moves: list[dict[str, Any]], frames: bool = True) -> Any:
    body = json.dumps({"name": "Ola", "moves": moves, "frames": frames},
                      separators=(",", ":"))  # as JSON.stringify writes it
    return f"/lesson/{language}.json {body}", json.loads(lesson_reply(language, body.encode())
                                                         or b"null")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_lesson_session_plays_the_hosts_answers_as_a_table_session_would(
        tmp_path: Path) -> None:
    lead = {"type": "play", "cards": "4C 4D"}
    answers = dict([answer("en", []), answer("en", [{"type": "play", "cards": "9S"}]),
                    answer("en", [lead]), answer("pl", [lead], frames=False)])
    shutil.copy(STATIC / "lesson.js", tmp_path / "lesson.mjs")
    (tmp_path / "run.mjs").write_text(SCRIPT, encoding="utf-8")
    (tmp_path / "answers.json").write_text(json.dumps(answers), encoding="utf-8")
    assert NODE is not None
    done = subprocess.run([NODE, str(tmp_path / "run.mjs"), str(tmp_path / "answers.json")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["joined"] == ["status", "status", "joined", "view"]   # connecting, connected
    assert out["refused"] == {"code": "lesson_step", "params": {}}
    assert out["movesAfterRefusal"] == 0
    assert out["accepted"] == {"code": None, "params": {}}
    assert out["atOnce"] == [["event", "play:0"], ["view", 1]]      # our move, at once
    assert out["all"] == [["event", "play:0"], ["view", 1], ["event", "play:1"], ["view", 2],
                          ["event", "play:2"], ["view", 0]]         # then Ann's, Bob's
    assert out["hint"]["code"] == "hints_off"
    assert out["line"].startswith("Lekcja 2/7")
    assert [body["frames"] for _, body in out["asked"]] == [True, True, True, False]
    assert out["asked"][-1] == ["/lesson/pl.json", {"name": "Ola", "moves": [lead],
                                                    "frames": False}]
