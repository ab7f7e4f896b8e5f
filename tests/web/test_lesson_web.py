"""Learn to play for the page (issue 28): the host steps the terminal's lesson
(``cli.lesson.Lesson``) one request at a time (``POST /lesson/<language>.json``), keeps
nothing, lists nothing, and says each step with the page's taps in four languages."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest
from test_web_server import LOCAL, origin, run, serving

from president.cli.i18n import Translator
from president.cli.lesson import DONE_PAGE, STEPS, Lesson
from president.cli.text import Text
from president.cli.web.lesson import MAX_MOVES, lesson_reply
from president.cli.web.texts import page_texts

LANGUAGES = ("en", "it", "nl", "pl")
# The moves the lesson's seven steps ask for, as the page sends them.
STEP_MOVES: list[dict[str, Any]] = [
    {"type": "play", "cards": "4C 4D"}, {"type": "pass"}, {"type": "play", "cards": "9S"},
    {"type": "play", "cards": "KH"}, {"type": "play", "cards": "2S"}, {"type": "ready"},
    {"type": "give_back", "cards": "3C 4C"}]


def ask(moves: list[dict[str, Any]], language: str = "en", **extra: Any) -> dict[str, Any]:
    answer = lesson_reply(language, json.dumps({"name": "Ola", "moves": moves, **extra})
                          .encode())
    assert answer is not None
    return dict(json.loads(answer))


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_step_waits_for_its_move_and_says_the_next_with_the_pages_taps(
        language: str) -> None:
    tr = Translator(language)
    for number in range(len(STEPS) + 1):
        answer = ask(STEP_MOVES[:number], language)
        assert answer["refused"] is None and answer["step"] == number
        expected = tr.gettext(DONE_PAGE) if number == len(STEPS) else \
            tr.gettext(STEPS[number].page).format(**Lesson("Ola").fields(Text(tr)))
        assert answer["line"] == expected
        assert "Enter" not in answer["line"] and "{" not in answer["line"]
        assert answer["table"]["id"] == "lesson" and answer["table"]["hints"] is False
        view = answer["frames"][-1]["view"]
        assert view["seat"] == 0 and view["players"][0] == "Ola"
        if number < len(STEPS):      # the player's turn (or their tax, or their ready)
            kinds = {action["type"] for action in view["legal"]}
            assert STEP_MOVES[number]["type"] in kinds
        wrong = {"type": "play", "cards": "2S"} if number != 4 else {"type": "pass"}
        if number < len(STEPS) - 2:  # a move the step does not ask for: refused, nothing moves
            refused = ask([*STEP_MOVES[:number], wrong], language)
            assert refused["refused"]["code"] in ("lesson_step", "must_lead", "wrong_size")
            assert refused["frames"] == [] and refused["step"] == number


def test_a_move_brings_its_events_and_the_bots_moves_each_with_its_view() -> None:
    answer = ask(STEP_MOVES[:1])
    frames = answer["frames"]
    assert [[e["type"] for e in f["events"]] for f in frames] == [["play"], ["play"], ["play"]]
    assert [f["events"][0]["seat"] for f in frames] == [0, 1, 2]      # Ola, Ann, Bob
    assert [len(f["view"]["pile"]) for f in frames] == [1, 2, 3]
    assert frames[-1]["view"]["turn"] == 0
    between = ask(STEP_MOVES[:5])    # going out: the bots finish the hand; its summary
    assert between["frames"][-1]["view"]["phase"] == "hand_over"
    assert between["words"]["summary"]["rows"][0][0] == 0
    quiet = ask(STEP_MOVES[:5], "pl", frames=False)
    assert quiet["frames"] == [] and quiet["line"].startswith("Lekcja 6/7")


def test_bad_requests_are_refused_whole() -> None:
    good = {"name": "Ola", "moves": STEP_MOVES[:2]}
    for body in (b"", b"[]", b"{", json.dumps({**good, "name": ""}).encode(),
                 json.dumps({**good, "name": "x" * 25}).encode(),
                 json.dumps({**good, "moves": "pass"}).encode(),
                 json.dumps({**good, "moves": [{"type": "decree", "text": "x"}]}).encode(),
                 json.dumps({**good, "moves": [{"type": "play", "cards": "ZZ"}]}).encode(),
                 json.dumps({**good, "moves": [{"type": "play", "cards": "9S"},
                                               {"type": "pass"}]}).encode(),  # a refused one
                 json.dumps({**good, "moves": [{"type": "pass"}] * (MAX_MOVES + 1)}).encode(),
                 json.dumps({**good, "frames": "no"}).encode()):
        assert lesson_reply("en", body) is None, body
    assert lesson_reply("de", json.dumps(good).encode()) is None


def test_the_whole_session_can_be_played_to_its_end_by_requests() -> None:
    moves = list(STEP_MOVES)
    answer = ask(moves)
    while answer["frames"][-1]["view"]["phase"] != "session_over":
        view = answer["frames"][-1]["view"]
        legal = view["legal"]
        move = next((a for a in legal if a["type"] == "pass"), None) or legal[0]
        moves.append({key: value for key, value in move.items() if key != "seat"})
        answer = ask(moves)
        assert answer["refused"] is None
        assert len(moves) < 60
    assert answer["line"] == Translator("en").gettext(DONE_PAGE)


def test_the_page_asks_from_its_own_origin_and_the_lesson_is_listed_nowhere() -> None:
    async def scenario() -> None:
        async with serving() as (host, web, _table), aiohttp.ClientSession() as http:
            url = f"http://{LOCAL}:{web.port}/lesson/nl.json"
            body = json.dumps({"name": "Ola", "moves": STEP_MOVES[:1]})
            async with http.post(url, data=body, headers=origin(web)) as reply:
                assert reply.status == 200
                answer = await reply.json()
                assert answer["line"].startswith("Les 2/7")
                assert reply.headers["Content-Security-Policy"].startswith("default-src")
            async with http.post(url, data=body,
                                 headers={"Origin": "http://evil.example"}) as reply:
                assert reply.status == 403
            async with http.post(url, data="{", headers=origin(web)) as reply:
                assert reply.status == 400
            async with http.post(url, data=b" " * (17 * 1024), headers=origin(web)) as reply:
                assert reply.status == 413
            async with http.post(f"http://{LOCAL}:{web.port}/lesson/de.json", data=body,
                                 headers=origin(web)) as reply:
                assert reply.status == 400
            async with http.get(f"http://{LOCAL}:{web.port}/tables.json") as reply:
                assert [t["id"] for t in await reply.json()] == ["main"]
            assert list(host.tables) == ["main"]
    run(scenario())


def test_the_pages_texts_say_a_refused_step_with_the_page_in_mind() -> None:
    for language in LANGUAGES:
        texts = json.loads(page_texts(language) or b"")["texts"]
        assert texts["label.lesson_step"] != texts["reason.lesson_step"]
        assert texts["label.learn"] == Translator(language).gettext("Learn to play")


def test_lessons_at_once_wait_their_turn_without_blocking_the_loop() -> None:
    async def scenario() -> None:
        async with serving() as (_, web, _table), aiohttp.ClientSession() as http:
            url = f"http://{LOCAL}:{web.port}/lesson/en.json"
            body = json.dumps({"name": "Ola", "moves": STEP_MOVES})

            async def one() -> int:
                async with http.post(url, data=body, headers=origin(web)) as reply:
                    return reply.status
            assert await asyncio.gather(*(one() for _ in range(5))) == [200] * 5
    run(scenario())
