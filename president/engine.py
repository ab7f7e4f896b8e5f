"""The rules engine: pure functions over an immutable ``State``.

``legal_actions`` is the one source of truth for legality: ``apply`` accepts an
action only if ``legal_actions`` lists it (a decree's free text aside), and
otherwise raises ``IllegalAction`` with a reason code, leaving the state as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import chain, compress
from operator import itemgetter
from typing import Any, cast

from president import daihinmin
from president.actions import (
    Action,
    Decree,
    GiveBack,
    Pass,
    Play,
    Ready,
    action_to_dict,
)
from president.cards import Card, Rank, card_key, format_cards, make_deck, shuffled
from president.combos import (
    BEATS,
    EQUAL,
    Combo,
    Outcome,
    best_rank,
    classify,
    compare,
    interned,
    is_interned,
    make_combo,
    resulting_top,
    strengths,
)
from president.errors import IllegalAction
from president.events import Event
from president.refusals import decree_text_ok
from president.roles import STARTING_SCORE, Role, points, roles_for_places
from president.rules import HouseRules, check_player_count
from president.seeds import hand_rng
from president.state import HandResult, Phase, PileEntry, State, TaxDue

# ---------------------------------------------------------------- state copies

_new, _set = object.__new__, object.__setattr__
_NOBODY: frozenset[int] = frozenset()
_TRICKS = Phase.PLAY


def _evolve(state: State, changes: dict[str, Any]) -> State:
    """``dataclasses.replace(state, **changes)`` for the hot path: State has no
    ``__post_init__``, so copying its ``__dict__`` is all it takes. The copy keeps
    the cached ``_active`` unless the hands or the seating change (or ``changes``
    brings a new one), and starts with no legal actions cached."""
    values = state.__dict__.copy()
    if "hands" in changes or "order" in changes:
        values.pop("_active", None)
    values.update(changes)
    values["_legal"] = {}
    new = _new(State)
    _set(new, "__dict__", values)
    return new


def _active(state: State) -> tuple[int, ...]:
    """``state.active``, computed once per state (and carried by ``_evolve``)."""
    values = state.__dict__
    active = values.get("_active")
    if active is None:
        hands = state.hands
        active = values["_active"] = tuple([seat for seat in state.order if hands[seat]])
    return active


# ---------------------------------------------------------------- session


def new_session(
    rules: HouseRules, players: Sequence[str], seed: int
) -> tuple[State, list[Event]]:
    """A session with the first hand dealt. Players are named by seat."""
    count = len(players)
    check_player_count(rules, count)
    start = STARTING_SCORE[rules.scoring]
    state = State(
        rules=rules, players=tuple(players), seed=seed, phase=Phase.HAND_OVER,
        hand_number=0, dealer=0, order=tuple(range(count)), hands=((),) * count,
        turn=None, direction=1, reversed=False, pile=(), top=None, last_player=None,
        passed=frozenset(), locked=frozenset(), same_rank_singles=0, finished=(),
        roles=None, scores=(start,) * count, presidencies=(0,) * count, tax_due=(),
        tax_log=(), ready=frozenset(), decree=None, decree_hand=0, results=(), winners=(),
    )
    return _start_hand(state)


def end_session(state: State) -> tuple[State, list[Event]]:
    """End the session between hands (``session_end`` = minutes or open: the host decides)."""
    if state.phase is not Phase.HAND_OVER:
        raise IllegalAction("wrong_phase", seat=None, phase=state.phase.value,
                            action={"type": "end_session"})
    return _finish_session(state)


# ---------------------------------------------------------------- legality


# What legal_actions caches for a seat, and the fast path of ``apply`` reads:
# (the actions; during the tricks, the seat's _HandPlays and the outcomes of its
# plays against the top by id of combo (an outcome, or False: not legal; None when
# the seat leads); otherwise what the actions are (_GIVE or _READY), if any).
_Outcomes = dict[int, "Outcome | bool"]
_Entry = tuple[tuple[Action, ...], "_HandPlays | None", "_Outcomes | None", "str | None"]
_GIVE, _READY = "give", "ready"
_NO_ACTIONS: _Entry = ((), None, None, None)


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    """Every action ``seat`` may take now. A ``Decree`` is listed with empty text:
    its text is the President's free choice."""
    entry = state._legal.get(seat)
    if entry is None:
        entry = state._legal[seat] = _legal_entry(state, seat)
    return entry[0]


def _legal_entry(state: State, seat: int) -> _Entry:
    if not (0 <= seat < len(state.players) if type(seat) is int else seat in state.seats):
        return _NO_ACTIONS
    phase = state.phase
    if phase is _TRICKS:
        if seat != state.turn:
            return _NO_ACTIONS
        # No decree during the tricks (_may_decree).
        rules, hand = state.rules, state.hands[seat]
        table = _TABLES.get(id(rules))
        if table is not None and table.rules is rules:
            plays = table.hands.get(id(hand))  # the seat's hand is seldom new: inlined
            if plays is not None and plays.hand is hand and plays.reversed == state.reversed:
                if plays.passing.seat == seat:
                    return plays.against(state.top)
        return _hand_plays(state, seat).against(state.top)
    actions: list[Action] = []
    kind = _READY
    if phase is Phase.TAX:
        kind = _GIVE
        for due in state.tax_due:
            if due.receiver == seat:
                groups = _equivalent_groups(state.hands[seat], state.rules, single=False)
                actions.extend([_new_give_back(seat, cards) for cards in _picks(groups, due.count)])
    elif phase is Phase.HAND_OVER and seat not in state.ready:
        actions.append(Ready(seat))
    listed = kind if actions else None
    if _may_decree(state, seat):
        actions.append(Decree(seat, ""))
    return tuple(actions), None, None, listed


