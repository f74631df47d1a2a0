//! The streaming admitter: admission of a provider's raw output
//! ([`crate::admit`]) as it arrives.
//!
//! The text is read with admission's options by the push form of the one
//! JSON reader ([`crate::json::push`]): the same refusals (syntax,
//! duplicate keys, nesting), at the same places, with the same words. Each
//! token is checked where it stands in the value at once, with the walk's
//! rules and words ([`crate::walk`]): a key no declared field has, a value
//! of the wrong JSON type, an integer that can no longer be in range, a
//! string or byte array past its bound, a case no declared case has, are
//! refused at the byte that decides them; a missing field at the `}` that
//! closes its object. At the end, the value is encoded exactly as
//! [`crate::admit::admit`] encodes it.
//!
//! A variant whose `fields` come before its `case` (any key order is
//! admitted) cannot be checked until the case is known: its text is held
//! until then (the only case in which the admitter's memory grows with the
//! input) and read when the case arrives.

use super::seen::Seen;
use super::shortest::Shortest;
use super::utf8::Utf8;
use super::Event;
use crate::admit::{self, RULE_SHAPE};
use crate::codec::step::{DecimalPrefix, ElementPrefix};
use crate::decode::Decoded;
use crate::diag::Diagnostic;
use crate::graph::{limits, Case, Field, FieldType, Repr};
use crate::json::push::{Push, Resume, Start, Stop, Tok};
use crate::json::{Bom, Duplicates, Numbers, Options};
use crate::project::{Dialect, KeyMap};
use crate::quote::push_pointer_token;
use crate::scalar::{byte_element, parse_integer, Int};
use crate::schema::Schema;
use crate::value::Value;
use crate::walk::{Failure, Found, Voice};

const MAX: u64 = limits::MAX_DOCUMENT_BYTES as u64;

/// Which member of a type value's object is being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Member {
    None,
    Case,
    Fields,
}

#[derive(Debug)]
enum Level {
    /// The dialect's wrapper `{"value": …}`.
    Wrap { has: bool, member: bool },
    /// A type value's object.
    Type {
        ty: usize,
        depth: usize,
        /// Its pointer in the provider's text, and in the canonical document.
        ptr: String,
        cptr: String,
        case: Option<usize>,
        has_case: bool,
        fields: Option<Vec<(String, Value)>>,
        /// A `fields` value read before the case: its text and offset.
        held: Option<(String, u64)>,
        has_fields: bool,
        member: Member,
    },
    /// A fields object.
    Fields {
        ty: usize,
        case: Option<usize>,
        depth: usize,
        ptr: String,
        cptr: String,
        slots: Vec<Option<Value>>,
        /// The field being read, and its key as written.
        member: Option<(usize, String)>,
    },
    /// A byte array.
    Bytes {
        ptr: String,
        cptr: String,
        out: Vec<u8>,
    },
}

/// A refusal of a value of the wrong kind, by place.
#[derive(Debug, Clone)]
enum Wrong {
    /// Not the dialect's wrapper object.
    Wrapper,
    /// Not an object, for a value of type `ty`.
    NotObject { ty: usize, ptr: String },
    /// A `fields` member that is not an object.
    FieldsNotObject {
        ty: usize,
        case: Option<usize>,
        ptr: String,
    },
    /// A `case` member that is not a string.
    CaseNotString { ty: usize, ptr: String },
    /// A leaf of the wrong JSON type.
    Representation { repr: Repr, ptr: String },
    /// A byte-array element that is not a number.
    Element { ptr: String },
}

#[derive(Debug)]
enum Leaf {
    None,
    /// A number or literal where another kind belongs: refused once it is
    /// complete (JSON first), at its first byte.
    Await(Wrong, u64),
    /// A bool field (`null` is refused).
    Bool {
        ptr: String,
        cptr: String,
        at: u64,
    },
    /// A string field.
    Str {
        text: String,
        ptr: String,
        cptr: String,
    },
    /// An integer field; `bad` is the first impossible byte.
    Int {
        repr: Repr,
        text: String,
        d: DecimalPrefix,
        bad: Option<u64>,
        ptr: String,
        cptr: String,
    },
    /// A case id.
    Case {
        text: String,
        bad: Option<u64>,
    },
}

/// Where a value that begins belongs.
enum Slot {
    /// The dialect's wrapper.
    Wrapper,
    /// The root value, at this pointer.
    Root(String),
    /// A variant's fields before its case: held.
    Held,
    /// A fields object: type, case, depth, pointers.
    Fields(usize, Option<usize>, usize, String, String),
    /// A case id, at this pointer.
    Case(usize, String),
    /// Field `j` of a fields object: type, case, depth, j, the field's
    /// pointer, the fields object's canonical pointer.
    Field(usize, Option<usize>, usize, usize, String, String),
    /// A byte-array element, at this pointer.
    Element(String),
    /// Nowhere (a refusal is already decided).
    Nothing,
}

/// A value held as text (a variant's fields before its case).
#[derive(Debug)]
struct Hold {
    from: u64,
    text: String,
    depth: usize,
}

