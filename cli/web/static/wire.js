// Frames of the table protocol (rules-docs/protocol.md), sans-I/O like net/protocol.py:
// a 4-byte big-endian length, then that many bytes of one msgpack map whose "type"
// names the message (msgpack: the vendored @msgpack/msgpack). The WebSocket carries the
// same bytes as the TCP port: in clear up to the host's "confirm", then inside the
// sealed channel's records (pake.js).

import { decode, encode } from "./vendor.js";

export const PROTOCOL_VERSION = 7;
export const MAX_FRAME = 256 * 1024;        // what the host may send
export const MAX_CLIENT_FRAME = 8 * 1024;   // what the host reads

export class WireError extends Error {
  constructor(code) { super(code); this.code = code; }
}

export function frame(message) {
  const body = encode(message);
  if (body.length > MAX_CLIENT_FRAME) throw new WireError("frame_too_large");
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, body.length);
  out.set(body, 4);
  return out;
}

// Fed bytes; returns the complete messages so far. A frame of type ``last`` ends a feed:
// what follows it (the channel's records) waits in ``rest()``.
export class FrameDecoder {
  constructor(maxFrame = MAX_FRAME, last = null) {
    this.maxFrame = maxFrame;
    this.last = last;
    this.buffer = new Uint8Array(0);
  }

  feed(bytes) {
    const joined = new Uint8Array(this.buffer.length + bytes.length);
    joined.set(this.buffer);
    joined.set(bytes, this.buffer.length);
    const messages = [];
    let at = 0;
    while (joined.length - at >= 4) {
      const size = new DataView(joined.buffer, at, 4).getUint32(0);
      // the limit is checked on the header alone, as the host does
      if (size > this.maxFrame) throw new WireError("frame_too_large");
      if (size === 0) throw new WireError("empty_frame");
      if (joined.length - at - 4 < size) break;
      let message;
      try { message = decode(joined.subarray(at + 4, at + 4 + size)); }
      catch { throw new WireError("bad_msgpack"); }
      if (message === null || typeof message !== "object" || Array.isArray(message)
          || typeof message.type !== "string") throw new WireError("not_a_map");
      messages.push(message);
      at += 4 + size;
      if (message.type === this.last) break;
    }
    this.buffer = joined.slice(at);
    return messages;
  }

  // The bytes after the last frame returned (then none).
  rest() {
    const rest = this.buffer;
    this.buffer = new Uint8Array(0);
    return rest;
  }
}

// The client's messages (each field the protocol asks for, no other).
export const messages = {
  hello: ({ name, language, share, seatHint = null, spectate = false, table = null,
    knock = false }) =>
    ({ type: "hello", version: PROTOCOL_VERSION, name, language, share, seat_hint: seatHint,
      spectate, table, knock }),
  proof: (proof) => ({ type: "proof", proof }),
  play: (id, cards, declared = "") => ({ type: "play", id, cards, declared }),
  pass: (id) => ({ type: "pass", id }),
  giveBack: (id, cards) => ({ type: "give_back", id, cards }),
  give: (id, cards) => ({ type: "give", id, cards }),
  discard: (id, cards) => ({ type: "discard", id, cards }),
  ready: (id) => ({ type: "ready", id }),
  decree: (id, text) => ({ type: "decree", id, text }),
  start: (id) => ({ type: "start", id }),
  hint: (id) => ({ type: "hint_request", id }),
  endSession: (id) => ({ type: "end_session", id }),
  playAgain: (id) => ({ type: "play_again", id }),
  playDuplicate: (id) => ({ type: "play_duplicate", id }),
  seatAnswer: (id, { seat, give }) => ({ type: "seat_answer", id, seat, give }),
  chat: (text) => ({ type: "chat", text }),
  snapshotRequest: () => ({ type: "snapshot_request" }),
  leave: () => ({ type: "leave" }),
  ping: (nonce) => ({ type: "ping", nonce }),
  pong: (nonce) => ({ type: "pong", nonce }),
};
