"""The move generator: the plays a hand offers, and which of them are legal on a top.

Two definitions of the same thing:

- the reference, short and slow: ``candidate_plays`` lists one representative of
  every set and run of a hand; ``reference_plays`` keeps those that ``classify`` as a
  play and that ``compare`` lets onto the top;
- the incremental one, which ``legal_actions`` uses: a ``MoveGenerator`` (one per
  ``Game``) builds a seat's ``HandMoves`` once per hand, derives them after a play from
  the hand's moves before it (only the ranks played change), and keeps the outcome
  of ``compare`` per top of the pile by comparison key (a combo's code, less a suit
  that does not change how it compares), so that the legal plays on a top are a
  look-up per play.

``tests/engine/test_moves.py`` holds the second to the first over random sessions
under random rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import chain, combinations, compress
from operator import itemgetter
from typing import Literal

from president.actions import (
    CHOSEN_CARDS,
    Action,
    Pass,
    Play,
    sorted_cards,
)
from president.cards import JOKER, SUITED_RANKS, Card, Rank, Suit, card_key
from president.combos import (
    Combo,
    Outcome,
    big_two,
    classify,
    compare,
    make_combo,
    run_length,
    stands_for,
    strengths,
    trump_jokers,
    wild_jokers,
)
from president.locks import Lock, breaks_lock, locks
from president.rules import HouseRules

# ---------------------------------------------------------------- the reference


def by_rank(hand: tuple[Card, ...]) -> dict[Rank, list[Card]]:
    """The cards of ``hand`` by rank, in hand order."""
    ranks: dict[Rank, list[Card]] = {}
    for card in hand:
        group = ranks.get(card.rank)
        if group is None:
            ranks[card.rank] = [card]
        else:
            group.append(card)
    return ranks


def suited(rules: HouseRules, rank: Rank) -> bool:
    """Whether a lone card of ``rank`` plays differently by suit: every rank under
    ``suit_tiebreak`` and ``suit_lock``, the 3 (of spades) under ``spade_three_return``."""
    return big_two(rules) or locks(rules) or (rules.spade_three_return and rank is Rank.THREE)


def rank_sets(
    cards: list[Card] | tuple[Card, ...], rules: HouseRules, size: int
) -> list[tuple[Card, ...]]:
    """The sets of ``size`` (two or more) that ``cards`` (one rank's, sorted) offer: the
    lowest-suited ones, or every choice of suits under ``suit_lock`` (where a set's
    suits may start or keep a lock)."""
    if locks(rules):
        return list(dict.fromkeys(combinations(cards, size)))
    return [tuple(cards[:size])]


def candidate_plays(
    hand: tuple[Card, ...], rules: HouseRules, reversed_: bool
) -> list[tuple[Card, ...]]:
    """One representative of every set (and run, with ``sequences``) in ``hand``.

    Cards that differ only in suit are interchangeable (see ``canonical_cards``),
    so a set is listed as its lowest-suited cards and a run as the lowest-suited
    card of each rank; every single of a rank whose suits matter is listed (``suited``),
    and every set in each choice of suits under ``suit_lock`` (``rank_sets``).
    """
    ranks = by_rank(hand)
    plays: list[tuple[Card, ...]] = []
    for rank, cards in ranks.items():
        if suited(rules, rank):
            plays.extend((card,) for card in dict.fromkeys(cards))
        else:
            plays.append((cards[0],))
        for size in range(2, len(cards) + 1):
            plays.extend(rank_sets(cards, rules, size))
    if run_length(rules):
        plays.extend(cards for cards, _ in runs_with_tops(ranks, rules, reversed_))
    return plays


Declared = tuple[tuple[Card, ...], tuple[Card, ...]]  # a play's cards and its declaration


def reference_plays(
    hand: tuple[Card, ...], top: Combo | None, rules: HouseRules, reversed_: bool,
    lock: Lock | None = None,
) -> list[Declared]:
    """The legal plays of ``hand`` on ``top``, by definition: the candidates (and, with
    ``wild_jokers``, the declared plays: ``wild_plays``) that form a play (``classify``)
    which may go onto the top (``compare``) and keep the ``lock`` (with the suits the
    play stands for); each with its declaration."""
    plays: list[Declared] = [(cards, ()) for cards in candidate_plays(hand, rules, reversed_)]
    if wild_jokers(rules):
        plays.extend(wild_plays(hand, rules, reversed_))
    table = strengths(rules.rank_order, reversed_)
    legal = []
    for cards, declared in plays:
        combo = classify(cards, rules, reversed_, declared)
        if (isinstance(combo, Combo) and compare(combo, top, rules, reversed_).playable
                and breaks_lock(lock, stands_for(cards, declared), combo, top, rules,
                                table) is None):
            legal.append((cards, declared))
    return legal


def wild_plays(hand: tuple[Card, ...], rules: HouseRules, reversed_: bool) -> list[Declared]:
    """``wild_jokers``: one representative of every play in which jokers stand for cards
    (``declared``) beside cards of ``hand``. A joker stands for a card its player does
    not hold (``joker_held``): each set of a rank with one joker or more added, declared
    in the suits of that rank the hand lacks, lowest first (``declare_set``; under
    ``suit_lock``, each set in every choice of suits, its natural cards' as ``rank_sets``
    and its jokers' among the suits the hand lacks: ``declared_suits``); then, with
    ``sequences``, each run whose ranks jokers fill: the ranks the hand lacks, and any
    rank whose card the jokers may stand for in place of one the hand holds (a
    mixed-suit run's joker is the lowest suit of its rank the hand lacks: suits do not
    change what such a run does; with ``runs_same_suit``, each run of one suit, its
    jokers in its suit, so only for ranks the hand lacks in that suit)."""
    ranks = by_rank(hand)
    jokers = ranks.pop(Rank.JOKER, [])
    if not jokers or not ranks:
        return []
    plays: list[Declared] = []
    for rank, cards in ranks.items():
        for size in range(1, len(cards) + 1):
            chosen = rank_sets(cards, rules, size) if size > 1 else (
                [(card,) for card in dict.fromkeys(cards)] if locks(rules) else [(cards[0],)])
            for natural in chosen:
                for count in range(1, len(jokers) + 1):
                    for declared in declared_suits(cards, rank, count, rules):
                        plays.append((natural + (JOKER,) * count, declared))
    if run_length(rules):
        ordered = sorted(SUITED_RANKS, key=strengths(rules.rank_order, reversed_).__getitem__)
        if not rules.runs_same_suit:
            held = {rank: cards[0] for rank, cards in ranks.items()}
            free = {rank: card for rank in SUITED_RANKS
                    for card in unheld(ranks.get(rank, ()), rank)[:1]}
            plays.extend(_wild_runs(held, free, len(jokers), ordered, rules))
        else:
            for suit in Suit:
                held = {rank: card for rank, cards in ranks.items() for card in cards
                        if card.suit is suit}
                free = {rank: Card(rank, suit) for rank in SUITED_RANKS if rank not in held}
                plays.extend(_wild_runs(held, free, len(jokers), ordered, rules))
    return plays


def unheld(cards: list[Card] | tuple[Card, ...], rank: Rank) -> list[Card]:
    """The cards of ``rank`` that ``cards`` (a hand's cards of that rank) lack, lowest
    suit first: what a joker may stand for (``joker_held``)."""
    return [card for card in (Card(rank, suit) for suit in Suit) if card not in cards]


def _wild_runs(held: Mapping[Rank, Card], free: Mapping[Rank, Card], jokers: int,
               ordered: list[Rank], rules: HouseRules) -> list[Declared]:
    """The runs along the ranks ``ordered`` (weakest first) of ``held`` (one card per
    rank) whose missing ranks, and perhaps some held ones too, up to ``jokers`` jokers
    fill, declared as the cards ``free`` names (the card a joker is of each rank it may
    stand for); one natural card at least."""
    plays: list[Declared] = []
    for start in range(len(ordered)):
        missing: list[Rank] = []
        cards: list[Card] = []
        for rank in ordered[start:]:
            if rank in held:
                cards.append(held[rank])
            elif rank in free:
                missing.append(rank)
            else:
                break
            if len(missing) > jokers:
                break
            if cards and len(cards) + len(missing) >= run_length(rules):
                if missing:
                    plays.append(_wild_run(cards, missing, free))
                replaceable = [card for card in cards if card.rank in free]
                for count in range(1, min(jokers - len(missing), len(cards) - 1) + 1):
                    for replaced in combinations(replaceable, count):
                        kept = [card for card in cards if card not in replaced]
                        filled = missing + [card.rank for card in replaced]
                        plays.append(_wild_run(kept, filled, free))
    return plays


def _wild_run(cards: list[Card], filled: list[Rank], free: Mapping[Rank, Card]) -> Declared:
    """A run of ``cards`` with one joker per rank of ``filled``, declared as ``free``."""
    return (tuple(sorted(cards, key=card_key)) + (JOKER,) * len(filled),
            tuple(sorted(free[rank] for rank in filled)))


def declare_set(cards: list[Card] | tuple[Card, ...], rank: Rank, count: int) -> tuple[Card, ...]:
    """What ``count`` jokers beside a set of ``rank`` stand for, of a hand whose cards of
    ``rank`` are ``cards``: the suits it lacks, lowest first (each again once they run
    out; none when it lacks none)."""
    free = unheld(cards, rank)
    if not free:
        return ()
    return tuple(sorted(free[index % len(free)] for index in range(count)))


def declared_suits(cards: list[Card] | tuple[Card, ...], rank: Rank, count: int,
                   rules: HouseRules) -> list[tuple[Card, ...]]:
    """What ``count`` jokers beside a set of ``rank``, of a hand whose cards of ``rank``
    are ``cards``, are listed as standing for: the suits it lacks, lowest first
    (``declare_set``), or under ``suit_lock``, where the set's suits may start or keep a
    lock, each choice of them; nothing when it lacks none."""
    free = unheld(cards, rank)
    if locks(rules) and len(free) >= count:
        return list(combinations(free, count))
    return [declare_set(cards, rank, count)] if free else []


def canonical_declaration(hand: tuple[Card, ...], cards: tuple[Card, ...],
                          declared: tuple[Card, ...], rules: HouseRules) -> tuple[Card, ...]:
    """The declaration ``wild_plays`` lists for a play of ``cards`` (of ``hand``) whose
    jokers are declared as ``declared`` (none of them held): the same ranks, in the suits
    it lists them (a set's: ``declare_set``, or its own under ``suit_lock``; a mixed-suit
    run's: the lowest suit of each rank the hand lacks)."""
    if is_declared_set(cards, declared):
        if locks(rules):
            return declared  # a set's suits are its own under a suit lock
        rank = declared[0].rank
        return declare_set([card for card in hand if card.rank is rank], rank, len(declared))
    if rules.runs_same_suit:
        return declared  # a run of one suit: its suits are its own
    return tuple(sorted(unheld([card for card in hand if card.rank is named.rank],
                               named.rank)[0] for named in declared))


def is_declared_set(cards: tuple[Card, ...], declared: tuple[Card, ...]) -> bool:
    """Whether ``cards`` with their jokers as ``declared`` are all of one rank."""
    ranks = {card.rank for card in cards if card.rank is not Rank.JOKER}
    return len(ranks | {card.rank for card in declared}) == 1


def runs_with_tops(
    ranks: Mapping[Rank, list[Card] | tuple[Card, ...]], rules: HouseRules, reversed_: bool
) -> list[tuple[tuple[Card, ...], Rank]]:
    """Every run of ``sequences`` or more ranks (the lowest-suited card of each; with
    ``runs_same_suit``, every run of one suit), sorted, with its top rank."""
    table, shortest = strengths(rules.rank_order, reversed_), run_length(rules)
    runs: dict[tuple[Card, ...], Rank] = {}
    if not rules.runs_same_suit:
        _stretches(runs, {rank: cards[0] for rank, cards in ranks.items()}, table, shortest)
    else:
        by_suit: dict[Suit, dict[Rank, Card]] = {}
        for rank, cards in ranks.items():
            for card in cards:
                if card.suit is not None:
                    by_suit.setdefault(card.suit, {})[rank] = card
        for held in by_suit.values():
            if len(held) >= shortest:
                _stretches(runs, held, table, shortest)
    return [(cards, runs[cards]) for cards in sorted(runs)]


def _stretches(runs: dict[tuple[Card, ...], Rank], cards: Mapping[Rank, Card],
               table: Mapping[Rank, int], shortest: int) -> None:
    """Add to ``runs`` every stretch of ``shortest`` or more consecutive ranks (in the
    order ``table``) of ``cards`` (one card per rank), with its top rank."""
    ordered = sorted((r for r in cards if r is not Rank.JOKER), key=table.__getitem__)
    for start in range(len(ordered)):
        stretch = [ordered[start]]
        for rank in ordered[start + 1:]:
            if table[rank] - table[stretch[-1]] != 1:
                break
            stretch.append(rank)
            if len(stretch) >= shortest:
                runs[tuple(sorted((cards[r] for r in stretch), key=card_key))] = rank


def canonical_cards(
    hand: tuple[Card, ...], cards: tuple[Card, ...], rules: HouseRules, *, single: bool
) -> tuple[Card, ...]:
    """The representative ``legal_actions`` lists for ``cards`` (sorted, all in ``hand``).

    Suits never change what a play does, except a single's of a rank whose suits
    matter (``suited``; ``single``: the cards are played, so a lone card keeps its
    suit), and a set's under ``suit_lock``; the cards given back in the tax keep such
    suits too, since they may become such singles.
    """
    if single and cards and locks(rules) and cards[0].rank is cards[-1].rank:
        return cards  # a set: listed in every choice of suits (``rank_sets``)
    if single and rules.runs_same_suit and len(cards) > 1 and cards[0].rank is not cards[-1].rank:
        return cards  # a run of one suit: listed in each suit (``runs_with_tops``)
    keep_suits = len(cards) == 1 or not single
    if keep_suits and big_two(rules):
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


def listed_form(hand: tuple[Card, ...], action: Action, rules: HouseRules) -> Action:
    """``action`` in the form ``legal_actions`` lists it, if its cards are all in ``hand``:
    its cards (and declaration) sorted (``sorted_cards``), cards that differ only in suit
    standing for each other (``canonical_cards``), and so the suits of a declaration
    (``canonical_declaration``). Any other action as it is. The one definition: the
    engine's check of an action and a client's (``refusals.refusal``) ask it."""
    if not isinstance(action, (Play, *CHOSEN_CARDS)) or not in_hand(hand, action.cards):
        return action
    action = sorted_cards(action)
    assert isinstance(action, (Play, *CHOSEN_CARDS))
    play = isinstance(action, Play)
    if isinstance(action, Play) and action.declared and all(
            card.rank is not Rank.JOKER for card in action.declared):
        if any(card in hand for card in action.declared):
            return action  # a joker stands for a card its player does not hold: never listed
        if locks(rules) and is_declared_set(action.cards, action.declared):
            return action  # a set's suits are its own under a suit lock
        cards = canonical_cards(hand, action.cards, rules, single=play)
        declared = canonical_declaration(hand, cards, action.declared, rules)
        if cards != action.cards or declared != action.declared:
            return Play(action.seat, cards, declared)
        return action
    cards = canonical_cards(hand, action.cards, rules, single=play)
    return action if cards == action.cards else replace(action, cards=cards)


def in_hand(hand: tuple[Card, ...], cards: tuple[Card, ...]) -> bool:
    """Whether every card of ``cards`` is in ``hand`` (a multiset: two decks)."""
    rest = list(hand)
    for card in cards:
        if card not in rest:
            return False
        rest.remove(card)
    return True


# ---------------------------------------------------------------- tax returns


def tax_returns(hand: tuple[Card, ...], suits_matter: Mapping[Rank, bool],
                count: int) -> list[tuple[Card, ...]]:
    """Every distinct choice of ``count`` cards of ``hand`` to give back (sorted): cards
    that differ only in suit are one choice, unless their suits matter (``suited``, by
    rank in ``suits_matter``: ``MoveGenerator.suited``)."""
    return _picks(_equivalent_groups(hand, suits_matter), count)


def _equivalent_groups(hand: tuple[Card, ...],
                       suits_matter: Mapping[Rank, bool]) -> list[list[Card]]:
    """``hand`` split into groups of interchangeable cards, lowest suit first."""
    groups: list[list[Card]] = []
    for rank, cards in by_rank(hand).items():
        if suits_matter[rank]:  # each card its own group (two decks: with its twin)
            groups.extend([[other for other in cards if other is card]
                           for card in dict.fromkeys(cards)])
        else:
            groups.append(cards)
    return groups


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


# ---------------------------------------------------------------- the incremental one


@dataclass(frozen=True, slots=True)
class Group:
    """Plays made from some cards of a hand: one rank's cards (its sets), or the whole
    hand (its runs); each play with its combo and the combo's comparison key (unique
    within a hand: ``MoveGenerator.key``)."""

    cards: tuple[Card, ...]
    plays: tuple[Play, ...]
    combos: tuple[Combo, ...]
    keys: tuple[int, ...]
    suited: bool = False  # a single of these cards is listed once per suit (``suited``)
    exact: bool = False  # every set is listed in each choice of suits (``rank_sets``)
    # One rank's sets once some of its cards are played (played cards, or their count
    # when they are the lowest-suited, -> the group of the rest, None if none is left):
    # ``MoveGenerator.after_play``'s, found once.
    after: dict[int | tuple[Card, ...], Group | None] = field(
        default_factory=dict, compare=False, repr=False)


# What ``legal_actions`` found for a seat in a state: the actions; during the tricks, the
# seat's moves and, unless it leads, the outcome of each of its plays on the top by
# comparison key (false: not playable). A plain tuple (made for every state a seat acts
# in: a tuple is made faster than any class, and read by unpacking).
Legal = tuple[tuple[Action, ...], "HandMoves | None",
              "Mapping[int, Outcome | Literal[False]] | None"]


def legal_of(actions: tuple[Action, ...]) -> Legal:
    """The legal actions of a seat outside the tricks (no moves, no outcomes)."""
    return (actions, None, None)


NO_ACTIONS = legal_of(())

# A key in every ``Outcomes`` (never a play's: codes are not negative), asked twice after
# the plays' by each ``HandMoves.outcomes_of``, so that its answer is always a tuple.
NO_PLAY = -1


# The outcome of ``compare`` of each play (by comparison key: ``MoveGenerator.key``) on one
# top in one order, false for a play that may not go on it (``MoveGenerator.on_top``); a
# plain dict, filled as plays are first asked about (``MoveGenerator.compared``): a dict
# subclass with ``__missing__`` takes twice as long to read.
Outcomes = dict[int, "Outcome | Literal[False]"]


class HandMoves:
    """The valid plays of ``seat`` holding ``hand`` in the order ``reversed_`` (runs
    depend on it), in ``candidate_plays`` order: its sets by rank, then its runs.
    Not changed once made."""

    __slots__ = ("seat", "hand", "reversed", "groups", "runs", "plays", "keys", "only_pass",
                 "wild", "outcomes_of")

    def __init__(
        self, seat: int, hand: tuple[Card, ...], reversed_: bool, groups: dict[Rank, Group],
        runs: Group | None, plays: tuple[Play, ...], keys: tuple[int, ...],
        only_pass: tuple[Pass], wild: Group | None = None,
    ) -> None:
        self.seat, self.hand, self.reversed = seat, hand, reversed_
        self.groups, self.runs = groups, runs
        self.plays, self.keys = plays, keys
        self.only_pass = only_pass  # the seat's one Pass, alone
        self.wild = wild  # the declared plays (``wild_plays``), listed last
        # The outcomes of ``plays`` in an ``Outcomes``, then false ones (``NO_PLAY``).
        self.outcomes_of = itemgetter(*keys, NO_PLAY, NO_PLAY)

    @property
    def parts(self) -> list[Group]:
        """The groups of plays in the order ``plays`` lists them."""
        parts = list(self.groups.values())
        if self.runs is not None:
            parts.append(self.runs)
        if self.wild is not None:
            parts.append(self.wild)
        return parts

    def find_declared(self, play: Play) -> tuple[Combo, int] | None:
        """The combo and comparison key of ``play`` (with a declaration) if it is listed."""
        if self.wild is None:
            return None
        for listed, combo, key in zip(self.wild.plays, self.wild.combos, self.wild.keys,
                                      strict=True):
            if listed.cards == play.cards and listed.declared == play.declared:
                return combo, key
        return None


    def find(self, cards: tuple[Card, ...]) -> tuple[Combo, int] | None:
        """The combo and comparison key of ``cards`` (sorted, not empty) if they are a
        listed play, or a set that differs from one only in suits that do not matter
        (``canonical_cards``): then the combo is the one ``classify`` gives them."""
        first = cards[0].rank
        group = self.groups.get(first) if cards[-1].rank is first else self.runs
        if group is None:
            return None
        if not (group.suited or group.exact or group is self.runs):
            # One set listed per size, the lowest-suited (``rank_sets``): the one to try.
            index = len(cards) - 1
            if index < len(group.plays) and group.plays[index].cards == cards:
                return group.combos[index], group.keys[index]
        else:
            for play, combo, key in zip(group.plays, group.combos, group.keys, strict=True):
                if play.cards == cards:
                    return combo, key
        if group is self.runs or group.exact or (group.suited and len(cards) == 1):
            return None  # a run's, a suited single's or a locking set's suits are its own
        if any(later.key < card.key for card, later in zip(cards, cards[1:], strict=False)):
            return None  # not sorted
        rest = list(group.cards)
        for card in cards:
            if card not in rest:
                return None
            rest.remove(card)
        size = len(cards)
        for combo, key in zip(group.combos, group.keys, strict=True):
            if combo.size == size:
                # A single keeps its suit (its key has none: see MoveGenerator.key).
                return (make_combo("set", 1, first, cards[0].suit) if size == 1 else combo), key
        return None


class MoveGenerator:
    """The incremental move generator of one ``Game``. Its caches hold values only:
    a seat's sets of one rank by (seat, cards) (a seat is dealt the same few cards of a
    rank again and again), and the outcomes of ``compare`` by order, top's key and
    play's key."""

    MAX_SET_GROUPS = 16384

    def __init__(self, rules: HouseRules) -> None:
        self.rules = rules
        self.sequences = run_length(rules)
        self.jokers_alone = trump_jokers(rules)
        self.wild = wild_jokers(rules)
        self.tops_by_suit = big_two(rules)
        self.locks = locks(rules)
        self.suited = {rank: suited(rules, rank) for rank in Rank}  # (``suited``, by rank)
        self.set_groups: dict[tuple[int, tuple[Card, ...]], Group] = {}
        # The outcomes on each top (by its key and the order: ``on_top``), and a combo
        # of each play's key (what ``compare`` reads for it).
        self.outcomes: dict[int, Outcomes] = {}
        self.combo_of: dict[int, Combo] = {}

    def sets(self, seat: int, rank: Rank, cards: tuple[Card, ...]) -> Group:
        """The sets of ``cards`` (all of ``rank``, in hand order): its singles (one per
        suit if the rank's suits matter), then its pairs, triples... (jokers in trump
        mode go alone)."""
        key = (seat, cards)
        group = self.set_groups.get(key)
        if group is not None:
            return group
        plays: list[Play] = []
        combos: list[Combo] = []
        by_suit = self.suited[rank]
        for card in dict.fromkeys(cards) if by_suit else cards[:1]:
            plays.append(Play(seat, (card,)))
            combos.append(make_combo("set", 1, rank, card.suit))
        if len(cards) > 1 and not (self.jokers_alone and rank is Rank.JOKER):
            for size in range(2, len(cards) + 1):
                for chosen in rank_sets(cards, self.rules, size):
                    plays.append(Play(seat, chosen))
                    combos.append(make_combo("set", size, rank))
        keys = tuple(map(self.key, combos, plays))
        group = Group(cards, tuple(plays), tuple(combos), keys, by_suit, self.locks)
        if len(self.set_groups) >= self.MAX_SET_GROUPS:
            self.set_groups.clear()
        self.set_groups[key] = group
        return group

    def runs(self, seat: int, hand: tuple[Card, ...], groups: dict[Rank, Group],
             reversed_: bool) -> Group | None:
        runs = runs_with_tops({rank: group.cards for rank, group in groups.items()},
                              self.rules, reversed_)
        if not runs:
            return None
        combos = tuple(make_combo("run", len(cards), top) for cards, top in runs)
        plays = tuple(Play(seat, cards) for cards, _ in runs)
        return Group(hand, plays, combos, tuple(map(self.key, combos, plays)))

    def key(self, combo: Combo, play: Play) -> int:
        """What ``compare`` tells ``combo`` by as a play: its code, less its suit unless
        the suit of a lone card of its rank matters (``suited``); under ``suit_lock``,
        with the suits of the cards the play stands for too (``suit_pattern``), so that a
        hand's keys stay unique (a declared play shares its key with the play of the same
        cards it stands for: they compare alike)."""
        code = combo.code if self.suited[combo.rank] else combo.suitless_code
        if self.locks:
            code = (code << 16) | suit_pattern(stands_for(play.cards, play.declared))
        self.combo_of.setdefault(code, combo)
        return code

    def on_top(self, top: Combo, reversed_: bool) -> Outcomes:
        """The outcomes of plays (by key) on ``top`` in the order ``reversed_`` found so far."""
        index = (top.code if self.tops_by_suit else top.suitless_code) << 1 | reversed_
        outcomes = self.outcomes.get(index)
        if outcomes is None:
            outcomes = self.outcomes[index] = {NO_PLAY: False}
        return outcomes

    def compared(self, moves: HandMoves, top: Combo,
                 outcomes: Outcomes) -> tuple[Outcome | Literal[False], ...]:
        """``moves.outcomes_of(outcomes)`` once the plays not yet compared with ``top``
        (``outcomes``: ``on_top(top, moves.reversed)``) are."""
        for key in moves.keys:
            if key not in outcomes:
                outcome = compare(self.combo_of[key], top, self.rules, moves.reversed)
                outcomes[key] = outcome if outcome.playable else False
        return moves.outcomes_of(outcomes)

    def for_hand(self, seat: int, hand: tuple[Card, ...], reversed_: bool,
                 passing: Pass | None = None) -> HandMoves:
        """The moves of ``seat`` holding ``hand``, made afresh (from cached set groups)."""
        groups = {rank: self.sets(seat, rank, tuple(cards))
                  for rank, cards in by_rank(hand).items()}
        return self._moves(seat, hand, reversed_, groups, (passing or Pass(seat),))

    def after_play(self, moves: HandMoves, cards: tuple[Card, ...],
                   left: tuple[Card, ...]) -> HandMoves:
        """The moves of the hand ``left`` after ``cards`` were played from ``moves``'s:
        only the played ranks' sets change (and the runs)."""
        seat, groups = moves.seat, moves.groups.copy()
        first = cards[0].rank
        if cards[-1].rank is first and not self.sequences and moves.wild is None:
            # A set: one rank's plays change, in place in the flat tuples.
            old = groups[first]
            after = old.after
            # Keyed by the count when the lowest-suited cards went (the listed set: no
            # hash of the cards), else by the cards.
            size = len(cards)
            played = size if old.cards[:size] == cards else cards
            new = after.get(played, old)  # (``old``: not found yet)
            if new is old:
                rest = list(old.cards)
                for card in cards:
                    rest.remove(card)
                new = after[played] = self.sets(seat, first, tuple(rest)) if rest else None
            start = moves.keys.index(old.keys[0])  # keys are unique within a hand
            end = start + len(old.keys)
            if new is not None:
                groups[first] = new
                plays = moves.plays[:start] + new.plays + moves.plays[end:]
                keys = moves.keys[:start] + new.keys + moves.keys[end:]
            else:
                del groups[first]
                plays = moves.plays[:start] + moves.plays[end:]
                keys = moves.keys[:start] + moves.keys[end:]
            return HandMoves(seat, left, moves.reversed, groups, None, plays, keys,
                             moves.only_pass)
        for rank in {card.rank for card in cards}:
            rest = list(groups[rank].cards)
            for card in cards:
                if card.rank is rank:
                    rest.remove(card)
            if rest:
                groups[rank] = self.sets(seat, rank, tuple(rest))
            else:
                del groups[rank]
        return self._moves(seat, left, moves.reversed, groups, moves.only_pass)

    def _moves(self, seat: int, hand: tuple[Card, ...], reversed_: bool,
               groups: dict[Rank, Group], only_pass: tuple[Pass]) -> HandMoves:
        parts = list(groups.values())
        runs = self.runs(seat, hand, groups, reversed_) if self.sequences else None
        if runs is not None:
            parts.append(runs)
        wild = self.declared(seat, hand, reversed_) if self.wild and Rank.JOKER in groups else None
        if wild is not None:
            parts.append(wild)
        plays = tuple(chain.from_iterable([part.plays for part in parts]))
        keys = tuple(chain.from_iterable([part.keys for part in parts]))
        return HandMoves(seat, hand, reversed_, groups, runs, plays, keys, only_pass, wild)

    def declared(self, seat: int, hand: tuple[Card, ...], reversed_: bool) -> Group | None:
        """The plays of ``hand`` with jokers standing for cards (``wild_plays``)."""
        plays = wild_plays(hand, self.rules, reversed_)
        if not plays:
            return None
        combos = []
        table = strengths(self.rules.rank_order, reversed_)
        for cards, declared in plays:
            if declared[0].rank is declared[-1].rank and cards[0].rank is declared[0].rank:
                combos.append(make_combo("set", len(cards), declared[0].rank))
            else:
                top = max((card.rank for card in cards[:len(cards) - len(declared)] + declared),
                          key=table.__getitem__)
                combos.append(make_combo("run", len(cards), top))
        listed = tuple(Play(seat, cards, declared) for cards, declared in plays)
        return Group(hand, listed, tuple(combos), tuple(map(self.key, combos, listed)))

    def in_order(self, moves: HandMoves, reversed_: bool) -> HandMoves:
        """``moves`` for the order ``reversed_`` (a revolution or 11-back turns the runs)."""
        if moves.reversed == reversed_:
            return moves
        return self._moves(moves.seat, moves.hand, reversed_, moves.groups, moves.only_pass)

    def legal(self, moves: HandMoves, top: Combo | None, lock: Lock | None = None) -> Legal:
        """The legal actions of ``moves`` on ``top``: every play on an empty pile; else
        the plays ``compare`` lets on that keep the ``lock``, and the pass."""
        if top is None:
            return (moves.plays, moves, None)
        if lock is not None:
            return self._locked(moves, top, lock)
        outcomes = self.outcomes.get(
            (top.code if self.tops_by_suit else top.suitless_code) << 1 | moves.reversed)
        if outcomes is None:
            outcomes = self.on_top(top, moves.reversed)
        try:
            found = moves.outcomes_of(outcomes)
        except KeyError:  # a play not yet compared with this top
            found = self.compared(moves, top, outcomes)
        if any(found):
            return (tuple(compress(moves.plays, found)) + moves.only_pass, moves, outcomes)
        return (moves.only_pass, moves, outcomes)

    def _locked(self, moves: HandMoves, top: Combo, lock: Lock) -> Legal:
        """``legal`` under a lock: the outcomes on the top, less the plays that break it
        (their own outcomes for this state: the shared ones know no lock)."""
        outcomes = dict(self.legal(moves, top)[2] or {})
        strength = strengths(self.rules.rank_order, moves.reversed)
        combos = chain.from_iterable([part.combos for part in moves.parts])
        for play, combo, key in zip(moves.plays, combos, moves.keys, strict=True):
            if outcomes.get(key) and breaks_lock(
                    lock, stands_for(play.cards, play.declared), combo, top, self.rules,
                    strength):
                outcomes[key] = False
        plays = tuple(play for play, key in zip(moves.plays, moves.keys, strict=True)
                      if outcomes.get(key))
        return (plays + moves.only_pass, moves, outcomes)


def suit_pattern(cards: tuple[Card, ...]) -> int:
    """The suits of ``cards`` as one number: four bits per suit, each its count."""
    pattern = 0
    for card in cards:
        if card.suit is not None:
            pattern += 1 << (4 * card.suit)
    return pattern
