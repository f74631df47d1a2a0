//! `spx check`: the module's types, fields and cases with their stable ids,
//! then its warnings.

use crate::input::display;
use crate::output::CmdResult;
use spx_schema::binding;
use spx_schema::source::{Builtin, DeclKind, Module, TypeExpr};
use std::path::Path;

pub fn run(source: &Path) -> CmdResult {
    let snap = binding::Snapshot::take(source, &display(source))?;
    let module = snap.read_module()?;
    snap.recheck()?;
    Ok(check_listing(&module).into_bytes())
}

fn type_text(t: &TypeExpr) -> String {
    match t {
        TypeExpr::Builtin(b) => match b {
            Builtin::Bool => "bool",
            Builtin::I32 => "i32",
            Builtin::I64 => "i64",
            Builtin::U8 => "u8",
            Builtin::Usize => "usize",
            Builtin::String => "string",
            Builtin::Bytes => "Bytes",
            Builtin::Char => "char",
            Builtin::F32 => "f32",
            Builtin::F64 => "f64",
            Builtin::Str => "str",
        }
        .to_owned(),
        TypeExpr::Named { name, args, .. } if args.is_empty() => name.clone(),
        TypeExpr::Named { name, args, .. } => {
            format!(
                "{name}<{}>",
                args.iter().map(type_text).collect::<Vec<_>>().join(", ")
            )
        }
        TypeExpr::Array { elem, len } => format!("[{}; {len}]", type_text(elem)),
        TypeExpr::Slice(e) => format!("Slice<{}>", type_text(e)),
        TypeExpr::Fn { params, ret } => {
            let p = params.iter().map(type_text).collect::<Vec<_>>().join(", ");
            match ret {
                Some(r) => format!("fn({p}) -> {}", type_text(r)),
                None => format!("fn({p})"),
            }
        }
    }
}

fn id_text(id: &str, persistent: bool) -> String {
    let q = spx_schema::quote::quote(id);
    if persistent {
        format!("@id({q})")
    } else {
        format!("{q} (automatic)")
    }
}

/// The `spx check` listing: one line per type, field and case, then the
/// warnings.
fn check_listing(m: &Module) -> String {
    let mut out = format!("module {}\n", m.name);
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
        let field_line = |out: &mut String, indent: &str, f: &spx_schema::source::FieldDecl| {
            out.push_str(&format!(
                "{indent}field {}: {} {}\n",
                f.name,
                type_text(&f.ty),
                id_text(&f.stable_id, f.persistent)
            ));
        };
        for f in &d.fields {
            field_line(&mut out, "  ", f);
        }
        if d.kind == DeclKind::Variant {
            for c in &d.cases {
                out.push_str(&format!(
                    "  case {} {}\n",
                    c.name,
                    id_text(&c.stable_id, c.persistent)
                ));
                for f in &c.fields {
                    field_line(&mut out, "    ", f);
                }
            }
        }
    }
    for w in &m.warnings {
        out.push_str(&format!("{w}\n"));
    }
    out
}
