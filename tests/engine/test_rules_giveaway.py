"""7-pass (7渡し) and 10-discard (10捨て), issue 11: one test per rule and per interaction
worth a test. The choices are their own actions, listed by ``legal_actions``."""

from __future__ import annotations

from engine_kit import assert_illegal, codes, find, play, position, replayed_bot_session

from president.actions import Discard, Give, Pass, Play
from president.cards import parse_cards
from president.engine import apply, legal_actions, new_session
from president.events import project_event
from president.refusals import refusal
from president.roles import Role
from president.rules import HouseRules
from president.state import Phase
from president.view import Choosing, view

SEVEN = HouseRules(seven_pass=True)
TEN = HouseRules(ten_discard=True)


def give(state, seat: int, cards: str):  # type: ignore[no-untyped-def]
    return apply(state, Give(seat, parse_cards(cards)))


def discard(state, seat: int, cards: str):  # type: ignore[no-untyped-def]
    return apply(state, Discard(seat, parse_cards(cards)))


def test_fields_are_off_by_default_and_stay_out_of_older_records() -> None:
    assert not HouseRules().seven_pass and not HouseRules().ten_discard
    assert "seven_pass" not in HouseRules().to_dict()
    assert HouseRules.from_dict(SEVEN.to_dict()) == SEVEN


# ------------------------------------------------------------ 7-pass


def test_seven_pass_the_player_chooses_one_card_per_seven_for_the_next_player() -> None:
    state = position(["7C 7D 4H 9S KD", "8D 4S", "9C KC"], SEVEN)
    state, events = play(state, 0, "7C 7D")
    assert state.turn == 0 and state.giving[0].to == 1
    legal = legal_actions(state, 0)
    assert all(isinstance(a, Give) and len(a.cards) == 2 for a in legal)
    assert len(legal) == 3  # any two of 4H 9S KD
    assert legal_actions(state, 1) == () and legal_actions(state, 2) == ()
    state, events = give(state, 0, "4H 9S")
    assert find(events, "give") == [{"hand": 1, "from": 0, "to": 1, "cards": "4H 9S"}]
    assert state.hands[0] == parse_cards("KD")
    assert state.hands[1] == parse_cards("4H 4S 8D 9S")
    assert state.turn == 1 and not state.giving  # the trick goes on as the play left it


def test_seven_pass_off_a_seven_is_an_ordinary_card() -> None:
    state, _ = play(position(["7C 4H", "8D 4S", "9C KC"]), 0, "7C")
    assert state.turn == 1 and any(isinstance(a, Play) for a in legal_actions(state, 1))


def test_seven_pass_refusals() -> None:
    state, _ = play(position(["7C 4H 9S", "8D 4S", "9C KC"], SEVEN), 0, "7C")
    assert_illegal(state, Play(0, parse_cards("9S")), "must_give")
    assert_illegal(state, Pass(0), "must_give")
    assert_illegal(state, Give(0, parse_cards("4H 9S")), "wrong_give_count")
    assert_illegal(state, Give(0, parse_cards("KC")), "not_in_hand")
    assert_illegal(state, Discard(0, parse_cards("4H")), "no_give_due")
    assert_illegal(state, Give(1, parse_cards("4S")), "no_give_due")
    assert_illegal(state, Play(1, parse_cards("8D")), "not_your_turn")
    before, _ = play(position(["7C 4H 9S", "8D 4S", "9C KC"]), 0, "7C")
    assert_illegal(before, Give(1, parse_cards("4S")), "no_give_due")


def test_a_seven_play_that_empties_the_hand_gives_nothing() -> None:
    state, events = play(position(["7C 7D", "8D 4S", "9C KC"], SEVEN), 0, "7C 7D")
    assert find(events, "out") == [{"hand": 1, "seat": 0, "place": 1}]
    assert not state.giving and state.turn == 1


def test_fewer_cards_than_sevens_gives_what_is_left_and_goes_out() -> None:
    state, _ = play(position(["7C 7D 4H", "8D 4S", "9C KC"], SEVEN), 0, "7C 7D")
    assert state.giving[0].count == 1
    state, events = give(state, 0, "4H")
    assert codes(events) == ["give", "out"]
    assert state.finished == (0,) and state.turn == 1


def test_the_passed_cards_are_seen_by_giver_and_receiver_only() -> None:
    state, _ = play(position(["7C 4H 9S", "8D 4S", "9C KC"], SEVEN), 0, "7C")
    assert view(state, 2).choosing == Choosing(0, "give", 1, 1)
    state, events = give(state, 0, "4H")
    event = find(events, "give")[0]
    assert project_event(events[0], 1).params == event
    assert project_event(events[0], 0).params == event
    hidden = project_event(events[0], 2).params
    assert "cards" not in hidden and hidden["count"] == 1
    assert view(state, 1).gifts_mine == ((0, 1, parse_cards("4H")),)
    assert view(state, 0).gifts_mine == ((0, 1, parse_cards("4H")),)
    assert view(state, 2).gifts_mine == ()
    assert "4H" not in str(view(state, 2).to_dict())


