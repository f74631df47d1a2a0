//! Types as the user writes them: builtin names and type expressions as
//! text, for listings and messages (`spx check`, helps, did-you-mean).

use super::model::TypeExpr;

/// Every builtin type name in field position, as written.
pub const BUILTIN_NAMES: [&str; 12] = [
    "bool", "i32", "i64", "u8", "usize", "u32", "string", "Bytes", "char", "f32", "f64", "str",
];

impl TypeExpr {
    /// The type as written: `i64`, `Option<string>`, `[u8; 4]`,
    /// `Slice<u8>`, `fn(i64) -> bool`.
    pub fn text(&self) -> String {
        let list = |ts: &[TypeExpr]| ts.iter().map(TypeExpr::text).collect::<Vec<_>>().join(", ");
        match self {
            TypeExpr::Builtin(b) => b.name().to_owned(),
            TypeExpr::Named { name, args, .. } if args.is_empty() => name.clone(),
            TypeExpr::Named { name, args, .. } => format!("{name}<{}>", list(args)),
            TypeExpr::Array { elem, len } => format!("[{}; {len}]", elem.text()),
            TypeExpr::Slice(e) => format!("Slice<{}>", e.text()),
            TypeExpr::Container { kind, elem } => format!("{}<{}>", kind.name(), elem.text()),
            TypeExpr::Fn { params, ret } => match ret {
                Some(r) => format!("fn({}) -> {}", list(params), r.text()),
                None => format!("fn({})", list(params)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::Builtin;
    use super::*;

    #[test]
    fn builtin_names_round_trip() {
        for n in BUILTIN_NAMES {
            let b = Builtin::from_name(n).expect(n);
            assert_eq!(b.name(), n);
        }
    }
}
