//! Name resolution, identities, the prelude and the declaration checks of
//! LANGUAGE.md ("Checks on declarations").

use super::codes;
use super::lex::error;
use super::model::*;
use super::parse::{RawDecl, RawField, RawModule, RawType};
use crate::diag::{Code, Diagnostic, Location};
use std::collections::{HashMap, HashSet};

/// Names a declaration may not take: the builtins. (`Option` and `Result`
/// may be declared or imported in today's language: in that module the
/// name means that type, not the prelude's.)
fn reserved(name: &str) -> bool {
    name == "Slice" || Builtin::from_name(name).is_some() || Container::from_name(name).is_some()
}

fn prelude() -> [TypeDecl; 2] {
    let param = |name: &str| TypeExpr::Named {
        name: name.to_owned(),
        args: Vec::new(),
        target: Target::Param,
    };
    let case = |id: &str, name: &str, field: Option<&str>| CaseDecl {
        name: name.to_owned(),
        stable_id: id.to_owned(),
        persistent: true,
        fields: field
            .map(|p| FieldDecl {
                name: "value".to_owned(),
                stable_id: format!("{id}.value"),
                persistent: true,
                ty: param(p),
                pos: Pos::default(),
                ty_pos: Pos::default(),
            })
            .into_iter()
            .collect(),
        pos: Pos::default(),
    };
    let variant = |name: &str, id: &str, params: &[&str], cases: Vec<CaseDecl>| TypeDecl {
        kind: DeclKind::Variant,
        name: name.to_owned(),
        stable_id: id.to_owned(),
        persistent: true,
        params: params.iter().map(|p| (*p).to_owned()).collect(),
        fields: Vec::new(),
        cases,
        prelude: true,
        pos: Pos::default(),
    };
    [
        variant(
            "Option",
            "core.option",
            &["T"],
            vec![
                case("core.option.none", "None", None),
                case("core.option.some", "Some", Some("T")),
            ],
        ),
        variant(
            "Result",
            "core.result",
            &["T", "E"],
            vec![
                case("core.result.ok", "Ok", Some("T")),
                case("core.result.err", "Err", Some("E")),
            ],
        ),
    ]
}

struct Checker<'a> {
    path: &'a str,
    errors: Vec<(Pos, Diagnostic)>,
    warnings: Vec<Diagnostic>,
    /// Type name → index into the declaration list (first occurrence).
    types: HashMap<String, usize>,
    /// `use type` alias → imported id.
    aliases: HashMap<String, String>,
    /// The accepted `use type` imports, in source order.
    imports: Vec<Import>,
    /// Fields whose type did not resolve (by position): later checks skip them.
    poisoned: HashSet<Pos>,
    /// Number of type parameters of each declaration (prelude included).
    arities: Vec<usize>,
}

