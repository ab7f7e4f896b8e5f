"""The web page's texts in one language, as JSON: the same catalogs as the terminal.

``page_texts(language)`` translates, with the player's ``Translator``, every table of
``cli/text.py`` (the codes the host sends, made into words) and the page's own labels
(``LABELS``, ``PLURAL_LABELS``: many are the terminal's own messages). The page
(``static/i18n.js``, ``static/text.js``) looks them up by key and chooses the plural
form with the catalog's ``Plural-Forms`` expression; it holds no English text of its own.

    {"language": "pl", "plural": "(n==1 ? 0 : …)", "nplurals": 3,
     "texts": {"reason.too_low": "…", "role.classic.president": "…", "label.play": "…"},
     "plurals": {"count.cards": ["{count} karta", "{count} karty", "{count} kart"]},
     "maps": {"languages": {...}, "number_group": "\u00a0"}}

``table_texts(info, language)``: one table's house rules and role titles, as the
terminal's help lists them (``Text.rule_rows``): the page shows these words as they come.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from babel.numbers import get_group_symbol

from president.cli import text
from president.cli.i18n import DOMAIN, LANGUAGE_NAMES, LANGUAGES, N_, NN_, Translator
from president.roles import ROLES_BY_TABLE_SIZE

if TYPE_CHECKING:
    from president.net.protocol import TableInfo
    from president.net.table import Table
    from president.state import State

# The page's labels: key -> message. Several are the terminal's (same msgid, same words).
LABELS: dict[str, str] = {
    # the terminal's
    "you": N_("(you)"),
    "seat_disconnected": N_("(disconnected)"),
    "seat_away": N_("(away, a bot plays)"),
    "seat_left": N_("(left, a bot plays)"),
    "by_timeout": N_("Time's up: {event}"),
    "by_standin": N_("A bot plays for {name}: {event}"),
    "by_standin_you": N_("A bot plays for you: {event}"),
    "free_seat": N_("(free seat)"),
    "to_play": N_("to play"),
    "to_play_seconds": N_("to play ({seconds}s)"),
    "passed": N_("passed"),
    "ready": N_("ready"),
    "out_place": N_("out #{place}"),
    "holding_place": N_("holding cards (#{place})"),
    "bottom_place": N_("last place (#{place})"),
    "choosing_tax": N_("choosing tax cards"),
    "choosing_give": N_("choosing to give"),
    "choosing_discard": N_("choosing to discard"),
    "score": N_("score {score}"),
    "revolution": N_("REVOLUTION: order reversed"),
    "back_reversed": N_("11-BACK: order reversed for this trick"),
    "back_usual": N_("11-BACK: usual order for this trick"),
    "pile": N_("Pile:"),
    "empty": N_("empty"),
    "decree": N_("Decree:"),
    "waiting_ready": N_("Waiting for the others to be ready."),
    "watching": N_("You are watching this table."),
    "your_hand": N_("Your hand"),
    "no_cards": N_("(no cards)"),
    "house_rules": N_("House rules of this table"),
    "role_titles": N_("Role titles at this table"),
    "waiting_players": N_("Waiting for players: {taken} of {total} seats taken."),
    "waiting_table": N_("Waiting for the table…"),
    "connecting": N_("Connecting…"),
    "refused_by": N_("Refused by the table: {reason}"),
    "disconnected_reason": N_("Disconnected: {reason}"),
    "table": N_("Table"),
    "hand_number": N_("hand {number}"),
    "your_name": N_("Your name"),
    "language": N_("Language"),
    "pin": N_("PIN"),
    "nothing_to_play": N_("You have nothing to play now."),
    "declare": N_("The joker stands for:"),
    "rule_line": N_("{rule}: {value}"),
    "preset_line": N_("House rules: {preset}"),
    "learn": N_("Learn to play"),
    # a move Learn to play does not ask for (the terminal's reason names its keys)
    "lesson_step": N_("The lesson asks for another move: see the lesson's line above your "
                      "cards."),
    # the page's own
    "join": N_("Join the table"),
    "watch": N_("Watch"),
    "pin_needed": N_("This table needs a PIN."),
    "your_turn": N_("Your turn: tap cards, then Play."),
    "turn_of": N_("{name}'s turn"),
    "tap_ready": N_("Tap Ready when you are ready for the next hand."),
    "tax_paying": N_("The tax is being paid."),
    "start_now": N_("Start now (bots take the free seats)"),
    "rules": N_("Rules"),
    "chat": N_("Chat"),
    "send": N_("Send"),
    "close": N_("Close"),
    "leave": N_("Leave the table"),
    "leave_confirm": N_("Leave the table for good? A bot will play your seat."),
    "host_key": N_("Host key: {key} (the lobby shows it beside the table)"),
    "chat_placeholder": N_("Say something to the table"),
    "chat_line": N_("{name}: {text}"),
    "decree_label": N_("Your decree for the next hand"),
    "start_again": N_("Back to the start"),
    "waiting_owner_start": N_("Waiting for the owner to start."),
    "your_turn_title": N_("Your turn!"),
    "sound": N_("Sound on your turn"),
    "play_again": N_("Play again with the same players"),
    "play_duplicate": N_("The same deals, everyone one seat on"),
    "waiting_again": N_("The owner is choosing the rules for the next session."),
    "end_session": N_("End the session after this hand"),
    "end_confirm": N_("End the session for everyone after this hand?"),
    "seat_request": N_("{name} asks for their seat from another device."),
    "give_seat": N_("Give the seat back"),
    "refuse_seat": N_("Refuse"),
    "last_trick": N_("Last trick"),
    "hint": N_("Hint"),
    # the terminal's rank-key tip ("2 selects your 2s") on a phone: a long press
    "rank_tip": N_("Tip: hold a card for a moment to select all your cards of its rank "
                   "(again: one fewer), then tap Play."),
    "evening": N_("The evening's story…"),
    "evening_none": N_("No session tonight yet."),
}

PLURAL_LABELS: dict[str, tuple[str, str]] = {
    "give_back_hint": NN_("Choose {n} card to give back, then tap Give back.",
                          "Choose {n} cards to give back, then tap Give back."),
    "give_hint": NN_("7-pass: choose {n} card to give to {name}, then tap Give.",
                     "7-pass: choose {n} cards to give to {name}, then tap Give."),
    "discard_hint": NN_("10-discard: choose {n} card to discard, then tap Discard.",
                        "10-discard: choose {n} cards to discard, then tap Discard."),
}


def page_texts(language: str) -> bytes | None:
    """The JSON the page reads for ``language`` (None: not one of ours)."""
    if language not in LANGUAGES:
        return None
    return _page_texts(language)


@cache
def _page_texts(language: str) -> bytes:
    return json.dumps(_build(language), ensure_ascii=False, sort_keys=True).encode()


def _build(language: str) -> dict[str, Any]:
    tr = Translator(language)
    catalog = _catalog(language)
    texts: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}

    def plain(key: str, message: str) -> None:
        texts[key] = tr.gettext(message)

    def context(key: str, pair: tuple[str, str]) -> None:
        texts[key] = tr.pgettext(*pair)

    def plural(key: str, pair: tuple[str, str]) -> None:
        plurals[key] = _forms(catalog, pair)

    for key, message in LABELS.items():
        plain(f"label.{key}", message)
    for key, pair in PLURAL_LABELS.items():
        plural(f"label.{key}", pair)
    for code, message in text.REASONS.items():
        plain(f"reason.{code}", message)
    for code, pair in text.REASON_LIMITS.items():
        plural(f"reason_limit.{code}", pair)
    plain("reason_name_characters", text.NAME_CHARACTERS)
    plain("reason_unknown", text.REFUSED_UNKNOWN)
    for number, message in enumerate(text.REACTIONS, 1):
        plain(f"reaction.{text.reaction_code(number)}", message)
    for code, message in text.CONNECTION_STATUS.items():
        plain(f"status.{code}", message)
    for title_set, titles in text.ROLE_TITLES.items():
        for role, pair in titles.items():
            context(f"role.{title_set}.{role}", pair)
    for rank, pair in text.RANK_LETTERS.items():
        context(f"rank_letter.{rank.symbol}", pair)
    for rank, pair in text.RANK_NAMES.items():
        context(f"rank_name.{rank.symbol}", pair)
    for suit, pair in text.SUIT_NAMES.items():
        context(f"suit_name.{suit.symbol}", pair)
    context("joker_in_text", text.JOKER_IN_TEXT)
    plain("card_name", text.CARD_NAME)
    plain("declared_joker", text.DECLARED_JOKER)
    for table, prefix in ((text.COMBINATIONS, "combination"), (text.PHASES, "phase"),
                          (text.ACTIONS, "action"), (text.PRESET_NAMES, "preset"),
                          (text.TITLE_SET_NAMES, "title_set")):
        for code, pair in table.items():
            context(f"{prefix}.{code}", pair)
    for code, (mine, other) in text.EVENT_LINES.items():
        plain(f"event.{code}.own", mine)
        plain(f"event.{code}.other", other)
    for code, message in text.EVENT_TEXTS.items():
        plain(f"event_text.{code}", message)
    for kind, message in text.LOCK_LABELS.items():
        plain(f"lock.{kind}", message)
    for code, pair in text.EVENT_PLURALS.items():
        plural(f"event_plural.{code}", pair)
    for kind, (other, own) in text.PLAY_LINES.items():
        plain(f"play.{kind}.other", other)
        plain(f"play.{kind}.own", own)
    plain("beat.line", text.TO_BEAT)
    plain("beat.line_pass", text.TO_BEAT_OR_PASS)
    for below, (sets, many, run) in enumerate((
            (text.BEAT_SETS, text.BEAT_MANY, text.BEAT_RUN),
            (text.BEAT_SETS_BELOW, text.BEAT_MANY_BELOW, text.BEAT_RUN_BELOW))):
        way = ("above", "below")[below]
        for size, messages in sets.items():
            for equal, message in enumerate(messages):
                plain(f"beat.{way}.set.{size}.{equal}", message)
        for equal, pair in enumerate(many):
            plural(f"beat.{way}.many.{equal}", pair)
        plural(f"beat.{way}.run", run)
    for order, message in text.BEAT_ORDER.items():
        plain(f"beat.order.{order}", message)
    plain("hint.line", text.HINT_LINE)
    for kind, message in text.HINT_MOVES.items():
        plain(f"hint.move.{kind}", message)
    for code, (without, kept) in text.HINT_REASONS.items():
        plain(f"hint.reason.{code}", without)
        plain(f"hint.reason_keep.{code}", kept)
    plural("play_many.other", text.PLAY_MANY[0])
    plural("play_many.own", text.PLAY_MANY[1])
    for what, pair in text.COUNTS.items():
        plural(f"count.{what}", pair)
    return {
        "language": language,
        "plural": catalog.plural_expr,
        "nplurals": catalog.num_plurals,
        "texts": texts,
        "plurals": plurals,
        "maps": {
            "languages": {code: LANGUAGE_NAMES[code] for code in LANGUAGES},
            # the digits' group separator, as the terminal's numbers have it (babel)
            "number_group": get_group_symbol(locale=tr.locale),
            # the house rule each special event shows at work (Rules opens on it)
            "rule_of_event": text.RULE_OF_EVENT,
        },
    }


def table_texts(table: Table, language: str) -> bytes | None:
    """What the page shows of one table in ``language``, made by the terminal's ``Text``:
    its preset, every house rule (name, value, explanation, whether it is in force), its
    role titles, best first, and between hands the summary the terminal shows (the
    standings with their ties, or the hand's finishing order and the tax to come). None:
    not one of our languages.

        {"preset": "Klasyczne", "rules": [{"field": "decks", "name": "Talie",
         "value": "automatycznie", "explanation": "…", "in_force": true}, …],
         "roles": ["Prezydent", …],
         "summary": {"heading": "…", "rows": [[2, "1. Ewa: 5 punktów (ex aequo) ★"], …],
                     "notes": ["Następne rozdanie: …"]} or null}
    """
    if language not in LANGUAGES:
        return None
    words = table_words(text.Text(Translator(language)), table.info(), table.state)
    return json.dumps(words, ensure_ascii=False).encode()


def table_words(words: text.Text, info: TableInfo, state: State | None) -> dict[str, Any]:
    """``table_texts``' words of a table as ``info`` and ``state`` show it."""
    return {
        "preset": words.preset_name(info.preset),
        "rules": [row._asdict() for row in words.rule_rows(info.rules)],
        "roles": [words.role_title_explained(role.value, info.rules.title_set)
                  for role in ROLES_BY_TABLE_SIZE.get(info.seats, ())],
        "summary": table_summary(words, state, info),
    }


def table_summary(words: text.Text, state: State | None, info: TableInfo) -> dict[str, Any] | None:
    """The terminal's summary between hands, of the table's public state (None: playing)."""
    if state is None or state.phase.value not in ("hand_over", "session_over"):
        return None
    players = list(state.players)
    tr = words.tr
    if state.phase.value == "session_over":
        return {"heading": tr.gettext("The session is over. Standings:"),
                "rows": words.standings(players, state.scores, state.winners,
                                        info.standin_hands),
                "notes": []}
    last = state.results[-1]
    return {"heading": tr.gettext("Hand {number} is over. Finishing order:").format(
                number=state.hand_number),
            "rows": words.hand_result(players, last.order, [r.value for r in last.roles],
                                      last.scores, state.rules),
            "notes": words.next_tax(players, last.order, state.rules)}


def _catalog(language: str) -> Catalog:
    """The language's catalog as babel reads it (the ``.po``, else the built ``.mo``)."""
    folder = resources.files("president.locales") / language / "LC_MESSAGES"
    po_file, mo_file = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if po_file.is_file():
        with po_file.open("rb") as handle:
            return read_po(handle, locale=language, domain=DOMAIN)
    with mo_file.open("rb") as handle:
        return read_mo(handle)


def _forms(catalog: Catalog, pair: tuple[str, str]) -> list[str]:
    """Every plural form of ``pair`` in ``catalog`` (the English ones where untranslated)."""
    singular, plural = pair
    message = catalog.get((singular, plural)) or catalog.get(singular)
    strings = message.string if message is not None and not message.fuzzy else None
    if isinstance(strings, tuple) and all(strings):
        return list(strings)
    return [singular] + [plural] * (catalog.num_plurals - 1)
