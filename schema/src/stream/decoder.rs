//! The streaming decoder: an incremental state machine over the one
//! canonical form of a value document (the bytes the fast path of
//! [`crate::decode`] and the codec's readers allow next), with the leaf
//! rules of [`crate::codec::step`].
//!
//! While the input is canonical, each byte is matched against what the
//! schema allows next: the envelope's literal prefix, a type value's keys
//! and punctuation, a case id among the declared (and, under the depth
//! bound, completable) ones, a leaf by its rule, and the size bound by the
//! shortest completion still possible. The first byte that does not match
//! is the first byte after which no continuation can be admitted: every
//! admitted document is canonical.
//!
//! From that byte on, the stream only has to *name* the refusal: it reads
//! on with the push form of the one JSON reader ([`crate::json::push`]),
//! resumed where the canonical text left it, to the end of the token that
//! holds that byte (a key, a string, a number, a literal, an escape; for
//! whitespace, the next token's first byte; for an LF, the next byte or
//! the end), and gives the code, rule and pointer the whole-document
//! decoder gives for that violation when it is the document's only one.

use super::plan::{Atom, Lit, Obj, Plan};
use super::seen::Seen;
use super::shortest::{AFTER_CASE, INF};
use super::utf8::{Next, Utf8};
use super::Event;
use crate::codec::read::comma_elements;
use crate::codec::scalar::{self, Decimal};
use crate::codec::step::{
    plain_char, plain_string, DecimalPrefix, ElementPrefix, Escape, Fed, StringPrefix,
};
use crate::codec::Native;
use crate::decode::envelope::{self as env, ENVELOPE_KEYS};
use crate::decode::{self, framing_words, rules, Decoded, STEP4};
use crate::diag::Diagnostic;
use crate::graph::{limits, Case, Field, FieldType, Repr};
use crate::json::push::{Esc, Push, Resume, Start, Stop, Tok};
use crate::quote::push_pointer_token;
use crate::scalar::Int;
use crate::schema::Schema;
use crate::value::Value;
use crate::walk::{Failure, Voice};

const MAX: u64 = limits::MAX_DOCUMENT_BYTES as u64;
/// The longest chunk [`StreamDecoder::feed`] checks as ASCII by itself,
/// instead of with the UTF-8 machinery of [`Utf8`] (which costs more than
/// the check on a few bytes).
const SHORT: usize = 16;
/// What a detail says the canonical form has in a byte array.
const BYTES: &str = "a canonical byte array";
/// What a detail says the canonical form has at a case id.
const CASE: &str = "a declared case id";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The envelope up to and including `"value":`.
    Prefix,
    /// Inside the root value.
    Root,
    /// The envelope's `}`.
    EnvClose,
    /// The final LF.
    Lf,
    /// Complete.
    Done,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// `{"fields":{` or `{"case":`.
    Open,
    /// The case id.
    CaseId,
    /// `,"fields":{`.
    AfterCase,
    /// `,"<field id>":` (no comma before the first).
    Member,
    /// The field's value (a leaf, or the frame above).
    Value,
    /// `}}`.
    Close,
}

/// A type value being read.
#[derive(Debug)]
struct Frame {
    ty: usize,
    depth: usize,
    case: Option<usize>,
    /// The field being keyed or read.
    field: usize,
    step: Step,
    fields: Vec<(String, Value)>,
    /// The shortest rest of this frame after its current item (see
    /// [`StreamDecoder::fixed`]).
    rest: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bytes {
    /// `[` expected.
    Start,
    /// After `[`.
    First,
    /// In an element.
    Element,
    /// After `,`.
    Comma,
}

/// What the one-byte path ([`StreamDecoder::quick`]) reads in line: a
/// cache of the decoder's state, recomputed after anything else ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quick {
    /// To be computed ([`StreamDecoder::set_mode`]).
    Unknown,
    /// Nothing in line.
    Slow,
    /// The literal's next byte (not its last).
    Lit,
    /// A string's plain byte.
    Str,
    /// A byte array's digit or comma.
    Bytes,
}

/// A leaf being read. (An explicit tag: telling the kinds apart is one
/// byte compare on the one-byte path, [`StreamDecoder::quick`].)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Leaf {
    None,
    /// `i` bytes of `true` / `false` read.
    Bool {
        i: u8,
        value: bool,
    },
    /// An integer; `open` once its quote is read.
    Int {
        repr: Repr,
        open: bool,
        d: DecimalPrefix,
    },
    /// A string; `open` once its quote is read.
    Str {
        open: bool,
        p: StringPrefix,
    },
    Bytes {
        at: Bytes,
        el: ElementPrefix,
    },
}

/// The refusal of a JSON value of the wrong kind, by place.
#[derive(Debug)]
enum Shape {
    /// The document itself.
    Env,
    /// Envelope id `w` (0 the document id, 1 the root id, 2 the digest).
    Id(usize),
    /// Frame `k`'s value.
    Value(usize),
    /// Frame `k`'s fields object.
    Fields(usize),
    /// Frame `k`'s case.
    Case(usize),
    /// A leaf.
    Leaf(Repr, String),
}

/// What the first character after the deviation means, by where it came.
#[derive(Debug)]
enum Place {
    /// A value is expected: another kind is refused by `shape` (at once
    /// for an object, array or string; once complete for a number or
    /// literal); whitespace is a mismatch at `ws`.
    Value { shape: Shape, ws: String },
    /// A first key: `}` leaves member 0 missing.
    FirstKey { obj: Obj, ws: String },
    /// A `,` before member `next`: `}` leaves it missing.
    Comma { obj: Obj, next: usize, ws: String },
    /// After the last member: `,` or a key starts a member too many.
    Close { obj: Obj, ws: String },
    /// Only whitespace differs from the canonical byte here.
    Ws { ws: String },
    /// Inside the key of member `i`.
    InKey(Obj, usize),
    /// Inside an envelope id.
    InId(usize),
    /// Inside frame `k`'s case id.
    InCase(usize),
    /// Inside an integer string.
    InInteger(Repr, String),
    /// Inside a string value.
    InString(String),
    /// At a byte-array element `idx` (a value is expected).
    Element { ptr: String, idx: usize },
    /// Inside byte-array element `idx`.
    InElement { ptr: String, idx: usize },
    /// Only the JSON grammar can decide.
    Syntax,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Until {
    /// The first character after whitespace.
    Char,
    /// The current number or literal, complete.
    Token,
    /// The current escape, complete.
    Escape,
}

#[derive(Debug)]
enum Wait {
    First(Place),
    /// `then`, once the grammar has accepted `until`.
    Then(Diagnostic, Until),
    /// The key of member `i` of `obj`: which one it is decides.
    Key(Obj, usize),
    /// The key of a member after the last one.
    Extra(Obj),
    /// The rest of an envelope id.
    Id(usize),
    /// The rest of frame `k`'s case id.
    Case(usize),
    /// The rest of an integer string, until it decides: the rule so far
    /// over the decoded text's first `seen` bytes.
    Integer {
        repr: Repr,
        ptr: String,
        d: DecimalPrefix,
        seen: usize,
    },
    /// Nothing but the grammar, an LF or the end decides.
    Syntax,
}

/// What the JSON reader said about one character.
#[derive(Debug, Default)]
struct Heard {
    begin: Option<Start>,
    key: Option<String>,
    str_end: bool,
    scalar: Option<&'static str>,
    obj_end: bool,
}

/// The diagnosis after the first impossible byte.
#[derive(Debug)]
struct Diag {
    /// The first impossible byte.
    offset: u64,
    push: Push,
    wait: Wait,
    /// The decoded text of the string being read (ids, integers).
    text: String,
    /// An LF read after the deviation (not given to the JSON reader).
    lf: Option<u64>,
    /// What the canonical form has at the deviation, shown for a detail.
    expected: String,
}

/// A strict decoder of one value document that arrives in chunks.
///
/// [`feed`](StreamDecoder::feed) takes chunks of any size (cut anywhere,
/// inside characters too); [`finish`](StreamDecoder::finish) ends the
/// stream. The verdict is [`crate::decode::decode`]'s on the concatenated
/// bytes: the same value, or a refusal; the first refusal is final (every
/// later call returns it again). A refusal carries, in
/// [`Diagnostic::offset`], the 0-based offset of the first byte after which
/// no continuation could be admitted, and the whole-document decoder's
/// code, rule and pointer for that violation (`docs/STREAMING.md` lists
/// where a later byte would have decided otherwise).
#[derive(Debug)]
pub struct StreamDecoder<'s> {
    schema: &'s Schema,
    plan: &'s Plan,
    /// Bytes received (at most 65536: the next one is refused).
    fed: u64,
    /// The offset of the first byte of the piece being run.
    base: u64,
    /// Bytes run so far (received minus a character still incomplete).
    pos: u64,
    utf8: Utf8,
    phase: Phase,
    frames: Vec<Frame>,
    leaf: Leaf,
    /// A string leaf's text, or an integer's digits.
    text: String,
    /// A byte-array leaf's elements.
    bytes: Vec<u8>,
    /// The literal being matched, and how much of it has been read.
    lit: &'s Lit,
    lit_i: usize,
    /// The case ids still possible: (case, start and end of its quoted id
    /// in `quoted`, the shortest rest of the frame after it), and how many
    /// bytes of them matched.
    cands: Vec<(usize, usize, usize, u32)>,
    quoted: &'s str,
    case_i: usize,
    /// While a leaf or a case id is read: the shortest rest of the
    /// document after it (every frame's rest, the envelope's `}` LF).
    fixed: u32,
    diag: Option<Box<Diag>>,
    /// How many bytes before the first impossible byte its character
    /// starts (a character that begins like the expected one).
    back: u64,
    failed: Option<Diagnostic>,
    root: Option<Value>,
    keep: Option<String>,
    collect: bool,
    events: Vec<Event>,
    /// What the one-byte path reads in line, and before which offset.
    mode: Quick,
    quick_limit: u64,
}

