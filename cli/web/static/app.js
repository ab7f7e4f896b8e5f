// The page: a join form, then the table. The model (``state``) is fed by the session's
// events and read by ``render``; taps become requests. Nothing here knows a rule of
// the game beyond ordering the hand: the host's view says what is legal, and a
// refused action comes back with the engine's reason.

import { cardsKey, sortedHand } from "./cards.js";
import { declarations, wildSelection } from "./declare.js";
import { LANGUAGES, loadTexts } from "./i18n.js";
import { LessonSession } from "./lesson.js";
import { Session } from "./session.js";
import { TurnSignals } from "./signals.js";
import { Text, parseCards } from "./text.js";

const $ = (id) => document.getElementById(id);
const LOG_LINES = 200;
const store = {
  get(key) { try { return JSON.parse(localStorage.getItem(`president.${key}`)); } catch { return null; } },
  set(key, value) {
    try {
      if (value === null) localStorage.removeItem(`president.${key}`);
      else localStorage.setItem(`president.${key}`, JSON.stringify(value));
    } catch { /* private mode: the seat lives as long as the page */ }
  },
};

// Learn to play in progress (the name and the moves): it comes back after a reload or a
// locked phone, not on another visit (the tab's own storage).
const lessonStore = {
  get() { try { return JSON.parse(sessionStorage.getItem("president.lesson")); } catch { return null; } },
  set(value) {
    try {
      if (value === null) sessionStorage.removeItem("president.lesson");
      else sessionStorage.setItem("president.lesson", JSON.stringify(value));
    } catch { /* private mode: the lesson lives as long as the page */ }
  },
};

const state = {
  texts: null, text: null, language: "en",
  tableId: null, tableName: null, pinNeeded: false,
  session: null, seat: null, table: null, view: null,
  log: [], chat: [], unread: 0,
  selected: new Set(), handKey: "", busy: false, message: "",
  hints: null,      // the host's hint for a view: {view, ideas, index}
  declaring: null,  // a wild joker's values to choose from: {tokens, options}
  turnKey: "", turnSince: 0, handSummary: null, sessionSummary: null, ended: null,
  tableTexts: null,  // {key, words}: the table's rules and titles in words (tableTexts)
  owner: false,      // this page sits as the table's owner (its seat token is the owner's)
  lastRule: null,    // the house rule the last special event showed at work (Rules opens on it)
  lesson: false,     // Learn to play: the session is a LessonSession (lesson.js)
};
const signals = new TurnSignals(store);

// ------------------------------------------------------------ start

async function main() {
  const saved = store.get("language");
  const asked = [saved, ...navigator.languages].map((l) => (l || "").slice(0, 2).toLowerCase());
  await setLanguage(asked.find((l) => LANGUAGES.includes(l)) || "en");
  let tables = [];
  try { tables = await (await fetch("/tables.json", { cache: "no-cache" })).json(); } catch { /* host gone */ }
  const table = tables.find((t) => !t.over) || tables[0];
  if (table) Object.assign(state, { tableId: table.id, tableName: table.name, pinNeeded: table.pin });
  takeKeyLink();
  takeOwnerLink();
  bindControls();
  const seat = state.tableId === null ? null : store.get(seatKey());
  const lesson = lessonStore.get();
  if (typeof lesson?.name === "string" && Array.isArray(lesson.moves)) learn(lesson);
  else if (seat?.token) join({ name: seat.name, token: seat.token, spectate: false });
  else showJoin();
  setInterval(tick, 1000);
}

function seatKey() { return `seat.${state.tableId}`; }
function hostKeyKey() { return `key.${state.tableId}`; }
function ownerKey() { return `owner.${state.tableId}`; }

// The host key the page's address names (#key=..., in the address the host prints and
// in its QR code): the session refuses another key before it proves anything. Kept for
// this table, with the key of the last join (a reload keeps it pinned).
function takeKeyLink() {
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  if (key && state.tableId !== null) store.set(hostKeyKey(), key);
}

// The owner's link (the host prints it: the page's address and #owner=<token>): the
// token is kept for this table and taken out of the address bar. It never travels to the
// host: it is the password of the sealed handshake, as a seat's token is.
function takeOwnerLink() {
  const token = new URLSearchParams(location.hash.slice(1)).get("owner");
  if (!token || state.tableId === null) return;
  store.set(ownerKey(), token);
  history.replaceState(null, "", location.pathname + location.search);
}

async function setLanguage(language) {
  state.texts = await loadTexts(language);
  state.text = new Text(state.texts);
  state.language = language;
  store.set("language", language);
  document.documentElement.lang = language;
  for (const element of document.querySelectorAll("[data-label]")) {
    element.textContent = label(element.dataset.label);
  }
  for (const element of document.querySelectorAll("[data-label-placeholder]")) {
    element.placeholder = label(element.dataset.labelPlaceholder);
  }
  for (const element of document.querySelectorAll("[data-reaction]")) {
    element.textContent = state.text.chatText(element.dataset.reaction);
  }
  for (const element of document.querySelectorAll("[data-label-aria]")) {
    element.setAttribute("aria-label", label(element.dataset.labelAria));
  }
  for (const select of [$("join-language"), $("table-language")]) {
    select.replaceChildren(...LANGUAGES.map((code) => {
      const option = new Option(state.texts.maps.languages[code], code);
      option.selected = code === language;
      return option;
    }));
  }
  if (state.lesson) state.session.setLanguage(language).then(() => { render(); renderRulesIfOpen(); });
  render();
  renderRulesIfOpen();
}

