//! `spx check`: the types, fields and cases of the module (or of every
//! module of a project's `semaprax.toml`) with their stable ids (warnings,
//! and with `--verbose` the notes on what the reader skipped, to stderr),
//! then the roots that the enclosing package's `[package.metadata.spx]`
//! lists for this source, each derived: one that does not derive fails the
//! check.

use crate::input::{is_stdin, source_set};
use crate::output::{q, CmdResult, Ctx, Failure, Output};
use spx_schema::diag::Severity;
use spx_schema::lock::{self, RootsFrom};
use spx_schema::source::{DeclKind, FieldDecl, Module};
use spx_schema::Diagnostic;
use std::path::{Path, PathBuf};

pub fn run(ctx: &mut Ctx, source: &Path, verbose: bool) -> CmdResult {
    let set = source_set(ctx, source)?;
    set.recheck()?;
    let w = set.workspace();
    let mut warnings: Vec<Diagnostic> = w.warnings().cloned().collect();
    if verbose {
        warnings.extend(w.all_notes().cloned());
    }
    let roots = metadata_roots(ctx, source, &mut warnings)?;
    let stdout = if ctx.json() {
        json_listing(&w.modules, &roots)
    } else {
        listing(&w.modules, &roots)
    };
    Ok(Output {
        stdout: stdout.into_bytes(),
        warnings,
    })
}

/// A root of the package's metadata, derived: its source (package
/// relative), id and digest.
struct Root {
    source: String,
    root: String,
    digest: String,
}

/// The package of `source`: the directory of the nearest `Cargo.toml`
/// above it, and `source` relative to it in normal form.
fn package_of(source: &Path) -> Option<(PathBuf, String)> {
    let abs = std::fs::canonicalize(source).ok()?;
    let manifest = spx_build::pin::find_manifest(abs.parent()?)?;
    let dir = manifest.parent()?.to_path_buf();
    let rel = abs.strip_prefix(&dir).ok()?;
    let rel = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    Some((dir, lock::normalize_source(&rel).ok()?))
}

