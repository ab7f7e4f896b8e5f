"""The rules engine: pure functions over an immutable ``State``.

``legal_actions`` (``legality.py``, with ``to_act``; both part of this module's API) is
the one source of truth for legality: ``apply`` accepts an action only if
``legal_actions`` lists it (a decree's free text aside), and otherwise raises
``IllegalAction`` with a reason code, leaving the state as it was.

Where each house rule acts is listed in ``rules-docs/engine.md``: the move generator
(``moves.py``) and the comparison of plays (``combos.py``) decide what may be played;
the steps of a play (``trick.py``) what it sets off; this module runs the hand: the
deal, the tax, the lead, the trick, the scoring and the end of the session, each in
one function.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import repeat
from operator import is_
from random import Random
from typing import Any

from president.actions import (
    Action,
    Decree,
    Discard,
    Give,
    GiveBack,
    Pass,
    Play,
    Ready,
    action_to_dict,
    sorted_cards,
)
from president.cards import Card, Rank, card_key, format_cards, make_deck, shuffled
from president.combos import BEATS, Combo, Outcome, classify, compare, in_order, stands_for
from president.errors import IllegalAction
from president.events import Event
from president.legality import decree_hand, legal_actions, legal_for, to_act
from president.moves import HandMoves, listed_form
from president.refusals import decree_text_ok, reason
from president.roles import STARTING_SCORE, Role, points, roles_for_places
from president.rules import Dealer, FirstLead, HouseRules, LaterLead, SessionEnd, check_player_count
from president.seeds import hand_rng
from president.state import GiveDue, HandResult, Phase, PileEntry, State, TaxDue
from president.trick import Trick, forbidden_reason, same_rank_singles, take_place, went_out
from president.view import view

__all__ = ["apply", "end_session", "explain_illegal", "legal_actions", "new_session", "to_act"]

_NOBODY: frozenset[int] = frozenset()
_PLAY = Phase.PLAY  # (as legality's: a module name is read faster than an enum member)
_Hands = tuple[tuple[Card, ...], ...]


def _evolve(state: State, changes: dict[str, Any]) -> State:
    """The state with ``changes`` (``_made``)."""
    return _made(state.__dict__ | changes)


def _made(values: dict[str, Any]) -> State:
    """The state of the fields ``values``: the one place a state is made from another.
    ``values`` are the other's fields as a dict (with the seats' moves, ``_moves``),
    copied and changed: in a play or pass ``state.__dict__.copy()`` and a store per
    change (faster than a dict of the changes merged), elsewhere ``_evolve``. It starts
    with no legal actions found.

    Measured (CPython 3.11): building a State through its frozen dataclass ``__init__``
    takes 3.3-3.8 µs (34 fields, each set through ``object.__setattr__``), this 0.6 µs;
    with ``State(**fields)`` here, bench/bench_engine.py gives 16.2 µs per play or pass
    at 4 players classic instead of 10."""
    values["_legal"] = {}
    new = _new_state(State)
    _set_field(new, "__dict__", values)
    return new


_new_state = State.__new__
_set_field = object.__setattr__
_new_tuple = tuple.__new__  # (a named tuple without its slower ``__new__``: PileEntry)


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
    """End the session between hands (``session_end`` = minutes or open: the host decides).
    A session whose rules end it by hands or by score, ended before they do, is marked
    ``early`` (its ``session_end`` says so)."""
    if state.phase is not Phase.HAND_OVER:
        raise IllegalAction("wrong_phase", seat=None, phase=state.phase.value,
                            action={"type": "end_session"})
    return _finish_session(state, early=state.rules.session_end in _RULES_END)


# ---------------------------------------------------------------- the seats' moves


def _with_moves(
    state: State, seat: int, moves: HandMoves | None
) -> tuple[HandMoves | None, ...]:
    """``state._moves`` with ``seat``'s replaced."""
    known = state._moves
    if known is None:
        known = (None,) * len(state.players)
    return known[:seat] + (moves,) + known[seat + 1:]


# ---------------------------------------------------------------- apply


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """The state after ``action`` and what happened. Raises ``IllegalAction``."""
    done = _apply_listed(state, action)
    return done if done is not None else _apply_checked(state, action)


