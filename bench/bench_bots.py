"""Bot benchmark (not a test): head-to-head matches between two bot kinds.

    nice -n 10 python bench/bench_bots.py --match hard:medium --players 4,6,8 \\
        --preset classic,bga,daihinmin_local --sessions 200 --hands 3 [--budget-ms 200] [--jobs 1]

A match pairs two kinds of ``president.bots.BOT_KINDS`` (easy is ``heuristic``) or ``mc``,
the plain Monte-Carlo baseline of bench/mc_baseline.py at the same budget: ``--match
hard:mc --budget-ms 100`` is the match the hard bot must win (issue 30).

Each setting (players x preset x match) plays ``--sessions`` sessions. Half the seats
hold one kind, half the other (an odd seat count gives the extra seat to each kind in
turn). Seats are rotated: sessions come in pairs that deal the same cards (same
session seed) with the kinds swapped seat for seat, and the pairs walk through every
way of placing the kinds around the table. Per kind it reports, with 95 % confidence
intervals over sessions (each session's average is one sample):

- the mean finishing place (1 = President), per hand and seat;
- the share of hands won as President, per seat (1 / players when bots are equal);
- the mean score at the end of the session (the preset's scoring);

and the CPU time per move (``time.process_time`` around ``choose``, moves with more
than one option only): median, p99, max and the total.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace

from mc_baseline import MonteCarloBot

from president.actions import Decree
from president.bots import BOT_KINDS, Bot, make_bot
from president.engine import apply, legal_actions, new_session, to_act
from president.rules import SessionEnd, preset
from president.seeds import bot_seed
from president.view import view

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal")
# The bots a match may oppose: the levels, and the plain Monte-Carlo baseline ``mc``
# (bench/mc_baseline.py) that the hard bot must beat at the same budget.
KINDS = (*BOT_KINDS, "mc")


def bench_bot(kind: str, seed: int, budget: float) -> Bot:
    if kind == "mc":
        return MonteCarloBot(seed, budget)
    return make_bot(kind, seed, budget=budget)


@dataclass(frozen=True)
class Setting:
    players: int
    preset: str
    kinds: tuple[str, str]
    hands: int
    budget: float  # seconds of CPU per move, for the bots that search


@dataclass
class SessionResult:
    places: dict[str, list[int]] = field(default_factory=dict)  # by kind: every (hand, seat)
    presidents: dict[str, int] = field(default_factory=dict)
    scores: dict[str, list[int]] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)  # seconds, moves with a choice


def arrangements(players: int) -> list[tuple[int, ...]]:
    """Every placing of kind 0 on half the seats (kind 1 elsewhere), as seat -> kind."""
    half = players // 2
    found = []
    for chosen in itertools.combinations(range(players), half):
        found.append(tuple(0 if seat in chosen else 1 for seat in range(players)))
    if players % 2:  # the odd seat goes to kind 0 and kind 1 alike over the pairs
        found += [tuple(1 - k for k in kinds) for kinds in found]
    return found


def seating(setting: Setting, session: int) -> tuple[list[str], int]:
    """The kind of each seat and the deal seed for session number ``session``."""
    pair, swapped = divmod(session, 2)
    layouts = arrangements(setting.players)
    layout = layouts[pair % len(layouts)]
    kinds = [setting.kinds[k ^ swapped] for k in layout]
    return kinds, 1_000_003 * pair + 17


def play_one(setting: Setting, session: int) -> SessionResult:
    kinds, seed = seating(setting, session)
    rules = replace(preset(setting.preset), session_end=SessionEnd.HANDS,
                    session_length=setting.hands)
    bots = [bench_bot(kind, bot_seed(seed + session, seat), setting.budget)
            for seat, kind in enumerate(kinds)]
    state, _ = new_session(rules, NAMES[:setting.players], seed)
    result = SessionResult()
    for kind in setting.kinds:
        result.places[kind], result.scores[kind], result.times[kind] = [], [], []
        result.presidents[kind] = 0
    clock = time.process_time
    while (seat := to_act(state)) is not None:
        seen = view(state, seat)
        started = clock()
        action = bots[seat].choose(seen)
        spent = clock() - started
        if sum(1 for a in legal_actions(state, seat) if not isinstance(a, Decree)) > 1:
            result.times[kinds[seat]].append(spent)
        state, _ = apply(state, action)
    for hand in state.results:
        for place, seat in enumerate(hand.order, start=1):
            result.places[kinds[seat]].append(place)
        result.presidents[kinds[hand.order[0]]] += 1
    for seat, score in enumerate(state.scores):
        result.scores[kinds[seat]].append(score)
    return result


def _play_batch(job: tuple[Setting, Sequence[int]]) -> list[SessionResult]:
    setting, sessions = job
    return [play_one(setting, session) for session in sessions]


def run_setting(setting: Setting, sessions: int, jobs: int) -> list[SessionResult]:
    if jobs <= 1:
        return [play_one(setting, session) for session in range(sessions)]
    chunks = [(setting, range(start, sessions, jobs)) for start in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_play_batch, chunks))
    # Back in session order, whatever the workers' interleaving.
    ordered: list[SessionResult] = []
    for index in range(sessions):
        ordered.append(parts[index % jobs][index // jobs])
    return ordered


def interval(samples: Sequence[float]) -> tuple[float, float]:
    """Mean and the half width of its 95 % confidence interval (normal approximation)."""
    mean = statistics.fmean(samples)
    if len(samples) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(samples) / math.sqrt(len(samples))


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


@dataclass
class KindSummary:
    kind: str
    place: tuple[float, float]
    president: tuple[float, float]
    score: tuple[float, float]
    moves: int
    median_ms: float
    p99_ms: float
    max_ms: float
    cpu_s: float


def summarise(setting: Setting, results: Sequence[SessionResult]) -> list[KindSummary]:
    summaries = []
    for kind in setting.kinds:
        places = [statistics.fmean(r.places[kind]) for r in results]
        presidents = [r.presidents[kind] / len(r.places[kind]) for r in results]
        scores = [statistics.fmean(r.scores[kind]) for r in results]
        times = [t for r in results for t in r.times[kind]]
        summaries.append(KindSummary(
            kind, interval(places), interval(presidents), interval(scores), len(times),
            1000 * statistics.median(times) if times else math.nan,
            1000 * percentile(times, 0.99), 1000 * max(times, default=math.nan), sum(times),
        ))
    return summaries


def verdict(summaries: Sequence[KindSummary]) -> str:
    """Whether the first kind's mean place is better with non-overlapping intervals."""
    first, second = summaries
    gap = (second.place[0] - second.place[1]) - (first.place[0] + first.place[1])
    if gap > 0:
        return f"{first.kind} better (intervals apart by {gap:.3f})"
    if (first.place[0] - first.place[1]) - (second.place[0] + second.place[1]) > 0:
        return f"{second.kind} better"
    return "intervals overlap"


