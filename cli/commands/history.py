"""``president history``: the sessions the host kept, and their export as a hand history.

The export holds every seat's cards: it is for the host only (it reads the
host's own journal file and is never sent over the network).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
from collections.abc import Iterator
from datetime import datetime
from typing import Any, TextIO

from president.cli.evening import evening, evening_story, story_lines, tonight
from president.cli.settings import language_of
from president.cli.text import Text, text_for
from president.errors import PresidentError
from president.history import history_lines
from president.net.journal import Journal, JournalError, SessionRecord, replay
from president.rules import HouseRules


def export_lines(record: SessionRecord, actions: list[dict[str, Any]]) -> Iterator[str]:
    """The JSON Lines hand history of a journaled session, replayed through the engine."""
    events = (event for _, happened in replay(record, actions) for event in happened)
    return history_lines(HouseRules.from_dict(record.rules), record.preset, record.players,
                         record.seed, events)


def format_record(record: SessionRecord, words: Text | None = None) -> str:
    tr = (words or text_for(None)).tr
    when = datetime.fromtimestamp(record.created).strftime("%Y-%m-%d %H:%M")
    status = tr.gettext("finished") if record.finished else tr.gettext("unfinished")
    players = ", ".join(
        f"{name} {score:+d}" if record.scores else name
        for name, score in zip(record.players, record.scores or [0] * len(record.players),
                               strict=True)
    )
    return f"{record.id:>4}  {when}  {record.table_name}  [{status}]  {players}"


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout       # looked up now: a redirected stdout is honoured
    words = text_for(language_of(args))
    try:
        journal = Journal(args.journal, read_only=True)
    except JournalError as error:
        print(f"president history: {words.error(error)}", file=sys.stderr)
        return 2
    try:
        if args.action == "evening":
            for line in evening_story(journal, words, shutil.get_terminal_size().columns - 1):
                print(line, file=out)
            return 0
        if args.action == "list":
            unreadable: list[int] = []
            records = journal.sessions(unreadable=unreadable)
            if not records and not unreadable:
                print(words.tr.gettext("no sessions yet"), file=out)
            for record in records:
                print(format_record(record, words), file=out)
            if records:      # then the last evening's story, if it can be told
                with contextlib.suppress(PresidentError):
                    story = story_lines(evening(tonight(records), journal.actions), words,
                                        shutil.get_terminal_size().columns - 1)
                    print("", *story, sep="\n", file=out)
            for session in unreadable:
                problem = JournalError("bad_row", id=session)
                print(f"president history: {words.error(problem)}", file=sys.stderr)
            return 1 if unreadable else 0
        if args.id is None or not args.id.isdigit():
            print("president history export: " + words.tr.gettext(
                "give the session ID (see 'president history')"), file=sys.stderr)
            return 2
        record = journal.session(int(args.id))
        lines = export_lines(record, journal.actions(record.id))
        if args.output:
            with open(args.output, "w", encoding="utf-8", newline="\n") as handle:
                handle.writelines(line + "\n" for line in lines)
        else:
            try:
                out.writelines(line + "\n" for line in lines)
                out.flush()
            except BrokenPipeError:  # e.g. piped into head: not an error
                with contextlib.suppress(OSError):
                    os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
        return 0
    except JournalError as error:
        print(f"president history: {words.error(error)}", file=sys.stderr)
        return 1
    except PresidentError as error:
        print(f"president history: {words.error(error)}", file=sys.stderr)
        return 1
    finally:
        journal.close()
