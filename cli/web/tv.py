"""The TV view (``/tv`` on the host's web port): one table as a spectator sees it, for a
shared screen by the sofa, every word made by the terminal's ``Text`` in one language.

``tv_texts(table, language, join_url)`` is the JSON ``static/tv.js`` shows as it comes
(it only lays it out): the seats with their titles, card counts, scores and what each is
doing; whose turn it is and the turn timer's length; the pile's last plays, its lock and
the order's banner (a revolution, an 11-back); the last events (the banners of special
rules are made of them); the rules in force; between hands the summary the terminal
shows; and the QR code of the page, to join.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import segno

from president.cli.i18n import LANGUAGES, N_, Translator
from president.cli.text import Text
from president.view import view

from .texts import table_summary

if TYPE_CHECKING:
    from president.cards import Card
    from president.net.table import Table
    from president.view import View

LOG_LINES = 8
# The TV's own words (the others are the terminal's).
SCAN_TO_JOIN = N_("Scan to join from your phone")
RULES_IN_FORCE = N_("House rules in force")
PIN_LOCAL_ONLY = N_("This table has a PIN: its TV view opens only on the host's own screen.")
ORDER_BANNERS = {"revolution": N_("REVOLUTION: order reversed"),
                 "back_reversed": N_("11-BACK: order reversed for this trick"),
                 "back_usual": N_("11-BACK: usual order for this trick")}
SEAT_NOTES = {"disconnected": N_("(disconnected)"), "away": N_("(away, a bot plays)"),
              "left": N_("(left, a bot plays)")}


def tv_texts(table: Table, language: str, join_url: str, local: bool = True) -> bytes | None:
    """The TV's JSON for ``table`` in ``language`` (None: not one of ours). A table with a
    PIN is shown only to a request from the host itself (``local``): the PIN keeps its
    game among those who know it."""
    if language not in LANGUAGES:
        return None
    words = Text(Translator(language))
    if table.info().pin and not local:
        return _dump({"locked": words.tr.gettext(PIN_LOCAL_ONLY), "language": language})
    return _dump(_tv(words, table, language, join_url))


def _dump(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode()


def _tv(words: Text, table: Table, language: str, join_url: str) -> dict[str, Any]:
    tr = words.tr
    info = table.info()
    state = table.state
    shown = view(state, None) if state is not None else None
    heading = [info.name]
    if shown is not None:
        heading += [tr.gettext("hand {number}").format(number=shown.hand_number),
                    words.phase(shown.phase)]
    data: dict[str, Any] = {
        "language": language,
        "heading": " · ".join(heading),
        "labels": {"pile": tr.gettext("Pile:"), "empty": tr.gettext("empty"),
                   "scan": tr.gettext(SCAN_TO_JOIN), "rules": tr.gettext(RULES_IN_FORCE),
                   "decree": tr.gettext("Decree:"),
                   "reconnecting": words.status("reconnecting")},
        "join_url": join_url,
        "qr": segno.make(join_url, error="l", micro=False).svg_data_uri(
            scale=8, border=2, dark="#000", light="#fff"),
        "rules": [[row.name, row.value] for row in words.rule_rows(info.rules) if row.in_force],
        "turn_timer": info.turn_timer,
        "log": [{"n": n, "type": event.code,
                 "text": words.event(event, shown.players if shown else (), None, by)}
                for n, event, by in list(table.recent)[-LOG_LINES:]],
        "summary": table_summary(words, state, info),
    }
    if shown is None:
        data.update(seats=[{"name": name or tr.gettext("(free seat)"), "title": "", "count": "",
                            "score": "", "state": "", "turn": False} for name in info.players],
                    waiting=tr.gettext("Waiting for players: {taken} of {total} seats taken.")
                    .format(taken=info.taken, total=info.seats),
                    turn=None, turn_key="", pile=[], lock="", order="", decree=None)
        return data
    data.update(
        seats=[_seat(words, shown, s, info.states) for s in _seat_order(shown)],
        waiting="", turn=shown.turn if shown.phase == "play" else None,
        turn_key=f"{shown.phase}:{shown.turn}:{shown.hand_number}:{table.version}"
        if shown.phase == "play" else "",
        pile=[{"name": shown.players[seat], "cards": [_card(words, c) for c in cards],
               "declared": words.played("JK", declared) if declared else ""}
              for seat, cards, declared in shown.pile[-5:]],
        lock=words.lock(shown.lock) if shown.lock else "",
        order=tr.gettext(ORDER_BANNERS["back_reversed" if shown.reversed else "back_usual"])
        if shown.back else tr.gettext(ORDER_BANNERS["revolution"]) if shown.reversed else "",
        decree=shown.decree)
    return data


def _seat_order(shown: View) -> list[int]:
    """The seats in the order of play (the table's own order once dealt)."""
    return list(shown.order) or list(range(len(shown.players)))


def _seat(words: Text, shown: View, s: int, states: tuple[str, ...]) -> dict[str, Any]:
    tr = words.tr
    note = tr.gettext(SEAT_NOTES[states[s]]) if s < len(states) and states[s] in SEAT_NOTES \
        else ""
    role = shown.roles[s] if shown.roles else None
    turn = (shown.phase == "play" and shown.turn == s) or (
        shown.phase == "tax" and s in shown.tax_pending)
    return {"name": shown.players[s], "note": note,
            "title": words.role_title(role, shown.rules.title_set) if role else "",
            "count": words.count("cards", shown.counts[s]),
            "score": tr.gettext("score {score}").format(score=shown.scores[s]),
            "state": words.seat_state(shown, s), "turn": turn}


def _card(words: Text, card: Card) -> dict[str, Any]:
    return {"rank": words.rank(card.rank), "suit": card.suit.symbol if card.suit else None,
            "name": words.card_name(card)}
