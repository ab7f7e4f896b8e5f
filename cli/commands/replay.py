"""``president replay FILE``: check a hand history and summarise each hand."""

from __future__ import annotations

import argparse
import sys

from president.cli.settings import language_of
from president.cli.text import Text, text_for
from president.errors import HistoryError
from president.history import HandSummary, read_history_file, replay_history


def summary_line(summary: HandSummary, players: tuple[str, ...], words: Text | None = None,
                 title_set: str = "classic") -> str:
    """``hand 3: 1. Ann (President, 5), 2. Bob (...)``: finishing order, role, score total."""
    words = words or text_for(None)
    places = ", ".join(
        words.tr.gettext("{place}. {name} ({title}, {score})").format(
            place=place, name=players[seat], score=summary.scores[seat],
            title=words.role_title(summary.roles[seat], title_set))
        for place, seat in enumerate(summary.order, 1)
    )
    return str(words.tr.gettext("hand {number}: {places}").format(
        number=summary.hand, places=places))


def run(args: argparse.Namespace) -> int:
    words = text_for(language_of(args))
    tr = words.tr
    try:
        state, summaries = replay_history(read_history_file(args.file))
    except HistoryError as error:
        print(f"president replay: {args.file}: {words.error(error)}", file=sys.stderr)
        return 1
    for summary in summaries:
        print(summary_line(summary, state.players, words, state.rules.title_set))
    winners = ", ".join(state.players[seat] for seat in state.winners)
    scores = ", ".join(f"{name} {score}" for name, score in zip(state.players, state.scores,
                                                                 strict=True))
    print(tr.ngettext("session over after {n} hand: {scores}; winners: {winners}",
                      "session over after {n} hands: {scores}; winners: {winners}",
                      len(summaries)).format(n=len(summaries), scores=scores, winners=winners))
    print(tr.gettext("history OK: {file}").format(file=args.file))
    return 0