def _may_decree(state: State, seat: int) -> bool:
    return (
        state.rules.decree
        and state.phase in (Phase.HAND_OVER, Phase.TAX)
        and state.roles is not None
        and state.roles[seat] is Role.PRESIDENT
        and state.decree_hand != _decree_hand(state)
    )


def _decree_hand(state: State) -> int:
    """The hand whose result a decree made now follows."""
    return state.hand_number if state.phase is Phase.HAND_OVER else state.hand_number - 1


class _Table:
    """Caches for one ``HouseRules`` object: outcomes of ``compare`` by (order, top),
    the valid plays of the hands seen lately, and what each play object built for
    them is. Keys use the ids of interned combos and of objects these caches hold,
    so an id never stands for another object."""

    __slots__ = ("rules", "outcomes", "hands", "latest", "known", "played", "set_groups")
    MAX_KNOWN = 16384  # plays (of groups kept in set_groups, or of runs)
    MAX_HANDS = 256  # a hand of 8 players plays ~90 times: some room for lookahead

    def __init__(self, rules: HouseRules) -> None:
        self.rules = rules
        self.outcomes: dict[tuple[bool, int], _Outcomes] = {}
        self.hands: dict[int, _HandPlays] = {}  # by id of hand
        self.latest: dict[int, _HandPlays] = {}  # by seat: whose rank groups to reuse
        self.known: dict[int, tuple[Play, Combo, _Group]] = {}  # by id of play
        # By id of a hand left after a play: (it, the plays of the hand before, the
        # cards played), so that its plays are derived from those (``_HandPlays``).
        self.played: dict[int, tuple[tuple[Card, ...], _HandPlays, tuple[Card, ...]]] = {}
        # The sets of a seat's cards of one rank, by (seat, those cards): a seat is
        # dealt the same few cards of a rank again and again.
        self.set_groups: dict[tuple[int, tuple[Card, ...]], _Group] = {}

    def clear(self) -> None:
        self.hands.clear()
        self.latest.clear()
        self.known.clear()
        self.played.clear()
        self.set_groups.clear()

    def group(self, cards: tuple[Card, ...], plays: list[Play], combos: list[Combo]) -> _Group:
        group = (cards, tuple(plays), tuple(map(id, combos)), tuple(combos))
        known = self.known
        for play, combo in zip(plays, combos, strict=True):
            known[id(play)] = (play, combo, group)
        return group

    def sets(self, seat: int, rank: Rank, cards: tuple[Card, ...]) -> _Group:
        """The valid sets of ``cards`` (all of ``rank``, in hand order): a set is a set
        by construction; only jokers in trump mode must go alone. (Hot: made once for
        each rank a play changes; ``Play`` objects made as ``_event`` makes events.)"""
        group = self.set_groups.get((seat, cards))
        if group is not None:
            return group
        rules = self.rules
        plays: list[Play] = []
        combos: list[Combo] = []
        for card in dict.fromkeys(cards) if suited(rules, rank) else cards[:1]:
            play = _new(Play)
            _set(play, "seat", seat)
            _set(play, "cards", (card,))
            plays.append(play)
            combos.append(make_combo("set", 1, rank, card.suit))
        count = len(cards)
        if count > 1 and (rules.joker_mode != "trump" or rank is not Rank.JOKER):
            for size in range(2, count + 1):
                play = _new(Play)
                _set(play, "seat", seat)
                _set(play, "cards", cards[:size])
                plays.append(play)
                combos.append(make_combo("set", size, rank))
        combos_ = tuple(combos)
        group = (cards, tuple(plays), tuple(map(id, combos_)), combos_)
        known = self.known
        for play, combo in zip(plays, combos_, strict=True):
            known[id(play)] = (play, combo, group)
        self.set_groups[(seat, cards)] = group
        return group


def _event(code: str, params: dict[str, Any]) -> Event:
    """``Event(code, params)``, as its generated ``__init__`` makes it (a frozen
    dataclass with no ``__post_init__``), without the call: the hot path's events."""
    event = _new(Event)
    _set(event, "code", code)
    _set(event, "params", params)
    return event


def _pile_entry(seat: int, cards: tuple[Card, ...]) -> PileEntry:
    """``PileEntry(seat, cards)``, as ``_event`` makes an Event."""
    entry = _new(PileEntry)
    _set(entry, "seat", seat)
    _set(entry, "cards", cards)
    return entry


def _new_give_back(seat: int, cards: tuple[Card, ...]) -> GiveBack:
    """``GiveBack(seat, cards)``, as ``_event`` makes an Event."""
    action = _new(GiveBack)
    _set(action, "seat", seat)
    _set(action, "cards", cards)
    return action


_TABLES: dict[int, _Table] = {}


def _table(rules: HouseRules) -> _Table:
    table = _TABLES.get(id(rules))
    if table is None or table.rules is not rules:
        if len(_TABLES) >= 16:  # tables of finished sessions go; live ones rebuild
            _TABLES.clear()
        table = _TABLES[id(rules)] = _Table(rules)
    return table