impl<'s> StreamDecoder<'s> {
    /// A decoder of documents of `schema`, before the first byte.
    pub fn new(schema: &'s Schema) -> StreamDecoder<'s> {
        let plan = schema.stream_plan();
        StreamDecoder {
            schema,
            plan,
            fed: 0,
            base: 0,
            pos: 0,
            utf8: Utf8::default(),
            phase: Phase::Prefix,
            frames: Vec::new(),
            leaf: Leaf::None,
            text: String::new(),
            bytes: Vec::new(),
            lit: &plan.prefix,
            lit_i: 0,
            cands: Vec::new(),
            quoted: "",
            case_i: 0,
            fixed: 0,
            diag: None,
            back: 0,
            failed: None,
            root: None,
            keep: None,
            collect: false,
            events: Vec::new(),
            mode: Quick::Unknown,
            quick_limit: 0,
        }
    }

    /// Keeps a copy of the accepted bytes, so that
    /// [`finish`](StreamDecoder::finish) returns them as the canonical
    /// document instead of rendering it again from the value (the bytes
    /// are the same; keeping them costs memory in proportion to the
    /// document).
    pub fn keep_canonical(mut self) -> Self {
        self.keep = Some(String::new());
        self
    }

    /// The number of bytes accepted so far.
    pub fn offset(&self) -> u64 {
        self.pos
    }

    /// Reads the next chunk. `Err` is the refusal; it is final.
    #[inline]
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), Diagnostic> {
        self.collect = false;
        match self.quick(chunk) {
            // (An empty chunk still goes on: a refusal is returned again.)
            0 if !chunk.is_empty() => Ok(()),
            n => self.feed_chunk(chunk.get(chunk.len() - n..).unwrap_or_default()),
        }
    }

    /// [`feed`](StreamDecoder::feed), handing the chunk's events to `on`
    /// (in order, then one [`Event::Progress`] when the chunk is accepted).
    /// The events of a chunk that is refused are handed over too: they
    /// were admissible when read.
    pub fn feed_with(
        &mut self,
        chunk: &[u8],
        on: &mut impl FnMut(Event),
    ) -> Result<(), Diagnostic> {
        self.collect = true;
        let r = match self.quick(chunk) {
            0 if !chunk.is_empty() => Ok(()),
            n => self.feed_chunk(chunk.get(chunk.len() - n..).unwrap_or_default()),
        };
        for e in self.events.drain(..) {
            on(e);
        }
        if r.is_ok() {
            on(Event::Progress { offset: self.pos });
        }
        r
    }

    /// Ends the stream: the value and its canonical document, exactly as
    /// [`crate::decode::decode`] on the concatenated bytes, or the refusal.
    pub fn finish(mut self) -> Result<Decoded, Diagnostic> {
        let value = self.end()?;
        let canonical = match self.keep.take() {
            Some(text) => text,
            None => crate::encode::render_document(self.schema, &value)
                .map_err(|_| Diagnostic::z205(rules::CANONICAL_MISMATCH).at_pointer("/value"))?,
        };
        Ok(Decoded { value, canonical })
    }

    /// [`finish`](StreamDecoder::finish), without the canonical document.
    pub fn finish_value(mut self) -> Result<Value, Diagnostic> {
        self.end()
    }

    fn end(&mut self) -> Result<Value, Diagnostic> {
        if let Some(d) = &self.failed {
            return Err(d.clone());
        }
        let r = self.end_inner();
        if let Err(d) = &r {
            self.failed = Some(d.clone());
        }
        r
    }

    fn end_inner(&mut self) -> Result<Value, Diagnostic> {
        let deviation = self.diag.as_ref().map(|g| g.offset);
        if self.utf8.pending() {
            let at = self.utf8.pending_at();
            return Err(decode::utf8_at(at).at_offset(deviation.unwrap_or(self.fed)));
        }
        if let Some(mut g) = self.diag.take() {
            let off = g.offset;
            return Err(match g.lf {
                Some(0) => decode::framing(framing_words::EMPTY).at_offset(off),
                Some(_) => {
                    let mut heard = Heard::default();
                    let text = &mut g.text;
                    match g.push.finish(&mut |t| hear(&mut heard, text, t)) {
                        Err(Stop::Json(e)) => decode::json_syntax(&e).at_offset(off),
                        _ => match &g.wait {
                            Wait::Then(d, _) => d.clone().at_offset(off),
                            _ => decode::framing(framing_words::NO_LF).at_offset(off),
                        },
                    }
                }
                None => decode::framing(framing_words::NO_LF).at_offset(off),
            });
        }
        if self.phase == Phase::Done {
            if let Some(v) = self.root.take() {
                return Ok(v);
            }
        }
        Err(decode::framing(framing_words::NO_LF).at_offset(self.fed))
    }

    /// The bytes of a short chunk (of at most [`SHORT`], as a model's
    /// tokens are) read one at a time while each continues what is being
    /// read without ending it or deviating: a literal's next byte (not its
    /// last), a string's character or escape byte, an integer's digit, a
    /// byte array's digit or comma. Exactly what [`Self::run`] (and, for a
    /// character cut by chunks, [`Utf8::check`]) does with that byte — the
    /// one-byte chunkings of the differential tests hold it to that —
    /// without its dispatch, the UTF-8 step or the checks it makes per
    /// call. Returns how many bytes are left for [`Self::feed_chunk`]
    /// (which sees every other byte, and every longer chunk).
    ///
    /// A leaf is being read exactly when `self.leaf` is not `Leaf::None`
    /// (the top frame's step is then `Value`). Otherwise [`Self::run`]
    /// matches `self.lit`, except at a case id and once the document is
    /// complete, where `self.lit` is the literal already matched in full
    /// (`lit_i` is its length), so that no byte continues it here either.
    #[inline]
    fn quick(&mut self, chunk: &[u8]) -> usize {
        if chunk.len() > SHORT {
            return chunk.len();
        }
        if self.mode == Quick::Unknown {
            self.set_mode();
        }
        for (k, &b) in chunk.iter().enumerate() {
            let at = self.fed;
            let read = b < 0x80
                && at < self.quick_limit
                && match self.mode {
                    Quick::Lit => {
                        let want = self.lit.text.as_bytes();
                        let more = self.lit_i + 1 < want.len() && want.get(self.lit_i) == Some(&b);
                        self.lit_i += usize::from(more);
                        more
                    }
                    Quick::Str => match &mut self.leaf {
                        Leaf::Str { p, .. } => p.push_plain(b, &mut self.text),
                        _ => false,
                    },
                    Quick::Bytes => match &mut self.leaf {
                        Leaf::Bytes { at: state, el } => {
                            Self::quick_element(&mut self.bytes, state, el, b)
                        }
                        _ => false,
                    },
                    Quick::Unknown | Quick::Slow => false,
                };
            if !read {
                if !self.quick_rare(b, at) {
                    return chunk.len() - k;
                }
                continue;
            }
            self.fed += 1;
            self.pos += 1;
            if let Some(keep) = &mut self.keep {
                keep.push(char::from(b));
            }
        }
        0
    }

    /// What [`Self::quick`] may read in line from here on, and before which
    /// offset (the budget's bound for the bytes it reads; past it, and for
    /// anything else, [`Self::quick_rare`] and [`Self::feed_chunk`]
    /// decide).
    ///
    /// A leaf is being read exactly when `self.leaf` is not `Leaf::None`
    /// (the top frame's step is then `Value`). Otherwise [`Self::run`]
    /// matches `self.lit`, except at a case id and once the document is
    /// complete, where `self.lit` is the literal already matched in full
    /// (`lit_i` is its length), so that no byte continues it in line
    /// either.
    fn set_mode(&mut self) {
        debug_assert!(
            !matches!(self.leaf, Leaf::None)
                || self.phase != Phase::Done
                    && self.frames.last().map(|f| f.step) != Some(Step::CaseId)
                || self.lit_i == self.lit.text.len()
        );
        let fixed = u64::from(self.fixed);
        let quiet = self.failed.is_none() && self.diag.is_none() && !self.utf8.pending();
        // The first byte checks the schema's root (`lit_step`).
        let (mode, limit) = match self.leaf {
            _ if !quiet || self.fed == 0 => (Quick::Slow, 0),
            Leaf::None => (Quick::Lit, MAX),
            // Content may end before `MAX - 1 - fixed` (`str_step`).
            Leaf::Str { open: true, .. } => (Quick::Str, MAX.saturating_sub(1 + fixed)),
            // A digit needs `at + 2 + fixed <= MAX`, a comma `at + 3 + fixed
            // <= MAX` (`bytes_step`).
            Leaf::Bytes { .. } => (Quick::Bytes, MAX.saturating_sub(2 + fixed)),
            _ => (Quick::Slow, 0),
        };
        self.mode = mode;
        self.quick_limit = limit;
    }

    /// A byte array's byte for [`Self::quick`], within the budget: the
    /// conditions under which [`Self::bytes_step`] reads it.
    #[inline(always)]
    fn quick_element(
        bytes: &mut Vec<u8>,
        state: &mut Bytes,
        el: &mut ElementPrefix,
        b: u8,
    ) -> bool {
        match (*state, b) {
            (Bytes::Element, b'0'..=b'9') => {
                // (A copy: a refused digit leaves the prefix broken.)
                let mut e = *el;
                let read = e.push(b);
                if read {
                    *el = e;
                }
                read
            }
            (Bytes::First | Bytes::Comma, b'0'..=b'9') => {
                let mut e = ElementPrefix::new();
                e.push(b);
                *state = Bytes::Element;
                *el = e;
                true
            }
            (Bytes::Element, b',') => {
                if bytes.len() + 1 >= limits::MAX_BYTES_LEN {
                    return false;
                }
                bytes.push(el.value().unwrap_or(0));
                *state = Bytes::Comma;
                *el = ElementPrefix::new();
                true
            }
            _ => false,
        }
    }

    /// The rarer bytes of [`Self::quick`], out of line, with every check
    /// of their own: a string's escape byte, an integer's digit, a byte
    /// of a string's character of two to four bytes. True when the byte
    /// was read (the offsets and the canonical copy advanced), false when
    /// nothing was done.
    #[inline(never)]
    fn quick_rare(&mut self, b: u8, at: u64) -> bool {
        if at == 0 || at >= MAX || self.failed.is_some() || self.diag.is_some() {
            return false;
        }
        let fixed = u64::from(self.fixed);
        if b >= 0x80 || self.utf8.pending() {
            // The character's state changes what is read in line.
            self.mode = Quick::Unknown;
            return self.quick_utf8(b, fixed);
        }
        let read = match &mut self.leaf {
            Leaf::Str { open: true, p } => {
                // An escape's byte, kept when the escape can still fit the
                // budget (`str_step`: content before `MAX - 1 - fixed`).
                if at + 1 + fixed >= MAX {
                    return false;
                }
                let (before, len) = (*p, self.text.len());
                if !p.push_escape(b, &mut self.text) {
                    return false;
                }
                if escape_over(*p, at + 1, fixed).is_some() {
                    *p = before;
                    self.text.truncate(len);
                    return false;
                }
                true
            }
            Leaf::Int {
                repr,
                open: true,
                d,
            } => {
                // A quote ends it (`int_step`).
                if b == b'"' {
                    return false;
                }
                let Ok(next) = integer_byte(*d, b, *repr, at, fixed) else {
                    return false;
                };
                *d = next;
                self.text.push(char::from(b));
                true
            }
            _ => false,
        };
        if read {
            self.fed += 1;
            self.pos += 1;
            if let Some(keep) = &mut self.keep {
                keep.push(char::from(b));
            }
        }
        read
    }

