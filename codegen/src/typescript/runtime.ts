// ---------------------------------------------------------------------------
// The spx runtime: the fixed part of every generated module, the same bytes
// in each. It needs nothing at run time but the platform (ES2020: BigInt,
// TextDecoder), and reads the tables above: `$TYPES` and one `$Root` per root.
//
// decode = steps 1–2 (size, UTF-8 in fatal mode), then a fast path
// (JSON.parse, a typed walk, the canonical rendering compared with the input
// text), and when that does not match, the spec-ordered path of FORMAT.md §7:
// framing, a strict JSON reader with the engine's acceptance, the envelope,
// the value walk, the canonical replay. The spec-ordered path alone decides
// every refusal, so each has the engine's code, rule and JSON Pointer.
// ---------------------------------------------------------------------------

/** A refusal by `decode` or `encode`: the engine's code, rule and JSON Pointer. */
export class SpxError extends Error {
  /** `"SPX-Z205"` (not canonical JSON) or `"SPX-Z206"` (an admission rule failed). */
  readonly code: string;
  /** The machine-readable rule, e.g. `"value.integer_range"` (docs/DECODING.md). */
  readonly rule: string;
  /** The RFC 6901 JSON Pointer of the offending place; `""` for the whole document. */
  readonly pointer: string;
  constructor(code: string, rule: string, pointer: string) {
    super(
      code === $Z205
        ? "AgentInteractionValue is not canonical semaprax.agent-interaction-value.v1 JSON"
        : "AgentInteractionValue invariant failed: " + rule,
    );
    this.name = "SpxError";
    this.code = code;
    this.rule = rule;
    this.pointer = pointer;
  }
}

/**
 * A field: stable id, property name, type (0–6 a scalar, 7 + i the type
 * `$TYPES[i]`), its canonical key (`"id":`), its JSON Pointer token (`/id`).
 */
type $Field = readonly [string, string, number, string, string];
/** A case: stable id, the `case` tag, the fields. */
type $Case = readonly [string, string, readonly $Field[]];
interface $Type {
  readonly id: string;
  /** Null for a record. */
  readonly cases: readonly $Case[] | null;
  /** A record's fields (empty for a variant). */
  readonly fields: readonly $Field[];
}
interface $Root {
  readonly type: number;
  readonly id: string;
  readonly digest: string;
  /** The envelope before `<VALUE>`: `{"schema":…,"root_type_id":…,"schema_digest":…,"value":`. */
  readonly prefix: string;
}

declare const TextDecoder: {
  new (label: string, options: { fatal: boolean; ignoreBOM: boolean }): {
    decode(input: Uint8Array): string;
  };
};

const $Z205 = "SPX-Z205";
const $Z206 = "SPX-Z206";
const $VALUE_ID = "semaprax.agent-interaction-value.v1";
const $MAX_DOCUMENT_BYTES = 65536;
const $MAX_STRING_BYTES = 4096;
const $MAX_BYTES_LEN = 4096;
const $MAX_DEPTH = 16;
const $BOOL = 0;
const $STRING = 5;
const $BYTES = 6;
const $NESTED = 7;
/** Bounds of i32, i64, u8, u64 (types 1–4). */
const $MIN: readonly bigint[] = [0n, -2147483648n, -9223372036854775808n, 0n, 0n];
const $MAX: readonly bigint[] = [0n, 2147483647n, 9223372036854775807n, 255n, 18446744073709551615n];
/** The canonical decimal: `-?(0|[1-9][0-9]*)`, and `-0` is refused separately. */
const $DECIMAL = /^-?(?:0|[1-9][0-9]*)$/;
/** Characters §2 escapes. */
const $ESCAPED = /["\\\u0000-\u001f\u007f-\u009f]/;
/** The control characters §2 writes as `\u00XX` (those without a short form). */
const $CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const $CONTROL_ALL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** Fatal: invalid UTF-8 throws. ignoreBOM: a leading U+FEFF is kept (step 3 refuses it). */
const $UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const $hasOwn = Object.prototype.hasOwnProperty;
/** Per type: the index of each field id (the first declared wins, as in the engine). */
const $INDEX = new Map<readonly $Field[], Map<string, number>>();

/** `a[i]`, for an index known to be in range. */
function $n(a: readonly number[], i: number): number {
  return a[i] as number;
}

function $fail(code: string, rule: string, pointer: string): never {
  throw new SpxError(code, rule, pointer);
}

function $token(ptr: string, key: string): string {
  return ptr + "/" + key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function $own(o: object, key: string): boolean {
  return $hasOwn.call(o, key);
}

function $isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** UTF-8 length of `s`, or -1 when it holds a lone surrogate (no UTF-8 at all). */
function $utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return -1;
      n += 4;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return -1;
    else n += 3;
  }
  return n;
}