def paired_gap(setting: Setting, results: Sequence[SessionResult]) -> tuple[float, float]:
    """The first kind's mean place minus the second's over each pair of sessions that
    dealt the same cards with the kinds swapped, with the half width of its 95 % interval:
    the card luck of the deals cancels out (a finer measure than the verdict's, which
    counts every session as an independent sample)."""
    first, second = setting.kinds
    gaps = []
    for start in range(0, len(results) - 1, 2):
        pair = results[start:start + 2]
        gaps.append(statistics.fmean(p for r in pair for p in r.places[first])
                    - statistics.fmean(p for r in pair for p in r.places[second]))
    if not gaps:
        return math.nan, math.inf
    return interval(gaps)


def table(setting: Setting, sessions: int, summaries: Sequence[KindSummary],
          wall: float, gap: tuple[float, float] | None = None) -> str:
    head = (f"### {setting.kinds[0]} vs {setting.kinds[1]}: {setting.players} players, "
            f"{setting.preset}, {sessions} sessions x {setting.hands} hands, "
            f"budget {1000 * setting.budget:.0f} ms ({wall:.0f} s)")
    lines = [head, "",
             "| bot | mean place | President | score | moves | median ms | p99 ms "
             "| max ms | CPU s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for s in summaries:
        lines.append(
            f"| {s.kind} | {s.place[0]:.3f} ± {s.place[1]:.3f} "
            f"| {100 * s.president[0]:.1f} % ± {100 * s.president[1]:.1f} "
            f"| {s.score[0]:+.2f} ± {s.score[1]:.2f} | {s.moves} | {s.median_ms:.2f} "
            f"| {s.p99_ms:.1f} | {s.max_ms:.1f} | {s.cpu_s:.1f} |")
    lines += ["", f"verdict: {verdict(summaries)}"]
    if gap is not None:
        lines.append(f"paired by deal: {setting.kinds[0]} - {setting.kinds[1]} = "
                     f"{gap[0]:+.3f} ± {gap[1]:.3f} places")
    lines.append("")
    return "\n".join(lines)


def parse_list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--match", action="append", default=None,
                        help="A:B, e.g. hard:medium (repeatable; default medium:heuristic)")
    parser.add_argument("--players", default="4", help="comma list, e.g. 4,6")
    parser.add_argument("--preset", default="classic", help="comma list, e.g. classic,daihinmin")
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--hands", type=int, default=3, help="hands per session")
    parser.add_argument("--budget-ms", type=float, default=200.0,
                        help="CPU milliseconds per move for the searching bots")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(list(argv) if argv is not None else None)
    matches = args.match or ["medium:heuristic"]
    for match in matches:
        kinds = tuple(parse_list(match.replace(":", ",")))
        if len(kinds) != 2 or any(kind not in KINDS for kind in kinds):
            parser.error(f"--match {match}: two of {', '.join(KINDS)}")
    for players in map(int, parse_list(args.players)):
        for preset_name in parse_list(args.preset):
            for match in matches:
                a, b = parse_list(match.replace(":", ","))
                setting = Setting(players, preset_name, (a, b), args.hands,
                                  args.budget_ms / 1000)
                started = time.monotonic()
                results = run_setting(setting, args.sessions, args.jobs)
                wall = time.monotonic() - started
                print(table(setting, args.sessions, summarise(setting, results), wall,
                            paired_gap(setting, results)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
