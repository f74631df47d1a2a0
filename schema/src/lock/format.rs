//! The format of `spx.lock`: deterministic text (JSON, one pin per line,
//! pins sorted by source then root, one LF at the end):
//!
//! ```text
//! {"spx_lock":1,"pins":[
//! {"source":"agents/planner.spx","root":"planner.proposal","root_type_revision":"sha256:…","digest":"sha256:…"},
//! {"source":"agents/planner.spx","root":"planner.step","root_type_revision":"sha256:…","digest":"sha256:…"}
//! ]}
//! ```
//!
//! A lock with no pins is `{"spx_lock":1,"pins":[` LF `]}` LF. The reader is
//! strict: anything that is not exactly the rendering of its pins is refused
//! with SPX-L001 and the `spx.lock:line:col` of the first problem, so a
//! merge conflict or a hand edit can never be read as something else. A
//! pin's `source` is the normal form of its path ([`super::path`]).

use super::messages::{abnormal_source, malformed};
use super::path::normalize_source;
use super::{LOCK_VERSION, PIN_DIR};
use crate::diag::Diagnostic;
use crate::quote::quote_into;
use crate::schema::Schema;

const HEADER: &str = "{\"spx_lock\":1,\"pins\":[";
const FOOTER: &str = "]}";

/// One pinned root.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pin {
    /// The source path: the normal form of a package-relative,
    /// `/`-separated path ([`super::normalize_source`]).
    pub source: String,
    /// The root's stable id.
    pub root: String,
    /// The pinned `root_type_revision` (`sha256:…`).
    pub root_type_revision: String,
    /// The pinned schema digest (`sha256:…`).
    pub digest: String,
}

impl Pin {
    /// The pin of `schema`, derived from `source`.
    pub fn of(source: impl Into<String>, schema: &Schema) -> Pin {
        Pin {
            source: source.into(),
            root: schema.root_type_id().to_owned(),
            root_type_revision: schema.revision().to_owned(),
            digest: schema.digest().to_owned(),
        }
    }

    /// True when `schema` has exactly this pin's revision and digest.
    pub fn matches(&self, schema: &Schema) -> bool {
        self.digest == schema.digest() && self.root_type_revision == schema.revision()
    }

    fn render_into(&self, out: &mut String) {
        out.push_str("{\"source\":");
        quote_into(out, &self.source);
        out.push_str(",\"root\":");
        quote_into(out, &self.root);
        out.push_str(",\"root_type_revision\":");
        quote_into(out, &self.root_type_revision);
        out.push_str(",\"digest\":");
        quote_into(out, &self.digest);
        out.push('}');
    }
}

/// The contents of `spx.lock`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lock {
    /// The pins. [`Lock::render`] writes them sorted by source, then root.
    pub pins: Vec<Pin>,
}

impl Lock {
    /// The pin of `root` derived from `source`, if any. `source` may be
    /// any spelling of the path (`./agents/p.spx`, `agents//p.spx`): it is
    /// normalised first, as the lock stores it.
    pub fn find(&self, source: &str, root: &str) -> Option<&Pin> {
        let key = normalize_source(source).ok()?;
        self.pins.iter().find(|p| p.source == key && p.root == root)
    }

    /// Inserts `pin`, replacing the pin with the same source and root.
    /// Returns true when the lock changed.
    pub fn upsert(&mut self, pin: Pin) -> bool {
        match self
            .pins
            .iter_mut()
            .find(|p| p.source == pin.source && p.root == pin.root)
        {
            Some(p) if *p == pin => false,
            Some(p) => {
                *p = pin;
                true
            }
            None => {
                self.pins.push(pin);
                true
            }
        }
    }

    /// The canonical text: header line, one pin per line sorted by source
    /// then root, footer line, LF at the end.
    pub fn render(&self) -> String {
        let mut pins: Vec<&Pin> = self.pins.iter().collect();
        pins.sort();
        pins.dedup();
        let mut out = String::new();
        out.push_str(HEADER);
        out.push('\n');
        for (i, p) in pins.iter().enumerate() {
            p.render_into(&mut out);
            if i + 1 < pins.len() {
                out.push(',');
            }
            out.push('\n');
        }
        out.push_str(FOOTER);
        out.push('\n');
        out
    }

