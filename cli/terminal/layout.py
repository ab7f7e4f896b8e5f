"""The table screen: reads the ``TableModel`` on every render, never stores state.

80x24 holds eight players: one line per seat, the trick, the log (what is left),
the hand (two lines a row) and two lines of messages.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Window,
)
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import Frame

from president.actions import Decree, Pass, Play
from president.cli.i18n import N_
from president.cli.terminal.cards_view import (
    BOX_LINES,
    BOX_SLOT,
    SLOT,
    boxed_hand_fragments,
    cards_fragments,
    hand_fragments,
)
from president.cli.terminal.fit import (
    SizedControl,
    Viewport,
    columns_table,
    pad,
    shorten,
    width_of,
    wrap,
)
from president.cli.terminal.model import RANK_KEYS, LineEdit, TableModel
from president.cli.text import HINT_KEY_LABEL, RANK_KEY_TIP, SENT_DOWN
from president.cli.web.qr import qr_lines
from president.net.pake import short_fingerprint
from president.roles import roles_for_places
from president.rules import PRESETS
from president.view import View

STYLE = Style.from_dict({
    "title": "reverse bold",
    "card.red": "fg:ansired bold",
    "card.black": "bold",
    "card.joker": "fg:ansimagenta bold",
    "card.selected": "bg:ansiyellow",
    "card.cursor": "underline",
    "card.marker": "fg:ansiyellow bold",
    "card.unplayable": "fg:ansibrightblack",
    "turn": "fg:ansigreen bold",
    "me": "bold",
    "dim": "fg:ansibrightblack",
    "warning": "fg:ansired bold",
    "message": "fg:ansiyellow",
    "keys": "reverse",
    "help": "bg:ansiblack fg:ansiwhite",
    "menu.selected": "reverse",
    "revolution": "fg:ansimagenta bold",
    "qr": "fg:#000000 bg:#ffffff",
})

Fragments = list[tuple[Any, ...]]


def columns() -> int:
    try:
        return get_app().output.get_size().columns
    except Exception:  # noqa: BLE001 - no running app (unit tests of fragments)
        return 80


def role_title(model: TableModel, role: str | None) -> str:
    if not role:
        return ""
    return model.text.role_title(role, model.rules.title_set)


MIN_TITLE = 12   # cells the table's name and hand keep beside the title's banners


def title_fragments(model: TableModel) -> Fragments:
    tr, view = model.tr, model.view
    name = model.table.name if model.table else tr.gettext("Table")
    parts = [name]
    if view:
        rules = model.rules
        if rules.session_end == "hands":      # a session of so many hands: how far along
            parts.append(tr.gettext("hand {number} of {total}").format(
                number=view.hand_number, total=rules.session_length))
        else:
            parts.append(tr.gettext("hand {number}").format(number=view.hand_number))
        parts.append(phase_name(model, view.phase))
    after: Fragments = []
    warning = status_text(model) if model.status != "connected" else ""
    if warning:     # before the order's banner: a lost table matters more than a trick
        after.append(("class:warning", " " + warning + " "))
    if view and view.phase in ("play", "tax"):
        banner = order_banner(model, view)
        if banner:
            after.append(("class:revolution", " " + banner + " "))
    # Too wide: the phase goes (the screen shows it), then the table's name is cut
    # rather than the banners ("To beat" leaves the order's rule to the title).
    width, room = columns(), columns() - sum(width_of(text) for _, text, *_ in after)
    if len(after) == 2 and room < MIN_TITLE:   # lost, no move is made: no room for the trick
        room += width_of(after.pop()[1])
    title = " " + " · ".join(parts) + " "
    if after and view and width_of(title) > room:
        title = " " + " · ".join(parts[:-1]) + " "
        title = shorten(title.rstrip(), max(room - 1, MIN_TITLE)) + " "
    return fit_line([("class:title", title), *after], width)


def order_banner(model: TableModel, view: View) -> str:
    """The title's word for an order not the usual one: an 11-back's for its trick
    (which undoes a revolution's until the pile is cleared), else a revolution's."""
    tr = model.tr
    if view.back:
        return (tr.gettext("11-BACK: order reversed for this trick") if view.reversed
                else tr.gettext("11-BACK: usual order for this trick"))
    return tr.gettext("REVOLUTION: order reversed") if view.reversed else ""


def fit_line(fragments: Fragments, width: int) -> Fragments:
    """One line of fragments in ``width`` cells: the last ones abbreviated with "…"."""
    out: Fragments = []
    left = width
    for style, text, *rest in fragments:
        if left <= 0:
            break
        shown = shorten(text, left)
        out.append((style, shown, *rest))
        left -= width_of(shown)
    return out


def status_text(model: TableModel) -> str:
    tr = model.tr
    if model.status == "lost" and model.status_detail == "seat_request_sent" and model.knocking:
        return tr.gettext("Waiting for the owner to let you in… (Esc: back)")
    if model.status == "lost" and model.status_detail == "seat_request_sent":
        return tr.gettext("Asked the table's owner for your seat: waiting… (Esc: back)")
    if model.status == "lost" and model.view is None:
        return tr.gettext("Cannot reach the table: trying again… (Esc: back)")
    if model.status == "lost":
        return tr.gettext("Connection lost: reconnecting…")
    if model.status == "connecting":
        return tr.gettext("Connecting…")
    if model.status == "closed" and model.status_detail == "session_over":
        return ""  # the normal end: the title already says the session is over
    if model.status == "closed" and model.status_detail:
        return tr.gettext("Disconnected: {reason}").format(
            reason=model.text.reason(model.status_detail, {}))
    if model.status == "closed":
        return tr.gettext("Disconnected")
    if model.status == "refused" and model.status_detail == "not_a_table":
        return str(model.text.reason(model.status_detail, model.status_params))
    if model.status == "refused":
        return tr.gettext("Refused by the table: {reason}").format(
            reason=model.text.reason(model.status_detail or "refused", model.status_params))
    return model.status


def phase_name(model: TableModel, phase: str) -> str:
    return str(model.text.phase(phase))


def players_fragments(model: TableModel) -> Fragments:
    view, tr = model.view, model.tr
    if not view:
        return waiting_fragments(model)
    seat = view.seat
    count = len(view.players)
    order = list(view.order) or list(range(count))
    start = order.index(seat) if seat in order else 0
    seats = [order[(start + k) % count] for k in range(count)]
    rows, styles = [], []
    digits = len(str(max(view.counts, default=0)))
    for s in seats:
        turn = view.turn == s and view.phase == "play"
        owes = view.phase == "tax" and s in view.tax_pending
        rows.append(["▶" if turn or owes else " ", view.players[s] + seat_note(model, s),
                     role_title(model, view.roles[s] if view.roles else None),
                     cards_text(tr, view.counts[s], digits), score_text(tr, view.scores[s]),
                     " " + seat_state(model, s)])
        styles.append("class:turn" if turn or owes else ("class:me" if s == seat else ""))
    # columns sized to their content; when too wide, states, names, then roles give way
    # (a role title is cut last: Dutch "Vicepresident" beside a long state kept whole)
    # (the counts' digits line up; "1 karta" and "0 kart" are as long as their words)
    lines = columns_table(rows, columns() - 1, right=(False, False, False, False, False, False),
                          shrink=((1, 18), (5, 13), (1, 9), (5, 6), (2, 9), (2, 5)))
    return [(style, line + "\n") for style, line in zip(styles, lines, strict=True)]


def cards_text(tr: Any, count: int, digits: int = 0) -> str:
    """"3 cards", the number right-aligned in ``digits`` places."""
    return str(tr.ngettext("{n} card", "{n} cards", count).format(n=str(count).rjust(digits)))


def score_text(tr: Any, score: int) -> str:
    return str(tr.gettext("score {score}").format(score=score))


def players_height(model: TableModel) -> int:
    if model.view:
        return len(model.view.players)
    return len(waiting_rows(model, columns() - 1))


SEAT_NOTES = {  # protocol SEAT_STATES worth a word beside the name
    "disconnected": N_("(disconnected)"),
    "away": N_("(away, a bot plays)"),
    "left": N_("(left, a bot plays)"),
}


def seat_note(model: TableModel, s: int) -> str:
    """" (you)", or the seat's state when a bot plays for a player or their connection
    is gone (table info)."""
    tr, table = model.tr, model.table
    if s == model.seat:
        return " " + tr.gettext("(you)")
    if table is not None and s < len(table.states) and table.states[s] in SEAT_NOTES:
        return " " + tr.gettext(SEAT_NOTES[table.states[s]])
    return ""


def waiting_fragments(model: TableModel) -> Fragments:
    out: Fragments = []
    for row in waiting_rows(model, columns() - 1):
        out.extend(row)
        out.append(("", "\n"))
    return out


WAITING_OTHER_ROWS = 7   # the waiting room's title, rules, log, hand and key lines


def waiting_rows(model: TableModel, width: int) -> list[Fragments]:
    """The waiting room, row by row: its lines and, where the page is served, its QR
    code below them or beside them when the screen has room (else u shows it alone)."""
    url = model.web_url if model.status != "refused" else None
    text = waiting_lines(model, width)
    if not url:
        return [[line] for line in text]
    qr = [("class:qr", "  " + line + "  ") for line in qr_lines(url)]
    if model.qr_open:
        return [[line] for line in qr] + [[("class:dim", model.tr.gettext("u: back"))]]
    room = screen_rows() - WAITING_OTHER_ROWS
    if len(text) + len(qr) <= room:
        return [[line] for line in text] + [[line] for line in qr]
    narrow = width - width_of(qr[0][1]) - 1
    beside = waiting_lines(model, narrow) if narrow >= 36 else []
    if beside and max(len(beside), len(qr)) <= room:
        blank = ("", "")
        return [[(style, pad(line, narrow) + " "), *([qr[i]] if i < len(qr) else [])]
                for i, (style, line) in enumerate(
                    beside + [blank] * (len(qr) - len(beside)))]
    return [[line] for line in text] + [[("class:dim", part)] for part in wrap(
        model.tr.gettext("Press u to show the QR code for phones."), width)]


def qr_beside(model: TableModel) -> bool:
    """Whether the waiting room shows the QR code with its lines (u is not needed)."""
    return not model.qr_open and any(
        style == "class:qr" for row in waiting_rows(model, columns() - 1) for style, *_ in row)


def screen_rows() -> int:
    try:
        return int(get_app().output.get_size().rows)
    except Exception:  # noqa: BLE001 - no running app
        return 24


def waiting_lines(model: TableModel, width: int) -> list[tuple[str, str]]:
    """Before the first deal: who has sat down, and how to start with bots; each line
    wrapped between words to ``width``."""
    tr, table = model.tr, model.table
    players = table.players if table else ()
    if model.status == "refused":   # e.g. a wrong PIN, a full table: say why, and the way out
        reason = str(model.text.reason(model.status_detail or "refused", model.status_params))
        return [("class:warning", part) for part in wrap(reason, width)] + [
            ("", part) for part in wrap(tr.gettext("Press Esc to go back to the lobby."), width)]
    if not players:
        return [("class:dim", tr.gettext("Waiting for the table…"))]
    taken = sum(1 for name in players if name)
    out = [("bold", tr.gettext("Waiting for players: {taken} of {total} seats taken."
                               ).format(taken=taken, total=len(players)))]
    if table is not None:
        out.append(("class:dim", "  " + rules_line(model, table)))
    for s, name in enumerate(players):
        shown = name or tr.gettext("(free seat)")
        if s == model.seat:
            shown += " " + tr.gettext("(you)")
        out.append(("class:me" if s == model.seat else "", "  " + shown))
    if model.owner:
        out.append(("class:message", tr.gettext("Press s to start now: bots take the free seats.")))
        out.append(("class:message", tr.gettext("Press o to change the rules.")))
    else:
        out.append(("class:message", tr.gettext("Waiting for the owner to start.")))
    if model.address:
        out.append(("", "  " + tr.gettext("Others can join at {address}").format(
            address=model.address)))
    if model.unadvertised:
        out.append(("class:dim", "  " + tr.gettext(
            "Not advertised on the network: others join by this address.")))
    if model.host_key:
        out.append(("class:dim", "  " + tr.gettext(
            "Host key: {key} (the lobby shows it beside the table)").format(
                key=short_fingerprint(model.host_key))))
    wrapped = [(style, part) for style, line in out for part in wrap(line, width)]
    if model.web_url:
        wrapped.extend(("", part) for part in wrap("  " + tr.gettext(
            "Phones and browsers: {url}").format(url=model.web_url), width))
    return wrapped


def rules_line(model: TableModel, table: Any) -> str:
    """The table's preset, and whether its owner changed some of its rules."""
    preset = str(model.text.preset_name(table.preset))
    if table.preset in PRESETS and table.rules != PRESETS[table.preset]:
        return model.tr.gettext("Rules: {preset}, with changes").format(preset=preset)
    return model.tr.gettext("Rules: {preset}").format(preset=preset)


def seat_state(model: TableModel, s: int) -> str:
    view = model.view
    if view is None:
        return ""
    left = model.turn_seconds_left() if view.turn == s else None
    return model.text.seat_state(view, s, left)


def trick_fragments(model: TableModel) -> Fragments:
    """The newest plays on the pile, and the President's decree; once the hand is over
    only the decree (the last pile is history)."""
    view, tr = model.view, model.tr
    if not view:
        return []
    width = columns() - 1
    if view.phase in ("hand_over", "session_over"):
        return fit_line([("bold", tr.gettext("Decree:") + " "), ("", view.decree)], width) \
            if view.decree else []
    pile = view.pile
    for shown in range(min(4, len(pile)), 0, -1):    # the newest plays that fit
        out = pile_fragments(model, pile[-shown:])
        if width_of("".join(f[1] for f in out)) <= width:
            break
    else:
        out = pile_fragments(model, pile[-1:])
    out = fit_line(out, width)
    if view.decree:
        out.append(("", "\n"))
        out.extend(fit_line([("bold", tr.gettext("Decree:") + " "), ("", view.decree)], width))
    return out


def pile_fragments(model: TableModel, plays: Any) -> Fragments:
    assert model.view is not None
    out: Fragments = [("bold", model.tr.gettext("Pile:") + " ")]
    if not plays:
        out.append(("class:dim", model.tr.gettext("empty")))
    for i, (s, cards, declared) in enumerate(plays):
        if i:
            out.append(("class:dim", "  →  "))
        out.append(("", model.view.players[s] + " "))
        out.extend(cards_fragments(cards, model.text))
        if declared:  # what its wild jokers stand for
            out.append(("", " (" + model.text.played((), declared) + ")"))
    if model.view.lock is not None:
        out.append(("bold", " · " + model.text.lock(model.view.lock)))
    return out


def log_fragments(model: TableModel, port: Viewport) -> Fragments:
    """The log of the hand (its newest lines, or ``log_back`` entries back), or at the
    end of a hand or session its summary, from ``summary_top``; wrapped between words."""
    width, height = port.width, max(1, port.height)
    if model.summary_shown:
        return summary_page(model, width, height)
    entries = list(model.log)
    shown = entries[: len(entries) - model.log_back]
    lines = [part for entry in shown for part in wrap(entry, width)]
    if not model.log_back:
        return [("", "\n".join(lines[-height:]))]
    more = model.tr.gettext("… {n} newer lines below (PageDown)").format(n=model.log_back)
    return [("", "\n".join([*lines[-(height - 1):], shorten(more, width)]))]


def summary_page(model: TableModel, width: int, height: int) -> Fragments:
    """The part of the summary that fits, from ``model.summary_top``; when it does not
    all fit, its last row says where we are and that PageUp/PageDown scroll."""
    lines = [(style, part) for style, line in summary_lines(model) for part in wrap(line, width)]
    if len(lines) <= height:
        model.summary_top, model.summary_below = 0, 0
        return [(style, line + "\n") for style, line in lines]
    rows = model.summary_rows = max(1, height - 1)
    model.summary_top = max(0, min(model.summary_top, len(lines) - rows))
    shown = lines[model.summary_top: model.summary_top + rows]
    model.summary_below = len(lines) - model.summary_top - len(shown)
    where = model.tr.gettext("lines {first}-{last} of {total} · PageUp/PageDown").format(
        first=model.summary_top + 1, last=model.summary_top + len(shown), total=len(lines))
    arrows = ("↑" if model.summary_top else " ") + ("↓" if model.summary_below else " ")
    out: Fragments = [(style, line + "\n") for style, line in shown]
    out.append(("class:keys", shorten(arrows + " " + where, width)))
    return out


def summary_fragments(model: TableModel) -> Fragments:
    """The whole summary, unscrolled."""
    return [(style, line + "\n") for style, line in summary_lines(model)]


def score_sheet_lines(model: TableModel) -> list[str]:
    """The totals after each hand seen here, a column per player (names abbreviated to
    fit), a row per hand."""
    if not model.score_sheet:
        return []
    tr = model.tr
    width = columns() - 1
    labels = [tr.gettext("Score sheet"), *(tr.gettext("hand {number}").format(number=hand)
                                           for hand, _ in model.score_sheet)]
    players = model.players
    each = max(4, (width - max(map(width_of, labels)) - len(players)) // max(1, len(players)))
    rows = [[labels[0], *(shorten(name, each) for name in players)]]
    rows += [[label, *map(str, scores)]
             for label, (_, scores) in zip(labels[1:], model.score_sheet, strict=True)]
    return ["", *columns_table(rows, width, right=(False, *[True] * len(players)),
                               shrink=[(0, 6)])]


def summary_lines(model: TableModel) -> list[tuple[str, str]]:
    """End of a hand: finishing order, new roles, scores and the tax to come;
    at the end of the session, the standings."""
    view, tr = model.view, model.tr
    players = model.players
    out: list[tuple[str, str]] = []
    final = model.session_summary
    if final:
        out.append(("bold", tr.gettext("The session is over. Standings:")))
        scores = final.get("scores") or (list(view.scores) if view else [])
        standins = model.table.standin_hands if model.table is not None else ()
        out.extend(("", line) for _, line in model.text.standings(
            players, scores, final.get("winners", []), standins))
        out.extend(("class:dim", line) for line in score_sheet_lines(model))
        if model.duplicate:
            out.append(("bold", tr.gettext("The same deals, seat by seat (before, now):")))
            out.extend(("", f"  {number}. {pair}") for number, pair in enumerate(
                model.text.duplicate_pairs(model.duplicate), 1))
        if model.may_play_again:
            out.append(("class:message", tr.gettext(
                "Press e to play the same deals again, everyone one seat on: then the "
                "standings compare who held the same cards.")))
            closing = tr.gettext("Press g to play again with the same players (o: other "
                                 "rules first), or Ctrl-Q to go back to the lobby.")
        elif model.again:
            closing = tr.gettext("The owner is choosing the rules for the next session; "
                                 "Ctrl-Q goes back to the lobby.")
        else:
            closing = tr.gettext("Press Ctrl-Q to leave.")
        out.append(("class:message", closing))
        return out
    summary = model.hand_summary or {}
    order = summary.get("order") or (list(view.finished) if view else [])
    roles = summary.get("roles") or (list(view.roles or ()) if view else [])
    scores = summary.get("scores") or (list(view.scores) if view else [])
    out.append(("bold", tr.gettext("Hand {number} is over. Finishing order:").format(
        number=summary.get("hand", view.hand_number if view else 0))))
    out.extend(("", line) for _, line in model.text.hand_result(
        players, order, roles, scores, model.rules, model.sent_down))
    out.extend(("class:dim", line) for line in model.text.next_tax(players, order, model.rules))
    return out


def sent_down_note(model: TableModel, seat: int) -> str:
    """Why a seat of the hand's summary stands at the bottom though it may have gone
    out first (``forbidden_finish``, ``downfall``), or ""."""
    why = model.sent_down.get(seat)
    return " " + model.tr.gettext(SENT_DOWN[why]) if why in SENT_DOWN else ""


def hand_header(model: TableModel) -> Fragments:
    """What to do with the hand, the turn timer's bar when ours runs, and the legend
    of ``+`` when it fits."""
    out = hand_header_fragments(model)
    bar = timer_bar(model)
    if bar:
        out.append(("class:warning" if bar.endswith(TIMER_HURRY) else "class:turn", "  " + bar))
    if model.received_indices():
        legend = ("class:dim", "   " + (model.tr.gettext("+ received in the tax or a 7-pass")
                                        if model.gifted else
                                        model.tr.gettext("+ received in the tax")))
        if width_of("".join(f[1] for f in [*out, legend])) <= columns() - 1:
            out.append(legend)
    return fit_line(out, columns())


TIMER_CELLS = 10
TIMER_HURRY = "!"


def timer_bar(model: TableModel) -> str:
    """``▕██████░░░░▏ 18s`` while our move or tax runs against the turn timer ("!" at
    the end in its last fifth); "" otherwise."""
    view = model.view
    left = model.turn_seconds_left()
    ours = view is not None and (model.my_turn or (view.phase == "tax" and view.tax_owed))
    limit = model.table.turn_timer if model.table else 0
    if left is None or not ours or not limit:
        return ""
    full = round(TIMER_CELLS * left / limit)
    bar = f"▕{'█' * full}{'░' * (TIMER_CELLS - full)}▏ " + model.tr.gettext(
        "{seconds} s").format(seconds=left)
    return bar + (" " + TIMER_HURRY if left * 5 <= limit else "")


def hand_header_fragments(model: TableModel) -> Fragments:
    view, tr = model.view, model.tr
    if not view:
        return []
    if view.phase == "tax" and view.tax_owed:
        text = tr.ngettext(
            "Your hand: choose {n} card to give back, then Enter.",
            "Your hand: choose {n} cards to give back, then Enter.", view.tax_owed,
        ).format(n=view.tax_owed)
        return fit_line([("class:turn", text)], columns())
    choosing = model.choosing
    if choosing is not None and choosing.to is not None:  # a 7-pass
        name = view.players[choosing.to]
        text = tr.ngettext(
            "7-pass: choose {n} card to give to {name} (one per 7 you played), then Enter.",
            "7-pass: choose {n} cards to give to {name} (one per 7 you played), then Enter.",
            choosing.number,
        ).format(n=choosing.number, name=name)
        if width_of(text) > columns():   # a long name: without the reason's count
            text = tr.ngettext("7-pass: choose {n} card to give to {name}, then Enter.",
                               "7-pass: choose {n} cards to give to {name}, then Enter.",
                               choosing.number).format(n=choosing.number, name=name)
        return fit_line([("class:turn", text)], columns())
    if choosing is not None:  # a 10-discard
        text = tr.ngettext(
            "10-discard: choose {n} card to discard (one per 10 you played), then Enter.",
            "10-discard: choose {n} cards to discard (one per 10 you played), then Enter.",
            choosing.number,
        ).format(n=choosing.number)
        return fit_line([("class:turn", text)], columns())
    if model.my_turn and view.top is not None:   # following: what beats the pile
        return fit_line([("class:turn", to_beat_line(model, columns()))], columns())
    if model.my_turn:
        return [("class:turn", tr.gettext("Your turn! Select cards, Enter plays."))]
    if view.phase == "hand_over":
        if view.seat in view.ready:
            return [("bold", tr.gettext("Waiting for the others to be ready."))]
        return [("class:turn", tr.gettext("Press Enter when you are ready for the next hand."))]
    if view.seat is None:
        return [("bold", tr.gettext("You are watching this table."))]
    return [("bold", tr.gettext("Your hand"))]


def to_beat_line(model: TableModel, width: int) -> str:
    """What beats the pile, whole where it fits in ``width``, else without the rule that
    turned the order (the title names it), then without "or pass" (the key line has p)."""
    view = model.view
    assert view is not None and view.top is not None
    line = ""
    for order_note, can_pass in ((True, model.can(Pass)), (False, model.can(Pass)),
                                 (False, False)):
        line = model.text.to_beat(view.top, model.rules, view.reversed, view.back,
                                  view.lock, can_pass, order_note)
        if width_of(line) <= width:
            break
    return line


def hand_area(model: TableModel, on_click: Any) -> Fragments:
    cards = model.hand_cards()
    if not cards and model.summary_shown:     # room for the summary instead
        return []
    if not cards:
        return [("class:dim", model.tr.gettext("(no cards)"))]
    if big_cards():
        return boxed_hand_fragments(cards, model.selected, model.cursor, columns() - 1,
                                    model.text, on_click=on_click,
                                    received=model.received_indices())
    return hand_fragments(cards, model.selected, model.cursor, columns() - 1, model.text,
                          on_click=on_click, received=model.received_indices(),
                          playable=model.playable_indices())


def big_cards() -> bool:
    """Boxed cards when the terminal has room for them (e.g. 200x50)."""
    try:
        size = get_app().output.get_size()
    except Exception:  # noqa: BLE001 - no running app
        return False
    return size.rows >= 40 and size.columns >= 100


def editor_fragments(editor: LineEdit) -> Fragments:
    text = editor.shown()
    if editor.suggested:   # typing replaces it
        return [("bold", editor.label + " "), ("class:menu.selected", text[:-1]), ("", text[-1:])]
    return [("bold", editor.label + " "), ("", text)]


def footer_fragments(editor: LineEdit | None, warning: str | None,
                     idle: Fragments) -> Fragments:
    """A screen's bottom line: the field being typed, else a warning, else ``idle``."""
    if editor is not None:
        return editor_fragments(editor)
    if warning:
        return [("class:warning", warning)]
    return idle


def hand_height(model: TableModel) -> int:
    count = len(model.hand_cards())
    if not count and model.summary_shown:
        return 0
    if big_cards():
        return max(1, BOX_LINES * -(-count // max(1, (columns() - 1) // BOX_SLOT)))
    per_row = max(1, (columns() - 1) // SLOT)
    return max(1, 2 * -(-count // per_row))


def message_fragments(model: TableModel, editor: LineEdit | None,
                      on_declare: Any = None) -> Fragments:
    """The message line(s), wrapped between words to the screen's width (the values a
    wild joker may stand for, each clickable, while its player chooses)."""
    width = columns() - 1
    if editor is not None:
        return field_fragments(editor, width)
    if model.declaring is not None:
        return declaration_fragments(model, on_declare)
    out: Fragments = []
    for style, text, *rest in message_parts(model, editor):
        lines = wrap(text, width) if not rest else [text]
        out.append((style, "\n".join(lines), *rest))
    return out


def declaration_fragments(model: TableModel, on_declare: Any) -> Fragments:
    """"The joker stands for: [7♣] 7♦ 7♥", the one under the cursor marked; a click on one
    plays it."""
    options = model.declaring or []
    out: Fragments = [("class:turn", model.tr.gettext("The joker stands for:"))]
    for index, declared in enumerate(options):
        chosen = index == model.declare_index
        label = " ".join(model.text.card(card) for card in declared)
        style = "class:menu.selected" if chosen else ""
        shown = f"[{label}]" if chosen else f" {label} "
        fragment: tuple[Any, ...] = (style, shown)
        if on_declare is not None:
            fragment = (style, shown, _declare_handler(on_declare, index))
        out.extend([("", " "), fragment])
    return out


def _declare_handler(on_declare: Any, index: int) -> Any:
    from prompt_toolkit.mouse_events import MouseEventType

    def handler(event: Any) -> None:
        if event.event_type == MouseEventType.MOUSE_UP:
            on_declare(index)

    return handler


def field_fragments(editor: LineEdit, width: int) -> Fragments:
    """A text field in ``width``: its label and text on one line, or when too long the
    label (abbreviated) above the end of the text being typed."""
    out = editor_fragments(editor)
    if width_of("".join(f[1] for f in out)) <= width:
        return out
    tail = "".join(f[1] for f in out[1:])
    return [("bold", shorten(editor.label, width) + "\n"),
            ("class:menu.selected" if editor.suggested else "", tail[-width:])]


def message_height(model: TableModel, editor: LineEdit | None) -> int:
    text = "".join(f[1] for f in message_fragments(model, editor))
    if not text and model.summary_shown:      # its room goes to the summary
        return 0
    return max(1, min(3, text.count("\n") + 1))


def message_parts(model: TableModel, editor: LineEdit | None) -> Fragments:
    if editor is not None:
        return editor_fragments(editor)
    if model.leave_asked:
        return [("class:message", leave_question(model))]
    if model.seat_request is not None:
        name = model.table.players[model.seat_request] if model.table else "?"
        askers = model.table.late_askers if model.table else ()
        knocker = askers[model.seat_request] if model.seat_request < len(askers) else None
        if knocker and model.table and model.table.players[model.seat_request] is None:
            return [("class:turn", model.tr.gettext(
                "{name} wants to join: y let them in · n refuse").format(name=knocker))]
        if model.seat_request < len(askers) and askers[model.seat_request]:
            return [("class:turn", model.tr.gettext(
                "{name} arrived late and asks for the seat of {seat}: y give it · n refuse"
            ).format(name=askers[model.seat_request], seat=name))]
        return [("class:turn", model.tr.gettext(
            "{name} asks for their seat from another device: y give it · n refuse").format(
                name=name))]
    if model.message:
        return [("class:message", model.message)]
    if model.lesson is not None:            # Learn to play: what to do now, and why
        return [("class:turn", model.lesson())]
    hint = model.selection_hint()
    if hint:
        return [("class:dim", hint)]
    tip = rank_key_tip(model)
    return [("class:dim", tip)] if tip else []


TIP_HANDS = 2  # the first hands teach the rank keys


def rank_key_tip(model: TableModel) -> str:
    """In the first hands, at our turn with nothing selected: the rank key of the lowest
    card we may play ("Tip: 5 selects your 5 cards…"), or ""."""
    view = model.view
    if view is None or view.hand_number > TIP_HANDS or not model.my_turn or model.selected \
            or model.choosing is not None:
        return ""
    plays = [a for a in model.legal_of(Play) if isinstance(a, Play)]
    if not plays:
        return ""
    low = min(plays, key=lambda play: model.strength(play.cards[0])).cards[0]
    key = next((key for key, symbol in RANK_KEYS.items() if symbol == low.rank.symbol), "")
    if low.rank.symbol in ("J", "Q", "K", "A", "JK"):
        key = model.text.rank(low.rank).lower() if low.suit is not None else "x"
    return model.tr.gettext(RANK_KEY_TIP).format(key=key, rank=model.text.rank(low.rank))


def leave_question(model: TableModel) -> str:
    tr = model.tr
    if model.hosted_here:
        return tr.gettext("Close this table and go back to the lobby? y yes · Esc no")
    if model.owner:
        return tr.gettext("a step away · l leave for good · e end the session for everyone · "
                          "Esc stay")
    return tr.gettext("a step away (a bot plays, your seat waits) · "
                      "l leave for good · Esc stay")


def rank_letters(model: TableModel) -> str:
    """The corner letters of the cards, which are also the keys that select them:
    ``J Q K A``, in Dutch ``B V H A``."""
    return " ".join(model.text.rank(symbol) for symbol in ("J", "Q", "K", "A"))


def keys_fragments(model: TableModel) -> Fragments:
    """The key hints that fit the width; the least needed go first, ``? help`` stays."""
    tr = model.tr
    phase = model.phase
    view = model.view
    last = tr.gettext("? help")
    if model.declaring is not None:      # what the selected joker stands for
        return key_line([tr.gettext("←→ choose what the joker is"), tr.gettext("Enter play"),
                         tr.gettext("Esc back")], columns() - 1)
    if view is None:     # the waiting room, or a table that refused us: no game keys
        hints = [tr.gettext("s start now"), tr.gettext("o change the rules")] \
            if model.owner and model.status == "connected" else []
        if model.web_url and model.status == "connected" and not qr_beside(model):
            hints.append(tr.gettext("u QR code"))
        hints.append(tr.gettext("Esc back to the lobby"))
        last = ""
    elif view.seat is None or phase == "session_over" or (
            phase in ("play", "tax") and not view.hand):   # watching, over, or out
        hints = [tr.gettext("PgUp PgDn log"), tr.gettext("t chat"), tr.gettext("Ctrl-Q quit")]
        if model.may_play_again:     # chat gives way first, then the log
            return key_line([tr.gettext("g play again"), *hints, last], columns() - 1,
                            drop=(2, 1))
    elif phase == "hand_over":
        hints = [tr.gettext("Enter ready"), tr.gettext("d decree"), tr.gettext("t chat"),
                 tr.gettext("Ctrl-Q quit")]
        if view.seat in view.ready:
            hints.pop(0)
        if not model.can(Decree):
            hints.remove(tr.gettext("d decree"))
    elif phase == "tax" and not view.tax_owed:
        hints = [tr.gettext("←→ move"), tr.gettext("Ctrl-Q quit")]      # nothing to give back
    elif phase == "tax":
        hints = [tr.gettext("←→ move"), tr.gettext("Space select"),
                 tr.gettext("Enter give back"), tr.gettext("Ctrl-Q quit")]
    elif model.choosing is not None:  # a 7-pass or 10-discard
        hints = [tr.gettext("←→ move"), tr.gettext("Space select"),
                 tr.gettext("Enter give") if model.choosing.to is not None
                 else tr.gettext("Enter discard"), tr.gettext("Ctrl-Q quit")]
    else:
        hints = [tr.gettext("←→ Space select"),
                 tr.gettext("3-9 0 {letters} 2 ranks").format(letters=rank_letters(model)),
                 tr.gettext("l lowest"), tr.gettext("p pass"), tr.gettext("Enter play"), last]
        if model.hints_allowed:
            hints.insert(-1, tr.gettext(HINT_KEY_LABEL))
        # "l lowest" gives way first, then the arrows (any player tries them unasked), then
        # the hint key (h; Dutch w: no one guesses it); the rank keys, pass, play and help
        # stay at 80 columns in every language
        return key_line(hints, columns() - 1, drop=(2, 0, 3) if model.hints_allowed else (2, 0))
    return key_line([*hints, last] if last else hints, columns() - 1)


def key_line(hints: list[str], width: int, drop: tuple[int, ...] = ()) -> Fragments:
    """The hints that fit ``width``: those at the indices in ``drop`` go first (in that
    order), then the earliest; the last one stays."""
    out = list(hints)
    for index in drop:
        if width_of(" · ".join(out)) <= width:
            break
        out.pop(index)
    while len(out) > 1 and width_of(" · ".join(out)) > width:
        out.pop(0)
    return [("class:keys", shorten(" · ".join(out), width))]


def help_lines(model: TableModel) -> list[str]:
    tr = model.tr
    lines = [
        tr.gettext("Keys"),
        tr.gettext("  ← →                      move between your cards"),
        tr.gettext("  Space                    select or unselect a card"),
        tr.gettext("  ↑ / ↓                    raise (select) or lower the card"),
        tr.gettext("  3-9, 0 or 1 (ten), {letters} 2, X (joker)   select a rank").format(
            letters=rank_letters(model)),
        *([tr.gettext("  J Q K select the jack, queen and king too")]
          if rank_letters(model) != "J Q K A" else []),
        tr.gettext("  l                        select the lowest legal set (again: play it)"),
        tr.gettext("  Enter                    play the selection / give back / give / "
                   "discard / ready"),
        *([tr.gettext("  Enter with a joker       choose what it stands for (←→, Enter, "
                      "a click; Esc back)")] if model.rules.joker_mode == "wild" else []),
        tr.gettext("  p                        pass"),
        *([tr.gettext("  {key}                        a hint: what a bot would play, and why "
                      "(again: the next idea)").format(key=model.text.hint_key())]
          if model.hints_allowed else []),
        tr.gettext("  c or Esc                 clear the selection"),
        tr.gettext("  d                        write the President's decree"),
        tr.gettext("  t                        say something to the table (1-4: quick reactions)"),
        tr.gettext("  mouse                    click a card to select it"),
        tr.gettext("  PageUp / PageDown        scroll the log of the hand"),
        tr.gettext("  ?                        this help (↑↓ scroll, Esc close)"),
        tr.gettext("  Ctrl-Q                   leave the table"),
        *([tr.gettext("  g                        at the end of the session: play again, "
                      "the same players"),
           tr.gettext("  e                        ... the same deals, everyone one seat on"),
           tr.gettext("  o                        ... other rules first")]
          if model.owner else []),
        "",
        tr.gettext("House rules of this table"),
        tr.gettext("  (the rules that are off are not listed)"),
    ]
    for row in model.text.rule_rows(model.rules):
        if not row.in_force:
            continue
        lines.append(f"  {row.name}: {row.value}")
        if row.explanation:
            lines.append(f"      {row.explanation}")
    view = model.view
    if view:
        lines.append("")
        lines.append(tr.gettext("Role titles at this table"))
        for role in roles_for_places(len(view.players)):
            lines.append("  " + model.text.role_title_explained(role.value,
                                                                model.rules.title_set))
    return lines


def rule_scroll(model: TableModel, width: int) -> int:
    """The help's first line to show: the explanation of the house rule the last special
    event showed at work (``TableModel.last_rule``), else the top."""
    if model.last_rule is None:
        return 0
    head = f"  {model.text.rule_name(model.last_rule)}: "
    lines = [part for line in help_lines(model) for part in wrap(line, width)]
    return next((i for i, line in enumerate(lines) if line.startswith(head)), 0)


class HelpState:
    def __init__(self) -> None:
        self.scroll = 0


def help_fragments(model: TableModel, state: HelpState, port: Viewport) -> Fragments:
    lines = [part for line in help_lines(model) for part in wrap(line, port.width)]
    state.scroll = max(0, min(state.scroll, len(lines) - port.height))
    return [("class:help", "\n".join(lines[state.scroll: state.scroll + port.height]))]


def table_container(model: TableModel, help_state: HelpState, on_click: Any,
                    get_editor: Any, on_declare: Any = None) -> FloatContainer:
    body = HSplit([
        Window(FormattedTextControl(lambda: title_fragments(model)), height=1),
        Window(FormattedTextControl(lambda: players_fragments(model)),
               height=lambda: Dimension.exact(players_height(model))),
        Window(FormattedTextControl(lambda: trick_fragments(model)),
               height=lambda: Dimension(min=0, max=0) if not trick_fragments(model)
               else Dimension(min=1, max=2)),
        Window(height=1, char="─", style="class:dim"),
        Window(SizedControl(lambda port: log_fragments(model, port)),
               height=Dimension(min=0, weight=1)),
        Window(height=1, char="─", style="class:dim"),
        Window(FormattedTextControl(lambda: hand_header(model)),
               height=lambda: Dimension.exact(0 if hand_height(model) == 0
                                              and model.phase == "session_over" else 1)),
        Window(FormattedTextControl(lambda: hand_area(model, on_click)),
               height=lambda: Dimension.exact(hand_height(model))),
        Window(FormattedTextControl(lambda: message_fragments(model, get_editor(), on_declare)),
               height=lambda: Dimension.exact(message_height(model, get_editor()))),
        Window(FormattedTextControl(lambda: keys_fragments(model)), height=1),
    ])
    help_window = Frame(
        Window(SizedControl(lambda port: help_fragments(model, help_state, port))),
        title=lambda: model.tr.gettext("Help: Esc closes"), style="class:help")
    return FloatContainer(
        content=body,
        floats=[Float(
            ConditionalContainer(help_window, filter=Condition(lambda: model.help_open)),
            top=1, bottom=1, left=2, right=2,
        )],
    )