    /// A byte of a string's character of two to four bytes, for
    /// [`Self::quick`]: held as [`Utf8::check`] would hold it, or, when it
    /// completes a character the string reads as itself (with room for
    /// it, and within the budget, as `str_step` reads it), read.
    fn quick_utf8(&mut self, b: u8, fixed: u64) -> bool {
        let Leaf::Str { open: true, p } = &mut self.leaf else {
            return false;
        };
        if p.escape() != Escape::None {
            return false;
        }
        match self.utf8.next(b) {
            Next::Other => false,
            Next::Held => {
                self.utf8.hold(b, self.fed);
                self.fed += 1;
                true
            }
            Next::Char(c, start) => {
                // Content may end before `MAX - 1 - fixed` (`str_step`).
                let end = start + c.len_utf8() as u64;
                if end + 1 + fixed > MAX || !p.push_plain_char(c, &mut self.text) {
                    return false;
                }
                self.utf8.clear();
                self.fed += 1;
                self.pos += c.len_utf8() as u64;
                if let Some(keep) = &mut self.keep {
                    keep.push(c);
                }
                true
            }
        }
    }

    fn feed_chunk(&mut self, chunk: &[u8]) -> Result<(), Diagnostic> {
        // Whatever runs here can change what the one-byte path may read.
        self.mode = Quick::Unknown;
        if let Some(d) = &self.failed {
            return Err(d.clone());
        }
        // A short chunk of ASCII within the size bound, after whole
        // characters: it is its own UTF-8 check (§7 steps 1 and 2 have
        // nothing to say), and is run as it is.
        if chunk.len() <= SHORT
            && !self.utf8.pending()
            && self.fed + chunk.len() as u64 <= MAX
            && chunk.is_ascii()
        {
            if let Ok(s) = std::str::from_utf8(chunk) {
                self.base = self.fed;
                self.fed += chunk.len() as u64;
                let r = self.run(s);
                return self.keep_refusal(r);
            }
        }
        let r = self.feed_checked(chunk);
        self.keep_refusal(r)
    }

    /// Keeps a refusal as final. (A match, not a copy of `r`: the `Ok` of
    /// every accepted chunk stays one discriminant, not a whole
    /// `Result<(), Diagnostic>` moved through memory.)
    #[inline(always)]
    fn keep_refusal(&mut self, r: Result<(), Diagnostic>) -> Result<(), Diagnostic> {
        match r {
            Ok(()) => Ok(()),
            Err(d) => {
                self.failed = Some(d.clone());
                Err(d)
            }
        }
    }

    fn feed_checked(&mut self, chunk: &[u8]) -> Result<(), Diagnostic> {
        let (checked, over) = self.utf8.bounded(&mut self.fed, chunk);
        if let Some((c, at)) = checked.head {
            let mut tmp = [0u8; 4];
            let s: &str = c.encode_utf8(&mut tmp);
            self.base = at;
            self.run(s)?;
        }
        self.base = checked.body_at;
        self.run(checked.body)?;
        if let Some(bad) = checked.invalid {
            let off = self.diag.as_ref().map_or(bad, |g| g.offset);
            return Err(decode::utf8_at(checked.body_at + checked.body.len() as u64).at_offset(off));
        }
        if over {
            let off = self.diag.as_ref().map_or(MAX, |g| g.offset);
            return Err(decode::document_bytes(format!(
                "the document has more than {MAX} bytes; at most {MAX} are allowed"
            ))
            .at_offset(off));
        }
        Ok(())
    }

