//! Derivation of the type graph from a read module (FORMAT.md §4), with
//! every SPX-Z202 rule in the specified order.

use crate::diag::Diagnostic;
use crate::graph::{limits, Case, Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
use crate::source::{Builtin, DeclKind, FieldDecl, Module, Target, TypeExpr};

struct Deriver<'m> {
    module: &'m Module,
    out: Vec<TypeNode>,
    visiting: Vec<String>,
}

/// Derives the graph of `root_type_id`, root last.
pub fn derive_graph(module: &Module, root_type_id: &str) -> Result<TypeGraph, Diagnostic> {
    let mut d = Deriver {
        module,
        out: Vec::new(),
        visiting: Vec::new(),
    };
    d.derive(root_type_id, 0, true)?;
    // (beyond) FORMAT.md §4: the 64-type bound is held literally.
    if d.out.len() > limits::MAX_TYPES {
        return Err(Diagnostic::z202("type.max_types"));
    }
    Ok(TypeGraph { types: d.out })
}

impl Deriver<'_> {
    /// Derives one type id; returns its index in the output list.
    /// `resolvable` is false for `use type` aliases, which this profile
    /// never resolves (LANGUAGE.md): they fail at step 5.
    fn derive(&mut self, id: &str, depth: usize, resolvable: bool) -> Result<usize, Diagnostic> {
        if let Some(i) = self.out.iter().position(|t| t.stable_id == id) {
            return Ok(i);
        }
        if self.visiting.iter().any(|v| v == id) {
            return Err(Diagnostic::z202("type.recursive"));
        }
        if depth > limits::MAX_DEPTH {
            return Err(Diagnostic::z202("type.max_depth"));
        }
        if self.out.len() >= limits::MAX_TYPES {
            return Err(Diagnostic::z202("type.max_types"));
        }
        let module = self.module;
        let decl = match module.decl_by_id(id) {
            Some((_, d)) if resolvable => d,
            _ => return Err(Diagnostic::z202("type.unresolved")),
        };
        if !decl.params.is_empty() {
            return Err(Diagnostic::z202("type.generic"));
        }
        if !decl.persistent {
            return Err(Diagnostic::z202("type.identity_origin"));
        }
        self.visiting.push(id.to_owned());
        let kind = match decl.kind {
            DeclKind::Record => TypeKind::Record {
                fields: self.fields(&decl.fields, depth)?,
            },
            DeclKind::Variant => {
                if decl.cases.is_empty() {
                    return Err(Diagnostic::z202("type.cases"));
                }
                let mut cases = Vec::with_capacity(decl.cases.len());
                for c in &decl.cases {
                    if !c.persistent {
                        return Err(Diagnostic::z202("type.case.identity_origin"));
                    }
                    cases.push(Case {
                        stable_id: c.stable_id.clone(),
                        name: c.name.clone(),
                        fields: self.fields(&c.fields, depth)?,
                    });
                }
                TypeKind::Variant { cases }
            }
            DeclKind::Resource | DeclKind::Class => return Err(Diagnostic::z202("type.kind")),
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
            if !f.persistent {
                return Err(Diagnostic::z202("type.field.identity_origin"));
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
                        return Err(Diagnostic::z202("type.field.unsupported"))
                    }
                }),
                TypeExpr::Named {
                    target: Target::Param,
                    ..
                } => return Err(Diagnostic::z202("type.field.unsupported")),
                TypeExpr::Named { args, .. } if !args.is_empty() => {
                    return Err(Diagnostic::z202("type.field.generic_argument"))
                }
                TypeExpr::Named {
                    target: Target::Decl(i),
                    ..
                } => {
                    // A hand-built Module may carry an index that names no
                    // declaration: refuse it instead of panicking.
                    let Some(target) = self.module.decls.get(*i) else {
                        return Err(Diagnostic::z202("type.unresolved"));
                    };
                    let id = target.stable_id.clone();
                    FieldType::Nested(self.derive(&id, depth + 1, true)?)
                }
                TypeExpr::Named {
                    target: Target::Alias { stable_id },
                    ..
                } => FieldType::Nested(self.derive(stable_id, depth + 1, false)?),
                TypeExpr::Array { .. } | TypeExpr::Slice(_) | TypeExpr::Fn { .. } => {
                    return Err(Diagnostic::z202("type.field.unsupported"))
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
