"""Every code the engine and the host send, made into text in one player's language.

``Text(translator)`` renders events, refusal reasons, role titles, cards,
combinations, house rules and rules errors. The host never sends sentences;
this is the edge where they are made. Role titles are never pasted into a
sentence that would inflect them: sentences use ``{name}: {title}`` forms.

- events: ``event(event, players, seat)``
- refusals and errors: ``reason(code, params)``, ``error(exc)``, ``rules_error(exc)``,
  ``history_error(exc)``
- roles: ``role_title(role, title_set)``
- cards: ``rank(rank_or_symbol)``, ``rank_name``, ``suit_name``, ``card``,
  ``card_name``, ``cards(notation)``
- words: ``combination(kind)``, ``phase(phase)``, ``action(kind)``, ``preset_name(preset)``,
  ``bot_level(kind)``
- tables of words for other clients (the web page): ``ROLE_TITLES``, ``TITLE_SET_NAMES``,
  ``PRESET_NAMES``, ``RANK_NAMES``, ``SUIT_NAMES``, ``COMBINATIONS``, ``PHASES``,
  ``ACTIONS``, ``CONNECTION_STATUS``, ``BOT_LEVELS``
- house rules: ``rule_rows(rules)`` (every rule of a table, for the help and the page),
  ``rule_name(field)``, ``rule_explanation(field)``, ``rule_value(field, value)``,
  ``session_length(session_end, value)``
- hints: ``hint(move, cards, reason, params)`` (the medium bot's reason codes)
- formatting: ``number(x)``, ``join(items)``
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from president.cards import JOKER, Card, Rank, Suit, parse_cards
from president.cli.i18n import N_, NN_, NP_, Translator, get_translator
from president.cli.rule_texts import RULE_EXPLANATIONS, RULE_NAMES, RULE_VALUES, rule_value_key
from president.combos import Combo, stands_for
from president.errors import (
    HistoryError,
    JournalError,
    NotationError,
    PresidentError,
    RulesError,
)
from president.events import Event
from president.locks import Lock
from president.roles import Role
from president.rules import ALLOWED, HouseRules
from president.state import place_in
from president.view import View

TITLE_SETS = ("classic", "scum", "capitalism", "bga", "daifugo")

# title set -> role -> (context, English title). One context per set, so each
# language can choose its own words for each set.
ROLE_TITLES: dict[str, dict[str, tuple[str, str]]] = {
    "classic": {
        Role.PRESIDENT: NP_("title:classic", "President"),
        Role.VICE_PRESIDENT: NP_("title:classic", "Vice President"),
        Role.UPPER_NEUTRAL: NP_("title:classic", "Upper Neutral"),
        Role.NEUTRAL: NP_("title:classic", "Neutral"),
        Role.LOWER_NEUTRAL: NP_("title:classic", "Lower Neutral"),
        Role.VICE_SCUM: NP_("title:classic", "Vice Asshole"),
        Role.SCUM: NP_("title:classic", "Asshole"),
        Role.SUPER_SCUM: NP_("title:classic", "Super Asshole"),
    },
    "scum": {
        Role.PRESIDENT: NP_("title:scum", "President"),
        Role.VICE_PRESIDENT: NP_("title:scum", "Vice President"),
        Role.UPPER_NEUTRAL: NP_("title:scum", "Upper Neutral"),
        Role.NEUTRAL: NP_("title:scum", "Neutral"),
        Role.LOWER_NEUTRAL: NP_("title:scum", "Lower Neutral"),
        Role.VICE_SCUM: NP_("title:scum", "Vice Scum"),
        Role.SCUM: NP_("title:scum", "Scum"),
        Role.SUPER_SCUM: NP_("title:scum", "Super Scum"),
    },
    "capitalism": {
        Role.PRESIDENT: NP_("title:capitalism", "President"),
        Role.VICE_PRESIDENT: NP_("title:capitalism", "Vice President"),
        Role.UPPER_NEUTRAL: NP_("title:capitalism", "Upper Middle"),
        Role.NEUTRAL: NP_("title:capitalism", "Middle"),
        Role.LOWER_NEUTRAL: NP_("title:capitalism", "Lower Middle"),
        Role.VICE_SCUM: NP_("title:capitalism", "Vice Scum"),
        Role.SCUM: NP_("title:capitalism", "Scum"),
        Role.SUPER_SCUM: NP_("title:capitalism", "Super Scum"),
    },
    "bga": {
        Role.PRESIDENT: NP_("title:bga", "President"),
        Role.VICE_PRESIDENT: NP_("title:bga", "Prime Minister"),
        Role.UPPER_NEUTRAL: NP_("title:bga", "Citizen"),
        Role.NEUTRAL: NP_("title:bga", "Citizen"),
        Role.LOWER_NEUTRAL: NP_("title:bga", "Citizen"),
        Role.VICE_SCUM: NP_("title:bga", "Peasant"),
        Role.SCUM: NP_("title:bga", "Beggar"),
        Role.SUPER_SCUM: NP_("title:bga", "Beggar"),
    },
    # Daifugō / Daihinmin's own titles, romanised (大富豪, 富豪, 平民, 貧民, 大貧民); the
    # title set's name and the rules documents give each one's meaning.
    "daifugo": {
        Role.PRESIDENT: NP_("title:daifugo", "Daifugō"),
        Role.VICE_PRESIDENT: NP_("title:daifugo", "Fugō"),
        Role.UPPER_NEUTRAL: NP_("title:daifugo", "Heimin"),
        Role.NEUTRAL: NP_("title:daifugo", "Heimin"),
        Role.LOWER_NEUTRAL: NP_("title:daifugo", "Heimin"),
        Role.VICE_SCUM: NP_("title:daifugo", "Hinmin"),
        Role.SCUM: NP_("title:daifugo", "Daihinmin"),
        Role.SUPER_SCUM: NP_("title:daifugo", "Daihinmin"),
    },
}

# What the Japanese titles mean (issue 28: "Daifugō — the grand millionaire"), by title.
TITLE_MEANINGS: dict[str, str] = {
    "Daifugō": N_("the grand millionaire"),
    "Fugō": N_("the millionaire"),
    "Heimin": N_("a commoner"),
    "Hinmin": N_("the pauper"),
    "Daihinmin": N_("the grand pauper"),
}
TITLE_WITH_MEANING = N_("{title} — {meaning}")

TITLE_SET_NAMES: dict[str, tuple[str, str]] = {
    "classic": NP_("title set", "Classic (President … Asshole)"),
    "scum": NP_("title set", "Scum (President … Scum)"),
    "capitalism": NP_("title set", "Capitalism (softer: Middle instead of Neutral)"),
    "bga": NP_("title set", "Board Game Arena (President … Beggar)"),
    "daifugo": NP_("title set", "Japanese (Daifugō, grand millionaire … Daihinmin, grand pauper)"),
}

PRESET_NAMES: dict[str, tuple[str, str]] = {
    "classic": NP_("preset", "Classic"),
    "capitalism": NP_("preset", "Capitalism"),
    "daihinmin": NP_("preset", "Daihinmin"),
    "daihinmin_local": NP_("preset", "Daihinmin (local)"),
    "polish": NP_("preset", "Polish"),
    "bga": NP_("preset", "Board Game Arena"),
}

# The letter printed on a card's corner, as players of each language know it.
RANK_LETTERS: dict[Rank, tuple[str, str]] = {
    Rank.JACK: NP_("rank letter", "J"),
    Rank.QUEEN: NP_("rank letter", "Q"),
    Rank.KING: NP_("rank letter", "K"),
    Rank.ACE: NP_("rank letter", "A"),
    Rank.JOKER: NP_("rank letter", "JK"),
}

RANK_NAMES: dict[Rank, tuple[str, str]] = {
    Rank.THREE: NP_("rank", "three"),
    Rank.FOUR: NP_("rank", "four"),
    Rank.FIVE: NP_("rank", "five"),
    Rank.SIX: NP_("rank", "six"),
    Rank.SEVEN: NP_("rank", "seven"),
    Rank.EIGHT: NP_("rank", "eight"),
    Rank.NINE: NP_("rank", "nine"),
    Rank.TEN: NP_("rank", "ten"),
    Rank.JACK: NP_("rank", "jack"),
    Rank.QUEEN: NP_("rank", "queen"),
    Rank.KING: NP_("rank", "king"),
    Rank.ACE: NP_("rank", "ace"),
    Rank.TWO: NP_("rank", "two"),
    Rank.JOKER: NP_("rank", "joker"),
}

# A joker named in a sentence ("Anna plays Joker."): where the corner label "JK" reads as
# nothing in running text, the catalog gives the card's name instead (every language).
JOKER_IN_TEXT = NP_("card in a sentence", "JK")

SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}

SUIT_NAMES: dict[Suit, tuple[str, str]] = {
    Suit.CLUBS: NP_("suit", "clubs"),
    Suit.DIAMONDS: NP_("suit", "diamonds"),
    Suit.HEARTS: NP_("suit", "hearts"),
    Suit.SPADES: NP_("suit", "spades"),
}

COMBINATIONS: dict[str, tuple[str, str]] = {
    "single": NP_("combination", "single"),
    "pair": NP_("combination", "pair"),
    "triple": NP_("combination", "three of a kind"),
    "quad": NP_("combination", "four of a kind"),
    "run": NP_("combination", "run"),
    "bomb": NP_("combination", "bomb"),
}

# Bot kinds (president.bots.BOT_KINDS): the three levels players choose, and two kept
# for tests and benches.
BOT_LEVELS: dict[str, tuple[str, str]] = {
    "easy": NP_("bot level", "easy"),
    "medium": NP_("bot level", "medium"),
    "hard": NP_("bot level", "hard"),
    "heuristic": NP_("bot level", "rule of thumb"),
    "random": NP_("bot level", "random"),
}

PHASES: dict[str, tuple[str, str]] = {
    "tax": NP_("phase", "Tax"),
    "play": NP_("phase", "Play"),
    "hand_over": NP_("phase", "Hand over"),
    "session_over": NP_("phase", "Session over"),
}

# Buttons and key labels. "Pass" the action differs from passing cards in the tax.
# The house rule an event shows at work: ``?`` (the page: Rules) opens the help on it
# (issue 28).
RULE_OF_EVENT: dict[str, str] = {
    "revolution": "revolution", "cut": "eight_cut", "back": "jack_back", "reverse": "nine_reverse",
    "lock": "suit_lock", "forbidden": "forbidden_finish", "downfall": "downfall",
    "give": "seven_pass", "discard": "ten_discard", "return": "spade_three_return",
}

ACTIONS: dict[str, tuple[str, str]] = {
    "play": NP_("action", "Play"),
    "pass": NP_("action", "Pass"),
    "give_back": NP_("action", "Give back"),
    "give": NP_("action", "Give"),
    "discard": NP_("action", "Discard"),
    "ready": NP_("action", "Ready"),
    "decree": NP_("action", "Decree"),
    "lowest": NP_("action", "Lowest set"),
    "clear": NP_("action", "Clear selection"),
    "help": NP_("action", "Help"),
    "quit": NP_("action", "Quit"),
    "start": NP_("action", "Start"),
    "back": NP_("action", "Back"),
}

# Refusals: the engine's reasons (president.actions.REASONS), the host's join and
# message refusals, the protocol's faults and the client's own failures.
REASONS: dict[str, str] = {
    # engine
    "session_over": N_("The session is over."),
    "wrong_phase": N_("You cannot do that now."),
    "bad_seat": N_("There is no such seat."),
    "not_your_turn": N_("It is not your turn."),
    "already_out": N_("You have no cards left in this hand."),
    "not_in_hand": N_("Those cards are not in your hand."),
    "empty_play": N_("Select some cards first."),
    "mixed_ranks": N_("All the cards of a set must have the same rank."),
    "jokers_alone": N_("Jokers can only be played together with other jokers."),
    "joker_undeclared": N_("Say which card the joker stands for."),
    "bad_declaration": N_("The joker cannot stand for that card in this play."),
    "joker_held": N_("A joker stands only for a card you do not hold."),
    # (the client's, when no value of a wild joker makes a legal play: refusals.wild_reason)
    "joker_no_play": N_("These cards make no play, whatever the joker stands for."),
    "wrong_size": N_("Play as many cards as the top of the pile."),
    "wrong_kind": N_("A run cannot be played on a set, nor a set on a run."),
    "too_low": N_("That does not beat the top of the pile."),
    "must_lead": N_("You lead: you cannot pass on an empty pile."),
    "locked_out": N_("You passed: you cannot play again until the pile is cleared."),
    "no_tax_due": N_("You have no cards to give back."),
    "wrong_count": N_("Choose exactly as many cards as you have to give back."),
    "wrong_give_count": N_("Choose exactly as many cards as you have to give: one per 7 "
                           "you played."),
    "wrong_discard_count": N_("Choose exactly as many cards as you have to discard: one per "
                              "10 you played."),
    "already_ready": N_("You have already said you are ready."),
    "not_president": N_("Only the President can make a decree."),
    "decree_made": N_("The decree for this hand has already been made."),
    "decree_invalid": N_("A decree needs some text, at most 200 characters."),
    "suit_locked": N_("The pile is locked to other suits until it is cleared."),
    "step_locked": N_("The pile is locked: play exactly one rank above the top."),
    "must_give": N_("First choose the cards to give or to discard."),
    "no_give_due": N_("You have no cards to give or to discard now."),
    "mixed_suits": N_("The cards of a run must all be of the same suit."),
    # host: joining and messages
    "wrong_pin": N_("Wrong PIN."),
    "bad_pin": N_("Wrong PIN."),
    "bad_token": N_("The table does not recognise your seat any more."),
    "seat_taken": N_("Someone else is already sitting in that seat."),
    "table_full": N_("The table is full."),
    "table_closed": N_("The table is closed."),
    "no_such_table": N_("There is no such table on this host."),
    "already_started": N_("The game has already started."),
    "owner_only": N_("Only the table's owner can start early: wait for them."),
    "not_owner": N_("Only the table's owner can do that."),
    "not_started": N_("The game has not started yet."),
    "session_not_over": N_("The session is not over yet."),
    "spectator": N_("Spectators cannot play."),
    "hints_off": N_("Hints are turned off at this table."),
    "lesson_step": N_("The lesson asks for another move: see the line above the keys."),
    "late_seat": N_("This seat is yours from the next hand: its bot finishes this one."),
    "bad_cards": N_("Those are not valid cards."),
    "name_invalid": N_("That name cannot be used."),
    "rate_limited": N_("Too many messages: slow down."),
    "too_many_connections": N_("Too many connections from your computer."),
    "spectators_full": N_("This table has as many spectators as it takes."),
    "host_full": N_("The host has too many connections just now: try again in a moment."),
    "hello_timeout": N_("The host waited too long for this device to say hello."),
    "too_many_attempts": N_("Too many wrong attempts: wait a minute, then try again."),
    "chat_too_long": N_("That chat line is too long."),
    "bad_player_count": N_("That number of players is not allowed by these rules."),
    "journal_locked": N_("Another host is using this table's journal."),
    "journal_unwritable": N_("The table's journal cannot be written."),
    "no_such_session": N_("There is no such session in the journal."),
    "bad_row": N_("A session's row in the journal cannot be read."),
    "session_unreplayable": N_("The session in the journal can no longer be replayed."),
    "pin_needed": N_("A table in the journal has a PIN, which the journal does not keep:"
                     " give it again (--pin, PRESIDENT_PIN or --pin-file) to resume it."),
    "host_stopping": N_("The host is shutting down."),
    "seat_request_sent": N_("Asked the table's owner for your seat."),
    "seat_request_refused": N_("The table's owner did not give you the seat."),
    "no_seat_request": N_("Nobody asks for that seat any more."),
    "host_failed": N_("The table could not be opened: its host did not start."),
    "host_paused": N_("The host paused the table; you will rejoin when it is back."),
    "left": N_("You left the table."),
    "replaced": N_("Your seat is now played from another window or device."),
    "closed": N_("The connection was closed."),
    # protocol
    "bad_version": N_("The host runs another version of the game."),
    "version_mismatch": N_("The host runs another version of the game."),
    "already_joined": N_("You have already joined this table."),
    "not_joined": N_("Join a table first."),
    "frame_too_large": N_("A message was too large."),
    "empty_frame": N_("A message was empty."),
    "bad_msgpack": N_("A message could not be read."),
    "malformed": N_("A message could not be read."),
    "not_a_map": N_("A message could not be read."),
    "unknown_type": N_("A message of an unknown kind was received."),
    "unknown_field": N_("A message had an unknown field."),
    "missing_field": N_("A message had a missing field."),
    "bad_field": N_("A message had an invalid field."),
    # client
    "not_connected": N_("Not connected to a table."),
    "timeout": N_("The host did not answer in time."),
    "disconnected": N_("The connection to the host was lost."),
    "unexpected": N_("The host sent an unexpected answer."),
    "host_key_changed": N_("This host's key is not the one you joined before. It may be another"
                           " computer using the table's name: nothing was sent to it. Ask the"
                           " table's host which key their screen shows."),
    "host_unproved": N_("The table could not prove it is the one you chose: it may be an "
                        "impostor. You left it."),
    "no_pin": N_("This table has no PIN: leave the PIN empty."),
    "pin_on_command_line": N_("--pin takes no value any more: a PIN on the command line can be"
                              " read by every user of this computer. Type --pin alone to be"
                              " asked for it, or give it in PRESIDENT_PIN or with --pin-file"
                              " FILE."),
    "pin_file": N_("Cannot read the PIN from the file given with --pin-file."),
    "pin_again": N_("The join did not finish, and a PIN is tried only once, so that a lookalike"
                    " table cannot guess it: type the PIN again to try once more."),
    "address_empty": N_("Type an address, such as 192.168.1.20:7777."),
    "address_no_port": N_("The address needs a port, such as 192.168.1.20:7777."),
    "address_bad_port": N_("The port must be a number from 1 to 65535."),
    "address_bad_host": N_("That is not a valid host name or address."),
    "bad_address": N_("That is not a valid address."),
    "address_ipv6_needs_brackets": N_("Put an IPv6 address in brackets, such as [fe80::1]:7777."),
    "bad_port": N_("That is not a valid port."),
    "no_addresses": N_("This computer has no network address to offer."),
}

CONNECTION_STATUS: dict[str, str] = {
    "new": N_("Not connected"),
    "connected": N_("Connected"),
    "reconnecting": N_("Connection lost: reconnecting…"),
    "closed": N_("Disconnected"),
}

# The sentences below are tables (not literals in the methods) so that the web page
# (``cli/web/texts.py``) gets the very same messages for the same codes.

# play event, by combination: (to others' eyes, to the player's own eyes)
PLAY_LINES: dict[str, tuple[str, str]] = {
    "single": (N_("{name} plays {cards}."), N_("You play {cards}.")),
    "pair": (N_("{name} plays a pair: {cards}."), N_("You play a pair: {cards}.")),
    "triple": (N_("{name} plays three of a kind: {cards}."),
               N_("You play three of a kind: {cards}.")),
    "quad": (N_("{name} plays four of a kind: {cards}."),
             N_("You play four of a kind: {cards}.")),
    "run": (N_("{name} plays a run: {cards}."), N_("You play a run: {cards}.")),
}
PLAY_MANY = (
    NN_("{name} plays {count} card of one rank: {cards}.",
        "{name} plays {count} cards of one rank: {cards}."),
    NN_("You play {count} card of one rank: {cards}.",
        "You play {count} cards of one rank: {cards}."),
)

# Events that read differently to the player they name: (the reader's own, another's).
EVENT_LINES: dict[str, tuple[str, str]] = {
    "deal": (N_("Hand {hand}: you deal."), N_("Hand {hand}: {name} deals.")),
    "pass": (N_("You pass."), N_("{name} passes.")),
    "skip": (N_("You are skipped."), N_("{name} is skipped.")),
    "clear": (N_("The pile is cleared; you lead."), N_("The pile is cleared; {name} leads.")),
    "out": (N_("You are out of cards: place {place}."),
            N_("{name} is out of cards: place {place}.")),
    "out_last": (N_("You are left holding cards: place {place}."),
                 N_("{name} is left holding cards: place {place}.")),
    "decree": (N_("Your decree: {text}"), N_("{name} decrees: {text}")),
    "ready": (N_("You are ready for the next hand."), N_("{name} is ready for the next hand.")),
    "lead": (N_("You lead."), N_("{name} leads.")),
    "forbidden": (N_("Forbidden finish: you go out in place {place}."),
                  N_("Forbidden finish: {name} goes out in place {place}.")),
    # ... and why (the event's ``why``, issue 28): the card no one may go out on
    "forbidden_joker": (
        N_("Forbidden finish: you went out on a joker, which may not be the last card: "
           "place {place}."),
        N_("Forbidden finish: {name} went out on a joker, which may not be the last card: "
           "place {place}.")),
    "forbidden_best": (
        N_("Forbidden finish: you went out on a {rank}, the best rank, which may not be the "
           "last card: place {place}."),
        N_("Forbidden finish: {name} went out on a {rank}, the best rank, which may not be "
           "the last card: place {place}.")),
    "forbidden_eight": (
        N_("Forbidden finish: you went out on an 8, which may not be the last card (8-cut): "
           "place {place}."),
        N_("Forbidden finish: {name} went out on an 8, which may not be the last card "
           "(8-cut): place {place}.")),
    "forbidden_spade_three": (
        N_("Forbidden finish: you went out on the 3 of spades returning a joker, which may "
           "not be the last play: place {place}."),
        N_("Forbidden finish: {name} went out on the 3 of spades returning a joker, which "
           "may not be the last play: place {place}.")),
    "downfall": (N_("Downfall: you drop out of the hand in place {place}."),
                 N_("Downfall: {name} drops out of the hand in place {place}.")),
    "discard": (N_("10-discard: you discard {cards}."), N_("10-discard: {name} discards {cards}.")),
}

# The other event sentences.
EVENT_TEXTS: dict[str, str] = {
    "tax_given": N_("You give {cards} to {name}."),
    "tax_received": N_("{name} gives you {cards}."),
    "give_given": N_("7-pass: you give {cards} to {name}."),
    "give_received": N_("7-pass: {name} gives you {cards}."),
    "revolution": N_("Revolution! The order of the ranks is reversed."),
    "counter_revolution": N_("Counter-revolution! The ranks are back in their usual order."),
    "hand_end": N_("Hand {hand} is over. Finishing order: {order}."),
    "cut": N_("8-cut! The pile is cleared."),
    "return": N_("3 of spades on the joker! The pile is cleared."),
    "back": N_("11-back! The rank order is reversed until the pile is cleared."),
    "back_off": N_("11-back again: the rank order is as it was."),
    "reverse": N_("The direction of play is reversed."),
    "lock_suits": N_("Suit lock! Until the pile is cleared, every play must be in {suits}."),
    "lock_step": N_("Step lock! Until the pile is cleared, every play must be one rank "
                    "above the last."),
    "lock_both": N_("Suit and step lock! Until the pile is cleared, every play must be in "
                    "{suits} and one rank above the last."),
    "unknown": N_("Event: {code}"),
    # the host's words to one player (not engine events): back at the table, arriving late
    "away": N_("While you were away: {what}."),
    "away_role": N_("you are now {role}"),
    "late": N_("You take the seat of {name} with its score: it is yours from the next "
               "hand, its bot finishes this one."),
    # the end of a duplicate session: who held each seat's cards, and their scores
    "duplicate": N_("Same deals, seat by seat: {pairs}."),
    "duplicate_pair": N_("{before} {before_score} vs {now} {now_score}"),
}

# A hint (issue 28): "Hint: {move}: {why}", the move by its action, the reason by the
# medium bot's code (``president.bots.advice.REASONS``): (without, with the cards kept).
HINT_LINE = N_("Hint: {move}: {why}")
HINT_MOVES: dict[str, str] = {
    "play": N_("play {cards}"),
    "pass": N_("pass (p)"),
    "give": N_("give {cards}"),
    "discard": N_("discard {cards}"),
    "give_back": N_("give back {cards}"),
}
HINT_REASONS: dict[str, tuple[str, str]] = {
    "go_out": (N_("these are your last cards: you go out."),) * 2,
    "win_then_out": (N_("nobody can beat it, and then you go out with what is left."),) * 2,
    "revolution": (N_("a revolution: your hand is stronger with the order reversed."),) * 2,
    "lead_low": (N_("lead your weakest cards first."),
                 N_("lead your weakest cards first; keep {keep} to take the lead back later.")),
    "lead_control": (N_("nobody can beat it, so you keep the lead."),) * 2,
    "take_trick": (N_("nobody can beat it: the trick is yours."),) * 2,
    "follow_low": (N_("the lowest cards that beat the pile without breaking up a set."),
                   N_("the lowest cards that beat the pile without breaking up a set; "
                      "keep {keep} to take the lead back later.")),
    "spend_control": (N_("nobody can beat it, and the rest of your hand can go out after "
                         "it."),) * 2,
    "split": (N_("it breaks up a set, but every other play costs more."),) * 2,
    "pass_keep": (N_("keep your strong cards for later."),
                  N_("keep {keep} to take the lead back later.")),
    "pass_only": (N_("nothing you hold beats the pile."),) * 2,
    "shed": (N_("these are the cards you need least."),) * 2,
    "forbidden_out": (N_("you go out on a card no one may go out on: you take the last place, "
                         "but nothing else is left."),) * 2,
    "strands": (N_("it leaves only cards no one may go out on, but every other play costs "
                   "more."),) * 2,
}
HINT_KEY = NP_("hint key", "h")    # never a card's letter (tests/cli/test_rank_keys.py)
HINT_KEY_LABEL = N_("h hint")      # the key line's: the key, then what it does
HINTS_OFF = N_("Hints are turned off at this table.")
NO_HINT = N_("No hint now: it is not your move.")

# "To beat" while following (issue 28): what a play must be, from the view's top of the
# pile; {rank} the top's rank (a run's top card). Under a revolution or an 11-back the
# lower ranks beat the higher: "below" (``BEAT_BELOW``), and the rule named after it.
TO_BEAT = N_("To beat: {what}")
TO_BEAT_OR_PASS = N_("To beat: {what} · or pass")
BEAT_SETS: dict[int, tuple[str, str]] = {   # by set size: (above, equal or above)
    1: (N_("a single above {rank}"), N_("a single of {rank} or above")),
    2: (N_("a pair above {rank}"), N_("a pair of {rank} or above")),
    3: (N_("three of a kind above {rank}"), N_("three of a kind of {rank} or above")),
    4: (N_("four of a kind above {rank}"), N_("four of a kind of {rank} or above")),
}
BEAT_MANY = (NN_("{count} card of one rank above {rank}", "{count} cards of one rank above {rank}"),
             NN_("{count} card of one rank of {rank} or above",
                 "{count} cards of one rank of {rank} or above"))
BEAT_RUN = NN_("a run of {count} card above {rank}", "a run of {count} cards above {rank}")
BEAT_SETS_BELOW: dict[int, tuple[str, str]] = {   # the order reversed: (below, or below)
    1: (N_("a single below {rank}"), N_("a single of {rank} or below")),
    2: (N_("a pair below {rank}"), N_("a pair of {rank} or below")),
    3: (N_("three of a kind below {rank}"), N_("three of a kind of {rank} or below")),
    4: (N_("four of a kind below {rank}"), N_("four of a kind of {rank} or below")),
}
BEAT_MANY_BELOW = (
    NN_("{count} card of one rank below {rank}", "{count} cards of one rank below {rank}"),
    NN_("{count} card of one rank of {rank} or below",
        "{count} cards of one rank of {rank} or below"))
BEAT_RUN_BELOW = NN_("a run of {count} card below {rank}", "a run of {count} cards below {rank}")
BEAT_ORDER = {"revolution": N_("(revolution)"),
              "back": N_("(11-back)"),
              "back_usual": N_("(11-back: the usual order again)")}
RANK_KEY_TIP = N_("Tip: {key} selects your {rank} cards (again: one fewer) · Enter plays them")

# A lock on the pile (``suit_lock``) on the pile line, by its kind (``lock_kind``).
LOCK_LABELS: dict[str, str] = {
    "suits": N_("locked {suits}"),
    "step": N_("locked: one rank up"),
    "both": N_("locked {suits}, one rank up"),
}


def lock_kind(suits: str, step: bool) -> str:
    """``suits``, ``step`` or ``both``: what a lock binds (its suits in the notation)."""
    return "both" if suits and step else "suits" if suits else "step"

EVENT_PLURALS: dict[str, tuple[str, str]] = {
    "give": NN_("7-pass: {giver} gives {count} card to {receiver}.",
                "7-pass: {giver} gives {count} cards to {receiver}."),
    "tax": NN_("{giver} gives {count} card to {receiver}.",
               "{giver} gives {count} cards to {receiver}."),
    "session_end": NN_("The session is over. The winner: {names}.",
                       "The session is over. The winners: {names}."),
    "session_end_early": NN_("The session was ended early. The winner: {names}.",
                             "The session was ended early. The winners: {names}."),
    "away_moves": NN_("the bot played {count} time for you",
                      "the bot played {count} times for you"),
    "away_tricks": NN_("won {count} trick", "won {count} tricks"),
}

# Counted things ({count}): cards, points, and the numeric values of house rules.
COUNTS: dict[str, tuple[str, str]] = {
    "cards": NN_("{count} card", "{count} cards"),
    "points": NN_("{count} point", "{count} points"),
    "hands": NN_("{count} hand", "{count} hands"),
    "minutes": NN_("{count} minute", "{count} minutes"),
    "decks": NN_("{count} deck", "{count} decks"),
    "jokers": NN_("{count} joker per deck", "{count} jokers per deck"),
    "sequences": NN_("runs of {count} card or more", "runs of {count} cards or more"),
    "players": NN_("{count} player", "{count} players"),
}

# Refusals whose text depends on their parameters.
REASON_LIMITS: dict[str, tuple[str, str]] = {   # params: max
    "name_invalid": NN_("A name may have at most {max} character.",
                        "A name may have at most {max} characters."),
    "chat_too_long": NN_("A chat line may have at most {max} character.",
                         "A chat line may have at most {max} characters."),
}
# The terminal's own (the page never knocks at a port): nothing answered as a table.
NOT_A_TABLE = N_("Nothing at {address} answers as a President table.")
NAME_CHARACTERS = N_("A name may not contain invisible or control characters.")
REFUSED_UNKNOWN = N_("Refused ({code}).")
CARD_NAME = N_("{rank} of {suit}")
DECLARED_JOKER = N_("{joker} as {card}")  # a wild joker and the card it stands for
RULE_ON_OFF = (NP_("rule value", "on"), NP_("rule value", "off"))
NOT_USED = N_("not used")
SESSION_LENGTH_UNITS = {"hands": "hands", "target": "points", "minutes": "minutes"}
RULE_COUNTS = {"decks": "decks", "jokers": "jokers", "sequences": "sequences",
               "min_players": "players", "max_players": "players"}

# A hand history that cannot be read or replayed (HistoryError): what is wrong with a line.
_HISTORY_PROBLEMS: dict[str, str] = {
    "bad_encoding": N_("the text is not UTF-8"),
    "bad_json": N_("the line is not valid JSON"),
    "no_type": N_("the line has no type"),
    "unknown_type": N_("the line has an unknown type"),
    "missing_session": N_("the history does not start with a session line"),
    "bad_session": N_("the session line has a bad “{field}”"),
    "unsupported_version": N_("the history is in a format this version cannot read"),
    "bad_rules": N_("the house rules are not valid"),
    "mismatch": N_("the line does not match what the replay gives"),
    "empty": N_("the history is empty"),
    "incomplete": N_("the history stops before the session is over"),
    "after_session_end": N_("the line comes after the end of the session"),
    "unexpected_line": N_("the line does not belong here"),
    "bad_action": N_("the action cannot be read"),
    "illegal": N_("the rules refuse this action"),
}

_RULES_ERRORS: dict[str, str] = {
    "bad_value": N_("{field}: “{value}” is not allowed. Allowed: {allowed}."),
    "unknown_field": N_("“{field}” is not a house rule. House rules: {allowed}."),
    "bad_toml": N_("The rules file is not valid TOML: {detail}"),
    "unreadable_file": N_("Cannot read the rules file {path}: {detail}"),
    "bad_card": N_("“{card}” is not a card."),
}


class RuleRow(NamedTuple):
    """One house rule of a table as every screen lists it."""

    field: str
    name: str
    value: str
    explanation: str
    in_force: bool  # False: off (or the joker strength without jokers)


def rule_in_force(rules: HouseRules, field: str) -> bool:
    """Whether a house rule changes the game at this table (off, 0 and no jokers do not)."""
    raw = getattr(rules, field)
    return not (raw is False or raw == "off" or (type(raw) is int and raw == 0)
                or (field == "joker_mode" and not rules.jokers))


# Quick reactions (a chat line of one tap or key): sent as their code, "/r1" to "/r4", and
# shown in each reader's own language.
REACTIONS = (N_("Well played!"), N_("Ouch!"), N_("Your turn…"), N_("Good game!"))


def reaction_code(number: int) -> str:
    """The chat text of quick reaction ``number`` (1-based)."""
    return f"/r{number}"


# Why a seat of a hand's summary stands at the bottom though it may have gone out first.
SENT_DOWN = {"forbidden": N_("(forbidden finish)"), "downfall": N_("(downfall)")}


def play_kind(cards: Sequence[Card]) -> str:
    """single, pair, triple, quad, many (a set of 5 or more) or run."""
    if len({card.rank for card in cards}) > 1:
        return "run"
    return {1: "single", 2: "pair", 3: "triple", 4: "quad"}.get(len(cards), "many")


class Text:
    """Renders codes into one language. Methods never raise on unknown codes."""

    def __init__(self, translator: Translator | str | None) -> None:
        if not isinstance(translator, Translator):
            translator = get_translator(translator)
        self.tr = translator

    # ------------------------------------------------------------ small pieces

    def _p(self, pair: tuple[str, str]) -> str:
        return self.tr.pgettext(*pair)

    def number(self, value: float) -> str:
        return self.tr.format_number(value)

    def join(self, items: Sequence[str]) -> str:
        return self.tr.format_list(items)

    def role_title_explained(self, role: str, title_set: str) -> str:
        """A role's title with its meaning where the title is Japanese ("Daifugō — the
        grand millionaire"); other titles as ``role_title``."""
        titles = ROLE_TITLES.get(title_set, ROLE_TITLES["classic"])
        pair = titles.get(Role(role)) if role in Role._value2member_map_ else None
        title = self.role_title(role, title_set)
        meaning = TITLE_MEANINGS.get(pair[1]) if pair is not None else None
        if meaning is None:
            return title
        return self.tr.gettext(TITLE_WITH_MEANING).format(title=title,
                                                          meaning=self.tr.gettext(meaning))

    def role_title(self, role: str, title_set: str) -> str:
        """The title of ``role`` (a Role value) in ``title_set`` (nominative)."""
        titles = ROLE_TITLES.get(title_set, ROLE_TITLES["classic"])
        pair = titles.get(role)
        return self._p(pair) if pair else role

    def preset_name(self, preset: str) -> str:
        pair = PRESET_NAMES.get(preset)
        return self._p(pair) if pair else preset

    def bot_level(self, kind: str) -> str:
        pair = BOT_LEVELS.get(kind)
        return self._p(pair) if pair else kind

    def phase(self, phase: str) -> str:
        pair = PHASES.get(phase)
        return self._p(pair) if pair else phase

    def status(self, status: str) -> str:
        """A connection's state (``CONNECTION_STATUS``): connected, reconnecting, ..."""
        message = CONNECTION_STATUS.get(status)
        return self.tr.gettext(message) if message else status

    def action(self, kind: str) -> str:
        """A button or key label: play, pass, give_back, ready, decree, lowest, ..."""
        pair = ACTIONS.get(kind)
        return self._p(pair) if pair else kind

    def combination(self, kind: str) -> str:
        """single, pair, triple, quad, run, bomb."""
        pair = COMBINATIONS.get(kind)
        return self._p(pair) if pair else kind

    def rank(self, rank: Rank | str) -> str:
        """The corner letter of a rank: ``K`` -> ``H`` (nl), ``K`` (it, pl)."""
        if isinstance(rank, str):
            symbol = rank
            if symbol in ("JK", "X"):
                rank = Rank.JOKER
            else:
                try:
                    rank = Card.parse(symbol + "C").rank
                except NotationError:
                    return symbol
        pair = RANK_LETTERS.get(rank)
        return self._p(pair) if pair else rank.symbol

    def rank_name(self, rank: Rank) -> str:
        return self._p(RANK_NAMES[rank])

    def suit_name(self, suit: Suit) -> str:
        return self._p(SUIT_NAMES[suit])

    def suits(self, symbols: str) -> str:
        """Suits in the notation (``"HS"``) as their symbols, each once: ``♥♠`` (a run of
        hearts, ``"HHH"``, is ``♥``)."""
        by_symbol = {suit.symbol: suit for suit in Suit}
        return "".join(SUIT_SYMBOLS[by_symbol[symbol]] for symbol in dict.fromkeys(symbols))

    def lock(self, lock: Lock) -> str:
        """The pile line's word for a lock: ``locked ♥♠``."""
        suits = "".join(suit.symbol for suit in lock.suits)
        return self.tr.gettext(LOCK_LABELS[lock_kind(suits, lock.step)]).format(
            suits=self.suits(suits))

    def card(self, card: Card | str) -> str:
        """Short form with the suit symbol: ``Q♥`` -> ``V♥`` (nl), ``Q♥`` (it, pl)."""
        if isinstance(card, str):
            card = Card.parse(card)
        if card.suit is None:
            return self.rank(Rank.JOKER)
        return self.rank(card.rank) + SUIT_SYMBOLS[card.suit]

    def card_name(self, card: Card | str) -> str:
        """Long form, readable without colour or symbols: "queen of hearts"."""
        if isinstance(card, str):
            card = Card.parse(card)
        if card.suit is None:
            return self.rank_name(Rank.JOKER)
        return self.tr.gettext(CARD_NAME).format(
            rank=self.rank_name(card.rank), suit=self.suit_name(card.suit))

    def cards(self, cards: str | Sequence[Card]) -> str:
        """A card list in the text notation (or as cards), in short form, for a
        sentence (a joker as ``JOKER_IN_TEXT``)."""
        try:
            parsed = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        except NotationError:
            return str(cards)
        return " ".join(self._p(JOKER_IN_TEXT) if card.suit is None else self.card(card)
                        for card in parsed)

    def played(self, cards: str | Sequence[Card], declared: str | Sequence[Card] = ()) -> str:
        """The cards of a play for a sentence (``cards``), each joker with the card it
        stands for (``declared``, wild jokers): "5♠ 5♥ Joker as 5♦"."""
        try:
            parsed = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
            named = parse_cards(declared) if isinstance(declared, str) else tuple(declared)
        except NotationError:
            return str(cards)
        if not named:
            return self.cards(parsed)
        kept = [card for card in parsed if card.suit is not None]
        jokers = [self.tr.gettext(DECLARED_JOKER).format(
            joker=self._p(JOKER_IN_TEXT), card=self.card(card)) for card in named]
        return " ".join([self.card(card) for card in kept] + jokers)

    def count(self, what: str, value: int) -> str:
        """``COUNTS[what]`` for ``value``: ``count("cards", 3)`` -> ``3 karty`` (pl)."""
        singular, plural = COUNTS[what]
        return self.tr.ngettext(singular, plural, abs(value)).format(count=self.number(value))

    # ------------------------------------------------------------ events

    def event(self, event: Event, players: Sequence[str], seat: int | None = None,
              by: str = "") -> str:
        """One log line for an event (projected for ``seat``).

        ``players``: names by seat; ``seat``: the reader's own seat (None: spectator);
        ``by``: who acted when not the seat's player (protocol ``EVENT_BY``).
        """
        code = event.code
        render = getattr(self, f"_event_{code}", None)
        if render is None:
            return self.tr.gettext(EVENT_TEXTS["unknown"]).format(code=code)
        try:
            line = str(render(event.params, _Names(players), seat))
        except (KeyError, TypeError, ValueError, PresidentError):
            return self.tr.gettext(EVENT_TEXTS["unknown"]).format(code=code)
        if by == "timeout":
            return self.tr.gettext("Time's up: {event}").format(event=line)
        if by == "standin":
            who = event.params.get("seat", event.params.get("from"))  # (a tax: its giver)
            if seat is not None and who == seat:
                return self.tr.gettext("A bot plays for you: {event}").format(event=line)
            return self.tr.gettext("A bot plays for {name}: {event}").format(
                name=_Names(players)[who], event=line)
        return line

    def _own(self, seat: int | None, who: Any, line: str, names: _Names, **params: Any) -> str:
        mine, other = EVENT_LINES[line]
        if seat is not None and who == seat:
            return self.tr.gettext(mine).format(**params)
        return self.tr.gettext(other).format(name=names[who], **params)

    def _event_deal(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        hand = self.number(p["hand"])
        return self._own(seat, p["dealer"], "deal", names, hand=hand)

    def _event_tax(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        giver, receiver = p["from"], p["to"]
        if "cards" in p and seat == giver:
            return self.tr.gettext(EVENT_TEXTS["tax_given"]).format(
                cards=self.cards(p["cards"]), name=names[receiver])
        if "cards" in p and seat == receiver:
            return self.tr.gettext(EVENT_TEXTS["tax_received"]).format(
                cards=self.cards(p["cards"]), name=names[giver])
        count = p["count"] if "count" in p else len(str(p["cards"]).split())
        return self.tr.ngettext(*EVENT_PLURALS["tax"], count).format(
            giver=names[giver], receiver=names[receiver], count=self.number(count))

    def _event_give(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        giver, receiver = p["from"], p["to"]
        if "cards" in p and seat in (giver, receiver):
            key, other = ("give_given", receiver) if seat == giver else ("give_received", giver)
            return self.tr.gettext(EVENT_TEXTS[key]).format(
                cards=self.cards(p["cards"]), name=names[other])
        count = p["count"] if "count" in p else len(str(p["cards"]).split())
        return self.tr.ngettext(*EVENT_PLURALS["give"], count).format(
            giver=names[giver], receiver=names[receiver], count=self.number(count))

    def _event_discard(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self._own(seat, p["seat"], "discard", names, cards=self.cards(p["cards"]))

    def _event_play(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        declared = parse_cards(p.get("declared", ""))
        cards = parse_cards(p["cards"])
        kind = play_kind(stands_for(cards, declared))
        shown = self.played(cards, declared)
        mine = seat is not None and p["seat"] == seat
        if kind == "many":
            singular, plural = PLAY_MANY[1 if mine else 0]
            return self.tr.ngettext(singular, plural, len(cards)).format(
                name=names[p["seat"]], count=self.number(len(cards)), cards=shown)
        other, own = PLAY_LINES[kind]
        message = own if mine else other
        return self.tr.gettext(message).format(name=names[p["seat"]], cards=shown)

    def _event_pass(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self._own(seat, p["seat"], "pass", names)

    def _event_skip(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self._own(seat, p["seat"], "skip", names)

    def _event_revolution(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self.tr.gettext(EVENT_TEXTS["revolution" if p["reversed"]
                                           else "counter_revolution"])

    def _event_cut(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self.tr.gettext(EVENT_TEXTS["cut"])

    def _event_return(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self.tr.gettext(EVENT_TEXTS["return"])

    def _event_back(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self.tr.gettext(EVENT_TEXTS["back" if p["on"] else "back_off"])

    def _event_lock(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        kind = lock_kind(p["suits"], p["step"])
        return self.tr.gettext(EVENT_TEXTS[f"lock_{kind}"]).format(suits=self.suits(p["suits"]))

    def _event_reverse(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self.tr.gettext(EVENT_TEXTS["reverse"])

    def _event_forbidden(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        why = f"forbidden_{p.get('why')}"
        line = self._own(seat, p["seat"], why if why in EVENT_LINES else "forbidden", names,
                         place=self.number(p["place"]), rank=self.rank(str(p.get("rank", ""))))
        return self._then_leads(line, p, names, seat)

    def _then_leads(self, line: str, p: Mapping[str, Any], names: _Names,
                    seat: int | None) -> str:
        """``line`` and, when the seat went out by a 7-pass or 10-discard after the pile
        was cleared for it, who leads instead (``leader``)."""
        if "leader" not in p:
            return line
        return line + " " + self._own(seat, p["leader"], "lead", names)

    def _event_downfall(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self._own(seat, p["seat"], "downfall", names, place=self.number(p["place"]))

    def _event_clear(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self._own(seat, p["leader"], "clear", names)

    def _event_out(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        place = self.number(p["place"])
        if p.get("holding") or p["place"] == len(names.players):  # still holding cards
            return self._own(seat, p["seat"], "out_last", names, place=place)
        return self._then_leads(self._own(seat, p["seat"], "out", names, place=place),
                                p, names, seat)

    def _event_hand_end(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        order = [names[s] for s in p.get("order", [])]
        return self.tr.gettext(EVENT_TEXTS["hand_end"]).format(
            hand=self.number(p["hand"]), order=self.join(order))

    def _event_session_end(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        winners = [names[s] for s in p.get("winners", [])]
        key = "session_end_early" if p.get("early") else "session_end"
        return self.tr.ngettext(*EVENT_PLURALS[key], len(winners)).format(
            names=self.join(winners))

    def _event_decree(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self._own(seat, p["seat"], "decree", names, text=p["text"])

    def _event_ready(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self._own(seat, p["seat"], "ready", names)

    def _event_lead(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return self._own(seat, p["seat"], "lead", names)

    def _event_away(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        """The host's word to a returning player (not an engine event): what the
        stand-in did meanwhile, and the role now."""
        tr = self.tr
        moves, tricks = int(p["moves"]), int(p["tricks"])
        parts = [tr.ngettext(*EVENT_PLURALS["away_moves"], moves).format(
            count=self.number(moves))]
        if tricks:
            parts.append(tr.ngettext(*EVENT_PLURALS["away_tricks"], tricks).format(
                count=self.number(tricks)))
        if p.get("role"):
            parts.append(tr.gettext(EVENT_TEXTS["away_role"]).format(
                role=self.role_title(str(p["role"]), str(p.get("title_set") or "classic"))))
        return str(tr.gettext(EVENT_TEXTS["away"]).format(what=", ".join(parts)))

    def duplicate_pairs(self, p: Mapping[str, Any]) -> list[str]:
        """Each seat of a duplicate session: who held its cards before and now, scores."""
        return [str(self.tr.gettext(EVENT_TEXTS["duplicate_pair"]).format(
                    before=before, before_score=self.number(int(before_score)),
                    now=now, now_score=self.number(int(now_score))))
                for before, before_score, now, now_score in zip(
                    p["before"], p["before_scores"], p["players"], p["scores"], strict=True)]

    def _event_duplicate(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        return str(self.tr.gettext(EVENT_TEXTS["duplicate"]).format(
            pairs=" · ".join(self.duplicate_pairs(p))))

    def _event_late(self, p: Mapping[str, Any], names: _Names, seat: int | None) -> str:
        """The host's word to a newcomer who took a bot's seat."""
        return str(self.tr.gettext(EVENT_TEXTS["late"]).format(name=p["was"]))

    # ------------------------------------------------------------ following

    def to_beat(self, top: Combo, rules: HouseRules, reversed_: bool, back: bool,
                lock: Lock | None, can_pass: bool, order_note: bool = True) -> str:
        """One line saying what beats the pile ``top`` under the rules in force (and which
        rule turned the order, unless ``order_note`` is False: a narrow screen's title
        says it already)."""
        equal = rules.equal_rank != "off" and top.kind == "set"
        rank = self.rank(top.rank)
        runs, sets, many = ((BEAT_RUN_BELOW, BEAT_SETS_BELOW, BEAT_MANY_BELOW) if reversed_
                            else (BEAT_RUN, BEAT_SETS, BEAT_MANY))
        if top.kind == "run":
            what = self.tr.ngettext(*runs, top.size).format(
                count=self.number(top.size), rank=rank)
        elif top.size in sets:
            what = self.tr.gettext(sets[top.size][equal]).format(rank=rank)
        else:
            what = self.tr.ngettext(*many[equal], top.size).format(
                count=self.number(top.size), rank=rank)
        if order_note and back:
            what += " " + self.tr.gettext(BEAT_ORDER["back" if reversed_ else "back_usual"])
        elif order_note and reversed_:
            what += " " + self.tr.gettext(BEAT_ORDER["revolution"])
        if lock is not None:
            what += " · " + self.lock(lock)
        return self.tr.gettext(TO_BEAT_OR_PASS if can_pass else TO_BEAT).format(what=what)

    # ------------------------------------------------------------ hints

    def hint_key(self) -> str:
        """The key that asks for a hint in this language (``h``; Dutch ``w``: H is the king)."""
        return self._p(HINT_KEY).lower()

    def hint(self, move: str, cards: str | Sequence[Card], reason: str,
             params: Mapping[str, Any] | None = None) -> str:
        """A hint's line: ``move`` a key of ``HINT_MOVES`` (its ``cards``), ``reason`` and
        ``params`` the medium bot's (``Suggestion``)."""
        keep = (params or {}).get("keep")
        plain, kept = HINT_REASONS.get(reason, HINT_REASONS["split"])
        why = self.tr.gettext(kept).format(keep=self.cards(keep)) if keep \
            else self.tr.gettext(plain)
        shown = self.tr.gettext(HINT_MOVES.get(move, HINT_MOVES["play"])).format(
            cards=self.cards(cards))
        return self.tr.gettext(HINT_LINE).format(move=shown, why=why)

    # ------------------------------------------------------------ refusals and errors

    def reason(self, code: str, params: Mapping[str, Any] | None = None) -> str:
        """A refusal (engine reason, host refusal, protocol fault, client failure)."""
        params = params or {}
        limit = params.get("max")
        if type(limit) is int and code in REASON_LIMITS:
            message = self.tr.ngettext(*REASON_LIMITS[code], limit)
            return message.format(max=self.number(limit))
        if code == "name_invalid" and params.get("reason") == "characters":
            return self.tr.gettext(NAME_CHARACTERS)
        if code == "not_a_table":
            return self.tr.gettext(NOT_A_TABLE).format(address=params.get("address", "?"))
        known = REASONS.get(code)
        if known is None:
            return self.tr.gettext(REFUSED_UNKNOWN).format(code=code)
        return self.tr.gettext(known)

    def error(self, error: PresidentError) -> str:
        """Any of the project's errors: rules errors in full, the rest by reason."""
        if isinstance(error, (RulesError, NotationError)):
            return self.rules_error(error)
        if isinstance(error, HistoryError):
            return self.history_error(error)
        sentence = self.reason(error.code, error.params)
        if isinstance(error, JournalError):  # which file, which session: for the host
            where = error.params.get("path", error.params.get("id"))
            detail = error.params.get("detail")
            extra = ", ".join(str(x) for x in (where, detail) if x is not None)
            return f"{sentence} ({extra})" if extra else sentence
        return sentence

    def history_error(self, error: PresidentError) -> str:
        """A ``HistoryError``: ``Line 3: the line is not valid JSON.``"""
        if error.code == "unreadable_file":
            return self.tr.gettext("Cannot read the file {path}: {detail}").format(
                path=error.params.get("path", ""), detail=error.params.get("detail", ""))
        message = _HISTORY_PROBLEMS.get(error.code)
        if message is None:
            return self.reason(error.code, error.params)
        problem = self.tr.gettext(message).format(field=error.params.get("field", ""))
        line = error.params.get("line")
        if type(line) is not int:
            return problem
        return self.tr.gettext("Line {line}: {problem}.").format(
            line=self.number(line), problem=problem)

    def rules_error(self, error: PresidentError) -> str:
        """A ``RulesError`` (or ``NotationError``) as a sentence."""
        message = _RULES_ERRORS.get(error.code)
        if message is None:
            return self.reason(error.code, error.params)
        params = dict(error.params)
        field = str(params.get("field", ""))
        # A rules file's writer needs the words it is written in: each rule and value
        # by its name in the file, then by its name in the player's language.
        if "field" in params:
            params["field"] = (f"{self.rule_name(field)} ({field})" if field in RULE_NAMES
                               else field)
        if "value" in params:
            params["value"] = str(params["value"])
        if "allowed" in params:
            params["allowed"] = self.join([
                self._value_with_name(field, value) for value in params["allowed"]])
        params.setdefault("detail", "")
        params.setdefault("path", "")
        params.setdefault("card", "")
        return self.tr.gettext(message).format(**params)

    def _value_with_name(self, field: str, value: Any) -> str:
        shown = self.rule_value(field, value) if field in RULE_NAMES else str(value)
        return str(value) if shown == str(value) else f"{value} = {shown}"

    def chat_text(self, text: str) -> str:
        """A chat line's text: a quick reaction's code in the reader's words, else as it is."""
        for number, message in enumerate(REACTIONS, 1):
            if text == reaction_code(number):
                return self.tr.gettext(message)
        return text

    # ------------------------------------------------------------ seats

    def seat_state(self, view: View, s: int, seconds_left: int | None = None) -> str:
        """What seat ``s`` is doing, in a word or two: its place once out, to play (with
        the timer's seconds), passed, its last play on the pile, choosing, ready."""
        tr = self.tr
        place = place_in(view.finished, view.bottom, len(view.players), s)
        if place is not None and view.counts[s] > 0:    # never went out: still holding cards
            return tr.gettext("holding cards (#{place})").format(place=place)
        if place is not None and s not in view.finished:   # a forbidden finish, a downfall
            return tr.gettext("last place (#{place})").format(place=place)
        if place is not None:
            return tr.gettext("out #{place}").format(place=place)
        if view.phase == "play":
            if view.choosing is not None and view.choosing.seat == s:
                return tr.gettext("choosing to give") if view.choosing.to is not None \
                    else tr.gettext("choosing to discard")
            if view.turn == s:
                if seconds_left is not None:
                    return tr.gettext("to play ({seconds}s)").format(seconds=seconds_left)
                return tr.gettext("to play")
            if s in view.passed:
                return tr.gettext("passed")
            plays = [(cards, declared) for seat, cards, declared in view.pile if seat == s]
            if plays:                   # the seat's last play on this pile, by its name
                cards, declared = plays[-1]   # (a wild joker as "JK→5♥")
                joker = self.card(JOKER)
                return " ".join([self.card(card) for card in cards
                                 if card.suit is not None or not declared]
                                + [f"{joker}→{self.card(card)}" for card in declared])
        if view.phase == "tax" and s in view.tax_pending:
            return tr.gettext("choosing tax cards")
        if view.phase == "hand_over" and s in view.ready:
            return tr.gettext("ready")
        return ""

    # ------------------------------------------------------------ summaries

    def standings(self, players: Sequence[str], scores: Sequence[int], winners: Sequence[int],
                  standin_hands: Sequence[int] = ()) -> list[tuple[int, str]]:
        """The session's standings, best first, as (seat, line): equal scores share a
        place and say so, a winner has a star, a seat a stand-in bot played says how long."""
        tr = self.tr
        rows = []
        for s in sorted(range(len(players)), key=lambda s: -scores[s]):
            place = 1 + sum(1 for other in scores if other > scores[s])
            tied = " " + tr.gettext("(tied)") if list(scores).count(scores[s]) > 1 else ""
            star = " ★" if s in winners else ""
            hands = standin_hands[s] if s < len(standin_hands) else 0
            note = " " + tr.ngettext("(a bot played {n} hand)", "(a bot played {n} hands)",
                                     hands).format(n=hands) if hands else ""
            line = tr.gettext("{place}. {name}: {score} points").format(
                place=place, name=players[s], score=scores[s])
            rows.append((s, line + tied + star + note))
        return rows

    def hand_result(self, players: Sequence[str], order: Sequence[int],
                    roles: Sequence[str | None], scores: Sequence[int], rules: HouseRules,
                    sent_down: Mapping[int, str] | None = None) -> list[tuple[int, str]]:
        """A finished hand in its finishing order, as (seat, line): title and score, and
        why a seat was sent to the bottom (``SENT_DOWN``)."""
        rows = []
        for place, s in enumerate(order, 1):
            role = roles[s] if s < len(roles) else None
            title = self.role_title(role, rules.title_set) if role else ""
            line = self.tr.gettext("{place}. {name}: {title}, score {score}").format(
                place=place, name=players[s], title=title, score=scores[s])
            why = (sent_down or {}).get(s)
            rows.append((s, line + (" " + self.tr.gettext(SENT_DOWN[why])
                                    if why in SENT_DOWN else "")))
        return rows

    def next_tax(self, players: Sequence[str], order: Sequence[int],
                 rules: HouseRules) -> list[str]:
        """The tax the next hand starts with, after a hand finished in ``order``."""
        return [self.tr.ngettext(
            "Next hand: {giver} gives their best card to {receiver}.",
            "Next hand: {giver} gives their {n} best cards to {receiver}.", amount,
        ).format(giver=players[giver], receiver=players[receiver], n=amount)
            for giver, receiver, amount in rules.tax_transfers(order)]

    # ------------------------------------------------------------ house rules

    def rule_name(self, field: str) -> str:
        message = RULE_NAMES.get(field)
        return self.tr.gettext(message) if message else field

    def rule_explanation(self, field: str) -> str:
        message = RULE_EXPLANATIONS.get(field)
        return self.tr.gettext(message) if message else ""

    def session_length(self, session_end: str, value: int) -> str:
        """``session_length`` in the unit ``session_end`` gives it: hands, points, minutes."""
        unit = SESSION_LENGTH_UNITS.get(session_end)
        return self.count(unit, value) if unit else self.tr.gettext(NOT_USED)

    def rule_rows(self, rules: HouseRules) -> list[RuleRow]:
        """Every house rule of ``rules``, in ``ALLOWED``'s order, as words."""
        return [RuleRow(field, self.rule_name(field), self.rule_value_of(rules, field),
                        self.rule_explanation(field), rule_in_force(rules, field))
                for field in ALLOWED]

    def rule_value_of(self, rules: HouseRules, field: str) -> str:
        """The value of ``field`` at a table (the session's length in its unit)."""
        if field == "session_length":
            return self.session_length(rules.session_end, rules.session_length)
        return self.rule_value(field, getattr(rules, field))

    def rule_value(self, field: str, value: Any) -> str:
        """A value of a house rule as the set-up screen shows it."""
        pair = RULE_VALUES.get(rule_value_key(field, value))
        if pair is not None:
            return self._p(pair)
        counted = RULE_COUNTS.get(field)
        if counted is not None and type(value) is int:
            return self.count(counted, value)
        if field == "session_length" and type(value) is int:
            return self.number(value)
        if isinstance(value, bool):
            return self._p(RULE_ON_OFF[0] if value else RULE_ON_OFF[1])
        if type(value) is int:
            return self.number(value)
        return str(value)


class _Names:
    """Seat -> player name, ``?`` for a seat the reader does not know."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = players

    def __getitem__(self, seat: Any) -> str:
        if type(seat) is int and 0 <= seat < len(self.players) and self.players[seat]:
            return str(self.players[seat])
        return "?"


def text_for(language: str | None) -> Text:
    """The renderer of ``language`` (unknown or None: English)."""
    return Text(get_translator(language))
