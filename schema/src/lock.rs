//! `spx.lock`: the committed pins of every derived root, and the pinned
//! schema documents kept beside it in `spx.lock.d/`.
//!
//! The lock is deterministic text (JSON, one pin per line, pins sorted by
//! source then root, one LF at the end):
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
//! merge conflict or a hand edit can never be read as something else.
//!
//! The pinned document of root `r` is kept as
//! `spx.lock.d/<pin_file_stem(r)>.schema.json` (see [`pin_file_stem`]), so
//! that drift can be explained structurally ([`crate::diff`]).

use crate::diag::{Code, Diagnostic, Location};
use crate::quote::quote_into;
use crate::schema::Schema;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The lock file's name, at the package root.
pub const LOCK_FILE: &str = "spx.lock";
/// The directory of pinned schema documents, beside the lock.
pub const PIN_DIR: &str = "spx.lock.d";
/// The lock format version this crate reads and writes.
pub const LOCK_VERSION: u32 = 1;

/// A derived schema no longer has the digest pinned for its root
/// (rule `lock.drift`); the detail is [`crate::diff::drift_message`].
pub const LOCK_DRIFT: Code = Code("SPX-L003");
/// A root has no pin (or there is no `spx.lock`) where nothing may be
/// written: under `CI` or in check mode (rule `lock.unpinned`), or a pin
/// names a root that is no longer configured (rule `lock.stale`).
pub const LOCK_UNPINNED: Code = Code("SPX-L004");
/// In check mode, a pinned document in `spx.lock.d/` is missing or is not
/// the document of its pin (rule `lock.pinned_document`).
pub const LOCK_PINNED_DOCUMENT: Code = Code("SPX-L005");
/// A malformed lock (syntax, order, duplicate, bad digest or path).
pub const LOCK_MALFORMED: Code = Code("SPX-L001");
/// The lock, a pinned document or their directory could not be read or
/// written.
pub const LOCK_IO: Code = Code("SPX-L002");

const HEADER: &str = "{\"spx_lock\":1,\"pins\":[";
const FOOTER: &str = "]}";

