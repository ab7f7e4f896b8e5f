// A small msgpack encoder and decoder: what the table protocol uses (maps with string
// keys, arrays, strings, integers, floats, booleans, nil, binary). Extension types are
// refused, as the protocol says (rules-docs/protocol.md).

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

export class MsgpackError extends Error {}

export function encode(value) {
  const out = new Writer();
  write(out, value);
  return out.bytes();
}

class Writer {
  constructor() {
    this.buffer = new Uint8Array(256);
    this.view = new DataView(this.buffer.buffer);
    this.length = 0;
  }
  room(n) {
    if (this.length + n <= this.buffer.length) return;
    const bigger = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
    bigger.set(this.buffer.subarray(0, this.length));
    this.buffer = bigger;
    this.view = new DataView(bigger.buffer);
  }
  byte(b) { this.room(1); this.buffer[this.length++] = b; }
  uint(size, n) {
    this.room(size);
    const at = this.length;
    if (size === 1) this.view.setUint8(at, n);
    else if (size === 2) this.view.setUint16(at, n);
    else if (size === 4) this.view.setUint32(at, n);
    else { this.view.setUint32(at, Math.floor(n / 2 ** 32)); this.view.setUint32(at + 4, n >>> 0); }
    this.length += size;
  }
  raw(bytes) { this.room(bytes.length); this.buffer.set(bytes, this.length); this.length += bytes.length; }
  bytes() { return this.buffer.slice(0, this.length); }
}

function write(out, value) {
  if (value === null || value === undefined) out.byte(0xc0);
  else if (value === false) out.byte(0xc2);
  else if (value === true) out.byte(0xc3);
  else if (typeof value === "number") writeNumber(out, value);
  else if (typeof value === "string") writeString(out, value);
  else if (value instanceof Uint8Array) { header(out, value.length, null, 0xc4, 0xc5, 0xc6); out.raw(value); }
  else if (Array.isArray(value)) {
    header(out, value.length, 0x90, 0xdc, 0xdc, 0xdd);
    for (const item of value) write(out, item);
  } else if (typeof value === "object") {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined);
    header(out, keys.length, 0x80, 0xde, 0xde, 0xdf);
    for (const key of keys) { writeString(out, key); write(out, value[key]); }
  } else throw new MsgpackError(`cannot encode ${typeof value}`);
}

// fix (null: none), 8-bit, 16-bit and 32-bit length headers
function header(out, n, fix, code8, code16, code32) {
  if (fix !== null && n < (fix === 0xa0 ? 32 : 16)) out.byte(fix + n);
  else if (code8 !== code16 && n < 0x100) { out.byte(code8); out.uint(1, n); }
  else if (n < 0x10000) { out.byte(code16); out.uint(2, n); }
  else { out.byte(code32); out.uint(4, n); }
}

function writeString(out, text) {
  const bytes = utf8Encoder.encode(text);
  header(out, bytes.length, 0xa0, 0xd9, 0xda, 0xdb);
  out.raw(bytes);
}

function writeNumber(out, n) {
  if (Number.isInteger(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER) {
    if (n >= 0) {
      if (n < 0x80) out.byte(n);
      else if (n < 0x100) { out.byte(0xcc); out.uint(1, n); }
      else if (n < 0x10000) { out.byte(0xcd); out.uint(2, n); }
      else if (n < 0x100000000) { out.byte(0xce); out.uint(4, n); }
      else { out.byte(0xcf); out.uint(8, n); }
    } else if (n >= -32) out.byte(n & 0xff);
    else if (n >= -0x80) { out.byte(0xd0); out.room(1); out.view.setInt8(out.length, n); out.length += 1; }
    else if (n >= -0x8000) { out.byte(0xd1); out.room(2); out.view.setInt16(out.length, n); out.length += 2; }
    else if (n >= -0x80000000) { out.byte(0xd2); out.room(4); out.view.setInt32(out.length, n); out.length += 4; }
    else { out.byte(0xd3); out.room(8); out.view.setBigInt64(out.length, BigInt(n)); out.length += 8; }
  } else { out.byte(0xcb); out.room(8); out.view.setFloat64(out.length, n); out.length += 8; }
}

export function decode(bytes) {
  const reader = { bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), at: 0 };
  const value = read(reader, 0);
  if (reader.at !== bytes.length) throw new MsgpackError("trailing bytes");
  return value;
}

const MAX_DEPTH = 64;

function take(r, n) {
  if (r.at + n > r.bytes.length) throw new MsgpackError("truncated");
  const at = r.at;
  r.at += n;
  return at;
}

function read(r, depth) {
  if (depth > MAX_DEPTH) throw new MsgpackError("too deep");
  const code = r.view.getUint8(take(r, 1));
  if (code < 0x80) return code;
  if (code < 0x90) return readMap(r, code - 0x80, depth);
  if (code < 0xa0) return readArray(r, code - 0x90, depth);
  if (code < 0xc0) return readString(r, code - 0xa0);
  if (code >= 0xe0) return code - 0x100;
  const v = r.view;
  switch (code) {
    case 0xc0: return null;
    case 0xc2: return false;
    case 0xc3: return true;
    case 0xc4: return readBytes(r, v.getUint8(take(r, 1)));
    case 0xc5: return readBytes(r, v.getUint16(take(r, 2)));
    case 0xc6: return readBytes(r, v.getUint32(take(r, 4)));
    case 0xca: return v.getFloat32(take(r, 4));
    case 0xcb: return v.getFloat64(take(r, 8));
    case 0xcc: return v.getUint8(take(r, 1));
    case 0xcd: return v.getUint16(take(r, 2));
    case 0xce: return v.getUint32(take(r, 4));
    case 0xcf: return Number(v.getBigUint64(take(r, 8)));
    case 0xd0: return v.getInt8(take(r, 1));
    case 0xd1: return v.getInt16(take(r, 2));
    case 0xd2: return v.getInt32(take(r, 4));
    case 0xd3: return Number(v.getBigInt64(take(r, 8)));
    case 0xd9: return readString(r, v.getUint8(take(r, 1)));
    case 0xda: return readString(r, v.getUint16(take(r, 2)));
    case 0xdb: return readString(r, v.getUint32(take(r, 4)));
    case 0xdc: return readArray(r, v.getUint16(take(r, 2)), depth);
    case 0xdd: return readArray(r, v.getUint32(take(r, 4)), depth);
    case 0xde: return readMap(r, v.getUint16(take(r, 2)), depth);
    case 0xdf: return readMap(r, v.getUint32(take(r, 4)), depth);
    default: throw new MsgpackError("extension types are refused");
  }
}

function readBytes(r, n) { const at = take(r, n); return r.bytes.slice(at, at + n); }

function readString(r, n) {
  const at = take(r, n);
  try { return utf8Decoder.decode(r.bytes.subarray(at, at + n)); }
  catch { throw new MsgpackError("bad UTF-8"); }
}

function readArray(r, n, depth) {
  if (n > r.bytes.length - r.at) throw new MsgpackError("truncated");
  const items = new Array(n);
  for (let i = 0; i < n; i++) items[i] = read(r, depth + 1);
  return items;
}

function readMap(r, n, depth) {
  if (n * 2 > r.bytes.length - r.at) throw new MsgpackError("truncated");
  const map = Object.create(null);
  for (let i = 0; i < n; i++) {
    const key = read(r, depth + 1);
    if (typeof key !== "string") throw new MsgpackError("map keys must be text");
    map[key] = read(r, depth + 1);
  }
  return map;
}