function $fieldIndex(fields: readonly $Field[]): Map<string, number> {
  const known = $INDEX.get(fields);
  if (known !== undefined) return known;
  const m = new Map<string, number>();
  fields.forEach(([id], j) => {
    if (!m.has(id)) m.set(id, j);
  });
  $INDEX.set(fields, m);
  return m;
}

/** The integer of decimal text `s` for representation `r` (1–4), or the rule it breaks. */
function $integer(r: number, s: string): bigint | string {
  if (!$DECIMAL.test(s) || s === "-0") return "value.integer";
  // Longer than any bound: out of range without building a huge BigInt.
  if (s.length > 20) return "value.integer_range";
  const v = BigInt(s);
  return v < ($MIN[r] as bigint) || v > ($MAX[r] as bigint) ? "value.integer_range" : v;
}

// ------------------------------------------------------------------ decode

function $decode(root: $Root, input: Uint8Array | string): unknown {
  let text: string;
  if (typeof input === "string") {
    // 1–2 for text: its UTF-8 length (a lone surrogate counts as the three
    // bytes it would take), then whether it has a UTF-8 form at all.
    let n = 0;
    let lone = false;
    for (let i = 0; i < input.length; i++) {
      const c = input.charCodeAt(i);
      if (c < 0x80) n += 1;
      else if (c < 0x800) n += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < input.length) {
        const d = input.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          n += 4;
          i++;
        } else {
          n += 3;
          lone = true;
        }
      } else {
        if (c >= 0xd800 && c <= 0xdfff) lone = true;
        n += 3;
      }
    }
    if (n > $MAX_DOCUMENT_BYTES) $fail($Z206, "document_bytes", "");
    if (lone) $fail($Z206, "utf8", "");
    text = input;
  } else if (input instanceof Uint8Array) {
    if (input.length > $MAX_DOCUMENT_BYTES) $fail($Z206, "document_bytes", "");
    try {
      text = $UTF8.decode(input);
    } catch {
      return $fail($Z206, "utf8", "");
    }
  } else {
    throw new TypeError("decode takes a Uint8Array or a string");
  }
  const fast = $fast(root, text);
  return fast !== undefined ? fast : $specPath(root, text);
}

/**
 * The fast path: `JSON.parse`, a walk that builds the typed value, and the
 * canonical rendering of that value compared with the input. Equal text is
 * admission (a canonical document of a valid value passes every check);
 * anything else returns undefined and the spec-ordered path decides.
 */
function $fast(root: $Root, text: string): unknown {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!$isObject(j) || j["root_type_id"] !== root.id || !$own(j, "value")) return undefined;
  let v: unknown;
  try {
    v = $fastType(root.type, j["value"], 0);
    if (v === undefined || $render(root, v) !== text) return undefined;
  } catch {
    return undefined;
  }
  return v;
}

function $fastType(ti: number, x: unknown, depth: number): unknown {
  const ty = $TYPES[ti] as $Type;
  if (depth > $MAX_DEPTH || !$isObject(x)) return undefined;
  const f = x["fields"];
  if (!$isObject(f)) return undefined;
  if (ty.cases === null) return $fastFields(ty.fields, f, {}, depth);
  const id = x["case"];
  for (const c of ty.cases) {
    if (c[0] === id) return $fastFields(c[2], f, { case: c[1] }, depth);
  }
  return undefined;
}