    /// Reads whole characters; `self.base` is the offset of `s`'s first
    /// byte.
    fn run(&mut self, s: &str) -> Result<(), Diagnostic> {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if self.diag.is_some() {
                self.keep_upto(s, i);
                self.pos = self.base + i as u64;
                let r = self.diagnose(s, i);
                self.pos = self.base + b.len() as u64;
                return r;
            }
            i = match self.phase {
                Phase::Prefix | Phase::EnvClose | Phase::Lf => self.lit_step(s, i)?,
                Phase::Done => {
                    let at = self.base + i as u64;
                    return Err(decode::framing(&framing_words::lf_at(at - 1)).at_offset(at));
                }
                Phase::Root => match self.frames.last().map(|f| f.step) {
                    Some(Step::CaseId) => self.case_step(s, i)?,
                    Some(Step::Value) => self.leaf_step(s, i)?,
                    _ => self.lit_step(s, i)?,
                },
            };
        }
        self.keep_upto(s, b.len());
        self.pos = self.base + b.len() as u64;
        Ok(())
    }

    fn keep_upto(&mut self, s: &str, i: usize) {
        if let Some(k) = &mut self.keep {
            k.push_str(s.get(..i).unwrap_or_default());
        }
    }

    fn at(&self, i: usize) -> u64 {
        self.base + i as u64
    }

    // ------------------------------------------------------------ literals

    fn set(&mut self, lit: &'s Lit) {
        self.lit = lit;
        self.lit_i = 0;
    }

    fn top(&self) -> usize {
        self.frames.len().saturating_sub(1)
    }

    /// The fields of frame `f` (those of its case, once chosen).
    fn decl(&self, f: &Frame) -> &'s [Field] {
        self.schema.graph().fields_of(f.ty, f.case)
    }

    fn cases(&self, ty: usize) -> &'s [Case] {
        self.schema.graph().cases_of(ty)
    }

    fn is_variant(&self, ty: usize) -> bool {
        self.schema.graph().is_variant(ty)
    }

    /// Matches the literal from byte `i` of `s`.
    fn lit_step(&mut self, s: &str, i: usize) -> Result<usize, Diagnostic> {
        if self.phase == Phase::Prefix && self.lit_i == 0 && self.at(i) == 0 {
            self.check_root()?;
        }
        let have = s.as_bytes().get(i..).unwrap_or_default();
        let want = self
            .lit
            .text
            .as_bytes()
            .get(self.lit_i..)
            .unwrap_or_default();
        let n = common_prefix(have, want);
        self.lit_i += n;
        let mut i = i + n;
        if self.lit_i == self.lit.text.len() {
            self.lit_done();
        } else if i < s.len() {
            // The first impossible byte may be inside a character that
            // begins like the expected one: the offset is that byte, the
            // diagnosis starts at the character.
            let at = self.at(i);
            let back = (0..4).find(|k| s.is_char_boundary(i - k)).unwrap_or(0);
            i -= back;
            self.lit_i -= back;
            self.back = back as u64;
            self.lit_deviation(i, at)?;
        }
        Ok(i)
    }

    /// The root value cannot be completed at all (a hand-built graph that
    /// always nests deeper than 16, or whose shortest document is over the
    /// size bound): the first byte is already impossible.
    fn check_root(&self) -> Result<(), Diagnostic> {
        let root = self.schema.graph().root_index();
        let min = self.plan.shortest.get(root, 0);
        if min == INF {
            let ptr = self.infeasible_ptr(root, 0, String::from("/value"));
            return Err(Diagnostic::z206("value.max_depth")
                .at_pointer(ptr)
                .at_offset(0));
        }
        let total = (self.lit.text.len() as u64) + u64::from(min) + 2;
        if total > MAX {
            return Err(decode::document_bytes(format!(
                "the shortest document of this schema has {total} bytes; at most {MAX} are allowed"
            ))
            .at_offset(0));
        }
        Ok(())
    }

    fn infeasible_ptr(&self, t: usize, d: usize, ptr: String) -> String {
        self.plan.shortest.infeasible_ptr(self.schema, t, d, ptr)
    }

    fn infeasible_field(&self, fields: &[Field], d: usize, ptr: String) -> String {
        self.plan
            .shortest
            .infeasible_field(self.schema, fields, d, ptr)
    }

    /// The literal is complete: on to what follows it.
    fn lit_done(&mut self) {
        match self.phase {
            Phase::Prefix => {
                self.phase = Phase::Root;
                let root = self.schema.graph().root_index();
                self.open_frame(root, 0);
            }
            Phase::EnvClose => {
                self.phase = Phase::Lf;
                self.set(&self.plan.final_lf);
            }
            Phase::Lf => self.phase = Phase::Done,
            Phase::Done => {}
            Phase::Root => {
                let Some(f) = self.frames.last() else { return };
                match f.step {
                    Step::Open if self.is_variant(f.ty) => self.start_case(),
                    Step::Open | Step::AfterCase => self.next_member(),
                    Step::Member => self.start_value(),
                    Step::Close => self.frame_done(),
                    Step::CaseId | Step::Value => {}
                }
            }
        }
    }

    fn open_frame(&mut self, ty: usize, depth: usize) {
        let Some(tp) = self.plan.types.get(ty) else {
            return;
        };
        self.set(&tp.open);
        // A record's fields are known (a variant's once its case is).
        let room = self.schema.graph().fields_of(ty, None).len();
        let rest = self
            .plan
            .shortest
            .get(ty, depth)
            .saturating_sub(tp.open.text.len() as u32);
        self.frames.push(Frame {
            ty,
            depth,
            case: None,
            field: 0,
            step: Step::Open,
            fields: Vec::with_capacity(room),
            rest,
        });
    }

    /// The shortest rest of the document after the innermost item: every
    /// frame's rest and the envelope's `}` LF.
    fn fixed(&self) -> u32 {
        self.frames
            .iter()
            .fold(2u32, |acc, f| acc.saturating_add(f.rest))
    }

    /// The member literal of the top frame's next field, or its close.
    fn next_member(&mut self) {
        let plan = self.plan;
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        let member = plan
            .types
            .get(f.ty)
            .and_then(|t| t.cases.get(f.case.unwrap_or(0)))
            .and_then(|c| c.members.get(f.field));
        let lit = match member {
            Some(lit) => {
                f.step = Step::Member;
                lit
            }
            None => {
                f.step = Step::Close;
                &plan.close
            }
        };
        f.rest = f.rest.saturating_sub(lit.text.len() as u32);
        self.set(lit);
    }

    /// The value of the top frame's current field.
    fn start_value(&mut self) {
        let k = self.top();
        let Some(f) = self.frames.get(k) else { return };
        let Some(field) = self.decl(f).get(f.field) else {
            return;
        };
        let depth = f.depth;
        let vmin = self.plan.shortest.value(field, depth);
        if let Some(f) = self.frames.get_mut(k) {
            f.step = Step::Value;
            f.rest = f.rest.saturating_sub(vmin);
        }
        match field.ty {
            FieldType::Scalar(r) => {
                self.leaf = match r {
                    Repr::Bool => Leaf::Bool { i: 0, value: false },
                    Repr::String => Leaf::Str {
                        open: false,
                        p: StringPrefix::new(),
                    },
                    Repr::Bytes => Leaf::Bytes {
                        at: Bytes::Start,
                        el: ElementPrefix::new(),
                    },
                    r => Leaf::Int {
                        repr: r,
                        open: false,
                        d: DecimalPrefix::new(),
                    },
                };
                self.text.clear();
                self.bytes.clear();
                self.fixed = self.fixed();
            }
            FieldType::Nested(t) => self.open_frame(t, depth + 1),
        }
    }

    /// A field of the top frame is complete.
    fn field_done(&mut self, value: Value) {
        let k = self.top();
        let Some(f) = self.frames.get(k) else { return };
        let id = self
            .decl(f)
            .get(f.field)
            .map(|x| x.stable_id.clone())
            .unwrap_or_default();
        if self.collect && !matches!(value, Value::Record(_) | Value::Variant { .. }) {
            let pointer = self.field_ptr(k, &id);
            self.events.push(Event::FieldDone {
                pointer,
                value: value.clone(),
            });
        }
        if let Some(f) = self.frames.get_mut(k) {
            f.fields.push((id, value));
            f.field += 1;
        }
        self.leaf = Leaf::None;
        self.next_member();
    }

    fn frame_done(&mut self) {
        let Some(f) = self.frames.pop() else { return };
        let value = match f.case {
            Some(c) => Value::Variant {
                case: self
                    .cases(f.ty)
                    .get(c)
                    .map(|c| c.stable_id.clone())
                    .unwrap_or_default(),
                fields: f.fields,
            },
            None => Value::Record(f.fields),
        };
        if self.frames.is_empty() {
            self.root = Some(value);
            self.phase = Phase::EnvClose;
            self.set(&self.plan.env_close);
        } else {
            self.field_done(value);
        }
    }

    fn frame_ptr(&self, k: usize) -> String {
        let mut p = String::from("/value");
        for f in self.frames.iter().take(k) {
            if let Some(field) = self.decl(f).get(f.field) {
                p.push_str("/fields");
                push_pointer_token(&mut p, &field.stable_id);
            }
        }
        p
    }

    fn field_ptr(&self, k: usize, id: &str) -> String {
        let mut p = self.frame_ptr(k);
        p.push_str("/fields");
        push_pointer_token(&mut p, id);
        p
    }

    /// The pointer of the top frame's current field.
    fn leaf_ptr(&self) -> String {
        let k = self.top();
        let id = self
            .frames
            .get(k)
            .and_then(|f| self.decl(f).get(f.field))
            .map_or("", |f| f.stable_id.as_str());
        self.field_ptr(k, id)
    }

    fn obj_ptr(&self, obj: Obj) -> String {
        match obj {
            Obj::Env => String::new(),
            Obj::Value => self.frame_ptr(self.top()),
            Obj::Fields => {
                let mut p = self.frame_ptr(self.top());
                p.push_str("/fields");
                p
            }
        }
    }

    fn child_ptr(&self, obj: Obj, key: &str) -> String {
        let mut p = self.obj_ptr(obj);
        push_pointer_token(&mut p, key);
        p
    }

    /// The keys of an object, in order.
    fn obj_keys(&self, obj: Obj) -> Vec<&'s str> {
        match obj {
            Obj::Env => ENVELOPE_KEYS.to_vec(),
            Obj::Value => match self.frames.last() {
                Some(f) if self.is_variant(f.ty) => vec!["case", "fields"],
                _ => vec!["fields"],
            },
            Obj::Fields => self
                .frames
                .last()
                .map(|f| self.decl(f).iter().map(|x| x.stable_id.as_str()).collect())
                .unwrap_or_default(),
        }
    }

    /// The open containers of the document up to and including `obj`
    /// (`true` for objects).
    fn stack_upto(&self, obj: Obj) -> Vec<bool> {
        let k = self.top();
        let extra = match obj {
            Obj::Env => return vec![true],
            Obj::Value => 1,
            Obj::Fields => 2,
        };
        vec![true; 1 + 2 * k + extra]
    }

    fn over_budget(&self, at: u64) -> Diagnostic {
        decode::document_bytes(format!(
            "no continuation fits in {MAX} bytes: the shortest completion after byte {at} is too long"
        ))
        .at_offset(at)
    }

    // ------------------------------------------------------------ case ids

    fn start_case(&mut self) {
        let k = self.top();
        let Some(f) = self.frames.get(k) else { return };
        let (ty, depth) = (f.ty, f.depth);
        self.cands.clear();
        self.case_i = 0;
        let Some(tp) = self.plan.types.get(ty) else {
            return;
        };
        self.quoted = &tp.quoted;
        for (c, &(start, end)) in tp.ids.iter().enumerate() {
            let after = self.plan.shortest.after_case(ty, c, depth);
            if after != INF {
                self.cands.push((c, start, end, after));
            }
        }
        if let Some(f) = self.frames.get_mut(k) {
            f.step = Step::CaseId;
            f.rest = 0;
        }
        self.fixed = self.fixed();
    }

    fn case_step(&mut self, s: &str, i: usize) -> Result<usize, Diagnostic> {
        let b = s.as_bytes();
        // The whole rest of one candidate's quoted id in this chunk (no id
        // is a prefix of another: each ends with its closing quote). The
        // byte-by-byte budget checks below would all pass when the last
        // one does, as every other candidate still possible on the way
        // needs no more than the one matched.
        let have = b.get(i..).unwrap_or_default();
        let lit = self.quoted.as_bytes();
        let whole = self.cands.iter().find_map(|&(case, start, stop, after)| {
            let rest = lit.get(start + self.case_i..stop)?;
            have.starts_with(rest).then_some((case, rest.len(), after))
        });
        if let Some((case, n, after)) = whole {
            if self.at(i) + (n as u64) + u64::from(after) + u64::from(self.fixed) <= MAX {
                self.case_i += n;
                self.case_chosen(case, after);
                return Ok(i + n);
            }
        }
        let mut i = i;
        while let Some(&c) = b.get(i) {
            let at = self.case_i;
            let lit = self.quoted.as_bytes();
            if !self.cands.iter().any(|x| lit.get(x.1 + at) == Some(&c)) {
                let off = self.at(i);
                let back = (0..4).find(|k| s.is_char_boundary(i - k)).unwrap_or(0);
                self.case_i -= back;
                self.back = back as u64;
                self.case_deviation(i - back, off);
                return Ok(i - back);
            }
            self.cands.retain(|x| lit.get(x.1 + at) == Some(&c));
            self.case_i += 1;
            let end = self.at(i) + 1;
            i += 1;
            let matched = self.case_i;
            let need = self
                .cands
                .iter()
                .map(|&(_, start, stop, after)| {
                    ((stop - start - matched) as u32).saturating_add(after)
                })
                .min()
                .unwrap_or(INF);
            if end + u64::from(need) + u64::from(self.fixed) > MAX {
                return Err(self.over_budget(end - 1));
            }
            let done = self
                .cands
                .iter()
                .find(|&&(_, start, stop, _)| stop - start == matched)
                .copied();
            if let Some((case, _, _, after)) = done {
                self.case_chosen(case, after);
                return Ok(i);
            }
        }
        Ok(i)
    }

    fn case_chosen(&mut self, case: usize, after: u32) {
        let k = self.top();
        let Some(f) = self.frames.get_mut(k) else {
            return;
        };
        f.case = Some(case);
        f.fields
            .reserve_exact(self.schema.graph().fields_of(f.ty, Some(case)).len());
        f.step = Step::AfterCase;
        f.rest = after.saturating_sub(AFTER_CASE.len() as u32);
        let ty = f.ty;
        if self.collect {
            let pointer = self.frame_ptr(k);
            let id = self
                .cases(ty)
                .get(case)
                .map(|c| c.stable_id.clone())
                .unwrap_or_default();
            self.events.push(Event::CaseChosen { pointer, case: id });
        }
        if let Some(lit) = self
            .plan
            .types
            .get(ty)
            .and_then(|t| t.cases.get(case))
            .map(|c| &c.after)
        {
            self.set(lit);
        }
    }

    // ------------------------------------------------------------ leaves

    fn leaf_step(&mut self, s: &str, i: usize) -> Result<usize, Diagnostic> {
        let b = s.as_bytes();
        let Some(&c) = b.get(i) else { return Ok(i) };
        let at = self.at(i);
        let fixed = u64::from(self.fixed);
        let fits = |end: u64, rest: u64| end + rest + fixed <= MAX;
        match self.leaf {
            Leaf::None => Ok(b.len()),
            Leaf::Bool { i: 0, .. } => {
                if c == b't' || c == b'f' {
                    let rest = if c == b't' { 3 } else { 4 };
                    if !fits(at + 1, rest) {
                        return Err(self.over_budget(at));
                    }
                    self.leaf = Leaf::Bool {
                        i: 1,
                        value: c == b't',
                    };
                    Ok(i + 1)
                } else {
                    self.value_deviation(Repr::Bool, at);
                    Ok(i)
                }
            }
            Leaf::Bool { i: k, value } => {
                let lit: &[u8] = if value { b"true" } else { b"false" };
                let want = lit.get(usize::from(k)..).unwrap_or_default();
                let have = b.get(i..).unwrap_or_default();
                let n = have.iter().zip(want).take_while(|(x, y)| x == y).count();
                if n == want.len() {
                    self.field_done(Value::Bool(value));
                    return Ok(i + n);
                }
                if i + n < b.len() {
                    let prefix =
                        std::str::from_utf8(lit.get(..usize::from(k) + n).unwrap_or_default())
                            .unwrap_or_default()
                            .to_owned();
                    self.enter(
                        self.at(i + n),
                        self.stack_upto(Obj::Fields),
                        Resume::Value,
                        &prefix,
                        Place::Syntax,
                        snippet(
                            want.get(n..)
                                .map(String::from_utf8_lossy)
                                .unwrap_or_default()
                                .as_ref(),
                        ),
                    );
                    return Ok(i + n);
                }
                self.leaf = Leaf::Bool {
                    i: k + n as u8,
                    value,
                };
                Ok(i + n)
            }
            Leaf::Int {
                repr,
                open: false,
                d,
            } => {
                if c == b'"' {
                    if !fits(at + 1, 2) {
                        return Err(self.over_budget(at));
                    }
                    if let Some(n) = self.whole_integer(b, i, repr) {
                        return Ok(n);
                    }
                    self.leaf = Leaf::Int {
                        repr,
                        open: true,
                        d,
                    };
                    Ok(i + 1)
                } else {
                    self.value_deviation(repr, at);
                    Ok(i)
                }
            }
            Leaf::Int {
                repr,
                open: true,
                d,
            } => self.int_step(s, i, repr, d),
            Leaf::Str { open: false, p } => {
                if c == b'"' {
                    if !fits(at + 1, 1) {
                        return Err(self.over_budget(at));
                    }
                    if let Some(n) = plain_string(b.get(i + 1..).unwrap_or_default()) {
                        // The whole string, written as itself, in this
                        // chunk: read as `str_step` would, in one step.
                        // Its content must end where the budget allows
                        // (`str_step`'s limit).
                        if self.at(i + 1 + n) + 1 + fixed <= MAX {
                            let text = s.get(i + 1..i + 1 + n).unwrap_or_default().to_owned();
                            self.field_done(Value::String(text));
                            return Ok(i + n + 2);
                        }
                    }
                    self.leaf = Leaf::Str { open: true, p };
                    Ok(i + 1)
                } else {
                    self.value_deviation(Repr::String, at);
                    Ok(i)
                }
            }
            Leaf::Str { open: true, p } => self.str_step(s, i, p),
            Leaf::Bytes {
                at: state @ (Bytes::First | Bytes::Comma),
                el,
            } => {
                // (A few bytes are read one at a time: the blocks would
                // cost more.)
                let j = if b.len() - i >= 8 {
                    self.bytes_run(b, i)
                } else {
                    i
                };
                if j > i {
                    self.leaf = Leaf::Bytes {
                        at: Bytes::Comma,
                        el: ElementPrefix::new(),
                    };
                    return Ok(j);
                }
                self.bytes_step(c, i, state, el)
            }
            Leaf::Bytes { at: state, el } => self.bytes_step(c, i, state, el),
        }
    }

    /// The fast path of a byte array: from element start `i`, every whole
    /// element followed by `,` that [`Self::bytes_step`] would accept byte
    /// by byte without a deviation (canonical digits, at most 255, the
    /// element count and the size budget not reached), read in one loop.
    /// Returns the start of the first element it leaves to
    /// `bytes_step` (`i` when none): an element at the chunk's end, the
    /// last one (`]`), or any byte that is not exactly that.
    fn bytes_run(&mut self, b: &[u8], i: usize) -> usize {
        let fixed = u64::from(self.fixed);
        // Block by block first, over the part of the chunk where a comma
        // still fits the budget (`comma + 1 + 2 + fixed <= MAX`); then one
        // element at a time, to the first one the blocks left.
        let fit = (MAX + 1).saturating_sub(3 + fixed + self.base) as usize;
        let whole = b.get(..fit.min(b.len())).unwrap_or_default();
        let mut k = comma_elements::<Native>(whole, i, &mut self.bytes, limits::MAX_BYTES_LEN);
        loop {
            let (value, len) = match b.get(k..k + 4) {
                Some(&[b'0', b',', ..]) => (0u16, 1),
                Some(&[d @ b'1'..=b'9', b',', ..]) => (u16::from(d - b'0'), 1),
                Some(&[d @ b'1'..=b'9', e @ b'0'..=b'9', b',', _]) => {
                    (u16::from(d - b'0') * 10 + u16::from(e - b'0'), 2)
                }
                Some(&[d @ b'1'..=b'9', e @ b'0'..=b'9', f @ b'0'..=b'9', b',']) => (
                    u16::from(d - b'0') * 100 + u16::from(e - b'0') * 10 + u16::from(f - b'0'),
                    3,
                ),
                _ => return k,
            };
            // The comma's own budget check (`fits(2)` at the comma) implies
            // those of the digits before it.
            let comma = self.at(k + len);
            if value > 255
                || self.bytes.len() + 1 >= limits::MAX_BYTES_LEN
                || comma + 1 + 2 + fixed > MAX
            {
                return k;
            }
            self.bytes.push(value as u8);
            k += len + 1;
        }
    }

    /// A whole canonical integer in this chunk, from its opening quote at
    /// `i`: read at once with the codec's decimal rule when it is in
    /// `repr`'s range and its closing quote fits the budget (which implies
    /// every budget check `int_step` makes on the way). Returns the index
    /// after the closing quote; `None` leaves it to `int_step`, byte by
    /// byte, which names any refusal.
    fn whole_integer(&mut self, b: &[u8], i: usize, repr: Repr) -> Option<usize> {
        let Decimal::Value {
            negative,
            magnitude,
            end,
        } = scalar::decimal(b, i + 1)
        else {
            return None;
        };
        if b.get(end) != Some(&b'"') || self.at(end) + 1 + u64::from(self.fixed) > MAX {
            return None;
        }
        let value = match repr {
            Repr::U8 | Repr::U64 => (!negative && scalar::unsigned_fits(repr, magnitude))
                .then_some(Value::U64(magnitude)),
            Repr::I32 | Repr::I64 => scalar::signed(negative, magnitude)
                .filter(|&v| scalar::signed_fits(repr, v))
                .map(Value::I64),
            _ => None,
        }?;
        self.field_done(value);
        Some(end + 1)
    }

    fn int_step(
        &mut self,
        s: &str,
        mut i: usize,
        repr: Repr,
        mut d: DecimalPrefix,
    ) -> Result<usize, Diagnostic> {
        let b = s.as_bytes();
        while let Some(&c) = b.get(i) {
            let at = self.at(i);
            if c == b'"' {
                return match d.finish(repr) {
                    Ok(Int::Signed(v)) => {
                        self.field_done(Value::I64(v));
                        Ok(i + 1)
                    }
                    Ok(Int::Unsigned(v)) => {
                        self.field_done(Value::U64(v));
                        Ok(i + 1)
                    }
                    // `""` or `"-"`: the closing quote is the first
                    // impossible byte, and the integer is complete.
                    Err(rule) => {
                        let ptr = self.leaf_ptr();
                        let text = self.text.clone();
                        Err(self.integer_refusal(repr, rule, ptr, &text).at_offset(at))
                    }
                };
            }
            let next = match integer_byte(d, c, repr, at, u64::from(self.fixed)) {
                Ok(next) => next,
                Err(IntStop::OverBudget) => return Err(self.over_budget(at)),
                Err(IntStop::Deviates) => {
                    self.leaf = Leaf::Int {
                        repr,
                        open: true,
                        d,
                    };
                    let ptr = self.leaf_ptr();
                    let prefix = format!("\"{}", self.text);
                    self.enter(
                        at,
                        self.stack_upto(Obj::Fields),
                        Resume::Value,
                        &prefix,
                        Place::InInteger(repr, ptr),
                        "a canonical decimal".to_owned(),
                    );
                    return Ok(i);
                }
            };
            d = next;
            self.text.push(char::from(c));
            i += 1;
        }
        // The chunk ended inside the integer: its state is kept for the
        // next one (written once, not per digit).
        self.leaf = Leaf::Int {
            repr,
            open: true,
            d,
        };
        Ok(i)
    }

    fn str_step(&mut self, s: &str, i: usize, mut p: StringPrefix) -> Result<usize, Diagnostic> {
        let at = self.at(i);
        let fixed = u64::from(self.fixed);
        // Content may end at `limit` (exclusive); the byte at `limit` may
        // only be the closing quote.
        let limit = MAX.saturating_sub(1 + fixed);
        let room = limit.saturating_sub(at) as usize;
        let mut end = (i + room).min(s.len());
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        let piece = s.get(i..end).unwrap_or_default();
        let fed = p.feed(piece, &mut self.text);
        self.leaf = Leaf::Str { open: true, p };
        match fed {
            Fed::Closed(n) => {
                // An exact-size copy: the scratch buffer keeps its room.
                let text = self.text.clone();
                self.field_done(Value::String(text));
                Ok(i + n)
            }
            Fed::TooLong(k) => {
                let ptr = self.leaf_ptr();
                let failure = Failure::StringBytes {
                    len: p.len() + 1,
                    node: 0,
                };
                let seen = Seen::of(Start::String);
                let detail = Voice::Decoder.detail(&seen, self.schema, &ptr, &failure);
                let mut d = Diagnostic::z206("value.string_bytes").at_pointer(ptr);
                if let Some(t) = detail {
                    d = d.with_detail(t.replace(
                        &format!("has {} UTF-8", p.len() + 1),
                        "has more than 4096 UTF-8",
                    ));
                }
                Err(d.at_offset(self.at(i + k)))
            }
            Fed::Deviates(k) => {
                self.string_deviation(self.at(i + k), p);
                Ok(i + k)
            }
            Fed::More => {
                let now = self.at(end);
                if let Some(e) = escape_over(p, now, fixed) {
                    return Err(self.over_budget(e));
                }
                if end == s.len() {
                    return Ok(end);
                }
                // Cut by the size bound: only the closing quote fits here.
                let rest = s.get(end..).unwrap_or_default();
                let ch = rest.chars().next().unwrap_or('"');
                let mut tmp = [0u8; 4];
                let one: &str = ch.encode_utf8(&mut tmp);
                let mut probe = p;
                let mut scratch = String::new();
                match probe.feed(one, &mut scratch) {
                    Fed::Closed(_) => {
                        let text = self.text.clone();
                        self.field_done(Value::String(text));
                        Ok(end + 1)
                    }
                    Fed::Deviates(_) => {
                        self.string_deviation(now, p);
                        Ok(end)
                    }
                    _ => Err(self.over_budget(now)),
                }
            }
        }
    }

    fn bytes_step(
        &mut self,
        c: u8,
        i: usize,
        state: Bytes,
        mut el: ElementPrefix,
    ) -> Result<usize, Diagnostic> {
        let at = self.at(i);
        let fixed = u64::from(self.fixed);
        let fits = |rest: u64| at + 1 + rest + fixed <= MAX;
        match (state, c) {
            (Bytes::Start, b'[') => {
                if !fits(1) {
                    return Err(self.over_budget(at));
                }
                self.leaf = Leaf::Bytes {
                    at: Bytes::First,
                    el,
                };
            }
            (Bytes::Start, _) => {
                self.value_deviation(Repr::Bytes, at);
                return Ok(i);
            }
            (Bytes::First, b']') => {
                self.field_done(Value::Bytes(Vec::new()));
            }
            (Bytes::First | Bytes::Comma, b'0'..=b'9') => {
                if !fits(1) {
                    return Err(self.over_budget(at));
                }
                let mut e = ElementPrefix::new();
                e.push(c);
                self.leaf = Leaf::Bytes {
                    at: Bytes::Element,
                    el: e,
                };
            }
            (Bytes::First | Bytes::Comma, _) => {
                let idx = self.bytes.len();
                let resume = if state == Bytes::First {
                    Resume::FirstElement
                } else {
                    Resume::Value
                };
                let p = self.leaf_ptr();
                self.enter_in_array(
                    at,
                    resume,
                    "",
                    Place::Element { ptr: p, idx },
                    BYTES.to_owned(),
                );
                return Ok(i);
            }
            (Bytes::Element, b'0'..=b'9') => {
                let mut e = el;
                if !e.push(c) {
                    return Ok(self.element_deviation(at, i, el));
                }
                if !fits(1) {
                    return Err(self.over_budget(at));
                }
                el = e;
                self.leaf = Leaf::Bytes {
                    at: Bytes::Element,
                    el,
                };
            }
            (Bytes::Element, b',') => {
                self.bytes.push(el.value().unwrap_or(0));
                if self.bytes.len() >= limits::MAX_BYTES_LEN {
                    let p = self.leaf_ptr();
                    let failure = Failure::BytesLength {
                        count: self.bytes.len() + 1,
                        node: 0,
                    };
                    let seen = Seen::of(Start::Array);
                    let mut d = Diagnostic::z206("value.bytes_length").at_pointer(p.clone());
                    if let Some(t) = Voice::Decoder.detail(&seen, self.schema, &p, &failure) {
                        d = d.with_detail(t.replace(
                            &format!("has {} elements", self.bytes.len() + 1),
                            "has more than 4096 elements",
                        ));
                    }
                    return Err(d.at_offset(at));
                }
                if !fits(2) {
                    return Err(self.over_budget(at));
                }
                self.leaf = Leaf::Bytes {
                    at: Bytes::Comma,
                    el: ElementPrefix::new(),
                };
            }
            (Bytes::Element, b']') => {
                self.bytes.push(el.value().unwrap_or(0));
                // An exact-size copy: the scratch buffer keeps its room.
                let bytes = self.bytes.clone();
                self.field_done(Value::Bytes(bytes));
            }
            (Bytes::Element, b'.' | b'e' | b'E') => {
                return Ok(self.element_deviation(at, i, el));
            }
            (Bytes::Element, _) => {
                // After a complete element: only `,` or `]` (or, not
                // canonically, whitespace).
                self.bytes.push(el.value().unwrap_or(0));
                let p = self.leaf_ptr();
                self.enter_in_array(at, Resume::After, "", Place::Ws { ws: p }, BYTES.to_owned());
                return Ok(i);
            }
        }
        Ok(i + 1)
    }

    /// Element `self.bytes.len()`, `el` so far, cannot go on with the byte
    /// at `at`.
    fn element_deviation(&mut self, at: u64, i: usize, el: ElementPrefix) -> usize {
        let idx = self.bytes.len();
        let digits = el.value().map(|v| v.to_string()).unwrap_or_default();
        let resume = if idx == 0 {
            Resume::FirstElement
        } else {
            Resume::Value
        };
        let p = self.leaf_ptr();
        self.enter_in_array(
            at,
            resume,
            &digits,
            Place::InElement { ptr: p, idx },
            BYTES.to_owned(),
        );
        i
    }

    // ------------------------------------------------------------ deviations

    /// Starts the diagnosis at `at`, the first impossible byte: the JSON
    /// reader resumed where the canonical text left it (containers open,
    /// `resume`), then given `refeed` (the canonical start of the token
    /// that holds the byte, which ends just before it).
    fn enter(
        &mut self,
        at: u64,
        open: Vec<bool>,
        resume: Resume,
        refeed: &str,
        place: Place,
        expected: String,
    ) {
        // The deviating character starts `back` bytes before `at`.
        let back = std::mem::take(&mut self.back);
        let from = at - back - refeed.len() as u64;
        let mut push = Push::resume(STEP4, &open, from, resume);
        let mut text = String::new();
        let mut heard = Heard::default();
        let _ = push.feed(refeed, &mut |t| hear(&mut heard, &mut text, t));
        self.diag = Some(Box::new(Diag {
            offset: at,
            push,
            wait: Wait::First(place),
            text,
            lf: None,
            expected,
        }));
    }

    fn enter_in_array(
        &mut self,
        at: u64,
        resume: Resume,
        refeed: &str,
        place: Place,
        expected: String,
    ) {
        let mut open = self.stack_upto(Obj::Fields);
        open.push(false);
        self.enter(at, open, resume, refeed, place, expected);
    }

    /// A leaf of `repr` was expected at `at` and something else came.
    fn value_deviation(&mut self, repr: Repr, at: u64) {
        let ptr = self.leaf_ptr();
        let place = Place::Value {
            shape: Shape::Leaf(repr, ptr.clone()),
            ws: ptr.clone(),
        };
        let expected = format!("a canonical {}", repr.name());
        self.enter(
            at,
            self.stack_upto(Obj::Fields),
            Resume::Value,
            "",
            place,
            expected,
        );
    }

    fn string_deviation(&mut self, at: u64, p: StringPrefix) {
        let ptr = self.leaf_ptr();
        let esc = match p.escape() {
            Escape::None => Esc::None,
            Escape::Backslash => Esc::Backslash,
            Escape::Hex { n, value } => Esc::Hex {
                n,
                value: u32::from(value),
                low: false,
            },
        };
        let resume = Resume::InString {
            key: false,
            esc,
            start: at,
        };
        self.enter(
            at,
            self.stack_upto(Obj::Fields),
            resume,
            "",
            Place::InString(ptr),
            "a character as FORMAT.md §2 quotes it".to_owned(),
        );
    }

    fn case_deviation(&mut self, i: usize, at: u64) {
        let _ = i;
        let k = self.top();
        let open = self.stack_upto(Obj::Value);
        let mut case_ptr = self.frame_ptr(k);
        case_ptr.push_str("/case");
        if self.case_i == 0 {
            let place = Place::Value {
                shape: Shape::Case(k),
                ws: case_ptr,
            };
            self.enter(at, open, Resume::Value, "", place, CASE.to_owned());
            return;
        }
        let prefix = self
            .cands
            .first()
            .and_then(|&(_, start, _, _)| self.quoted.get(start..start + self.case_i))
            .unwrap_or_default()
            .to_owned();
        let _ = case_ptr;
        self.enter(
            at,
            open,
            Resume::Value,
            &prefix,
            Place::InCase(k),
            CASE.to_owned(),
        );
    }

    /// The literal does not go on with the character at byte `i` of the
    /// piece, whose byte at offset `at` is the first impossible one.
    fn lit_deviation(&mut self, i: usize, at: u64) -> Result<(), Diagnostic> {
        let _ = i;
        let mut start = 0;
        let mut atom = Atom::Lf;
        for &(end, a) in &self.lit.atoms {
            if self.lit_i < end {
                atom = a;
                break;
            }
            start = end;
        }
        let within = self.lit_i - start;
        let prefix = self
            .lit
            .text
            .get(start..self.lit_i)
            .unwrap_or_default()
            .to_owned();
        let expected = snippet(self.lit.text.get(self.lit_i..).unwrap_or_default());
        match atom {
            Atom::Open(obj) => {
                let mut open = match obj {
                    Obj::Env => Vec::new(),
                    _ => self.stack_upto(obj),
                };
                open.pop();
                let k = self.top();
                let (shape, ws) = match obj {
                    Obj::Env => (Shape::Env, String::new()),
                    Obj::Value => (Shape::Value(k), self.frame_ptr(k)),
                    Obj::Fields => (Shape::Fields(k), self.obj_ptr(obj)),
                };
                self.enter(
                    at,
                    open,
                    Resume::Value,
                    "",
                    Place::Value { shape, ws },
                    expected,
                );
            }
            Atom::Key(obj, i) => {
                let open = self.stack_upto(obj);
                let resume = if i == 0 {
                    Resume::FirstKey
                } else {
                    Resume::Key
                };
                let ws = self.obj_ptr(obj);
                let place = if within > 0 {
                    Place::InKey(obj, i)
                } else if i == 0 {
                    Place::FirstKey { obj, ws }
                } else {
                    Place::Ws { ws }
                };
                self.enter(at, open, resume, &prefix, place, expected);
            }
            Atom::Colon(obj, i) => {
                let key = self.obj_keys(obj).get(i).copied().unwrap_or_default();
                let ws = self.child_ptr(obj, key);
                self.enter(
                    at,
                    self.stack_upto(obj),
                    Resume::Colon,
                    "",
                    Place::Ws { ws },
                    expected,
                );
            }
            Atom::Comma(obj, next) => {
                let ws = self.obj_ptr(obj);
                let place = Place::Comma { obj, next, ws };
                self.enter(at, self.stack_upto(obj), Resume::After, "", place, expected);
            }
            Atom::Close(obj) => {
                let empty = obj == Obj::Fields && self.frames.last().is_some_and(|f| f.field == 0);
                let resume = if empty {
                    Resume::FirstKey
                } else {
                    Resume::After
                };
                let ws = self.obj_ptr(obj);
                self.enter(
                    at,
                    self.stack_upto(obj),
                    resume,
                    "",
                    Place::Close { obj, ws },
                    expected,
                );
            }
            Atom::Id(w) => {
                let open = vec![true];
                if within == 0 {
                    let ws = format!("/{}", ENVELOPE_KEYS.get(w).copied().unwrap_or_default());
                    let place = Place::Value {
                        shape: Shape::Id(w),
                        ws,
                    };
                    self.enter(at, open, Resume::Value, "", place, expected);
                } else {
                    self.enter(at, open, Resume::Value, &prefix, Place::InId(w), expected);
                }
            }
            Atom::Lf => {
                self.enter(
                    at,
                    Vec::new(),
                    Resume::After,
                    "",
                    Place::Ws { ws: String::new() },
                    expected,
                );
            }
        }
        Ok(())
    }
}