/// One pinned root.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pin {
    /// The source path, relative to the package root, `/`-separated.
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
    /// Reads `<package_dir>/spx.lock`. `Ok(None)` when the file is absent.
    pub fn read(package_dir: &Path) -> Result<Option<Lock>, Diagnostic> {
        let path = package_dir.join(LOCK_FILE);
        match std::fs::read(&path) {
            Ok(bytes) => Lock::parse(&bytes).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_error(LOCK_FILE, "read", &e)),
        }
    }

    /// The pin of `root` derived from `source`, if any.
    pub fn find(&self, source: &str, root: &str) -> Option<&Pin> {
        self.pins
            .iter()
            .find(|p| p.source == source && p.root == root)
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

    /// Writes `<package_dir>/spx.lock` atomically (temporary file in the
    /// same directory, then rename). Writes nothing when the file already
    /// holds exactly these bytes. Returns true when it wrote.
    pub fn write(&self, package_dir: &Path) -> Result<bool, Diagnostic> {
        write_atomic(&package_dir.join(LOCK_FILE), self.render().as_bytes())
            .map_err(|e| io_error(LOCK_FILE, "write", &e))
    }
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

fn malformed(rule: &'static str, message: impl Into<String>, line: u32, column: u32) -> Diagnostic {
    Diagnostic::error(LOCK_MALFORMED, rule, message)
        .at(Location::Source {
            path: LOCK_FILE.to_owned(),
            line,
            column,
            span: None,
        })
        .with_detail(
            "spx.lock is generated: re-create it with `SPX_UPDATE_PINS=1 cargo build` or `spx pin` instead of editing it",
        )
}

fn io_error(path: &str, what: &str, e: &std::io::Error) -> Diagnostic {
    Diagnostic::error(LOCK_IO, "lock.io", format!("cannot {what} `{path}`: {e}")).at(
        Location::File {
            path: path.to_owned(),
        },
    )
}

fn parse_pin(object: &str, line: u32) -> Result<Pin, Diagnostic> {
    use serde_json::Value as J;
    let value: J = serde_json::from_str(object).map_err(|e| {
        malformed(
            "lock.syntax",
            format!("this pin is not valid JSON: {}", strip_position(&e)),
            line,
            u32::try_from(e.column()).unwrap_or(u32::MAX).max(1),
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
    let obj = value.as_object().ok_or_else(shape)?;
    let get = |k: &str| obj.get(k).and_then(J::as_str).map(str::to_owned);
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
    if let Some(why) = source_problem(&pin.source) {
        return Err(malformed(
            "lock.source",
            format!("source path {} {why}", crate::quote::quote(&pin.source)),
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

fn strip_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.find(" at line ") {
        Some(i) => s[..i].to_owned(),
        None => s,
    }
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

/// Why `source` is not a package-relative `/`-separated path, if it is not.
pub fn source_problem(source: &str) -> Option<&'static str> {
    if source.is_empty() {
        return Some("is empty");
    }
    if source.starts_with('/') || source.contains(':') {
        return Some("must be relative to the package root");
    }
    if source.contains('\\') {
        return Some("must use `/` as separator");
    }
    if source.chars().any(char::is_control) {
        return Some("contains a control character");
    }
    if source
        .split('/')
        .any(|c| c.is_empty() || c == "." || c == "..")
    {
        return Some("must not contain empty, `.` or `..` components");
    }
    None
}

/// The file-name stem of the pinned document of `root`: bytes `a-z 0-9 . _ -`
/// are kept, every other UTF-8 byte (upper-case letters included, so that
/// two roots never collide on a case-insensitive file system) is written
/// as `%` and two upper-case hex digits. A leading `.` is escaped too, so no
/// pinned document is a hidden file.
pub fn pin_file_stem(root: &str) -> String {
    let mut out = String::with_capacity(root.len());
    for (i, b) in root.bytes().enumerate() {
        let keep = b.is_ascii_lowercase()
            || b.is_ascii_digit()
            || b == b'_'
            || b == b'-'
            || (b == b'.' && i > 0);
        if keep {
            out.push(b as char);
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 0xf) as usize] as char);
        }
    }
    out
}

/// The package-relative path of the pinned document of `root`
/// (`spx.lock.d/<stem>.schema.json`), `/`-separated.
pub fn pinned_schema_relative(root: &str) -> String {
    format!("{PIN_DIR}/{}.schema.json", pin_file_stem(root))
}

/// The path of the pinned document of `root` under `package_dir`.
pub fn pinned_schema_path(package_dir: &Path, root: &str) -> PathBuf {
    package_dir
        .join(PIN_DIR)
        .join(format!("{}.schema.json", pin_file_stem(root)))
}

/// The pinned document of `root` kept in `spx.lock.d/`, read back with
/// [`Schema::parse_document`]. `None` when it is absent, unreadable or not
/// a canonical schema document of that root.
pub fn read_pinned_schema(package_dir: &Path, root: &str) -> Option<Schema> {
    let bytes = std::fs::read(pinned_schema_path(package_dir, root)).ok()?;
    let schema = Schema::parse_document(&bytes).ok()?;
    (schema.root_type_id() == root).then_some(schema)
}

/// Writes the pinned document of `schema` atomically into
/// `<package_dir>/spx.lock.d/`, creating the directory. Writes nothing when
/// the bytes are unchanged; returns true when it wrote.
pub fn write_pinned_schema(package_dir: &Path, schema: &Schema) -> Result<bool, Diagnostic> {
    let rel = pinned_schema_relative(schema.root_type_id());
    let dir = package_dir.join(PIN_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| io_error(PIN_DIR, "create", &e))?;
    write_atomic(
        &pinned_schema_path(package_dir, schema.root_type_id()),
        schema.document().as_bytes(),
    )
    .map_err(|e| io_error(&rel, "write", &e))
}

/// Removes the pinned document of `root`, if present. Returns true when it
/// removed one.
pub fn remove_pinned_schema(package_dir: &Path, root: &str) -> Result<bool, Diagnostic> {
    match std::fs::remove_file(pinned_schema_path(package_dir, root)) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io_error(&pinned_schema_relative(root), "remove", &e)),
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory is written, flushed and renamed over `path`, so a reader sees
/// either the old or the new bytes, never a partial file. Writes nothing
/// (and returns false) when `path` already holds exactly `bytes`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    if let Ok(existing) = std::fs::read(path) {
        if existing == bytes {
            return Ok(false);
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.tmp.{}.{n}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(true)
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
    fn stems() {
        assert_eq!(pin_file_stem("planner.proposal"), "planner.proposal");
        assert_eq!(pin_file_stem("A/b c"), "%41%2Fb%20c");
        assert_eq!(pin_file_stem(".x"), "%2Ex");
        assert_eq!(pin_file_stem("é"), "%C3%A9");
    }
}