function renderRulesIfOpen() { if ($("rules-dialog").open) renderRules(); }

const label = (key, params) => state.text.label(key, params);

function bindControls() {
  $("join-form").addEventListener("submit", (e) => { e.preventDefault(); joinFromForm(false); });
  $("join-watch").addEventListener("click", () => joinFromForm(true));
  $("join-learn").addEventListener("click", () => {
    const name = typedName();
    if (name !== null) learn({ name, moves: [] });
  });
  for (const select of [$("join-language"), $("table-language")]) {
    select.addEventListener("change", () => setLanguage(select.value));
  }
  $("open-rules").addEventListener("click", openRules);
  $("banner").addEventListener("click", openRules);   // the rule just shown, explained
  $("open-evening").addEventListener("click", showEvening);
  $("open-chat").addEventListener("click", () => {
    state.unread = 0;
    renderChat();
    $("chat-dialog").showModal();
    $("chat-text").focus();
  });
  for (const button of document.querySelectorAll("#reactions [data-reaction]")) {
    button.addEventListener("click", () => state.session?.chat(button.dataset.reaction));
  }
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("chat-text").value.trim();
    if (text && state.session?.chat(text)) $("chat-text").value = "";
  });
  $("leave").addEventListener("click", leave);
  $("end-session").addEventListener("click", endSession);
  $("sound").addEventListener("click", () => { signals.setMuted(!signals.muted); renderSound(); });
  $("seat-give").addEventListener("click", () => answerSeatRequest(true));
  $("seat-refuse").addEventListener("click", () => answerSeatRequest(false));
  $("act-main").addEventListener("click", mainAction);
  $("act-pass").addEventListener("click", () => (state.view?.phase === "session_over"
    && mayPlayAgain() ? act("play_duplicate") : act("pass")));
  $("act-hint").addEventListener("click", askHint);
  // The pile (what to beat) never gives way: the middle stays at least as tall as it, the
  // log takes what is left (style.css), and a screen too short for it scrolls.
  new ResizeObserver(() => { $("middle").style.minHeight = `${$("pile").offsetHeight}px`; })
    .observe($("pile"));
  $("decree-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("decree-text").value.trim();
    if (text) act("decree", text).then((ok) => { if (ok) $("decree-text").value = ""; });
  });
}

// ------------------------------------------------------------ joining

function showJoin(message = "") {
  $("join-screen").hidden = false;
  $("table-screen").hidden = true;
  $("join-title").textContent = state.tableName || "President";
  $("join-name").value = $("join-name").value || store.get("name") || "";
  $("join-pin-row").hidden = !state.pinNeeded;
  $("join-message").textContent = message;
}

// The name typed in the form (kept for next time), or null and the form says why.
function typedName() {
  const name = $("join-name").value.trim();
  if (!name) {
    $("join-message").textContent = state.text.reason("name_invalid");
    return null;
  }
  store.set("name", name);
  return name;
}

function joinFromForm(spectate) {
  const name = typedName();
  if (name === null) return;
  const owner = spectate ? null : store.get(ownerKey());
  join({ name, token: owner, spectate, pin: $("join-pin").value || null });
}

function join({ name, token, spectate, pin = null }) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  sitDown(new Session({ name, language: state.language, pin, spectate, token,
    table: state.tableId, hostKey: store.get(hostKeyKey()) || null,
    url: `${scheme}://${location.host}/ws`, listener: onSession }));
}

// Learn to play: the guided hand against two bots, stepped by the host (lesson.js), from
// its start or from the moves made before a reload.
function learn({ name, moves }) {
  lessonStore.set({ name, moves });
  sitDown(new LessonSession({ name, moves, language: state.language, listener: onSession }));
}

function sitDown(session) {
  state.session?.stop();
  Object.assign(state, { seat: null, table: null, view: null, log: [], chat: [], selected: new Set(),
    handSummary: null, sessionSummary: null, ended: null, message: "", tableTexts: null,
    lesson: session instanceof LessonSession, lastRule: null });
  state.session = session;
  session.connect();
  $("join-screen").hidden = true;
  $("table-screen").hidden = false;
  render();
}

function leave() {
  if (!state.lesson && !confirm(label("leave_confirm"))) return;
  state.session?.leave();
  if (!state.lesson) store.set(seatKey(), null);
  lessonStore.set(null);
  state.lesson = false;
  $("rules-dialog").close();
  showJoin();
}

// ------------------------------------------------------------ the session's events

function onSession(kind, payload) {
  switch (kind) {
    case "joined":
      state.seat = payload.seat;
      state.table = payload.table;
      if (state.lesson) break;     // a lesson: no seat to come back to, no host key
      state.owner = Boolean(payload.token) && payload.token === store.get(ownerKey());
      if (payload.token) store.set(seatKey(), { token: payload.token, name: state.session.name });
      store.set(hostKeyKey(), payload.hostKey);
      state.message = label("host_key", { key: payload.hostKey });
      break;
    case "join_failed":
      if (payload.final) {
        if (["bad_token", "table_closed", "session_over"].includes(payload.code)) store.set(seatKey(), null);
        if (state.lesson) lessonStore.set(null);
        state.lesson = false;
        if (["wrong_pin", "pin_again"].includes(payload.code)) state.pinNeeded = true;
        state.session.stop();
        showJoin(state.text.reason(payload.code, payload.params));
        return;
      }
      state.message = state.text.reason(payload.code, payload.params);
      break;
    case "table": state.table = payload; break;
    case "view": viewChanged(payload); break;
    case "event": gameEvent(payload); break;
    case "chat":
      state.chat.push(payload);
      addLog({ chat: payload });
      if (!$("chat-dialog").open) state.unread += 1;
      renderChat();
      break;
    case "refused": state.message = state.text.reason(payload.code, payload.params); break;
    case "closed":
      if (payload.final) {
        state.ended = payload.code;
        if (payload.code !== "host_stopping") store.set(seatKey(), null);
      }
      break;
    default: break;   // status
  }
  render();
}

