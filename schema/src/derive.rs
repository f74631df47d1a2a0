//! Derivation of the type graph from a read module (FORMAT.md §4), with
//! every SPX-Z202 rule in the specified order.

use crate::diag::Diagnostic;
use crate::graph::{limits, Case, Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
use crate::source::{Builtin, DeclKind, FieldDecl, Module, Pos, Target, TypeExpr};

mod help;

struct Deriver<'m> {
    module: &'m Module,
    out: Vec<TypeNode>,
    visiting: Vec<String>,
}

/// Derives the graph of `root_type_id`, root last. A refusal carries a
/// help saying what to do (`help::explain`).
pub fn derive_graph(module: &Module, root_type_id: &str) -> Result<TypeGraph, Diagnostic> {
    derive_graph_unexplained(module, root_type_id)
        .map_err(|d| help::explain(d, module, root_type_id))
}

fn derive_graph_unexplained(module: &Module, root_type_id: &str) -> Result<TypeGraph, Diagnostic> {
    let mut d = Deriver {
        module,
        out: Vec::new(),
        visiting: Vec::new(),
    };
    d.derive(root_type_id, 0, true, None)?;
    // (beyond) FORMAT.md §4: the 64-type bound is held literally.
    if d.out.len() > limits::MAX_TYPES {
        return Err(Diagnostic::z202("type.max_types"));
    }
    Ok(TypeGraph { types: d.out })
}

impl Deriver<'_> {
    /// A Z202 refusal located at `pos` in the source (prelude declarations
    /// and the command line have no position).
    fn refuse(&self, rule: &'static str, pos: Option<Pos>) -> Diagnostic {
        let d = Diagnostic::z202(rule);
        match pos {
            Some(p) if p.line > 0 => d.at(p.location(&self.module.path)),
            _ => d,
        }
    }

    /// Derives one type id; returns its index in the output list.
    /// `resolvable` is false for `use type` aliases, which this profile
    /// never resolves (LANGUAGE.md): they fail at step 5. `site` is the
    /// field that refers to the type (`None` for the root).
    fn derive(
        &mut self,
        id: &str,
        depth: usize,
        resolvable: bool,
        site: Option<Pos>,
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
        let module = self.module;
        let decl = match module.decl_by_id(id) {
            Some((_, d)) if resolvable => d,
            _ => return Err(self.refuse("type.unresolved", site)),
        };
        let here = Some(decl.pos);
        if !decl.params.is_empty() {
            return Err(self.refuse("type.generic", here));
        }
        if !decl.persistent {
            return Err(self.refuse("type.identity_origin", here));
        }
        self.visiting.push(id.to_owned());
        let kind = match decl.kind {
            DeclKind::Record => TypeKind::Record {
                fields: self.fields(&decl.fields, depth)?,
            },
            DeclKind::Variant => {
                if decl.cases.is_empty() {
                    return Err(self.refuse("type.cases", here));
                }
                let mut cases = Vec::with_capacity(decl.cases.len());
                for c in &decl.cases {
                    if !c.persistent {
                        return Err(self.refuse("type.case.identity_origin", Some(c.pos)));
                    }
                    cases.push(Case {
                        stable_id: c.stable_id.clone(),
                        name: c.name.clone(),
                        fields: self.fields(&c.fields, depth)?,
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

    fn fields(&mut self, fields: &[FieldDecl], depth: usize) -> Result<Vec<Field>, Diagnostic> {
        let mut out = Vec::with_capacity(fields.len());
        for f in fields {
            let site = Some(f.pos);
            if !f.persistent {
                return Err(self.refuse("type.field.identity_origin", site));
            }
            let ty = match &f.ty {
                TypeExpr::Builtin(b) => FieldType::Scalar(match b {
                    Builtin::Bool => Repr::Bool,
                    Builtin::I32 => Repr::I32,
                    Builtin::I64 => Repr::I64,
                    Builtin::U8 => Repr::U8,
                    Builtin::Usize => Repr::U64,
                    Builtin::String => Repr::String,
                    Builtin::Bytes => Repr::Bytes,
                    Builtin::Char | Builtin::F32 | Builtin::F64 | Builtin::Str => {
                        return Err(self.refuse("type.field.unsupported", site))
                    }
                }),
                TypeExpr::Named {
                    target: Target::Param,
                    ..
                } => return Err(self.refuse("type.field.unsupported", site)),
                TypeExpr::Named { args, .. } if !args.is_empty() => {
                    return Err(self.refuse("type.field.generic_argument", site))
                }
                TypeExpr::Named {
                    target: Target::Decl(i),
                    ..
                } => {
                    // A hand-built Module may carry an index that names no
                    // declaration: refuse it instead of panicking.
                    let Some(target) = self.module.decls.get(*i) else {
                        return Err(self.refuse("type.unresolved", site));
                    };
                    let id = target.stable_id.clone();
                    FieldType::Nested(self.derive(&id, depth + 1, true, site)?)
                }
                TypeExpr::Named {
                    target: Target::Alias { stable_id },
                    ..
                } => FieldType::Nested(self.derive(stable_id, depth + 1, false, site)?),
                TypeExpr::Array { .. } | TypeExpr::Slice(_) | TypeExpr::Fn { .. } => {
                    return Err(self.refuse("type.field.unsupported", site))
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
