"""The Daihinmin rules (issue 11), one test per rule and per interaction worth a test."""

from __future__ import annotations

from engine_kit import assert_illegal, codes, find, play, plays, position, replayed_bot_session, run

from president.actions import Play
from president.cards import parse_cards
from president.engine import legal_actions
from president.roles import Role
from president.rules import HouseRules, load_rules
from president.state import HandResult, Phase

# ------------------------------------------------------------ rules records


def test_new_fields_stay_out_of_records_of_older_rules() -> None:
    assert "eight_cut" not in HouseRules().to_dict()
    assert HouseRules(eight_cut=True).to_dict()["eight_cut"] is True
    assert HouseRules.from_dict(HouseRules(downfall=True).to_dict()) == HouseRules(downfall=True)


def test_rules_file_sets_the_new_fields() -> None:
    _, rules = load_rules('preset = "daihinmin"\neight_cut = true\nfive_skip = true\n')
    assert rules.eight_cut and rules.five_skip and not rules.jack_back


# ------------------------------------------------------------ 8-cut


def test_eight_cut_clears_the_pile_and_the_player_leads_again() -> None:
    state = position(["6C 4D", "8D 4H 4S", "9C KD"], HouseRules(eight_cut=True))
    state, events = run(state, (0, "6C"), (1, "8D"))
    assert codes(events)[-2:] == ["cut", "clear"]
    assert find(events, "clear") == [{"hand": 1, "leader": 1}]
    assert state.top is None and state.turn == 1


def test_eight_cut_off_an_eight_is_an_ordinary_card() -> None:
    state = position(["6C 4D", "8D 4H 4S", "9C KD"])
    state, events = run(state, (0, "6C"), (1, "8D"))
    assert "cut" not in codes(events) and state.turn == 2


def test_eight_cut_with_a_revolution_quad_cuts_and_revolts() -> None:
    rules = HouseRules(eight_cut=True, revolution="quad")
    state = position(["8C 8D 8H 8S 3C", "4D 5D", "6D 7D"], rules)
    state, events = play(state, 0, "8C 8D 8H 8S")
    assert codes(events) == ["play", "revolution", "cut", "clear"]
    assert state.reversed and state.turn == 0 and state.top is None


def test_eight_cut_going_out_the_next_player_leads() -> None:
    state = position(["8C", "4D 5D", "6D 7D"], HouseRules(eight_cut=True))
    state, events = play(state, 0, "8C")
    assert find(events, "clear") == [{"hand": 1, "leader": 1}]


# ------------------------------------------------------------ 11-back


def test_jack_back_reverses_the_order_until_the_clear() -> None:
    state = position(["JC 4D", "QD 10D 3H", "KS 5S"], HouseRules(jack_back=True))
    state, events = play(state, 0, "JC")
    assert find(events, "back") == [{"hand": 1, "on": True}]
    assert state.reversed and state.back
    assert plays(state, 1) == {"10D", "3H"}
    assert_illegal(state, Play(1, parse_cards("QD")), "too_low")
    state, events = run(state, (1, "10D"), (2, None), (0, None))
    assert codes(events)[-1] == "clear"
    assert not state.reversed and not state.back


def test_jack_back_during_a_revolution_turns_back_to_the_normal_order() -> None:
    state = position(["JC 4D", "QD 10D", "KS 5S"], HouseRules(jack_back=True), reversed=True)
    state, _ = play(state, 0, "JC")
    assert not state.reversed and plays(state, 1) == {"QD"}


# ------------------------------------------------------------ 5-skip


def test_five_skip_skips_one_player_per_five() -> None:
    state = position(["5C 5D 3C", "6D 6H", "7D 7H", "9C 9H"], HouseRules(five_skip=True))
    state, events = play(state, 0, "5C 5D")
    assert [p["seat"] for p in find(events, "skip")] == [1, 2]
    assert state.turn == 3