function viewChanged(view) {
  const old = state.view;
  state.view = view;
  const turnKey = `${view.phase}:${view.turn}:${view.hand_number}`;
  if (turnKey !== state.turnKey) {
    state.turnKey = turnKey;
    state.turnSince = Date.now();
    if (old) state.message = "";
  }
  // the trick just cleared, for "Last trick" (a new hand starts without one)
  if (view.hand_number !== old?.hand_number || (old.pile.length && view.pile.length < old.pile.length)) {
    state.lastTrick = view.hand_number === old?.hand_number ? old.pile : null;
    state.showLast = false;
  }
  if (view.hand !== state.handKey) {
    state.handKey = view.hand;
    state.selected = new Set();
  }
  if (state.declaring && (view.turn !== old?.turn || view.hand !== old?.hand)) state.declaring = null;
}

function gameEvent(event) {
  if (event.type === "hand_end") state.handSummary = event;
  else if (event.type === "session_end") state.sessionSummary = event;
  else if (event.type === "deal") {         // a deal after the end: the owner played again
    state.handSummary = null;
    state.sessionSummary = null;
  }
  const rule = state.texts.maps.rule_of_event[event.type];
  if (rule) state.lastRule = rule;     // Rules opens on it, as the terminal's ? does
  if (BANNER_EVENTS.has(event.type)) showBanner(event);
  addLog({ event });
}

function addLog(entry) {
  state.log.push(entry);
  if (state.log.length > LOG_LINES) state.log.shift();
}

// ------------------------------------------------------------ acting

function legal(kind) {
  return (state.view?.legal || []).filter((action) => action.type === kind);
}

function hand() {
  const view = state.view;
  if (!view) return [];
  return sortedHand(view.hand, state.table?.rules, view.reversed);
}

function selectedCards() {
  const cards = hand();
  return [...state.selected].sort((a, b) => a - b).map((i) => cards[i]).filter(Boolean);
}

// A 7-pass or 10-discard this seat is to choose now: [seat, kind, number, to], or null.
function choosingMine() {
  const choosing = state.view?.choosing;
  return choosing && choosing[0] === state.view.seat ? choosing : null;
}

function mainAction() {
  const phase = state.view?.phase;
  if (!state.view) return act("start");
  if (phase === "session_over" && mayPlayAgain()) return act("play_again");
  const choosing = choosingMine();
  if (choosing) return act(choosing[1], selectedCards().map((c) => c.token).join(" "));
  if (phase === "play") return playSelected();
  if (phase === "tax") return act("give_back", selectedCards().map((c) => c.token).join(" "));
  if (phase === "hand_over") return act("ready");
  if (state.ended || phase === "session_over") {
    state.session?.stop();
    store.set(seatKey(), null);
    lessonStore.set(null);
    location.reload();
  }
  return undefined;
}

// Play the selected cards; a wild joker among them: the value when only one is legal,
// else the chooser of what it stands for (renderDeclare).
function playSelected() {
  const cards = selectedCards();
  const tokens = cards.map((c) => c.token).join(" ");
  const rules = state.table?.rules;
  if (!wildSelection(cards, rules)) return act("play", tokens);
  const options = declarations(state.view, rules, cards);
  if (options.length === 1) return act("play", tokens, options[0]);
  if (!options.length) state.message = state.text.reason("bad_declaration");
  else state.declaring = { tokens, options };
  render();
  return undefined;
}

// The night's story as the host tells it (its places chart included), in the page's language.
async function showEvening() {
  let story = null;
  try {
    const answer = await fetch(`/evening/${state.language}`, { cache: "no-cache" });
    if (answer.ok) story = await answer.text();
  } catch { /* host gone */ }
  $("evening-text").textContent = story || label("evening_none");
  $("evening-dialog").showModal();
}

function mayPlayAgain() { return state.owner && Boolean(state.table?.again); }

function endSession() {
  if (!confirm(label("end_confirm"))) return;
  $("rules-dialog").close();
  act("end_session");
}

function seatRequest() {
  return state.owner && state.table?.seat_requests?.length ? state.table.seat_requests[0] : null;
}

function answerSeatRequest(give) {
  const seat = seatRequest();
  if (seat !== null) act("seat_answer", { seat, give });
}

async function act(kind, arg, declared) {
  if (state.busy || !state.session) return false;
  state.busy = true;
  state.message = "";
  state.declaring = null;
  render();
  const reply = await state.session.request(kind, arg, declared);
  state.busy = false;
  if (reply.code === null) {
    if (["play", "give_back", "give", "discard"].includes(kind)) state.selected = new Set();
    if (state.lesson) lessonStore.set({ name: state.session.name, moves: state.session.moves });
  } else if (reply.code === "lesson_step") {   // Learn to play: its line says what to do
    state.message = label("lesson_step");
  } else {
    state.message = state.text.reason(reply.code, reply.params);
  }
  render();
  return reply.code === null;
}