impl Checker<'_> {
    fn loc(&self, pos: Pos) -> Location {
        pos.location(self.path)
    }

    fn error(&mut self, code: Code, rule: &'static str, msg: String, pos: Pos) {
        self.errors
            .push((pos, error(self.path, code, rule, msg, pos)));
    }

    /// Sets the help of the error just reported.
    fn push_help(&mut self, help: &str) {
        if let Some((_, d)) = self.errors.last_mut() {
            d.help = Some(help.to_owned());
        }
    }

    fn identity(
        &mut self,
        explicit: &Option<(String, Pos)>,
        auto: String,
        what: &str,
        pos: Pos,
    ) -> (String, bool) {
        match explicit {
            Some((id, _)) => (id.clone(), true),
            None => {
                self.warnings.push(
                    Diagnostic::warning(
                        codes::AUTOMATIC_IDENTITY,
                        "identity.automatic",
                        format!(
                            "{what} has no `@id(\"…\")`; its automatic identity `{auto}` is not persistent and no schema can use it"
                        ),
                    )
                    .at(self.loc(pos)),
                );
                (auto, false)
            }
        }
    }

    fn resolve(&mut self, ty: &RawType, params: &[String], field_pos: Pos) -> TypeExpr {
        match ty {
            RawType::Array { elem, len } => TypeExpr::Array {
                elem: Box::new(self.resolve(elem, params, field_pos)),
                len: *len,
            },
            RawType::Fn { params: ps, ret } => TypeExpr::Fn {
                params: ps
                    .iter()
                    .map(|p| self.resolve(p, params, field_pos))
                    .collect(),
                ret: ret
                    .as_ref()
                    .map(|r| Box::new(self.resolve(r, params, field_pos))),
            },
            RawType::Named { name, args, pos } => {
                let args_r: Vec<TypeExpr> = args
                    .iter()
                    .map(|a| self.resolve(a, params, field_pos))
                    .collect();
                let pos = *pos;
                let named = |target| TypeExpr::Named {
                    name: name.clone(),
                    args: args_r.clone(),
                    target,
                };
                if let Some(b) = Builtin::from_name(name) {
                    if !args.is_empty() {
                        self.error(
                            codes::BUILTIN_ARGUMENTS,
                            "decl.builtin_arguments",
                            format!("the builtin type `{name}` takes no type arguments"),
                            pos,
                        );
                        self.poisoned.insert(field_pos);
                    }
                    return TypeExpr::Builtin(b);
                }
                if name == "Slice" {
                    return match args_r.as_slice() {
                        [elem] => TypeExpr::Slice(Box::new(elem.clone())),
                        _ => {
                            self.error(
                                codes::TYPE_ARITY,
                                "decl.type_arity",
                                format!(
                                    "`Slice` takes exactly one type argument, found {}",
                                    args.len()
                                ),
                                pos,
                            );
                            self.poisoned.insert(field_pos);
                            named(Target::Param)
                        }
                    };
                }
                if let Some(kind) = Container::from_name(name) {
                    return match args_r.as_slice() {
                        [elem] => TypeExpr::Container {
                            kind,
                            elem: Box::new(elem.clone()),
                        },
                        _ => {
                            self.error(
                                codes::TYPE_ARITY,
                                "decl.type_arity",
                                format!(
                                    "`{name}` takes exactly one type argument, found {}",
                                    args.len()
                                ),
                                pos,
                            );
                            self.push_help(&format!("write `{name}<T>`"));
                            self.poisoned.insert(field_pos);
                            named(Target::Param)
                        }
                    };
                }
                if params.iter().any(|p| p == name) {
                    if !args.is_empty() {
                        self.error(
                            codes::TYPE_ARITY,
                            "decl.type_arity",
                            format!("the type parameter `{name}` takes no type arguments"),
                            pos,
                        );
                        self.poisoned.insert(field_pos);
                    }
                    return named(Target::Param);
                }
                if let Some(id) = self.aliases.get(name) {
                    return named(Target::Alias {
                        stable_id: id.clone(),
                    });
                }
                if let Some(&i) = self.types.get(name) {
                    let want = self.arities.get(i).copied().unwrap_or(0);
                    if want != args.len() {
                        self.error(
                            codes::TYPE_ARITY,
                            "decl.type_arity",
                            format!(
                                "`{name}` takes {want} type argument(s), found {}",
                                args.len()
                            ),
                            pos,
                        );
                        self.poisoned.insert(field_pos);
                    }
                    return named(Target::Decl(i));
                }
                self.error(
                    codes::UNKNOWN_TYPE,
                    "decl.unknown_type",
                    format!("unknown type `{name}`: no type of this name is declared in this module, in the prelude or by `use type`"),
                    pos,
                );
                let help = self.unknown_type_help(name, params);
                if let Some((_, d)) = self.errors.last_mut() {
                    d.help = Some(help);
                }
                self.poisoned.insert(field_pos);
                named(Target::Param)
            }
        }
    }

    /// "did you mean" among the builtins, the prelude, the module's types,
    /// its `use type` aliases and the type parameters in scope.
    fn unknown_type_help(&self, name: &str, params: &[String]) -> String {
        if let Some(h) = super::help::foreign_type(name) {
            return h;
        }
        let mut names: Vec<&str> = super::BUILTIN_NAMES.to_vec();
        names.push("Slice");
        let mut declared: Vec<&str> = self.types.keys().map(String::as_str).collect();
        declared.extend(self.aliases.keys().map(String::as_str));
        declared.sort_unstable();
        names.extend(declared);
        names.extend(params.iter().map(String::as_str));
        match crate::suggest::did_you_mean(name, names) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!(
                "declare `{name}` in this module (a `record` or `variant` with an `@id`), or use a builtin: bool, i32, i64, u8, usize, string, Bytes"
            ),
        }
    }

    fn fields(
        &mut self,
        raw: &[RawField],
        owner_id: &str,
        auto_prefix: &str,
        params: &[String],
    ) -> Vec<FieldDecl> {
        let mut seen: HashMap<&str, Pos> = HashMap::new();
        let mut out = Vec::with_capacity(raw.len());
        for f in raw {
            if let Some(first) = seen.insert(&f.name, f.pos) {
                self.error(
                    codes::DUPLICATE_MEMBER,
                    "decl.duplicate_member",
                    format!(
                        "field `{}` is declared twice (first at {}:{})",
                        f.name, first.line, first.column
                    ),
                    f.pos,
                );
            }
            let (stable_id, persistent) = self.identity(
                &f.id,
                format!("{auto_prefix}{owner_id}.{}", f.name),
                &format!("field `{}`", f.name),
                f.pos,
            );
            let ty = self.resolve(&f.ty, params, f.pos);
            out.push(FieldDecl {
                name: f.name.clone(),
                stable_id,
                persistent,
                ty,
                pos: f.pos,
                ty_pos: f.ty_pos,
            });
        }
        out
    }

    fn decl(&mut self, module: &str, d: &RawDecl) -> TypeDecl {
        let (stable_id, persistent) = self.identity(
            &d.id,
            format!("auto:{}:{module}.{}", d.kind.keyword(), d.name),
            &format!("{} `{}`", d.kind.keyword(), d.name),
            d.pos,
        );
        let mut seen: HashMap<&str, Pos> = HashMap::new();
        for (p, pos) in &d.params {
            if let Some(first) = seen.insert(p, *pos) {
                self.error(
                    codes::DUPLICATE_MEMBER,
                    "decl.duplicate_member",
                    format!(
                        "type parameter `{p}` is declared twice (first at {}:{})",
                        first.line, first.column
                    ),
                    *pos,
                );
            }
        }
        let params: Vec<String> = d.params.iter().map(|(p, _)| p.clone()).collect();
        let fields = self.fields(&d.fields, &stable_id, "auto:field:", &params);
        let mut cases = Vec::with_capacity(d.cases.len());
        let mut seen: HashMap<&str, Pos> = HashMap::new();
        for c in &d.cases {
            if let Some(first) = seen.insert(&c.name, c.pos) {
                self.error(
                    codes::DUPLICATE_MEMBER,
                    "decl.duplicate_member",
                    format!(
                        "case `{}` is declared twice (first at {}:{})",
                        c.name, first.line, first.column
                    ),
                    c.pos,
                );
            }
            let (case_id, persistent) = self.identity(
                &c.id,
                format!("auto:case:{stable_id}.{}", c.name),
                &format!("case `{}`", c.name),
                c.pos,
            );
            let fields = self.fields(&c.fields, &case_id, "auto:case-field:", &params);
            cases.push(CaseDecl {
                name: c.name.clone(),
                stable_id: case_id,
                persistent,
                fields,
                pos: c.pos,
            });
        }
        TypeDecl {
            kind: d.kind,
            name: d.name.clone(),
            stable_id,
            persistent,
            params,
            fields,
            cases,
            prelude: false,
            pos: d.pos,
        }
    }
}