/// Records what the JSON reader said.
fn hear(h: &mut Heard, text: &mut String, t: Tok<'_>) -> Result<(), ()> {
    match t {
        Tok::Begin { start, .. } => h.begin = Some(start),
        Tok::Text {
            key: false,
            text: piece,
            ..
        } => text.push_str(piece),
        Tok::Key { text: k, .. } => h.key = Some(k.to_owned()),
        Tok::StrEnd { .. } => h.str_end = true,
        Tok::Number { .. } => h.scalar = Some("a number"),
        Tok::Bool { .. } => h.scalar = Some("a boolean"),
        Tok::Null { .. } => h.scalar = Some("null"),
        Tok::ObjEnd { .. } => h.obj_end = true,
        Tok::Text { .. } | Tok::ArrEnd { .. } | Tok::Comma { .. } | Tok::End => {}
    }
    Ok(())
}

/// `s` as a detail shows a snippet: at most 24 characters, quoted.
/// Why [`integer_byte`] does not read a byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum IntStop {
    /// The text is no longer a prefix of an integer in range.
    Deviates,
    /// No continuation fits the budget.
    OverBudget,
}

/// An integer string's byte `c` (not its closing quote) at offset `at`,
/// after `d`: the prefix with it, when it is still viable for `repr` and
/// the rest (at least a digit after a first `-`, then the closing quote)
/// fits the budget (`fixed` bytes must follow the string). The deviation
/// is decided before the budget.
fn integer_byte(
    d: DecimalPrefix,
    c: u8,
    repr: Repr,
    at: u64,
    fixed: u64,
) -> Result<DecimalPrefix, IntStop> {
    let mut next = d;
    if !(next.push(c) && next.viable(repr)) {
        return Err(IntStop::Deviates);
    }
    let rest = if next.canonical() && d == DecimalPrefix::new() && c == b'-' {
        2
    } else {
        1
    };
    if at + 1 + rest + fixed > MAX {
        return Err(IntStop::OverBudget);
    }
    Ok(next)
}

