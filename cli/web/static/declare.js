// What a wild joker among the selected cards may stand for (joker_mode = "wild"), as the
// terminal's TableModel.declarations: the values of the legal declared plays made of the
// selection's ranks (of its very cards where suits matter: a set under a suit lock, a
// same-suit run), the most useful first (the play that ranks highest). A joker stands
// for a card its player does not hold: the engine lists no other.

import { strengths } from "./cards.js";
import { parseCards } from "./text.js";

// Whether the cards hold a joker that stands for another card (jokers with other cards).
export function wildSelection(cards, rules) {
  const jokers = cards.filter((c) => c.suit === null).length;
  return rules?.joker_mode === "wild" && jokers > 0 && jokers < cards.length;
}

const ranksKey = (cards) => cards.map((c) => c.rank).sort().join(" ");
const tokensKey = (cards) => cards.map((c) => c.token).sort().join(" ");

// [declared notation, ...] for the selected ``cards`` (parsed), most useful first.
export function declarations(view, rules, cards) {
  const strength = strengths(rules.rank_order, view.reversed);
  const natural = cards.filter((c) => c.suit !== null);
  const locks = rules.suit_lock && rules.suit_lock !== "off";
  const found = new Map();
  for (const action of view.legal || []) {
    if (action.type !== "play" || !action.declared) continue;
    const listed = parseCards(action.cards);
    const named = parseCards(action.declared);
    if (ranksKey(listed) !== ranksKey(cards)) continue;
    const set = new Set([...listed.filter((c) => c.suit !== null), ...named].map((c) => c.rank))
      .size === 1;
    const exact = set ? locks : rules.runs_same_suit;
    if (exact && tokensKey(listed) !== tokensKey(cards)) continue;
    // Where suits do not matter the listed suits are those the hand lacks, whichever
    // cards are selected (president/moves.py canonical_declaration).
    const declared = action.declared;
    if (found.has(declared)) continue;
    found.set(declared, Math.max(...[...natural, ...parseCards(declared)]
      .map((c) => strength[c.rank])));
  }
  return [...found.keys()].sort((a, b) => found.get(b) - found.get(a));
}
