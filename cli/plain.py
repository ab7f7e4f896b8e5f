"""A plain line interface over ``client.Client`` (``president play --plain``).

It prints what happens one line at a time and reads commands:
``play 7C 7D`` (or ``p``), ``pass``, ``give 3C 4D`` (the tax, a 7-pass), ``discard 9H``
(a 10-discard), ``ready``, ``decree TEXT``,
``start``, ``say TEXT``, ``show``, ``help``, ``quit``. What happens and why an action
is refused, the table summary and the help are told in the player's language
(``president.cli.text``); the command words and card codes stay as typed (a fallback
for terminals the full-screen client cannot drive).

``president play --plain`` (``cli/commands/play.py``) runs it at a local table.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from president.actions import Action, Decree, Discard, Give, GiveBack, Pass, Play, Ready
from president.cards import format_cards, parse_cards
from president.cli.i18n import N_
from president.cli.text import Text, text_for
from president.errors import NetError, NotationError
from president.net.client import Client, ClientEvent, StatusChanged
from president.net.protocol import CHAT_MAX
from president.net.session import ChatReceived, GameEvent, Joined, TableChanged, ViewChanged
from president.view import View

LOCAL = "127.0.0.1"
Out = Callable[[str], None]

# The command words (play, pass, give, ...) and card codes are typed as they are.
HELP = N_("commands: play CARDS (p), pass, give CARDS, discard CARDS, ready, decree TEXT, "
          "start, say TEXT, show, help, quit    cards: 3C 10H QS AD 2S JK")

HELP_WILD = N_("a wild joker: play 5C 5D JK as 5H (the joker is the 5 of hearts)")


STATUS_WORDS = {"reconnecting": N_("Connection lost: reconnecting…"),
                "connecting": N_("Connecting…"), "closed": N_("Disconnected")}


def _name(words: Text, players: Sequence[str | None], seat: int | None) -> str:
    if seat is None:
        return "?"
    name = players[seat] if seat < len(players) else None
    return str(words.tr.gettext("{name} (seat {seat})").format(name=name or "?", seat=seat))


def describe_view(view: View, me: int | None, words: Text | None = None) -> list[str]:
    """The table as a few lines: hand, pile, turn, scores, what you may do."""
    words = words or text_for(None)
    tr = words.tr
    lines = [tr.gettext("-- hand {number} · {phase}").format(
        number=view.hand_number, phase=words.phase(view.phase))
             + (" · " + tr.gettext("REVOLUTION: order reversed") if view.reversed else "")]
    counts = ", ".join(f"{name}: {count}" for name, count in zip(
        view.players, view.counts, strict=False))
    lines.append("   " + tr.gettext("cards held: {counts}").format(counts=counts))
    if view.pile:
        seat, cards, declared = view.pile[-1]
        lines.append("   " + tr.gettext("pile: {cards} (by {name})").format(
            cards=words.played(cards, declared) if declared else format_cards(cards),
            name=view.players[seat])
            + (" · " + words.lock(view.lock) if view.lock is not None else ""))
    elif view.phase == "play":
        lines.append("   " + tr.gettext("pile: empty"))
    if view.decree:
        lines.append("   " + tr.gettext("Decree:") + " " + view.decree)
    if me is not None:
        lines.append("   " + tr.gettext("your hand: {cards}").format(
            cards=format_cards(view.hand) or tr.gettext("(no cards)")))
        if view.tax_owed:
            lines.append("   " + tr.ngettext(
                "give back {n} card: give CARDS", "give back {n} cards: give CARDS",
                view.tax_owed).format(n=view.tax_owed))
        choosing = view.choosing
        if choosing is not None and choosing.seat == me and choosing.to is not None:
            lines.append("   " + tr.ngettext(
                "7-pass: give {n} card to {name}: give CARDS",
                "7-pass: give {n} cards to {name}: give CARDS",
                choosing.number).format(n=choosing.number, name=view.players[choosing.to]))
        elif choosing is not None and choosing.seat == me:
            lines.append("   " + tr.ngettext(
                "10-discard: discard {n} card: discard CARDS",
                "10-discard: discard {n} cards: discard CARDS",
                choosing.number).format(n=choosing.number))
    if view.turn is not None:
        whose = tr.gettext("YOUR TURN") if view.turn == me else tr.gettext(
            "turn: {name}").format(name=view.players[view.turn])
        lines.append(f"   {whose}")
    if view.phase in ("hand_over", "session_over"):
        lines.append("   " + tr.gettext("scores: {scores}").format(scores=scores_text(view)))
        if view.phase == "hand_over" and me is not None and me not in view.ready:
            lines.append("   " + tr.gettext("type 'ready' for the next hand"))
    return lines


def scores_text(view: View) -> str:
    return ", ".join(f"{n}: {s}" for n, s in zip(view.players, view.scores, strict=False))


Command = Action | str | None


def parse_command(line: str, seat: int = 0, giving: bool = False) -> Command:
    """An action of ``seat``, a local command word (show, help, quit, start, say:TEXT) or
    None; ``give`` is a 7-pass while ``giving`` (the seat's view says one is due), else
    the tax's give-back. Raises ``NotationError`` for cards that are not cards."""
    word, _, rest = line.strip().partition(" ")
    word, rest = word.lower(), rest.strip()
    if word in ("play", "p") and rest:
        cards, _, named = rest.upper().partition(" AS ")  # a wild joker's value (HELP_WILD)
        return Play(seat, tuple(sorted(parse_cards(cards))), tuple(sorted(parse_cards(named))))
    if word == "pass":
        return Pass(seat)
    if word in ("give", "give_back") and rest:
        kind = Give if giving and word == "give" else GiveBack
        return kind(seat, tuple(sorted(parse_cards(rest.upper()))))
    if word == "discard" and rest:
        return Discard(seat, tuple(sorted(parse_cards(rest.upper()))))
    if word == "ready":
        return Ready(seat)
    if word == "decree" and rest:
        return Decree(seat, rest)
    if word in ("say", "chat") and rest:
        return f"say:{rest}"
    if word in ("show", "help", "quit", "exit", "start", "q"):
        return {"exit": "quit", "q": "quit"}.get(word, word)
    return None


async def stdin_lines() -> AsyncIterator[str]:
    """Lines from standard input without blocking the event loop."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    except (ValueError, OSError, NotImplementedError):
        while True:  # e.g. stdin is a regular file
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                return
            yield line
    while True:
        raw = await reader.readline()
        if not raw:
            return
        yield raw.decode("utf-8", "replace")


async def play_plain(client: Client, lines: AsyncIterator[str] | None = None,
                     out: Out = print) -> int:
    """Print the game and run typed commands until quit, session end or a final drop.

    ``client`` may be connected already or not yet (then it is connected here).
    """
    words = text_for(client.language)
    tr = words.tr
    shown: tuple[Any, ...] = ()
    lobby = ""
    greeted = False

    def update(event: ClientEvent) -> None:
        nonlocal shown, lobby, greeted
        if isinstance(event, ViewChanged):
            view = event.view
            mine = view.turn == client.seat and client.seat is not None
            key = (view.phase, view.hand_number, view.tax_owed, mine,
                   len(view.pile) if mine else 0)
            if key != shown and (mine or key[:3] != shown[:3]):
                for text in describe_view(view, client.seat, words):
                    out(text)
            shown = key
        elif isinstance(event, GameEvent):
            if event.event.code != "ready":
                out("   " + words.event(event.event, players(), client.seat, event.by))
        elif isinstance(event, ChatReceived):
            out(f"<{event.name}> {words.chat_text(event.text)}")
        elif isinstance(event, (Joined, TableChanged)):
            table = event.table
            if not greeted:
                greeted = True
                out(tr.gettext("-- you are {name} at '{table}'.").format(
                    name=_name(words, table.players, client.seat), table=table.name)
                    + " " + tr.gettext(HELP))
            text = tr.gettext("-- {taken}/{total} seats taken (type 'start' to fill the rest "
                              "with bots)").format(taken=table.taken, total=table.seats)
            if not table.started and table.taken < table.seats and text != lobby:
                out(text)
                lobby = text
        elif isinstance(event, StatusChanged) and event.status != "connected":
            said = STATUS_WORDS.get(str(event.status))
            out("-- " + (words.reason(event.code, {}) if event.code
                         else tr.gettext(said) if said else str(event.status)))

    def players() -> list[str]:
        if client.view is not None:
            return list(client.view.players)
        return [name or "?" for name in (client.table.players if client.table else ())]

    client.on_event = update
    if client.status == "new":  # not connected yet: connect now, so no event is missed
        await client.connect()
    elif client.table is not None:
        update(TableChanged(client.table))
        if client.view is not None:
            for text in describe_view(client.view, client.seat, words):
                out(text)
    source = lines if lines is not None else stdin_lines()
    reading = asyncio.ensure_future(_commands(client, source, out, words))
    closed = asyncio.ensure_future(client.wait_for(lambda c: c.status == "closed", 1e9))
    await asyncio.wait({reading, closed}, return_when=asyncio.FIRST_COMPLETED)
    for task in (reading, closed):
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    if client.view is not None and client.view.phase == "session_over":
        out(tr.gettext("-- final scores: {scores}").format(scores=scores_text(client.view)))
    await client.close()
    return 0


async def _commands(client: Client, lines: AsyncIterator[str], out: Out, words: Text) -> None:
    async for line in lines:
        if not line.strip():
            continue
        try:
            choosing = client.view.choosing if client.view is not None else None
            command = parse_command(line, client.seat or 0, giving=choosing is not None
                                    and choosing.seat == client.seat and choosing.kind == "give")
        except NotationError:
            out(f"!! {words.reason('bad_cards')}")
            continue
        if command is None:
            out("?? " + words.tr.gettext(HELP))
            continue
        if command == "quit":
            return
        if command == "help":
            out(words.tr.gettext(HELP))
            out(words.tr.gettext(HELP_WILD))
            continue
        if command == "show":
            for text in describe_view(client.view, client.seat, words) if client.view \
                    else [words.tr.gettext("The game has not started yet.")]:
                out(text)
            continue
        if isinstance(command, str) and command.startswith("say:"):
            try:
                await client.chat(command[4:][:CHAT_MAX])
            except NetError as error:
                out(f"!! {words.error(error)}")
            continue
        reply = await client.act(None if command == "start" else command)  # type: ignore[arg-type]
        if not reply.accepted:
            out(f"!! {words.reason(reply.code or 'refused', reply.params)}")
            if reply.code in ("joker_undeclared", "bad_declaration"):
                out(words.tr.gettext(HELP_WILD))
