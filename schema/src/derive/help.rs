//! What to do about each SPX-Z202 refusal: a `help:` (and, where the
//! refusal alone does not say what was refused, a detail) written once
//! here for every door, from the refusal and the module it concerns.
//!
//! Derivation itself only decides (FORMAT.md §4); [`explain`] then finds
//! the declaration, field or case the refusal points at and says what to
//! write instead. The rule, code, message and position never change; only
//! the span of a refused field type is widened from the field's name to
//! the end of its type, so the caret underlines `ratio: f64`.

use crate::diag::{Diagnostic, Location, Span};
use crate::graph::limits;
use crate::source::{
    Builtin, CaseDecl, DeclKind, FieldDecl, Module, Pos, Target, TypeDecl, TypeExpr,
};
use crate::suggest;

/// What a refusal's position names.
enum Site<'m> {
    Decl(&'m TypeDecl),
    Case(&'m TypeDecl, &'m CaseDecl),
    Field(&'m TypeDecl, Option<&'m CaseDecl>, &'m FieldDecl),
}

fn same(pos: Pos, span: Span) -> bool {
    pos.line > 0 && pos.start as usize == span.start && pos.end as usize == span.end
}

fn site_at(module: &Module, span: Span) -> Option<Site<'_>> {
    for d in &module.decls {
        if same(d.pos, span) {
            return Some(Site::Decl(d));
        }
        if let Some(f) = d.fields.iter().find(|f| same(f.pos, span)) {
            return Some(Site::Field(d, None, f));
        }
        for c in &d.cases {
            if same(c.pos, span) {
                return Some(Site::Case(d, c));
            }
            if let Some(f) = c.fields.iter().find(|f| same(f.pos, span)) {
                return Some(Site::Field(d, Some(c), f));
            }
        }
    }
    None
}

/// `CamelCase` → `camel_case`, for suggested ids.
fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A type's text as part of a name: `i64` → `I64`, `Point` → `Point`.
fn camel(text: &str) -> String {
    let mut out = String::new();
    let mut up = true;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if up {
                out.push(c.to_ascii_uppercase());
            } else {
                out.push(c);
            }
            up = false;
        } else {
            up = true;
        }
    }
    out
}

/// The id to suggest for a declaration without `@id`.
fn decl_id(module: &Module, d: &TypeDecl) -> String {
    if d.persistent {
        d.stable_id.clone()
    } else {
        format!("{}.{}", module.name, snake(&d.name))
    }
}

fn q(s: &str) -> String {
    crate::quote::quote(s)
}

fn what(d: &TypeDecl) -> String {
    let params = if d.params.is_empty() {
        String::new()
    } else {
        format!("<{}>", d.params.join(", "))
    };
    format!("{} `{}{params}`", d.kind.keyword(), d.name)
}

/// What a schema field may be, said once for every field help.
const CARRIED: &str = "a schema field is `bool`, `i32`, `i64`, `u8`, `usize`, `string`, `Bytes`, or a record or variant with an `@id`";

