//! Derivation of the type graph from a read module, or from the modules of
//! a project (FORMAT.md §4), with every SPX-Z202 rule in the specified
//! order.
//!
//! In a project, a field typed with a `use type @id("X") from m as A`
//! alias names the declaration with stable id X in the module `m`
//! ([`crate::source::workspace`]). Identities, not files, make the schema:
//! the graph (and so the document) is the one a single module declaring
//! the same types would give.

use crate::diag::Diagnostic;
use crate::graph::{limits, Case, Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
use crate::source::workspace::{self, Workspace};
use crate::source::{Builtin, DeclKind, FieldDecl, Import, Module, Pos, Target, TypeExpr};

/// The help of a field refused because its type is one of today's builtin
/// generics.
pub const CONTAINER_HELP: &str = "bounded lists are not part of Agent Interaction Schema v1: a field a schema carries must be a scalar (bool, i32, i64, u8, usize, string, Bytes) or a named record or variant";

/// The help of a field refused because its type is `u32`.
pub const U32_HELP: &str = "`u32` is not a scalar of Agent Interaction Schema v1 (bool, i32, i64, u8, usize, string, Bytes): use `i64` or `usize`";

mod help;

struct Deriver<'m> {
    modules: &'m [Module],
    /// True when the modules are a project's: aliases resolve.
    project: bool,
    out: Vec<TypeNode>,
    visiting: Vec<String>,
}

/// Where a field refers to a type: its module and position.
#[derive(Clone, Copy)]
struct Site {
    module: usize,
    pos: Pos,
}

/// Derives the graph of `root_type_id` from one module, root last. A
/// `use type` alias stays unresolved (`type.unresolved`). A refusal carries
/// a help saying what to do (`help::explain`).
pub fn derive_graph(module: &Module, root_type_id: &str) -> Result<TypeGraph, Diagnostic> {
    let modules = std::slice::from_ref(module);
    run(modules, false, root_type_id).map_err(|d| help::explain(d, modules, false, root_type_id))
}

/// Derives the graph of `root_type_id` from the modules of `workspace`,
/// root last. The root may be declared in any module; aliases resolve when
/// the workspace is a project. A refusal carries a help, as
/// [`derive_graph`]'s do.
pub fn derive_workspace(
    workspace: &Workspace,
    root_type_id: &str,
) -> Result<TypeGraph, Diagnostic> {
    let project = workspace.manifest.is_some();
    run(&workspace.modules, project, root_type_id)
        .map_err(|d| help::explain(d, &workspace.modules, project, root_type_id))
}

/// The derivation itself (FORMAT.md §4), without helps.
fn run(modules: &[Module], project: bool, root_type_id: &str) -> Result<TypeGraph, Diagnostic> {
    let mut d = Deriver {
        modules,
        project,
        out: Vec::new(),
        visiting: Vec::new(),
    };
    let root = modules
        .iter()
        .enumerate()
        .find_map(|(m, module)| module.decl_by_id(root_type_id).map(|(i, _)| (m, i)));
    d.derive(root_type_id, root, 0, None)?;
    // (beyond) FORMAT.md §4: the 64-type bound is held literally.
    if d.out.len() > limits::MAX_TYPES {
        return Err(Diagnostic::z202("type.max_types"));
    }
    Ok(TypeGraph { types: d.out })
}

/// What a field's named type resolves to: a declaration (module and index),
/// or the diagnostic to give when the derivation reaches it.
type Resolution = Result<Option<(usize, usize)>, Diagnostic>;

