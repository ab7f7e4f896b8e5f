"""Bots: they answer with legal actions, and the heuristic bot beats the random bot."""

from __future__ import annotations

import random
from dataclasses import replace

from engine_kit import NAMES, all_ready, between_hands, position

from president.actions import Decree, GiveBack, Pass, Play, Ready
from president.bots import BOT_KINDS, RandomBot, make_bot
from president.bots.heuristic import HeuristicBot
from president.cards import parse_cards
from president.engine import apply, legal_actions, new_session
from president.rules import ALLOWED, PRESETS, HouseRules
from president.state import Phase, State
from president.view import view


def _next(state: State, bots: list) -> State:
    """Let the first seat that has something to do act (decrees aside)."""
    for seat in state.seats:
        if any(not isinstance(a, Decree) for a in legal_actions(state, seat)):
            action = bots[seat].choose(view(state, seat))
            assert action in legal_actions(state, seat) or (
                isinstance(action, Decree) and action.text.strip()
            )
            state, _ = apply(state, action)
            return state
    raise AssertionError("nobody can act")


def _match(preset: str, sessions: int, hands: int, players: int = 4) -> tuple[float, float]:
    """One heuristic bot (a different seat each session) against random bots."""
    places: list[int] = []
    for session in range(sessions):
        rules = replace(PRESETS[preset], session_end="hands", session_length=hands)
        state, _ = new_session(rules, NAMES[:players], session)
        hero = session % players
        bots = [
            HeuristicBot(session) if seat == hero else RandomBot(100 * session + seat)
            for seat in range(players)
        ]
        while state.phase is not Phase.SESSION_OVER:
            state = _next(state, bots)
        places += [result.order.index(hero) + 1 for result in state.results]
    mean = sum(places) / len(places)
    return mean, places.count(1) / len(places)


def test_bot_kinds_registered() -> None:
    assert BOT_KINDS["heuristic"] is HeuristicBot
    assert isinstance(make_bot("heuristic", 3), HeuristicBot)
    assert isinstance(make_bot("random", 3), RandomBot)


def test_heuristic_beats_random_classic_200_hands() -> None:
    mean, presidencies = _match("classic", sessions=20, hands=10)
    assert mean < 1.6, mean  # random play would give 2.5
    assert presidencies > 0.6, presidencies  # random play would give 0.25


def test_heuristic_beats_random_bga_and_daihinmin() -> None:
    for preset in ("bga", "daihinmin"):
        mean, presidencies = _match(preset, sessions=10, hands=5)
        assert mean < 1.8 and presidencies > 0.5, (preset, mean, presidencies)


def test_heuristic_plays_legally_under_random_rules() -> None:
    rng = random.Random(5)
    skip = {"min_players", "max_players", "session_length", "session_end", "sequences"}
    for seed in range(6):
        values = {k: rng.choice(v) for k, v in ALLOWED.items() if k not in skip}
        rules = HouseRules(**values, sequences=rng.choice((0, 3)), session_end="hands",
                           session_length=2)
        players = rng.randint(3, 8)
        state, _ = new_session(rules, NAMES[:players], seed)
        bots = [HeuristicBot(seed + seat) for seat in range(players)]
        for _ in range(3000):
            if state.phase is Phase.SESSION_OVER:
                break
            state = _next(state, bots)
        assert state.phase is Phase.SESSION_OVER


def test_heuristic_leads_its_lowest_set_whole() -> None:
    state = position(["5C 5D 9S KH 2C", "4D", "6D"])
    action = HeuristicBot().choose(view(state, 0))
    assert action == Play(0, parse_cards("5C 5D"))


def test_heuristic_keeps_its_two_to_regain_the_lead() -> None:
    state = position(["KC 3D 4D 5D", "2S 4C 6C 8C 10C JC", "QD 5D 7D"], turn=0)
    state, _ = apply(state, Play(0, parse_cards("KC")))
    assert HeuristicBot().choose(view(state, 1)) == Pass(1)