/// `d` with a help (and for an unknown root a detail) saying what to do.
/// `root` is the root being derived.
pub(crate) fn explain(d: Diagnostic, modules: &[Module], project: bool, root: &str) -> Diagnostic {
    // Derivation already said what to do (an alias a single file cannot
    // resolve, a container type, `u32`).
    if d.help.is_some() {
        return d;
    }
    let in_file = |m: &&Module| match &d.location {
        Location::Source { path, .. } | Location::File { path } => *path == m.path,
        _ => false,
    };
    let Some(module) = modules.iter().find(in_file).or(modules.first()) else {
        return d;
    };
    let all = Roots { modules, project };
    let span = match &d.location {
        Location::Source { span: Some(s), .. } => Some(*s),
        _ => None,
    };
    let site = span.and_then(|s| site_at(module, s));
    match (d.rule, site) {
        ("type.unresolved", None) => unknown_root(d, module, &all, root),
        // (An alias a single file cannot resolve got its help from the
        // derivation, which knows the import.)
        ("type.unresolved", Some(Site::Field(..))) => {
            d.with_help("declare the type this field names in this module, with an `@id`")
        }
        ("type.field.unsupported", Some(Site::Field(_, _, f))) => {
            widen(d, f).with_help(unsupported(&f.ty, &f.name))
        }
        ("type.field.generic_argument", Some(Site::Field(_, _, f))) => {
            let help = generic_argument(module, &f.ty, &f.name);
            widen(d, f).with_help(help)
        }
        ("type.field.identity_origin", Some(Site::Field(owner, case, f))) => {
            let owner_id = match case {
                Some(c) if c.persistent => c.stable_id.clone(),
                Some(c) => format!("{}.{}", decl_id(module, owner), snake(&c.name)),
                None => decl_id(module, owner),
            };
            let of = match case {
                Some(c) => format!("case `{}` of {}", c.name, what(owner)),
                None => what(owner),
            };
            d.with_help(format!(
                "field `{}` of {of} has no `@id`, so its identity is automatic and not persistent: write `@id({})` on the line before `{}:`",
                f.name,
                q(&format!("{owner_id}.{}", f.name)),
                f.name
            ))
        }
        ("type.case.identity_origin", Some(Site::Case(owner, c))) => d.with_help(format!(
            "case `{}` of {} has no `@id`, so its identity is automatic and not persistent: write `@id({})` on the line before `{}`",
            c.name,
            what(owner),
            q(&format!("{}.{}", decl_id(module, owner), snake(&c.name))),
            c.name
        )),
        ("type.identity_origin", Some(Site::Decl(decl))) => d.with_help(format!(
            "{} has no `@id`, so its identity `{}` is automatic and not persistent: write `@id({})` on the line before `{} {}`",
            what(decl),
            decl.stable_id,
            q(&decl_id(module, decl)),
            decl.kind.keyword(),
            decl.name
        )),
        ("type.generic", site) => {
            let shown = match site {
                Some(Site::Decl(decl)) => what(decl),
                _ => format!("the type {}", q(root)),
            };
            d.with_help(format!(
                "{shown} has type parameters, and a schema type is monomorphic: derive from a record or variant whose fields have concrete types (a copy of it with `T` replaced, under its own `@id`)"
            ))
        }
        ("type.kind", Some(Site::Decl(decl))) => {
            let why = match decl.kind {
                DeclKind::Class => "a class holds behaviour",
                _ => "a resource stands for something the host owns",
            };
            d.with_help(format!(
                "{} cannot be carried by a schema ({why}); a schema carries records and variants: declare a `record` with the fields to exchange, under its own `@id`",
                what(decl)
            ))
        }
        ("type.cases", Some(Site::Decl(decl))) => d.with_help(format!(
            "{} has no cases, so no value of it exists: add at least one case, each with an `@id`",
            what(decl)
        )),
        ("type.recursive", Some(Site::Field(_, _, f))) => d.with_help(format!(
            "field `{}` leads back to a type that contains it, and a schema value has bounded size: break the cycle, for example by storing the stable reference (an id as `string` or `i64`) instead of the value",
            f.name
        )),
        ("type.max_depth", Some(Site::Field(_, _, f))) => d.with_help(format!(
            "field `{}` is nested more than {} levels below the root, the bound of the wire format: flatten the nesting, for example by moving the fields of a nested record into its parent",
            f.name,
            limits::MAX_DEPTH
        )),
        ("type.max_types", site) => {
            let d = match (site, &d.location) {
                (_, Location::None) => d.at(Location::File {
                    path: module.path.clone(),
                }),
                _ => d,
            };
            d.with_help(format!(
                "the schema of root {} reaches more than {} types, the bound of the wire format: split it into several roots, or use one type where several are alike",
                q(root),
                limits::MAX_TYPES
            ))
        }
        _ => d,
    }
}

/// The field's span widened to the end of its type (`ratio: f64`).
fn widen(mut d: Diagnostic, f: &FieldDecl) -> Diagnostic {
    if let Location::Source { span, .. } = &mut d.location {
        if f.ty_pos.end > f.pos.end {
            *span = Some(f.pos.to(f.ty_pos).span());
        }
    }
    d
}

fn unsupported(ty: &TypeExpr, field: &str) -> String {
    match ty {
        TypeExpr::Builtin(Builtin::F32 | Builtin::F64) => format!(
            "`{field}` is a float, and a schema carries no floating point (every value must round-trip exactly): use an exact integer such as `i64` in fixed point (for example thousandths), or a `string`"
        ),
        TypeExpr::Builtin(Builtin::Char) => format!(
            "`{field}` is a `char`, which a schema does not carry: use a `string` (at most 4096 UTF-8 bytes)"
        ),
        TypeExpr::Builtin(Builtin::Str) => {
            format!("`{field}` is a borrowed `str`: use the owned `string`")
        }
        TypeExpr::Array { elem, .. } | TypeExpr::Slice(elem)
            if matches!(**elem, TypeExpr::Builtin(Builtin::U8)) =>
        {
            format!("`{field}` holds bytes: use `Bytes` (at most 4096 bytes)")
        }
        TypeExpr::Array { .. } | TypeExpr::Slice(_) => format!(
            "`{field}` is a list, which a schema does not carry: use `Bytes` for bytes, or a record with one field per element"
        ),
        TypeExpr::Fn { .. } => format!("`{field}` is a function, which no value can carry: remove it"),
        TypeExpr::Named {
            name,
            target: Target::Param,
            ..
        } => format!(
            "`{field}` has the type parameter `{name}`, and a schema type is monomorphic: give it a concrete type"
        ),
        _ => format!("`{field}` has a type a schema does not carry: {CARRIED}"),
    }
}