/// Derives the roots `[package.metadata.spx]` lists for `source`. A
/// metadata that cannot be read is a warning (the listing still stands);
/// a root that does not derive fails the check.
fn metadata_roots(
    ctx: &mut Ctx,
    source: &Path,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<Root>, Failure> {
    if is_stdin(source) {
        return Ok(Vec::new());
    }
    let Some((dir, rel)) = package_of(source) else {
        return Ok(Vec::new());
    };
    let sources = match spx_build::package_sources(&dir) {
        Ok(Some(s)) => s,
        Ok(None) => return Ok(Vec::new()),
        Err(e) => {
            for d in e.diagnostics() {
                let mut d = d.clone().with_note(
                    "the roots of [package.metadata.spx] for this source are not checked",
                );
                d.severity = Severity::Warning;
                warnings.push(d);
            }
            return Ok(Vec::new());
        }
    };
    // Keep every source (so that notes count them as the metadata does),
    // but only this one's roots.
    let mine: Vec<lock::Source> = sources
        .into_iter()
        .map(|s| {
            let this = lock::normalize_source(&s.path).is_ok_and(|p| p == rel);
            lock::Source {
                roots: if this { s.roots } else { Vec::new() },
                path: s.path,
            }
        })
        .collect();
    let derived = lock::derive_all(&dir, &mine, RootsFrom::Metadata, &mut ctx.sources)?;
    Ok(derived
        .into_iter()
        .map(|d| Root {
            source: d.source,
            root: d.schema.root_type_id().to_owned(),
            digest: d.schema.digest().to_owned(),
        })
        .collect())
}

fn id_text(id: &str, persistent: bool) -> String {
    if persistent {
        format!("@id({})", q(id))
    } else {
        format!("{} (automatic)", q(id))
    }
}

/// The human listing: per module (a project's in manifest order) one line
/// per type, field and case, then one per metadata root.
fn listing(modules: &[Module], roots: &[Root]) -> String {
    let mut out = String::new();
    for m in modules {
        module_listing(&mut out, m);
    }
    for r in roots {
        out.push_str(&format!(
            "root {} derives ({}, listed in [package.metadata.spx])\n",
            q(&r.root),
            r.digest
        ));
    }
    out
}

/// One module's lines of the listing.
fn module_listing(out: &mut String, m: &Module) {
    out.push_str(&format!("module {}\n", m.name));
    for d in m.decls.iter().filter(|d| !d.prelude) {
        let params = if d.params.is_empty() {
            String::new()
        } else {
            format!("<{}>", d.params.join(", "))
        };
        out.push_str(&format!(
            "{} {}{params} {}\n",
            d.kind.keyword(),
            d.name,
            id_text(&d.stable_id, d.persistent)
        ));
        let field_line = |out: &mut String, indent: &str, f: &FieldDecl| {
            out.push_str(&format!(
                "{indent}field {}: {} {}\n",
                f.name,
                f.ty.text(),
                id_text(&f.stable_id, f.persistent)
            ));
        };
        for f in &d.fields {
            field_line(out, "  ", f);
        }
        if d.kind == DeclKind::Variant {
            for c in &d.cases {
                out.push_str(&format!(
                    "  case {} {}\n",
                    c.name,
                    id_text(&c.stable_id, c.persistent)
                ));
                for f in &c.fields {
                    field_line(out, "    ", f);
                }
            }
        }
    }
}

fn json_fields(fields: &[FieldDecl]) -> String {
    let items: Vec<String> = fields
        .iter()
        .map(|f| {
            format!(
                "{{\"name\":{},\"type\":{},\"stable_id\":{},\"persistent\":{}}}",
                q(&f.name),
                q(&f.ty.text()),
                q(&f.stable_id),
                f.persistent
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// The JSON listing and a line feed: `{"module":…,"types":[…],"roots":[…]}`
/// for one module; for a project of several,
/// `{"modules":[{"module":…,"types":[…]},…],"roots":[…]}`.
fn json_listing(modules: &[Module], roots: &[Root]) -> String {
    let roots: Vec<String> = roots
        .iter()
        .map(|r| {
            format!(
                "{{\"source\":{},\"root\":{},\"schema_digest\":{}}}",
                q(&r.source),
                q(&r.root),
                q(&r.digest)
            )
        })
        .collect();
    let roots = roots.join(",");
    match modules {
        [m] => format!("{{{},\"roots\":[{roots}]}}\n", json_module(m)),
        _ => {
            let all: Vec<String> = modules
                .iter()
                .map(|m| format!("{{{}}}", json_module(m)))
                .collect();
            format!("{{\"modules\":[{}],\"roots\":[{roots}]}}\n", all.join(","))
        }
    }
}

/// `"module":…,"types":[…]` of one module.
fn json_module(m: &Module) -> String {
    let types: Vec<String> = m
        .decls
        .iter()
        .filter(|d| !d.prelude)
        .map(|d| {
            let params: Vec<String> = d.params.iter().map(|p| q(p)).collect();
            let cases: Vec<String> = d
                .cases
                .iter()
                .map(|c| {
                    format!(
                        "{{\"name\":{},\"stable_id\":{},\"persistent\":{},\"fields\":{}}}",
                        q(&c.name),
                        q(&c.stable_id),
                        c.persistent,
                        json_fields(&c.fields)
                    )
                })
                .collect();
            format!(
                "{{\"kind\":{},\"name\":{},\"params\":[{}],\"stable_id\":{},\"persistent\":{},\"fields\":{},\"cases\":[{}]}}",
                q(d.kind.keyword()),
                q(&d.name),
                params.join(","),
                q(&d.stable_id),
                d.persistent,
                json_fields(&d.fields),
                cases.join(",")
            )
        })
        .collect();
    format!("\"module\":{},\"types\":[{}]", q(&m.name), types.join(","))
}
