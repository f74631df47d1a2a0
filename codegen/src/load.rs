//! Stage 2: read the `.spx` once, derive every root, check every pin.

use super::emit::RootExtras;
use super::input::MacroInput;
use spx_schema::binding::Snapshot;
use spx_schema::diag::{Code, Diagnostic, Location};
use spx_schema::lock::{self, Lock};
use spx_schema::source::{Module, Pos};
use spx_schema::Schema;
use std::path::{Path, PathBuf};

/// A display name cannot become a Rust identifier, or two collide
/// (rule `macro.name`).
pub const NAME: Code = Code("SPX-M001");
/// The `source` path is absolute, or `CARGO_MANIFEST_DIR` is unknown
/// (rule `macro.source_path`).
pub const SOURCE_PATH: Code = Code("SPX-M002");
/// The engine cannot read back a document it rendered (rule
/// `macro.internal`); a bug, never the user's mistake.
pub const INTERNAL: Code = Code("SPX-M003");

/// What stage 2 produced.
pub struct Loaded {
    /// The module, when it was read.
    pub module: Option<Module>,
    /// Every root's schema, when every root derived (even if a pin is
    /// wrong, so that the items can still be generated).
    pub roots: Option<Vec<(Schema, RootExtras)>>,
    /// The files read, absolute, for `include_bytes!`.
    pub dependencies: Vec<PathBuf>,
    /// Every error, on the argument it concerns.
    pub errors: Vec<syn::Error>,
}

/// `path:line:col: error[CODE]: message (rule `r`)`, then the detail and
/// `note` lines. `path` is the source as the user wrote it, for diagnostics
/// that carry no location of their own.
pub fn render(d: &Diagnostic, path: &str, note: Option<&str>) -> String {
    let mut s = match &d.location {
        Location::Source {
            path, line, column, ..
        } => format!("{path}:{line}:{column}: "),
        Location::File { path } => format!("{path}: "),
        Location::None | Location::Pointer(_) => format!("{path}: "),
    };
    s.push_str(&format!("error[{}]: {}", d.code, d.message));
    if !d.message.ends_with(d.rule) {
        s.push_str(&format!(" (rule `{}`)", d.rule));
    }
    if let Some(detail) = &d.detail {
        for line in detail.lines() {
            s.push_str("\n  = ");
            s.push_str(line);
        }
    }
    if let Some(n) = note {
        s.push_str("\n  = note: ");
        s.push_str(n);
    }
    s
}

fn is_absolute(s: &str) -> bool {
    let b = s.as_bytes();
    Path::new(s).is_absolute()
        || s.starts_with('/')
        || s.starts_with('\\')
        || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
}