// A hint (issue 28): the host asks the table's medium bot what it would do from our view
// and sends its ideas as codes; each press selects the next one and says why.
async function askHint() {
  const view = state.view;
  if (!state.session || !view) return;
  if (state.hints?.view !== view) {
    const reply = await state.session.request("hint");
    if (reply.code !== null) {
      state.message = state.text.reason(reply.code, reply.params);
      render();
      return;
    }
    state.hints = { view, ideas: reply.params.hints, index: -1 };
  }
  const { ideas } = state.hints;
  if (!ideas.length) return;
  state.hints.index = (state.hints.index + 1) % ideas.length;
  const idea = ideas[state.hints.index];
  const wanted = parseCards(idea.action.cards || "").map((c) => c.token);
  state.selected = new Set();
  hand().forEach((card, i) => {
    const at = wanted.indexOf(card.token);
    if (at >= 0) { wanted.splice(at, 1); state.selected.add(i); }
  });
  state.declaring = null;
  state.message = state.text.hint(idea);
  render();
}

// A long press on a card selects its rank's cards, as the terminal's rank keys do: as
// many as the pile asks for, then one fewer on each press (wrapping to all); while
// choosing a 7-pass or 10-discard, one more card of the rank each time (then none).
const HOLD_MS = 450;
const hold = { timer: null, fired: false, swallow: false };

function holdStart(index) {
  holdEnd();
  hold.fired = false;
  hold.timer = setTimeout(() => { hold.timer = null; hold.fired = true; selectRank(index); }, HOLD_MS);
}

function holdEnd() {
  clearTimeout(hold.timer);
  hold.timer = null;
}

// The end of a press: the click that follows a long press (in the same turn of the
// event loop) is not a tap.
function holdRelease() {
  holdEnd();
  if (!hold.fired) return;
  hold.fired = false;
  hold.swallow = true;
  setTimeout(() => { hold.swallow = false; }, 0);
}

function tapCard(index) {
  if (!hold.swallow) toggle(index);
}

function selectRank(index) {
  const cards = hand();
  const rank = cards[index]?.rank;
  if (rank === undefined) return;
  const indices = cards.flatMap((card, i) => (card.rank === rank ? [i] : []));
  const current = state.selected;
  if (choosingMine()) {
    const free = indices.filter((i) => !current.has(i));
    if (free.length) current.add(free[0]);
    else indices.forEach((i) => current.delete(i));
  } else {
    const within = current.size > 0 && [...current].every((i) => indices.includes(i));
    const top = state.view?.pile?.at(-1);
    const pileSize = top ? parseCards(top[1]).length : 0;
    const size = within ? (current.size - 1 || indices.length)
      : Math.min(pileSize || indices.length, indices.length);
    state.selected = new Set(fitting(cards, indices, size));
  }
  state.declaring = null;
  state.message = "";
  render();
}

// ``size`` of ``indices`` (one rank's cards): the first choice the table would take (a
// suit lock asks for its suits), else the first ones.
function fitting(cards, indices, size) {
  const plays = new Set(legal("play").map((a) => cardsKey(parseCards(a.cards))));
  if (plays.size && size < indices.length) {
    for (const choice of choices(indices, size)) {
      if (plays.has(cardsKey(choice.map((i) => cards[i])))) return choice;
    }
  }
  return indices.slice(0, size);
}

function* choices(items, size, from = 0) {
  if (size === 0) { yield []; return; }
  for (let i = from; i <= items.length - size; i += 1) {
    for (const rest of choices(items, size - 1, i + 1)) yield [items[i], ...rest];
  }
}

// The first hands' tip (the terminal's says which rank key selects what): at our turn
// with nothing selected, how a long press selects a rank's cards.
const TIP_HANDS = 2;

function tip() {
  const view = state.view;
  if (!view || state.lesson || state.message || view.hand_number > TIP_HANDS
      || view.phase !== "play" || view.turn !== view.seat || view.seat === null
      || state.selected.size || choosingMine() || !legal("play").length) return "";
  return label("rank_tip");
}

function toggle(index) {
  state.declaring = null;
  if (state.selected.has(index)) state.selected.delete(index);
  else state.selected.add(index);
  state.message = "";
  render();
}

function tick() {
  if (state.table?.turn_timer && state.view?.phase === "play") {
    renderSeats();
    renderTimer();
  }
}

// Seconds left to the player whose turn it is (null: no timer, or not a turn).
function secondsLeft() {
  const limit = state.table?.turn_timer;
  if (!limit || state.view?.phase !== "play" || state.view.turn === null) return null;
  return Math.max(0, Math.ceil(limit - (Date.now() - state.turnSince) / 1000));
}

// My turn's timer as a bar that empties, with the seconds in words.
function renderTimer() {
  const box = $("turn-timer");
  const view = state.view;
  const left = view && view.turn === view.seat && view.seat !== null && !choosingMine()
    ? secondsLeft() : null;
  box.hidden = left === null;
  if (left === null) return;
  const limit = state.table.turn_timer;
  box.classList.toggle("hurry", left <= Math.min(10, limit / 3));
  $("turn-timer-bar").style.width = `${Math.round((100 * left) / limit)}%`;
  $("turn-timer-text").textContent = `${state.texts.number(left)} s`;
  $("turn-timer").setAttribute("aria-label", label("to_play_seconds", { seconds: left }));
}

// ------------------------------------------------------------ rendering

