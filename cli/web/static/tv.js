// The TV view: what the host says of the table (/tv.json, every word made by the
// terminal's Text), laid out for a screen across the room. Nothing to tap: it asks again
// every POLL_MS, and after the host restarts it simply finds it again.

const POLL_MS = 700;
const BANNER_MS = 3500;
const BANNER_EVENTS = new Set(["revolution", "cut", "back", "lock", "reverse"]);
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const tv = { data: null, turnKey: "", turnSince: 0, lastEvent: null, bannerTimer: 0 };

function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") element.className = value;
    else element.setAttribute(key, value === true ? "" : value);
  }
  element.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false && c !== ""));
  return element;
}

async function poll() {
  try {
    const query = new URLSearchParams();
    if (params.get("lang")) query.set("lang", params.get("lang"));
    if (params.get("table")) query.set("table", params.get("table"));
    const response = await fetch(`/tv.json?${query}`, { cache: "no-store" });
    if (!response.ok) throw new Error(String(response.status));
    show(await response.json());
    $("tv-offline").hidden = true;
  } catch {
    $("tv-offline").textContent = tv.data?.labels?.reconnecting || "…";
    $("tv-offline").hidden = false;
  }
  setTimeout(poll, POLL_MS);
}

function show(data) {
  document.documentElement.lang = data.language;
  if (data.locked) {
    $("tv-heading").textContent = data.locked;
    return;
  }
  const first = tv.data === null;
  tv.data = data;
  if (data.turn_key !== tv.turnKey) { tv.turnKey = data.turn_key; tv.turnSince = Date.now(); }
  $("tv-heading").textContent = data.heading;
  $("tv-order").textContent = data.order;
  $("tv-order").hidden = !data.order;
  $("tv-waiting").textContent = data.waiting;
  $("tv-waiting").hidden = !data.waiting;
  renderSeats();
  renderPile();
  renderSummary();
  $("tv-log").replaceChildren(...data.log.map((line) => h("li", {}, line.text)));
  $("tv-scan").textContent = data.labels.scan;
  $("tv-url").textContent = data.join_url;
  if ($("tv-qr").getAttribute("src") !== data.qr) $("tv-qr").setAttribute("src", data.qr);
  $("tv-rules-title").textContent = data.labels.rules;
  $("tv-rules").classList.toggle("many", data.rules.length > 14);
  $("tv-rules").replaceChildren(...data.rules.flatMap(([name, value]) => [h("dt", {}, name), h("dd", {}, value)]));
  const newest = data.log.at(-1)?.n ?? 0;
  const fresh = data.log.filter((line) => line.n > (tv.lastEvent ?? newest) && BANNER_EVENTS.has(line.type));
  if (data.summary) $("tv-banner").hidden = true;   // between hands: the standings
  else if (!first && fresh.length) banner(fresh.at(-1));
  tv.lastEvent = newest;
}

function secondsLeft() {
  const limit = tv.data?.turn_timer;
  if (!limit || tv.data.turn === null) return null;
  return Math.max(0, Math.ceil(limit - (Date.now() - tv.turnSince) / 1000));
}

function renderSeats() {
  const data = tv.data;
  const left = secondsLeft();
  const count = data.seats.length;
  $("tv-seats").style.setProperty("--columns", String(count <= 5 ? count : Math.ceil(count / 2)));
  $("tv-seats").replaceChildren(...data.seats.map((seat) => h("li", { class: seat.turn ? "turn" : null },
    h("span", { class: "name" }, seat.turn ? `▶ ${seat.name}` : seat.name),
    h("span", { class: "title" }, seat.title),
    h("span", { class: "count" }, seat.count),
    h("span", { class: "score" }, seat.score),
    h("span", { class: "state" }, [seat.state, seat.note].filter(Boolean).join(" ")),
    seat.turn && left !== null ? h("span", { class: "timer" },
      h("span", { class: "bar", "data-left": String(left) }), h("span", { class: "seconds" }, `${left} s`)) : null)));
  for (const bar of document.querySelectorAll("#tv-seats .bar")) {
    bar.style.width = `${Math.round((100 * Number(bar.dataset.left)) / data.turn_timer)}%`;
  }
}

function card(c) {
  const kind = c.suit === null ? "joker" : c.suit === "H" || c.suit === "D" ? "red" : "black";
  return h("span", { class: `card ${kind}`, title: c.name },
    h("span", { class: "rank" }, c.rank), h("span", { class: "suit" }, c.suit === null ? "★" : SUITS[c.suit]));
}

function renderPile() {
  const data = tv.data;
  const between = Boolean(data.summary);
  $("tv-pile").hidden = between || data.waiting !== "";
  const plays = data.pile.map((play, i) => h("div", { class: i === data.pile.length - 1 ? "play top" : "play" },
    h("span", { class: "who" }, play.name), h("span", { class: "cards" }, play.cards.map(card)),
    play.declared ? h("span", { class: "declared" }, play.declared) : null));
  $("tv-pile").replaceChildren(...[h("span", { class: "label" }, data.labels.pile),
    ...(plays.length ? plays : [h("span", { class: "dim" }, data.labels.empty)]),
    data.lock ? h("span", { class: "lock" }, data.lock) : null,
    data.decree ? h("p", { class: "decree" }, `${data.labels.decree} ${data.decree}`) : null,
  ].filter(Boolean));
}

function renderSummary() {
  const summary = tv.data.summary;
  $("tv-summary").hidden = !summary;
  if (!summary) return;
  $("tv-summary").replaceChildren(...[h("h2", {}, summary.heading),
    h("ol", {}, summary.rows.map(([, line]) => h("li", {}, line))),
    summary.notes.length ? h("ul", {}, summary.notes.map((note) => h("li", {}, note))) : null,
  ].filter(Boolean));
}

function banner(line) {
  const box = $("tv-banner");
  box.textContent = line.text;
  box.className = `banner-${line.type}`;
  box.hidden = false;
  clearTimeout(tv.bannerTimer);
  tv.bannerTimer = setTimeout(() => { box.hidden = true; }, BANNER_MS);
}

setInterval(() => { if (tv.data && !tv.data.locked && tv.data.turn !== null) renderSeats(); }, 1000);
poll();