def _apply_listed(state: State, action: Action) -> tuple[State, list[Event]] | None:
    """The fast path: an action equal to one ``legal_actions`` lists, recognised by value
    (seat and cards: a bot's listed object and a copy decoded from the network alike).
    None: not recognised here (``_apply_checked`` decides)."""
    seat = action.seat
    if (state.phase is _PLAY and seat == state.turn and type(seat) is int
            and not state.giving):
        if type(action) is Pass:
            _, moves, outcomes = state._legal.get(seat) or legal_for(state, seat)
            # The leader may not pass: a seat that may pass meets a top (outcomes).
            return _pass(state, seat, moves) if outcomes is not None else None
        if type(action) is Play:
            _, moves, outcomes = state._legal.get(seat) or legal_for(state, seat)
            cards = action.cards
            assert moves is not None  # the tricks, on turn
            if action.declared:
                found = moves.find_declared(action)
            else:
                found = moves.find(cards) if cards else None
            if found is None:
                return None
            combo, key = found
            outcome = BEATS if outcomes is None else outcomes.get(key)
            if not outcome:
                return None
            return (_play if state.game.choices else _land)(
                state, seat, cards, combo, outcome, moves, action.declared)
    if type(seat) is not int:
        return None
    if isinstance(action, GiveBack):
        # The listed object itself (found by identity, in C: a tax lists dozens), else
        # one with equal cards (compared as tuples: a dataclass compare each costs more).
        cards = action.cards
        listed = legal_for(state, seat)[0]
        if any(map(is_, listed, repeat(action))) or any(
                type(other) is GiveBack and other.cards == cards for other in listed):
            return _give_back(state, seat, cards)
    elif isinstance(action, (Give, Discard)):
        if action in legal_for(state, seat)[0]:
            return _give(state, seat, action.cards)
    elif isinstance(action, Ready) and action in legal_for(state, seat)[0]:
        return _ready(state, seat)
    return None


def _apply_checked(state: State, action: Action) -> tuple[State, list[Event]]:
    """Any other action: put in the form ``legal_actions`` lists, checked, applied or
    refused with the reason."""
    action = sorted_cards(action)
    seat = action.seat
    legal = legal_actions(state, seat)
    if isinstance(action, Decree):
        ok = Decree(seat, "") in legal and decree_text_ok(action.text)
    else:
        hand = state.hands[seat] if seat in state.seats else ()
        ok = listed_form(hand, action, state.rules) in legal
    if not ok:
        raise IllegalAction(
            explain_illegal(state, action), seat=action.seat, phase=state.phase.value,
            action=action_to_dict(action),
        )
    match action:
        case Play(seat, cards, declared):
            combo = classify(cards, state.rules, state.reversed, declared)
            assert isinstance(combo, Combo)
            moves = legal_for(state, seat)[1]
            assert moves is not None
            outcome = compare(combo, state.top, state.rules, state.reversed)
            return _play(state, seat, cards, combo, outcome, moves, declared)
        case Pass(seat):
            moves = legal_for(state, seat)[1]
            assert moves is not None
            return _pass(state, seat, moves)
        case GiveBack(seat, cards):
            return _give_back(state, seat, cards)
        case Give(seat, cards) | Discard(seat, cards):
            return _give(state, seat, cards)
        case Ready(seat):
            return _ready(state, seat)
        case Decree(seat, text):
            return _make_decree(state, seat, text)
    raise TypeError(action)


def explain_illegal(state: State, action: Action) -> str:
    """The reason code for an action ``legal_actions`` does not list: the acting seat's
    view answers (``refusals.reason``, what a client asks too), but whether this hand's
    decree is already made is known only here."""
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
        if state.decree_hand == decree_hand(state):
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


def _set_hand(hands: _Hands, seat: int, cards: tuple[Card, ...]) -> _Hands:
    changed = list(hands)
    changed[seat] = cards
    return tuple(changed)


# ---------------------------------------------------------------- the trick


def _play(
    state: State, seat: int, cards: tuple[Card, ...], combo: Combo, outcome: Outcome,
    moves: HandMoves, declared: tuple[Card, ...] = (),
) -> tuple[State, list[Event]]:
    """``cards`` (all in the hand; their jokers standing for ``declared``) form ``combo``,
    which compares with the top as ``outcome``; ``moves`` are the seat's. The play's steps
    (``_land``), then the choices it leaves the player (``seven_pass``, ``ten_discard``),
    as the cards the play stands for ask (``stands_for``: a joker named a 7 passes)."""
    done = _land(state, seat, cards, combo, outcome, moves, declared)
    if state.game.choices:
        return _ask_choices(state, seat, cards, combo, *done, declared=declared)
    return done


