"""``president host``: a headless table that logs to the terminal.

It listens on ``--interface`` addresses (every interface when none is given),
prints the ``address:port`` to join, serves the page for phones and browsers
(``--web-port``, unless ``--no-web``) and prints its URL with a QR code, advertises
the table over zeroconf unless ``--no-advertise`` (the TXT record follows the seats
as they fill, and carries the page's URL as ``web``), journals
every accepted action unless ``--no-journal`` (``--resume`` restores the last
evening's unfinished tables) and exits when the session is over. The first Ctrl-C ends the
session after the current hand; a second one (or SIGTERM) stops at once. On a
terminal the host may also type ``start`` (bots fill the empty seats) or ``stop``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from president.bots import bot_levels
from president.cli.hosting import ENV_OWNER_TOKEN, ENV_PIN
from president.cli.settings import language_of
from president.cli.text import Text, text_for
from president.cli.trust import load_host_key
from president.cli.web import web_server
from president.cli.web.qr import qr_text
from president.errors import JournalError, NetError, PresidentError, RulesError
from president.net.discovery import format_address, reachable_addresses
from president.net.host import Host
from president.net.pake import short_fingerprint
from president.net.table import Table, TableOptions
from president.net.web import WebServer
from president.rules import check_player_count, rules_for

if TYPE_CHECKING:
    from president.net.journal import SessionRecord

# A table opened from the lobby runs as `president host` in the background; the lobby
# gives its PIN and its owner's seat token in the environment (cli.hosting) and reads
# where it listens from --ready-file.

class Printer:
    """Host log lines for a human, in the host's language: time, then what happened
    (the commands typed at the console, start/stop/give/refuse, stay as they are)."""

    def __init__(self, stream: TextIO | None = None, words: Text | None = None) -> None:
        self.stream = stream or sys.stdout
        self.words = words or text_for("en")
        self.tables: dict[str, Table] = {}

    def gettext(self, message: str) -> str:
        return str(self.words.tr.gettext(message))

    def say(self, text: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {text}", file=self.stream, flush=True)

    def __call__(self, what: str, params: dict[str, Any]) -> None:
        table = self.tables.get(params.get("table", ""))
        players = list(table.state.players) if table is not None and table.state else []

        _ = self.gettext

        def who(seat: int) -> str:
            return players[seat] if seat < len(players) else _("seat {seat}").format(seat=seat)

        text = {
            "table_open": lambda p: _("table '{name}' open, {seats} seats").format(**p),
            "joined": lambda p: _("{name} joined (seat {seat})").format(**p),
            "returned": lambda p: _("{name} is back (seat {seat})").format(**p),
            "left": lambda p: _("{name} left (seat {seat})").format(**p),
            "disconnected": lambda p: _("{name} lost the connection (seat {seat})").format(**p),
            "standin": lambda p: _("a bot plays for {name} (seat {seat})").format(**p),
            "seat_freed": lambda p: _("seat {seat} is free again").format(**p),
            "seat_request": lambda p: _(
                "{name} asks for seat {seat} without its token (another device?): "
                "type 'give {name}' or 'refuse {name}'").format(**p),
            "seat_answer": lambda p: (_("seat {seat}: given back") if p["give"]
                                      else _("seat {seat}: request refused")).format(**p),
            "seat_given": lambda p: _("{name} sits in seat {seat} again (new device)").format(**p),
            "end_requested": lambda p: _("the owner ends the session after this hand"),
            "play_again": lambda p: _(
                "the owner plays again: session {session} at this table").format(**p),
            "spectator": lambda p: _("{name} is watching").format(**p),
            "late_arrival": lambda p: _(
                "{name} takes seat {seat} (a bot's) from the next hand").format(**p),
            "late_request": lambda p: _(
                "{name} arrived late and asks for seat {seat}: type 'give {name}' or "
                "'refuse {name}'").format(**p),
            "refused": lambda p: _("refused a join: {reason}").format(
                reason=self.words.reason(p["code"], {})),
            "started": lambda p: _("session started: {players}").format(
                players=", ".join(p["players"])),
            "turn_timeout": lambda p: _("time is up for {name}").format(name=who(p["seat"])),
            "hand_end": lambda p: _("hand {hand} over: {order} · scores {scores}").format(
                hand=p["hand"], order=" > ".join(who(s) for s in p["order"]),
                scores=", ".join(f"{who(s)} {v}" for s, v in enumerate(p["scores"]))),
            "session_end": lambda p: _("session over; winner(s): {names}").format(
                names=", ".join(who(s) for s in p["winners"])),
            "table_closed": lambda p: _("table closed ({reason})").format(
                reason=self.words.reason(p["code"], {})),
        }.get(what)
        self.say(text(params) if text else f"{what} {params}")


def options_from_args(args: Any) -> TableOptions:
    preset_name, rules = rules_for(args.preset, args.rules)
    check_player_count(rules, args.players)
    levels = bot_levels(str(args.bots), args.level)
    if len(levels) > args.players:
        raise RulesError("bad_value", field="bots", value=args.bots,
                         allowed=[f"0..{args.players}"])
    return TableOptions(
        name=args.name, preset=preset_name, rules=rules, seats=args.players, bots=len(levels),
        pin=args.pin or os.environ.get(ENV_PIN) or None, seed=args.seed,
        turn_timer=args.turn_timer, grace=args.grace,
        bot_delay=args.bot_delay, ready_timeout=args.ready_timeout,
        timer_action=args.timer_action, bot_kind=args.level, bot_levels=levels,
        bot_budget=args.bot_budget / 1000,
        owner_token=os.environ.get(ENV_OWNER_TOKEN) or None,
        again_wait=getattr(args, "play_again", 0.0), hints=not getattr(args, "no_hints", False),
        late_arrivals=getattr(args, "late_arrivals", "take"),
    )


async def serve(args: Any, printer: Printer) -> int:
    _, words = printer.gettext, printer.words
    journal = hook = None
    if not args.no_journal:
        try:
            from president.net.journal import Journal
            from president.net.persist import TableJournal
            journal = Journal(args.journal)
        except NetError as error:
            printer.say(words.error(error) + " " + _(
                "Not starting (--no-journal plays without)."))
            return 2
        hook = TableJournal(journal)
    if args.resume:
        if journal is None:
            printer.say(_("--resume needs the journal"))
            return 2
        from president.net.persist import last_evening, remembered_port, resume_tables
        skipped: list[JournalError] = []
        older: list[SessionRecord] = []
        try:
            ids: set[int] | None = None
            if args.resume == "last":   # (a bare --resume) the last evening's tables
                unreadable: list[int] = []
                recent, older = last_evening(
                    journal.sessions(unfinished_only=True, unreadable=unreadable))
                ids = {record.id for record in recent} | set(unreadable)
            elif args.resume != "all":
                ids = {_session_id(args.resume)}
            tables = resume_tables(journal, hook, ids, skipped, pin=args.pin)
        except JournalError as error:
            printer.say(words.error(error))
            return 2
        for problem in skipped:
            printer.say(_("not resumed: {reason}").format(reason=words.error(problem)))
        for record in older:
            printer.say(_("not resumed, from another day: table '{table}' (last played {when}): "
                          "president host --resume {session}").format(
                table=record.table_name, session=record.id,
                when=datetime.fromtimestamp(record.updated).strftime("%Y-%m-%d %H:%M")))
        if not tables:
            printer.say(_("nothing to resume"))
            return 1
        port = args.port or remembered_port(journal)
        web_port = args.web_port or remembered_port(journal, "web_port")
        for table in tables:
            table.on_log = printer
    else:
        tables = [Table(options_from_args(args), journal=hook, on_log=printer)]
        port, web_port = args.port, args.web_port
    printer.tables = {table.options.table_id: table for table in tables}
    host = Host(tables, key=load_host_key())
    interfaces = args.interface or None
    try:
        port = await host.start(interfaces, port)
    except OSError as error:
        printer.say(_("cannot listen on port {port}: {detail}").format(
            port=port, detail=error.strerror))
        return 2
    if hook is not None:
        hook.host["port"] = port
    addresses = reachable_addresses(interfaces)
    key = short_fingerprint(host.key.fingerprint)
    for address in addresses:
        printer.say(_("join with: {command}").format(
            command=f"president join {format_address(address, port)} --key {key}"))
    printer.say(_("host key: {key} (players see it beside the table in their lobby)").format(
        key=short_fingerprint(host.key.fingerprint)))
    web = None if args.no_web else await _serve_web(
        host, interfaces, web_port, printer, None if args.no_journal else args.journal)
    urls = web.urls(addresses) if web is not None else []
    if web is not None and hook is not None:
        hook.host["web_port"] = web.port  # a phone's seat token is kept per page address
    for url in urls:
        printer.say(_("phones and browsers: {url}").format(url=url))
    owners = {t.options.owner_token for t in tables if t.options.owner_token}
    if urls and len(owners) == 1:  # the owner may sit at the table from a phone
        printer.say(_("the owner's page (keep it to yourself): {url}").format(
            url=f"{urls[0]}&owner={owners.pop()}"))
    if urls and printer.stream.isatty():
        print(qr_text(urls[0]), file=printer.stream, flush=True)
    advertised = {"key": host.key.fingerprint, **({"web": urls[0]} if urls else {})}
    advertisers = [] if args.no_advertise else await _advertise(tables, port, interfaces, printer,
                                                               advertised)
    if args.ready_file:
        _write_ready(args.ready_file, port=port, web_url=urls[0] if urls else None,
                     addresses=[format_address(a, port) for a in addresses],
                     advertised=bool(advertisers))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    interrupts = 0

    def interrupted() -> None:
        # First Ctrl-C: end the session after the current hand; second: stop at once
        # (with the journal, an unfinished table can be resumed).
        nonlocal interrupts
        interrupts += 1
        if interrupts > 1 or all(not table.started for table in tables):
            stop.set()
            return
        printer.say(_("ending the session after this hand (Ctrl-C again to stop now)"))
        for table in tables:
            table.request_stop()

    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGINT, interrupted)
    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    if sys.stdin is not None and sys.stdin.isatty():
        printer.say(_("type 'start' to fill the empty seats with bots and begin, 'stop' to end"))
        _console(sys.stdin, tables, printer, loop, interrupted)
    finished = asyncio.ensure_future(host.wait_finished())
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait({finished, stopping}, return_when=asyncio.FIRST_COMPLETED)
    if stop.is_set():
        printer.say(_("stopping"))
    for task in (finished, stopping):
        task.cancel()
    for advertiser in advertisers:
        with contextlib.suppress(Exception):
            await advertiser.stop()
    await host.stop()
    if web is not None:
        await web.stop()
    if journal is not None:
        journal.close()
    failed = [t for t in tables if t.close_code in ("journal_unwritable", "journal_locked")]
    for table in failed:
        printer.say(_("table '{name}' stopped: {reason} The session is not finished.").format(
            name=table.options.name, reason=words.reason(table.close_code or "")))
    return 3 if failed else 0


def _session_id(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise JournalError("no_such_session", id=text) from None


def _write_ready(path: str, **fields: Any) -> None:
    """Where the table listens, for the lobby that started this host (written whole:
    a reader never sees half of it)."""
    target = Path(path)
    partial = target.with_name(target.name + ".part")
    partial.write_text(json.dumps({"pid": os.getpid(), **fields}), encoding="utf-8")
    partial.replace(target)


# The page's port when none is asked for: the same from one table to the next (the page's
# address is its origin: the name and language a phone typed are kept per origin); another
# free port when it is taken.
WEB_PORT = 8026


async def _serve_web(host: Host, interfaces: list[str] | None, port: int,
                     printer: Printer, journal: str | None = None) -> WebServer | None:
    web = web_server(host, journal,   # (journal: where the evening's story is read)
                     language=printer.words.tr.language)
    if not port:  # one page address from table to table: phones keep their name, language
        with contextlib.suppress(OSError):
            await web.start(interfaces, WEB_PORT)
            if web.listening:
                return web
        await web.stop()
    try:
        await web.start(interfaces, port)
    except OSError as error:
        printer.say(printer.gettext(
            "cannot serve the web page on port {port}: {detail}; phones cannot join").format(
                port=port, detail=error.strerror))
        return None
    return web


def _console(stream: TextIO, tables: list[Table], printer: Printer,
             loop: asyncio.AbstractEventLoop, stop: Any) -> threading.Thread:
    """The host's own commands, typed on its terminal: start, stop."""
    def act(line: str) -> None:
        command = line.strip().lower()
        if command == "start":
            for table in tables:
                if not table.started:
                    table.request_start()
        elif command == "stop":
            stop()
        elif command.split(" ", 1)[0] in ("give", "refuse") and " " in command:
            verb, name = line.strip().split(" ", 1)
            if not any(table.request_seat_answer(name.strip(), verb.lower() == "give")
                       for table in tables):
                printer.say(printer.gettext("nobody asks for a seat named {name}").format(
                    name=repr(name.strip())))
        elif command:
            printer.say(printer.gettext("commands: start (bots fill the empty seats), stop, "
                                        "give NAME / refuse NAME (a seat asked for by name)"))

    def reading() -> None:
        for line in stream:
            loop.call_soon_threadsafe(act, line)

    thread = threading.Thread(target=reading, name="host-console", daemon=True)
    thread.start()
    return thread


