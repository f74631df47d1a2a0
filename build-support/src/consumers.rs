//! The TypeScript and Python consumer modules ([`crate::Config::consumers_dir`]):
//! one module per source, holding all of its roots, written only when
//! their bytes change.

use crate::{Error, BUILD_OUTPUT};
use spx_schema::diag::{Diagnostic, Location};
use spx_schema::lock::{write_atomic, Derived};
use spx_schema::Schema;
use std::path::{Path, PathBuf};

/// The module name of a source: its file stem with every character other
/// than an ASCII letter, digit or `_` replaced by `_` (and a leading `_`
/// before a digit), so that it is a valid Python module name.
pub(crate) fn module_stem(source: &str) -> String {
    let file = source.rsplit('/').next().unwrap_or(source);
    let stem = file.strip_suffix(".spx").unwrap_or(file);
    let mut out: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// Generates `<dir>/<stem>.ts` and `<dir>/<stem>.py` for every source of
/// `derived` (its roots in configured order). With `check_only` (a run
/// that may not write, such as under `CI`), nothing is written and a file
/// whose bytes differ is refused. Returns the paths.
pub(crate) fn write(
    dir: &Path,
    derived: &[Derived],
    check_only: bool,
) -> Result<Vec<PathBuf>, Error> {
    let mut sources: Vec<(&str, Vec<Schema>)> = Vec::new();
    for d in derived {
        match sources.iter_mut().find(|(s, _)| *s == d.source) {
            Some((_, roots)) => roots.push(d.schema.clone()),
            None => sources.push((&d.source, vec![d.schema.clone()])),
        }
    }
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for (source, schemas) in &sources {
        let stem = module_stem(source);
        for (ext, generated) in [
            ("ts", spx_gen::typescript::generate(schemas)),
            ("py", spx_gen::python::generate(schemas)),
        ] {
            match generated {
                Ok(text) => files.push((dir.join(format!("{stem}.{ext}")), text)),
                Err(errors) => problems.extend(errors.into_iter().map(|e| {
                    Diagnostic::error(spx_gen::names::CONSUMER_NAME, "gen.name", e.message).at(
                        Location::File {
                            path: (*source).to_owned(),
                        },
                    )
                })),
            }
        }
    }
    if !problems.is_empty() {
        return Err(Error::new(problems));
    }
    let mut written = Vec::with_capacity(files.len());
    for (path, text) in files {
        let fail = |why: String| {
            Error::from(
                Diagnostic::error(BUILD_OUTPUT, "build.output", why).at(Location::File {
                    path: path.display().to_string(),
                }),
            )
        };
        if check_only {
            if std::fs::read(&path).ok().as_deref() != Some(text.as_bytes()) {
                return Err(fail(format!(
                    "`{}` is not the current consumer module, and this run may not write it; build once without CI to regenerate it",
                    path.display()
                )));
            }
        } else {
            std::fs::create_dir_all(dir)
                .map_err(|e| fail(format!("cannot write `{}`: {e}", dir.display())))?;
            write_atomic(&path, text.as_bytes())
                .map_err(|e| fail(format!("cannot write `{}`: {e}", path.display())))?;
        }
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::module_stem;

    #[test]
    fn module_stems_are_python_module_names() {
        assert_eq!(module_stem("agents/planner.spx"), "planner");
        assert_eq!(module_stem("my-agent.v2.spx"), "my_agent_v2");
        assert_eq!(module_stem("2fa.spx"), "_2fa");
    }
}