def _land(
    state: State, seat: int, cards: tuple[Card, ...], combo: Combo, outcome: Outcome,
    moves: HandMoves, declared: tuple[Card, ...] = (),
) -> tuple[State, list[Event]]:
    """The steps of a play in ``trick.py``'s order (a play no step applies to that does
    not empty the hand needs no ``Trick``); they read the cards the play stands for
    (``stands_for``)."""
    game, top, hand = state.game, state.top, state.hands[seat]
    params = {"hand": state.hand_number, "seat": seat, "cards": format_cards(cards)}
    if declared:
        params["declared"] = format_cards(declared)
    events = [Event("play", params)]
    # A listed set lies together in the sorted hand. (Found by key: cards compare by
    # identity, and a comparison of two that differ costs as much as a function call.)
    at, count = bisect_left(hand, cards[0].key, key=card_key), len(cards)
    if hand[at:at + count] == cards:
        left = hand[:at] + hand[at + count:]
    else:
        rest = list(hand)
        for card in cards:
            rest.remove(card)  # the caller checked they are all in the hand
        left = tuple(rest)
    hands = state.hands[:seat] + (left,) + state.hands[seat + 1:]
    singles = same_rank_singles(state, combo)
    known = state._moves or (None,) * len(hands)  # (``_with_moves``, inlined)
    values = state.__dict__.copy()  # the next state's fields (``_made``)
    values["hands"] = hands
    values["pile"] = state.pile + (_new_tuple(PileEntry, (seat, cards, declared)),)
    values["top"] = game.top_after(combo, top) if game.transparent_threes else combo
    values["last_player"] = seat
    values["passed"] = _NOBODY
    values["same_rank_singles"] = singles
    values["_moves"] = known[:seat] + (
        game.moves.after_play(moves, cards, left) if left else None,) + known[seat + 1:]
    if not game.steps and left:
        # No step applies: the play lands and the turn passes on.
        if len(hands) - hands.count(()) <= 1:  # the others are all out (a made-up state)
            return _end_hand(_made(values), events)
        return _advance(state, values, events, seat, _NOBODY, state.locked, hands,
                        state.direction, seat)
    shown = stands_for(cards, declared)
    acts = [step.act for step in game.play_steps if step.applies(combo, shown, singles, outcome)]
    skip_acts = [step.act for step in game.skip_steps
                 if step.applies(combo, shown, singles, outcome)]
    if not (acts or skip_acts) and left:
        if len(hands) - hands.count(()) <= 1:
            return _end_hand(_made(values), events)
        return _advance(state, values, events, seat, _NOBODY, state.locked, hands,
                        state.direction, seat)
    trick = Trick(
        state, seat, cards, combo, outcome, events, hands, [], state.reversed, state.reversed,
        state.direction, singles, state.back, state.finished, state.bottom, state.lock,
        declared=declared,
    )
    for act in acts:
        act(trick)
    if trick.reversed != state.reversed and combo.kind == "run":
        values["top"] = in_order(combo, shown, state.rules, trick.reversed)
    if not left:
        went_out(trick, game.forbidden_finish, game.downfall)
        hands = trick.hands
    values.update(
        hands=hands, reversed=trick.reversed, direction=trick.direction,
        same_rank_singles=trick.singles, finished=trick.finished, back=trick.back,
        bottom=trick.bottom, lock=trick.lock,
    )
    direction = trick.direction
    active = trick.active = [other for other in state.order if hands[other]]
    if len(active) <= 1:
        return _end_hand(_made(values), events)
    if trick.cut:  # "cut" (eight_cut) or "return" (spade_three_return)
        events.append(Event(trick.cut, {"hand": state.hand_number, "seat": seat}))
        leader = seat if left else _next_seat(state, direction, hands, seat)
        return _clear(state, values, events, leader)
    for act in skip_acts:
        act(trick)
    passed = _NOBODY
    if trick.skips:
        passed = values["passed"] = _skip(state, trick, direction, hands)
    return _advance(state, values, events, seat, passed, state.locked, hands, direction, seat)


# ---------------------------------------------------------------- 7-pass, 10-discard