function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") element.className = value;
    else if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : value);
  }
  element.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return element;
}

function players() {
  if (state.view) return state.view.players;
  return (state.table?.players || []).map((name) => name || "?");
}

function render() {
  if (!state.text || $("table-screen").hidden) return;
  renderTitle();
  renderStatus();
  renderSeats();
  renderMiddle();
  renderHand();
  renderActions();
  renderTimer();
  renderSeatRequest();
  renderSound();
  $("open-chat").textContent = label("chat") + (state.unread ? ` (${state.unread})` : "");
  $("open-chat").hidden = state.lesson;
  signals.update(waitsForMe(), $("title").textContent, label("your_turn_title"));
  signals.keepAwake(state.view?.seat !== null && state.view?.seat !== undefined && !state.ended);
}

// Whether the table waits for this player: a move, a 7-pass or 10-discard, the tax.
function waitsForMe() {
  const view = state.view;
  if (!view || view.seat === null || state.session?.status !== "connected") return false;
  if (choosingMine()) return true;
  if (view.phase === "play") return view.turn === view.seat && !view.choosing;
  return view.phase === "tax" && view.tax_owed > 0;
}

function renderSound() {
  const button = $("sound");
  button.textContent = "♪";
  button.classList.toggle("muted", signals.muted);
  button.setAttribute("aria-pressed", signals.muted ? "false" : "true");
  button.setAttribute("aria-label", label("sound"));
  button.title = label("sound");
}

function renderSeatRequest() {
  const seat = seatRequest();
  $("seat-request").hidden = seat === null;
  if (seat === null) return;
  $("seat-request-text").textContent = label("seat_request", { name: state.table.players[seat] || "?" });
}

function renderTitle() {
  const view = state.view;
  const parts = [state.table?.name || state.tableName || label("table")];
  if (view) parts.push(label("hand_number", { number: state.texts.number(view.hand_number) }),
    state.text.phase(view.phase));
  $("title").textContent = parts.join(" · ");
}

function renderStatus() {
  const status = state.session?.status;
  let text = "";
  if (status === "connecting" || status === "new") text = label("connecting");
  else if (status === "reconnecting") text = state.text.status("reconnecting");
  else if (state.ended) text = state.text.reason(state.ended);
  else if (status === "closed") text = state.text.status("closed");
  else text = state.text.orderBanner(state.view);
  $("status").textContent = text;
  $("status").className = state.text.orderBanner(state.view) && status === "connected"
    ? "revolution" : "";
}

function seatState(s) {
  const view = state.view;
  if (!view) return "";
  // Placed: out, left holding cards at the hand's end, or sent to the bottom (a
  // forbidden finish, a downfall): as the terminal's seat list says it.
  const out = view.finished.includes(s);
  const place = out ? view.finished.indexOf(s) + 1
    : (view.bottom ?? []).includes(s) ? view.players.length - view.bottom.indexOf(s) : null;
  if (place !== null) {
    if (view.counts[s] > 0) return label("holding_place", { place });
    return label(out ? "out_place" : "bottom_place", { place });
  }
  if (view.phase === "play") {
    if (view.choosing && view.choosing[0] === s) {
      return label(view.choosing[1] === "give" ? "choosing_give" : "choosing_discard");
    }
    if (view.turn === s) {
      const left = secondsLeft();
      return left === null ? label("to_play") : label("to_play_seconds", { seconds: left });
    }
    if (view.passed.includes(s)) return label("passed");
  }
  if (view.phase === "tax" && view.tax_pending.includes(s)) return label("choosing_tax");
  if (view.phase === "hand_over" && view.ready.includes(s)) return label("ready");
  return "";
}

const SEAT_NOTES = new Set(["disconnected", "away", "left"]);

function seatNote(s) {
  if (s === state.seat) return ` ${label("you")}`;
  const seatState = (state.table?.states || [])[s];
  if (SEAT_NOTES.has(seatState)) return ` ${label(`seat_${seatState}`)}`;
  return "";
}

function renderSeats() {
  const view = state.view;
  const list = $("seats");
  list.classList.toggle("waiting", !view);
  if (!view) {
    const names = state.table?.players || [];
    const taken = names.filter(Boolean).length;
    list.replaceChildren(
      ...(names.length ? [h("li", { class: "heading" },
        label("waiting_players", { taken, total: names.length }))] : []),
      ...names.map((name, s) => h("li", { class: s === state.seat ? "me" : "" },
        (name || label("free_seat")) + (name && s === state.seat ? ` ${label("you")}` : ""))));
    return;
  }
  const count = view.players.length;
  const order = view.order.length ? view.order : [...Array(count).keys()];
  const start = Math.max(0, order.indexOf(view.seat));
  const titleSet = state.table?.rules?.title_set || "classic";
  list.classList.toggle("compact", count > 5);
  list.replaceChildren(...order.map((_, k) => {
    const s = order[(start + k) % count];
    const turn = (view.phase === "play" && view.turn === s)
      || (view.phase === "tax" && view.tax_pending.includes(s));
    const role = view.roles ? state.text.roleTitle(view.roles[s], titleSet) : "";
    const classes = [turn ? "turn" : "", s === view.seat ? "me" : ""].join(" ").trim();
    return h("li", { class: classes, "aria-current": turn ? "true" : null },
      h("span", { class: "mark", "aria-hidden": "true" }, turn ? "▶" : ""),
      h("span", { class: "name" }, view.players[s] + seatNote(s)),
      h("span", { class: "role" }, role),
      h("span", { class: "count" }, state.text.count("cards", view.counts[s])),
      h("span", { class: "state" }, [seatState(s),
        label("score", { score: state.texts.number(view.scores[s]) })].filter(Boolean).join(" · ")));
  }));
}

