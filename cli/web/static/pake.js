// The join handshake's client half and the sealed channel, as net/pake.py and
// net/channel.py (read them for the why): RFC 9382 SPAKE2 (P-256, SHA-256, HKDF, HMAC)
// with the host's key mixed in, then AES-256-GCM records. Every primitive is the
// vendored noble libraries' (vendor.js, tools/vendor_js.py): a page served over plain
// http has no crypto.subtle. Only the composition is ours.

import {
  bytesToHex, bytesToNumberBE, concatBytes, equalBytes, gcm, hkdf, hmac,
  numberToBytesBE, p256, randomBytes, sha256,
} from "./vendor.js";

const Point = p256.Point;
const ORDER = Point.Fn.ORDER;
const utf8 = (text) => new TextEncoder().encode(text);

export const PIN = utf8("president v7 pin");
export const SEAT = utf8("president v7 seat");
// RFC 9382 §6, for P-256.
export const M = Point.fromHex("02886e2f97ace46e55ba9dd7242579f2993b64e16ef3dcab95afd497333d8fa12f");
export const N = Point.fromHex("03d8bbd6c639c62937b04d997f38c3770719c629d7014d49a24b4f98baa1292b49");
const POINT_SIZE = 65;
const FINGERPRINT_CHARS = 16;

export class HandshakeError extends Error {}

// A peer's point: uncompressed, on the curve, not the identity (RFC 9382 §7).
export function decodePoint(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length !== POINT_SIZE || bytes[0] !== 4) {
    throw new HandshakeError("bad_field");
  }
  try {
    const point = Point.fromBytes(bytes);
    point.assertValidity();
    return point;
  } catch {
    throw new HandshakeError("bad_field");
  }
}

export const encodePoint = (point) => point.toBytes(false);

export function passwordScalar(password, context) {
  return bytesToNumberBE(hkdf(sha256, utf8(password || ""), undefined, context, 40)) % ORDER;
}

function randomScalar() {
  return (bytesToNumberBE(randomBytes(40)) % (ORDER - 1n)) + 1n;
}

const length8 = (bytes) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(bytes.length), true);
  return out;
};

// TT of RFC 9382 §4: each part after its 8-byte little-endian length.
export function transcript(a, b, pa, pb, k, w) {
  return concatBytes(...[a, b, pa, pb, k, numberToBytesBE(w, 32)]
    .flatMap((part) => [length8(part), part]));
}

// The key schedule of RFC 9382 §4: Ke, Ka, KcA, KcB and the confirmations cA, cB.
export function schedule(tt, aad = new Uint8Array(0)) {
  const digest = sha256(tt);
  const ke = digest.slice(0, 16);
  const ka = digest.slice(16);
  const confirmation = hkdf(sha256, ka, undefined, concatBytes(utf8("ConfirmationKeys"), aad), 32);
  const kca = confirmation.slice(0, 16);
  const kcb = confirmation.slice(16);
  return { tt, ke, ka, kca, kcb, ca: hmac(sha256, kca, tt), cb: hmac(sha256, kcb, tt) };
}

// scalar·G + w·mask (pA with M, pB with N).
export function share(scalar, w, mask) {
  const masked = Point.BASE.multiply(scalar);
  return w === 0n ? masked : masked.add(mask.multiply(w));
}

// The hello's identity in the transcript (RFC 9382's A): every field but the share,
// as net/protocol.py's Hello.identity.
export function helloIdentity({ version, name, language, seatHint = null, spectate = false,
  table = null, knock = false }) {
  const parts = ["president hello", String(version), name, language, seatHint || "",
    spectate ? "1" : "0", table || "", knock ? "1" : "0"].map(utf8);
  return concatBytes(...parts.flatMap((part) => [length8(part), part]));
}

export function tokenHint(token) {
  return bytesToHex(sha256(concatBytes(utf8("president token hint\0"), utf8(token)))).slice(0, 16);
}

// The host key's full fingerprint (hex), and what people read aloud (64 bits).
export function fingerprint(publicKey) {
  return bytesToHex(sha256(concatBytes(utf8("president host key\0"), publicKey)));
}