fn generic_argument(module: &Module, ty: &TypeExpr, field: &str) -> String {
    let TypeExpr::Named { name, args, target } = ty else {
        return format!("`{field}` has type arguments: give it a type without them");
    };
    let prelude = match target {
        Target::Decl(i) => module.decls.get(*i).is_some_and(|d| d.prelude),
        _ => false,
    };
    let arg = |i: usize| args.get(i).map_or("T".to_owned(), TypeExpr::text);
    match (name.as_str(), prelude) {
        ("Option", true) => {
            let a = arg(0);
            let name = format!("Maybe{}", camel(&a));
            let id = format!("{}.{}", module.name, snake(&name));
            format!(
                "a schema type takes no type arguments, so `Option<{a}>` cannot be carried: declare a variant with two cases and give `{field}` its type instead, for example\n  @id(\"{id}\") variant {name} {{ @id(\"{id}.none\") None, @id(\"{id}.some\") Some {{ @id(\"{id}.some.value\") value: {a}, }}, }}"
            )
        }
        ("Result", true) => format!(
            "a schema type takes no type arguments, so `Result<{a}, {b}>` cannot be carried: declare a variant with two cases `Ok {{ value: {a}, }}` and `Err {{ value: {b}, }}` (each case and field with an `@id`) and give `{field}` that type",
            a = arg(0),
            b = arg(1)
        ),
        _ => format!(
            "a schema type takes no type arguments, so `{}` cannot be carried: declare a copy of `{name}` with concrete types, under its own `@id`, and give `{field}` that type",
            ty.text()
        ),
    }
}

/// The modules a root is derived from, for the list of roots that do.
struct Roots<'m> {
    modules: &'m [Module],
    project: bool,
}

impl Roots<'_> {
    /// Every root of the modules that derives, in declaration order.
    fn derivable(&self) -> Vec<&str> {
        self.modules
            .iter()
            .flat_map(|m| m.decls.iter())
            .filter(|d| {
                !d.prelude
                    && d.persistent
                    && matches!(d.kind, DeclKind::Record | DeclKind::Variant)
                    && super::run(self.modules, self.project, &d.stable_id).is_ok()
            })
            .map(|d| d.stable_id.as_str())
            .collect()
    }

    /// Every declaration of the modules.
    fn decls(&self) -> impl Iterator<Item = &TypeDecl> {
        self.modules.iter().flat_map(|m| m.decls.iter())
    }
}

/// How many derivable roots an unknown-root help lists.
const LISTED: usize = 8;

/// The root names no declaration: say which root, in which file, and list
/// the roots that do derive, closest first.
fn unknown_root(d: Diagnostic, module: &Module, all: &Roots<'_>, root: &str) -> Diagnostic {
    let scope = if all.modules.len() > 1 {
        let names: Vec<String> = all
            .modules
            .iter()
            .map(|m| format!("`{}`", m.name))
            .collect();
        format!("the project's modules ({})", names.join(", "))
    } else {
        format!("module `{}`", module.name)
    };
    let d = d
        .at(Location::File {
            path: module.path.clone(),
        })
        .with_detail(format!(
            "no record or variant of {scope} has the stable id {}",
            q(root)
        ));
    // A display name or an automatic id given for a root: name its id.
    let by_name = all
        .decls()
        .find(|t| !t.prelude && t.name == root && t.persistent);
    let roots = all.derivable();
    let mut help = match by_name {
        Some(t) => format!(
            "`{root}` is the name of {}; a root is named by its stable id: {}",
            what(t),
            q(&t.stable_id)
        ),
        None => match suggest::did_you_mean(
            root,
            all.decls()
                .filter(|t| !t.prelude && t.persistent)
                .map(|t| t.stable_id.as_str()),
        ) {
            Some(s) => format!("did you mean {}?", q(s)),
            None => String::new(),
        },
    };
    if roots.is_empty() {
        if !help.is_empty() {
            help.push('\n');
        }
        help.push_str(&format!(
            "{scope} has no root that derives: a root is a record or variant with an `@id(\"…\")`, whose fields, cases and nested types have one too"
        ));
    } else {
        let ranked = suggest::ranked(root, roots.iter().copied());
        let mut list: Vec<String> = ranked.iter().take(LISTED).map(|r| q(r)).collect();
        if ranked.len() > LISTED {
            list.push(format!("and {} more", ranked.len() - LISTED));
        }
        if !help.is_empty() {
            help.push('\n');
        }
        help.push_str(&format!(
            "the roots of {scope} that derive, closest first: {}",
            list.join(", ")
        ));
    }
    d.with_help(help)
}