fn contains_fn(t: &TypeExpr) -> bool {
    match t {
        TypeExpr::Fn { .. } => true,
        TypeExpr::Builtin(_) => false,
        TypeExpr::Named { args, .. } => args.iter().any(contains_fn),
        TypeExpr::Array { elem, .. } | TypeExpr::Slice(elem) | TypeExpr::Container { elem, .. } => {
            contains_fn(elem)
        }
    }
}

/// The records a type holds by value: a named record, or the element of a
/// fixed array (LANGUAGE.md: "directly or through other records").
fn by_value_records(decls: &[TypeDecl], t: &TypeExpr, out: &mut Vec<usize>) {
    match t {
        TypeExpr::Named {
            target: Target::Decl(j),
            ..
        } if decls.get(*j).is_some_and(|d| d.kind == DeclKind::Record) => out.push(*j),
        TypeExpr::Array { elem, .. } => by_value_records(decls, elem, out),
        _ => {}
    }
}

/// True when some generic *record* is instantiated in `t` (at the top, in
/// type arguments or as an array element).
fn instantiates_generic_record(decls: &[TypeDecl], t: &TypeExpr) -> bool {
    match t {
        TypeExpr::Named { target, args, .. } => {
            matches!(target, Target::Decl(j) if decls.get(*j).is_some_and(|d| d.kind == DeclKind::Record && !d.params.is_empty()))
                || args.iter().any(|a| instantiates_generic_record(decls, a))
        }
        TypeExpr::Array { elem, .. } | TypeExpr::Slice(elem) | TypeExpr::Container { elem, .. } => {
            instantiates_generic_record(decls, elem)
        }
        TypeExpr::Builtin(_) | TypeExpr::Fn { .. } => false,
    }
}

