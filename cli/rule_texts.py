"""House rules as words: a name, a one-line explanation and value names per field.

Keys are the fields of ``president.rules.HouseRules``; values are those of
``president.rules.ALLOWED``. Numeric values with plural forms (decks, jokers,
runs, players) are rendered by ``Text.rule_value``.
"""

from __future__ import annotations

from typing import Any

from president.cli.i18n import N_, NP_

RULE_NAMES: dict[str, str] = {
    "decks": N_("Decks"),
    "jokers": N_("Jokers"),
    "joker_mode": N_("Joker strength"),
    "rank_order": N_("Rank order"),
    "two_wraps": N_("The 2 wraps around"),
    "transparent_threes": N_("Transparent threes"),
    "pass_locks_out": N_("Passing locks you out"),
    "equal_rank": N_("Equal rank"),
    "skip_not_with_best": N_("No skip with the best card"),
    "skip_two_players_replay": N_("Skip with two players left"),
    "set_size_rule": N_("Set sizes"),
    "sequences": N_("Runs"),
    "bomb": N_("Bomb"),
    "suit_tiebreak": N_("Suits break ties"),
    "revolution": N_("Revolution"),
    "revolution_reverses_direction": N_("Revolution reverses the direction"),
    "tax": N_("Tax"),
    "first_lead": N_("First lead of the session"),
    "later_lead": N_("Lead after the tax"),
    "dealer": N_("Dealer"),
    "reseat_by_rank": N_("Reseat by rank"),
    "scoring": N_("Scoring"),
    "session_end": N_("End of the session"),
    "session_length": N_("Session length"),
    "decree": N_("President's decree"),
    "title_set": N_("Role titles"),
    "min_players": N_("Fewest players"),
    "max_players": N_("Most players"),
    "eight_cut": N_("8-cut"),
    "jack_back": N_("11-back (jack)"),
    "five_skip": N_("5-skip"),
    "nine_reverse": N_("9-reverse"),
    "spade_three_return": N_("3 of spades beats a joker"),
    "downfall": N_("Downfall (miyako-ochi)"),
    "forbidden_finish": N_("Forbidden finish"),
    "suit_lock": N_("Suit lock (shibari)"),
    "seven_pass": N_("7-pass"),
    "ten_discard": N_("10-discard"),
    "runs_same_suit": N_("Runs in one suit (kaidan)"),
    "run_revolution": N_("A run of four starts a revolution"),
}

RULE_EXPLANATIONS: dict[str, str] = {
    "decks": N_("How many 52-card decks are shuffled together; "
                "automatic means two decks from six players up."),
    "jokers": N_("Jokers added to each deck; they rank above the 2."),
    "joker_mode": N_("Highest rank: jokers pair only with jokers. "
                     "Trump: a single joker beats any play. Wild: a joker played with "
                     "other cards stands for the card its player names; alone it is the "
                     "highest card."),
    "rank_order": N_("Which card is highest: the 2 (3 lowest, then up to A and 2), "
                     "or the ace, with the 2 lowest."),
    "two_wraps": N_("The 2 is highest and lowest at once: it beats everything, "
                    "and everything beats it."),
    "transparent_threes": N_("A 3 (or a set of 3s of the same size) beats any set "
                             "and takes the rank of what it beat."),
    "pass_locks_out": N_("A player who passes may not play again until the pile is cleared."),
    "equal_rank": N_("Whether a set of the same rank as the top of the pile may be "
                     "played, and whether it skips the next player."),
    "skip_not_with_best": N_("The skip does not work with the best card "
                             "(the 2, a joker, or the 3 during a revolution)."),
    "skip_two_players_replay": N_("With only two players left, an equal-rank play "
                                  "lets its player play again."),
    "set_size_rule": N_("Whether a set must have as many cards as the top of the pile, "
                        "or a bigger set may beat a smaller one."),
    "sequences": N_("Runs of consecutive ranks in any suits; a run beats only a run "
                    "of the same length, with a higher top card."),
    "bomb": N_("A play that breaks the size rule: a single 2 or joker on a pair or "
               "three of a kind, or a four of a kind on anything."),
    "suit_tiebreak": N_("Single cards of equal rank are ordered by suit: "
                        "spades, hearts, diamonds, clubs."),
    "revolution": N_("A four of a kind reverses the rank order for the rest of the hand; "
                     "another one reverses it back."),
    "revolution_reverses_direction": N_("A revolution also reverses the direction of play."),
    "tax": N_("Before each hand after the first, the lowest players give their best "
              "cards to the highest, who give back cards of their choice."),
    "first_lead": N_("Who leads the first hand of a session."),
    "later_lead": N_("Who leads the hands after the first, once the tax is paid."),
    "dealer": N_("Who deals from the second hand on."),
    "reseat_by_rank": N_("After each hand the players change seats: the President at "
                         "the head, the Vice President on their left, and so on."),
    "scoring": N_("The points each role earns at the end of a hand."),
    "session_end": N_("When the session ends; the highest total wins."),
    "session_length": N_("The number of hands, the target score or the minutes, "
                         "as the end of the session says."),
    "decree": N_("The President may set a social rule for the next hand, "
                 "shown to everyone."),
    "title_set": N_("The titles shown for the roles; each player reads them in "
                    "their own language."),
    "min_players": N_("The table starts with at least this many players."),
    "max_players": N_("The most players the table seats."),
    "eight_cut": N_("A play with an 8 clears the pile; its player leads again."),
    "jack_back": N_("A play with a jack reverses the rank order until the pile is cleared."),
    "five_skip": N_("Each 5 played skips the next player."),
    "nine_reverse": N_("A play with a 9 reverses the direction of play."),
    "spade_three_return": N_("The 3 of spades played alone on a lone joker clears the pile; "
                             "its player leads again."),
    "downfall": N_("From the second hand on, the previous President drops to the last "
                   "place when someone else goes out first."),
    "forbidden_finish": N_("Going out with a joker, the best rank, an 8 (with 8-cut) or "
                           "the 3 of spades on a joker puts the player in the last place."),
    "suit_lock": N_("A play in the same suits as the play it beats locks the pile to those "
                    "suits until it is cleared (jokers fit any lock). With the step lock, a "
                    "play one rank above the one it beats also locks the pile to plays one "
                    "rank up."),
    "seven_pass": N_("After a play with 7s, its player gives one card of their choice per 7 "
                     "to the next player."),
    "ten_discard": N_("After a play with 10s, its player discards one card of their choice "
                      "per 10."),
    "runs_same_suit": N_("A run must be all of one suit (when runs are played at all)."),
    "run_revolution": N_("A run of four or more cards reverses the rank order, as a four "
                         "of a kind does."),
}

