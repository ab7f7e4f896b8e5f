"""The ``medium`` bot: counts the cards played and plans to go out.

A group (all of a hand's cards of one rank) is a *control* when no set the other
seats may still hold can be played on it (under the table's rules: rank order,
revolution, jokers, bombs, set sizes, equal ranks): leading it keeps the lead. The
others are *losers*: each one led costs the lead. So the bot

- sheds its weakest losers first, whole (a pair is led as a pair, never split);
- follows with a loser that beats the top without splitting a set, but keeps its
  controls and near-controls for later unless it is close to going out or an
  opponent is;
- cashes its controls when at most one loser is left (then it goes out on the last);
- plays a quad for a revolution when its other cards are stronger reversed;
- returns, in the tax, the cards whose loss weakens its hand least.

The Daihinmin pack, with a plan: 8s are controls under 8-cut (a play holding one wins
the trick); a run of four revolts like a quad (``run_revolution``), when the rest of the
hand gains by it; a play that starts a suit lock is weighed by who can answer it (the
cards out of the locked suits) and preferred where this seat keeps a higher card of
them, a wild joker declared accordingly; it never goes out on a forbidden finish nor
leaves only such cards while it can help it; 7-passes and 10-discards shed what the
hand needs least in the order that lasts past the trick (an 11-back ends with it).

The same policy drives the ``hard`` bot's playouts, where it reads a full (sampled)
``State`` instead of a ``View``: see ``turn_from_state``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from president.actions import Action, Decree, Discard, Give, GiveBack, Pass, Play, Ready
from president.bots.advice import SUGGESTED, Suggestion, suggestion, trick_reason
from president.bots.knowledge import (
    PlayTracker,
    deck_for,
    knowledge,
    same_rank_singles,
)
from president.bots.tables import (
    MAX_SET,
    RANKS,
    SLOTS,
    Counts,
    RuleTables,
    rank_counts,
    tables_for,
)
from president.cards import Card, Rank, Suit
from president.combos import Combo, best_rank, classify, make_combo, resulting_top, stands_for
from president.locks import Lock, lock_after, locks
from president.roles import Role
from president.rules import HouseRules
from president.state import State
from president.trick import finish_is_forbidden, forbidden_last_card
from president.view import View

DECREE_TEXT = "The Scum shuffles"
JOKER = int(Rank.JOKER)
EIGHT = int(Rank.EIGHT)
# Kinds of move (a priority's first number; ``advice.trick_reason`` words each).
FORBIDDEN = 9.0  # goes out on a card no one may go out on (``forbidden_finish``): last place
STRANDS = 4.5    # leaves only such cards in hand
DOWNFALL_NEAR = 4  # cards: an opponent this close to going out presses a falling President
LOCK_WORTH = 1.5  # ranks: what starting a suit lock one can answer is worth when following


@dataclass(slots=True)
class Turn:
    """A decision in the tricks, as the policy sees it."""

    hand: tuple[Card, ...]
    counts: Counts            # the hand by rank
    top: Combo | None
    reversed: bool
    plays: Sequence[Play]
    passing: Pass | None
    pool: Counts              # cards the others may hold, by rank
    opp_most: int             # the largest hand among the opponents still in
    rivals_most: int          # the largest hand among those who may still play on this trick
    opp_fewest: int           # the smallest hand among the opponents still in
    singles: int              # singles of one rank in a row on the pile (four in a row)
    back: bool = False        # an 11-back in force (``reversed`` shows it; it ends with the trick)
    lock: Lock | None = None  # the suit lock on the pile (``suit_lock``)
    beaten: tuple[Card, ...] = ()  # the cards of the top (as they stand), for a lock to start
    unseen: Sequence[Card] = ()    # the cards out, by card: who may answer a suit lock
    falls: bool = False       # downfall: this seat is the President and must go out first


class MediumPolicy:
    """The decisions, on rank counts; one per table's rules (it caches look-ups)."""

    def __init__(self, tables: RuleTables) -> None:
        self.tables = tables
        self.rules = tables.rules
        self.trump = tables.trump
        self.eight_cut = tables.rules.eight_cut
        self.locks = locks(tables.rules)
        self.forbidden = tables.rules.forbidden_finish
        # The ranks no one may go out on (``forbidden_finish``), by order: jokers, the
        # best rank, 8s under 8-cut.
        self.last_forbidden: dict[bool, tuple[int, ...]] = {
            order: tuple(rank for rank in range(3, SLOTS) if forbidden_last_card(
                tables.rules, Rank(rank), best_rank(tables.rules, order)))
            for order in (False, True)}
        self.passing = tables.rules.seven_pass or tables.rules.ten_discard
        self.run_revolution = tables.rules.run_revolution
        self.jack_back = tables.rules.jack_back
        # The combo of a set of n cards of a rank (a single's suit aside): sets[rank][n].
        self.sets: list[list[Combo | None]] = [[None] * (MAX_SET + 1) for _ in range(SLOTS)]
        for rank in RANKS:
            for n in range(1, MAX_SET + 1):
                self.sets[rank][n] = make_combo("set", n, rank)
        self._singles: dict[int, Combo] = {}  # by the card's value (``Card.key``)

    # ------------------------------------------------------------ analysis

    def combo(self, cards: tuple[Card, ...], reversed_: bool,
              declared: tuple[Card, ...] = ()) -> Combo:
        """What a legal play is (``classify``, faster for the sets; its jokers standing for
        ``declared``: wild jokers)."""
        if declared:
            made = classify(cards, self.rules, reversed_, declared)
            assert not isinstance(made, str)
            return made
        first = cards[0]
        if len(cards) == 1:
            combo = self._singles.get(first.key)
            if combo is None:
                combo = self._singles[first.key] = make_combo("set", 1, first.rank, first.suit)
            return combo
        if cards[-1].rank is first.rank:
            found = self.sets[first.rank][len(cards)]
            assert found is not None
            return found
        made = classify(cards, self.rules, reversed_)
        assert not isinstance(made, str)
        return made

    def safe(self, rank: int, n: int, reversed_: bool, pool: Counts, most: int) -> bool:
        """Nobody can play on ``n`` cards of ``rank`` led together."""
        if rank == JOKER and self.trump:
            return True  # joker_mode = trump: nothing beats a joker
        if rank == EIGHT and self.eight_cut:
            return True  # 8-cut: the 8s clear the pile, their player leads again
        combo = self.sets[rank][n]
        assert combo is not None
        return not self.tables.can_answer(combo, reversed_, pool, most)

    def plan(self, counts: Counts, reversed_: bool, pool: Counts, most: int
             ) -> tuple[int, int]:
        """(losers, controls) of a hand: groups of one rank that can / cannot be beaten
        (trump jokers go alone: each is a control)."""
        losers = controls = 0
        for rank in range(3, SLOTS):
            n = counts[rank]
            if n:
                if rank == JOKER and self.trump:
                    controls += n
                elif self.safe(rank, n, reversed_, pool, most):
                    controls += 1
                else:
                    losers += 1
        return losers, controls

    def value(self, counts: Counts, reversed_: bool, pool: Counts, most: int) -> float:
        """How good a hand is: +1 a control, a loser -1 less a little for its strength."""
        strength = self.tables.strength[reversed_]
        total = 0.0
        for rank in range(3, SLOTS):
            n = counts[rank]
            if not n:
                continue
            if rank == JOKER and self.trump:
                total += n
            elif self.safe(rank, n, reversed_, pool, most):
                total += 1.0
            else:
                total += -1.0 + 0.07 * min(strength[rank], 13)
        return total

    def _revolts(self, turn: Turn, combo: Combo) -> bool:
        """Whether playing ``combo`` now reverses the rank order (``revolution``)."""
        tables = self.tables
        if combo.kind == "run":  # run_revolution: a run of four or more
            return self.run_revolution and combo.size >= 4
        if not tables.revolution:
            return False
        if combo.size >= 4:
            return True
        top = turn.top
        return (tables.four_in_a_row and combo.size == 1 and turn.singles == 3
                and top is not None and top.size == 1 and top.kind == "set"
                and top.rank is combo.rank)

    # ------------------------------------------------------------ the tricks

    def ranked(self, turn: Turn) -> list[tuple[tuple[float, ...], Action]]:
        """Every option with its priority (lowest first): the policy's order of preference."""
        return sorted(self._options(turn), key=_priority)

    def choose_trick(self, turn: Turn) -> Action:
        return min(self._options(turn), key=_priority)[1]

    def _options(self, turn: Turn) -> list[tuple[tuple[float, ...], Action]]:
        # A priority's first number is the kind of move it is: a hint reads it back as its
        # reason (``advice.trick_reason``), so a new kind needs its reason there too.
        options: list[tuple[tuple[float, ...], Action]] = []
        size = len(turn.hand)
        reversed_ = turn.reversed
        strength = self.tables.strength[reversed_]
        pool, most, counts = turn.pool, turn.opp_most, turn.counts
        top = turn.top
        leading = top is None
        reach = most if leading else turn.rivals_most
        can_answer = self.tables.can_answer
        # Someone (maybe this seat) is near the end: spend strength now.
        # Downfall: the President who is not first out is last, so it spends its strength
        # as soon as anyone nears the end.
        pressed = turn.opp_fewest <= (DOWNFALL_NEAR if turn.falls else 2) or size <= 8
        lasting = reversed_ != turn.back  # the order once the trick is over
        free = size - sum(counts[rank] for rank in self.last_forbidden[lasting])
        # Each group's standing now; a play changes only the groups it takes from.
        safe_now = [False] * SLOTS
        losers = controls = 0
        for rank in range(3, SLOTS):
            n = counts[rank]
            if n:
                if rank == JOKER and self.trump:
                    controls += n
                    safe_now[rank] = True
                elif self.safe(rank, n, reversed_, pool, most):
                    controls += 1
                    safe_now[rank] = True
                else:
                    losers += 1
        for play in turn.plays:
            cards = play.cards
            shown_cards = stands_for(cards, play.declared) if play.declared else cards
            extra = self._extra(shown_cards) if self.passing else 0
            if len(cards) + extra >= size:
                if self.forbidden and finish_is_forbidden(
                        self.rules, cards, self.combo(cards, reversed_, play.declared), top,
                        reversed_):
                    options.append(((FORBIDDEN,), play))  # out, but in the last place
                else:
                    options.append(((0.0,), play))
                continue
            combo = self.combo(cards, reversed_, play.declared)
            rank = combo.rank
            if self.forbidden and self._strands(counts, cards, lasting, free):
                options.append(((STRANDS, strength[rank] if rank != JOKER else 20), play))
                continue
            power = strength[rank] if rank != JOKER else 20
            if self._revolts(turn, combo):
                rest = counts.copy()
                for card in cards:
                    rest[card.rank] -= 1
                gain = (self.value(rest, not reversed_, pool, most)
                        - self.value(rest, reversed_, pool, most))
                options.append(((1.5, -gain), play) if gain > 0 else ((5.0, power), play))
                continue
            # The hand's losers and controls after the play.
            left_losers, left_controls, breaks = losers, controls, 0
            taken: dict[int, int] = {}
            for card in cards:
                taken[card.rank] = taken.get(card.rank, 0) + 1
            for r, k in taken.items():
                n = counts[r]
                if r == JOKER and self.trump:
                    left_controls -= k
                    continue
                if safe_now[r]:
                    left_controls -= 1
                else:
                    left_losers -= 1
                if n > k:
                    breaks += 1
                    if self.safe(r, n - k, reversed_, pool, most):
                        left_controls += 1
                    else:
                        left_losers += 1
            shown = combo
            if not leading and self.rules.transparent_threes:
                shown = resulting_top(combo, top, self.rules)
            locking = 0.0
            # The order the answers must beat it in: an 11-back turns it for the trick.
            after = reversed_ != (self.jack_back and any(
                card.rank is Rank.JACK for card in shown_cards))
            if self.eight_cut and any(card.rank is Rank.EIGHT for card in shown_cards):
                wins = True  # 8-cut: the pile clears, the lead is this seat's
            elif self.locks and not leading:
                suits = self._lock_suits(turn, shown_cards, combo)
                if suits:
                    wins = not can_answer(shown, after, _suited(turn.unseen, suits), reach)
                    if not (turn.lock is not None and turn.lock.suits):
                        locking = self._lock_worth(turn.hand, cards, suits, combo, strength)
                else:
                    wins = not can_answer(shown, after, pool, reach)
            else:
                wins = not can_answer(shown, after, pool, reach)
            if wins and left_losers <= 1:
                options.append(((1.0, power), play))  # keep the lead, go out on the last
                continue
            whole_control = not breaks and combo.kind == "set" and safe_now[rank]
            if leading:
                if breaks:
                    options.append(((4.0, breaks, power), play))
                elif whole_control:
                    options.append(((3.0, power), play))
                else:
                    options.append(((2.0, power - 0.75 * (len(cards) - 1)), play))
            elif breaks:
                options.append(((2.8 if pressed else 4.0, breaks, power), play))
            elif whole_control:
                # Spend a control when the rest can go out with the controls left.
                plan_ok = left_losers <= left_controls + 1
                options.append(((2.5 if plan_ok or pressed else 3.5, power), play))
            elif wins:
                options.append(((1.8, power), play))
            else:
                options.append(((2.0, power - locking), play))
        if turn.passing is not None:
            options.append(((3.0,), turn.passing))
        return options

    def _extra(self, cards: tuple[Card, ...]) -> int:
        """The cards a play's 7s and 10s let its player pass or discard (``seven_pass``,
        ``ten_discard``): a play that sheds the rest this way goes out."""
        rules = self.rules
        return sum(1 for card in cards if (rules.seven_pass and card.rank is Rank.SEVEN)
                   or (rules.ten_discard and card.rank is Rank.TEN))

    def _strands(self, counts: Counts, cards: tuple[Card, ...], lasting: bool,
                 free: int | None = None) -> bool:
        """``forbidden_finish``: whether the play leaves only cards no one may go out on
        (jokers, the best rank, 8s under 8-cut): those must go while another card is left.
        ``free``: the hand's other cards, when counted already."""
        barred = self.last_forbidden[lasting]
        if free is None:
            free = sum(counts[3:]) - sum(counts[rank] for rank in barred)
        if not free:
            return False  # nothing else was left to keep
        for card in cards:
            if card.rank not in barred:
                free -= 1
        return not free and len(cards) < sum(counts[3:])

    def _lock_suits(self, turn: Turn, cards: tuple[Card, ...], combo: Combo
                    ) -> tuple[Suit, ...]:
        """The suits the pile is locked to once ``cards`` are played (``suit_lock``)."""
        if turn.lock is not None and turn.lock.suits:
            return turn.lock.suits
        table = self.tables.order[turn.reversed]  # the order the play is made in
        after = lock_after(turn.lock, turn.beaten, cards, combo, turn.top, self.rules, table)
        return after.suits if after is not None else ()

    def _lock_worth(self, hand: tuple[Card, ...], cards: tuple[Card, ...],
                    suits: tuple[Suit, ...], combo: Combo, strength: list[int]) -> float:
        """How much a play that starts a suit lock is worth over one that does not (in
        ranks): more when this seat keeps a higher card of each locked suit (it can answer
        the lock, the others perhaps not), less when it does not."""
        rest = list(hand)
        for card in cards:
            rest.remove(card)
        above = strength[combo.rank]
        keeps = all(any(card.suit is suit and strength[card.rank] > above for card in rest)
                    for suit in set(suits))
        return LOCK_WORTH if keeps else -LOCK_WORTH / 3

    # ------------------------------------------------------------ 7-pass, 10-discard

    def shed(self, hand: tuple[Card, ...], options: Sequence[Give | Discard], pool: Counts,
             most: int, lasting: bool) -> Give | Discard:
        """``seven_pass``, ``ten_discard``: the cards the hand needs least in the order that
        lasts past the trick (``lasting``: an 11-back ends with it), never leaving only
        cards no one may go out on (``forbidden_finish``); a 7-pass gives the receiver
        the weakest of equals."""
        counts = rank_counts(hand)
        strength = self.tables.strength[lasting]
        best: tuple[float, ...] | None = None
        chosen = options[0]
        worth: dict[tuple[int, ...], tuple[float, float]] = {}  # by the ranks shed
        for option in options:
            ranks = tuple(sorted(card.rank for card in option.cards))
            known = worth.get(ranks)
            if known is None:
                rest = counts.copy()
                for rank in ranks:
                    rest[rank] -= 1
                stranded = self.forbidden and self._strands(counts, option.cards, lasting)
                known = worth[ranks] = (float(stranded), -self.value(rest, lasting, pool, most))
            key = (*known, float(sum(strength[card.rank] for card in option.cards)))
            if best is None or key < best:
                best, chosen = key, option
        return chosen

    # ------------------------------------------------------------ the tax

    def give_back(self, hand: tuple[Card, ...], options: Sequence[GiveBack],
                  pool: Counts, most: int) -> GiveBack:
        """The cards whose loss weakens the hand least (low singles before pairs)."""
        counts = rank_counts(hand)
        strength = self.tables.strength[False]
        best: tuple[float, int, tuple[Card, ...]] | None = None
        chosen = options[0]
        for option in options:
            rest = counts.copy()
            for card in option.cards:
                rest[card.rank] -= 1
            score = self.value(rest, False, pool, most)
            key = (-score, sum(strength[c.rank] for c in option.cards), option.cards)
            if best is None or key < best:
                best, chosen = key, option
        return chosen


