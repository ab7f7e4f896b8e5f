// Codes made into words, as cli/text.py's Text does for the terminal, with the same
// messages (the tables of cli/text.py, translated by the host: see i18n.js). The host
// never sends sentences: events, refusals and roles arrive as codes and parameters.

export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const LETTERED = new Set(["J", "Q", "K", "A", "JK"]);

// "10H" -> {rank: "10", suit: "H"}; "JK" -> {rank: "JK", suit: null}
export function parseCard(token) {
  if (token === "JK") return { rank: "JK", suit: null, token };
  return { rank: token.slice(0, -1), suit: token.slice(-1), token };
}

export function parseCards(text) {
  return (text || "").split(/\s+/).filter(Boolean).map(parseCard);
}

// What a lock binds (suit_lock): "suits", "step" or "both".
function lockKind(suits, step) {
  return suits && step ? "both" : suits ? "suits" : "step";
}

export class Text {
  constructor(texts) { this.x = texts; }

  // ------------------------------------------------------------ cards

  rank(symbol) {
    return LETTERED.has(symbol) ? this.x.t(`rank_letter.${symbol}`) : symbol;
  }

  card(card) {
    return card.suit === null ? this.rank("JK") : this.rank(card.rank) + SUIT_SYMBOLS[card.suit];
  }

  // Readable without colour or symbols: "queen of hearts".
  cardName(card) {
    if (card.suit === null) return this.x.t("rank_name.JK");
    return this.x.t("card_name", { rank: this.x.t(`rank_name.${card.rank}`),
      suit: this.x.t(`suit_name.${card.suit}`) });
  }

  // A card list in a sentence (a joker as the catalog names it in running text).
  cards(text) {
    return parseCards(text).map((c) => (c.suit === null ? this.x.t("joker_in_text") : this.card(c)))
      .join(" ");
  }

  // Suits in the notation ("HS") as their symbols, each once (a run of hearts, "HHH": ♥).
  suits(symbols) { return [...new Set(symbols)].map((s) => SUIT_SYMBOLS[s]).join(""); }

  // The pile line's word for a lock (the view's ["HS", step]): "locked ♥♠".
  lock([suits, step]) {
    return this.x.t(`lock.${lockKind(suits, step)}`, { suits: this.suits(suits) });
  }

  // What beats the pile while following (the view's top [kind, size, rank, suit]): as
  // cli/text.py's Text.to_beat (issue 28).
  toBeat([kind, size, rank], equalRank, reversed, back, lock, canPass) {
    const x = this.x;
    const equal = equalRank !== "off" && kind === "set" ? 1 : 0;
    const shown = this.rank(rank);
    const way = reversed ? "below" : "above";   // the lower ranks beat under a reversal
    let what;
    if (kind === "run") what = x.tn(`beat.${way}.run`, size, { count: x.number(size), rank: shown });
    else if (size <= 4) what = x.t(`beat.${way}.set.${size}.${equal}`, { rank: shown });
    else what = x.tn(`beat.${way}.many.${equal}`, size, { count: x.number(size), rank: shown });
    if (back) what += ` ${x.t(reversed ? "beat.order.back" : "beat.order.back_usual")}`;
    else if (reversed) what += ` ${x.t("beat.order.revolution")}`;
    if (lock) what += ` · ${this.lock(lock)}`;
    return x.t(canPass ? "beat.line_pass" : "beat.line", { what });
  }

  // A hint's line from the host's idea ({action, reason, params}): as Text.hint.
  hint(idea) {
    const move = { play: "play", pass: "pass", give: "give", discard: "discard",
      give_back: "give_back" }[idea.action.type] ?? "play";
    const keep = idea.params.keep;
    const why = keep ? this.x.t(`hint.reason_keep.${idea.reason}`, { keep: this.cards(keep) })
      : this.x.t(`hint.reason.${idea.reason}`);
    return this.x.t("hint.line", { move: this.x.t(`hint.move.${move}`,
      { cards: this.cards(idea.action.cards || "") }), why });
  }

  // A play's cards in a sentence, each wild joker with the card it stands for
  // ("5♠ 5♥ Joker as 5♦"): as cli/text.py's Text.played.
  played(text, declared) {
    const named = parseCards(declared);
    if (!named.length) return this.cards(text);
    const kept = parseCards(text).filter((c) => c.suit !== null).map((c) => this.card(c));
    const jokers = named.map((c) => this.x.t("declared_joker",
      { joker: this.x.t("joker_in_text"), card: this.card(c) }));
    return [...kept, ...jokers].join(" ");
  }