function $fastFields(
  decl: readonly $Field[],
  f: Record<string, unknown>,
  out: Record<string, unknown>,
  depth: number,
): unknown {
  for (const [id, name, t] of decl) {
    if (!$own(f, id)) return undefined;
    const x = f[id];
    let v: unknown;
    if (t >= $NESTED) v = $fastType(t - $NESTED, x, depth + 1);
    else if (t === $BOOL) v = typeof x === "boolean" ? x : undefined;
    else if (t === $STRING) v = typeof x === "string" ? x : undefined;
    else if (t === $BYTES) {
      if (!Array.isArray(x) || x.length > $MAX_BYTES_LEN) return undefined;
      const b = new Uint8Array(x.length);
      for (let i = 0; i < x.length; i++) {
        const e: unknown = x[i];
        if (typeof e !== "number" || !(e >= 0 && e <= 255)) return undefined;
        b[i] = e;
      }
      v = b;
    } else {
      if (typeof x !== "string") return undefined;
      const n = $integer(t, x);
      v = typeof n === "bigint" ? n : undefined;
    }
    if (v === undefined) return undefined;
    out[name] = v;
  }
  return out;
}

// The spec-ordered path.

/** Node kinds of the span tree. */
const $NULL = 0;
const $FALSE = 1;
const $TRUE = 2;
const $NUMBER = 3;
const $TEXT = 4;
const $TEXT_ESCAPED = 5;
const $ARRAY = 6;
const $OBJECT = 7;

/**
 * The span tree of the strict JSON reader: one node per value, in
 * pre-order, with its kind, its offsets (UTF-16 units, `end` exclusive) and
 * the index of the first node after its subtree.
 */
interface $Tree {
  readonly src: string;
  readonly kind: number[];
  readonly start: number[];
  readonly end: number[];
  readonly next: number[];
}

/** 2^1024 − 2^970: the least decimal value that rounds to infinity as an f64. */
const $F64_OVERFLOW = 2n ** 1024n - 2n ** 970n;

/**
 * True when the JSON number `tok` is not zero and rounds to ±infinity as an
 * f64 (serde_json refuses those). Decided exactly, with integers.
 */