/// Runs stage 2.
pub fn load(input: &MacroInput, manifest_dir: Option<&Path>) -> Loaded {
    let mut out = Loaded {
        module: None,
        roots: None,
        dependencies: Vec::new(),
        errors: input.errors.clone(),
    };
    if !input.saw_root {
        out.errors.push(syn::Error::new(
            input.span,
            "missing key `root`: the stable id of at least one root type",
        ));
    }
    let Some(src) = &input.source else {
        if !input.saw_source {
            out.errors.push(syn::Error::new(
                input.span,
                "missing key `source`: the `.spx` file to read, relative to CARGO_MANIFEST_DIR",
            ));
        }
        return out;
    };
    // A mistake in the arguments may be a misplaced or malformed digest:
    // do not also report the root as unpinned.
    let check_pins = input.errors.is_empty();
    let display = src.value();
    let err = |text: String| syn::Error::new(src.span(), text);
    if is_absolute(&display) {
        out.errors.push(err(format!(
            "{display}: error[{SOURCE_PATH}]: the source path must be relative to CARGO_MANIFEST_DIR (rule `macro.source_path`)"
        )));
        return out;
    }
    let Some(dir) = manifest_dir else {
        out.errors.push(err(format!(
            "{display}: error[{SOURCE_PATH}]: CARGO_MANIFEST_DIR is not set, so `{display}` cannot be found (rule `macro.source_path`)"
        )));
        return out;
    };
    let path = dir.join(&display);
    let snap = match Snapshot::take(&path, &display) {
        Ok(s) => s,
        Err(d) => {
            out.errors.push(err(render(
                &d,
                &display,
                Some("the path is relative to the calling crate's CARGO_MANIFEST_DIR"),
            )));
            return out;
        }
    };
    out.dependencies.push(path);
    let module = match snap.read_module() {
        Ok(m) => m,
        Err(diags) => {
            for d in diags.iter().filter(|d| d.is_error()) {
                out.errors.push(err(render(d, &display, None)));
            }
            return out;
        }
    };

    // Pins from spx.lock, read once and only when a root needs them.
    let mut lock: Option<Option<Lock>> = None;
    let mut all_derived = true;
    let mut roots = Vec::with_capacity(input.roots.len());
    for r in &input.roots {
        let root = r.root.value();
        let schema = match Schema::derive(&module, &root) {
            Ok(s) => s,
            Err(d) => {
                all_derived = false;
                out.errors.push(syn::Error::new(
                    r.root.span(),
                    render(&d, &display, Some(&format!("while deriving root `{root}`"))),
                ));
                continue;
            }
        };
        if let Err(d) = Schema::parse_document(schema.document().as_bytes()) {
            out.errors.push(syn::Error::new(
                r.root.span(),
                format!(
                    "{display}: error[{INTERNAL}]: the engine cannot read back the schema of `{root}`: {d} (rule `macro.internal`)"
                ),
            ));
        }
        // The pin.
        let (pinned, hint, span) = match &r.digest {
            Some(lit) => (
                Some(lit.value()),
                format!(
                    "to accept the derived schema, pin it in the macro: digest: \"{}\"",
                    schema.digest()
                ),
                lit.span(),
            ),
            None => {
                if lock.is_none() {
                    let read = Lock::read(dir);
                    if dir.join(lock::LOCK_FILE).is_file() {
                        out.dependencies.push(dir.join(lock::LOCK_FILE));
                    }
                    lock = Some(match read {
                        Ok(l) => l,
                        Err(d) => {
                            out.errors.push(syn::Error::new(
                                r.root.span(),
                                render(
                                    &d,
                                    lock::LOCK_FILE,
                                    Some("while looking up the pin of this root"),
                                ),
                            ));
                            None
                        }
                    });
                }
                let pin = lock
                    .as_ref()
                    .and_then(Option::as_ref)
                    .and_then(|l| l.find(&display, &root))
                    .map(|p| p.digest.clone());
                (
                    pin,
                    "re-pin with `SPX_UPDATE_PINS=1 cargo build` or `spx pin`".to_owned(),
                    r.root.span(),
                )
            }
        };
        match pinned {
            _ if !check_pins => {}
            None => out.errors.push(syn::Error::new(
                span,
                format!(
                    "{display}: error[{}]: root `{root}` has no pin (rule `lock.unpinned`)\n  = derived digest: {}\n  = pin it here with `digest: \"{}\",` after the root, or in spx.lock with `SPX_UPDATE_PINS=1 cargo build` or `spx pin`",
                    lock::LOCK_UNPINNED,
                    schema.digest(),
                    schema.digest()
                ),
            )),
            Some(p) if p != schema.digest() => {
                let pinned_doc = lock::read_pinned_schema(dir, &root).filter(|s| s.digest() == p);
                let msg = spx_schema::diff::drift_message(&root, &p, pinned_doc.as_ref(), &schema, &hint);
                let mut text = format!(
                    "{display}: error[{}]: the schema of root `{root}` no longer has its pinned digest (rule `lock.drift`)",
                    lock::LOCK_DRIFT
                );
                for line in msg.lines() {
                    text.push_str("\n  = ");
                    text.push_str(line);
                }
                out.errors.push(syn::Error::new(span, text));
            }
            Some(_) => {}
        }
        let provider_json_schema = spx_schema::project::draft2020(&schema);
        roots.push((
            schema,
            RootExtras {
                provider_json_schema,
            },
        ));
    }
    if let Err(d) = snap.recheck() {
        out.errors.push(err(render(&d, &display, None)));
        all_derived = false;
    }
    if all_derived && !roots.is_empty() {
        out.roots = Some(roots);
    }
    out.module = Some(module);
    out
}

/// Where the declaration, field or case with this stable id is named.
pub fn position_of(module: &Module, stable_id: &str) -> Option<Pos> {
    for d in &module.decls {
        if d.stable_id == stable_id {
            return Some(d.pos);
        }
        for f in &d.fields {
            if f.stable_id == stable_id {
                return Some(f.pos);
            }
        }
        for c in &d.cases {
            if c.stable_id == stable_id {
                return Some(c.pos);
            }
            for f in &c.fields {
                if f.stable_id == stable_id {
                    return Some(f.pos);
                }
            }
        }
    }
    None
}