# ------------------------------------------------------------ 10-discard


def test_ten_discard_the_player_discards_one_card_per_ten() -> None:
    state = position(["10C 10D 4H 9S KD", "JD 4S", "9C KC"], TEN)
    state, _ = play(state, 0, "10C 10D")
    assert view(state, 1).choosing == Choosing(0, "discard", 2, None)
    assert_illegal(state, Discard(0, parse_cards("4H")), "wrong_discard_count")
    assert refusal(view(state, 0), Discard(0, parse_cards("4H"))) == "wrong_discard_count"
    state, events = discard(state, 0, "4H 9S")
    assert find(events, "discard") == [{"hand": 1, "seat": 0, "cards": "4H 9S"}]
    assert project_event(events[0], 2) == events[0]  # face up
    assert state.hands[0] == parse_cards("KD") and sum(map(len, state.hands)) == 5
    assert state.turn == 1


def test_ten_discard_with_eight_cut_the_player_discards_then_leads() -> None:
    rules = HouseRules(ten_discard=True, eight_cut=True, sequences=3)
    state = position(["8C 9C 10C 4H KD", "JD 4S", "9D KC"], rules)
    state, events = play(state, 0, "8C 9C 10C")
    assert codes(events) == ["play", "cut", "clear"]
    assert state.top is None and state.turn == 0
    state, _ = discard(state, 0, "4H")
    assert state.turn == 0 and state.top is None  # the cut's lead is still theirs


def test_ten_discard_of_the_last_card_after_a_cut_the_next_player_leads() -> None:
    rules = HouseRules(ten_discard=True, eight_cut=True, sequences=3)
    state, _ = play(position(["8C 9C 10C 4H", "JD 4S", "9D KC"], rules), 0, "8C 9C 10C")
    state, events = discard(state, 0, "4H")
    assert codes(events) == ["discard", "out"]
    assert state.turn == 1


def test_a_run_with_a_seven_and_a_ten_passes_then_discards() -> None:
    rules = HouseRules(seven_pass=True, ten_discard=True, sequences=3)
    state, _ = play(position(["7C 8D 9C 10C 4H KD", "JD 4S", "9D KC"], rules), 0,
                    "7C 8D 9C 10C")
    assert [d.kind for d in state.giving] == ["give", "discard"]
    state, _ = give(state, 0, "4H")
    assert legal_actions(state, 0) == (Discard(0, parse_cards("KD")),)
    state, events = discard(state, 0, "KD")
    assert "out" in codes(events) and state.turn == 1


# ------------------------------------------------------------ interactions


def test_seven_pass_after_a_revolution_the_order_is_already_turned() -> None:
    rules = HouseRules(seven_pass=True, revolution="quad")
    state, events = play(position(["7C 7D 7H 7S 3C 4D 5D 2C 2D", "8D 4S", "9C KC"], rules), 0,
                         "7C 7D 7H 7S")
    assert codes(events) == ["play", "revolution"]
    assert state.reversed and state.giving[0].count == 4


def test_five_skip_and_seven_the_skipped_player_still_receives() -> None:
    rules = HouseRules(seven_pass=True, five_skip=True, sequences=3)
    state = position(["5C 6D 7C 4H", "8D 4S", "9C KC", "JD QD"], rules)
    state, events = play(state, 0, "5C 6D 7C")
    assert find(events, "skip") == [{"hand": 1, "seat": 1}]
    assert state.giving[0].to == 1
    state, _ = give(state, 0, "4H")
    assert state.turn == 2 and state.hands[1] == parse_cards("4H 4S 8D")


def test_nine_reverse_and_seven_the_cards_go_the_new_way() -> None:
    rules = HouseRules(seven_pass=True, nine_reverse=True, sequences=3)
    state = position(["7C 8D 9C 4H KD", "8S 4S", "9D KC", "JD QD"], rules)
    state, _ = play(state, 0, "7C 8D 9C")
    assert state.giving[0].to == 3
    state, _ = give(state, 0, "4H")
    assert state.turn == 3


def test_forbidden_finish_as_the_last_two_players_go_out_by_a_give() -> None:
    """The give empties the hand after a run holding an 8 (8-cut): going out on that play
    is forbidden, so the giver takes the last place and the other the one above."""
    rules = HouseRules(seven_pass=True, eight_cut=True, forbidden_finish=True, sequences=3,
                       session_end="hands", session_length=1)
    state = position(["", "6C 7C 8C 4D", "9H 9S"], rules, turn=1, finished=(0,))
    state, events = play(state, 1, "6C 7C 8C")
    state, events = give(state, 1, "4D")
    assert codes(events)[:2] == ["give", "forbidden"]
    assert state.phase is Phase.SESSION_OVER
    end = find(events, "hand_end")[0]
    assert end["order"] == [0, 2, 1]
    assert end["roles"][1] == Role.SCUM.value