def test_heuristic_plays_its_two_when_about_to_go_out() -> None:
    state = position(["KC 3D", "2S 4C", "QD 5D 7D"], turn=0)
    state, _ = apply(state, Play(0, parse_cards("KC")))
    assert HeuristicBot().choose(view(state, 1)) == Play(1, parse_cards("2S"))


def test_heuristic_follows_with_lowest_beating_set() -> None:
    state = position(["6C 3D", "7S 9C QC 2S 4C 4D", "QD 5D 7D"], turn=0)
    state, _ = apply(state, Play(0, parse_cards("6C")))
    assert HeuristicBot().choose(view(state, 1)) == Play(1, parse_cards("7S"))


def test_heuristic_returns_its_worst_cards_in_the_tax() -> None:
    state, _ = all_ready(between_hands(None, [2, 0, 3, 1]))
    hand = state.hands[2]
    action = HeuristicBot().choose(view(state, 2))
    assert isinstance(action, GiveBack) and len(action.cards) == 2
    from president.combos import strengths

    table = strengths("two_high", False)
    kept = list(hand)
    for card in action.cards:
        kept.remove(card)
    assert max(table[c.rank] for c in action.cards) <= min(table[c.rank] for c in kept) + 1


def test_heuristic_plays_for_a_revolution_with_low_quads() -> None:
    hand = "3C 3D 3H 3S 4C 4D 5C 6H"
    rules = HouseRules(revolution="quad")
    state = position([hand, "KD", "QD"], rules)
    assert HeuristicBot().choose(view(state, 0)) == Play(0, parse_cards("3C 3D 3H 3S"))
    # a quad of kings would turn a strong hand weak: no revolution
    strong = position(["KC KD KH KS 2C 2D AS", "4D", "5D"], rules)
    assert HeuristicBot().choose(view(strong, 0)) != Play(0, parse_cards("KC KD KH KS"))


def test_heuristic_never_sends_an_empty_decree() -> None:
    state = between_hands(HouseRules(decree=True), [2, 0, 3, 1])
    state = replace(state, ready=frozenset({2}))
    action = HeuristicBot().choose(view(state, 2))
    assert isinstance(action, Decree) and action.text.strip()
    state = between_hands(HouseRules(decree=True), [2, 0, 3, 1])
    assert HeuristicBot().choose(view(state, 2)) == Ready(2)


# ---------------------------------------------------------------- Daihinmin rules


def _choice(hands: list[str], rules: HouseRules, seat: int = 0, **fields: object) -> str:
    state = position(hands, rules, **fields)  # type: ignore[arg-type]
    action = HeuristicBot(1).choose(view(state, seat))
    assert isinstance(action, (Play, Pass))
    return " ".join(str(c) for c in action.cards) if isinstance(action, Play) else "pass"


def test_the_heuristic_bot_plays_its_two_before_its_last_safe_card_under_forbidden_finish():
    hands = ["2C 5D", "4D 6D 9C", "6C 7D KH", "8D 9D QS"]
    assert _choice(hands, HouseRules(forbidden_finish=True)) == "2C"
    assert _choice(hands, HouseRules()) == "5D"      # without the rule: the low card first


def test_the_heuristic_bot_does_not_go_out_on_a_forbidden_card_when_it_can_pass():
    rules = HouseRules(forbidden_finish=True)
    state = position(["2C", "4D 6D 9C", "6C 7D KH", "8D 9D QS"], rules, turn=3)
    state, _ = apply(state, Play(3, parse_cards("8D")))
    action = HeuristicBot(1).choose(view(state, 0))
    assert action == Pass(0)
    assert HeuristicBot(1).choose(view(replace(state, rules=HouseRules()), 0)) == Play(
        0, parse_cards("2C"))


