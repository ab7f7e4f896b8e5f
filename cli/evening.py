"""The night's story: the sessions of one evening, read from the host's journal and
replayed through the engine, and what they tell: the winners, the longest President
streak, the revolutions, the biggest fall, and each player's places hand by hand.

``evening`` computes (typed data, no words); ``story_lines`` words it in the reader's
language for the terminal (``president history`` and the lobby)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from president.cli.terminal.fit import pad, shorten, width_of
from president.errors import PresidentError
from president.net.journal import Journal, SessionRecord, replay

EVENING_GAP = 6 * 3600.0   # seconds without a session that end an evening
BARS = "▁▂▃▄▅▆▇█"          # a place in the chart: the last place low, the first high


@dataclass(frozen=True)
class SessionStory:
    id: int
    table: str
    created: float
    hands: int
    winners: tuple[str, ...]      # empty: not finished


@dataclass(frozen=True)
class Fall:
    """A player's worst drop from one hand to the next (places, 1 = first)."""

    name: str
    before: str                   # roles (Role values) in the title set of the session
    after: str
    title_set: str
    places: int                   # how far


@dataclass(frozen=True)
class Evening:
    sessions: tuple[SessionStory, ...]
    # by player, in order of the first hand they played: (place, players) per hand of
    # the evening (None: not at that session's table)
    places: dict[str, list[tuple[int, int] | None]] = field(default_factory=dict)
    streak: tuple[str, int] | None = None     # the longest run of hands as President
    revolutions: int = 0
    fall: Fall | None = None

    @property
    def hands(self) -> int:
        return sum(session.hands for session in self.sessions)


def tonight(records: Sequence[SessionRecord]) -> list[SessionRecord]:
    """The last evening's sessions: the newest and those before it with no long pause."""
    ordered = sorted(records, key=lambda record: record.created)
    out: list[SessionRecord] = []
    for record in reversed(ordered):
        if out and out[0].created - record.updated > EVENING_GAP:
            break
        out.insert(0, record)
    return out


def evening(records: Sequence[SessionRecord],
            actions_of: Callable[[int], list[dict[str, Any]]]) -> Evening:
    """The story of ``records`` (one evening's sessions, oldest first)."""
    sessions: list[SessionStory] = []
    places: dict[str, list[tuple[int, int] | None]] = {}
    streaks: dict[str, int] = {}
    best: tuple[str, int] | None = None
    revolutions = 0
    fall: Fall | None = None
    played = 0                                    # hands of the evening so far
    for record in records:
        hands, winners = 0, ()
        title_set = str(record.rules.get("title_set", "classic"))
        previous: dict[str, tuple[int, str]] = {}   # name -> place, role in the last hand
        for _, events in replay(record, actions_of(record.id)):
            for event in events:
                params = event.params
                if event.code == "revolution":
                    revolutions += 1
                elif event.code == "session_end":
                    winners = tuple(record.players[s] for s in params.get("winners", ()))
                elif event.code == "hand_end":
                    hands += 1
                    order = [int(s) for s in params["order"]]
                    roles = [str(role) for role in params.get("roles", ())]
                    count = len(order)
                    for place, seat in enumerate(order, 1):
                        name = record.players[seat]
                        row = places.setdefault(name, [None] * played)
                        row.extend([None] * (played - len(row)))
                        row.append((place, count))
                        role = roles[seat] if seat < len(roles) else ""
                        before = previous.get(name)
                        drop = place - before[0] if before is not None else 0
                        if before is not None and drop > (fall.places if fall else 0):
                            fall = Fall(name, before[1], role, title_set, drop)
                        previous[name] = (place, role)
                        streaks[name] = streaks.get(name, 0) + 1 if place == 1 else 0
                        if place == 1 and (best is None or streaks[name] > best[1]):
                            best = (name, streaks[name])
                    played += 1
        sessions.append(SessionStory(record.id, record.table_name, record.created, hands,
                                     winners if record.finished else ()))
    for row in places.values():
        row.extend([None] * (played - len(row)))
    return Evening(tuple(sessions), places, best, revolutions, fall)


def chart(row: Sequence[tuple[int, int] | None]) -> str:
    """One player's places as bars: high for first, low for last, a dot for no seat."""
    out = []
    for cell in row:
        if cell is None:
            out.append("·")
            continue
        place, count = cell
        level = round((count - place) / max(1, count - 1) * (len(BARS) - 1))
        out.append(BARS[level])
    return "".join(out)


def story_lines(story: Evening, text: Any, width: int) -> list[str]:
    """The evening in the reader's language, at most ``width`` cells a line."""
    tr = text.tr
    if not story.sessions:
        return [tr.gettext("No session tonight yet.")]
    out = [tr.ngettext("Tonight: {n} session, {hands} hands.",
                       "Tonight: {n} sessions, {hands} hands.",
                       len(story.sessions)).format(n=len(story.sessions), hands=story.hands)]
    for session in story.sessions:
        who = ", ".join(session.winners) if session.winners else tr.gettext("not finished")
        out.append("  " + tr.ngettext("{table}: {n} hand, won by {who}",
                                      "{table}: {n} hands, won by {who}",
                                      session.hands).format(
            table=session.table, n=session.hands, who=who))
    if story.streak is not None:
        name, hands = story.streak
        out.append(tr.ngettext("Longest President streak: {name}, {n} hand in a row.",
                               "Longest President streak: {name}, {n} hands in a row.",
                               hands).format(name=name, n=hands))
    out.append(tr.ngettext("{n} revolution.", "{n} revolutions.",
                           story.revolutions).format(n=story.revolutions))
    if story.fall is not None:
        fall = story.fall
        out.append(tr.gettext("Biggest fall: {name}, from {before} to {after}.").format(
            name=fall.name, before=text.role_title(fall.before, fall.title_set),
            after=text.role_title(fall.after, fall.title_set)))
    if story.places:
        out.append(tr.gettext("Places hand by hand (high: first, low: last):"))
        names = min(14, max(width_of(name) for name in story.places))
        room = max(8, width - names - 3)
        for name, row in story.places.items():
            out.append(f"  {pad(shorten(name, names), names)} {chart(row)[-room:]}")
    return [shorten(line, width) for line in out]


def evening_story(journal: Journal, text: Any, width: int) -> list[str]:
    """The last evening of ``journal``, told in ``text``'s language."""
    return story_lines(evening(tonight(journal.sessions()), journal.actions), text, width)


def tell(text: Any, width: int, path: str | None = None) -> list[str]:
    """The last evening of the journal at ``path`` (None: the user's), or why not."""
    try:
        journal = Journal(path, read_only=True)
    except PresidentError:
        return [text.tr.gettext("No session tonight yet.")]
    try:
        return evening_story(journal, text, width)
    except PresidentError as error:
        return [str(text.error(error))]
    finally:
        journal.close()