/// True when record `start` is a monomorphic record whose fields are,
/// recursively, only Copy scalars (iterative: no input can exhaust the stack).
fn copy_only_record(decls: &[TypeDecl], start: usize) -> bool {
    let mut stack = vec![start];
    let mut seen = HashSet::new();
    while let Some(r) = stack.pop() {
        if !seen.insert(r) {
            continue; // a cycle by value is SPX-T217's business
        }
        let Some(d) = decls.get(r) else { return false };
        if d.kind != DeclKind::Record || !d.params.is_empty() {
            return false;
        }
        for f in &d.fields {
            match &f.ty {
                TypeExpr::Builtin(b) if b.is_copy_scalar() => {}
                TypeExpr::Named {
                    target: Target::Decl(j),
                    args,
                    ..
                } if args.is_empty() => stack.push(*j),
                _ => return false,
            }
        }
    }
    true
}

/// For each node, whether it lies on a cycle (Kosaraju's strongly connected
/// components, iteratively: linear time, no recursion).
fn on_a_cycle(edges: &[Vec<usize>]) -> Vec<bool> {
    let n = edges.len();
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![(start, 0usize)];
        while let Some((v, k)) = stack.pop() {
            match edges[v].get(k) {
                Some(&w) => {
                    stack.push((v, k + 1));
                    if w < n && !seen[w] {
                        seen[w] = true;
                        stack.push((w, 0));
                    }
                }
                None => order.push(v),
            }
        }
    }
    let mut reverse = vec![Vec::new(); n];
    for (v, out) in edges.iter().enumerate() {
        for &w in out {
            if w < n {
                reverse[w].push(v);
            }
        }
    }
    let mut comp = vec![usize::MAX; n];
    let mut sizes = Vec::new();
    for &root in order.iter().rev() {
        if comp[root] != usize::MAX {
            continue;
        }
        let id = sizes.len();
        let mut size = 0;
        comp[root] = id;
        let mut stack = vec![root];
        while let Some(v) = stack.pop() {
            size += 1;
            for &w in &reverse[v] {
                if comp[w] == usize::MAX {
                    comp[w] = id;
                    stack.push(w);
                }
            }
        }
        sizes.push(size);
    }
    (0..n)
        .map(|v| sizes[comp[v]] > 1 || edges[v].contains(&v))
        .collect()
}

/// The declaration checks, as a list of named phases run in this order
/// (serde_derive's `check.rs` style). Errors are sorted by position at the
/// end (stably, so phases break ties in this order).
pub(crate) fn check(path: &str, raw: RawModule) -> Result<Module, Vec<Diagnostic>> {
    let mut c = Checker {
        path,
        errors: Vec::new(),
        warnings: Vec::new(),
        types: HashMap::new(),
        aliases: HashMap::new(),
        imports: Vec::new(),
        poisoned: HashSet::new(),
        arities: Vec::new(),
    };
    let prelude = prelude();
    c.declare_names(&raw, &prelude);
    let mut decls: Vec<TypeDecl> = raw.decls.iter().map(|d| c.decl(&raw.name, d)).collect();
    decls.extend(prelude);
    c.check_stable_ids(&decls);
    c.check_function_fields(&decls);
    let poisoned = c.poisoned.clone();
    for d in decls.iter().filter(|d| !d.prelude) {
        c.check_generic_record(&decls, d, &poisoned);
        c.check_variant_payloads(&decls, d, &poisoned);
    }
    c.check_recursive_records(&decls);
    if c.errors.is_empty() {
        Ok(Module {
            path: path.to_owned(),
            name: raw.name,
            name_pos: raw.name_pos,
            decls,
            imports: c.imports,
            warnings: c.warnings,
            notes: raw.notes,
            docs: super::Docs::new(),
        })
    } else {
        c.errors.sort_by_key(|(p, _)| (p.line, p.column));
        Err(c.errors.into_iter().map(|(_, d)| d).collect())
    }
}