def test_the_heuristic_bot_keeps_its_eights_under_eight_cut():
    on_seven = position(["8C KD 4S 5S 6H 9C", "3C 4C", "3H 4H", "7D 3D"],
                        HouseRules(eight_cut=True), turn=3)
    on_seven, _ = apply(on_seven, Play(3, parse_cards("7D")))
    assert HeuristicBot(1).choose(view(on_seven, 0)) == Play(0, parse_cards("9C"))
    plain = replace(on_seven, rules=HouseRules())
    assert HeuristicBot(1).choose(view(plain, 0)) == Play(0, parse_cards("8C"))


def test_heuristic_bots_go_out_on_a_forbidden_card_only_when_nothing_else_is_left():
    """Over seeded sessions with the Daihinmin rules: whenever a heuristic bot's action
    is a forbidden finish, it had no other play and could not pass."""
    rules = replace(PRESETS["daihinmin"], eight_cut=True, jack_back=True, forbidden_finish=True,
                    spade_three_return=True, session_end="hands", session_length=6)
    forced = 0
    for seed in range(12):
        state, _ = new_session(rules, NAMES[:4], seed)
        bots = [HeuristicBot(seed * 10 + seat) for seat in range(4)]
        while state.phase is not Phase.SESSION_OVER:
            seat = next(s for s in state.seats if any(
                not isinstance(a, Decree) for a in legal_actions(state, s)))
            action = bots[seat].choose(view(state, seat))
            after, events = apply(state, action)
            if any(e.code == "forbidden" and e.params["seat"] == seat for e in events):
                others = [a for a in legal_actions(state, seat)
                          if a != action and not isinstance(a, Decree)]
                safe = [a for a in others if not (isinstance(a, Play)
                        and len(a.cards) == len(state.hands[seat]))]
                assert not safe, (seed, action, others)
                forced += 1
            state = after
    assert forced < 12 * 6  # rarely forced at all


def test_the_heuristic_bot_locks_the_suits_it_holds_higher_cards_in():
    rules = HouseRules(suit_lock="suits")
    hearts = position(["7H 7S KH KS 4C", "6C 3C", "9D 3D", "5H 3S"], rules, turn=3)
    hearts, _ = apply(hearts, Play(3, parse_cards("5H")))
    assert HeuristicBot(1).choose(view(hearts, 0)) == Play(0, parse_cards("7H"))  # locks ♥
    spades = position(["7H 7S KS KC 4C", "6C 3C", "9D 3D", "5H 3S"], rules, turn=3)
    spades, _ = apply(spades, Play(3, parse_cards("5H")))
    assert HeuristicBot(1).choose(view(spades, 0)) == Play(0, parse_cards("7S"))  # no lock


def test_the_heuristic_bot_locks_a_pair_it_can_answer():
    rules = HouseRules(suit_lock="suits")
    state = position(["7C 7D 7H QC QD QH 4S", "6C 3C", "9D 3D", "5C 5D 3S"], rules, turn=3)
    state, _ = apply(state, Play(3, parse_cards("5C 5D")))
    assert HeuristicBot(1).choose(view(state, 0)) == Play(0, parse_cards("7C 7D"))
    unanswered = position(["7C 7D 7H QH QS QC 4S", "6C 3C", "9D 3D", "5C 5D 3S"], rules,
                          turn=3)
    unanswered, _ = apply(unanswered, Play(3, parse_cards("5C 5D")))
    assert HeuristicBot(1).choose(view(unanswered, 0)) == Play(0, parse_cards("7C 7H"))


def test_the_bots_keep_no_cache_keyed_by_identity() -> None:
    """Issue 29: a cache keyed by ``id()`` (or by weak reference) answers for a dead
    object's successor at the same address; the bots' caches key on values."""
    import ast
    from pathlib import Path

    import president.bots

    package = Path(president.bots.__file__).parent
    found = []
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            call = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            if call and node.func.id == "id":  # type: ignore[attr-defined]
                found.append(f"{path.name}:{node.lineno} id()")
            if isinstance(node, (ast.Name, ast.Attribute)):
                name = node.id if isinstance(node, ast.Name) else node.attr
                if name.startswith("Weak"):
                    found.append(f"{path.name}:{node.lineno} {name}")
    assert found == []