# Plays made from some cards of a hand (one rank's cards; or the whole hand, for
# its runs): (the cards, the plays, the ids of their combos, their combos).
_Group = tuple[tuple[Card, ...], tuple[Play, ...], tuple[int, ...], tuple[Combo, ...]]


class _HandPlays:
    """The valid plays of ``seat`` holding ``hand``, in ``candidate_plays`` order:
    its sets by rank (``groups``), then its runs; and, by top of the pile, the legal
    actions they give."""

    __slots__ = (
        "table", "hand", "reversed", "groups", "runs", "passing", "actions", "combo_ids",
        "leading", "only_pass",
    )
    table: _Table
    hand: tuple[Card, ...]
    reversed: bool
    groups: dict[Rank, _Group]
    runs: _Group | None
    passing: Pass
    actions: tuple[Action, ...]
    combo_ids: tuple[int, ...]
    leading: _Entry
    only_pass: tuple[Action, ...]

    def __init__(
        self, table: _Table, hand: tuple[Card, ...], seat: int, reversed_: bool,
        previous: _HandPlays | None, played: tuple[Card, ...] | None = None,
    ):
        """``previous``: plays of an earlier hand of ``seat``, whose groups are reused
        where the cards are the same; ``played``: the cards played from it, if
        ``hand`` is what that play left (then only their ranks are looked at)."""
        self.table, self.hand, self.reversed = table, hand, reversed_
        rules = table.rules
        if previous is not None:
            self.passing, self.only_pass = previous.passing, previous.only_pass
        else:
            self.passing = Pass(seat)
            self.only_pass = (self.passing,)
        self.runs = None
        if played is not None and previous is not None:
            self.groups = groups = previous.groups.copy()
            first = played[0].rank
            if played[-1].rank is first and not rules.sequences:
                # A set: one rank's plays change, in place in the flat tuples.
                old = groups[first]
                cards = list(old[0])
                for card in played:
                    cards.remove(card)
                actions, combo_ids = previous.actions, previous.combo_ids
                start = combo_ids.index(old[2][0])  # a set's combo is its rank's alone
                end = start + len(old[2])
                if cards:
                    new = groups[first] = table.sets(seat, first, tuple(cards))
                    self.actions = actions[:start] + new[1] + actions[end:]
                    self.combo_ids = combo_ids[:start] + new[2] + combo_ids[end:]
                else:
                    del groups[first]
                    self.actions = actions[:start] + actions[end:]
                    self.combo_ids = combo_ids[:start] + combo_ids[end:]
                self.leading = (self.actions, self, None, None)
                return
            for rank in {card.rank for card in played}:
                cards = list(groups[rank][0])
                for card in played:
                    if card.rank is rank:
                        cards.remove(card)
                if cards:
                    groups[rank] = table.sets(seat, rank, tuple(cards))
                else:
                    del groups[rank]
            by_rank = None
        else:
            by_rank = _by_rank(hand)
            reuse = previous.groups if previous is not None else _NO_GROUPS
            self.groups = groups = {}
            for rank, cards in by_rank.items():
                same_rank = tuple(cards)
                group = reuse.get(rank)
                if group is None or group[0] != same_rank:
                    group = table.sets(seat, rank, same_rank)
                groups[rank] = group
        parts = list(groups.values())
        if rules.sequences:
            if by_rank is None:
                by_rank = {rank: list(group[0]) for rank, group in groups.items()}
            runs = _runs_with_tops(by_rank, rules, reversed_)
            if runs:
                self.runs = table.group(
                    hand, [Play(seat, cards) for cards, _ in runs],
                    [make_combo("run", len(cards), top) for cards, top in runs],
                )
                parts.append(self.runs)
        self.actions = tuple(chain.from_iterable(map(_second, parts)))
        self.combo_ids = tuple(chain.from_iterable(map(_third, parts)))
        self.leading = (self.actions, self, None, None)

    def against(self, top: Combo | None) -> _Entry:
        """The legal entry of this hand against ``top`` (a hand seldom meets the same
        top twice: not cached here, but per state by legal_actions)."""
        if top is None:
            return self.leading
        if not is_interned(top):
            top = interned(top)
        table = self.table
        key = (self.reversed, id(top))
        outcomes = table.outcomes.get(key)
        if outcomes is None:
            outcomes = table.outcomes[key] = {}
        legal = list(map(outcomes.get, self.combo_ids))
        if None in legal:
            rules, reversed_ = table.rules, self.reversed
            parts = list(self.groups.values())
            if self.runs is not None:
                parts.append(self.runs)
            combos = chain.from_iterable(map(_fourth, parts))
            for index, combo in enumerate(combos):
                if legal[index] is None:
                    outcome = compare(combo, top, rules, reversed_)
                    legal[index] = outcomes[id(combo)] = (
                        outcome if outcome == BEATS or outcome == EQUAL else False
                    )
        if any(legal):
            actions = list(compress(self.actions, legal))
            actions.append(self.passing)
            return tuple(actions), self, outcomes, None
        return self.only_pass, self, outcomes, None


_NO_GROUPS: dict[Rank, _Group] = {}
_second, _third, _fourth = itemgetter(1), itemgetter(2), itemgetter(3)