/// The shortest chain of record names by which record `r` reaches itself
/// (`A -> B -> A`), if it does: a breadth-first search from `r`'s
/// successors back to `r`, with parents for the message.
fn cycle_chain(decls: &[TypeDecl], edges: &[Vec<usize>], r: usize) -> Option<String> {
    use std::collections::hash_map::Entry;
    let mut parent: HashMap<usize, usize> = HashMap::new();
    let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    for &s in edges.get(r).into_iter().flatten() {
        if let Entry::Vacant(e) = parent.entry(s) {
            e.insert(r);
            queue.push_back(s);
        }
    }
    let mut found = parent.contains_key(&r);
    while let (false, Some(x)) = (found, queue.pop_front()) {
        for &s in edges.get(x).into_iter().flatten() {
            if let Entry::Vacant(e) = parent.entry(s) {
                e.insert(x);
                if s == r {
                    found = true;
                    break;
                }
                queue.push_back(s);
            }
        }
    }
    if !found {
        return None;
    }
    let name = |i: usize| decls.get(i).map_or(String::new(), |t| t.name.clone());
    let mut chain = vec![name(r)];
    let mut x = parent.get(&r).copied();
    while let Some(p) = x {
        if p == r || chain.len() > decls.len() {
            break;
        }
        chain.push(name(p));
        x = parent.get(&p).copied();
    }
    chain.push(name(r));
    let last = chain.len() - 1;
    if let Some(middle) = chain.get_mut(1..last) {
        middle.reverse();
    }
    Some(chain.join(" -> "))
}