  count(what, n) { return this.x.tn(`count.${what}`, n, { count: this.x.number(n) }); }

  // ------------------------------------------------------------ words

  roleTitle(role, titleSet) {
    const key = `role.${titleSet}.${role}`;
    return this.x.has(key) ? this.x.t(key) : this.x.t(`role.classic.${role}`);
  }

  phase(phase) { return this.x.t(`phase.${phase}`); }
  action(kind) { return this.x.t(`action.${kind}`); }
  label(key, params) { return this.x.t(`label.${key}`, params); }

  // The status line's word for an order not the usual one (the terminal's
  // layout.order_banner): an 11-back's for its trick, else a revolution's; "" if none.
  orderBanner(view) {
    if (view?.back) return this.label(view.reversed ? "back_reversed" : "back_usual");
    return view?.reversed ? this.label("revolution") : "";
  }
  status(status) { return this.x.t(`status.${status}`); }

  // A chat line's text: a quick reaction's code ("/r2") in the reader's words (as
  // cli/text.py's Text.chat_text), else as it was typed.
  chatText(text) {
    const key = `reaction.${text}`;
    return /^\/r\d$/.test(text) && this.x.has(key) ? this.x.t(key) : text;
  }

  // A refusal: engine reason, host refusal, protocol fault or our own failure.
  reason(code, params = {}) {
    const limit = params.max;
    if (Number.isInteger(limit) && this.x.plurals[`reason_limit.${code}`]) {
      return this.x.tn(`reason_limit.${code}`, limit, { max: this.x.number(limit) });
    }
    if (code === "name_invalid" && params.reason === "characters") {
      return this.x.t("reason_name_characters");
    }
    const key = `reason.${code}`;
    return this.x.has(key) ? this.x.t(key) : this.x.t("reason_unknown", { code });
  }

  // ------------------------------------------------------------ events

  // One log line for an event (as this seat may see it; event.by: who acted when not
  // the seat's player, a timeout or a stand-in bot); players: names by seat.
  event(event, players, seat) {
    const line = this.eventLine(event, players, seat);
    if (line === null) return this.x.t("event_text.unknown", { code: event.type });
    if (event.by === "timeout") return this.label("by_timeout", { event: line });
    if (event.by !== "standin") return line;
    const actor = event.seat ?? event.from;  // (a tax: its giver)
    if (seat !== null && seat !== undefined && actor === seat) {
      return this.label("by_standin_you", { event: line });
    }
    const who = Number.isInteger(actor) && players[actor] ? players[actor] : "?";
    return this.label("by_standin", { name: who, event: line });
  }