def _hand_plays(state: State, seat: int) -> _HandPlays:
    rules = state.rules
    table = _TABLES.get(id(rules))
    if table is None or table.rules is not rules:
        table = _table(rules)
    hand, reversed_ = state.hands[seat], state.reversed
    plays = table.hands.get(id(hand))  # each seat holds its own hand tuples
    if plays is None or plays.hand is not hand or plays.reversed != reversed_ or (
        plays.passing.seat != seat
    ):
        if len(table.hands) >= table.MAX_HANDS:
            table.hands.clear()
        if len(table.known) >= table.MAX_KNOWN:
            table.clear()
        played = table.played.pop(id(hand), None)
        if played is not None and played[0] is hand and played[1].passing.seat == seat:
            plays = _HandPlays(table, hand, seat, reversed_, played[1], played[2])
        else:
            plays = _HandPlays(table, hand, seat, reversed_, table.latest.get(seat))
        table.hands[id(hand)] = table.latest[seat] = plays
    return plays


def _note_play(state: State, seat: int, cards: tuple[Card, ...], left: tuple[Card, ...]):
    """Remember that ``left`` is what ``cards`` left of ``seat``'s hand (if its plays
    are known), to derive its plays from the hand's when they are asked for."""
    entry = state._legal.get(seat)
    plays = entry[1] if entry is not None else None
    if plays is not None and left:
        played = plays.table.played
        if len(played) >= _Table.MAX_HANDS:
            played.clear()
        played[id(left)] = (left, plays, cards)


def _by_rank(hand: tuple[Card, ...]) -> dict[Rank, list[Card]]:
    by_rank: dict[Rank, list[Card]] = {}
    for card in hand:
        group = by_rank.get(card.rank)
        if group is None:
            by_rank[card.rank] = [card]
        else:
            group.append(card)
    return by_rank


def candidate_plays(
    hand: tuple[Card, ...], rules: HouseRules, reversed_: bool
) -> list[tuple[Card, ...]]:
    """One representative of every set (and run, with ``sequences``) in ``hand``.

    Cards that differ only in suit are interchangeable (see ``canonical_cards``),
    so a set is listed as its lowest-suited cards and a run as the lowest-suited
    card of each rank; every single of a rank whose suits matter is listed (``suited``).

    The reference definition: ``legal_actions`` builds the same plays incrementally
    (``_HandPlays``), and tests/engine/test_engine_fast_path.py holds it to this.
    """
    by_rank = _by_rank(hand)
    plays: list[tuple[Card, ...]] = []
    for rank, cards in by_rank.items():
        if suited(rules, rank):
            plays.extend((card,) for card in dict.fromkeys(cards))
        else:
            plays.append((cards[0],))
        plays.extend(tuple(cards[:size]) for size in range(2, len(cards) + 1))
    if rules.sequences:
        plays.extend(_runs(by_rank, rules, reversed_))
    return plays


def canonical_cards(
    hand: tuple[Card, ...], cards: tuple[Card, ...], rules: HouseRules, *, single: bool
) -> tuple[Card, ...]:
    """The representative ``legal_actions`` lists for ``cards`` (sorted, all in ``hand``).

    Suits never change what a play does, except a single's of a rank whose suits
    matter (``suited``; ``single``: the cards are played, so a lone card keeps its
    suit); the cards given back in the tax keep such suits too, since they may
    become such singles.
    """
    keep_suits = len(cards) == 1 or not single
    if keep_suits and rules.suit_tiebreak == "big_two":
        return cards
    wanted: dict[Rank, int] = {}
    for card in cards:
        wanted[card.rank] = wanted.get(card.rank, 0) + 1
    picked = []
    for rank, count in wanted.items():
        if keep_suits and suited(rules, rank):
            picked.extend([card for card in cards if card.rank is rank])
        else:
            picked.extend([card for card in hand if card.rank is rank][:count])
    return tuple(sorted(picked, key=card_key))


def suited(rules: HouseRules, rank: Rank) -> bool:
    """Whether a lone card of ``rank`` plays differently by suit: every rank under
    ``suit_tiebreak``, the 3 (of spades) under ``spade_three_return``."""
    return rules.suit_tiebreak == "big_two" or (
        rules.spade_three_return and rank is Rank.THREE
    )


def _equivalent_groups(
    hand: tuple[Card, ...], rules: HouseRules, *, single: bool
) -> list[list[Card]]:
    """``hand`` split into groups of interchangeable cards, lowest suit first."""
    by_key: dict[object, list[Card]] = {}
    for card in hand:
        suits_matter = not single and suited(rules, card.rank)
        by_key.setdefault(card if suits_matter else card.rank, []).append(card)
    return list(by_key.values())


def _picks(groups: list[list[Card]], count: int) -> list[tuple[Card, ...]]:
    """Every way to take ``count`` cards from ``groups``, taking each group's first
    cards, sorted. Groups are in hand order, so a pick made group by group is sorted,
    and taking more of an earlier group first lists the picks in sorted order."""
    if count == 0:
        return [()]
    if count == 1:
        return [(group[0],) for group in groups]
    picks: list[tuple[Card, ...]] = []
    last = len(groups)
    if count == 2:  # the walk below, unrolled
        for index, group in enumerate(groups):
            first = group[0]
            if len(group) > 1:
                picks.append((first, group[1]))
            picks.extend([(first, other[0]) for other in groups[index + 1:]])
        return picks

    def walk(start: int, need: int, prefix: tuple[Card, ...]) -> None:
        for index in range(start, last):
            group = groups[index]
            for take in range(min(need, len(group)), 0, -1):
                pick = prefix + tuple(group[:take])
                if take == need:
                    picks.append(pick)
                else:
                    walk(index + 1, need - take, pick)

    walk(0, count, ())
    return picks


