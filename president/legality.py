"""Who must act, and what each seat may do: the one source of truth for legality.

``to_act`` names the seat the session waits for; ``legal_actions`` lists what a seat
may do, found once per state (``State._legal``) from the seat's moves (``moves``'s
``HandMoves``, carried from state to state in ``State._moves``). ``engine.apply``
accepts exactly what is listed here.
"""

from __future__ import annotations

from president.actions import Action, Decree, Discard, Give, GiveBack, Ready, choices_of
from president.moves import NO_ACTIONS, HandMoves, Legal, legal_of, tax_returns
from president.roles import Role
from president.state import Phase, State

# The phases as module names: read on every action, a module name costs a tenth of an
# enum member's class attribute (CPython 3.11).
_PLAY, _TAX, _HAND_OVER = Phase.PLAY, Phase.TAX, Phase.HAND_OVER

def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    """Every action ``seat`` may take now. A ``Decree`` is listed with empty text:
    its text is the President's free choice."""
    legal = state._legal.get(seat)
    if legal is None:
        if state.phase is _PLAY and seat == state.turn and type(seat) is int \
                and not state.giving:
            # The seat on turn in the tricks (most calls): its moves (``_hand_moves``, the
            # usual case inlined) on the top. No decree meanwhile.
            known = state._moves
            moves = known[seat] if known is not None else None
            if moves is None or moves.hand is not state.hands[seat] \
                    or moves.reversed != state.reversed:
                moves = _hand_moves(state, seat)
            legal = state.game.moves.legal(moves, state.top, state.lock)
        else:
            legal = _legal_otherwise(state, seat)
        state._legal[seat] = legal
    return legal[0]


def legal_for(state: State, seat: int) -> Legal:
    """What ``legal_actions`` found for ``seat`` (``moves.Legal``), found once per state."""
    legal = state._legal.get(seat)
    if legal is None:
        legal_actions(state, seat)
        legal = state._legal[seat]
    return legal


def to_act(state: State) -> int | None:
    """The seat the session waits for now, None once it is over:

    - the tricks: the seat on turn (also for a 7-pass or 10-discard it owes);
    - the tax: the lowest seat that owes cards back (the others owe theirs too, in any
      order);
    - between hands: the President while a ``decree`` is open to them and they are not
      yet ready (the decree comes before the deal), then the lowest seat not ready.

    The seat named always has a legal action other than a decree."""
    phase = state.phase
    if phase is _PLAY:
        return state.turn
    if phase is _TAX:
        return min(due.receiver for due in state.tax_due)
    if phase is _HAND_OVER:
        ready = state.ready
        if state.rules.decree and state.roles is not None:
            president = state.roles.index(Role.PRESIDENT)
            if president not in ready and may_decree(state, president):
                return president
        return next(seat for seat in state.seats if seat not in ready)
    return None


def _legal_otherwise(state: State, seat: int) -> Legal:
    """``legal_actions`` but for the seat on turn in the tricks."""
    phase = state.phase
    if not (0 <= seat < len(state.players) if type(seat) is int else seat in state.seats):
        return NO_ACTIONS
    if phase is _PLAY:
        return _giving_legal(state, seat) if state.giving and seat == state.turn else NO_ACTIONS
    actions: list[Action] = []
    if phase is _TAX:
        for due in state.tax_due:
            if due.receiver == seat:
                returns = tax_returns(state.hands[seat], state.game.moves.suited, due.count)
                actions.extend(choices_of(GiveBack, seat, returns))
    elif phase is _HAND_OVER and seat not in state.ready:
        actions.append(Ready(seat))
    if may_decree(state, seat):
        actions.append(Decree(seat, ""))
    return legal_of(tuple(actions))


def _giving_legal(state: State, seat: int) -> Legal:
    """A 7-pass or 10-discard is due (``state.giving``, on the turn of its seat): every
    distinct choice of its count of cards, as the tax's return lists them."""
    due = state.giving[0]
    picks = tax_returns(state.hands[seat], state.game.moves.suited, due.count)
    if due.kind == "give":
        return legal_of(tuple(choices_of(Give, seat, picks)))
    return legal_of(tuple(choices_of(Discard, seat, picks)))


def _hand_moves(state: State, seat: int) -> HandMoves:
    """The moves of ``seat``'s hand in the order in force: those the seat's last play or
    pass left (``_moves``) if they are still its hand's, else made afresh."""
    hand = state.hands[seat]
    moves = state._moves[seat] if state._moves is not None else None
    if moves is None or (moves.hand is not hand and moves.hand != hand):
        return state.game.moves.for_hand(seat, hand, state.reversed)
    if moves.reversed != state.reversed:
        return state.game.moves.in_order(moves, state.reversed)
    return moves


def may_decree(state: State, seat: int) -> bool:
    """``decree``: the President may decree once between hands (or during the tax)."""
    return (
        state.rules.decree
        and state.phase in (Phase.HAND_OVER, Phase.TAX)
        and state.roles is not None
        and state.roles[seat] is Role.PRESIDENT
        and state.decree_hand != decree_hand(state)
    )


def decree_hand(state: State) -> int:
    """The hand whose result a decree made now follows."""
    return state.hand_number if state.phase is Phase.HAND_OVER else state.hand_number - 1