def _priority(option: tuple[tuple[float, ...], Action]) -> tuple[float, ...]:
    return option[0]


def _suited(unseen: Sequence[Card], suits: tuple[Suit, ...]) -> Counts:
    """The cards out that may answer a play locked to ``suits``, by rank: a rank counts
    where a card of every locked suit is out (jokers fit any lock)."""
    wanted = set(suits)
    found: dict[int, set[Suit]] = {}
    pool = [0] * SLOTS
    for card in unseen:
        if card.suit is None:
            pool[JOKER] += 1
        elif card.suit in wanted:
            found.setdefault(card.rank, set()).add(card.suit)
            pool[card.rank] += 1
    for rank, held in found.items():
        if held != wanted:
            pool[rank] = 0
    return pool


# ---------------------------------------------------------------- from a state


def turn_from_state(state: State, seat: int, plays: Sequence[Action]) -> Turn:
    """The decision of ``seat`` in a full state (a playout of the hard bot's search):
    the cards out are the other hands, whoever holds them."""
    hands = state.hands
    pool = [0] * SLOTS
    most = rivals = 0
    fewest = 99
    locked = state.locked
    for other, cards in enumerate(hands):
        if other == seat or not cards:
            continue
        for card in cards:
            pool[card.rank] += 1
        n = len(cards)
        most = max(most, n)
        fewest = min(fewest, n)
        if other not in locked:
            rivals = max(rivals, n)
    hand = hands[seat]
    real = [p for p in plays if type(p) is Play]
    passing = next((p for p in plays if type(p) is Pass), None)
    falls = (state.rules.downfall and not state.finished and state.roles is not None
             and state.roles[seat] is Role.PRESIDENT)
    if not locks(state.rules):
        return Turn(hand, rank_counts(hand), state.top, state.reversed, real, passing, pool,
                    most, rivals, fewest, state.same_rank_singles, state.back, falls=falls)
    last = state.pile[-1] if state.pile else None
    beaten = stands_for(last.cards, last.declared) if last is not None else ()
    unseen = [card for other, cards in enumerate(hands) if other != seat for card in cards]
    return Turn(hand, rank_counts(hand), state.top, state.reversed, real, passing, pool,
                most, rivals, fewest, state.same_rank_singles, state.back, state.lock, beaten,
                unseen, falls)


