"""What an independent check of the Daihinmin pack found (issue 31): one test per
finding, each failing on the engine before its fix."""

from __future__ import annotations

from engine_kit import assert_illegal, codes, find, play, plays, position, run

from president.actions import Play
from president.cards import Rank, parse_cards
from president.engine import apply, legal_actions
from president.rules import HouseRules

# ------------------------------------------------------------ runs after the order turns


def test_a_run_after_an_eleven_back_is_compared_in_the_order_in_force() -> None:
    """A run that holds a jack turns the order: the same ranks are no longer higher."""
    rules = HouseRules(sequences=3, jack_back=True)
    state = position(["9D 10S JC 4C", "5D 6D", "9C 10C JH 8S 7S 6S"], rules)
    state, events = play(state, 0, "9D 10S JC")
    assert codes(events) == ["play", "back"]
    state, _ = run(state, (1, None))
    assert_illegal(state, Play(2, parse_cards("9C 10C JH")), "too_low")
    # Lower ranks are higher now: the runs whose top (their lowest card) is under 9.
    assert plays(state, 2) == {"6S 7S 8S", "7S 8S 9C", "8S 9C 10C"}


def test_a_run_after_a_run_revolution_is_compared_in_the_order_in_force() -> None:
    rules = HouseRules(sequences=4, run_revolution=True)
    state = position(["10C JH QH KS AC 4C", "10D JD QD KH AS 3D", "6S 7S 8S 9S 5D"], rules)
    state, events = play(state, 0, "10C JH QH KS AC")
    assert codes(events) == ["play", "revolution"]
    assert_illegal(state, Play(1, parse_cards("10D JD QD KH AS")), "too_low")
    assert plays(state, 1) == set()


# ------------------------------------------------------------ what a wild joker stands for


def declared(seat: int, cards: str, declared_as: str) -> Play:
    return Play(seat, parse_cards(cards), parse_cards(declared_as))


def test_a_wild_joker_in_a_set_is_never_a_card_its_player_holds() -> None:
    """``KS JK`` with the joker named KD while holding KD is refused (it started a suit
    lock of the suits it named); the suits the hand lacks are listed instead."""
    for rules in (HouseRules(jokers=1, joker_mode="wild", suit_lock="suits"),
                  HouseRules(jokers=1, joker_mode="wild")):
        state = position(["KD KS JK 4C", "5D 6D", "7D 8D"], rules)
        assert_illegal(state, declared(0, "KS JK", "KD"), "joker_held")
        named = {action.declared for action in legal_actions(state, 0)
                 if isinstance(action, Play) and action.declared}
        assert not any(card in state.hands[0] for cards in named for card in cards)
        state, events = apply(state, declared(0, "KS JK", "KH"))
        assert find(events, "play")[0]["declared"] == "KH"


def test_a_wild_joker_has_no_set_to_join_beside_every_card_of_its_rank() -> None:
    state = position(["KC KD KH KS JK", "5D 6D", "7D 8D"], HouseRules(jokers=1, joker_mode="wild"))
    assert not any(card.rank is Rank.KING for action in legal_actions(state, 0)
                   if isinstance(action, Play) for card in action.declared)
    assert_illegal(state, declared(0, "KS JK", "KC"), "joker_held")


def test_a_wild_joker_in_a_mixed_run_may_be_a_card_of_a_rank_held_in_another_suit() -> None:
    """``5C 7C JK`` with the joker as 6C while holding 6S, not 6C: the joker stands for a
    card its player lacks; the 6S stays in the hand."""
    rules = HouseRules(jokers=1, joker_mode="wild", sequences=3)
    state = position(["5C 6S 7C JK 9D", "8D 9H 10H", "KD KS"], rules)
    assert declared(0, "5C 7C JK", "6C") in legal_actions(state, 0)
    after, events = apply(state, declared(0, "5C 7C JK", "6D"))  # any suit it lacks
    assert find(events, "play")[0]["declared"] == "6D"
    assert after.hands[0] == parse_cards("6S 9D")
    assert after.top is not None and (after.top.kind, after.top.rank.symbol) == ("run", "7")
    assert_illegal(state, declared(0, "5C 7C JK", "6S"), "joker_held")