def _ask_choices(
    before: State, seat: int, cards: tuple[Card, ...], combo: Combo, state: State,
    events: list[Event], declared: tuple[Card, ...] = (),
) -> tuple[State, list[Event]]:
    """``seven_pass``, ``ten_discard``: once the play's steps are done (a revolution, a
    cut, a reverse, skips: the turn they give is kept in ``resume``), a player who still
    holds cards chooses one card per 7 played to pass to the next player still in the
    hand (in the direction of play after the play), then one per 10 to discard; fewer
    if they hold fewer. A play that ends the hand or empties the hand leaves no choice."""
    left = len(state.hands[seat])
    if state.phase is not Phase.PLAY or not left:
        return state, events
    rules, shown = state.rules, stands_for(cards, declared)
    sevens = sum(1 for card in shown if card.rank is Rank.SEVEN) if rules.seven_pass else 0
    tens = sum(1 for card in shown if card.rank is Rank.TEN) if rules.ten_discard else 0
    if not (sevens or tens):
        return state, events
    forbidden = forbidden_reason(rules, cards, combo, before.top, before.reversed) \
        if rules.forbidden_finish else ""
    dues: list[GiveDue] = []
    if sevens:
        to = _next_seat(state, state.direction, state.hands, seat)
        assert to is not None and to != seat  # the hand goes on: someone else holds cards
        dues.append(GiveDue(seat, "give", min(sevens, left), to, combo, forbidden))
        left -= dues[0].count
    if tens and left:
        dues.append(GiveDue(seat, "discard", min(tens, left), None, combo, forbidden))
    return _evolve(state, dict(giving=tuple(dues), resume=state.turn, turn=seat)), events


def _give(state: State, seat: int, cards: tuple[Card, ...]) -> tuple[State, list[Event]]:
    """The 7-pass or 10-discard due (``state.giving[0]``) made with ``cards``. A player
    who gives or discards their last cards goes out (``trick.take_place``: forbidden if
    the play that set it off would have been); the turn then goes where the play sent it
    (``resume``), or to the next player if that was the one who went out."""
    due, number = state.giving[0], state.hand_number
    hands = _set_hand(state.hands, seat, _taken(state.hands[seat], cards))
    changes: dict[str, Any] = {"giving": state.giving[1:]}
    if due.to is not None:
        hands = _set_hand(hands, due.to, tuple(sorted(hands[due.to] + cards, key=card_key)))
        changes["gifts"] = state.gifts + ((seat, due.to, cards),)
        events = [Event("give", {"hand": number, "from": seat, "to": due.to,
                                 "cards": format_cards(cards)})]
    else:
        changes["discards"] = state.discards + ((seat, cards),)
        events = [Event("discard", {"hand": number, "seat": seat, "cards": format_cards(cards)})]
    if not hands[seat]:
        trick = Trick(state, seat, (), due.play, BEATS, events, hands, [], state.reversed,
                      state.reversed, state.direction, 0, state.back, state.finished,
                      state.bottom, state.lock)
        take_place(trick, due.forbidden, state.game.downfall)
        hands = trick.hands
        changes.update(giving=(), finished=trick.finished, bottom=trick.bottom)
    changes["hands"] = hands
    if len(hands) - hands.count(()) <= 1:
        return _end_hand(_evolve(state, changes), events)
    if not changes["giving"]:
        turn = state.resume
        if turn is None or not hands[turn]:
            turn = _next_seat(state, state.direction, hands, seat)
            if state.top is None and not hands[seat]:
                # The pile was cleared for this seat to lead, and it went out instead:
                # its out (or forbidden) line names who leads.
                gone = events[1]
                events[1] = Event(gone.code, {**gone.params, "leader": turn})
        changes.update(turn=turn, resume=None)
    return _evolve(state, changes), events


def _skip(state: State, trick: Trick, direction: int, hands: _Hands) -> frozenset[int]:
    """The next ``trick.skips`` players who may still play on this trick are skipped."""
    following = state.game.following(state.order, direction, trick.seat)
    skipped = [other for other in following
               if other != trick.seat and hands[other] and other not in state.locked]
    skipped = skipped[:trick.skips]
    for other in skipped:
        trick.event("skip", seat=other)
    return frozenset(skipped)


