// One player's session with the table over a WebSocket, as net/session.py is for the
// terminal: the handshake (pake.js: the PIN and the seat token are proved, never sent;
// the host's confirm proves it knew them and holds its key, then everything both ways is
// sealed, the welcome and its token included), sequence numbers and
// snapshot requests after a gap, request ids and their replies, heartbeats, coming
// back after a drop (backoff from 0.1 s doubling to 5 s) and the final refusals.
// One guess per typed PIN (net/session.py's pin_spent): once a handshake offered the PIN
// and no host confirmed it, the session stops (pin_again) until the person types it again;
// the host key the page's address names (#key=...) is checked before anything is proved.

import {
  ClientHandshake, HandshakeError, HOST_RECORD, Opener, PIN, SEAT, Sealer, fingerprint,
  fingerprintMatches, helloIdentity, shortFingerprint, tokenHint,
} from "./pake.js";
import { FrameDecoder, MAX_FRAME, PROTOCOL_VERSION, WireError, frame, messages } from "./wire.js";

export const FINAL_REFUSALS = new Set(["bad_token", "wrong_pin", "table_full", "table_closed",
  "bad_version", "no_such_table", "session_over", "host_unproved", "no_pin", "pin_again",
  "host_key_changed"]);
export const FINAL_BYES = new Set(["session_over", "left", "host_stopping", "table_closed", "replaced"]);

const PING_EVERY = 5000;     // ms
const SILENCE_LIMIT = 20000; // ms without a frame: the connection is dead
const BACKOFF_FIRST = 100;
const BACKOFF_MAX = 5000;

export class Session {
  // listener(kind, payload): joined, join_failed, table, view, event, chat, closed, status
  // hostKey: the fingerprint expected (full, or the short one of the page's #key=...)
  constructor({ name, language, pin = null, spectate = false, token = null, table = null,
                hostKey = null, url, listener }) {
    Object.assign(this, { name, language, pin, spectate, token, tableId: table, hostKey, url,
      listener });
    this.pinTried = false;      // a handshake offered the typed PIN
    this.pinConfirmed = false;  // ... and a host confirmed it
    this.status = "new";
    this.seat = null;
    this.table = null;
    this.view = null;
    this.lastSeq = 0;
    this.resyncing = false;
    this.pending = new Map();   // request id -> resolve
    this.nextId = 1;
    this.ws = null;
    this.backoff = BACKOFF_FIRST;
    this.timer = null;
    this.heartbeat = null;
    this.lastHeard = 0;
    this.nonce = 0;
    this.onVisible = () => {
      if (document.visibilityState === "visible" && this.status === "reconnecting") this.reconnectNow();
    };
    document.addEventListener("visibilitychange", this.onVisible);
  }

  get final() { return this.status === "closed"; }

  get pinSpent() {
    return !this.token && Boolean(this.pin) && this.pinTried && !this.pinConfirmed;
  }