function cardFace(card, attrs = {}) {
  const red = card.suit === "H" || card.suit === "D";
  const kind = card.suit === null ? "joker" : red ? "red" : "black";
  return h("span", { class: `card ${kind}`, title: state.text.cardName(card), ...attrs },
    h("span", { class: "rank" }, state.text.rank(card.rank)),
    h("span", { class: "suit", "aria-hidden": "true" }, card.suit === null ? "★" : state.text.card(card).slice(-1)));
}

function renderMiddle() {
  const view = state.view;
  const summary = $("summary");
  const between = view && (view.phase === "hand_over" || view.phase === "session_over");
  summary.hidden = !between;
  if (between) $("banner").hidden = true;   // the summary is what matters now
  $("pile").hidden = Boolean(between);
  if (between) renderSummary(summary);
  else renderPile();
  const log = $("log");
  const names = players();
  log.replaceChildren(...state.log.slice(-40).map((entry) => (entry.chat
    ? h("li", { class: "chat" }, label("chat_line", { name: entry.chat.name, text: state.text.chatText(entry.chat.text) }))
    : h("li", {}, state.text.event(entry.event, names, state.seat)))));
  log.scrollTop = log.scrollHeight;
}

// The pile: its last plays (the newest comes in from its player's side, once), the
// lock, the decree; a tap on "Last trick" shows the trick that was just cleared.
function renderPile() {
  const pile = $("pile");
  const view = state.view;
  pile.hidden = !view;
  if (!view) return;
  const names = players();
  const last = state.showLast && state.lastTrick;
  const plays = (last || view.pile).slice(-3);
  const children = [h("span", { class: "label" }, label(last ? "last_trick" : "pile"))];
  if (!plays.length) children.push(h("span", { class: "dim" }, label("empty")));
  const topKey = `${view.hand_number}:${view.pile.length}:${JSON.stringify(view.pile.at(-1))}`;
  const arriving = !last && view.pile.length > 0 && topKey !== state.arrivedKey;
  state.arrivedKey = topKey;
  plays.forEach(([seat, cards, declared], i) => {
    const top = i === plays.length - 1;
    const shown = parseCards(cards);
    const named = declared ? ` (${state.text.played(cards, declared)})` : "";
    const classes = ["play", top ? "top" : "", top && arriving
      ? (seat === view.seat ? "arrive-mine" : "arrive") : ""].filter(Boolean).join(" ");
    children.push(h("span", { class: classes,
      "aria-label": `${names[seat]}: ${shown.map((c) => state.text.cardName(c)).join(", ")}${named}` },
      h("span", { class: "who" }, names[seat]),
      h("span", { class: "cards" }, shown.map((c) => cardFace(c, { "aria-hidden": "true" }))),
      declared ? h("span", { class: "declared" }, state.text.played("JK", declared)) : null));
  });
  if (view.lock && !last) children.push(h("span", { class: "lock" }, `· ${state.text.lock(view.lock)}`));
  if (state.lastTrick) {
    children.push(h("button", { type: "button", id: "last-trick", class: "chip",
      "aria-pressed": last ? "true" : "false",
      onclick: () => { state.showLast = !state.showLast; renderPile(); } },
    last ? label("pile") : label("last_trick")));
  }
  if (view.decree) children.push(h("p", { class: "decree" }, `${label("decree")} ${view.decree}`));
  pile.classList.toggle("showing-last", Boolean(last));
  pile.replaceChildren(...children);
}

// A special rule that just changed the game, said big for a moment (the log keeps it).
const BANNER_EVENTS = new Set(["revolution", "cut", "back", "lock", "reverse"]);
const BANNER_MS = 2600;

function showBanner(event) {
  const banner = $("banner");
  banner.textContent = state.text.event(event, players(), state.seat);
  banner.className = `banner-${event.type}`;
  banner.hidden = false;
  clearTimeout(state.bannerTimer);
  state.bannerTimer = setTimeout(() => { banner.hidden = true; }, BANNER_MS);
}

// Between hands: the summary the terminal shows, in the words the host made with the
// terminal's own code (table_texts: places, ties, titles, scores, the tax to come).
function renderSummary(box) {
  const view = state.view;
  const summary = state.tableTexts?.words?.summary;
  const fresh = state.tableTexts?.key === tableTextsKey();
  if (!fresh) tableTexts().then(() => { if (state.tableTexts?.key === tableTextsKey()) render(); });
  if (!summary) {
    if (!fresh) box.replaceChildren();
    return;
  }
  const winners = view.phase === "session_over" ? view.winners : [];
  box.replaceChildren(...[h("h2", {}, summary.heading),
    h("ul", {}, summary.rows.map(([seat, line]) => h("li", {
      class: [seat === state.seat ? "me" : "", winners.includes(seat) ? "winner" : ""].join(" ").trim() || null,
    }, line))),
    summary.notes.length ? h("ul", { class: "dim" }, summary.notes.map((note) => h("li", {}, note))) : null,
  ].filter(Boolean));
}

