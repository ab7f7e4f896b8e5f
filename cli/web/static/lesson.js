// Learn to play on the page (issue 28): the terminal's lesson (cli/lesson.py), stepped by
// the host (POST /lesson/<language>.json, cli/web/lesson.py), which keeps nothing: each
// request sends the player's moves so far and gets back what the last one made (the
// move, then each bot's, each with the view after it), the step's line and the table's
// words. A LessonSession stands where the page expects a Session (session.js): the same
// listener kinds (joined, join_failed, view, event, status) and request(kind, arg).

export const BOT_DELAY = 700;   // ms between the bots' plays, so the player can follow them

// The page's requests as the lesson's moves (the host adds the seat).
const MOVES = {
  play: (cards, declared) => (declared ? { type: "play", cards, declared } : { type: "play", cards }),
  pass: () => ({ type: "pass" }),
  give_back: (cards) => ({ type: "give_back", cards }),
  give: (cards) => ({ type: "give", cards }),
  discard: (cards) => ({ type: "discard", cards }),
  ready: () => ({ type: "ready" }),
};

export class LessonSession {
  // moves: the player's moves so far (a lesson taken up again after a reload)
  constructor({ name, language, listener, moves = [], delay = BOT_DELAY, post = null }) {
    Object.assign(this, { name, language, listener, delay });
    this.post = post || ((url, body) => fetch(url, { method: "POST", body, cache: "no-cache" })
      .then((answer) => (answer.ok ? answer.json() : null)).catch(() => null));
    this.status = "new";
    this.seat = 0;
    this.moves = [...moves];
    this.line = "";
    this.step = 0;
    this.words = null;
    this.queue = [];
    this.timer = null;
  }

  get final() { return this.status === "closed"; }

  async connect() {
    this.setStatus("connecting");
    const answer = await this.ask(this.moves);
    if (!answer) {
      this.setStatus("closed");
      this.emit("join_failed", { code: "disconnected", params: {}, final: true });
      return;
    }
    this.take(answer);
    this.setStatus("connected");
    this.emit("joined", { seat: 0, token: null, table: answer.table, hostKey: null });
    this.play(answer.frames);
  }

  // A move of the player: {code: null} when the lesson took it, else its reason.
  async request(kind, arg, declared) {
    if (this.status !== "connected") return { code: "not_connected", params: {} };
    const move = MOVES[kind]?.(arg, declared);
    if (!move) return { code: kind === "hint" ? "hints_off" : "refused", params: {} };
    const answer = await this.ask([...this.moves, move]);
    if (!answer) return { code: "disconnected", params: {} };
    if (answer.refused) return answer.refused;
    this.moves.push(move);
    this.take(answer);
    this.play(answer.frames);
    return { code: null, params: {} };
  }

  // The line and the words in another language (the moves are not played again).
  async setLanguage(language) {
    this.language = language;
    if (this.status !== "connected") return;
    const answer = await this.ask(this.moves, false);
    if (answer && language === this.language) this.take(answer);
  }

  chat() { return false; }

  leave() { this.close(); }

  close() {
    this.setStatus("closed");
    this.stop();
  }

  stop() {
    clearTimeout(this.timer);
    this.queue = [];
  }

  ask(moves, frames = true) {
    const body = JSON.stringify({ name: this.name, moves, frames });
    return this.post(`/lesson/${this.language}.json`, body);
  }

  take(answer) {
    Object.assign(this, { line: answer.line, step: answer.step, words: answer.words,
      table: answer.table });
  }

  // The frames one by one: the player's own at once, each bot's play after a pause.
  play(frames) {
    this.queue.push(...frames.map((frame, i) => ({ frame, wait: i > 0 && frame.view.phase === "play" })));
    if (this.timer === null) this.next();
  }

  next() {
    this.timer = null;
    while (this.queue.length) {
      const { frame, wait } = this.queue[0];
      if (wait && this.delay) {
        this.queue[0].wait = false;
        this.timer = setTimeout(() => this.next(), this.delay);
        return;
      }
      this.queue.shift();
      for (const event of frame.events) this.emit("event", { ...event, by: "" });
      this.emit("view", frame.view);
    }
  }

  setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.emit("status", status);
  }

  emit(kind, payload) { this.listener(kind, payload); }
}