export function shortFingerprint(full) {
  const short = full.slice(0, FINGERPRINT_CHARS).toUpperCase();
  return short.match(/.{4}/g).join("-");
}

// Whether an offered full fingerprint is the expected one (in full, or its short form).
export function fingerprintMatches(expected, offered) {
  const wanted = expected.replace(/-/g, "").toLowerCase();
  return wanted.length >= FINGERPRINT_CHARS
    && equalBytes(utf8(offered.slice(0, wanted.length)), utf8(wanted));
}

// ---------------------------------------------------------------- the client's half

// password: the PIN, or the token of the seat we come back to (context SEAT).
export class ClientHandshake {
  constructor(password, identity, context = PIN, scalar = randomScalar()) {
    this.identity = identity;
    this.context = context;
    this.x = scalar;
    this.w = passwordScalar(password, context);
    this.share = encodePoint(share(this.x, this.w, M));
    this.schedule = null;
    this.keys = null;
  }

  // Our proof of the password (cA), answering the host's challenge {key, share}.
  answer(hostKey, hostShare) {
    const host = decodePoint(hostKey);
    const unmasked = this.w === 0n ? decodePoint(hostShare)
      : decodePoint(hostShare).subtract(N.multiply(this.w));
    if (unmasked.equals(Point.ZERO)) throw new HandshakeError("bad_field");
    const k = unmasked.multiply(this.x);
    const d = numberToBytesBE(host.multiply(this.x).toAffine().x, 32);
    const tt = transcript(this.identity, hostKey, this.share, hostShare, encodePoint(k), this.w);
    this.schedule = schedule(tt, concatBytes(this.context, d));
    const okm = hkdf(sha256, this.schedule.ke, d, utf8("president v7 channel"), 64);
    this.keys = { clientToHost: okm.slice(0, 32), hostToClient: okm.slice(32) };
    return this.schedule.ca;
  }

  // Whether the host's confirm (cB) shows it knew the password and holds its key.
  hostProved(proof) {
    return this.schedule !== null && proof instanceof Uint8Array
      && equalBytes(proof, this.schedule.cb);
  }
}

// ---------------------------------------------------------------- the channel's records

const TAG = 16;
export const HOST_RECORD = 256 * 1024 + 4;
export const CLIENT_RECORD = 16 * 1024;

const nonce = (number) => numberToBytesBE(BigInt(number), 12);

export class Sealer {
  constructor(key, limit = CLIENT_RECORD) { Object.assign(this, { key, limit, number: 0 }); }

  seal(data) {
    const out = [];
    for (let start = 0; start < data.length; start += this.limit) {
      const piece = data.subarray(start, start + this.limit);
      const header = new Uint8Array(4);
      new DataView(header.buffer).setUint32(0, piece.length + TAG);
      out.push(header, gcm(this.key, nonce(this.number), header).encrypt(piece));
      this.number += 1;
    }
    return concatBytes(...out);
  }
}

export class Opener {
  constructor(key, limit = HOST_RECORD) {
    Object.assign(this, { key, limit: limit + TAG, number: 0, buffer: new Uint8Array(0),
      dead: false });
  }

  push(bytes) { this.buffer = concatBytes(this.buffer, bytes); }

  // The plaintext of every record completed so far; a bad record throws (for good).
  open(bytes) {
    if (this.dead) throw new HandshakeError("bad_record");
    this.push(bytes);
    const out = [];
    let at = 0;
    while (this.buffer.length - at >= 4) {
      const size = new DataView(this.buffer.buffer, this.buffer.byteOffset + at, 4).getUint32(0);
      if (size <= TAG || size > this.limit) return this.die();
      if (this.buffer.length - at - 4 < size) break;
      const header = this.buffer.slice(at, at + 4);
      const sealed = this.buffer.slice(at + 4, at + 4 + size);
      try {
        out.push(gcm(this.key, nonce(this.number), header).decrypt(sealed));
      } catch {
        return this.die();
      }
      this.number += 1;
      at += 4 + size;
    }
    this.buffer = this.buffer.slice(at);
    return concatBytes(...out);
  }

  die() {
    this.dead = true;
    this.buffer = new Uint8Array(0);
    throw new HandshakeError("bad_record");
  }
}