function $overflows(tok: string): boolean {
  const m = /^-?([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(tok);
  if (m === null) return true;
  const frac = m[2] === undefined ? "" : m[2];
  let digits = (m[1] + frac).replace(/^0+/, "");
  if (digits === "") return false;
  const trimmed = digits.replace(/0+$/, "");
  let exp = (m[3] === undefined ? 0n : BigInt(m[3])) - BigInt(frac.length) + BigInt(digits.length - trimmed.length);
  digits = trimmed;
  // The value is digits × 10^exp, with digits.length + exp integer digits.
  const magnitude = BigInt(digits.length) + exp;
  if (magnitude <= 308n) return false;
  if (magnitude >= 310n) return true;
  const d = BigInt(digits);
  return exp >= 0n ? d * 10n ** exp >= $F64_OVERFLOW : d >= $F64_OVERFLOW * 10n ** -exp;
}

/**
 * Step 4: RFC 8259 exactly as serde_json accepts it (no lone surrogate in a
 * `\u` escape, no number that overflows an f64, at most 127 open
 * arrays/objects), iteratively. Null when the text is not JSON.
 */
function $read(s: string): $Tree | null {
  const t: $Tree = { src: s, kind: [], start: [], end: [], next: [] };
  const stack: number[] = [];
  const n = s.length;
  let i = 0;
  const ws = (): void => {
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    }
  };
  const leaf = (kind: number, start: number): void => {
    t.kind.push(kind);
    t.start.push(start);
    t.end.push(i);
    t.next.push(t.kind.length);
  };
  const close = (): void => {
    i++;
    const node = stack.pop() as number;
    t.end[node] = i;
    t.next[node] = t.kind.length;
  };
  const hex4 = (): number => {
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const c = s.charCodeAt(i);
      let d: number;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
      else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
      else return -1;
      v = v * 16 + d;
      i++;
    }
    return v;
  };
  const str = (): boolean => {
    const start = i;
    i++;
    let escaped = false;
    for (;;) {
      if (i >= n) return false;
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        i++;
        break;
      }
      if (c < 0x20) return false;
      i++;
      if (c !== 0x5c) continue;
      escaped = true;
      const e = s.charCodeAt(i);
      i++;
      if (e === 0x75) {
        const hi = hex4();
        if (hi < 0 || (hi >= 0xdc00 && hi <= 0xdfff)) return false;
        if (hi >= 0xd800 && hi <= 0xdbff) {
          if (s.charCodeAt(i) !== 0x5c || s.charCodeAt(i + 1) !== 0x75) return false;
          i += 2;
          const lo = hex4();
          if (!(lo >= 0xdc00 && lo <= 0xdfff)) return false;
        }
      } else if (
        e !== 0x22 && e !== 0x5c && e !== 0x2f && e !== 0x62 &&
        e !== 0x66 && e !== 0x6e && e !== 0x72 && e !== 0x74
      ) {
        return false;
      }
    }
    leaf(escaped ? $TEXT_ESCAPED : $TEXT, start);
    return true;
  };
  const digits = (): number => {
    const from = i;
    while (i < n && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
    return i - from;
  };
  const num = (): boolean => {
    const start = i;
    if (s.charCodeAt(i) === 0x2d) i++;
    const c = s.charCodeAt(i);
    if (c === 0x30) {
      i++;
      const d = s.charCodeAt(i);
      if (d >= 0x30 && d <= 0x39) return false;
    } else if (c >= 0x31 && c <= 0x39) digits();
    else return false;
    let plain = true;
    if (s.charCodeAt(i) === 0x2e) {
      plain = false;
      i++;
      if (digits() === 0) return false;
    }
    const e = s.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      plain = false;
      i++;
      const sign = s.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (digits() === 0) return false;
    }
    if ((!plain || i - start > 300) && $overflows(s.slice(start, i))) return false;
    leaf($NUMBER, start);
    return true;
  };
  const key = (): boolean => {
    if (s.charCodeAt(i) !== 0x22 || !str()) return false;
    ws();
    if (s.charCodeAt(i) !== 0x3a) return false;
    i++;
    ws();
    return true;
  };
  const literal = (word: string, kind: number): boolean => {
    if (!s.startsWith(word, i)) return false;
    const start = i;
    i += word.length;
    leaf(kind, start);
    return true;
  };
  ws();
  for (;;) {
    // A value at i.
    const c = s.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      if (stack.length >= 127) return null;
      const kind = c === 0x7b ? $OBJECT : $ARRAY;
      stack.push(t.kind.length);
      t.kind.push(kind);
      t.start.push(i);
      t.end.push(i);
      t.next.push(0);
      i++;
      ws();
      if (s.charCodeAt(i) === (c === 0x7b ? 0x7d : 0x5d)) close();
      else {
        if (kind === $OBJECT && !key()) return null;
        continue;
      }
    } else if (c === 0x22) {
      if (!str()) return null;
    } else if (c === 0x74) {
      if (!literal("true", $TRUE)) return null;
    } else if (c === 0x66) {
      if (!literal("false", $FALSE)) return null;
    } else if (c === 0x6e) {
      if (!literal("null", $NULL)) return null;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      if (!num()) return null;
    } else return null;
    // A value is complete: close containers, or go on to the next value.
    for (;;) {
      ws();
      if (stack.length === 0) return i === n ? t : null;
      const obj = $n(t.kind, stack[stack.length - 1] as number) === $OBJECT;
      const d = s.charCodeAt(i);
      if (d === 0x2c) {
        i++;
        ws();
        if (obj && !key()) return null;
        break;
      }
      if (d === (obj ? 0x7d : 0x5d)) close();
      else return null;
    }
  }
}

/** The direct children of a container, in document order. */
function $children(t: $Tree, node: number): number[] {
  const out: number[] = [];
  for (let c = node + 1; c < $n(t.next, node); c = $n(t.next, c)) out.push(c);
  return out;
}

function $isText(t: $Tree, node: number): boolean {
  return $n(t.kind, node) === $TEXT || $n(t.kind, node) === $TEXT_ESCAPED;
}