def _runs(
    by_rank: dict[Rank, list[Card]], rules: HouseRules, reversed_: bool
) -> list[tuple[Card, ...]]:
    return [cards for cards, _ in _runs_with_tops(by_rank, rules, reversed_)]


def _runs_with_tops(
    by_rank: dict[Rank, list[Card]], rules: HouseRules, reversed_: bool
) -> list[tuple[tuple[Card, ...], Rank]]:
    """Every run (lowest-suited card of each rank), sorted, with its top rank."""
    table = strengths(rules.rank_order, reversed_)
    ranks = sorted((r for r in by_rank if r is not Rank.JOKER), key=table.__getitem__)
    runs: dict[tuple[Card, ...], Rank] = {}
    for start in range(len(ranks)):
        stretch = [ranks[start]]
        for rank in ranks[start + 1:]:
            if table[rank] - table[stretch[-1]] != 1:
                break
            stretch.append(rank)
            if len(stretch) >= rules.sequences:
                runs[tuple(sorted((by_rank[r][0] for r in stretch), key=card_key))] = rank
    return [(cards, runs[cards]) for cards in sorted(runs)]


# ---------------------------------------------------------------- apply


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """The state after ``action`` and what happened. Raises ``IllegalAction``."""
    # The very objects legal_actions listed are applied without checks to redo.
    seat = getattr(action, "seat", None)
    if type(seat) is int:
        entry = state._legal.get(seat)
        if entry is None:
            legal_actions(state, seat)
            entry = state._legal[seat]
        legal, plays, outcomes, listed = entry
        if plays is not None:  # the tricks
            if action is plays.passing:
                if outcomes is not None:  # the leader may not pass
                    return _pass(state, seat)
            else:
                known = plays.table.known.get(id(action))
                if known is not None and known[0] is action:
                    _, combo, group = known
                    # One of this hand's plays (its group is this hand's), legal on the top:
                    if group is plays.runs or plays.groups.get(combo.rank) is group:
                        outcome = BEATS if outcomes is None else outcomes.get(id(combo))
                        if outcome:
                            return _play(state, seat, action.cards, combo, outcome)
        elif listed is not None and (type(action) is GiveBack or type(action) is Ready):
            if id(action) in set(map(id, legal)):  # listed objects are alive: ids are theirs
                if listed is _GIVE:
                    return _give_back(state, seat, cast(GiveBack, action).cards)
                return _ready(state, seat)
    if isinstance(action, (Play, GiveBack)):
        cards = tuple(sorted(action.cards))
        if cards != action.cards:
            action = replace(action, cards=cards)
    legal = legal_actions(state, action.seat)
    if isinstance(action, Decree):
        ok = Decree(action.seat, "") in legal and decree_text_ok(action.text)
    else:
        ok = _listed(state, action) in legal
    if not ok:
        raise IllegalAction(
            explain_illegal(state, action), seat=action.seat, phase=state.phase.value,
            action=action_to_dict(action),
        )
    match action:
        case Play(seat, cards):
            combo = classify(cards, state.rules, state.reversed)
            assert not isinstance(combo, str)
            return _play(state, seat, cards, combo, compare(combo, state.top, state.rules,
                                                            state.reversed))
        case Pass(seat):
            return _pass(state, seat)
        case GiveBack(seat, cards):
            return _give_back(state, seat, cards)
        case Ready(seat):
            return _ready(state, seat)
        case Decree(seat, text):
            return _make_decree(state, seat, text)
    raise TypeError(action)


def _listed(state: State, action: Action) -> Action:
    """The form in which ``legal_actions`` lists ``action``: cards that differ only
    in suit stand for each other (``canonical_cards``)."""
    if not isinstance(action, (Play, GiveBack)) or action.seat not in state.seats:
        return action
    hand = state.hands[action.seat]
    if _remove(hand, action.cards) is None:
        return action
    canonical = canonical_cards(hand, action.cards, state.rules, single=isinstance(action, Play))
    return action if canonical == action.cards else replace(action, cards=canonical)


def explain_illegal(state: State, action: Action) -> str:
    """The reason code for an action ``legal_actions`` does not list: the acting seat's
    view answers (``refusals.reason``, what a client asks too), but whether this hand's
    decree is already made is known only here."""
    from president.refusals import reason
    from president.view import view

    seat = action.seat
    if state.phase is Phase.SESSION_OVER:
        return "session_over"
    if type(seat) is not int or seat not in state.seats:
        return "bad_seat"
    if isinstance(action, Decree):
        if state.roles is None or state.roles[seat] is not Role.PRESIDENT:
            return "not_president"
        if not state.rules.decree or state.phase is Phase.PLAY:
            return "wrong_phase"
        if state.decree_hand == _decree_hand(state):
            return "decree_made"
        return "decree_invalid"
    return reason(view(state, seat), action)


