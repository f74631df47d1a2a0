//! `spx pin`: re-pin `spx.lock` (re-creating a malformed one), or check
//! it, for one package or every member of a workspace.

use crate::output::{q, CmdResult, Ctx, Failure, Output};
use spx_build::pin::{MemberPins, PinChange, PinReport};
use spx_schema::binding::SOURCE_UNREADABLE;
use spx_schema::diag::Sources;
use spx_schema::{Diagnostic, Location};
use std::path::{Path, PathBuf};

pub struct Args<'a> {
    pub check: bool,
    pub package: Option<&'a Path>,
    pub manifest_path: Option<&'a Path>,
    pub workspace: bool,
}

/// The `Cargo.toml` to work on: `--manifest-path`, `--package DIR`, or the
/// nearest one in the current folder or a parent.
fn manifest(args: &Args<'_>) -> Result<PathBuf, Failure> {
    if let Some(m) = args.manifest_path {
        return Ok(m.to_path_buf());
    }
    if let Some(dir) = args.package {
        return Ok(dir.join("Cargo.toml"));
    }
    let here = std::env::current_dir().map_err(|e| {
        Failure::from(Diagnostic::error(
            SOURCE_UNREADABLE,
            "source.unreadable",
            format!("cannot read the current directory: {e}"),
        ))
    })?;
    spx_build::pin::find_manifest(&here).ok_or_else(|| {
        Failure::from(
            Diagnostic::error(
                SOURCE_UNREADABLE,
                "source.unreadable",
                format!(
                    "could not find `Cargo.toml` in `{}` or any parent directory",
                    here.display()
                ),
            )
            .with_help("run `spx pin` inside a package, or give `--manifest-path PATH`"),
        )
    })
}

fn failure(e: spx_build::Error, ctx: &mut Ctx, package: Option<&str>) -> Failure {
    ctx.sources.extend(e.sources());
    let ds = e
        .diagnostics()
        .iter()
        .map(|d| match package {
            Some(p) => d.clone().with_note(format!("in package {}", q(p))),
            None => d.clone(),
        })
        .collect::<Vec<_>>();
    Failure::from(ds)
}

pub fn run(ctx: &mut Ctx, args: &Args<'_>) -> CmdResult {
    let manifest = manifest(args)?;
    if args.workspace {
        let members = spx_build::pin::run_workspace(&manifest, args.check)
            .map_err(|e| failure(e, ctx, None))?;
        return workspace(ctx, args, members);
    }
    if !spx_build::pin::is_package(&manifest).map_err(|e| failure(e, ctx, None))? {
        return Err(Failure::from(
            Diagnostic::error(
                spx_build::BUILD_METADATA,
                "build.metadata",
                format!(
                    "`{}` is a virtual workspace manifest, not a package",
                    manifest.display()
                ),
            )
            .at(Location::File {
                path: manifest.display().to_string(),
            })
            .with_help("pin every member with `spx pin --workspace`, or one with `--manifest-path <member>/Cargo.toml`"),
        ));
    }
    let dir = manifest
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let report = spx_build::pin::run(dir, args.check).map_err(|e| failure(e, ctx, None))?;
    let stdout = if ctx.json() {
        format!("{}\n", json_report(&report, args.check))
    } else if ctx.quiet {
        String::new()
    } else {
        listing(&report, None, args.check)
    };
    Ok(Output {
        stdout: stdout.into_bytes(),
        warnings: report.warnings,
    })
}

fn workspace(ctx: &mut Ctx, args: &Args<'_>, members: Vec<MemberPins>) -> CmdResult {
    let mut stdout = String::new();
    let mut warnings = Vec::new();
    let mut errors = Vec::new();
    let mut texts = Sources::new();
    let mut json = Vec::new();
    for m in members {
        match m.result {
            Ok(report) => {
                if ctx.json() {
                    json.push(format!(
                        "{{\"package\":{},\"path\":{},\"report\":{}}}",
                        q(&m.name),
                        q(&m.dir.display().to_string()),
                        json_report(&report, args.check)
                    ));
                } else if !ctx.quiet {
                    stdout.push_str(&listing(&report, Some(&m.name), false));
                }
                warnings.extend(report.warnings);
            }
            Err(e) => {
                texts.extend(e.sources());
                errors.extend(
                    e.diagnostics()
                        .iter()
                        .map(|d| d.clone().with_note(format!("in package {}", q(&m.name)))),
                );
            }
        }
    }
    ctx.sources.extend(&texts);
    if !errors.is_empty() {
        return Err(Failure::from(errors));
    }
    if ctx.json() {
        stdout = format!("{{\"packages\":[{}]}}\n", json.join(","));
    } else if args.check && !ctx.quiet {
        stdout.push_str("pins are current\n");
    }
    Ok(Output {
        stdout: stdout.into_bytes(),
        warnings,
    })
}

/// One line per pin: the source and the root quoted as JSON strings (no
/// character of an id reaches the terminal raw), the digest and what
/// happened; `package` (quoted) first in a workspace listing.
fn listing(report: &PinReport, package: Option<&str>, check: bool) -> String {
    let mut out = String::new();
    for e in &report.entries {
        let what = match &e.change {
            PinChange::Unchanged => "unchanged".to_owned(),
            PinChange::Created => "created".to_owned(),
            PinChange::Updated { from } => format!("updated (was {from})"),
            PinChange::Removed => "removed".to_owned(),
        };
        if let Some(p) = package {
            out.push_str(&q(p));
            out.push(' ');
        }
        out.push_str(&format!(
            "{} {} {} {what}\n",
            q(&e.source),
            q(&e.root),
            e.digest
        ));
    }
    if check {
        out.push_str("pins are current\n");
    }
    out
}

/// `{"check":…,"wrote":…,"pins":[{"source":…,"root":…,"digest":…,"change":…,"from":…}]}`
fn json_report(report: &PinReport, check: bool) -> String {
    let pins: Vec<String> = report
        .entries
        .iter()
        .map(|e| {
            let (change, from) = match &e.change {
                PinChange::Unchanged => ("unchanged", None),
                PinChange::Created => ("created", None),
                PinChange::Updated { from } => ("updated", Some(from)),
                PinChange::Removed => ("removed", None),
            };
            let from = from.map_or(String::new(), |f| format!(",\"from\":{}", q(f)));
            format!(
                "{{\"source\":{},\"root\":{},\"digest\":{},\"change\":{}{from}}}",
                q(&e.source),
                q(&e.root),
                q(&e.digest),
                q(change)
            )
        })
        .collect();
    format!(
        "{{\"check\":{check},\"wrote\":{},\"pins\":[{}]}}",
        report.wrote,
        pins.join(",")
    )
}