def test_five_skip_everyone_skipped_clears_and_the_player_leads() -> None:
    state = position(["5C 5D 3C", "6D 6H", "7D 7H"], HouseRules(five_skip=True))
    state, events = play(state, 0, "5C 5D")
    assert codes(events)[-1] == "clear" and state.turn == 0


# ------------------------------------------------------------ 9-reverse


def test_nine_reverse_turns_the_direction() -> None:
    state = position(["4C 3C", "9D 3H", "10D 3S", "JD 3D"], HouseRules(nine_reverse=True))
    state, events = run(state, (0, "4C"), (1, "9D"))
    assert find(events, "reverse") == [{"hand": 1, "direction": -1}]
    assert state.turn == 0 and state.direction == -1


# ------------------------------------------------------------ spade 3 return


def test_spade_three_beats_a_lone_joker() -> None:
    rules = HouseRules(jokers=1, spade_three_return=True)
    state = position(["JK 4D", "3C 3S 5D", "6D 7D"], rules)
    state, _ = play(state, 0, "JK")
    assert plays(state, 1) == {"3S"}
    assert_illegal(state, Play(1, parse_cards("3C")), "too_low")
    state, events = play(state, 1, "3S")
    assert codes(events) == ["play", "return", "clear"]  # it wins the trick at once
    assert find(events, "clear") == [{"hand": 1, "leader": 1}]
    assert state.top is None and state.turn == 1


def test_spade_three_without_the_rule_does_not_beat_a_joker() -> None:
    state = position(["JK 4D", "3C 3S 5D", "6D 7D"], HouseRules(jokers=1))
    state, _ = play(state, 0, "JK")
    assert plays(state, 1) == set()


def test_spade_three_only_beats_a_joker() -> None:
    rules = HouseRules(jokers=1, spade_three_return=True)
    state = position(["4D 6D", "3C 3S 5D", "6C 7D"], rules)
    state, _ = play(state, 0, "4D")
    assert plays(state, 1) == {"5D"}


def test_spade_three_is_listed_apart_from_the_other_threes() -> None:
    state = position(["3C 3S 4D", "5D", "6D"], HouseRules(spade_three_return=True))
    assert {"3C", "3S", "3C 3S"} <= plays(state, 0)
    assert Play(0, parse_cards("3S")) in legal_actions(state, 0)


# ------------------------------------------------------------ forbidden finish


def test_forbidden_finish_on_a_two_goes_to_the_bottom() -> None:
    rules = HouseRules(forbidden_finish=True)
    state = position(["2C", "4D 5D", "6D 7D", "8D 9D"], rules)
    state, events = play(state, 0, "2C")
    assert find(events, "forbidden") == [{"hand": 1, "seat": 0, "place": 4, "why": "best",
                                          "rank": "2"}]
    assert state.bottom == (0,) and state.place(0) == 4 and state.finished == ()


def test_a_forbidden_finish_says_why() -> None:
    """The event names what made the play forbidden (issue 28): a joker, the best rank in
    the order in force (the 3 during a revolution), an 8 with eight_cut."""
    rules = HouseRules(jokers=1, forbidden_finish=True)
    state = position(["JK", "4D 5D", "6D 7D", "8D 9D"], rules)
    assert find(play(state, 0, "JK")[1], "forbidden")[0]["why"] == "joker"
    state = position(["3C", "4D 5D", "6D 7D", "8D 9D"], rules, reversed=True)
    assert {k: v for k, v in find(play(state, 0, "3C")[1], "forbidden")[0].items()
            if k in ("why", "rank")} == {"why": "best", "rank": "3"}
    state = position(["8C", "4D 5D", "6D 7D", "9D 9H"], HouseRules(forbidden_finish=True,
                                                                   eight_cut=True))
    assert find(play(state, 0, "8C")[1], "forbidden")[0]["why"] == "eight"