/// Admission of one provider response that arrives in chunks.
///
/// [`feed`](StreamAdmitter::feed) takes chunks of any size, cut anywhere;
/// [`finish`](StreamAdmitter::finish) ends the stream and returns exactly
/// what [`crate::admit::admit`] returns on the concatenated bytes, for the
/// same dialect: the value and its canonical document, or a refusal (with
/// the same code, rule and pointer wherever the text has one violation).
/// A refusal carries in [`Diagnostic::offset`] the offset of the byte that
/// decided it; the first one is final.
///
/// Under a grammar dialect ([`Dialect::is_grammar`]) the model wrote the
/// canonical value document itself, and admission is the strict decoder:
/// so is this stream ([`super::StreamDecoder`]).
#[derive(Debug)]
pub struct StreamAdmitter<'s> {
    /// The streaming decoder, under a grammar dialect.
    canonical: Option<Box<super::StreamDecoder<'s>>>,
    push: Push,
    st: State<'s>,
    utf8: Utf8,
    fed: u64,
    failed: Option<Diagnostic>,
}

#[derive(Debug)]
struct State<'s> {
    schema: &'s Schema,
    /// The dialect's keys: how admission names and finds each field.
    keys: KeyMap,
    wraps: bool,
    shortest: &'s Shortest,
    stack: Vec<Level>,
    leaf: Leaf,
    root: Option<Value>,
    collect: bool,
    events: Vec<Event>,
    hold: Option<Hold>,
    /// The key being read, and where each of its pieces came from:
    /// (decoded length before it, raw offset, escaped).
    key: String,
    pieces: Vec<(usize, u64, bool)>,
    /// Lines (LFs) and characters since the last LF before the piece
    /// being read, for the details of JSON refusals.
    lines: usize,
    column: usize,
    /// The piece being read, and its offset.
    base: u64,
}

impl<'s> StreamAdmitter<'s> {
    /// An admitter of `schema`'s values produced against `dialect`'s
    /// projection, before the first byte.
    pub fn new(schema: &'s Schema, dialect: Dialect) -> StreamAdmitter<'s> {
        StreamAdmitter {
            canonical: dialect
                .is_grammar()
                .then(|| Box::new(super::StreamDecoder::new(schema))),
            push: Push::new(admit::OPTIONS),
            st: State {
                schema,
                keys: KeyMap::new(schema, dialect),
                wraps: dialect.wraps_root(schema),
                shortest: &schema.stream_plan().shortest,
                stack: Vec::new(),
                leaf: Leaf::None,
                root: None,
                collect: false,
                events: Vec::new(),
                hold: None,
                key: String::new(),
                pieces: Vec::new(),
                lines: 0,
                column: 0,
                base: 0,
            },
            utf8: Utf8::default(),
            fed: 0,
            failed: None,
        }
    }

    /// The number of bytes accepted so far.
    pub fn offset(&self) -> u64 {
        match &self.canonical {
            Some(d) => d.offset(),
            None => self.push.pos(),
        }
    }

    /// Reads the next chunk. `Err` is the refusal; it is final.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), Diagnostic> {
        if let Some(d) = &mut self.canonical {
            return d.feed(chunk);
        }
        self.st.collect = false;
        self.feed_chunk(chunk)
    }

    /// [`feed`](StreamAdmitter::feed), handing the chunk's events to `on`
    /// (in order, then one [`Event::Progress`] when the chunk is accepted).
    pub fn feed_with(
        &mut self,
        chunk: &[u8],
        on: &mut impl FnMut(Event),
    ) -> Result<(), Diagnostic> {
        if let Some(d) = &mut self.canonical {
            return d.feed_with(chunk, on);
        }
        self.st.collect = true;
        let r = self.feed_chunk(chunk);
        for e in self.st.events.drain(..) {
            on(e);
        }
        if r.is_ok() {
            on(Event::Progress {
                offset: self.push.pos(),
            });
        }
        r
    }

    /// Ends the stream: the value and its canonical document, exactly as
    /// [`crate::admit::admit`] on the concatenated bytes, or the refusal.
    pub fn finish(mut self) -> Result<Decoded, Diagnostic> {
        if let Some(d) = self.canonical.take() {
            return d.finish();
        }
        if let Some(d) = self.failed.take() {
            return Err(d);
        }
        let at = self.fed;
        if self.utf8.pending() {
            let start = self.utf8.pending_at();
            return Err(Diagnostic::z206("utf8")
                .at_pointer("")
                .with_detail(admit::not_utf8(start))
                .at_offset(at));
        }
        let st = &mut self.st;
        let r = self.push.finish(&mut |t| st.on(t, ""));
        if let Err(e) = r {
            return Err(self.st.stopped(e, self.push.pos()));
        }
        let value = self.st.root.take().ok_or_else(|| {
            Diagnostic::z205(admit::RULE_SYNTAX)
                .at_pointer("")
                .at_offset(at)
        })?;
        let canonical =
            crate::encode::encode(self.st.schema, &value).map_err(|d| d.at_offset(at))?;
        Ok(Decoded { value, canonical })
    }

    fn feed_chunk(&mut self, chunk: &[u8]) -> Result<(), Diagnostic> {
        if let Some(d) = &self.failed {
            return Err(d.clone());
        }
        let r = self.feed_checked(chunk);
        if let Err(d) = &r {
            self.failed = Some(d.clone());
        }
        r
    }

