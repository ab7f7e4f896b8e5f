"""Each preset plays as house-rules.md describes it."""

from __future__ import annotations

from dataclasses import replace

from engine_kit import (
    all_ready,
    assert_illegal,
    between_hands,
    codes,
    find,
    play,
    plays,
    position,
    run,
)

from president.actions import GiveBack, Play
from president.cards import parse_cards
from president.engine import apply
from president.rules import preset
from president.state import Phase, State


def _give_back_all(state: State) -> State:
    for due in list(state.tax_due):
        state, _ = apply(state, GiveBack(due.receiver, state.hands[due.receiver][: due.count]))
    return state


def test_preset_classic_scum_deals_two_one_tax_president_leads() -> None:
    state, events = all_ready(between_hands(preset("classic"), [2, 0, 3, 1]))
    assert state.dealer == 1
    assert [(t["from"], t["to"], len(t["cards"].split())) for t in find(events, "tax")] == [
        (1, 2, 2), (3, 0, 1)]
    state = _give_back_all(state)
    assert state.phase is Phase.PLAY and state.turn == 2


def test_preset_capitalism_is_classic_with_softer_titles() -> None:
    from dataclasses import replace

    assert replace(preset("capitalism"), title_set="classic") == preset("classic")


def test_preset_polish_president_deals_one_card_tax_left_of_dealer_leads() -> None:
    state, events = all_ready(between_hands(preset("polish"), [2, 0, 3, 1]))
    assert state.dealer == 2
    assert [(t["from"], t["to"], len(t["cards"].split())) for t in find(events, "tax")] == [
        (1, 2, 1)]
    state = _give_back_all(state)
    assert state.turn == 3


def test_preset_polish_scores_to_a_target() -> None:
    rules = preset("polish")
    state = position(["3C", "4C", "5C", "6C 2S"], rules)
    state, events = run(state, (0, "3C"), (1, "4C"), (2, "5C"))
    assert list(state.scores) == [2, 1, -1, -2]
    assert rules.session_end == "target"


def test_preset_bga_beggar_leads_trump_joker_locks_out_quad_revolution() -> None:
    rules = preset("bga")
    state, _ = all_ready(between_hands(rules, [2, 0, 3, 1]))
    state = _give_back_all(state)
    assert state.turn == 1  # the Beggar (Scum) leads
    state = position(["2C 2D 2H 2S 3D", "JK 4D", "5D 6D", "7D 8D"], rules)
    state, events = play(state, 0, "2C 2D 2H 2S")
    assert state.reversed and find(events, "revolution")
    state, _ = run(state, (1, None))
    assert_illegal(state, Play(1, parse_cards("JK")), "locked_out")
    state = position(["2C 2D 2H 2S 3D", "JK 4D", "5D 6D", "7D 8D"], rules)
    state, _ = run(state, (0, "2C 2D 2H 2S"), (1, "JK"))
    assert state.top.is_joker
    assert state.scores == (50,) * 4


def test_preset_daihinmin_is_the_contests_base_set() -> None:
    rules = preset("daihinmin")
    assert (rules.jokers, rules.revolution, rules.eight_cut, rules.suit_lock) == (
        1, "quad", True, "suits")
    assert rules.sequences == 3 and rules.runs_same_suit and rules.run_revolution
    assert rules.spade_three_return and rules.tax == "2-1" and rules.title_set == "daifugo"
    assert not (rules.jack_back or rules.downfall or rules.forbidden_finish)


def test_preset_daihinmin_local_adds_the_local_rules() -> None:
    local = preset("daihinmin_local")
    assert local.seven_pass and local.ten_discard
    assert replace(local, jack_back=False, downfall=False, forbidden_finish=False,
                   five_skip=False, nine_reverse=False, seven_pass=False,
                   ten_discard=False) == replace(preset("daihinmin"), joker_mode=local.joker_mode)


def test_preset_daihinmin_locks_and_cuts() -> None:
    state = position(["5H 3C", "7H 4S", "8C 8H QS KH"], preset("daihinmin"))
    state, events = run(state, (0, "5H"), (1, "7H"))
    assert "lock" in codes(events) and plays(state, 2) == {"8H", "KH"}


def test_preset_daihinmin_quad_revolts() -> None:
    state = position(["5C 5D 5H 5S 3D", "4D", "6D"], preset("daihinmin"))
    state, events = play(state, 0, "5C 5D 5H 5S")
    assert state.reversed and find(events, "revolution") == [{"hand": 1, "reversed": True}]
