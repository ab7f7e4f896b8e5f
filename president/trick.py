"""What a play sets off, as named steps: one function per house rule.

``engine._play`` works a play through, in this order (the order of its events):

1. the cards leave the hand for the pile (``play``);
2. the rule steps ``play_steps`` enables for the rules, in order: ``revolution``,
   ``run_revolution``, ``eight_cut`` and ``spade_three_return`` (mark the cut),
   ``suit_lock``, ``jack_back``, ``nine_reverse``, ``five_skip``;
3. ``went_out`` if the hand is empty (``forbidden_finish``, ``downfall``);
4. the end of the hand, if one player or none still holds cards;
5. the clear of an 8-cut or a spade-3 return (``cut`` or ``return``, ``clear``);
6. the skip steps ``skip_steps`` enables: ``equal_rank_skip``; then the skips
   (``skip`` events);
7. the clear of the trick, or the turn to the next player (``engine._advance``).

A new rule is a field of ``HouseRules``, one step here (what it does, and when it
applies), its event and its text. Steps read and change a ``Trick``: the play in
progress, local to one ``apply``; a play no step applies to needs none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from president.cards import Card, Rank, Suit, format_cards
from president.combos import EQUAL, Combo, Outcome, best_rank, is_spade_three_return, stands_for
from president.events import Event
from president.locks import Lock, lock_after
from president.rules import EqualRank, HouseRules, Revolution, SuitLock

if TYPE_CHECKING:
    from president.state import State


@dataclass(slots=True)
class Trick:
    """One play being worked through the steps: the state before it, the play, and
    the values after it so far."""

    state: State
    seat: int
    cards: tuple[Card, ...]
    combo: Combo
    outcome: Outcome
    events: list[Event]
    hands: tuple[tuple[Card, ...], ...]  # after the play
    active: list[int]  # seats holding cards after the play, in seating order
    reversed: bool
    played_reversed: bool  # the order the play was made in (before any revolution)
    direction: int
    singles: int  # consecutive singles of one rank, this one included
    back: bool
    finished: tuple[int, ...]
    bottom: tuple[int, ...]
    lock: Lock | None
    cut: str = ""  # a play that clears the pile at once: its event ("cut", "return")
    skips: int = 0
    declared: tuple[Card, ...] = ()  # what the play's jokers stand for (wild jokers)

    @property
    def rules(self) -> HouseRules:
        return self.state.rules

    @property
    def shown(self) -> tuple[Card, ...]:
        """The cards the play stands for (its jokers as declared): what the steps read."""
        return stands_for(self.cards, self.declared)

    def event(self, code: str, **params: object) -> None:
        self.events.append(Event(code, {"hand": self.state.hand_number, **params}))


Act = Callable[[Trick], None]
Applies = Callable[[Combo, tuple[Card, ...], int, Outcome], bool]


@dataclass(frozen=True, slots=True)
class Step:
    """One rule's step: ``act`` works it on the trick; ``applies`` tells from the play
    alone (its combo, cards, run of singles and outcome) whether it may act, so that a
    play no step applies to goes through none."""

    applies: Applies
    act: Act


def _holding(rank: Rank) -> Applies:
    """A play holding a card of ``rank``."""
    def holds(combo: Combo, cards: tuple[Card, ...], singles: int, outcome: Outcome) -> bool:
        return any(card.rank is rank for card in cards)
    return holds


def _big_set(combo: Combo, cards: tuple[Card, ...], singles: int, outcome: Outcome) -> bool:
    """A set of four or more, or the fourth single of a rank in a row."""
    return combo.kind == "set" and (combo.size >= 4 or singles == 4)


def _long_run(combo: Combo, cards: tuple[Card, ...], singles: int, outcome: Outcome) -> bool:
    """A run of four or more cards."""
    return combo.kind == "run" and combo.size >= 4


def _equal(combo: Combo, cards: tuple[Card, ...], singles: int, outcome: Outcome) -> bool:
    """A play equal in rank to the top."""
    return outcome is EQUAL


def same_rank_singles(state: State, combo: Combo) -> int:
    """How many singles of one rank lie on the pile in a row once ``combo`` is played
    (what the four-in-a-row revolution counts)."""
    if combo.kind != "set" or combo.size != 1:
        return 0
    top = state.top
    if top is not None and top.size == 1 and top.rank is combo.rank:
        return state.same_rank_singles + 1
    return 1


# ---------------------------------------------------------------- rule steps


def revolution(trick: Trick) -> None:
    """``revolution``: a set of four or more (or, with ``quad_or_four_in_a_row``, the
    fourth single of a rank in a row) turns the rank order; with
    ``revolution_reverses_direction`` it turns the direction of play too."""
    combo = trick.combo
    revolt = combo.kind == "set" and combo.size >= 4
    if trick.singles == 4 and trick.rules.revolution is Revolution.QUAD_OR_FOUR_IN_A_ROW:
        revolt, trick.singles = True, 0
    if revolt:
        _revolt(trick)


def run_revolution(trick: Trick) -> None:
    """``run_revolution``: a run of four or more cards turns the rank order as a
    revolution does (``revolution_reverses_direction`` too)."""
    if trick.combo.kind == "run" and trick.combo.size >= 4:
        _revolt(trick)


def _revolt(trick: Trick) -> None:
    """A revolution: the rank order turns (and, with ``revolution_reverses_direction``,
    the direction of play)."""
    trick.reversed = not trick.reversed
    if trick.rules.revolution_reverses_direction:
        trick.direction = -trick.direction
    # The revolution's own order: an 11-back in force lasts only until the clear.
    trick.event("revolution", reversed=trick.reversed != trick.state.back)


def eight_cut(trick: Trick) -> None:
    """``eight_cut``: a play holding an 8 clears the pile (after the other steps; see
    ``engine._play``), and its player leads."""
    if any(card.rank is Rank.EIGHT for card in trick.shown):
        trick.cut = "cut"


def _spade_three(combo: Combo, cards: tuple[Card, ...], singles: int, outcome: Outcome) -> bool:
    """A lone 3 of spades."""
    return combo.size == 1 and combo.rank is Rank.THREE and combo.suit is Suit.SPADES


def spade_three_return(trick: Trick) -> None:
    """``spade_three_return``: the 3 of spades played on a lone joker wins the trick at
    once: the pile is cleared (as by an 8-cut) and its player leads (supe-san gaeshi)."""
    if is_spade_three_return(trick.combo, trick.state.top):
        trick.cut = "return"


def suit_lock(trick: Trick) -> None:
    """``suit_lock``: a play with the suits of the play it beat locks the pile to them;
    under ``suits_and_step``, a play one rank step above it locks the pile to steps
    (``locks.lock_after``). A cut clears at once: no lock to speak of."""
    state = trick.state
    if trick.cut or state.top is None:
        return
    before = trick.lock
    strength = state.game.strength[trick.played_reversed]
    beaten = state.pile[-1]
    after = lock_after(before, stands_for(beaten.cards, beaten.declared), trick.shown,
                       trick.combo, state.top, trick.rules, strength)
    if after != before and after is not None:
        trick.lock = after
        trick.event("lock", suits="".join(suit.symbol for suit in after.suits),
                    step=after.step)


def _any_play(combo: Combo, cards: tuple[Card, ...], singles: int, outcome: Outcome) -> bool:
    """Any play (whether it locks depends on the pile)."""
    return True


def jack_back(trick: Trick) -> None:
    """``jack_back``: a play holding a jack turns the rank order until the clear (a cut
    clears at once: no back to speak of)."""
    if not trick.cut and any(card.rank is Rank.JACK for card in trick.shown):
        trick.back, trick.reversed = not trick.back, not trick.reversed
        trick.event("back", on=trick.back)


def nine_reverse(trick: Trick) -> None:
    """``nine_reverse``: a play holding a 9 turns the direction of play."""
    if any(card.rank is Rank.NINE for card in trick.shown):
        trick.direction = -trick.direction
        trick.event("reverse", direction=trick.direction)


def five_skip(trick: Trick) -> None:
    """``five_skip``: each 5 played skips one player."""
    trick.skips += sum(1 for card in trick.shown if card.rank is Rank.FIVE)


def equal_rank_skip(trick: Trick) -> None:
    """``equal_rank = skip``: a play equal in rank to the top skips the next player,
    unless ``skip_not_with_best`` forbids it with the best card, and, with two players
    left, only if ``skip_two_players_replay`` (the player then plays again; a player
    who just went out cannot, so the skip is an ordinary one)."""
    if trick.outcome is not EQUAL:
        return
    rules, rank = trick.rules, trick.combo.rank
    if rules.skip_not_with_best and (
        rank is Rank.JOKER or rank is best_rank(rules, trick.played_reversed)
    ):
        return
    if rules.skip_two_players_replay or len(trick.active) > 2 or not trick.hands[trick.seat]:
        trick.skips += 1


# ---------------------------------------------------------------- going out


def went_out(trick: Trick, forbidden: bool, falls: bool) -> None:
    """The player emptied their hand: they take the next place, unless the finish is
    forbidden (``forbidden``: the rules have ``forbidden_finish``); the first out may
    bring the previous President down (``falls``: the rules have ``downfall``)."""
    take_place(trick, forbidden_finish(trick) if forbidden else "", falls)


def take_place(trick: Trick, forbidden: str, falls: bool) -> None:
    """``trick.seat`` has no cards left: the bottom place if the finish is ``forbidden``
    (why: ``forbidden_reason``; "" when it is not), else the next place (and, if
    ``falls`` and it is the first out, ``downfall``)."""
    seat, hands = trick.seat, trick.hands
    if forbidden:
        trick.bottom += (seat,)
        why, _, rank = forbidden.partition(":")
        trick.event("forbidden", seat=seat, place=len(hands) + 1 - len(trick.bottom), why=why,
                    **({"rank": rank} if rank else {}))
        return
    trick.finished += (seat,)
    trick.event("out", seat=seat, place=len(trick.finished))
    if falls:
        downfall(trick)


def forbidden_finish(trick: Trick) -> str:
    """``forbidden_finish`` for the play of ``trick`` (``forbidden_reason``)."""
    return forbidden_reason(trick.rules, trick.cards, trick.combo, trick.state.top,
                            trick.played_reversed)


def finish_is_forbidden(rules: HouseRules, cards: tuple[Card, ...], combo: Combo,
                        top: Combo | None, reversed_: bool) -> bool:
    """``forbidden_finish``: whether going out with ``cards`` (forming ``combo`` on
    ``top``, in the order ``reversed_``) is forbidden: a joker, the best rank in the
    order the play is made in (the 2; the 3 during a revolution), an 8 with
    ``eight_cut``, or the 3 of spades returning a joker with ``spade_three_return``."""
    return bool(forbidden_reason(rules, cards, combo, top, reversed_))


def forbidden_reason(rules: HouseRules, cards: tuple[Card, ...], combo: Combo,
                     top: Combo | None, reversed_: bool) -> str:
    """Why going out with ``cards`` is forbidden (``finish_is_forbidden``), as the
    ``forbidden`` event's ``why``: "joker", "best:<rank>" (the best rank in the order in
    force), "eight" (``eight_cut``), "spade_three" (``spade_three_return``); "" if not."""
    best = best_rank(rules, reversed_)
    for card in cards:
        if forbidden_last_card(rules, card.rank, best):
            return ("joker" if card.rank is Rank.JOKER
                    else f"best:{best.symbol}" if card.rank is best else "eight")
    if rules.spade_three_return and is_spade_three_return(combo, top):
        return "spade_three"
    return ""


def forbidden_last_card(rules: HouseRules, rank: Rank, best: Rank) -> bool:
    """A rank no one may go out on whatever the pile (``best``: the best rank in the
    order the play is made in): a joker, the best rank, an 8 with ``eight_cut``."""
    return rank is Rank.JOKER or rank is best or (rules.eight_cut and rank is Rank.EIGHT)


def downfall(trick: Trick) -> None:
    """``downfall`` (miyako-ochi): when someone other than the previous President goes
    out first, after the first hand, the previous President drops to the bottom place
    and their cards are shown."""
    state, hands = trick.state, trick.hands
    if len(trick.finished) != 1 or not state.results:
        return
    president = state.results[-1].order[0]
    if president == trick.finished[0] or president in trick.bottom or not hands[president]:
        return
    discarded = hands[president]
    changed = list(hands)
    changed[president] = ()
    trick.hands = tuple(changed)
    trick.bottom += (president,)
    trick.event("downfall", seat=president, place=len(hands) + 1 - len(trick.bottom),
                cards=format_cards(discarded))


# ---------------------------------------------------------------- enabled per rules


def play_steps(rules: HouseRules) -> tuple[Step, ...]:
    """The rule steps a play goes through under ``rules``, in order."""
    steps: list[tuple[bool, Step]] = [
        (rules.revolution is not Revolution.OFF, Step(_big_set, revolution)),
        (rules.run_revolution, Step(_long_run, run_revolution)),
        (rules.eight_cut, Step(_holding(Rank.EIGHT), eight_cut)),
        (rules.spade_three_return, Step(_spade_three, spade_three_return)),
        (rules.suit_lock is not SuitLock.OFF, Step(_any_play, suit_lock)),
        (rules.jack_back, Step(_holding(Rank.JACK), jack_back)),
        (rules.nine_reverse, Step(_holding(Rank.NINE), nine_reverse)),
        (rules.five_skip, Step(_holding(Rank.FIVE), five_skip)),
    ]
    return tuple(step for enabled, step in steps if enabled)


def skip_steps(rules: HouseRules) -> tuple[Step, ...]:
    """The steps that add skips after a play that leaves the trick open."""
    return (Step(_equal, equal_rank_skip),) if rules.equal_rank is EqualRank.SKIP else ()