    fn feed_checked(&mut self, chunk: &[u8]) -> Result<(), Diagnostic> {
        let (checked, over) = self.utf8.bounded(&mut self.fed, chunk);
        if let Some((c, at)) = checked.head {
            let mut tmp = [0u8; 4];
            let s: &str = c.encode_utf8(&mut tmp);
            self.run(s, at)?;
        }
        self.run(checked.body, checked.body_at)?;
        if let Some(bad) = checked.invalid {
            let start = checked.body_at + checked.body.len() as u64;
            return Err(Diagnostic::z206("utf8")
                .at_pointer("")
                .with_detail(admit::not_utf8(start))
                .at_offset(bad));
        }
        if over {
            return Err(Diagnostic::z206("document_bytes")
                .at_pointer("")
                .with_detail(admit::too_long(&format!("more than {MAX}")))
                .at_offset(MAX));
        }
        Ok(())
    }

    fn run(&mut self, s: &str, at: u64) -> Result<(), Diagnostic> {
        if s.is_empty() {
            return Ok(());
        }
        self.st.base = at;
        let st = &mut self.st;
        let r = self.push.feed(s, &mut |t| st.on(t, s));
        if let Err(e) = r {
            return Err(self.st.stopped(e, self.push.pos()));
        }
        self.st.piece_done(s);
        Ok(())
    }
}

impl<'s> State<'s> {
    /// A refusal of the reader (at byte `pos`) or of a token.
    fn stopped(&self, e: Stop<Diagnostic>, pos: u64) -> Diagnostic {
        match e {
            Stop::Sink(d) => d,
            Stop::Json(e) => {
                let at = self.line_column(e.offset as u64);
                admit::reader_refusal(e, at).at_offset(pos)
            }
        }
    }

    /// The line and column of `offset` (in the piece being read, or just
    /// before it).
    fn line_column(&self, offset: u64) -> (usize, usize) {
        (
            self.lines + 1,
            self.column + 1 + offset.saturating_sub(self.base) as usize,
        )
    }

    /// Lines, columns and held text after a piece.
    fn piece_done(&mut self, s: &str) {
        if let Some(h) = &mut self.hold {
            let from = h.from.saturating_sub(self.base) as usize;
            h.text
                .push_str(s.get(from.min(s.len())..).unwrap_or_default());
        }
        match s.rfind('\n') {
            Some(i) => {
                self.lines += s.matches('\n').count();
                self.column = s.get(i + 1..).unwrap_or_default().chars().count();
            }
            None => self.column += s.chars().count(),
        }
    }

    /// The keys of the fields of type `ty` (its case `case`) in the
    /// dialect, in declaration order (admission's words name them).
    fn names(&self, ty: usize, case: Option<usize>) -> Vec<&str> {
        self.keys
            .field_keys(ty, case)
            .iter()
            .map(String::as_str)
            .collect()
    }