  // The line itself (null: an event this page does not know).
  eventLine(event, players, seat) {
    const name = (s) => (Number.isInteger(s) && players[s] ? players[s] : "?");
    const own = (who, line, params = {}) => {
      const mine = seat !== null && seat !== undefined && who === seat;
      return this.x.t(`event.${line}.${mine ? "own" : "other"}`, { name: name(who), ...params });
    };
    // Out by a 7-pass or 10-discard after the pile was cleared for it: who leads instead.
    const thenLeads = (line) => (Number.isInteger(event.leader)
      ? `${line} ${own(event.leader, "lead")}` : line);
    const x = this.x;
    switch (event.type) {
      case "deal": return own(event.dealer, "deal", { hand: x.number(event.hand) });
      case "tax": {
        const { from, to } = event;
        if ("cards" in event && seat === from) {
          return x.t("event_text.tax_given", { cards: this.cards(event.cards), name: name(to) });
        }
        if ("cards" in event && seat === to) {
          return x.t("event_text.tax_received", { cards: this.cards(event.cards), name: name(from) });
        }
        const count = "count" in event ? event.count : parseCards(event.cards).length;
        return x.tn("event_plural.tax", count, { giver: name(from), receiver: name(to),
          count: x.number(count) });
      }
      case "give": {  // a 7-pass: the cards for its two players, how many for the others
        const { from, to } = event;
        if ("cards" in event && (seat === from || seat === to)) {
          return seat === from
            ? x.t("event_text.give_given", { cards: this.cards(event.cards), name: name(to) })
            : x.t("event_text.give_received", { cards: this.cards(event.cards), name: name(from) });
        }
        const count = "count" in event ? event.count : parseCards(event.cards).length;
        return x.tn("event_plural.give", count, { giver: name(from), receiver: name(to),
          count: x.number(count) });
      }
      case "discard": return own(event.seat, "discard", { cards: this.cards(event.cards) });
      case "play": {
        const cards = standsFor(event.cards, event.declared);
        const kind = playKind(cards);
        const mine = seat !== null && event.seat === seat;
        const shown = this.played(event.cards, event.declared);
        if (kind === "many") {
          return x.tn(`play_many.${mine ? "own" : "other"}`, cards.length,
            { name: name(event.seat), count: x.number(cards.length), cards: shown });
        }
        return x.t(`play.${kind}.${mine ? "own" : "other"}`, { name: name(event.seat), cards: shown });
      }
      case "pass": return own(event.seat, "pass");
      case "skip": return own(event.seat, "skip");
      case "revolution":
        return x.t(`event_text.${event.reversed ? "revolution" : "counter_revolution"}`);
      case "clear": return own(event.leader, "clear");
      case "cut": return x.t("event_text.cut");
      case "return": return x.t("event_text.return");
      case "back": return x.t(`event_text.${event.on ? "back" : "back_off"}`);
      case "reverse": return x.t("event_text.reverse");
      case "lock":
        return x.t(`event_text.lock_${lockKind(event.suits, event.step)}`,
          { suits: this.suits(event.suits) });
      case "forbidden": {
        const why = `forbidden_${event.why}`;   // why the finish is forbidden (issue 28)
        return thenLeads(own(event.seat, x.has(`event.${why}.own`) ? why : "forbidden",
          { place: x.number(event.place), rank: this.rank(event.rank ?? "") }));
      }
      case "downfall": return own(event.seat, "downfall", { place: x.number(event.place) });
      case "out": {
        const place = x.number(event.place);
        if (event.holding || event.place === players.length) {
          return own(event.seat, "out_last", { place });
        }
        return thenLeads(own(event.seat, "out", { place }));
      }
      case "hand_end":
        return x.t("event_text.hand_end", { hand: x.number(event.hand),
          order: x.list((event.order || []).map(name)) });
      case "session_end": {
        const winners = (event.winners || []).map(name);
        return x.tn(`event_plural.${event.early ? "session_end_early" : "session_end"}`,
          winners.length, { names: x.list(winners) });
      }
      case "decree": return own(event.seat, "decree", { text: event.text });
      case "ready": return own(event.seat, "ready");
      case "lead": return own(event.seat, "lead");
      // the host's words to one player: back at the table, arriving late
      case "away": {
        const parts = [x.tn("event_plural.away_moves", event.moves,
          { count: x.number(event.moves) })];
        if (event.tricks) {
          parts.push(x.tn("event_plural.away_tricks", event.tricks,
            { count: x.number(event.tricks) }));
        }
        if (event.role) {
          parts.push(x.t("event_text.away_role",
            { role: this.roleTitle(event.role, event.title_set || "classic") }));
        }
        return x.t("event_text.away", { what: parts.join(", ") });
      }
      case "late": return x.t("event_text.late", { name: event.was });
      case "duplicate": {
        const pairs = (event.before || []).map((before, i) => x.t("event_text.duplicate_pair", {
          before, before_score: x.number(event.before_scores[i]),
          now: event.players[i], now_score: x.number(event.scores[i]) }));
        return x.t("event_text.duplicate", { pairs: pairs.join(" · ") });
      }
      default: return null;
    }
  }
}

// The cards a play is: its jokers replaced by the cards declared for them (wild jokers).
export function standsFor(text, declared) {
  const named = parseCards(declared);
  if (!named.length) return parseCards(text);
  return [...parseCards(text).filter((c) => c.suit !== null), ...named];
}

// single, pair, triple, quad, many (a set of 5 or more) or run
export function playKind(cards) {
  if (new Set(cards.map((c) => c.rank)).size > 1) return "run";
  return { 1: "single", 2: "pair", 3: "triple", 4: "quad" }[cards.length] || "many";
}
