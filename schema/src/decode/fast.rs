//! The fast path: walks the schema graph and the input together and
//! matches the literal bytes of the one canonical form, parsing scalars in
//! place. It answers only "this is exactly the canonical document of this
//! value" (`Some`) or "something differs" (`None`); the spec-ordered path
//! then finds the exact first failure.
//!
//! Why a full match is admission: the match implies every check of
//! FORMAT.md §7. Steps 1–2 run before it. The matched text starts with `{`
//! and ends with `}` LF with no other LF or CR (canonical strings escape
//! them), so step 3 holds; it is JSON (canonical strings hold no raw
//! control character nor lone surrogate, the only numbers are bytes
//! elements `0..=255`, and a type depth of at most 16 nests at most 36
//! arrays/objects), so step 4 holds; the envelope keys, document id, root
//! id and digest are matched literally (steps 5–8); every leaf is checked
//! against its bounds and the depth against 16 (step 9); and the input is,
//! byte for byte, the canonical rendering of the value (step 10).

use crate::graph::{limits, Field, FieldType, Repr, TypeGraph, TypeKind};
use crate::schema::Schema;
use crate::value::Value;

struct Fast<'a> {
    s: &'a str,
    b: &'a [u8],
    pos: usize,
    graph: &'a TypeGraph,
}

/// `Some(value)` when `text` is exactly the canonical document of a value
/// of `schema` that satisfies every rule; `None` otherwise.
pub(crate) fn decode(schema: &Schema, text: &str) -> Option<Value> {
    let mut f = Fast {
        s: text,
        b: text.as_bytes(),
        pos: 0,
        graph: schema.graph(),
    };
    f.lit(b"{\"schema\":\"")?;
    f.lit(limits::VALUE_ID.as_bytes())?;
    f.lit(b"\",\"root_type_id\":")?;
    f.quoted(schema.root_type_id())?;
    f.lit(b",\"schema_digest\":")?;
    f.quoted(schema.digest())?;
    f.lit(b",\"value\":")?;
    let value = f.type_value(f.graph.root_index(), 0)?;
    f.lit(b"}\n")?;
    if f.pos != f.b.len() {
        return None;
    }
    Some(value)
}

/// True for the bytes that can never appear literally in a canonical
/// string: ASCII controls, `"`, `\` and DEL (C1 controls are `C2 80..=9F`
/// and are checked separately).
#[inline]
fn special(c: u8) -> bool {
    c < 0x20 || c == b'"' || c == b'\\' || c == 0x7f || c == 0xc2
}