def _remove(hand: tuple[Card, ...], cards: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """``hand`` without ``cards`` (a multiset difference), or None if they are not all in it."""
    rest = list(hand)
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            return None
    return tuple(rest)


def _taken(hand: tuple[Card, ...], cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """``hand`` without ``cards``, which the caller knows are in it."""
    rest = _remove(hand, cards)
    assert rest is not None
    return rest


def _set_hand(hands: tuple, seat: int, cards: tuple[Card, ...]) -> tuple:
    changed = list(hands)
    changed[seat] = cards
    return tuple(changed)


def _next_seat(
    order: tuple[int, ...], direction: int, hands: tuple[tuple[Card, ...], ...], after: int,
    skip: frozenset[int] = _NOBODY,
) -> int | None:
    """The next seat in the direction of play that holds cards and is not in ``skip``."""
    for seat in _following(order, direction, after):
        if hands[seat] and seat not in skip:
            return seat
    return None


@lru_cache(maxsize=1024)
def _following(order: tuple[int, ...], direction: int, after: int) -> tuple[int, ...]:
    """The seats after ``after`` in the direction of play, ``after`` itself last."""
    index = order.index(after)
    count = len(order)
    return tuple([order[(index + step * direction) % count] for step in range(1, count + 1)])


def _play(
    state: State, seat: int, cards: tuple[Card, ...], combo: Combo, outcome: Outcome
) -> tuple[State, list[Event]]:
    """``combo`` is what ``cards`` form, ``outcome`` how it compares with the top."""
    rules, hand_no, top = state.rules, state.hand_number, state.top
    events = [_event("play", {"hand": hand_no, "seat": seat, "cards": format_cards(cards)})]
    changed = list(state.hands)
    rest = list(changed[seat])
    for card in cards:
        rest.remove(card)  # apply checked they are all in the hand
    changed[seat] = left = tuple(rest)
    hands = tuple(changed)
    _note_play(state, seat, cards, left)
    reversed_, direction = state.reversed, state.direction
    played_reversed = reversed_  # the order the play was made in (before any revolution)

    singles = 0
    if combo.kind == "set" and combo.size == 1:
        same = top is not None and top.size == 1 and top.rank is combo.rank
        singles = state.same_rank_singles + 1 if same else 1
    revolt = rules.revolution != "off" and combo.kind == "set" and combo.size >= 4
    if rules.revolution == "quad_or_four_in_a_row" and singles == 4:
        revolt, singles = True, 0
    if revolt:
        reversed_ = not reversed_
        if rules.revolution_reverses_direction:
            direction = -direction
        # The revolution's own order: an 11-back in force lasts only until the clear.
        events.append(Event("revolution", {"hand": hand_no, "reversed": reversed_ != state.back}))

    effects = daihinmin.effects(rules, cards)
    back, cut, skips = state.back, False, 0
    if effects is not None:
        cut = effects.cut
        if effects.back and not cut:  # a cut ends a back at once: no back to speak of
            back, reversed_ = not back, not reversed_
            events.append(_event("back", {"hand": hand_no, "on": back}))
        if effects.reverse:
            direction = -direction
            events.append(_event("reverse", {"hand": hand_no, "direction": direction}))
        skips = effects.skips

    finished, bottom = state.finished, state.bottom
    if not left:
        if rules.forbidden_finish and daihinmin.forbidden_finish(
            rules, cards, combo, top, played_reversed
        ):
            bottom += (seat,)
            events.append(_event("forbidden", {
                "hand": hand_no, "seat": seat, "place": len(hands) + 1 - len(bottom)}))
        else:
            finished += (seat,)
            events.append(_event("out", {"hand": hand_no, "seat": seat, "place": len(finished)}))
            fallen = daihinmin.downfall(state, finished, bottom, hands)
            if fallen is not None:
                discarded = hands[fallen]
                hands = _set_hand(hands, fallen, ())
                bottom += (fallen,)
                events.append(_event("downfall", {
                    "hand": hand_no, "seat": fallen, "place": len(hands) + 1 - len(bottom),
                    "cards": format_cards(discarded)}))

    order, locked = state.order, state.locked
    active = _active(state)  # seats with cards before the play
    if not left or bottom is not state.bottom:
        active = tuple([s for s in active if hands[s]])
    changes: dict[str, Any] = {
        "hands": hands, "reversed": reversed_, "direction": direction,
        "pile": state.pile + (_pile_entry(seat, cards),),
        "top": resulting_top(combo, top, rules) if rules.transparent_threes else combo,
        "last_player": seat,
        "passed": _NOBODY, "same_rank_singles": singles, "finished": finished,
        "_active": active,
    }
    if effects is not None:
        changes["back"], changes["bottom"] = back, bottom
    if len(active) <= 1:
        return _end_hand(_evolve(state, changes), events)
    if cut:
        events.append(_event("cut", {"hand": hand_no, "seat": seat}))
        leader = seat if hands[seat] else _next_seat(order, direction, hands, seat)
        return _clear(state, changes, events, leader)

    passed = _NOBODY
    if outcome == EQUAL and rules.equal_rank == "skip" and _skip_allowed(
        rules, hands, active, seat, combo.rank, played_reversed
    ):
        skips += 1
    if skips:
        skipped = _following_players(order, direction, hands, seat, locked)[:skips]
        passed = changes["passed"] = frozenset(skipped)
        for other in skipped:
            events.append(_event("skip", {"hand": hand_no, "seat": other}))
    return _advance(state, changes, events, seat, passed, locked, hands, direction, active,
                    seat)


def _following_players(
    order: tuple[int, ...], direction: int, hands: tuple[tuple[Card, ...], ...], after: int,
    locked: frozenset[int],
) -> list[int]:
    """The other seats after ``after`` in the direction of play that may still play on
    this trick: hold cards and are not locked out."""
    return [seat for seat in _following(order, direction, after)
            if seat != after and hands[seat] and seat not in locked]


def _skip_allowed(
    rules: HouseRules, hands: tuple[tuple[Card, ...], ...], active: tuple[int, ...],
    seat: int, rank: Rank, played_reversed: bool,
) -> bool:
    """``hands`` and ``active`` are those after the play of ``seat``; ``played_reversed``
    the order in force when the cards were played (the best card is judged in that order)."""
    if rules.skip_not_with_best and (
        rank is Rank.JOKER or rank is best_rank(rules, played_reversed)
    ):
        return False  # skip_not_with_best: no skip with the best card
    # skip_two_players_replay: with two players left the skip makes the player play again.
    # A player who just went out cannot play again: then the skip is an ordinary one.
    return rules.skip_two_players_replay or len(active) > 2 or not hands[seat]


def _pass(state: State, seat: int) -> tuple[State, list[Event]]:
    events = [_event("pass", {"hand": state.hand_number, "seat": seat})]
    locked = state.locked | {seat} if state.rules.pass_locks_out else state.locked
    passed = state.passed | {seat}
    changes = {"passed": passed, "locked": locked, "same_rank_singles": 0}
    return _advance(state, changes, events, seat, passed, locked, state.hands,
                    state.direction, _active(state), state.last_player)


def _advance(
    state: State, changes: dict[str, Any], events: list[Event], after: int,
    passed: frozenset[int], locked: frozenset[int], hands: tuple[tuple[Card, ...], ...],
    direction: int, active: tuple[int, ...], last: int | None,
) -> tuple[State, list[Event]]:
    """Clear the trick if everyone else is done with it, else give the turn on from
    ``after``. ``state`` is the state before the action; ``changes`` the action's,
    made in the same copy of the state; the other arguments are the values after it."""
    order = state.order
    done = passed | locked if locked else passed
    for seat in active:
        if seat != last and seat not in done:
            break  # someone is still waiting to play on this trick
    else:
        assert last is not None  # a trick to clear has a last player
        leader = last if hands[last] else _next_seat(order, direction, hands, last)
        return _clear(state, changes, events, leader)
    skip = done - {last} if last in done else done
    changes["turn"] = _next_seat(order, direction, hands, after, skip)
    # _evolve, less its checks: the hands change only with a new "_active" (a play).
    values = state.__dict__.copy()
    values.update(changes)
    values["_legal"] = {}
    new = _new(State)
    _set(new, "__dict__", values)
    return new, events


def _clear(
    state: State, changes: dict[str, Any], events: list[Event], leader: int | None
) -> tuple[State, list[Event]]:
    """The pile is cleared and ``leader`` leads; an 11-back in force ends with it."""
    events.append(_event("clear", {"hand": state.hand_number, "leader": leader}))
    changes.update(pile=(), top=None, passed=_NOBODY, locked=_NOBODY,
                   same_rank_singles=0, turn=leader)
    if changes.get("back", state.back):
        changes.update(back=False, reversed=not changes.get("reversed", state.reversed))
    return _evolve(state, changes), events


# ---------------------------------------------------------------- hands


def _start_hand(state: State) -> tuple[State, list[Event]]:
    rules, count = state.rules, len(state.players)
    number = state.hand_number + 1
    rng = hand_rng(state.seed, number)
    previous = state.results[-1] if state.results else None
    order = state.order
    if previous is None:
        dealer = rng.randrange(count)  # cut for high card
    else:
        if rules.reseat_by_rank:
            order = previous.order  # President at the head, Vice President on their left...
        if rules.dealer == "scum":
            dealer = previous.order[-1]
        elif rules.dealer == "president":
            dealer = previous.order[0]
        else:
            dealer = order[(order.index(state.dealer) + 1) % count]
    deck = shuffled(make_deck(rules.deck_count(count), rules.jokers), rng)
    first = order.index(dealer) + 1
    receivers = [order[(first + i) % count] for i in range(count)]
    dealt: list[list[Card]] = [[] for _ in range(count)]
    for index, receiver in enumerate(receivers):
        dealt[receiver] = deck[index::count]  # one card each in turn, from the left
    hands = tuple([tuple(sorted(cards, key=card_key)) for cards in dealt])
    events = [Event("deal", {
        "hand": number, "dealer": dealer, "hands": [format_cards(h) for h in hands],
    })]
    decree = state.decree if state.decree_hand == number - 1 else None
    state = _evolve(state, dict(
        phase=Phase.TAX, hand_number=number, dealer=dealer, order=order, hands=hands,
        turn=None, direction=1, reversed=False, pile=(), top=None, last_player=None,
        passed=_NOBODY, locked=_NOBODY, same_rank_singles=0, finished=(),
        tax_due=(), tax_log=(), ready=_NOBODY, decree=decree, back=False, bottom=(),
    ))
    if previous is not None:
        state, events = _collect_tax(state, previous, events)
    if not state.tax_due:
        return _open_play(state, events)
    return state, events


def _collect_tax(
    state: State, previous: HandResult, events: list[Event]
) -> tuple[State, list[Event]]:
    """Each giver hands over their highest cards; the receivers then choose what to return."""
    table = strengths(state.rules.rank_order, False)
    place = previous.order
    hands, dues, log = state.hands, [], []
    for giver, receiver, amount in state.rules.tax_transfers(place):
        by_value = sorted(hands[giver], key=lambda card: (table[card.rank], card.key))
        amount = min(amount, len(by_value))
        gift = tuple(sorted(by_value[len(by_value) - amount:], key=card_key))
        hands = _set_hand(hands, giver, _taken(hands[giver], gift))
        hands = _set_hand(hands, receiver, tuple(sorted(hands[receiver] + gift, key=card_key)))
        dues.append(TaxDue(receiver, giver, amount))
        log.append((giver, receiver, gift))
        events.append(Event("tax", {
            "hand": state.hand_number, "from": giver, "to": receiver, "cards": format_cards(gift),
        }))
    return _evolve(state, dict(hands=hands, tax_due=tuple(dues), tax_log=tuple(log))), events


def _give_back(state: State, seat: int, cards: tuple[Card, ...]) -> tuple[State, list[Event]]:
    due = next(d for d in state.tax_due if d.receiver == seat)
    hands = _set_hand(state.hands, seat, _taken(state.hands[seat], cards))
    hands = _set_hand(hands, due.giver, tuple(sorted(hands[due.giver] + cards, key=card_key)))
    events = [Event("tax", {
        "hand": state.hand_number, "from": seat, "to": due.giver, "cards": format_cards(cards),
    })]
    state = _evolve(state, dict(
        hands=hands, tax_due=tuple(d for d in state.tax_due if d is not due),
        tax_log=state.tax_log + ((seat, due.giver, cards),),
    ))
    if not state.tax_due:
        return _open_play(state, events)
    return state, events


def _open_play(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    rules = state.rules
    order = state.order
    left_of_dealer = order[(order.index(state.dealer) + 1) % len(order)]
    if not state.results:
        rule = rules.first_lead
        leader = state.dealer if rule == "dealer" else left_of_dealer
        if rule == "three_of_clubs":
            three = Card.parse("3C")
            start = order.index(left_of_dealer)
            rotated = order[start:] + order[:start]
            leader = next((s for s in rotated if three in state.hands[s]), left_of_dealer)
    else:
        previous = state.results[-1].order
        leader = {
            "president": previous[0], "scum": previous[-1], "left_of_dealer": left_of_dealer,
        }[rules.later_lead]
    events.append(Event("lead", {"hand": state.hand_number, "seat": leader}))
    return _evolve(state, dict(phase=Phase.PLAY, turn=leader)), events


def _end_hand(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    rules = state.rules
    finished = state.finished
    for seat in state.active:
        finished += (seat,)
        events.append(
            Event("out", {"hand": state.hand_number, "seat": seat, "place": len(finished)})
        )
    finished += state.bottom[::-1]  # the first sent to the bottom is the last
    by_place = roles_for_places(len(state.players))
    roles = [Role.NEUTRAL] * len(state.players)
    for place, seat in enumerate(finished):
        roles[seat] = by_place[place]
    scores = tuple(s + points(rules.scoring, roles[seat]) for seat, s in enumerate(state.scores))
    presidencies = tuple(
        p + (roles[seat] is Role.PRESIDENT) for seat, p in enumerate(state.presidencies)
    )
    events.append(Event("hand_end", {
        "hand": state.hand_number, "order": list(finished),
        "roles": [role.value for role in roles], "scores": list(scores),
    }))
    state = _evolve(state, dict(
        phase=Phase.HAND_OVER, finished=finished, turn=None, roles=tuple(roles),
        scores=scores, presidencies=presidencies, ready=_NOBODY,
        results=state.results + (HandResult(finished, tuple(roles), scores),),
    ))
    if _session_is_over(state):
        state, more = _finish_session(state)
        events.extend(more)
    return state, events


def _session_is_over(state: State) -> bool:
    rules = state.rules
    if rules.session_end == "hands":
        return state.hand_number >= rules.session_length
    if rules.session_end == "target":
        return max(state.scores) >= rules.session_length
    if rules.session_end == "zero":
        return min(state.scores) <= 0
    return False  # minutes, open: the host ends the session (end_session)


def _finish_session(state: State) -> tuple[State, list[Event]]:
    best = max(state.scores)
    winners = tuple(seat for seat in state.seats if state.scores[seat] == best)
    event = Event("session_end", {"scores": list(state.scores), "winners": list(winners)})
    return _evolve(state, dict(phase=Phase.SESSION_OVER, winners=winners, turn=None)), [event]


def _ready(state: State, seat: int) -> tuple[State, list[Event]]:
    events = [Event("ready", {"hand": state.hand_number, "seat": seat})]
    state = _evolve(state, dict(ready=state.ready | {seat}))
    if len(state.ready) == len(state.players):
        state, more = _start_hand(state)
        events.extend(more)
    return state, events


def _make_decree(state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    text = text.strip()
    hand = _decree_hand(state)
    event = Event("decree", {"hand": state.hand_number, "seat": seat, "text": text})
    # A decree made during the tax is already in force for the hand being played.
    return _evolve(state, dict(decree=text, decree_hand=hand)), [event]
