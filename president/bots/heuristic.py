"""A sensible bot: sheds low sets first, keeps its 2s and jokers (and its 8s under
8-cut) to regain the lead, spends a wild joker only to complete a set of three or more or
a run (or near the end), returns its worst cards in the tax, plays for a revolution
when it holds low quads, and under ``forbidden_finish`` never goes out on a forbidden
card while it can help it (it plays those cards before its last safe one). Under
``seven_pass`` and ``ten_discard`` it counts a 7 or a 10 as a card that sheds another,
and gives or discards its worst cards. Under ``suit_lock``, of the suits it may play a
set in, it locks the pile on purpose when it holds higher cards of those suits, and
otherwise keeps from locking it.

It sees only a ``View`` (its hand, the pile, counts, the house rules) and always
answers with one of ``view.legal``.
"""

from __future__ import annotations

import random
from collections import Counter

from president.actions import Action, Decree, Discard, Give, GiveBack, Pass, Play, Ready
from president.cards import Card, Rank
from president.combos import Combo, best_rank, classify, stands_for, strengths
from president.locks import lock_after, locks
from president.rules import HouseRules
from president.trick import finish_is_forbidden, forbidden_last_card
from president.view import View

DECREE_TEXT = "The Scum shuffles"


class HeuristicBot:
    """Rule-of-thumb play; ``seed`` only breaks ties, so the bot is deterministic."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        options: list[Action] = [a for a in view.legal if not isinstance(a, Decree)]
        if not options:
            seat = view.seat if view.seat is not None else 0
            return Decree(seat, DECREE_TEXT)  # the only thing left to do
        plays = [a for a in options if isinstance(a, Play)]
        giving = [a for a in options if isinstance(a, GiveBack)]
        if giving:
            return self._give_back(view, giving)
        shedding = [a for a in options if isinstance(a, (Give, Discard))]
        if shedding:
            return shed(view.hand, shedding, view.rules, view.reversed)
        if plays or any(isinstance(a, Pass) for a in options):
            return self._play(view, plays, options)
        ready = [a for a in options if isinstance(a, Ready)]
        return ready[0] if ready else options[0]

    # ---------------------------------------------------------------- tax

    def _give_back(self, view: View, options: list[GiveBack]) -> GiveBack:
        """The cards worth least to us: low ranks, no control cards, no low quads."""
        value = _card_values(view.hand, view.rules, reversed_=False)
        return min(options, key=lambda a: (sum(value[c] for c in a.cards), a.cards))

    # ---------------------------------------------------------------- tricks

    def _play(self, view: View, plays: list[Play], options: list[Action]) -> Action:
        rules, hand = view.rules, view.hand
        passing = next((a for a in options if isinstance(a, Pass)), None)
        if not plays:
            assert passing is not None
            return passing
        for play in plays:
            if _goes_out(rules, play, len(hand)) and not _forbidden_out(view, play):
                return play  # go out at once (perhaps by giving or discarding the rest)
        safe = [p for p in plays if not _forbidden_out(view, p)]
        if not safe:  # every play left would go out on a forbidden card
            return passing if passing is not None else plays[0]
        plays = safe
        revolution = self._revolution(view, plays)
        if revolution is not None:
            return revolution
        table = strengths(rules.rank_order, view.reversed)
        groups = Counter(card.rank for card in hand)
        leading = passing is None
        danger = _opponent_close_to_out(view)
        few_left = len(hand) <= 3

        def cost(play: Play) -> tuple[bool, bool, bool, int, float, int, tuple[Card, ...]]:
            rank = _play_rank(play, table)
            strength = table[rank]
            breaks = sum(1 for r in {c.rank for c in play.cards} if groups[r] > _count(play, r))
            control = _is_control(rank, rules, view.reversed)
            quad = len(play.cards) >= 4 and (rules.bomb == "quad" or rules.revolution != "off")
            size_bonus = -0.3 * len(play.cards) if leading else 0.0
            size_bonus -= _sheds(rules, play, len(hand))
            if play.declared and not (few_left or danger):
                size_bonus += 2.0 * len(play.declared)  # a wild joker is worth keeping
            return (_strands(view, play), control or quad,
                    _wastes_joker(play) and not (few_left or danger), breaks,
                    strength + size_bonus, _lock_choice(view, play, table), play.cards)

        ranked = sorted(plays, key=cost)
        best = ranked[0]
        rank = _play_rank(best, table)
        control = _is_control(rank, rules, view.reversed) or (
            len(best.cards) >= 4 and (rules.bomb == "quad" or rules.revolution != "off"))
        if leading:
            return best
        if passing is not None and (control or cost(best)[2]) and not (
                few_left or danger or cost(best)[0]):
            return passing  # keep 2s and jokers to regain the lead later
        if (passing is not None and cost(best)[3] and not (few_left or danger)
                and table[rank] > _mid(table)):
            return passing  # don't break a high set just to follow
        return best

    def _revolution(self, view: View, plays: list[Play]) -> Play | None:
        """A quad that turns our low hand strong, when the rules make quads revolt."""
        rules = view.rules
        if rules.revolution == "off":
            return None
        quads = [p for p in plays if len(p.cards) >= 4 and len({c.rank for c in p.cards}) == 1]
        if not quads:
            return None
        for quad in sorted(quads, key=lambda p: p.cards):
            rest = list(view.hand)
            for card in quad.cards:
                rest.remove(card)
            now = _hand_score(rest, rules, view.reversed)
            after = _hand_score(rest, rules, not view.reversed)
            if after > now:
                return quad
        return None


# ---------------------------------------------------------------- suit lock


def _lock_choice(view: View, play: Play, table: dict[Rank, int]) -> int:
    """``suit_lock``: how a play's suits rank among those of plays of one rank and size:
    0 if it locks the pile to suits in each of which we keep a higher card (we may
    answer the lock, the others perhaps not), 1 if it starts no lock, 2 if it locks the
    pile to suits we cannot answer in."""
    rules, top = view.rules, view.top
    if top is None or not view.pile or not locks(rules) or (
            view.lock is not None and view.lock.suits):
        return 1
    _, beaten, declared = view.pile[-1]
    cards = stands_for(play.cards, play.declared)
    combo = classify(play.cards, rules, view.reversed, play.declared)
    if not isinstance(combo, Combo):
        return 1
    after = lock_after(view.lock, stands_for(beaten, declared), cards, combo, top, rules,
                       table)
    if after is None or not after.suits:
        return 1
    rest = list(view.hand)
    for card in play.cards:
        rest.remove(card)
    higher = all(any(card.suit is suit and table[card.rank] > table[combo.rank]
                     for card in rest) for suit in set(after.suits))
    return 0 if higher else 2


# ---------------------------------------------------------------- 7-pass, 10-discard


def shed(hand: tuple[Card, ...], options: list[Give | Discard], rules: HouseRules,
         reversed_: bool) -> Give | Discard:
    """``seven_pass``, ``ten_discard``: the choice that sheds the cards worth least to
    us in the order in force (low singles first; pairs and low near-quads are kept)."""
    value = _card_values(hand, rules, reversed_)
    return min(options, key=lambda a: (sum(value[c] for c in a.cards), a.cards))


def _sheds(rules: HouseRules, play: Play, held: int) -> float:
    """What a play's 7s (``seven_pass``) and 10s (``ten_discard``) are worth beyond its
    own cards: each lets the player shed one more card (while cards are left to shed), so
    such a play is worth as much as a play two ranks lower."""
    return 2.0 * min(_extra(rules, play), held - len(play.cards))


def _extra(rules: HouseRules, play: Play) -> int:
    """How many more cards ``play`` lets its player shed: one per 7 (``seven_pass``), one
    per 10 (``ten_discard``)."""
    return sum(1 for card in stands_for(play.cards, play.declared)
               if (rules.seven_pass and card.rank is Rank.SEVEN)
               or (rules.ten_discard and card.rank is Rank.TEN))


def _goes_out(rules: HouseRules, play: Play, held: int) -> bool:
    """Whether ``play`` empties a hand of ``held`` cards, by itself or with the cards its
    7s and 10s then give or discard."""
    return len(play.cards) + _extra(rules, play) >= held


# ---------------------------------------------------------------- helpers


def _count(play: Play, rank: Rank) -> int:
    return sum(1 for card in play.cards if card.rank is rank)


def _play_rank(play: Play, table: dict[Rank, int]) -> Rank:
    """The play's highest rank (a wild joker's as declared)."""
    return max((card.rank for card in stands_for(play.cards, play.declared)),
               key=table.__getitem__)


def _wastes_joker(play: Play) -> bool:
    """A wild joker spent beside a single card (a pair): a joker alone is the best single,
    so it is worth spending only to complete a bigger set or a run."""
    return bool(play.declared) and len(play.cards) - len(play.declared) < 2


def _mid(table: dict[Rank, int]) -> int:
    return sorted(table.values())[len(table) // 2]


def _is_control(rank: Rank, rules: HouseRules, reversed_: bool) -> bool:
    """Cards that win tricks: jokers and the best rank (2, or 3 during a revolution); 8s
    under ``eight_cut`` (an 8 clears the pile and its player leads again)."""
    return rank is Rank.JOKER or rank is best_rank(rules, reversed_) or (
        rules.eight_cut and rank is Rank.EIGHT)


def _forbidden_out(view: View, play: Play) -> bool:
    """Whether ``play`` empties the hand on a forbidden finish (``forbidden_finish``; a
    hand emptied by the give or discard a play sets off goes out on that play)."""
    if not view.rules.forbidden_finish or not _goes_out(view.rules, play, len(view.hand)):
        return False
    combo = classify(play.cards, view.rules, view.reversed, play.declared)
    return isinstance(combo, Combo) and finish_is_forbidden(
        view.rules, play.cards, combo, view.top, view.reversed)


def _strands(view: View, play: Play) -> bool:
    """Whether ``play`` leaves only cards no one may go out on (``forbidden_finish``):
    play those first, while a safe card remains for the end."""
    rules = view.rules
    if not rules.forbidden_finish:
        return False
    rest = list(view.hand)
    for card in play.cards:
        rest.remove(card)
    best = best_rank(rules, view.reversed)
    return bool(rest) and all(forbidden_last_card(rules, card.rank, best) for card in rest)


def _opponent_close_to_out(view: View) -> bool:
    seat = view.seat
    return any(
        0 < count <= 2 for other, count in enumerate(view.counts) if other != seat
    )


def _hand_score(cards: list[Card], rules: HouseRules, reversed_: bool) -> float:
    """How strong a hand is: high cards count, sets count more than singles."""
    table = strengths(rules.rank_order, reversed_)
    top = max(v for r, v in table.items() if r is not Rank.JOKER)
    groups = Counter(card.rank for card in cards)
    score = 0.0
    for rank, size in groups.items():
        strength = min(table[rank], top + 1)
        score += (strength - top / 2) * (1 + 0.25 * (size - 1)) * size
    return score


def _card_values(
    hand: tuple[Card, ...], rules: HouseRules, reversed_: bool
) -> dict[Card, float]:
    """What each card is worth keeping: its strength, more for pairs and low quads."""
    table = strengths(rules.rank_order, reversed_)
    groups = Counter(card.rank for card in hand)
    values: dict[Card, float] = {}
    for card in hand:
        value = float(min(table[card.rank], 20))
        if groups[card.rank] >= 2:
            value += 1.5
        if rules.revolution != "off" and groups[card.rank] >= 3 and value < 8:
            value += 20  # a (near) quad of low cards: the revolution we play for
        values[card] = value
    return values