async def _advertise(tables: list[Table], port: int, interfaces: list[str] | None,
                     printer: Printer, extra: dict[str, str] | None = None) -> list[Any]:
    try:
        from president.net.discovery import TableAdvertiser, follow, table_properties
    except ImportError:
        printer.say(printer.gettext("zeroconf discovery is not available: join by address"))
        return []
    advertisers = []
    for table in tables:
        try:
            advertiser = TableAdvertiser(table.options.name, port, list(interfaces or []),
                                         {**table_properties(table), **(extra or {})},
                                         interfaces)
            await advertiser.start()
        except Exception as error:  # multicast blocked, no interface...: joining by address
            detail = printer.words.error(error) if isinstance(error, PresidentError) else error
            printer.say(printer.gettext("cannot advertise the table ({detail}); join by address"
                                        ).format(detail=detail))
            continue
        follow(advertiser, table)
        advertisers.append(advertiser)
        printer.say(printer.gettext("advertised on the LAN as '{name}'").format(
            name=table.options.name))
    return advertisers


def run(args: Any) -> int:
    """``president host ...``; the exit code."""
    printer = Printer(words=text_for(language_of(args)))
    try:
        return asyncio.run(serve(args, printer))
    except PresidentError as error:
        printer.say(f"president host: {printer.words.error(error)}")
        return 2
    except KeyboardInterrupt:
        return 130
