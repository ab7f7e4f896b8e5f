"""Learn to play on the page: the host steps the terminal's lesson (``cli.lesson``) for the
page, one request at a time, and keeps nothing between requests.

``POST /lesson/<language>.json`` with ``{"name": "Ola", "moves": [{"type": "play",
"cards": "4C 4D"}, {"type": "pass"}, …]}``: the lesson is played again from its start
with the player's moves so far (each one the lesson took before), the bots moving after
each; the answer says what the last move made:

    {"refused": null or {"code": "lesson_step", "params": {}},   # the last move's refusal
     "table": {…},                     # the table's info, as the protocol's ``table`` sends it
     "frames": [{"events": [{"type": "play", …}], "view": {…}}, …],  # the move, each bot's
     "step": 2, "line": "Lesson 3/7 · …",   # the step reached and its words, with the taps
     "words": {…}}                     # cli.web.texts.table_words (the rules, the summary)

``"frames": false`` leaves out the frames (the line and the words again, in another
language). Being kept nowhere, a lesson is listed nowhere (``/tables.json``, zeroconf) and
ends with its page. A request that is not such a map, a name the host would refuse, or an
earlier move the lesson refuses gives None (the server answers 400).
"""

from __future__ import annotations

import json
from typing import Any

from president.actions import Action, action_from_dict
from president.cli.i18n import LANGUAGES, Translator
from president.cli.lesson import Lesson
from president.cli.text import Text
from president.errors import NotationError
from president.events import project_event
from president.net.limits import Limits, name_problem
from president.view import view

from .texts import table_words

MAX_MOVES = 200    # a player's moves in the lesson's two hands are far fewer
MOVE_TYPES = ("play", "pass", "give_back", "give", "discard", "ready")


def lesson_reply(language: str, body: bytes) -> bytes | None:
    """The answer to one request (see the module docstring), None: a bad request."""
    if language not in LANGUAGES:
        return None
    request = _request(body)
    if request is None:
        return None
    name, moves, with_frames = request
    lesson = Lesson(name)
    frames: list[dict[str, Any]] = []
    refused = None
    for number, action in enumerate(moves):
        last = number == len(moves) - 1
        refused = lesson.refusal(action)
        if refused is not None:
            if not last:
                return None
            break
        frames = _frames(lesson, action, last and with_frames)
    if not moves and with_frames:
        frames = [{"events": [], "view": view(lesson.state, 0).to_dict()}]
    tr = Translator(language)
    text = Text(tr)
    info = lesson.info(tr.gettext("Learn to play"))
    answer = {
        "refused": None if refused is None else {"code": refused, "params": {}},
        "table": info.to_wire(),
        "frames": frames if refused is None else [],
        "step": lesson.step,
        "line": lesson.line(tr, text, page=True),
        "words": table_words(text, info, lesson.state),
    }
    return json.dumps(answer, ensure_ascii=False).encode()


def _frames(lesson: Lesson, action: Action, shown: bool) -> list[dict[str, Any]]:
    """The player's ``action``, then each bot's move until the player's turn: each one's
    events and the view after it, if ``shown`` (else only moved)."""
    moves = [(lesson.play(action), lesson.state)]
    while lesson.bot_to_act() is not None:
        moves.append((lesson.bot_move(), lesson.state))
    if not shown:
        return []
    return [{"events": [project_event(event, 0).to_dict() for event in events],
             "view": view(state, 0).to_dict()} for events, state in moves]


def _request(body: bytes) -> tuple[str, list[Action], bool] | None:
    """The name, the moves and whether frames are wanted, from a request's body."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict):
        return None
    name, moves, with_frames = data.get("name"), data.get("moves"), data.get("frames", True)
    if not isinstance(name, str) or name_problem(name, Limits()) is not None \
            or not isinstance(moves, list) or len(moves) > MAX_MOVES \
            or not isinstance(with_frames, bool):
        return None
    actions = []
    for move in moves:
        if not isinstance(move, dict) or move.get("type") not in MOVE_TYPES:
            return None
        try:
            actions.append(action_from_dict({**move, "seat": 0}))
        except (KeyError, TypeError, NotationError):
            return None
    return name, actions, with_frames