/// Where a string's open escape, `p`'s after the bytes before offset
/// `now`, can no longer fit the budget (`fixed` bytes must follow the
/// string): the offset the refusal names, or `None` when it fits (or no
/// escape is open).
fn escape_over(p: StringPrefix, now: u64, fixed: u64) -> Option<u64> {
    match p.escape() {
        Escape::None => None,
        Escape::Backslash => {
            let e = now - 1;
            (e + 3 + fixed > MAX).then_some(e)
        }
        Escape::Hex { n, .. } => {
            let e = now - 2 - u64::from(n);
            if e + 3 + fixed > MAX {
                Some(e)
            } else if e + 7 + fixed > MAX {
                Some(e + 1)
            } else {
                None
            }
        }
    }
}

/// The length of the longest common prefix of `a` and `b`: a whole
/// literal in one comparison when it is there (the canonical case), byte by
/// byte only where they part.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (
        a.get(..n).unwrap_or_default(),
        b.get(..n).unwrap_or_default(),
    );
    if a == b {
        return n;
    }
    let mut k = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        if x != y {
            break;
        }
        k += 8;
    }
    k + a
        .get(k..)
        .unwrap_or_default()
        .iter()
        .zip(b.get(k..).unwrap_or_default())
        .take_while(|(x, y)| x == y)
        .count()
}