def test_forbidden_finish_off_a_two_finishes_first() -> None:
    state = position(["2C", "4D 5D", "6D 7D", "8D 9D"])
    state, events = play(state, 0, "2C")
    assert find(events, "out") == [{"hand": 1, "seat": 0, "place": 1}]


def test_forbidden_finish_as_the_last_two_players_go_out() -> None:
    """Two left: the one going out on a joker takes the last place, the other the one above."""
    rules = HouseRules(jokers=1, forbidden_finish=True, session_end="hands", session_length=1)
    state = position(["", "", "JK", "4D 5D"], rules, turn=2, finished=(0, 1))
    state, events = play(state, 2, "JK")
    assert state.phase is Phase.SESSION_OVER
    end = find(events, "hand_end")[0]
    assert end["order"] == [0, 1, 3, 2]
    assert end["roles"][2] == Role.SCUM.value


def test_forbidden_finish_on_an_eight_only_with_eight_cut() -> None:
    rules = HouseRules(forbidden_finish=True, eight_cut=True)
    state, events = play(position(["8C", "4D 5D", "6D 7D"], rules), 0, "8C")
    assert "forbidden" in codes(events)
    rules = HouseRules(forbidden_finish=True)
    state, events = play(position(["8C", "4D 5D", "6D 7D"], rules), 0, "8C")
    assert "forbidden" not in codes(events)


def test_forbidden_finish_during_a_revolution_is_the_three() -> None:
    rules = HouseRules(forbidden_finish=True, revolution="quad")
    state = position(["3C", "4D 5D", "6D 7D"], rules, reversed=True)
    state, events = play(state, 0, "3C")
    assert "forbidden" in codes(events)


# ------------------------------------------------------------ downfall


def test_downfall_the_previous_president_drops_to_the_bottom() -> None:
    rules = HouseRules(downfall=True)
    previous = HandResult((1, 0, 2, 3), (Role.VICE_PRESIDENT, Role.PRESIDENT, Role.VICE_SCUM,
                                         Role.SCUM), (0, 0, 0, 0))
    state = position(["4C", "KD KH 2D", "6D 7D", "8D 9D"], rules, results=(previous,))
    state, events = play(state, 0, "4C")
    assert find(events, "downfall") == [{"hand": 1, "seat": 1, "place": 4, "cards": "KD KH 2D"}]
    assert state.hands[1] == () and state.bottom == (1,)
    assert state.turn == 2


def test_downfall_not_when_the_president_goes_out_first() -> None:
    rules = HouseRules(downfall=True)
    previous = HandResult((0, 1, 2, 3), (Role.PRESIDENT, Role.VICE_PRESIDENT, Role.VICE_SCUM,
                                         Role.SCUM), (0, 0, 0, 0))
    state = position(["4C", "KD KH 2D", "6D 7D", "8D 9D"], rules, results=(previous,))
    state, events = play(state, 0, "4C")
    assert "downfall" not in codes(events)


def test_downfall_hand_end_places_the_president_last() -> None:
    rules = HouseRules(downfall=True, session_length=2)
    previous = HandResult((1, 0, 2), (Role.PRESIDENT, Role.NEUTRAL, Role.SCUM), (0, 0, 0))
    state = position(["4C", "KD KH 2D", "6D 7D"], rules, results=(previous,))
    state, events = run(state, (0, "4C"))
    end = find(events, "hand_end")
    assert end and end[0]["order"] == [0, 2, 1]


# ------------------------------------------------------------ histories


def test_a_daihinmin_session_replays_from_its_history() -> None:
    rules = HouseRules(
        jokers=1, revolution="quad", eight_cut=True, jack_back=True, five_skip=True,
        nine_reverse=True, spade_three_return=True, downfall=True, forbidden_finish=True,
        session_length=3,
    )
    assert {"cut", "skip"} <= set(codes(replayed_bot_session(rules, 5, 11)))