impl Deriver<'_> {
    /// A Z202 refusal located at `site` in the source (prelude declarations
    /// and the command line have no position).
    fn refuse(&self, rule: &'static str, site: Option<Site>) -> Diagnostic {
        let d = Diagnostic::z202(rule);
        match site {
            Some(s) if s.pos.line > 0 => match self.modules.get(s.module) {
                Some(m) => d.at(s.pos.location(&m.path)),
                None => d,
            },
            _ => d,
        }
    }

    /// Resolves the alias `import` of module `m` (a field at `site`).
    fn resolve_alias(&self, m: usize, import: Option<&Import>, site: Site) -> Resolution {
        let module = &self.modules[m];
        let Some(import) = import else {
            return Ok(None);
        };
        if !self.project {
            return Err(self.refuse("type.unresolved", Some(site)).with_help(format!(
                "`{}` is imported with `use type` (id {}) from module `{}`, which a single file cannot read: name the project's `semaprax.toml` (which lists that module) instead of `{}`, or declare the type in this module",
                import.alias,
                crate::quote::quote(&import.stable_id),
                import.from,
                module.path
            )));
        }
        let Some((t, target)) = workspace::module_named(self.modules, &import.from) else {
            return Err(workspace::unknown_module(module, import, self.modules));
        };
        match target.decl_by_id(&import.stable_id) {
            Some((i, _)) => Ok(Some((t, i))),
            None => Err(workspace::unknown_id(module, import, target)),
        }
    }

    /// Derives one type id (declared at `decl`, module and index, when it
    /// resolved); returns its index in the output list. `site` is the field
    /// that refers to the type (`None` for the root).
    fn derive(
        &mut self,
        id: &str,
        decl: Option<(usize, usize)>,
        depth: usize,
        site: Option<Site>,
    ) -> Result<usize, Diagnostic> {
        if let Some(i) = self.out.iter().position(|t| t.stable_id == id) {
            return Ok(i);
        }
        if self.visiting.iter().any(|v| v == id) {
            return Err(self.refuse("type.recursive", site));
        }
        if depth > limits::MAX_DEPTH {
            return Err(self.refuse("type.max_depth", site));
        }
        if self.out.len() >= limits::MAX_TYPES {
            return Err(self.refuse("type.max_types", site));
        }
        let modules = self.modules;
        let Some((m, decl)) = decl.and_then(|(m, i)| Some((m, modules.get(m)?.decls.get(i)?)))
        else {
            return Err(self.refuse("type.unresolved", site));
        };
        let here = Some(Site {
            module: m,
            pos: decl.pos,
        });
        if !decl.params.is_empty() {
            return Err(self.refuse("type.generic", here));
        }
        if !decl.persistent {
            return Err(self.refuse("type.identity_origin", here));
        }
        self.visiting.push(id.to_owned());
        let kind = match decl.kind {
            DeclKind::Record => TypeKind::Record {
                fields: self.fields(m, &decl.fields, depth)?,
            },
            DeclKind::Variant => {
                if decl.cases.is_empty() {
                    return Err(self.refuse("type.cases", here));
                }
                let mut cases = Vec::with_capacity(decl.cases.len());
                for c in &decl.cases {
                    if !c.persistent {
                        return Err(self.refuse(
                            "type.case.identity_origin",
                            Some(Site {
                                module: m,
                                pos: c.pos,
                            }),
                        ));
                    }
                    cases.push(Case {
                        stable_id: c.stable_id.clone(),
                        name: c.name.clone(),
                        fields: self.fields(m, &c.fields, depth)?,
                    });
                }
                TypeKind::Variant { cases }
            }
            DeclKind::Resource | DeclKind::Class => return Err(self.refuse("type.kind", here)),
        };
        self.visiting.pop();
        self.out.push(TypeNode {
            stable_id: decl.stable_id.clone(),
            name: decl.name.clone(),
            kind,
        });
        Ok(self.out.len() - 1)
    }

    /// The fields of a declaration of module `m`.
    fn fields(
        &mut self,
        m: usize,
        fields: &[FieldDecl],
        depth: usize,
    ) -> Result<Vec<Field>, Diagnostic> {
        let modules = self.modules;
        let module = &modules[m];
        let mut out = Vec::with_capacity(fields.len());
        for f in fields {
            let site = Site {
                module: m,
                pos: f.pos,
            };
            if !f.persistent {
                return Err(self.refuse("type.field.identity_origin", Some(site)));
            }
            let unsupported = |d: &Self, help: Option<&str>| {
                let r = d.refuse("type.field.unsupported", Some(site));
                match help {
                    Some(h) => r.with_help(h),
                    None => r,
                }
            };
            let ty = match &f.ty {
                TypeExpr::Builtin(b) => FieldType::Scalar(match b {
                    Builtin::Bool => Repr::Bool,
                    Builtin::I32 => Repr::I32,
                    Builtin::I64 => Repr::I64,
                    Builtin::U8 => Repr::U8,
                    Builtin::Usize => Repr::U64,
                    Builtin::String => Repr::String,
                    Builtin::Bytes => Repr::Bytes,
                    Builtin::U32 => return Err(unsupported(self, Some(U32_HELP))),
                    Builtin::Char | Builtin::F32 | Builtin::F64 | Builtin::Str => {
                        return Err(unsupported(self, None))
                    }
                }),
                TypeExpr::Named {
                    target: Target::Param,
                    ..
                } => return Err(unsupported(self, None)),
                TypeExpr::Named { args, .. } if !args.is_empty() => {
                    return Err(self.refuse("type.field.generic_argument", Some(site)))
                }
                TypeExpr::Named {
                    target: Target::Decl(i),
                    ..
                } => {
                    // A hand-built Module may carry an index that names no
                    // declaration: refuse it instead of panicking.
                    let Some(target) = module.decls.get(*i) else {
                        return Err(self.refuse("type.unresolved", Some(site)));
                    };
                    let id = target.stable_id.clone();
                    FieldType::Nested(self.derive(&id, Some((m, *i)), depth + 1, Some(site))?)
                }
                TypeExpr::Named {
                    name,
                    target: Target::Alias { stable_id },
                    ..
                } => {
                    // Steps 1 to 4 come before resolution (step 5).
                    let decl = if self.out.iter().any(|t| &t.stable_id == stable_id)
                        || self.visiting.iter().any(|v| v == stable_id)
                        || depth + 1 > limits::MAX_DEPTH
                        || self.out.len() >= limits::MAX_TYPES
                    {
                        None
                    } else {
                        self.resolve_alias(m, module.import(name), site)?
                    };
                    FieldType::Nested(self.derive(stable_id, decl, depth + 1, Some(site))?)
                }
                TypeExpr::Container { .. } => return Err(unsupported(self, Some(CONTAINER_HELP))),
                TypeExpr::Array { .. } | TypeExpr::Slice(_) | TypeExpr::Fn { .. } => {
                    return Err(unsupported(self, None))
                }
            };
            out.push(Field {
                stable_id: f.stable_id.clone(),
                name: f.name.clone(),
                ty,
            });
        }
        Ok(out)
    }
}