    /// Parses lock text, refusing anything that is not exactly a canonical
    /// rendering with SPX-L001 at `spx.lock:line:col`.
    pub fn parse(bytes: &[u8]) -> Result<Lock, Diagnostic> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let (line, col) = line_col(bytes, e.valid_up_to());
            malformed("lock.utf8", "spx.lock is not UTF-8", line, col)
        })?;
        if let Some(off) = text.find('\r') {
            let (line, col) = line_col(bytes, off);
            return Err(malformed(
                "lock.syntax",
                "spx.lock contains a carriage return (line endings must be LF)",
                line,
                col,
            ));
        }
        if let Some(line) = conflict_marker(text) {
            return Err(malformed(
                "lock.syntax",
                "spx.lock holds git merge-conflict markers",
                line,
                1,
            ));
        }
        if !text.ends_with('\n') {
            let (line, col) = line_col(bytes, text.len());
            return Err(malformed(
                "lock.syntax",
                "spx.lock does not end with a line feed",
                line,
                col,
            ));
        }
        let body = &text[..text.len() - 1];
        let lines: Vec<&str> = body.split('\n').collect();
        let header = lines.first().copied().unwrap_or("");
        if header != HEADER {
            if let Some(v) = unsupported_version(header) {
                return Err(malformed(
                    "lock.version",
                    format!(
                        "spx.lock format version {v} is not supported (this build reads version {LOCK_VERSION})"
                    ),
                    1,
                    1,
                ));
            }
            let col = first_difference(header, HEADER);
            return Err(malformed(
                "lock.syntax",
                format!("spx.lock must start with the line `{HEADER}`"),
                1,
                col,
            ));
        }
        if lines.len() < 2 {
            return Err(malformed(
                "lock.syntax",
                format!("spx.lock ends before its closing line `{FOOTER}`"),
                1,
                (HEADER.chars().count() + 1) as u32,
            ));
        }
        let last = lines.len() - 1;
        if lines[last] != FOOTER {
            let col = first_difference(lines[last], FOOTER);
            let message = if lines[last].starts_with('{') {
                format!("spx.lock ends before its closing line `{FOOTER}`")
            } else {
                format!("expected the closing line `{FOOTER}`")
            };
            return Err(malformed("lock.syntax", message, line_no(last), col));
        }
        let mut pins: Vec<Pin> = Vec::with_capacity(last - 1);
        for (i, raw) in lines.iter().enumerate().take(last).skip(1) {
            let line = line_no(i);
            let is_last = i + 1 == last;
            let object = if is_last {
                if raw.ends_with(',') {
                    return Err(malformed(
                        "lock.syntax",
                        "the last pin must not be followed by a comma",
                        line,
                        raw.chars().count() as u32,
                    ));
                }
                *raw
            } else {
                match raw.strip_suffix(',') {
                    Some(o) => o,
                    None => {
                        return Err(malformed(
                            "lock.syntax",
                            "expected `,` after this pin (one pin per line)",
                            line,
                            raw.chars().count() as u32 + 1,
                        ))
                    }
                }
            };
            let pin = parse_pin(object, line)?;
            if let Some(prev) = pins.last() {
                match (&prev.source, &prev.root).cmp(&(&pin.source, &pin.root)) {
                    std::cmp::Ordering::Less => {}
                    std::cmp::Ordering::Equal => {
                        return Err(malformed(
                            "lock.duplicate",
                            format!(
                                "root {} of source {} is pinned twice",
                                crate::quote::quote(&pin.root),
                                crate::quote::quote(&pin.source)
                            ),
                            line,
                            1,
                        ))
                    }
                    std::cmp::Ordering::Greater => {
                        return Err(malformed(
                            "lock.order",
                            "pins must be sorted by source, then root",
                            line,
                            1,
                        ))
                    }
                }
            }
            if let Some(other) = pins
                .iter()
                .find(|p| p.root == pin.root && p.digest != pin.digest)
            {
                return Err(malformed(
                    "lock.root_conflict",
                    format!(
                        "root {} is pinned with two different digests (sources {} and {}); its pinned document in {PIN_DIR}/ can only be one",
                        crate::quote::quote(&pin.root),
                        crate::quote::quote(&other.source),
                        crate::quote::quote(&pin.source)
                    ),
                    line,
                    1,
                ));
            }
            pins.push(pin);
        }
        Ok(Lock { pins })
    }
}

/// The 1-based line of the first git merge-conflict marker (`<<<<<<<`,
/// `|||||||`, `=======` or `>>>>>>>` at the start of a line), if any.
fn conflict_marker(text: &str) -> Option<u32> {
    text.split('\n')
        .position(|l| {
            ["<<<<<<<", "|||||||", "=======", ">>>>>>>"]
                .iter()
                .any(|m| l.starts_with(m))
        })
        .map(line_no)
}

fn line_no(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

/// 1-based line and column (in characters) of byte `offset`.
fn line_col(bytes: &[u8], offset: usize) -> (u32, u32) {
    let before = bytes.get(..offset).unwrap_or(bytes);
    let line = before.iter().filter(|b| **b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |p| p + 1);
    let col = String::from_utf8_lossy(before.get(start..).unwrap_or(&[]))
        .chars()
        .count()
        + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(col).unwrap_or(u32::MAX),
    )
}

/// The 1-based column (in characters) where `got` first differs from
/// `want`.
fn first_difference(got: &str, want: &str) -> u32 {
    let n = got
        .chars()
        .zip(want.chars())
        .take_while(|(a, b)| a == b)
        .count();
    u32::try_from(n + 1).unwrap_or(u32::MAX)
}