function prompt() {
  const view = state.view;
  if (!view) {
    if (state.seat === null) return label("waiting_table");
    return state.owner || state.table?.started ? "" : label("waiting_owner_start");
  }
  if (view.seat === null) return label("watching");
  if (view.phase === "tax") {
    return view.tax_owed ? state.texts.tn("label.give_back_hint", view.tax_owed, { n: view.tax_owed })
      : label("tax_paying");
  }
  const choosing = choosingMine();
  if (choosing) {
    const [, kind, n, to] = choosing;
    return state.texts.tn(`label.${kind}_hint`, n, { n, name: to === null ? "" : view.players[to] });
  }
  if (view.phase === "play") {
    if (view.turn === view.seat && view.top) {   // following: what beats the pile
      return state.text.toBeat(view.top, state.table?.rules?.equal_rank ?? "off", view.reversed,
        view.back, view.lock, legal("pass").length > 0);
    }
    if (view.turn === view.seat) return label("your_turn");
    return view.turn === null ? "" : label("turn_of", { name: view.players[view.turn] });
  }
  if (view.phase === "hand_over") {
    return view.ready.includes(view.seat) ? label("waiting_ready") : label("tap_ready");
  }
  if (view.phase === "session_over" && state.table?.again && !state.owner) return label("waiting_again");
  return "";
}

// Where in the hand the cards this hand's tax or a 7-pass gave this seat are (the
// view's tax_mine and gifts_mine: its own transfers).
function receivedIndices(cards) {
  const view = state.view;
  const got = [...(view.tax_mine || []), ...(view.gifts_mine || [])].filter(([, to]) => to === view.seat)
    .flatMap(([, , given]) => parseCards(given).map((c) => c.token));
  const found = new Set();
  cards.forEach((card, i) => {
    const at = got.indexOf(card.token);
    if (at >= 0) { got.splice(at, 1); found.add(i); }
  });
  return found;
}

// On our turn (or our 7-pass, 10-discard), the cards some legal move uses: the others
// are dimmed, as the terminal dims them (null: not our move).
function playableTokens() {
  const view = state.view;
  const mine = view && view.seat !== null && (choosingMine()
    || (view.phase === "play" && view.turn === view.seat && !view.choosing));
  if (!mine) return null;
  return new Set(legal("play").concat(legal("give"), legal("discard"))
    .flatMap((action) => parseCards(action.cards).map((card) => card.token)));
}

const MANY_CARDS = 14;  // a bigger hand takes lower cards (three rows on a phone)

function renderHand() {
  const view = state.view;
  const area = $("hand-area");
  const myTurn = view && view.phase === "play" && view.turn === view.seat && view.seat !== null;
  const owes = view && view.phase === "tax" && view.tax_owed > 0;
  document.body.classList.toggle("my-turn", Boolean(myTurn || owes));
  $("prompt").textContent = prompt();
  $("lesson-line").hidden = !state.lesson;
  $("lesson-line").textContent = state.lesson ? state.session.line : "";
  $("message").textContent = state.message;
  $("tip").textContent = tip();
  const cards = hand();
  const handBox = $("hand");
  handBox.setAttribute("aria-label", label("your_hand"));
  handBox.classList.toggle("many", cards.length > MANY_CARDS);
  area.classList.toggle("spectating", Boolean(view && view.seat === null));
  const between = view && (view.phase === "hand_over" || view.phase === "session_over");
  if (!view || view.seat === null || (between && !cards.length)) {
    handBox.replaceChildren();
  } else if (!cards.length) {
    handBox.replaceChildren(h("p", { class: "dim" }, label("no_cards")));
  } else {
    const got = receivedIndices(cards);
    const playable = playableTokens();
    handBox.replaceChildren(...cards.map((card, i) => {
      const chosen = state.selected.has(i);
      const classes = ["hand-card", chosen ? "selected" : "", got.has(i) ? "received" : "",
        playable && !playable.has(card.token) ? "unplayable" : ""];
      return h("button", { type: "button", class: classes.filter(Boolean).join(" "),
        "aria-pressed": chosen ? "true" : "false", "aria-label": state.text.cardName(card),
        "data-card": card.token, onclick: () => tapCard(i), onpointerdown: () => holdStart(i),
        onpointerup: holdRelease, onpointerleave: holdEnd, onpointercancel: holdEnd,
        oncontextmenu: (e) => e.preventDefault() }, cardFace(card, { "aria-hidden": "true" }));
    }));
  }
  renderDeclare();
  const decree = legal("decree").length > 0;
  $("decree-form").hidden = !decree;
  $("decree-send").textContent = state.text.action("decree");
}

// What the selected wild joker stands for: one button per legal value, most useful first.
function renderDeclare() {
  const box = $("declare");
  const choosing = state.declaring;
  box.hidden = !choosing;
  if (!choosing) return box.replaceChildren();
  const values = choosing.options.map((declared, i) => h("button", {
    type: "button", class: i ? "big declared-value" : "big primary declared-value",  // the most useful
    "data-declared": declared,
    "aria-label": state.text.played("", declared),
    onclick: () => act("play", choosing.tokens, declared) },
  parseCards(declared).map((c) => cardFace(c, { "aria-hidden": "true" }))));
  return box.replaceChildren(h("p", { class: "label" }, label("declare")), ...values,
    h("button", { type: "button", class: "big", id: "declare-back",
      onclick: () => { state.declaring = null; render(); } }, state.text.action("back")));
}

