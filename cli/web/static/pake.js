// The join handshake's client half, as net/pake.py (read it for the why): SPAKE2 over the
// RFC 3526 2048-bit group with the host's key mixed in. The PIN and the seat token are
// never sent. SHA-256 and HMAC are written out here: a page served over plain http on
// the LAN is no "secure context", so the browser's crypto.subtle is not there
// (crypto.getRandomValues is).

const P = BigInt("0x" +
  "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74" +
  "020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437" +
  "4FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED" +
  "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF05" +
  "98DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB" +
  "9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B" +
  "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183" +
  "995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF");
const G = 2n;
const SIZE = 256;
const utf8 = (text) => new TextEncoder().encode(text);

// ---------------------------------------------------------------- SHA-256, HMAC

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

export function sha256(data) {
  const length = data.length;
  const padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length << 3) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g))
        + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => { h[i] = (h[i] + v) >>> 0; });
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((v, i) => outView.setUint32(4 * i, v));
  return out;
}

const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
};

// net/pake.py's _sha256: each part prefixed with its 4-byte length.
function hashParts(...parts) {
  return sha256(concat(...parts.flatMap((part) => {
    const size = new Uint8Array(4);
    new DataView(size.buffer).setUint32(0, part.length);
    return [size, part];
  })));
}

export function hmac(key, message) {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = block.map((b) => b ^ 0x36);
  const outer = block.map((b) => b ^ 0x5c);
  return sha256(concat(outer, sha256(concat(inner, message))));
}

// ---------------------------------------------------------------- numbers

const toInt = (bytes) => bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);

function toBytes(value, size = SIZE) {
  const out = new Uint8Array(size);
  for (let i = size - 1; i >= 0; i--) { out[i] = Number(value & 0xffn); value >>= 8n; }
  return out;
}

function power(base, exponent) {
  let result = 1n;
  base %= P;
  while (exponent > 0n) {
    if (exponent & 1n) result = (result * base) % P;
    base = (base * base) % P;
    exponent >>= 1n;
  }
  return result;
}

function inverse(value) {
  let [a, b, x0, x1] = [value % P, P, 1n, 0n];
  while (b !== 0n) {
    const q = a / b;
    [a, b] = [b, a - q * b];
    [x0, x1] = [x1, x0 - q * x1];
  }
  return ((x0 % P) + P) % P;
}

function element(label) {
  const stream = [];
  for (let i = 0; i < 9; i++) stream.push(hashParts(utf8(label), new Uint8Array([i])));
  return power(toInt(concat(...stream)) % P, 2n);
}

function secretExponent() {
  const random = crypto.getRandomValues(new Uint8Array(32));
  random[0] &= 0x7f;                              // 255 bits
  return 2n * toInt(random) + 2n;
}

const M = element("president pake M");
const N = element("president pake N");

export function pinScalar(password) {
  return toInt(hashParts(utf8("president pin"), utf8(password || "")));
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

export function tokenHint(token) {
  return hex(hashParts(utf8("president token hint"), utf8(token))).slice(0, 16);
}

function validElement(bytes) {
  const value = toInt(bytes);
  if (bytes.length !== SIZE || value <= 1n || value >= P - 1n) throw new Error("bad_field");
  return value;
}

// ---------------------------------------------------------------- the client's half

// password: the PIN, or the token of the seat we come back to.
export class ClientHandshake {
  constructor(password, exponent = secretExponent()) {
    this.w = pinScalar(password);
    this.a = exponent;
    this.share = toBytes((power(G, this.a) * power(M, this.w)) % P);
    this.key = null;
  }

  // Our proof of the PIN, answering the host's challenge {key, share}.
  answer(hostKey, hostShare) {
    const s = validElement(hostShare);
    const x = validElement(hostKey);
    const k1 = power((s * inverse(power(N, this.w))) % P, this.a);
    const k2 = power(x, this.a);
    this.key = hashParts(utf8("president pake v1"), this.share, hostShare, hostKey,
      toBytes(k1), toBytes(k2), toBytes(this.w, 32));
    return hmac(this.key, utf8("client"));
  }

  hostProved(proof) {
    if (this.key === null || !(proof instanceof Uint8Array) || proof.length !== 32) return false;
    const expected = hmac(this.key, utf8("host"));
    return expected.every((b, i) => b === proof[i]);
  }
}