def turn_from_view(view: View, pool: Counts, plays: Sequence[Action],
                   unseen: Sequence[Card] = ()) -> Turn:
    """The decision of ``view``'s seat: ``pool`` the cards out by rank, ``unseen`` the
    same cards (for the suit lock)."""
    seat = view.seat
    most = rivals = 0
    fewest = 99
    for other, n in enumerate(view.counts):
        if other == seat or not n:
            continue
        most = max(most, n)
        fewest = min(fewest, n)
        if other not in view.locked:
            rivals = max(rivals, n)
    real = [p for p in plays if isinstance(p, Play)]
    passing = next((p for p in plays if isinstance(p, Pass)), None)
    last = view.pile[-1] if view.pile else None
    beaten = stands_for(last[1], last[2]) if last is not None else ()
    falls = (view.rules.downfall and not view.finished and view.roles is not None
             and seat is not None and view.roles[seat] == Role.PRESIDENT.value)
    return Turn(view.hand, rank_counts(view.hand), view.top, view.reversed, real,
                passing, pool, most, rivals, fewest, same_rank_singles(view), view.back,
                view.lock, beaten, unseen, falls)


# ---------------------------------------------------------------- the bot


class MediumBot:
    """Card counting and planning (see the module docstring); deterministic."""

    def __init__(self, seed: int = 0, memory: PlayTracker | None = None) -> None:
        """``memory``: what the seat has seen played this hand, kept by the caller when
        a new bot is made for every move (a table does)."""
        self.rng = random.Random(seed)
        self.tracker = memory if memory is not None else PlayTracker()

    def policy(self, view: View) -> MediumPolicy:
        return policy_for(view.rules)

    def choose(self, view: View) -> Action:
        options = [a for a in view.legal if not isinstance(a, Decree)]
        seat = view.seat if view.seat is not None else 0
        if not options:
            return Decree(seat, DECREE_TEXT)
        played = self.tracker.update(view)
        first = options[0]
        if len(options) == 1 and not isinstance(first, GiveBack):
            return first
        policy = self.policy(view)
        if isinstance(first, (Give, Discard)):
            known = knowledge(view, policy.tables, played)
            most = max((n for s, n in enumerate(view.counts) if s != seat), default=0)
            return policy.shed(view.hand, options, known.unseen, most,  # type: ignore[arg-type]
                               view.reversed != view.back)
        if isinstance(first, GiveBack):
            pool = rank_counts(deck_for(view.rules, len(view.players)))
            for card in view.hand:
                pool[card.rank] -= 1
            most = max(n for s, n in enumerate(view.counts) if s != seat)
            return policy.give_back(view.hand, options, pool, most)  # type: ignore[arg-type]
        if isinstance(first, (Play, Pass)):
            known = knowledge(view, policy.tables, played)
            return policy.choose_trick(
                turn_from_view(view, known.unseen, options, known.unseen_cards))
        return next((a for a in options if isinstance(a, Ready)), first)

    def suggest(self, view: View) -> list[Suggestion]:
        """What this bot would do in ``view`` and why, its choice first, then the next
        options it ranked (a hint: issue 28); [] when the seat has nothing to decide.
        Reads the view only (and the cards seen played, from ``memory``)."""
        options = [a for a in view.legal if isinstance(a, (Play, Pass, Give, Discard, GiveBack))]
        if not options:
            return []
        policy = self.policy(view)
        strength = policy.tables.strength[view.reversed]
        if not isinstance(options[0], (Play, Pass)):
            chosen = self.choose(view)
            return [suggestion(chosen, "shed", view.hand, strength)]
        played = self.tracker.update(view)
        known = knowledge(view, policy.tables, played)
        ranked = policy.ranked(turn_from_view(view, known.unseen, options, known.unseen_cards))
        leading, any_play = view.top is None, any(isinstance(a, Play) for a in options)
        return [suggestion(action, trick_reason(priority, action, leading, any_play),
                           view.hand, strength) for priority, action in ranked[:SUGGESTED]]


@lru_cache(maxsize=32)
def policy_for(rules: HouseRules) -> MediumPolicy:
    return MediumPolicy(tables_for(rules))