fn snippet(s: &str) -> String {
    let cut: String = s.chars().take(24).collect();
    format!("{cut:?}")
}

impl StreamDecoder<'_> {
    /// Reads on after the first impossible byte, one character at a time,
    /// until the refusal is named.
    fn diagnose(&mut self, s: &str, i: usize) -> Result<(), Diagnostic> {
        let rest = s.get(i..).unwrap_or_default();
        for (k, c) in rest.char_indices() {
            let at = self.at(i + k);
            let Some(mut g) = self.diag.take() else {
                return Ok(());
            };
            let r = self.diag_char(&mut g, c, at);
            self.diag = Some(g);
            if let Some(d) = r {
                return Err(d);
            }
        }
        Ok(())
    }

    fn diag_char(&self, g: &mut Diag, c: char, at: u64) -> Option<Diagnostic> {
        let off = g.offset;
        if let Some(lf) = g.lf {
            return Some(decode::framing(&framing_words::lf_at(lf)).at_offset(off));
        }
        if c == '\r' {
            return Some(decode::framing(&framing_words::lf_at(at)).at_offset(off));
        }
        if c == '\n' {
            g.lf = Some(at);
            return None;
        }
        if at == 0 && c == '\u{FEFF}' {
            return Some(decode::framing(framing_words::BOM).at_offset(off));
        }
        let mut heard = Heard::default();
        let mut tmp = [0u8; 4];
        let piece: &str = c.encode_utf8(&mut tmp);
        let Diag { push, text, .. } = g;
        if let Err(Stop::Json(e)) = push.feed(piece, &mut |t| hear(&mut heard, text, t)) {
            return Some(decode::json_syntax(&e).at_offset(off));
        }
        let ws = c == ' ' || c == '\t';
        let wait = std::mem::replace(&mut g.wait, Wait::Syntax);
        match self.resolve(g, wait, &heard, c, ws) {
            Ok(next) => {
                g.wait = next;
                None
            }
            Err(d) => Some(d.at_offset(off)),
        }
    }

    fn resolve(
        &self,
        g: &Diag,
        wait: Wait,
        heard: &Heard,
        c: char,
        ws: bool,
    ) -> Result<Wait, Diagnostic> {
        match wait {
            Wait::First(place) => self.first(g, place, heard, c, ws),
            Wait::Then(d, until) => {
                let done = match until {
                    Until::Char => !ws,
                    Until::Token => heard.scalar.is_some(),
                    Until::Escape => !g.push.in_escape(),
                };
                if done {
                    Err(d)
                } else {
                    Ok(Wait::Then(d, until))
                }
            }
            Wait::Key(obj, i) => match &heard.key {
                Some(k) => Err(self.classify_key(g, obj, i, k)),
                None => Ok(Wait::Key(obj, i)),
            },
            Wait::Extra(obj) => match &heard.key {
                Some(k) => Err(self.classify_extra(g, obj, k)),
                None => Ok(Wait::Extra(obj)),
            },
            Wait::Id(w) if heard.str_end => Err(self.classify_id(g, w, &g.text)),
            Wait::Case(k) if heard.str_end => Err(self.classify_case(g, k, &g.text)),
            Wait::Integer { repr, ptr, d, seen } => self.integer_step(g, heard, repr, ptr, d, seen),
            w @ (Wait::Id(_) | Wait::Case(_) | Wait::Syntax) => Ok(w),
        }
    }

    /// What the first character after the deviation means.
    fn first(
        &self,
        g: &Diag,
        place: Place,
        heard: &Heard,
        c: char,
        ws: bool,
    ) -> Result<Wait, Diagnostic> {
        let found = |c: char| -> Seen {
            match c {
                't' | 'f' => Seen {
                    kind: "a boolean",
                    text: String::new(),
                    shown: None,
                },
                'n' => Seen {
                    kind: "null",
                    text: String::new(),
                    shown: None,
                },
                _ => Seen::of(Start::Number),
            }
        };
        match place {
            Place::Value { shape, ws: at } => {
                if ws {
                    return Ok(Wait::Then(self.mismatch(g, at, c), Until::Char));
                }
                match heard.begin {
                    Some(start @ (Start::Object | Start::Array | Start::String)) => {
                        Err(self.shape(&shape, &Seen::of(start)))
                    }
                    Some(_) => Ok(Wait::Then(self.shape(&shape, &found(c)), Until::Token)),
                    None => Ok(Wait::Syntax),
                }
            }
            Place::FirstKey { obj, ws: at } | Place::Comma { obj, ws: at, .. } if ws => {
                let _ = obj;
                Ok(Wait::Then(self.mismatch(g, at, c), Until::Char))
            }
            Place::FirstKey { obj, .. } if heard.obj_end => Err(self.missing(obj, 0)),
            Place::Comma { obj, next, .. } if heard.obj_end => Err(self.missing(obj, next)),
            Place::FirstKey { .. } | Place::Comma { .. } => Ok(Wait::Syntax),
            Place::Close { ws: at, .. } if ws => {
                Ok(Wait::Then(self.mismatch(g, at, c), Until::Char))
            }
            Place::Close { obj, .. } => Ok(Wait::Extra(obj)),
            Place::Ws { ws: at } => {
                let d = self.mismatch(g, at, c);
                if ws {
                    Ok(Wait::Then(d, Until::Char))
                } else {
                    Err(d)
                }
            }
            Place::InKey(obj, i) => self.resolve(g, Wait::Key(obj, i), heard, c, ws),
            Place::InId(w) => {
                if heard.str_end {
                    return Err(self.classify_id(g, w, &g.text));
                }
                if c == '\\' || !plain_char(c) || self.id(w).starts_with(g.text.as_str()) {
                    return Ok(Wait::Id(w));
                }
                Err(self.id_rule(w))
            }
            Place::InCase(k) => {
                if heard.str_end {
                    return Err(self.classify_case(g, k, &g.text));
                }
                let ty = self.frames.get(k).map_or(0, |f| f.ty);
                let possible = self
                    .cases(ty)
                    .iter()
                    .any(|x| x.stable_id.starts_with(g.text.as_str()));
                if c == '\\' || !plain_char(c) || possible {
                    return Ok(Wait::Case(k));
                }
                Err(self.unknown_case(k, &g.text))
            }
            Place::InInteger(repr, ptr) => {
                self.integer_step(g, heard, repr, ptr, DecimalPrefix::new(), 0)
            }
            Place::InString(ptr) => {
                let d = self.mismatch(g, ptr, c);
                if g.push.in_escape() {
                    Ok(Wait::Then(d, Until::Escape))
                } else {
                    Err(d)
                }
            }
            Place::Element { ptr, idx } => {
                if ws {
                    return Ok(Wait::Then(self.mismatch(g, ptr, c), Until::Char));
                }
                match heard.begin {
                    Some(start @ (Start::Object | Start::Array | Start::String)) => {
                        Err(self.element(&ptr, idx, &Seen::of(start)))
                    }
                    Some(_) => Ok(Wait::Then(self.element(&ptr, idx, &found(c)), Until::Token)),
                    None => Ok(Wait::Syntax),
                }
            }
            Place::InElement { ptr, idx } => {
                let d = self.element(&ptr, idx, &Seen::of(Start::Number));
                if heard.scalar.is_some() {
                    Err(d)
                } else {
                    Ok(Wait::Then(d, Until::Token))
                }
            }
            Place::Syntax => Ok(Wait::Syntax),
        }
    }

    fn detail(&self, d: Diagnostic, ptr: &str, seen: &Seen, failure: &Failure<'_>) -> Diagnostic {
        match Voice::Decoder.detail(seen, self.schema, ptr, failure) {
            Some(t) => d.with_detail(t),
            None => d,
        }
    }

    /// Step 10's refusal at `ptr`: the canonical form has something else
    /// at the deviation.
    fn mismatch(&self, g: &Diag, ptr: String, c: char) -> Diagnostic {
        let mut found = String::new();
        found.push(c);
        decode::mismatch(ptr, g.offset, &g.expected, &snippet(&found))
    }

    fn shape(&self, shape: &Shape, seen: &Seen) -> Diagnostic {
        match shape {
            Shape::Env => env::not_an_object(seen.kind),
            Shape::Id(0) => env::wrong_schema(),
            Shape::Id(1) => env::not_a_string("root_type_id", seen.kind),
            Shape::Id(_) => env::not_a_string("schema_digest", seen.kind),
            Shape::Value(k) => {
                let ptr = self.frame_ptr(*k);
                let ty = self.frames.get(*k).map_or(0, |f| f.ty);
                let d = Diagnostic::z205(rules::VALUE_SHAPE).at_pointer(ptr.clone());
                self.detail(d, &ptr, seen, &Failure::NotObject { ty, node: 0 })
            }
            Shape::Fields(k) => {
                let mut ptr = self.frame_ptr(*k);
                ptr.push_str("/fields");
                let decl = self.frames.get(*k).map_or(&[][..], |f| self.decl(f));
                let d = Diagnostic::z205(rules::VALUE_SHAPE).at_pointer(ptr.clone());
                self.detail(
                    d,
                    &ptr,
                    seen,
                    &Failure::FieldsNotObject {
                        names: decl.iter().map(|f| f.stable_id.as_str()).collect(),
                        node: 0,
                    },
                )
            }
            Shape::Case(k) => {
                let mut ptr = self.frame_ptr(*k);
                ptr.push_str("/case");
                let cases = self.frames.get(*k).map_or(&[][..], |f| self.cases(f.ty));
                let d = Diagnostic::z205(rules::VALUE_SHAPE).at_pointer(ptr.clone());
                self.detail(d, &ptr, seen, &Failure::CaseNotString { cases, node: 0 })
            }
            Shape::Leaf(repr, ptr) => {
                let d = Diagnostic::z206("value.representation").at_pointer(ptr.clone());
                self.detail(
                    d,
                    ptr,
                    seen,
                    &Failure::Representation {
                        repr: *repr,
                        node: 0,
                    },
                )
            }
        }
    }

    fn element(&self, ptr: &str, idx: usize, seen: &Seen) -> Diagnostic {
        let mut p = ptr.to_owned();
        push_pointer_token(&mut p, &idx.to_string());
        let d = Diagnostic::z206("value.bytes_element").at_pointer(p.clone());
        self.detail(d, &p, seen, &Failure::BytesElement { node: 0 })
    }

    /// A key of the envelope or of a type value (`obj`) missing or not
    /// allowed (`failure`), at `ptr`: the rule of that object, with the
    /// walk's detail.
    fn key_refusal(&self, obj: Obj, ptr: String, seen: &Seen, failure: &Failure<'_>) -> Diagnostic {
        let rule = if obj == Obj::Env {
            rules::ENVELOPE_KEYS
        } else {
            rules::VALUE_SHAPE
        };
        self.detail(
            Diagnostic::z205(rule).at_pointer(ptr.clone()),
            &ptr,
            seen,
            failure,
        )
    }

    /// `}` where member `i` of `obj` was expected: it is missing.
    fn missing(&self, obj: Obj, i: usize) -> Diagnostic {
        let keys = self.obj_keys(obj);
        let key = keys.get(i).copied().unwrap_or_default();
        let ptr = self.child_ptr(obj, key);
        let seen = Seen::of(Start::Object);
        match obj {
            Obj::Env | Obj::Value => self.key_refusal(
                obj,
                ptr,
                &seen,
                &Failure::MissingKey {
                    obj: 0,
                    key,
                    keys: &keys,
                },
            ),
            Obj::Fields => {
                let d = Diagnostic::z206("value.fields.missing").at_pointer(ptr.clone());
                let field = self.frames.last().and_then(|f| self.decl(f).get(i));
                match field {
                    Some(field) => self.detail(d, &ptr, &seen, &Failure::MissingField { field }),
                    None => d,
                }
            }
        }
    }

    /// A key `key` that `obj` does not have.
    fn unexpected(&self, obj: Obj, key: &str) -> Diagnostic {
        let keys = self.obj_keys(obj);
        let ptr = self.child_ptr(obj, key);
        let seen = Seen::of(Start::Object);
        match obj {
            Obj::Env | Obj::Value => self.key_refusal(
                obj,
                ptr,
                &seen,
                &Failure::UnexpectedKey {
                    obj: 0,
                    key,
                    keys: &keys,
                },
            ),
            Obj::Fields => {
                let decl = self.frames.last().map_or(&[][..], |f| self.decl(f));
                let d = Diagnostic::z206("value.fields.unknown").at_pointer(ptr.clone());
                self.detail(
                    d,
                    &ptr,
                    &seen,
                    &Failure::UnknownField {
                        names: decl.iter().map(|f| f.stable_id.as_str()).collect(),
                        key,
                        node: 0,
                    },
                )
            }
        }
    }

    /// The key `key` where member `i` of `obj` was expected.
    fn classify_key(&self, g: &Diag, obj: Obj, i: usize, key: &str) -> Diagnostic {
        let keys = self.obj_keys(obj);
        match keys.iter().position(|k| *k == key) {
            // The expected key, written otherwise; or one already read
            // (written twice).
            Some(j) if j <= i => self.mismatch_at(g, self.child_ptr(obj, key)),
            // A later key: the ones before it are missing.
            Some(_) => self.missing(obj, i),
            None => self.unexpected(obj, key),
        }
    }

    /// The key `key` of a member after the last one of `obj`.
    fn classify_extra(&self, g: &Diag, obj: Obj, key: &str) -> Diagnostic {
        if self.obj_keys(obj).contains(&key) {
            self.mismatch_at(g, self.obj_ptr(obj))
        } else {
            self.unexpected(obj, key)
        }
    }

    fn mismatch_at(&self, g: &Diag, ptr: String) -> Diagnostic {
        decode::mismatch(ptr, g.offset, &g.expected, "another text")
    }

    fn id(&self, w: usize) -> &str {
        match w {
            0 => limits::VALUE_ID,
            1 => self.schema.root_type_id(),
            _ => self.schema.digest(),
        }
    }

    fn id_rule(&self, w: usize) -> Diagnostic {
        match w {
            0 => env::wrong_schema(),
            1 => env::wrong_root(self.schema),
            _ => env::wrong_digest(self.schema),
        }
    }

    fn classify_id(&self, g: &Diag, w: usize, text: &str) -> Diagnostic {
        if text == self.id(w) {
            let key = ENVELOPE_KEYS.get(w).copied().unwrap_or_default();
            self.mismatch_at(g, format!("/{key}"))
        } else {
            self.id_rule(w)
        }
    }

    fn classify_case(&self, g: &Diag, k: usize, text: &str) -> Diagnostic {
        let Some(f) = self.frames.get(k) else {
            return self.unknown_case(k, text);
        };
        let cases = self.cases(f.ty);
        match cases.iter().find(|c| c.stable_id == text) {
            Some(_)
                if self.plan.shortest.after_case(
                    f.ty,
                    cases.iter().position(|c| c.stable_id == text).unwrap_or(0),
                    f.depth,
                ) != INF =>
            {
                let mut ptr = self.frame_ptr(k);
                ptr.push_str("/case");
                self.mismatch_at(g, ptr)
            }
            Some(case) => {
                let ptr = self.infeasible_field(&case.fields, f.depth, self.frame_ptr(k));
                Diagnostic::z206("value.max_depth").at_pointer(ptr)
            }
            None => self.unknown_case(k, text),
        }
    }

    fn unknown_case(&self, k: usize, text: &str) -> Diagnostic {
        let mut ptr = self.frame_ptr(k);
        ptr.push_str("/case");
        let ty = self.frames.get(k).map_or(0, |f| f.ty);
        let cases = self.cases(ty);
        let d = Diagnostic::z206("value.case").at_pointer(ptr.clone());
        self.detail(
            d,
            &ptr,
            &Seen::text(text),
            &Failure::UnknownCase { ty, cases, node: 0 },
        )
    }

    /// An integer string after its deviation: decided as soon as its
    /// decoded text is no longer canonical or its digits out of range
    /// (whatever follows but the end), at its end otherwise.
    fn integer_step(
        &self,
        g: &Diag,
        heard: &Heard,
        repr: Repr,
        ptr: String,
        mut d: DecimalPrefix,
        seen: usize,
    ) -> Result<Wait, Diagnostic> {
        if heard.str_end {
            return Err(self.integer_outcome(g, repr, ptr, &g.text));
        }
        for &b in g.text.as_bytes().get(seen..).unwrap_or_default() {
            d.push(b);
        }
        if !g.push.in_escape() {
            if let Some(rule) = d.decided(repr) {
                return Err(self.integer_refusal(repr, rule, ptr, &g.text));
            }
        }
        Ok(Wait::Integer {
            repr,
            ptr,
            d,
            seen: g.text.len(),
        })
    }

    fn integer_outcome(&self, g: &Diag, repr: Repr, ptr: String, text: &str) -> Diagnostic {
        match crate::scalar::parse_integer(repr, text.as_bytes()) {
            Ok(_) => self.mismatch_at(g, ptr),
            Err(rule) => self.integer_refusal(repr, rule, ptr, text),
        }
    }

    fn integer_refusal(
        &self,
        repr: Repr,
        rule: &'static str,
        ptr: String,
        text: &str,
    ) -> Diagnostic {
        let d = Diagnostic::z206(rule).at_pointer(ptr.clone());
        let failure = Failure::Integer {
            repr,
            rule,
            node: 0,
        };
        self.detail(d, &ptr, &Seen::text(text), &failure)
    }
}
