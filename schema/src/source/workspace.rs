//! Modules read together: one `.spx` file, or the modules of a project
//! that a `semaprax.toml` lists ([`super::manifest`]).
//!
//! In a project, `use type @id("X") from a.b as A` names the declaration
//! with stable id X in the module whose header is `module a.b;`. The
//! project is refused when two sources declare one module (SPX-J004) or
//! two modules declare one persistent stable id (SPX-J003). An import that
//! names a module outside the project (SPX-J001) or an id its module does
//! not declare (SPX-J002) is refused when a derivation reaches it; reading
//! the project only notes it, since real projects import types from their
//! dependencies (`std.*`) and types their compiler generates.
//!
//! Reading files (and snapshotting them) is [`crate::binding`]'s business;
//! this module works on text already read.

use super::codes;
use super::manifest::Manifest;
use super::model::{Import, Module, Pos};
use crate::diag::Diagnostic;
use crate::quote::quote;

/// The modules of one source: a single module, or a project's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Workspace {
    /// The manifest, when the source is a project.
    pub manifest: Option<Manifest>,
    /// The modules, in the manifest's `sources` order.
    pub modules: Vec<Module>,
    /// Notes about the project (`spx check --verbose`): imports that
    /// resolve to nothing in it.
    pub notes: Vec<Diagnostic>,
}

impl Workspace {
    /// One module read from one file: its `use type` aliases stay
    /// unresolved.
    pub fn single(module: Module) -> Workspace {
        Workspace {
            manifest: None,
            modules: vec![module],
            notes: Vec::new(),
        }
    }

    /// The modules of the project `manifest` lists, checked as a project:
    /// every module declared once (SPX-J004) and every persistent stable id
    /// declared by one module only (SPX-J003). Imports that resolve to
    /// nothing become [`Workspace::notes`].
    pub fn project(manifest: Manifest, modules: Vec<Module>) -> Result<Workspace, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        for (k, m) in modules.iter().enumerate() {
            if let Some(first) = modules[..k].iter().find(|f| f.name == m.name) {
                errors.push(
                    Diagnostic::error(
                        codes::DUPLICATE_MODULE,
                        "project.duplicate_module",
                        format!(
                            "module `{}` is declared by two sources of the project (first by `{}`)",
                            m.name, first.path
                        ),
                    )
                    .at(m.name_pos.location(&m.path))
                    .with_help(format!(
                        "each source listed in `{}` must declare its own module: rename this `module` line or remove one source",
                        manifest.path
                    )),
                );
            }
        }
        // Persistent ids, first declaration wins (modules in order).
        let mut seen: std::collections::HashMap<&str, (usize, Pos)> =
            std::collections::HashMap::new();
        for (k, m) in modules.iter().enumerate() {
            for d in m.decls.iter().filter(|d| !d.prelude) {
                for (id, _, pos) in d.ids().filter(|(_, persistent, _)| *persistent) {
                    match seen.get(id) {
                        Some((first, at)) if *first != k => {
                            let f = &modules[*first];
                            errors.push(
                                Diagnostic::error(
                                    codes::PROJECT_DUPLICATE_ID,
                                    "project.duplicate_id",
                                    format!(
                                        "stable id {} is declared by two modules of the project: `{}` here and `{}` at {}:{}:{}",
                                        quote(id),
                                        m.name,
                                        f.name,
                                        f.path,
                                        at.line,
                                        at.column
                                    ),
                                )
                                .at(pos.location(&m.path))
                                .with_help(
                                    "a stable id names one declaration in the whole project: give one of them another `@id`",
                                ),
                            );
                        }
                        Some(_) => {} // within one module: SPX-S102, reported by the reader
                        None => {
                            seen.insert(id, (k, pos));
                        }
                    }
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut notes = Vec::new();
        for m in &modules {
            for import in &m.imports {
                let note = match module_named(&modules, &import.from) {
                    None => unknown_module(m, import, &modules),
                    Some((_, target)) if target.decl_by_id(&import.stable_id).is_none() => {
                        unknown_id(m, import, target)
                    }
                    Some(_) => continue,
                };
                notes.push(Diagnostic {
                    severity: crate::Severity::Note,
                    ..note
                });
            }
        }
        Ok(Workspace {
            manifest: Some(manifest),
            modules,
            notes,
        })
    }

    /// True when the source is a project (aliases resolve).
    pub fn is_project(&self) -> bool {
        self.manifest.is_some()
    }

    /// The module with header `module name;`, with its index.
    pub fn module(&self, name: &str) -> Option<(usize, &Module)> {
        module_named(&self.modules, name)
    }

    /// The module that declares the type, field or case with this stable
    /// id, and where.
    pub fn position_of(&self, stable_id: &str) -> Option<(&Module, Pos)> {
        self.modules
            .iter()
            .find_map(|m| m.position_of(stable_id).map(|p| (m, p)))
    }

    /// Every warning of every module, in order.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.modules.iter().flat_map(|m| m.warnings.iter())
    }

    /// Every note: each module's, then the project's.
    pub fn all_notes(&self) -> impl Iterator<Item = &Diagnostic> {
        self.modules
            .iter()
            .flat_map(|m| m.notes.iter())
            .chain(self.notes.iter())
    }
}

/// The module of `modules` whose header is `module name;`.
pub(crate) fn module_named<'m>(modules: &'m [Module], name: &str) -> Option<(usize, &'m Module)> {
    modules.iter().enumerate().find(|(_, m)| m.name == name)
}

/// SPX-J001: `import` (in `module`) names a module that is not in the
/// project.
pub(crate) fn unknown_module(module: &Module, import: &Import, modules: &[Module]) -> Diagnostic {
    let names: Vec<String> = modules.iter().map(|m| format!("`{}`", m.name)).collect();
    Diagnostic::error(
        codes::UNKNOWN_MODULE,
        "project.unknown_module",
        format!(
            "`{}` is imported from module `{}`, which is not in the project",
            import.alias, import.from
        ),
    )
    .at(import.pos.location(&module.path))
    .with_help(format!(
        "add the source that declares `module {};` to the manifest's `sources`, or correct the module path (the project's modules: {})",
        import.from,
        names.join(", ")
    ))
}

/// SPX-J002: `import` (in `module`) names an id that `target` does not
/// declare.
pub(crate) fn unknown_id(module: &Module, import: &Import, target: &Module) -> Diagnostic {
    let ids: Vec<String> = target
        .decls
        .iter()
        .filter(|d| !d.prelude && d.persistent)
        .map(|d| quote(&d.stable_id))
        .collect();
    let listed = if ids.is_empty() {
        "it declares no type with a persistent id".to_owned()
    } else if ids.len() > 12 {
        format!("its types: {}, …", ids[..12].join(", "))
    } else {
        format!("its types: {}", ids.join(", "))
    };
    Diagnostic::error(
        codes::UNKNOWN_ID,
        "project.unknown_id",
        format!(
            "`{}` is imported as {} from module `{}`, which declares no type with that stable id",
            import.alias,
            quote(&import.stable_id),
            import.from
        ),
    )
    .at(import.pos.location(&module.path))
    .with_help(format!(
        "correct the `@id` of the import ({listed}, in `{}`)",
        target.path
    ))
}
