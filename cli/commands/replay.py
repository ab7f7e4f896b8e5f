"""``president replay FILE``: check a hand history and summarise each hand."""

from __future__ import annotations

import argparse
import sys

from president.cli.text import text_for
from president.errors import HistoryError
from president.history import HandSummary, read_history_file, replay_history


def summary_line(summary: HandSummary, players: tuple[str, ...]) -> str:
    """``hand 3: 1. Ann (president, 5), 2. Bob (...)``: finishing order, role, score total."""
    places = ", ".join(
        f"{place}. {players[seat]} ({summary.roles[seat]}, {summary.scores[seat]})"
        for place, seat in enumerate(summary.order, 1)
    )
    return f"hand {summary.hand}: {places}"


def run(args: argparse.Namespace) -> int:
    try:
        state, summaries = replay_history(read_history_file(args.file))
    except HistoryError as error:
        words = text_for(getattr(args, "lang", None))
        print(f"president replay: {args.file}: {words.error(error)}", file=sys.stderr)
        return 1
    for summary in summaries:
        print(summary_line(summary, state.players))
    winners = ", ".join(state.players[seat] for seat in state.winners)
    scores = ", ".join(f"{name} {score}" for name, score in zip(state.players, state.scores,
                                                                 strict=True))
    print(f"session over after {len(summaries)} hands: {scores}; winners: {winners}")
    print(f"history OK: {args.file}")
    return 0