impl Checker<'_> {
    /// Names: reserved names, duplicate types, `use type` aliases
    /// (SPX-S113, SPX-S107). Fills the name tables the resolver uses.
    fn declare_names(&mut self, raw: &RawModule, prelude: &[TypeDecl]) {
        let n = raw.decls.len();
        self.arities = raw
            .decls
            .iter()
            .map(|d| d.params.len())
            .chain(prelude.iter().map(|p| p.params.len()))
            .collect();
        for (k, p) in prelude.iter().enumerate() {
            self.types.insert(p.name.clone(), n + k);
        }
        let mut first_pos: HashMap<String, Pos> = HashMap::new();
        for (i, d) in raw.decls.iter().enumerate() {
            if reserved(&d.name) {
                self.error(
                    codes::RESERVED_NAME,
                    "decl.reserved_name",
                    format!(
                        "`{}` is a compiler-owned type name and cannot be declared",
                        d.name
                    ),
                    d.pos,
                );
                continue;
            }
            match first_pos.get(&d.name) {
                Some(first) => {
                    let first = *first;
                    self.error(
                        codes::DUPLICATE_NAME,
                        "decl.duplicate_name",
                        format!(
                            "a type named `{}` is already declared at {}:{}",
                            d.name, first.line, first.column
                        ),
                        d.pos,
                    );
                }
                None => {
                    first_pos.insert(d.name.clone(), d.pos);
                    self.types.insert(d.name.clone(), i);
                }
            }
        }
        for u in raw.uses.iter().filter(|u| u.kind == "type") {
            if let Some(first) = first_pos.get(&u.alias) {
                let first = *first;
                self.error(
                    codes::DUPLICATE_NAME,
                    "decl.duplicate_name",
                    format!(
                        "`{}` is both a `use type` alias and a type declared at {}:{}",
                        u.alias, first.line, first.column
                    ),
                    u.pos,
                );
            } else if reserved(&u.alias) || self.aliases.contains_key(&u.alias) {
                self.error(
                    codes::DUPLICATE_NAME,
                    "decl.duplicate_name",
                    format!("the type name `{}` is already taken", u.alias),
                    u.pos,
                );
            } else {
                self.aliases.insert(u.alias.clone(), u.id.clone());
                self.imports.push(Import {
                    alias: u.alias.clone(),
                    stable_id: u.id.clone(),
                    from: u.from.clone(),
                    pos: u.clause,
                });
            }
        }
    }

    /// Stable ids (SPX-S102): duplicates among types, fields and cases
    /// (the prelude's claimed first), and NUL.
    fn check_stable_ids(&mut self, decls: &[TypeDecl]) {
        let mut ids: HashMap<&str, (Pos, bool)> = HashMap::new();
        for d in decls.iter().filter(|d| d.prelude) {
            for (id, _, _) in d.ids() {
                ids.insert(id, (Pos::default(), true));
            }
        }
        let mut id_errors = Vec::new();
        for d in decls.iter().filter(|d| !d.prelude) {
            for (id, persistent, pos) in d.ids() {
                if persistent && id.contains('\0') {
                    id_errors.push((
                        "decl.id_nul",
                        format!(
                            "stable id {} contains a NUL character",
                            crate::quote::quote(id)
                        ),
                        pos,
                    ));
                }
                match ids.get(id) {
                    Some((first, first_persistent)) if persistent || *first_persistent => {
                        let place = if *first == Pos::default() {
                            "by the prelude".to_owned()
                        } else {
                            format!("at {}:{}", first.line, first.column)
                        };
                        id_errors.push((
                            "decl.duplicate_id",
                            format!(
                                "stable id {} is already declared {place}",
                                crate::quote::quote(id)
                            ),
                            pos,
                        ));
                    }
                    Some(_) => {} // two automatic ids: a duplicate name, reported above
                    None => {
                        ids.insert(id, (pos, persistent));
                    }
                }
            }
        }
        for (rule, msg, pos) in id_errors {
            self.error(codes::DUPLICATE_ID, rule, msg, pos);
        }
    }

    /// SPX-T287: no field of the module's own declarations has a function
    /// type. Such fields are poisoned for the later checks.
    fn check_function_fields(&mut self, decls: &[TypeDecl]) {
        for d in decls.iter().filter(|d| !d.prelude) {
            let all = d
                .fields
                .iter()
                .chain(d.cases.iter().flat_map(|k| k.fields.iter()));
            for f in all {
                if !self.poisoned.contains(&f.pos) && contains_fn(&f.ty) {
                    self.error(
                        codes::FUNCTION_FIELD,
                        "decl.function_field",
                        format!("field `{}` has a function type; function values cannot be stored in fields", f.name),
                        f.pos,
                    );
                    self.poisoned.insert(f.pos);
                }
            }
        }
    }

    /// SPX-T223: a generic record's fields are `i64`, `bool` or a bare type
    /// parameter; a monomorphic record's fields instantiate no generic
    /// record.
    fn check_generic_record(&mut self, decls: &[TypeDecl], d: &TypeDecl, poisoned: &HashSet<Pos>) {
        if d.kind != DeclKind::Record {
            return;
        }
        for f in d.fields.iter().filter(|f| !poisoned.contains(&f.pos)) {
            if !d.params.is_empty() {
                let ok = matches!(
                    &f.ty,
                    TypeExpr::Builtin(Builtin::I64 | Builtin::Bool)
                        | TypeExpr::Named {
                            target: Target::Param,
                            ..
                        }
                );
                if !ok {
                    self.error(
                        codes::GENERIC_RECORD,
                        "decl.generic_record_field",
                        format!(
                            "field `{}` of the generic record `{}` must be `i64`, `bool` or a type parameter of the record",
                            f.name, d.name
                        ),
                        f.pos,
                    );
                }
            } else if instantiates_generic_record(decls, &f.ty) {
                self.error(
                    codes::GENERIC_RECORD,
                    "decl.generic_record_instance",
                    format!(
                        "field `{}` is typed with an instance of a generic record",
                        f.name
                    ),
                    f.pos,
                );
            }
        }
    }

    /// SPX-T215 (Copy Variants, as relaxed by today's language): a variant
    /// has cases, and each payload field is admitted by
    /// [`payload_admitted`].
    fn check_variant_payloads(
        &mut self,
        decls: &[TypeDecl],
        d: &TypeDecl,
        poisoned: &HashSet<Pos>,
    ) {
        if d.kind != DeclKind::Variant {
            return;
        }
        if d.cases.is_empty() {
            self.error(
                codes::COPY_VARIANTS,
                "decl.empty_variant",
                format!("variant `{}` has no cases", d.name),
                d.pos,
            );
        }
        let payload = || d.cases.iter().flat_map(|k| k.fields.iter());
        // Today's language: a monomorphic variant may carry owned payloads.
        let owned_ok = d.params.is_empty();
        for f in payload().filter(|f| !poisoned.contains(&f.pos)) {
            if !payload_admitted(decls, &f.ty, owned_ok) {
                self.error(
                    codes::COPY_VARIANTS,
                    "decl.copy_variant_payload",
                    format!(
                        "payload field `{}` of variant `{}` is not admitted: a case payload is a Copy scalar, a type parameter of the variant, or a monomorphic record of Copy scalars (string and Bytes only in a monomorphic variant with a direct string or Bytes payload field); of the Copy scalars a schema carries bool, i32, i64, u8 and usize, while char, f32 and f64 pass this check but derivation refuses them (type.field.unsupported)",
                        f.name, d.name
                    ),
                    f.pos,
                );
                if let Some((_, e)) = self.errors.last_mut() {
                    e.help = Some(format!(
                        "give `{}` a type a schema can carry in a case payload: bool, i32, i64, u8, usize, or a record with an `@id` whose fields are those",
                        f.name
                    ));
                }
            }
        }
    }

    /// SPX-T217: no record reaches itself by value (infinite size).
    fn check_recursive_records(&mut self, decls: &[TypeDecl]) {
        let edges: Vec<Vec<usize>> = decls
            .iter()
            .map(|d| {
                let mut out = Vec::new();
                if d.kind == DeclKind::Record {
                    for f in &d.fields {
                        by_value_records(decls, &f.ty, &mut out);
                    }
                }
                out
            })
            .collect();
        let cyclic = on_a_cycle(&edges);
        // Explaining every cycle costs a search per record: only for a
        // bounded number of them.
        let explain = cyclic.iter().filter(|c| **c).count() <= 256;
        for (r, d) in decls.iter().enumerate() {
            if d.kind != DeclKind::Record || d.prelude || !cyclic.get(r).copied().unwrap_or(false) {
                continue;
            }
            let chain = if explain {
                match cycle_chain(decls, &edges, r) {
                    Some(chain) => Some(chain),
                    None => continue,
                }
            } else {
                None
            };
            let how = chain.map_or(String::new(), |c| format!(" ({c})"));
            self.error(
                codes::RECURSIVE_RECORD,
                "decl.recursive_record",
                format!(
                    "record `{}` contains itself by value{how}; it would have infinite size",
                    d.name
                ),
                d.pos,
            );
        }
    }
}

