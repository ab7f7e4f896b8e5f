import random

from president.bots import RandomBot
from president.engine import apply, legal_actions
from president.state import Phase
from president.view import view


def play_some(state, count, seed=0):
    rng = random.Random(seed)
    bots = [RandomBot(rng.randrange(1000)) for _ in state.seats]
    taken = []
    while len(taken) < count and state.phase is not Phase.SESSION_OVER:
        seat = next(s for s in state.seats if legal_actions(state, s))
        action = bots[seat].choose(view(state, seat))
        state, _ = apply(state, action)
        taken.append(action)
    return state, taken


def start(journal, rules, players, seed):
    seats = [{"kind": "human", "token": f"t{seat}"} for seat in range(len(players))]
    return journal.start_session(table_name="Kitchen", preset="classic", rules=rules,
                                 players=players, seed=seed, seats=seats)