function renderActions() {
  const view = state.view;
  const main = $("act-main");
  const pass = $("act-pass");
  pass.textContent = state.text.action("pass");
  pass.hidden = true;
  const hintButton = $("act-hint");
  hintButton.textContent = label("hint");
  hintButton.hidden = !view || view.seat === null || state.table?.hints === false
    || !(view.legal || []).some((a) => ["play", "pass", "give", "discard", "give_back"]
      .includes(a.type));
  hintButton.disabled = state.busy;
  main.hidden = false;
  main.disabled = state.busy;
  main.classList.remove("ready-to-go");
  const phase = view?.phase;
  if (phase === "session_over" && mayPlayAgain() && !state.ended) {
    main.textContent = label("play_again");
    pass.textContent = label("play_duplicate");  // the same deals, everyone one seat on
    pass.hidden = false;
    pass.disabled = state.busy;
  } else if (state.ended || phase === "session_over") {
    main.textContent = label("start_again");
  } else if (!view) {
    main.textContent = label("start_now");
    main.hidden = !state.owner || state.seat === null || !state.table || state.table.started;
  } else if (view.seat === null) {
    main.hidden = true;
  } else if (choosingMine()) {  // a 7-pass or 10-discard
    const [, kind, n] = choosingMine();
    main.textContent = state.text.action(kind);
    main.disabled = state.busy || state.selected.size !== n;
    if (!main.disabled) main.classList.add("ready-to-go");
  } else if (phase === "play") {
    const mine = view.turn === view.seat;
    main.textContent = state.text.action("play");
    pass.hidden = false;
    pass.disabled = state.busy || !mine || legal("pass").length === 0;  // a lead: no pass
    main.disabled = state.busy || !mine || state.selected.size === 0;
    main.hidden = Boolean(state.declaring);
    const cards = selectedCards();
    const chosen = cardsKey(cards);
    if (mine && (legal("play").some((a) => cardsKey(parseCards(a.cards)) === chosen)
        || (wildSelection(cards, state.table?.rules)
            && declarations(view, state.table.rules, cards).length))) {
      main.classList.add("ready-to-go");
    }
  } else if (phase === "tax") {
    main.textContent = state.text.action("give_back");
    main.hidden = !view.tax_owed;
    main.disabled = state.busy || state.selected.size !== view.tax_owed;
  } else if (phase === "hand_over") {
    main.textContent = state.text.action("ready");
    main.disabled = state.busy || legal("ready").length === 0;
  } else {
    main.hidden = true;
  }
}

// The table's house rules and role titles, in words the host made with the terminal's
// own code (cli/web/texts.py table_texts): shown as they come.
// What the table's words depend on: the table, the language, its rules and, between
// hands, the hand and the scores.
function tableTextsKey() {
  const view = state.view;
  const between = view && (view.phase === "hand_over" || view.phase === "session_over");
  return [state.table?.id ?? state.tableId, state.language, JSON.stringify(state.table?.rules),
    state.table?.preset, between ? `${view.phase}/${view.hand_number}/${view.scores}` : ""].join("|");
}

async function tableTexts() {
  if (state.lesson) {            // a lesson's words come with each of its steps
    state.tableTexts = { key: tableTextsKey(), words: state.session.words };
    return state.session.words;
  }
  const id = state.table?.id ?? state.tableId;
  if (id === null || id === undefined) return null;
  const key = tableTextsKey();
  if (state.tableTexts?.key === key) return state.tableTexts.words;
  if (state.tableTextsAsked?.key !== key) {   // one request at a time for each key
    const asked = fetch(`/tables/${encodeURIComponent(id)}/${state.language}.json`, { cache: "no-cache" })
      .then((response) => (response.ok ? response.json() : null)).catch(() => null)
      .then((words) => {
        if (words && state.tableTextsAsked?.key === key) state.tableTexts = { key, words };
        if (state.tableTextsAsked?.key === key) state.tableTextsAsked = null;
        return words;
      });
    state.tableTextsAsked = { key, asked };
  }
  return state.tableTextsAsked.asked;
}

function openRules() {
  $("rules-dialog").showModal();
  renderRules().then(showLastRule);
}

// The house rule the last special event showed at work (state.lastRule), marked and
// scrolled to, as the terminal's ? opens its help there.
function showLastRule() {
  const rows = [...document.querySelectorAll(`#rules-list [data-field="${state.lastRule}"]`)];
  if (!rows.length) return;
  rows[0].scrollIntoView({ block: "start" });
}

async function renderRules() {
  const words = await tableTexts();
  $("leave").hidden = state.seat === null && !state.session;
  $("open-evening").hidden = state.lesson;
  $("end-session").hidden = !state.owner || !state.view || state.view.phase === "session_over";
  if (!words) return;
  $("rules-preset").textContent = label("preset_line", { preset: words.preset });
  const rules = [...words.rules.filter((r) => r.in_force), ...words.rules.filter((r) => !r.in_force)];
  const marked = (rule) => [rule.in_force ? "" : "off", rule.field === state.lastRule ? "fired" : ""]
    .filter(Boolean).join(" ") || null;
  $("rules-list").replaceChildren(...rules.flatMap((rule) => [
    h("dt", { class: marked(rule), "data-field": rule.field }, rule.name),
    h("dd", { class: marked(rule), "data-field": rule.field }, rule.value,
      rule.explanation ? h("small", {}, rule.explanation) : null),
  ]));
  $("rules-roles").replaceChildren(...words.roles.map((title) => h("li", {}, title)));
}

function renderChat() {
  $("chat-lines").replaceChildren(...state.chat.slice(-50).map((line) =>
    h("li", {}, label("chat_line", { name: line.name, text: state.text.chatText(line.text) }))));
}

main();