def test_going_out_by_a_give_after_a_safe_play_takes_the_next_place() -> None:
    rules = HouseRules(seven_pass=True, eight_cut=True, forbidden_finish=True, sequences=3,
                       session_end="hands", session_length=1)
    state = position(["", "5C 6C 7C 4D", "9H 9S"], rules, turn=1, finished=(0,))
    state, _ = play(state, 1, "5C 6C 7C")
    state, events = give(state, 1, "4D")
    assert find(events, "hand_end")[0]["order"] == [0, 1, 2]


def test_refusal_from_the_view_matches_the_engine() -> None:
    state, _ = play(position(["7C 4H 9S", "8D 4S", "9C KC"], SEVEN), 0, "7C")
    mine = view(state, 0)
    assert refusal(mine, Give(0, parse_cards("4H"))) is None
    assert refusal(mine, Play(0, parse_cards("9S"))) == "must_give"
    assert refusal(mine, Give(0, parse_cards("4H 9S"))) == "wrong_give_count"


def test_history_with_passes_and_discards_replays() -> None:
    rules = HouseRules(seven_pass=True, ten_discard=True, session_length=2)
    kinds = codes(replayed_bot_session(rules, 4, 5))
    assert "give" in kinds and "discard" in kinds


# ------------------------------------------------------------ bots


def test_the_heuristic_bot_passes_and_discards_its_worst_cards() -> None:
    from president.bots.heuristic import HeuristicBot

    rules = HouseRules(seven_pass=True, ten_discard=True, sequences=3)
    state, _ = play(position(["7C 8D 9C 10C 3D 2H KS QS QD", "JD 4S", "9D KC"], rules), 0,
                    "7C 8D 9C 10C")
    action = HeuristicBot(0).choose(view(state, 0))
    assert action == Give(0, parse_cards("3D"))
    state, _ = apply(state, action)
    assert HeuristicBot(0).choose(view(state, 0)) == Discard(0, parse_cards("KS"))


def test_every_bot_level_plays_sessions_with_passes_and_discards() -> None:
    from president.bots import make_bot

    rules = HouseRules(seven_pass=True, ten_discard=True, eight_cut=True, revolution="quad",
                       session_length=1)
    for kind in ("medium", "hard"):
        state, _ = new_session(rules, ["A", "B", "C", "D"], 3)
        bots = [make_bot(kind, seat, budget=0.01) for seat in range(4)]
        chosen = 0
        while state.phase is not Phase.SESSION_OVER:
            seat = next(s for s in state.seats if legal_actions(state, s))
            action = bots[seat].choose(view(state, seat))
            assert action in legal_actions(state, seat)
            chosen += isinstance(action, (Give, Discard))
            state, _ = apply(state, action)
        assert chosen, kind


def test_the_heuristic_bot_leads_a_seven_to_shed_a_card_under_seven_pass() -> None:
    from president.bots.heuristic import HeuristicBot

    hands = ["6C 7D 9S KD", "8D 4S 5S", "9C KC QH"]
    assert HeuristicBot(0).choose(view(position(hands), 0)) == Play(0, parse_cards("6C"))
    assert HeuristicBot(0).choose(view(position(hands, SEVEN), 0)) == Play(
        0, parse_cards("7D"))


def test_the_medium_bot_knows_the_receiver_holds_what_it_gave() -> None:
    from president.bots.knowledge import knowledge
    from president.bots.medium import policy_for

    state, _ = play(position(["7C 4H 9S", "8D 4S", "9C KC"], SEVEN), 0, "7C")
    state, _ = give(state, 0, "4H")
    mine = view(state, 0)
    known = knowledge(mine, policy_for(mine.rules).tables, {0: list(parse_cards("7C"))})
    assert known.held[1] == list(parse_cards("4H"))


def test_the_heuristic_bot_does_not_go_out_by_a_give_after_a_forbidden_play() -> None:
    """A run 6-7-8 that leaves one card gives it and goes out on the run: forbidden with
    8-cut, so the bot passes; without the rule it goes out so."""
    from dataclasses import replace

    from president.bots.heuristic import HeuristicBot

    rules = HouseRules(seven_pass=True, eight_cut=True, forbidden_finish=True, sequences=3)
    state = position(["6C 7C 8C 4D", "3H 4H 5H 9S", "9C KC QH JD"], rules, turn=1)
    state, _ = play(state, 1, "3H 4H 5H")
    state, _ = apply(state, Pass(2))
    assert HeuristicBot(0).choose(view(state, 0)) == Pass(0)
    plain = replace(state, rules=replace(rules, forbidden_finish=False))
    assert HeuristicBot(0).choose(view(plain, 0)) == Play(0, parse_cards("6C 7C 8C"))