/** The unescaped text of a string node (the reader accepted its escapes). */
function $text(t: $Tree, node: number): string {
  const inner = t.src.slice($n(t.start, node) + 1, $n(t.end, node) - 1);
  if ($n(t.kind, node) !== $TEXT_ESCAPED) return inner;
  let out = "";
  let from = 0;
  for (let i = inner.indexOf("\\"); i >= 0; i = inner.indexOf("\\", from)) {
    out += inner.slice(from, i);
    const e = inner.charCodeAt(i + 1);
    from = i + 2;
    switch (e) {
      case 0x62: out += "\b"; break;
      case 0x66: out += "\f"; break;
      case 0x6e: out += "\n"; break;
      case 0x72: out += "\r"; break;
      case 0x74: out += "\t"; break;
      case 0x75:
        out += String.fromCharCode(parseInt(inner.slice(i + 2, i + 6), 16));
        from = i + 6;
        break;
      default: out += inner[i + 1];
    }
  }
  return out + inner.slice(from);
}

/** The value of the last occurrence of `key` in object `obj`, or -1. */
function $lookup(t: $Tree, obj: number, key: string): number {
  let found = -1;
  const c = $children(t, obj);
  for (let k = 0; k + 1 < c.length; k += 2) {
    if ($text(t, (c[k] as number)) === key) found = (c[k + 1] as number);
  }
  return found;
}

/**
 * The JSON Pointer of the deepest value or object member (from its key to
 * the end of its value) whose text holds offset `at`; `""` when none does.
 */
function $locate(t: $Tree, at: number): string {
  let ptr = "";
  let node = 0;
  const inside = (x: number): boolean => $n(t.start, x) <= at && at < $n(t.end, x);
  if (!inside(0)) return ptr;
  for (;;) {
    const c = $children(t, node);
    if ($n(t.kind, node) === $OBJECT) {
      let hit = -1;
      for (let k = 0; k + 1 < c.length; k += 2) {
        if ($n(t.start, c[k] as number) <= at && at < $n(t.end, c[k + 1] as number)) {
          hit = k;
          break;
        }
      }
      if (hit < 0) break;
      ptr = $token(ptr, $text(t, (c[hit] as number)));
      if (!inside((c[hit + 1] as number))) break;
      node = (c[hit + 1] as number);
    } else if ($n(t.kind, node) === $ARRAY) {
      const k = c.findIndex(inside);
      if (k < 0) break;
      ptr = $token(ptr, String(k));
      node = (c[k] as number);
    } else break;
  }
  return ptr;
}

/**
 * Refuses (Z205 `rule`) an object whose key set is not exactly `keys`: the
 * first unexpected key in document order, then the first missing one.
 */
function $exactKeys(t: $Tree, obj: number, keys: readonly string[], ptr: string, rule: string): void {
  const c = $children(t, obj);
  for (let k = 0; k < c.length; k += 2) {
    const key = $text(t, (c[k] as number));
    if (!keys.includes(key)) $fail($Z205, rule, $token(ptr, key));
  }
  for (const key of keys) {
    if ($lookup(t, obj, key) < 0) $fail($Z205, rule, $token(ptr, key));
  }
}

/** Steps 3–10 over text that passed steps 1–2. */
function $specPath(root: $Root, text: string): unknown {
  // 3.
  const n = text.length;
  if (
    n < 2 || text.charCodeAt(n - 1) !== 0x0a ||
    text.indexOf("\n") !== n - 1 || text.indexOf("\r") >= 0 || text.charCodeAt(0) === 0xfeff
  ) {
    $fail($Z205, "document.framing", "");
  }
  // 4.
  const t = $read(text.slice(0, n - 1));
  if (t === null) return $fail($Z205, "json.syntax", "");
  // 5.
  if ($n(t.kind, 0) !== $OBJECT) $fail($Z205, "envelope.shape", "");
  $exactKeys(t, 0, ["schema", "root_type_id", "schema_digest", "value"], "", "envelope.keys");
  // 6.
  const s = $lookup(t, 0, "schema");
  if (!$isText(t, s) || $text(t, s) !== $VALUE_ID) $fail($Z205, "envelope.schema", "/schema");
  // 7.
  const r = $lookup(t, 0, "root_type_id");
  if (!$isText(t, r)) $fail($Z205, "envelope.shape", "/root_type_id");
  if ($text(t, r) !== root.id) $fail($Z206, "root_type_id", "/root_type_id");
  // 8.
  const d = $lookup(t, 0, "schema_digest");
  if (!$isText(t, d)) $fail($Z205, "envelope.shape", "/schema_digest");
  if ($text(t, d) !== root.digest) $fail($Z206, "schema_digest", "/schema_digest");
  // 9.
  const value = $walkType(t, root.type, $lookup(t, 0, "value"), 0, "/value");
  // 10.
  let canonical: string;
  try {
    canonical = $render(root, value);
  } catch {
    return $fail($Z205, "canonical.mismatch", "/value");
  }
  if (canonical === text) return value;
  let at = 0;
  while (at < n && at < canonical.length && canonical.charCodeAt(at) === text.charCodeAt(at)) at++;
  return $fail($Z205, "canonical.mismatch", $locate(t, at));
}