    fn decl(&self, ty: usize, case: Option<usize>) -> &'s [Field] {
        self.schema.graph().fields_of(ty, case)
    }

    fn cases(&self, ty: usize) -> &'s [Case] {
        self.schema.graph().cases_of(ty)
    }

    fn is_variant(&self, ty: usize) -> bool {
        self.schema.graph().is_variant(ty)
    }

    fn model(&self, d: Diagnostic, ptr: &str, seen: &Seen, failure: &Failure<'_>) -> Diagnostic {
        match Voice::Model.detail(seen, self.schema, ptr, failure) {
            Some(t) => d.with_detail(t),
            None => d,
        }
    }

    /// One token.
    fn on(&mut self, t: Tok<'_>, piece: &str) -> Result<(), Diagnostic> {
        if self.hold.is_some() {
            return self.holding(t, piece);
        }
        match t {
            Tok::Begin { start, at } => self.begin(start, at),
            Tok::Text {
                key: true,
                text,
                at,
                escaped,
            } => {
                self.pieces.push((self.key.len(), at, escaped));
                self.key.push_str(text);
                Ok(())
            }
            Tok::Text {
                key: false,
                text,
                at,
                escaped,
            } => self.text(text, at, escaped),
            Tok::Key { text, at } => {
                let r = self.key(text, at);
                self.key.clear();
                self.pieces.clear();
                r
            }
            Tok::StrEnd { at } => self.str_end(at),
            Tok::Number { raw, at } => self.scalar(raw, at, Value::Bool(false)),
            Tok::Bool { value, at } => {
                let raw = if value { "true" } else { "false" };
                self.scalar(raw, at, Value::Bool(value))
            }
            Tok::Null { at } => self.scalar("null", at, Value::Bool(false)),
            Tok::ObjEnd { at } => self.obj_end(at),
            Tok::ArrEnd { .. } => self.arr_end(),
            Tok::Comma { at } => match self.stack.last() {
                Some(Level::Bytes { ptr, out, .. }) if out.len() >= limits::MAX_BYTES_LEN => {
                    let failure = Failure::BytesLength {
                        count: out.len() + 1,
                        node: 0,
                    };
                    let seen = Seen {
                        kind: "an array",
                        text: String::new(),
                        shown: Some(format!("an array of more than {} elements", out.len())),
                    };
                    let d = Diagnostic::z206("value.bytes_length").at_pointer(ptr.clone());
                    Err(self.model(d, ptr, &seen, &failure).at_offset(at))
                }
                _ => Ok(()),
            },
            Tok::End => Ok(()),
        }
    }

    /// A token of a value held as text: only where it ends matters.
    fn holding(&mut self, t: Tok<'_>, piece: &str) -> Result<(), Diagnostic> {
        let Some(h) = &mut self.hold else {
            return Ok(());
        };
        let end = match t {
            Tok::Begin {
                start: Start::Object | Start::Array,
                ..
            } => {
                h.depth += 1;
                None
            }
            Tok::ObjEnd { at } | Tok::ArrEnd { at } => {
                h.depth = h.depth.saturating_sub(1);
                Some(at + 1)
            }
            Tok::StrEnd { at } => Some(at + 1),
            Tok::Number { raw, at } => Some(at + raw.len() as u64),
            Tok::Bool { value, at } => Some(at + if value { 4 } else { 5 }),
            Tok::Null { at } => Some(at + 4),
            _ => None,
        };
        let Some(end) = end.filter(|_| h.depth == 0) else {
            return Ok(());
        };
        // The value is complete: keep its text.
        let from = h.from.saturating_sub(self.base) as usize;
        let to = end.saturating_sub(self.base) as usize;
        if let Some(part) = piece.get(from.min(to)..to.min(piece.len())) {
            h.text.push_str(part);
        }
        let Some(h) = self.hold.take() else {
            return Ok(());
        };
        if let Some(Level::Type {
            held,
            member,
            has_fields,
            ..
        }) = self.stack.last_mut()
        {
            *held = Some((h.text, h.from));
            *member = Member::None;
            *has_fields = true;
        }
        Ok(())
    }

    /// What the next value is: where it belongs.
    fn begin(&mut self, start: Start, at: u64) -> Result<(), Diagnostic> {
        let seen = Seen::of(start);
        let scalar = matches!(start, Start::Number | Start::Literal);
        // A refusal of this value's kind: at once, or once the number or
        // literal is complete (it must be JSON first).
        let refuse = |s: &mut State<'_>, w: Wrong| {
            if scalar {
                s.leaf = Leaf::Await(w, at);
                Ok(())
            } else {
                Err(s.wrong(&w, &seen).at_offset(at))
            }
        };
        let slot = match self.stack.last() {
            None if self.wraps => Slot::Wrapper,
            None => Slot::Root(String::new()),
            Some(Level::Wrap { member: true, .. }) => Slot::Root("/value".into()),
            Some(Level::Type {
                ty,
                case: None,
                member: Member::Fields,
                ..
            }) if self.is_variant(*ty) => Slot::Held,
            Some(Level::Type {
                ty,
                depth,
                ptr,
                cptr,
                case,
                member: Member::Fields,
                ..
            }) => Slot::Fields(
                *ty,
                *case,
                *depth,
                format!("{ptr}/fields"),
                format!("{cptr}/fields"),
            ),
            Some(Level::Type {
                ty,
                ptr,
                member: Member::Case,
                ..
            }) => Slot::Case(*ty, format!("{ptr}/case")),
            Some(Level::Fields {
                ty,
                case,
                depth,
                ptr,
                cptr,
                member: Some((j, key)),
                ..
            }) => {
                let mut fptr = ptr.clone();
                push_pointer_token(&mut fptr, key);
                Slot::Field(*ty, *case, *depth, *j, fptr, cptr.clone())
            }
            Some(Level::Bytes { ptr, out, .. }) => {
                let mut p = ptr.clone();
                push_pointer_token(&mut p, &out.len().to_string());
                Slot::Element(p)
            }
            Some(_) => Slot::Nothing,
        };
        match slot {
            Slot::Wrapper => {
                if start == Start::Object {
                    self.stack.push(Level::Wrap {
                        has: false,
                        member: false,
                    });
                    return Ok(());
                }
                refuse(self, Wrong::Wrapper)
            }
            Slot::Root(ptr) => {
                let root = self.schema.graph().root_index();
                self.type_value(root, 0, ptr, "/value".into(), start, at)
            }
            Slot::Held => {
                // The fields of a case not read yet: held as text.
                self.hold = Some(Hold {
                    from: at,
                    text: String::new(),
                    depth: usize::from(matches!(start, Start::Object | Start::Array)),
                });
                Ok(())
            }
            Slot::Fields(ty, case, depth, ptr, cptr) => {
                if start != Start::Object {
                    return refuse(self, Wrong::FieldsNotObject { ty, case, ptr });
                }
                let n = self.decl(ty, case).len();
                self.stack.push(Level::Fields {
                    ty,
                    case,
                    depth,
                    ptr,
                    cptr,
                    slots: vec![None; n],
                    member: None,
                });
                Ok(())
            }
            Slot::Case(ty, ptr) => {
                if start == Start::String {
                    self.leaf = Leaf::Case {
                        text: String::new(),
                        bad: None,
                    };
                    return Ok(());
                }
                refuse(self, Wrong::CaseNotString { ty, ptr })
            }
            Slot::Field(ty, case, depth, j, ptr, mut cptr) => {
                let Some(field) = self.decl(ty, case).get(j) else {
                    return Ok(());
                };
                push_pointer_token(&mut cptr, &field.stable_id);
                match field.ty {
                    FieldType::Nested(t) => self.type_value(t, depth + 1, ptr, cptr, start, at),
                    FieldType::Scalar(repr) => self.leaf_start(repr, start, at, ptr, cptr),
                }
            }
            Slot::Element(p) => {
                if start == Start::Number {
                    return Ok(());
                }
                refuse(self, Wrong::Element { ptr: p })
            }
            Slot::Nothing => Ok(()),
        }
    }

    /// A value of type `ty` at `depth` starts (its first byte at `at`).
    fn type_value(
        &mut self,
        ty: usize,
        depth: usize,
        ptr: String,
        cptr: String,
        start: Start,
        at: u64,
    ) -> Result<(), Diagnostic> {
        if !self.shortest.feasible(ty, depth) {
            // Every value of it nests deeper than 16 from here.
            let p = self.shortest.infeasible_ptr(self.schema, ty, depth, ptr);
            let failure = Failure::MaxDepth { ty, node: 0 };
            let d = Diagnostic::z206("value.max_depth").at_pointer(p.clone());
            return Err(self.model(d, &p, &Seen::of(start), &failure).at_offset(at));
        }
        if start != Start::Object {
            let w = Wrong::NotObject { ty, ptr };
            if matches!(start, Start::Number | Start::Literal) {
                self.leaf = Leaf::Await(w, at);
                return Ok(());
            }
            return Err(self.wrong(&w, &Seen::of(start)).at_offset(at));
        }
        self.stack.push(Level::Type {
            ty,
            depth,
            ptr,
            cptr,
            case: None,
            has_case: false,
            fields: None,
            held: None,
            has_fields: false,
            member: Member::None,
        });
        Ok(())
    }

    fn leaf_start(
        &mut self,
        repr: Repr,
        start: Start,
        at: u64,
        ptr: String,
        cptr: String,
    ) -> Result<(), Diagnostic> {
        let fits = match repr {
            Repr::Bool => start == Start::Literal,
            Repr::Bytes => start == Start::Array,
            _ => start == Start::String,
        };
        if !fits {
            let w = Wrong::Representation { repr, ptr };
            if matches!(start, Start::Number | Start::Literal) {
                self.leaf = Leaf::Await(w, at);
                return Ok(());
            }
            return Err(self.wrong(&w, &Seen::of(start)).at_offset(at));
        }
        match repr {
            Repr::Bool => self.leaf = Leaf::Bool { ptr, cptr, at },
            Repr::Bytes => self.stack.push(Level::Bytes {
                ptr,
                cptr,
                out: Vec::new(),
            }),
            Repr::String => {
                self.leaf = Leaf::Str {
                    text: String::new(),
                    ptr,
                    cptr,
                }
            }
            _ => {
                self.leaf = Leaf::Int {
                    repr,
                    text: String::new(),
                    d: DecimalPrefix::new(),
                    bad: None,
                    ptr,
                    cptr,
                }
            }
        }
        Ok(())
    }

    /// The refusal `w`, of a value `seen`.
    fn wrong(&self, w: &Wrong, seen: &Seen) -> Diagnostic {
        match w {
            Wrong::Wrapper => admit::not_wrapped(self.schema, &Found::describe(seen, 0)),
            Wrong::NotObject { ty, ptr } => {
                let d = Diagnostic::z205(RULE_SHAPE).at_pointer(ptr.clone());
                self.model(d, ptr, seen, &Failure::NotObject { ty: *ty, node: 0 })
            }
            Wrong::FieldsNotObject { ty, case, ptr } => {
                let names = self.names(*ty, *case);
                let d = Diagnostic::z205(RULE_SHAPE).at_pointer(ptr.clone());
                self.model(d, ptr, seen, &Failure::FieldsNotObject { names, node: 0 })
            }
            Wrong::CaseNotString { ty, ptr } => {
                let cases = self.cases(*ty);
                let d = Diagnostic::z205(RULE_SHAPE).at_pointer(ptr.clone());
                self.model(d, ptr, seen, &Failure::CaseNotString { cases, node: 0 })
            }
            Wrong::Representation { repr, ptr } => {
                let d = Diagnostic::z206("value.representation").at_pointer(ptr.clone());
                self.model(
                    d,
                    ptr,
                    seen,
                    &Failure::Representation {
                        repr: *repr,
                        node: 0,
                    },
                )
            }
            Wrong::Element { ptr } => {
                let d = Diagnostic::z206("value.bytes_element").at_pointer(ptr.clone());
                self.model(d, ptr, seen, &Failure::BytesElement { node: 0 })
            }
        }
    }

    /// The offset of the first byte of the key just read (`key`, whose
    /// closing quote is at `at`) after which it can no longer be one of
    /// `candidates`: where its longest common start with them ends.
    fn key_impossible(&self, key: &str, at: u64, candidates: &[&str]) -> u64 {
        let mut k = candidates
            .iter()
            .map(|c| {
                key.bytes()
                    .zip(c.bytes())
                    .take_while(|(a, b)| a == b)
                    .count()
            })
            .max()
            .unwrap_or(0);
        while !key.is_char_boundary(k) {
            k -= 1;
        }
        if k >= key.len() {
            return at;
        }
        let mut best = (0usize, at, false);
        for &(decoded, raw, escaped) in &self.pieces {
            if decoded > k {
                break;
            }
            best = (decoded, raw, escaped);
        }
        let (decoded, raw, escaped) = best;
        if escaped {
            raw
        } else {
            raw + (k - decoded) as u64
        }
    }

    /// A piece of a string value's text.
    fn text(&mut self, piece: &str, at: u64, escaped: bool) -> Result<(), Diagnostic> {
        let offset = |k: usize| if escaped { at } else { at + k as u64 };
        match &mut self.leaf {
            Leaf::Str { text, ptr, .. } => {
                let room = limits::MAX_STRING_BYTES - text.len();
                if piece.len() <= room {
                    text.push_str(piece);
                    return Ok(());
                }
                let k = piece
                    .char_indices()
                    .find(|&(k, c)| k + c.len_utf8() > room)
                    .map_or(0, |(k, _)| k);
                let ptr = ptr.clone();
                let failure = Failure::StringBytes {
                    len: text.len() + piece.len(),
                    node: 0,
                };
                let seen = Seen {
                    kind: "a string",
                    text: String::new(),
                    shown: Some(format!(
                        "a string of more than {} UTF-8 bytes",
                        limits::MAX_STRING_BYTES
                    )),
                };
                let d = Diagnostic::z206("value.string_bytes").at_pointer(ptr.clone());
                Err(self.model(d, &ptr, &seen, &failure).at_offset(offset(k)))
            }
            Leaf::Int {
                repr,
                text,
                d,
                bad,
                ptr,
                ..
            } => {
                let repr = *repr;
                for (k, c) in piece.char_indices() {
                    text.push(c);
                    let mut tmp = [0u8; 4];
                    for &b in c.encode_utf8(&mut tmp).as_bytes() {
                        d.push(b);
                    }
                    if bad.is_none() && !d.viable(repr) {
                        *bad = Some(offset(k));
                    }
                }
                if let (Some(rule), Some(off)) = (d.decided(repr), *bad) {
                    let (ptr, text) = (ptr.clone(), text.clone());
                    return Err(self.integer_refusal(repr, rule, &ptr, &text).at_offset(off));
                }
                Ok(())
            }
            Leaf::Case { text, bad } => {
                let before = text.len();
                text.push_str(piece);
                if bad.is_some() {
                    return Ok(());
                }
                let Some(Level::Type { ty, ptr, .. }) = self.stack.last() else {
                    return Ok(());
                };
                let cases = self.cases(*ty);
                let possible = |t: &str| cases.iter().any(|c| c.stable_id.starts_with(t));
                let Leaf::Case { text, bad } = &mut self.leaf else {
                    return Ok(());
                };
                if possible(text) {
                    return Ok(());
                }
                let k = piece
                    .char_indices()
                    .map(|(k, c)| k + c.len_utf8())
                    .find(|&end| !possible(text.get(..before + end).unwrap_or_default()))
                    .map_or(0, |end| {
                        end - piece
                            .get(..end)
                            .map_or(0, |p| p.chars().last().map_or(0, char::len_utf8))
                    });
                *bad = Some(offset(k));
                let (ty, ptr, text) = (*ty, format!("{ptr}/case"), text.clone());
                Err(self.unknown_case(ty, &ptr, &text).at_offset(offset(k)))
            }
            _ => Ok(()),
        }
    }

    fn integer_refusal(&self, repr: Repr, rule: &'static str, ptr: &str, text: &str) -> Diagnostic {
        let d = Diagnostic::z206(rule).at_pointer(ptr.to_owned());
        let failure = Failure::Integer {
            repr,
            rule,
            node: 0,
        };
        self.model(d, ptr, &Seen::text(text), &failure)
    }

    fn unknown_case(&self, ty: usize, ptr: &str, text: &str) -> Diagnostic {
        let cases = self.cases(ty);
        let d = Diagnostic::z206("value.case").at_pointer(ptr.to_owned());
        self.model(
            d,
            ptr,
            &Seen::text(text),
            &Failure::UnknownCase { ty, cases, node: 0 },
        )
    }

    /// An object key, complete (and not a duplicate: the reader checked).
    fn key(&mut self, key: &str, at: u64) -> Result<(), Diagnostic> {
        match self.stack.last() {
            Some(Level::Wrap { .. }) => {
                if key == "value" {
                    if let Some(Level::Wrap { has, member }) = self.stack.last_mut() {
                        *has = true;
                        *member = true;
                    }
                    return Ok(());
                }
                let off = self.key_impossible(key, at, &["value"]);
                let ptr = {
                    let mut p = String::new();
                    push_pointer_token(&mut p, key);
                    p
                };
                let failure = Failure::UnexpectedKey {
                    obj: 0,
                    key,
                    keys: &["value"],
                };
                let d = Diagnostic::z205(RULE_SHAPE).at_pointer(ptr.clone());
                Err(self
                    .model(d, &ptr, &Seen::object(&[]), &failure)
                    .at_offset(off))
            }
            Some(Level::Type {
                ty,
                ptr,
                has_case,
                has_fields,
                ..
            }) => {
                let variant = self.is_variant(*ty);
                let allowed: &[&str] = if variant {
                    &["case", "fields"]
                } else {
                    &["fields"]
                };
                let member = match key {
                    "case" if variant => Member::Case,
                    "fields" => Member::Fields,
                    _ => {
                        let mut seen_keys = Vec::new();
                        if *has_case {
                            seen_keys.push("case");
                        }
                        if *has_fields {
                            seen_keys.push("fields");
                        }
                        let open: Vec<&str> = allowed
                            .iter()
                            .copied()
                            .filter(|k| !seen_keys.contains(k))
                            .collect();
                        let off = self.key_impossible(key, at, &open);
                        let mut p = ptr.clone();
                        push_pointer_token(&mut p, key);
                        let failure = Failure::UnexpectedKey {
                            obj: 0,
                            key,
                            keys: allowed,
                        };
                        let d = Diagnostic::z205(RULE_SHAPE).at_pointer(p.clone());
                        let seen = Seen::object(&seen_keys);
                        return Err(self.model(d, &p, &seen, &failure).at_offset(off));
                    }
                };
                if let Some(Level::Type {
                    member: m,
                    has_case,
                    has_fields,
                    ..
                }) = self.stack.last_mut()
                {
                    *m = member;
                    if member == Member::Case {
                        *has_case = true;
                    } else {
                        *has_fields = true;
                    }
                }
                Ok(())
            }
            Some(Level::Fields {
                ty,
                case,
                ptr,
                slots,
                ..
            }) => {
                let (ty, case) = (*ty, *case);
                let decl = self.decl(ty, case);
                let mut p = ptr.clone();
                push_pointer_token(&mut p, key);
                // The keys that could still come: the safe key and the
                // stable id of each field not yet named.
                let open = |slots: &[Option<Value>]| -> Vec<&str> {
                    decl.iter()
                        .enumerate()
                        .zip(slots.iter())
                        .filter(|(_, s)| s.is_none())
                        .flat_map(|((j, f), _)| {
                            [self.keys.field_key(ty, case, j), f.stable_id.as_str()]
                        })
                        .collect()
                };
                match self.keys.field(ty, case, key) {
                    None => {
                        let off = self.key_impossible(key, at, &open(slots));
                        let failure = Failure::UnknownField {
                            names: self.names(ty, case),
                            key,
                            node: 0,
                        };
                        let d = Diagnostic::z206("value.fields.unknown").at_pointer(p.clone());
                        Err(self.model(d, &p, &Seen::unread(), &failure).at_offset(off))
                    }
                    Some(j) if slots.get(j).is_some_and(Option::is_some) => {
                        // Its safe key and its stable id: two keys naming
                        // one field, as admission refuses them.
                        let off = self.key_impossible(key, at, &open(slots));
                        let first = self.keys.field_key(ty, case, j);
                        Err(crate::walk::same_field(p, first, key).at_offset(off))
                    }
                    Some(j) => {
                        if let Some(Level::Fields { member, .. }) = self.stack.last_mut() {
                            *member = Some((j, key.to_owned()));
                        }
                        Ok(())
                    }
                }
            }
            _ => Ok(()),
        }
    }

    /// The closing quote of a string value.
    fn str_end(&mut self, at: u64) -> Result<(), Diagnostic> {
        match std::mem::replace(&mut self.leaf, Leaf::None) {
            Leaf::Str { text, cptr, .. } => self.deliver(Value::String(text), Some(cptr)),
            Leaf::Int {
                repr,
                text,
                bad,
                ptr,
                cptr,
                ..
            } => match parse_integer(repr, text.as_bytes()) {
                Ok(Int::Signed(v)) => self.deliver(Value::I64(v), Some(cptr)),
                Ok(Int::Unsigned(v)) => self.deliver(Value::U64(v), Some(cptr)),
                Err(rule) => Err(self
                    .integer_refusal(repr, rule, &ptr, &text)
                    .at_offset(bad.unwrap_or(at))),
            },
            Leaf::Case { text, bad } => self.case_read(&text, bad.unwrap_or(at)),
            other => {
                self.leaf = other;
                Ok(())
            }
        }
    }

    /// The case id of the top type value is `text`.
    fn case_read(&mut self, text: &str, bad: u64) -> Result<(), Diagnostic> {
        let Some(Level::Type {
            ty,
            depth,
            ptr,
            cptr,
            ..
        }) = self.stack.last()
        else {
            return Ok(());
        };
        let (ty, depth) = (*ty, *depth);
        let (ptr, cptr) = (ptr.clone(), cptr.clone());
        let cases = self.cases(ty);
        let Some(c) = cases.iter().position(|c| c.stable_id == text) else {
            return Err(self
                .unknown_case(ty, &format!("{ptr}/case"), text)
                .at_offset(bad));
        };
        let case = cases.get(c);
        if let Some(case) =
            case.filter(|_| self.shortest.after_case(ty, c, depth) == super::shortest::INF)
        {
            let p = self
                .shortest
                .infeasible_field(self.schema, &case.fields, depth, ptr);
            return Err(Diagnostic::z206("value.max_depth")
                .at_pointer(p)
                .at_offset(bad));
        }
        let mut held = None;
        if let Some(Level::Type {
            case,
            member,
            held: h,
            ..
        }) = self.stack.last_mut()
        {
            *case = Some(c);
            *member = Member::None;
            held = h.take();
        }
        if self.collect {
            self.events.push(Event::CaseChosen {
                pointer: cptr,
                case: text.to_owned(),
            });
        }
        let Some((text, from)) = held else {
            return Ok(());
        };
        // The fields held before the case: read them now.
        if let Some(Level::Type { member, .. }) = self.stack.last_mut() {
            *member = Member::Fields;
        }
        const REPLAY: Options = Options {
            duplicates: Duplicates::Keep,
            max_nesting: usize::MAX,
            bom: Bom::Refuse,
            numbers: Numbers::Any,
        };
        // A variant held inside it is held again, from this text.
        let saved = std::mem::replace(&mut self.base, from);
        let mut sub = Push::resume(REPLAY, &[], from, Resume::Value);
        let r = sub.feed(&text, &mut |t| self.on(t, &text));
        let r = r.and_then(|()| sub.finish(&mut |t| self.on(t, &text)));
        self.base = saved;
        match r {
            Ok(()) => Ok(()),
            Err(Stop::Sink(d)) => Err(d),
            Err(Stop::Json(e)) => Err(admit::reader_refusal(e, (0, 0))),
        }
    }

    /// A number or a literal, complete, starting at `at`.
    fn scalar(&mut self, raw: &str, at: u64, value: Value) -> Result<(), Diagnostic> {
        match std::mem::replace(&mut self.leaf, Leaf::None) {
            Leaf::Await(w, start) => Err(self.wrong(&w, &Seen::scalar(raw)).at_offset(start)),
            Leaf::Bool {
                ptr,
                cptr,
                at: start,
            } => {
                if raw == "null" {
                    let w = Wrong::Representation {
                        repr: Repr::Bool,
                        ptr,
                    };
                    return Err(self.wrong(&w, &Seen::scalar(raw)).at_offset(start));
                }
                self.deliver(value, Some(cptr))
            }
            other => {
                self.leaf = other;
                if let Some(Level::Bytes { ptr, out, .. }) = self.stack.last_mut() {
                    match byte_element(raw) {
                        Some(b) => out.push(b),
                        None => {
                            let mut p = ptr.clone();
                            push_pointer_token(&mut p, &out.len().to_string());
                            let off = at + ElementPrefix::viable_len(raw.as_bytes()) as u64;
                            let w = Wrong::Element { ptr: p };
                            return Err(self.wrong(&w, &Seen::scalar(raw)).at_offset(off));
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// A value is complete where it belongs: a leaf (with its canonical
    /// pointer, for its event) or a type value.
    fn deliver(&mut self, value: Value, leaf: Option<String>) -> Result<(), Diagnostic> {
        match self.stack.last_mut() {
            Some(Level::Fields { slots, member, .. }) => {
                if let Some((j, _)) = member.take() {
                    if let (Some(cptr), true) = (&leaf, self.collect) {
                        self.events.push(Event::FieldDone {
                            pointer: cptr.clone(),
                            value: value.clone(),
                        });
                    }
                    if let Some(slot) = slots.get_mut(j) {
                        *slot = Some(value);
                    }
                }
            }
            Some(Level::Wrap { member, .. }) => {
                *member = false;
                self.root = Some(value);
            }
            None => self.root = Some(value),
            _ => {}
        }
        Ok(())
    }

    /// The `}` at `at` closes the innermost object.
    fn obj_end(&mut self, at: u64) -> Result<(), Diagnostic> {
        match self.stack.pop() {
            Some(Level::Wrap { has, .. }) => {
                if has {
                    return Ok(());
                }
                let failure = Failure::MissingKey {
                    obj: 0,
                    key: "value",
                    keys: &["value"],
                };
                let d = Diagnostic::z205(RULE_SHAPE).at_pointer("/value");
                Err(self
                    .model(d, "/value", &Seen::object(&[]), &failure)
                    .at_offset(at))
            }
            Some(Level::Type {
                ty,
                ptr,
                case,
                has_case,
                fields,
                has_fields,
                ..
            }) => {
                let variant = self.is_variant(ty);
                let keys: &[&str] = if variant {
                    &["case", "fields"]
                } else {
                    &["fields"]
                };
                let missing = if variant && !has_case {
                    Some("case")
                } else if !has_fields || fields.is_none() && case.is_some() {
                    Some("fields")
                } else {
                    None
                };
                if let Some(key) = missing {
                    let mut seen_keys = Vec::new();
                    if has_case {
                        seen_keys.push("case");
                    }
                    if has_fields {
                        seen_keys.push("fields");
                    }
                    let p = format!("{ptr}/{key}");
                    let failure = Failure::MissingKey { obj: 0, key, keys };
                    let d = Diagnostic::z205(RULE_SHAPE).at_pointer(p.clone());
                    let seen = Seen::object(&seen_keys);
                    return Err(self.model(d, &p, &seen, &failure).at_offset(at));
                }
                let fields = fields.unwrap_or_default();
                let value = match case {
                    Some(c) => Value::Variant {
                        case: self
                            .cases(ty)
                            .get(c)
                            .map(|c| c.stable_id.clone())
                            .unwrap_or_default(),
                        fields,
                    },
                    None => Value::Record(fields),
                };
                self.deliver(value, None)
            }
            Some(Level::Fields {
                ty,
                case,
                ptr,
                slots,
                ..
            }) => {
                let decl = self.decl(ty, case);
                let mut out = Vec::with_capacity(decl.len());
                for (field, slot) in decl.iter().zip(slots) {
                    match slot {
                        Some(v) => out.push((field.stable_id.clone(), v)),
                        None => {
                            let mut p = ptr.clone();
                            let j = out.len();
                            push_pointer_token(&mut p, self.keys.field_key(ty, case, j));
                            let failure = Failure::MissingField { field };
                            let d = Diagnostic::z206("value.fields.missing").at_pointer(p.clone());
                            return Err(self.model(d, &p, &Seen::unread(), &failure).at_offset(at));
                        }
                    }
                }
                if let Some(Level::Type { fields, member, .. }) = self.stack.last_mut() {
                    *fields = Some(out);
                    *member = Member::None;
                }
                Ok(())
            }
            Some(other) => {
                self.stack.push(other);
                Ok(())
            }
            None => Ok(()),
        }
    }

    fn arr_end(&mut self) -> Result<(), Diagnostic> {
        match self.stack.pop() {
            Some(Level::Bytes { cptr, out, .. }) => self.deliver(Value::Bytes(out), Some(cptr)),
            Some(other) => {
                self.stack.push(other);
                Ok(())
            }
            None => Ok(()),
        }
    }
}