fn unsupported_version(header: &str) -> Option<String> {
    let rest = header.strip_prefix("{\"spx_lock\":")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let after = rest.get(digits.len()..)?;
    if !digits.is_empty() && digits != "1" && after == ",\"pins\":[" {
        Some(digits)
    } else {
        None
    }
}

fn parse_pin(object: &str, line: u32) -> Result<Pin, Diagnostic> {
    use crate::json::{Json, OWN_DOCUMENTS};
    let value = Json::read(object, &OWN_DOCUMENTS).map_err(|e| {
        // A pin that ends early is located at its last character.
        let column = if e.offset >= object.len() {
            object.chars().count()
        } else {
            e.line_column(object).1
        };
        malformed(
            "lock.syntax",
            format!("this pin is not valid JSON: {}", e.reason()),
            line,
            u32::try_from(column).unwrap_or(u32::MAX).max(1),
        )
    })?;
    let shape = || {
        malformed(
            "lock.pin",
            "a pin must be an object with exactly the string keys source, root, root_type_revision, digest, in this order",
            line,
            1,
        )
    };
    let Json::Object(obj) = &value else {
        return Err(shape());
    };
    let get = |k: &str| value.get(k).and_then(Json::as_str).map(str::to_owned);
    let pin = Pin {
        source: get("source").ok_or_else(shape)?,
        root: get("root").ok_or_else(shape)?,
        root_type_revision: get("root_type_revision").ok_or_else(shape)?,
        digest: get("digest").ok_or_else(shape)?,
    };
    if obj.len() != 4 {
        return Err(shape());
    }
    let mut canonical = String::new();
    pin.render_into(&mut canonical);
    if canonical != object {
        return Err(malformed(
            "lock.syntax",
            "this pin is not in canonical form (key order, whitespace or escapes differ)",
            line,
            first_difference(object, &canonical),
        ));
    }
    let normal = normalize_source(&pin.source);
    if normal.as_deref() != Ok(pin.source.as_str()) {
        return Err(malformed(
            "lock.source",
            abnormal_source(&pin.source, normal),
            line,
            column_of_value(object, "source"),
        ));
    }
    if pin.root.is_empty() || pin.root.contains('\0') {
        return Err(malformed(
            "lock.root",
            "a root id must be non-empty and contain no NUL",
            line,
            column_of_value(object, "root"),
        ));
    }
    for (key, v) in [
        ("root_type_revision", &pin.root_type_revision),
        ("digest", &pin.digest),
    ] {
        if !is_sha256(v) {
            return Err(malformed(
                "lock.digest",
                format!("{key} must be `sha256:` followed by 64 lowercase hex digits"),
                line,
                column_of_value(object, key),
            ));
        }
    }
    Ok(pin)
}

fn column_of_value(object: &str, key: &str) -> u32 {
    let needle = format!("\"{key}\":");
    match object.find(&needle) {
        Some(i) => u32::try_from(object[..i + needle.len()].chars().count() + 1).unwrap_or(1),
        None => 1,
    }
}

/// True for `sha256:` followed by 64 lowercase hex digits.
pub fn is_sha256(s: &str) -> bool {
    s.strip_prefix("sha256:").is_some_and(|h| {
        h.len() == 64
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin(source: &str, root: &str) -> Pin {
        Pin {
            source: source.into(),
            root: root.into(),
            root_type_revision: format!("sha256:{}", "a".repeat(64)),
            digest: format!("sha256:{}", "b".repeat(64)),
        }
    }

    #[test]
    fn round_trip_sorted() {
        let lock = Lock {
            pins: vec![pin("b.spx", "x"), pin("a.spx", "y"), pin("a.spx", "x")],
        };
        let text = lock.render();
        let back = Lock::parse(text.as_bytes()).unwrap();
        assert_eq!(back.pins[0].source, "a.spx");
        assert_eq!(back.pins[0].root, "x");
        assert_eq!(back.render(), text);
    }

    #[test]
    fn empty_lock() {
        let text = Lock::default().render();
        assert_eq!(text, "{\"spx_lock\":1,\"pins\":[\n]}\n");
        assert!(Lock::parse(text.as_bytes()).unwrap().pins.is_empty());
    }

    #[test]
    fn find_normalises_the_source() {
        let lock = Lock {
            pins: vec![pin("agents/p.spx", "x")],
        };
        for spelling in [
            "agents/p.spx",
            "./agents/p.spx",
            "agents//p.spx",
            "q/../agents/p.spx",
        ] {
            assert_eq!(lock.find(spelling, "x"), Some(&lock.pins[0]), "{spelling}");
        }
        assert_eq!(lock.find("agents/p.spx", "y"), None);
        assert_eq!(lock.find("../agents/p.spx", "x"), None);
        assert_eq!(lock.find("/agents/p.spx", "x"), None);
    }
}