function $walkType(t: $Tree, ti: number, node: number, depth: number, ptr: string): unknown {
  if (depth > $MAX_DEPTH) $fail($Z206, "value.max_depth", ptr);
  const ty = $TYPES[ti] as $Type;
  if ($n(t.kind, node) !== $OBJECT) $fail($Z205, "value.shape", ptr);
  if (ty.cases === null) {
    $exactKeys(t, node, ["fields"], ptr, "value.shape");
    return $walkFields(t, ty.fields, $lookup(t, node, "fields"), depth, ptr + "/fields", {});
  }
  $exactKeys(t, node, ["case", "fields"], ptr, "value.shape");
  const c = $lookup(t, node, "case");
  if (!$isText(t, c)) $fail($Z205, "value.shape", ptr + "/case");
  const id = $text(t, c);
  for (const k of ty.cases) {
    if (k[0] === id) {
      return $walkFields(t, k[2], $lookup(t, node, "fields"), depth, ptr + "/fields", { case: k[1] });
    }
  }
  return $fail($Z206, "value.case", ptr + "/case");
}

function $walkFields(
  t: $Tree,
  decl: readonly $Field[],
  obj: number,
  depth: number,
  ptr: string,
  out: Record<string, unknown>,
): unknown {
  if ($n(t.kind, obj) !== $OBJECT) $fail($Z205, "value.shape", ptr);
  const index = $fieldIndex(decl);
  const slots: number[] = decl.map(() => -1);
  const c = $children(t, obj);
  for (let k = 0; k + 1 < c.length; k += 2) {
    const key = $text(t, (c[k] as number));
    const j = index.get(key);
    if (j === undefined) $fail($Z206, "value.fields.unknown", $token(ptr, key));
    else slots[j] = (c[k + 1] as number);
  }
  for (let j = 0; j < decl.length; j++) {
    const [, name, ty, , tok] = decl[j] as $Field;
    const p = ptr + tok;
    const v = slots[j] as number;
    if (v < 0) $fail($Z206, "value.fields.missing", p);
    out[name] = ty >= $NESTED ? $walkType(t, ty - $NESTED, v, depth + 1, p) : $walkScalar(t, ty, v, p);
  }
  return out;
}

function $walkScalar(t: $Tree, r: number, node: number, ptr: string): unknown {
  const kind = $n(t.kind, node);
  if (r === $BOOL) {
    if (kind === $TRUE || kind === $FALSE) return kind === $TRUE;
  } else if (r === $STRING) {
    if ($isText(t, node)) {
      const s = $text(t, node);
      if ($utf8Length(s) > $MAX_STRING_BYTES) $fail($Z206, "value.string_bytes", ptr);
      return s;
    }
  } else if (r === $BYTES) {
    if (kind === $ARRAY) {
      const c = $children(t, node);
      if (c.length > $MAX_BYTES_LEN) $fail($Z206, "value.bytes_length", ptr);
      const b = new Uint8Array(c.length);
      for (let k = 0; k < c.length; k++) {
        const e = (c[k] as number);
        const raw = t.src.slice($n(t.start, e), $n(t.end, e));
        // A JSON integer 0..=255: a number with no sign, fraction or
        // exponent (its value read digit by digit, never as a float).
        let byte = raw.length <= 3 && $n(t.kind, e) === $NUMBER ? 0 : 256;
        for (let i = 0; i < raw.length && byte < 256; i++) {
          const d = raw.charCodeAt(i) - 0x30;
          byte = d >= 0 && d <= 9 ? byte * 10 + d : 256;
        }
        if (raw.length === 0 || byte > 255) $fail($Z206, "value.bytes_element", $token(ptr, String(k)));
        b[k] = byte;
      }
      return b;
    }
  } else if ($isText(t, node)) {
    const v = $integer(r, $text(t, node));
    if (typeof v === "string") $fail($Z206, v, ptr);
    return v;
  }
  return $fail($Z206, "value.representation", ptr);
}