# (field, value) -> (context, English value name). Booleans default to on/off,
# counts are rendered with plural forms by Text.rule_value.
RULE_VALUES: dict[tuple[str, str], tuple[str, str]] = {
    ("decks", "auto"): NP_("rule value", "automatic"),
    ("jokers", "0"): NP_("rule value", "none"),
    ("joker_mode", "high"): NP_("rule value", "highest rank"),
    ("joker_mode", "trump"): NP_("rule value", "trump"),
    ("joker_mode", "wild"): NP_("rule value", "wild"),
    ("rank_order", "two_high"): NP_("rule value", "2 highest"),
    ("rank_order", "ace_high"): NP_("rule value", "ace highest"),
    ("equal_rank", "off"): NP_("rule value", "not allowed"),
    ("equal_rank", "allowed"): NP_("rule value", "allowed"),
    ("equal_rank", "skip"): NP_("rule value", "allowed, skips the next player"),
    ("set_size_rule", "same"): NP_("rule value", "same size"),
    ("set_size_rule", "bigger_beats_lower"): NP_("rule value",
                                                 "a bigger set beats a lower smaller set"),
    ("set_size_rule", "bigger_beats_any"): NP_("rule value", "a bigger set beats any smaller set"),
    ("sequences", "0"): NP_("rule value", "off"),
    ("bomb", "off"): NP_("rule value", "off"),
    ("bomb", "two_or_joker"): NP_("rule value", "a single 2 or joker"),
    ("bomb", "quad"): NP_("rule value", "four of a kind"),
    ("suit_tiebreak", "off"): NP_("rule value", "off"),
    ("suit_tiebreak", "big_two"): NP_("rule value", "Big Two order"),
    ("revolution", "off"): NP_("rule value", "off"),
    ("revolution", "quad"): NP_("rule value", "four of a kind"),
    ("revolution", "quad_or_four_in_a_row"): NP_(
        "rule value", "four of a kind, or four equal singles in a row"),
    ("tax", "2-1"): NP_("rule value", "2 and 1 cards"),
    ("tax", "1"): NP_("rule value", "1 card"),
    ("tax", "3-2-1"): NP_("rule value", "3, 2 and 1 cards"),
    ("tax", "none"): NP_("rule value", "no tax"),
    ("first_lead", "left_of_dealer"): NP_("rule value", "left of the dealer"),
    ("first_lead", "dealer"): NP_("rule value", "the dealer"),
    ("first_lead", "three_of_clubs"): NP_("rule value", "whoever holds the 3 of clubs"),
    ("later_lead", "president"): NP_("rule value", "the President"),
    ("later_lead", "scum"): NP_("rule value", "the Scum"),
    ("later_lead", "left_of_dealer"): NP_("rule value", "left of the dealer"),
    ("dealer", "scum"): NP_("rule value", "the Scum"),
    ("dealer", "president"): NP_("rule value", "the President"),
    ("dealer", "rotate"): NP_("rule value", "in turn, clockwise"),
    ("scoring", "classic"): NP_("rule value", "classic (+3 +2 0 −2 −3)"),
    ("scoring", "polish"): NP_("rule value", "Polish (+2 +1 0 −1 −2)"),
    ("scoring", "bga"): NP_("rule value", "Board Game Arena (start at 50; +5 0 −5 −10 −15)"),
    ("scoring", "presidencies"): NP_("rule value", "presidencies counted"),
    ("session_end", "hands"): NP_("rule value", "after a number of hands"),
    ("session_end", "target"): NP_("rule value", "at a target score"),
    ("session_end", "minutes"): NP_("rule value", "after a number of minutes"),
    ("session_end", "zero"): NP_("rule value", "when a player reaches 0 points"),
    ("session_end", "open"): NP_("rule value", "when the host ends it"),
    ("title_set", "classic"): NP_("rule value", "classic (Asshole)"),
    ("title_set", "scum"): NP_("rule value", "Scum"),
    ("title_set", "capitalism"): NP_("rule value", "capitalism (Middle)"),
    ("title_set", "bga"): NP_("rule value", "Board Game Arena (Beggar)"),
    ("title_set", "daifugo"): NP_("rule value", "Japanese (Daihinmin)"),
    ("suit_lock", "off"): NP_("rule value", "off"),
    ("suit_lock", "suits"): NP_("rule value", "suits"),
    ("suit_lock", "suits_and_step"): NP_("rule value", "suits, and one rank up"),
}


def rule_value_key(field: str, value: Any) -> tuple[str, str]:
    """The ``RULE_VALUES`` key of a value; booleans never match a count."""
    if isinstance(value, bool):
        return field, f"bool:{value}"
    return field, str(value)
