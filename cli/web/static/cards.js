// The hand as the player sees it: lowest first under the table's rank order (a
// revolution flips it; jokers stay on top), as the terminal's TableModel.hand_cards.

import { parseCards } from "./text.js";

const SUITED = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"];
const SUIT_ORDER = { C: 0, D: 1, H: 2, S: 3 };

// rank symbol -> position in the current order (president/combos.py ``strengths``)
export function strengths(rankOrder, reversed) {
  let order = rankOrder === "ace_high" ? ["2", ...SUITED.filter((r) => r !== "2")] : [...SUITED];
  if (reversed) order = order.reverse();
  const table = Object.fromEntries(order.map((rank, i) => [rank, i]));
  table.JK = 100;
  return table;
}

export function sortedHand(handText, rules, reversed) {
  const strength = strengths(rules?.rank_order, reversed);
  return parseCards(handText).sort((a, b) =>
    strength[a.rank] - strength[b.rank]
    || (a.suit === null ? -1 : SUIT_ORDER[a.suit]) - (b.suit === null ? -1 : SUIT_ORDER[b.suit]));
}

// The cards' notation, in a canonical order, for comparing selections with legal plays.
export function cardsKey(cards) {
  return cards.map((c) => c.token).sort().join(" ");
}