# ------------------------------------------------------------ the spade-3 return


def test_the_spade_three_on_a_lone_joker_wins_the_trick_at_once() -> None:
    """As an 8-cut: the pile is cleared and the 3's player leads; no 4 follows it."""
    rules = HouseRules(jokers=1, spade_three_return=True)
    state = position(["JK 4D", "3S 5D", "4S 6D"], rules)
    state, _ = play(state, 0, "JK")
    state, events = play(state, 1, "3S")
    assert codes(events) == ["play", "return", "clear"]
    assert find(events, "return") == [{"hand": 1, "seat": 1}]
    assert state.top is None and state.pile == () and state.turn == 1
    assert_illegal(state, Play(2, parse_cards("4S")), "not_your_turn")


def test_going_out_on_a_spade_three_return_the_next_player_leads() -> None:
    rules = HouseRules(jokers=1, spade_three_return=True)
    state = position(["JK 4D", "3S", "4S 6D"], rules)
    state, _ = play(state, 0, "JK")
    state, events = play(state, 1, "3S")
    assert codes(events) == ["play", "out", "return", "clear"]
    assert find(events, "clear") == [{"hand": 1, "leader": 2}]
    forbidding = HouseRules(jokers=1, spade_three_return=True, forbidden_finish=True)
    state = position(["JK 4D", "3S", "4S 6D"], forbidding)
    state, _ = play(state, 0, "JK")
    state, events = play(state, 1, "3S")
    assert codes(events) == ["play", "forbidden", "return", "clear"]


def test_a_spade_three_on_anything_else_is_a_plain_three() -> None:
    rules = HouseRules(jokers=1, spade_three_return=True)
    state = position(["JK 4D", "3S 5D", "4S 6D"], rules, turn=1)
    state, events = play(state, 1, "3S")
    assert codes(events) == ["play"]


# ------------------------------------------------------------ who leads after a give


def test_going_out_by_a_give_after_the_clear_names_who_leads() -> None:
    """The cut's ``clear`` names the player, who then gives their last card away: their
    ``out`` line says who leads instead."""
    from president.actions import Discard, Give

    rules = HouseRules(sequences=3, eight_cut=True, seven_pass=True, ten_discard=True)
    state = position(["6C 7C 8C 4D", "5D 9D", "KD KS"], rules)
    state, events = play(state, 0, "6C 7C 8C")
    assert codes(events) == ["play", "cut", "clear"]
    assert find(events, "clear") == [{"hand": 1, "leader": 0}]
    state, events = apply(state, Give(0, parse_cards("4D")))
    assert codes(events) == ["give", "out"]
    assert find(events, "out") == [{"hand": 1, "seat": 0, "place": 1, "leader": 1}]
    assert state.turn == 1 and state.top is None
    state = position(["8C 9C 10C 4D", "5D 9D", "KD KS"], rules)
    state, _ = play(state, 0, "8C 9C 10C")
    state, events = apply(state, Discard(0, parse_cards("4D")))
    assert find(events, "out") == [{"hand": 1, "seat": 0, "place": 1, "leader": 1}]


def test_going_out_by_a_give_on_a_pile_in_play_names_no_leader() -> None:
    from president.actions import Give

    rules = HouseRules(seven_pass=True)
    state = position(["7C 4D", "5D 9D", "KD KS"], rules)
    state, _ = play(state, 0, "7C")
    state, events = apply(state, Give(0, parse_cards("4D")))
    assert find(events, "out") == [{"hand": 1, "seat": 0, "place": 1}]


# ------------------------------------------------------------ a session ended early


def test_a_session_ended_before_its_rules_end_it_says_so() -> None:
    from engine_kit import between_hands

    from president.engine import end_session

    for rules in (HouseRules(session_end="hands"), HouseRules(session_end="target"),
                  HouseRules(session_end="zero", scoring="bga")):
        state = between_hands(rules, [0, 1, 2, 3])
        _, events = end_session(state)
        assert find(events, "session_end")[0]["early"] is True
    for session_end in ("minutes", "open"):
        state = between_hands(HouseRules(session_end=session_end), [0, 1, 2, 3])
        _, events = end_session(state)
        assert "early" not in find(events, "session_end")[0]