  connect() {
    if (this.final) return;
    clearTimeout(this.timer);
    if (this.pinSpent) return this.fail("pin_again", {});
    if (this.status !== "reconnecting") this.setStatus("connecting");
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    this.decoder = new FrameDecoder(MAX_FRAME, "confirm");
    this.opener = null;
    this.sealer = null;
    this.lastSeq = 0;
    this.resyncing = false;
    this.view = null;           // a new connection starts from its snapshot
    ws.onopen = () => {
      this.lastHeard = Date.now();
      const fields = { version: PROTOCOL_VERSION, name: this.name, language: this.language,
        seatHint: this.token ? tokenHint(this.token) : null, spectate: this.spectate,
        table: this.tableId };
      // a return: the token is the password
      this.pake = new ClientHandshake(this.token || this.pin, helloIdentity(fields),
        this.token ? SEAT : PIN);
      if (!this.token && this.pin) this.pinTried = true;
      this.send(messages.hello({ ...fields, share: this.pake.share }));
      this.heartbeat = setInterval(() => this.beat(), PING_EVERY);
    };
    ws.onmessage = (message) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let data = new Uint8Array(message.data);
      try {
        for (;;) {   // a feed stops at the host's confirm: the rest is sealed
          if (this.opener !== null) data = this.opener.open(data);
          const received = this.decoder.feed(data);
          data = new Uint8Array(0);
          if (received.length === 0 || ws !== this.ws) break;
          for (const msg of received) this.handle(msg);
        }
      } catch (error) {
        if (!(error instanceof WireError) && !(error instanceof HandshakeError)) throw error;
        ws.close();   // a broken stream (or a record that does not open): drop it, come back
      }
    };
    ws.onclose = () => { if (ws === this.ws) this.lost(); };
  }

  beat() {
    if (Date.now() - this.lastHeard > SILENCE_LIMIT) {
      this.ws?.close();
      this.lost();
      return;
    }
    if (this.sealer === null) return;   // the host waits for nothing but the proof
    this.nonce = (this.nonce + 1) % 2 ** 32;
    this.send(messages.ping(this.nonce));
  }

  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) {
      const bytes = frame(message);
      this.ws.send(this.sealer === null ? bytes : this.sealer.seal(bytes));
      return true;
    }
    return false;
  }

  // An action (play, pass, give_back, give, discard, ready, decree, start, hint; the owner's
  // end_session, play_again, play_duplicate, seat_answer with arg {seat, give}; a play's
  // ``extra``: what its wild jokers stand for): resolves to the reply,
  // {code: null} when accepted, else the host's (or our) reason code and params.
  request(kind, arg, extra) {
    if (this.status !== "connected") return Promise.resolve({ code: "not_connected", params: {} });
    const id = this.nextId++;
    const build = { play: messages.play, pass: messages.pass, give_back: messages.giveBack,
      give: messages.give, discard: messages.discard, ready: messages.ready,
      decree: messages.decree, start: messages.start, hint: messages.hint,
      end_session: messages.endSession, play_again: messages.playAgain,
      play_duplicate: messages.playDuplicate, seat_answer: messages.seatAnswer }[kind];
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      if (!this.send(build(id, arg, extra))) this.reply(id, "disconnected", {});
    });
  }

  chat(text) { return this.send(messages.chat(text)); }

  leave() {
    this.send(messages.leave());
    this.setStatus("closed");
  }

  close() {
    this.setStatus("closed");
    this.stop();
  }

  stop() {
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    document.removeEventListener("visibilitychange", this.onVisible);
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }

  // ------------------------------------------------------------ receiving

  handle(msg) {
    if (this.status === "connecting" || this.status === "reconnecting") return this.handshake(msg);
    switch (msg.type) {
      case "state":
        this.lastSeq = msg.seq;
        this.resyncing = false;
        this.view = msg.view;
        return this.emit("view", msg.view);
      case "view_delta":
        // What changed in the view we have; after a gap, in one we missed: wait for the
        // snapshot asked for.
        if (!this.inSequence(msg.seq) || this.resyncing || this.view === null) return undefined;
        this.view = { ...this.view, ...msg.view };
        return this.emit("view", this.view);
      case "event":
        this.inSequence(msg.seq);
        return this.emit("event", { ...msg.event, by: msg.by });
      case "accepted": return this.reply(msg.id, null, {});
      case "hint": return this.reply(msg.id, null, { hints: msg.hints });
      case "refused":
        if (msg.id === null) return this.emit("refused", { code: msg.code, params: msg.params });
        return this.reply(msg.id, msg.code, msg.params);
      case "table":
        this.table = msg.table;
        return this.emit("table", msg.table);
      case "chat": return this.emit("chat", { seat: msg.seat, name: msg.name, text: msg.text });
      case "ping": return this.send(messages.pong(msg.nonce));
      case "bye": {
        const final = FINAL_BYES.has(msg.code);
        if (final) this.setStatus("closed");
        this.failPending("disconnected");
        return this.emit("closed", { code: msg.code, params: msg.params, final });
      }
      default: return undefined;   // pong
    }
  }

  // Whether seq follows the last frame's; after a gap, ask for a snapshot (once until it comes).
  inSequence(seq) {
    const gap = seq !== this.lastSeq + 1;
    this.lastSeq = seq;
    if (gap && !this.resyncing) {
      this.resyncing = true;
      this.send(messages.snapshotRequest());
    }
    return !gap;
  }

  handshake(msg) {
    if (msg.type === "challenge" && this.pake.keys === null) {
      const offered = fingerprint(msg.key);
      if (this.hostKey && !fingerprintMatches(this.hostKey, offered)) {   // before any proof
        return this.fail("host_key_changed", { expected: shortFingerprint(
          this.hostKey.replace(/-/g, "").toLowerCase()), got: shortFingerprint(offered) });
      }
      this.hostKey = offered;
      let proof;
      try { proof = this.pake.answer(msg.key, msg.share); }
      catch { this.ws?.close(); return undefined; }   // not a host's answer: come back
      return this.send(messages.proof(proof));
    }
    if (msg.type === "confirm" && this.sealer === null) {
      if (!this.pake.hostProved(msg.proof)) return this.unproved();
      const { clientToHost, hostToClient } = this.pake.keys;
      if (!this.token) this.pinConfirmed = true;   // the PIN is right, the key now pinned
      this.opener = new Opener(hostToClient, HOST_RECORD);
      this.opener.push(this.decoder.rest());
      this.decoder.last = null;
      this.sealer = new Sealer(clientToHost);
      return undefined;
    }
    if (msg.type === "welcome" && this.sealer === null) return this.unproved();  // in clear
    if (msg.type === "welcome") {
      this.seat = msg.seat;
      this.token = msg.token;
      this.table = msg.table;
      this.backoff = BACKOFF_FIRST;
      this.setStatus("connected");
      return this.emit("joined", { seat: msg.seat, token: msg.token, table: msg.table,
        hostKey: shortFingerprint(this.hostKey) });
    }
    if (msg.type === "refused") {
      const final = FINAL_REFUSALS.has(msg.code);
      if (final) this.setStatus("closed");
      return this.emit("join_failed", { code: msg.code, params: msg.params, final });
    }
    return undefined;
  }

  unproved() { return this.fail("host_unproved", {}); }

  // Stop for good, and say why.
  fail(code, params) {
    this.setStatus("closed");
    this.stop();
    return this.emit("join_failed", { code, params, final: true });
  }

  lost() {
    clearInterval(this.heartbeat);
    this.ws = null;
    this.failPending("disconnected");
    if (this.final) return this.stop();
    if (this.status !== "new") this.setStatus("reconnecting");
    this.timer = setTimeout(() => this.connect(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, BACKOFF_MAX);
    return undefined;
  }

  reconnectNow() {
    if (this.ws !== null || this.final) return;
    this.backoff = BACKOFF_FIRST;
    this.connect();
  }

  reply(id, code, params) {
    const resolve = this.pending.get(id);
    if (resolve === undefined) return;
    this.pending.delete(id);
    resolve({ code, params });
  }

  failPending(code) {
    for (const id of [...this.pending.keys()]) this.reply(id, code, {});
  }

  setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.emit("status", status);
  }

  emit(kind, payload) { this.listener(kind, payload); }
}