/// Whether a variant case payload field of type `ty` is admitted by Copy
/// Variants (SPX-T215) as today's language relaxes it: Copy scalars, the
/// variant's type parameters and monomorphic records of Copy scalars
/// always; owned values (`string`, `Bytes`, the builtin generics and any
/// monomorphic record, which may hold them) when `owned_ok`, that is in a
/// monomorphic variant. Nested variants, classes, resources, instances of
/// generic types, arrays, slices and functions never.
fn payload_admitted(decls: &[TypeDecl], ty: &TypeExpr, owned_ok: bool) -> bool {
    match ty {
        TypeExpr::Builtin(b) => {
            b.is_copy_scalar() || (owned_ok && matches!(b, Builtin::String | Builtin::Bytes))
        }
        TypeExpr::Container { .. } => owned_ok,
        TypeExpr::Named {
            target: Target::Param,
            ..
        } => true,
        // Foreign: resolved only in a project; derivation decides.
        TypeExpr::Named {
            target: Target::Alias { .. },
            ..
        } => true,
        TypeExpr::Named {
            target: Target::Decl(j),
            args,
            ..
        } => {
            args.is_empty()
                && (copy_only_record(decls, *j)
                    || (owned_ok
                        && decls
                            .get(*j)
                            .is_some_and(|r| r.kind == DeclKind::Record && r.params.is_empty())))
        }
        TypeExpr::Array { .. } | TypeExpr::Slice(_) | TypeExpr::Fn { .. } => false,
    }
}