def _pass(state: State, seat: int, moves: HandMoves | None) -> tuple[State, list[Event]]:
    """A pass (``pass_locks_out``: the seat is out of this trick)."""
    events = [Event("pass", {"hand": state.hand_number, "seat": seat})]
    values = state.__dict__.copy()  # the next state's fields (``_made``)
    passed = values["passed"] = state.passed | {seat}
    locked = state.locked
    if state.rules.pass_locks_out:
        locked = values["locked"] = locked | {seat}
    values["same_rank_singles"] = 0
    if state._moves is None or state._moves[seat] is not moves:
        values["_moves"] = _with_moves(state, seat, moves)
    return _advance(state, values, events, seat, passed, locked, state.hands,
                    state.direction, state.last_player)


def _advance(
    state: State, values: dict[str, Any], events: list[Event], after: int,
    passed: frozenset[int], locked: frozenset[int], hands: _Hands, direction: int,
    last: int | None,
) -> tuple[State, list[Event]]:
    """Clear the trick if everyone else is done with it, else give the turn on from
    ``after``. ``state`` is the state before the action; ``values`` the fields after it
    so far (``_made``); the other arguments are the values after it."""
    done = passed | locked if locked else passed
    game, order = state.game, state.order
    following = (game._following[direction][after] if order is game._order
                 else game.following(order, direction, after))
    turn = None  # the next seat holding cards that is not done with the trick, or the last
    for seat in following:
        if hands[seat] and (seat not in done or seat == last):
            if seat != last:  # someone is still waiting to play on this trick
                values["turn"] = seat if turn is None else turn
                values["_legal"] = {}  # (``_made``, inlined: most actions' state)
                new = _new_state(State)
                _set_field(new, "__dict__", values)
                return new, events
            turn = seat
    assert last is not None  # a trick to clear has a last player
    leader = last if hands[last] else _next_seat(state, direction, hands, last)
    return _clear(state, values, events, leader)


def _clear(
    state: State, values: dict[str, Any], events: list[Event], leader: int | None
) -> tuple[State, list[Event]]:
    """The pile is cleared and ``leader`` leads; an 11-back and a lock in force end with it.
    ``values``: the fields after the action (``_made``)."""
    events.append(Event("clear", {"hand": state.hand_number, "leader": leader}))
    values.update(pile=(), top=None, passed=_NOBODY, locked=_NOBODY,
                  same_rank_singles=0, turn=leader, lock=None)
    if values["back"]:
        values.update(back=False, reversed=not values["reversed"])
    return _made(values), events


def _next_seat(
    state: State, direction: int, hands: _Hands, after: int, skip: frozenset[int] = _NOBODY,
) -> int | None:
    """The next seat in the direction of play that holds cards and is not in ``skip``."""
    for seat in state.game.following(state.order, direction, after):
        if hands[seat] and seat not in skip:
            return seat
    return None


# ---------------------------------------------------------------- hands


def _start_hand(state: State) -> tuple[State, list[Event]]:
    """A new hand: seating, dealer, deal, tax, lead."""
    number = state.hand_number + 1
    rng = hand_rng(state.seed, number)
    previous = state.results[-1] if state.results else None
    order = _seating(state, previous)
    dealer = _dealer(state, previous, order, rng)
    hands = _deal(state.rules, order, dealer, rng)
    events = [Event("deal", {
        "hand": number, "dealer": dealer, "hands": [format_cards(h) for h in hands],
    })]
    decree = state.decree if state.decree_hand == number - 1 else None
    state = _evolve(state, dict(
        phase=Phase.TAX, hand_number=number, dealer=dealer, order=order, hands=hands,
        turn=None, direction=1, reversed=False, pile=(), top=None, last_player=None,
        passed=_NOBODY, locked=_NOBODY, same_rank_singles=0, finished=(),
        tax_due=(), tax_log=(), ready=_NOBODY, decree=decree, back=False, bottom=(),
        lock=None, giving=(), resume=None, gifts=(), discards=(), _moves=None,
    ))
    if previous is not None:
        state, events = _collect_tax(state, previous, events)
    if not state.tax_due:
        return _open_play(state, events)
    return state, events


def _seating(state: State, previous: HandResult | None) -> tuple[int, ...]:
    """``reseat_by_rank``: the President at the head, the Vice President on their left..."""
    if previous is not None and state.rules.reseat_by_rank:
        return previous.order
    return state.order


def _dealer(state: State, previous: HandResult | None, order: tuple[int, ...],
            rng: Random) -> int:
    """``dealer``: the first hand's dealer cuts for high card; then the Scum, the
    President, or the next seat deals."""
    if previous is None:
        return rng.randrange(len(state.players))
    rule = state.rules.dealer
    if rule is Dealer.SCUM:
        return previous.order[-1]
    if rule is Dealer.PRESIDENT:
        return previous.order[0]
    return order[(order.index(state.dealer) + 1) % len(order)]