impl Fast<'_> {
    #[inline]
    fn lit(&mut self, expected: &[u8]) -> Option<()> {
        let end = self.pos.checked_add(expected.len())?;
        if self.b.get(self.pos..end)? == expected {
            self.pos = end;
            Some(())
        } else {
            None
        }
    }

    #[inline]
    fn byte(&mut self, c: u8) -> Option<()> {
        if self.b.get(self.pos) == Some(&c) {
            self.pos += 1;
            Some(())
        } else {
            None
        }
    }

    /// Matches the canonical quoting (FORMAT.md §2) of `expected`.
    fn quoted(&mut self, expected: &str) -> Option<()> {
        self.byte(b'"')?;
        let e = expected.as_bytes();
        if !e.iter().any(|&c| special(c)) {
            self.lit(e)?;
        } else {
            let mut q = String::with_capacity(e.len() + 8);
            crate::quote::quote_into(&mut q, expected);
            // `q` starts with the `"` already matched.
            self.lit(q.as_bytes().get(1..q.len().saturating_sub(1))?)?;
        }
        self.byte(b'"')
    }

    /// A canonical string; returns its unescaped text.
    fn string(&mut self) -> Option<String> {
        self.byte(b'"')?;
        let mut out = String::new();
        let mut run = self.pos;
        loop {
            let c = *self.b.get(self.pos)?;
            if !special(c) {
                self.pos += 1;
                continue;
            }
            match c {
                b'"' => {
                    out.push_str(self.s.get(run..self.pos)?);
                    self.pos += 1;
                    break;
                }
                b'\\' => {
                    out.push_str(self.s.get(run..self.pos)?);
                    let ch = match *self.b.get(self.pos + 1)? {
                        b'"' => {
                            self.pos += 2;
                            '"'
                        }
                        b'\\' => {
                            self.pos += 2;
                            '\\'
                        }
                        b'n' => {
                            self.pos += 2;
                            '\n'
                        }
                        b'r' => {
                            self.pos += 2;
                            '\r'
                        }
                        b't' => {
                            self.pos += 2;
                            '\t'
                        }
                        b'u' => {
                            if self.b.get(self.pos + 2..self.pos + 4)? != b"00" {
                                return None;
                            }
                            let hi = lower_hex(*self.b.get(self.pos + 4)?)?;
                            let lo = lower_hex(*self.b.get(self.pos + 5)?)?;
                            let v = hi * 16 + lo;
                            let ch = char::from(v);
                            if !ch.is_control() || matches!(ch, '\n' | '\r' | '\t') {
                                return None;
                            }
                            self.pos += 6;
                            ch
                        }
                        _ => return None,
                    };
                    out.push(ch);
                    run = self.pos;
                }
                0xc2 => {
                    // U+0080..=U+009F must be escaped; other C2 xx are text.
                    if let Some(0x80..=0x9f) = self.b.get(self.pos + 1) {
                        return None;
                    }
                    self.pos += 1;
                }
                _ => return None,
            }
        }
        if out.len() > limits::MAX_STRING_BYTES {
            return None;
        }
        Some(out)
    }

    /// A canonical decimal-string integer: `(negative, magnitude)`.
    fn integer(&mut self) -> Option<(bool, u64)> {
        self.byte(b'"')?;
        let neg = self.byte(b'-').is_some();
        let first = *self.b.get(self.pos)?;
        let mut mag: u64;
        match first {
            b'0' => {
                if neg {
                    return None;
                }
                self.pos += 1;
                mag = 0;
            }
            b'1'..=b'9' => {
                self.pos += 1;
                mag = u64::from(first - b'0');
                while let Some(&d @ b'0'..=b'9') = self.b.get(self.pos) {
                    mag = mag.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
                    self.pos += 1;
                }
            }
            _ => return None,
        }
        self.byte(b'"')?;
        Some((neg, mag))
    }

    fn bytes(&mut self) -> Option<Vec<u8>> {
        self.byte(b'[')?;
        let mut out = Vec::new();
        if self.byte(b']').is_some() {
            return Some(out);
        }
        loop {
            let first = *self.b.get(self.pos)?;
            let v: u32 = match first {
                b'0' => {
                    self.pos += 1;
                    0
                }
                b'1'..=b'9' => {
                    self.pos += 1;
                    let mut v = u32::from(first - b'0');
                    for _ in 0..2 {
                        match self.b.get(self.pos) {
                            Some(&d @ b'0'..=b'9') => {
                                v = v * 10 + u32::from(d - b'0');
                                self.pos += 1;
                            }
                            _ => break,
                        }
                    }
                    v
                }
                _ => return None,
            };
            if v > 255 {
                return None;
            }
            out.push(v as u8);
            if out.len() > limits::MAX_BYTES_LEN {
                return None;
            }
            match *self.b.get(self.pos)? {
                b',' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    return Some(out);
                }
                _ => return None,
            }
        }
    }

    fn scalar(&mut self, r: Repr) -> Option<Value> {
        Some(match r {
            Repr::Bool => {
                if self.lit(b"true").is_some() {
                    Value::Bool(true)
                } else {
                    self.lit(b"false")?;
                    Value::Bool(false)
                }
            }
            Repr::I32 | Repr::I64 => {
                let (neg, mag) = self.integer()?;
                let v = if neg {
                    if mag > 1u64 << 63 {
                        return None;
                    }
                    (mag as i64).wrapping_neg()
                } else {
                    i64::try_from(mag).ok()?
                };
                if r == Repr::I32 && i32::try_from(v).is_err() {
                    return None;
                }
                Value::I64(v)
            }
            Repr::U8 | Repr::U64 => {
                let (neg, mag) = self.integer()?;
                if neg || (r == Repr::U8 && mag > 255) {
                    return None;
                }
                Value::U64(mag)
            }
            Repr::String => Value::String(self.string()?),
            Repr::Bytes => Value::Bytes(self.bytes()?),
        })
    }

    fn fields(&mut self, decl: &[Field], depth: usize) -> Option<Vec<(String, Value)>> {
        self.byte(b'{')?;
        let mut out = Vec::with_capacity(decl.len());
        for (j, f) in decl.iter().enumerate() {
            if j > 0 {
                self.byte(b',')?;
            }
            self.quoted(&f.stable_id)?;
            self.byte(b':')?;
            let v = match f.ty {
                FieldType::Scalar(r) => self.scalar(r)?,
                FieldType::Nested(i) => self.type_value(i, depth + 1)?,
            };
            out.push((f.stable_id.clone(), v));
        }
        self.byte(b'}')?;
        Some(out)
    }

    fn type_value(&mut self, t: usize, depth: usize) -> Option<Value> {
        if depth > limits::MAX_DEPTH {
            return None;
        }
        let graph = self.graph;
        match &graph.types.get(t)?.kind {
            TypeKind::Record { fields } => {
                self.lit(b"{\"fields\":")?;
                let vals = self.fields(fields, depth)?;
                self.byte(b'}')?;
                Some(Value::Record(vals))
            }
            TypeKind::Variant { cases } => {
                self.lit(b"{\"case\":")?;
                let at = self.pos;
                let case = cases.iter().find(|c| {
                    self.pos = at;
                    self.quoted(&c.stable_id).is_some()
                })?;
                self.lit(b",\"fields\":")?;
                let vals = self.fields(&case.fields, depth)?;
                self.byte(b'}')?;
                Some(Value::Variant {
                    case: case.stable_id.clone(),
                    fields: vals,
                })
            }
        }
    }
}

#[inline]
fn lower_hex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    }
}