// ------------------------------------------------------------------ encode

/** `s` as a canonical JSON string (FORMAT.md §2), quotes included. */
function $quote(s: string): string {
  if (!$ESCAPED.test(s)) return '"' + s + '"';
  let q = s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
  if ($CONTROL.test(q)) {
    q = q.replace($CONTROL_ALL, (c) => {
      const h = c.charCodeAt(0).toString(16);
      return (h.length < 2 ? "\\u000" : "\\u00") + h;
    });
  }
  return '"' + q + '"';
}

/** The canonical document of `v` (no document size bound); throws on a defect. */
function $render(root: $Root, v: unknown): string {
  return root.prefix + $encType(root.type, v, 0, "/value") + "}\n";
}

function $encode(root: $Root, v: unknown): string {
  const doc = $render(root, v);
  if (doc.length > $MAX_DOCUMENT_BYTES / 3 && $utf8Length(doc) > $MAX_DOCUMENT_BYTES) {
    $fail($Z206, "document_bytes", "");
  }
  return doc;
}

function $encType(ti: number, v: unknown, depth: number, ptr: string): string {
  if (depth > $MAX_DEPTH) $fail($Z206, "value.max_depth", ptr);
  const ty = $TYPES[ti] as $Type;
  if (!$isObject(v)) return $fail($Z206, "value.representation", ptr);
  const o = v;
  if (ty.cases === null) return '{"fields":' + $encFields(ty.fields, o, depth, ptr + "/fields") + "}";
  const tag = $own(o, "case") ? o["case"] : undefined;
  for (const c of ty.cases) {
    if (c[1] === tag) {
      return '{"case":' + $quote(c[0]) + ',"fields":' + $encFields(c[2], o, depth, ptr + "/fields") + "}";
    }
  }
  return $fail($Z206, "value.case", ptr + "/case");
}

function $encFields(decl: readonly $Field[], o: Record<string, unknown>, depth: number, ptr: string): string {
  let out = "{";
  for (let j = 0; j < decl.length; j++) {
    const [, name, ty, key, tok] = decl[j] as $Field;
    const p = ptr + tok;
    if (!$own(o, name) || o[name] === undefined) $fail($Z206, "value.fields.missing", p);
    const x = o[name];
    if (j > 0) out += ",";
    out += key;
    if (ty >= $NESTED) out += $encType(ty - $NESTED, x, depth + 1, p);
    else if (ty === $BOOL) {
      if (typeof x !== "boolean") $fail($Z206, "value.representation", p);
      out += x ? "true" : "false";
    } else if (ty === $STRING) {
      if (typeof x !== "string") return $fail($Z206, "value.representation", p);
      // A lone surrogate has no UTF-8 form: not a string the format can carry.
      const len = $utf8Length(x);
      if (len < 0) $fail($Z206, "value.representation", p);
      if (len > $MAX_STRING_BYTES) $fail($Z206, "value.string_bytes", p);
      out += $quote(x);
    } else if (ty === $BYTES) {
      if (!(x instanceof Uint8Array)) return $fail($Z206, "value.representation", p);
      if (x.length > $MAX_BYTES_LEN) $fail($Z206, "value.bytes_length", p);
      out += "[" + x.join(",") + "]";
    } else {
      if (typeof x !== "bigint") return $fail($Z206, "value.representation", p);
      if (x < ($MIN[ty] as bigint) || x > ($MAX[ty] as bigint)) $fail($Z206, "value.integer_range", p);
      out += '"' + x.toString() + '"';
    }
  }
  return out + "}";
}