def _deal(rules: HouseRules, order: tuple[int, ...], dealer: int, rng: Random) -> _Hands:
    """``decks``, ``jokers``: the shuffled deck, one card each in turn from the dealer's left."""
    count = len(order)
    deck = shuffled(make_deck(rules.deck_count(count), rules.jokers), rng)
    first = order.index(dealer) + 1
    dealt: list[list[Card]] = [[] for _ in range(count)]
    for index in range(count):
        dealt[order[(first + index) % count]] = deck[index::count]
    return tuple([tuple(sorted(cards, key=card_key)) for cards in dealt])


def _collect_tax(
    state: State, previous: HandResult, events: list[Event]
) -> tuple[State, list[Event]]:
    """``tax``: each giver hands over their highest cards; the receivers then choose what
    to return (``legal_actions`` lists the choices)."""
    table = state.game.strength[False]
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
    leader = _leader(state)
    events.append(Event("lead", {"hand": state.hand_number, "seat": leader}))
    return _evolve(state, dict(phase=Phase.PLAY, turn=leader)), events


def _leader(state: State) -> int:
    """``first_lead`` (the first hand), ``later_lead`` (the others): who leads."""
    rules, order = state.rules, state.order
    left_of_dealer = order[(order.index(state.dealer) + 1) % len(order)]
    if state.results:
        previous = state.results[-1].order
        return {
            LaterLead.PRESIDENT: previous[0], LaterLead.SCUM: previous[-1],
            LaterLead.LEFT_OF_DEALER: left_of_dealer,
        }[rules.later_lead]
    if rules.first_lead is FirstLead.DEALER:
        return state.dealer
    if rules.first_lead is FirstLead.THREE_OF_CLUBS:
        three = Card.parse("3C")
        start = order.index(left_of_dealer)
        rotated = order[start:] + order[:start]
        return next((s for s in rotated if three in state.hands[s]), left_of_dealer)
    return left_of_dealer


def _end_hand(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """The last players take the places left; roles, scores, perhaps the session's end."""
    finished = state.finished
    for seat in state.active:
        finished += (seat,)
        out: dict[str, Any] = {"hand": state.hand_number, "seat": seat, "place": len(finished)}
        if state.bottom:  # left holding cards above the bottom places: the text must say so
            out["holding"] = True
        events.append(Event("out", out))
    finished += state.bottom[::-1]  # the first sent to the bottom is the last
    by_place = roles_for_places(len(state.players))
    roles = [Role.NEUTRAL] * len(state.players)
    for place, seat in enumerate(finished):
        roles[seat] = by_place[place]
    scores = _score(state, roles)
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


def _score(state: State, roles: list[Role]) -> tuple[int, ...]:
    """``scoring``: each seat's score after a hand that gave it ``roles[seat]``."""
    return tuple(s + points(state.rules.scoring, roles[seat])
                 for seat, s in enumerate(state.scores))


def _session_is_over(state: State) -> bool:
    """``session_end``, ``session_length``: whether the hand just played ends the session."""
    rules = state.rules
    if rules.session_end is SessionEnd.HANDS:
        return state.hand_number >= rules.session_length
    if rules.session_end is SessionEnd.TARGET:
        return max(state.scores) >= rules.session_length
    if rules.session_end is SessionEnd.ZERO:
        return min(state.scores) <= 0
    return False  # minutes, open: the host ends the session (end_session)


# The session ends that the rules decide (``_session_is_over``), not the host.
_RULES_END = frozenset({SessionEnd.HANDS, SessionEnd.TARGET, SessionEnd.ZERO})


def _finish_session(state: State, early: bool = False) -> tuple[State, list[Event]]:
    best = max(state.scores)
    winners = tuple(seat for seat in state.seats if state.scores[seat] == best)
    params: dict[str, Any] = {"scores": list(state.scores), "winners": list(winners)}
    if early:
        params["early"] = True
    event = Event("session_end", params)
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
    hand = decree_hand(state)
    event = Event("decree", {"hand": state.hand_number, "seat": seat, "text": text})
    # A decree made during the tax is already in force for the hand being played.
    return _evolve(state, dict(decree=text, decree_hand=hand)), [event]
