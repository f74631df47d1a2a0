//! Stage 4: expansion. Turns checked schemas (one per root, with display
//! names) into Rust items.
//!
//! Phases, one function each: [`generate`] names every type once, then per
//! type `type_items` emits a record (`record_items`: the struct, then its
//! `Generated` impl, `record_generated`) or a variant (`variant_items`: the
//! case names, `case_idents`; one `CaseItems` per case; the enum; then its
//! `Generated` impl, `variant_generated`); last, per root, `root_items`
//! emits the inherent items and `root_interaction` the `Interaction` impl
//! with the embedded schema (`graph_expr`).
//!
//! The generated code reaches the runtime only through its versioned
//! private module ([`private_module_name`]); the leaves are read and
//! written there by the engine's codec, so only the key literals are
//! specialised here.

use super::names::{camel, ident, snake};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use spx_schema::codec::envelope;
use spx_schema::graph::{Case, Field, FieldType, Repr, TypeKind, TypeNode};
use spx_schema::project::{Dialect, Projection};
use spx_schema::quote::quote as q;
use spx_schema::{Diagnostic, Schema};
use std::collections::HashMap;

/// The name of the runtime's private glue module that code generated for
/// `version` names: `__private_` and the version with every character other
/// than an ASCII letter or digit replaced by `_` (`0.1.0` →
/// `__private_0_1_0`).
///
/// The generated code names the module of this crate's own version, and
/// `spx-runtime` declares the module of its version (a test checks the
/// name), so a macro and a runtime of different versions do not compile
/// together (docs/MACRO.md, "Versions").
pub fn private_module_name(version: &str) -> String {
    let mut name = String::from("__private_");
    name.extend(
        version
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }),
    );
    name
}

/// The literal text before a record's first field key.
const RECORD_OPEN: &str = "{\"fields\":{";

/// A display name that cannot become a Rust identifier, or two that
/// collide. `stable_id` names the declaration, field or case at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameError {
    /// The stable id whose name is at fault.
    pub stable_id: String,
    /// What is wrong.
    pub message: String,
}

/// What a generated root carries beyond its schema.
#[derive(Debug, Clone)]
pub struct RootExtras {
    /// The draft 2020-12 projection (`PROVIDER_JSON_SCHEMA`).
    pub provider_json_schema: String,
    /// The projection for every JSON Schema dialect
    /// (`Dialect::JSON_SCHEMA`), or the refusal it met (`Root::provider`).
    pub providers: Vec<(Dialect, Result<Projection, Diagnostic>)>,
}

impl RootExtras {
    /// The extras of `schema`: its draft 2020-12 projection and its
    /// projection for every JSON Schema dialect.
    pub fn of(schema: &Schema) -> RootExtras {
        RootExtras {
            provider_json_schema: spx_schema::project::draft2020(schema),
            providers: Dialect::JSON_SCHEMA
                .iter()
                .map(|d| (*d, spx_schema::project::project(schema, *d)))
                .collect(),
        }
    }
}

struct Ctx<'a> {
    /// The path of the runtime's private module (`::spx_runtime::__private_0_1_0`).
    p: TokenStream,
    /// Rust type ident per stable id.
    types: HashMap<&'a str, Ident>,
}

/// Generates the items for `schemas` (the roots of one module, in order).
/// Types shared between roots are generated once; every type keeps the
/// name of its declaration.
pub fn generate(
    schemas: &[(Schema, RootExtras)],
    rt: &syn::Path,
) -> Result<TokenStream, Vec<NameError>> {
    let mut order: Vec<(&Schema, &TypeNode)> = Vec::new();
    for (s, _) in schemas {
        for t in &s.graph().types {
            if !order.iter().any(|(_, o)| o.stable_id == t.stable_id) {
                order.push((s, t));
            }
        }
    }
    let mut errors = Vec::new();
    let private = format_ident!("{}", private_module_name(env!("CARGO_PKG_VERSION")));
    let mut ctx = Ctx {
        p: quote!(#rt::#private),
        types: HashMap::new(),
    };
    let mut taken: HashMap<String, &str> = HashMap::new();
    for (_, t) in &order {
        let rust = camel(&t.name);
        match name_ident(&t.stable_id, &t.name, &rust, "type") {
            Ok(id) => {
                if let Some(other) = taken.insert(id.to_string(), &t.stable_id) {
                    errors.push(NameError {
                        stable_id: t.stable_id.clone(),
                        message: format!(
                            "the types `{other}` and `{}` would both be named `{id}` in Rust",
                            t.stable_id
                        ),
                    });
                }
                ctx.types.insert(&t.stable_id, id);
            }
            Err(e) => errors.push(e),
        }
    }
    let mut items = TokenStream::new();
    for (s, t) in &order {
        match type_items(&ctx, s, t) {
            Ok(ts) => items.extend(ts),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    for (s, extras) in schemas {
        items.extend(root_items(&ctx, s, extras));
    }
    Ok(items)
}

fn name_ident(stable_id: &str, name: &str, rust: &str, what: &str) -> Result<Ident, NameError> {
    if name.is_empty() {
        return Err(NameError {
            stable_id: stable_id.to_owned(),
            message: format!("the {what} `{stable_id}` has no display name"),
        });
    }
    ident(name, rust).map_err(|message| NameError {
        stable_id: stable_id.to_owned(),
        message: format!("{message} (the {what} `{stable_id}`)"),
    })
}

/// Field idents, refusing invalid names and collisions within one list.
fn field_idents(fields: &[Field]) -> Result<Vec<Ident>, Vec<NameError>> {
    let mut out = Vec::with_capacity(fields.len());
    let mut errors = Vec::new();
    for f in fields {
        match name_ident(&f.stable_id, &f.name, &snake(&f.name), "field") {
            Ok(id) => {
                let s = id.to_string();
                if let Some((prev, _)) = fields
                    .iter()
                    .zip(out.iter())
                    .find(|(_, o): &(&Field, &Ident)| o.to_string() == s)
                {
                    errors.push(NameError {
                        stable_id: f.stable_id.clone(),
                        message: format!(
                            "the fields `{}` and `{}` would both be named `{s}` in Rust",
                            prev.stable_id, f.stable_id
                        ),
                    });
                }
                out.push(id);
            }
            Err(e) => {
                errors.push(e);
                out.push(format_ident!("__spx_invalid_{}", out.len()));
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn doc(text: String) -> TokenStream {
    let text = format!(" {text}");
    quote!(#[doc = #text])
}

/// `head` as the first doc line, then, when `stable_id` is documented in
/// the `.spx` source, an empty line and that documentation.
fn documented(schema: &Schema, stable_id: &str, head: String) -> TokenStream {
    let mut out = doc(head);
    if let Some(text) = schema.docs().get(stable_id) {
        out.extend(doc(String::new()));
        for line in rustdoc_lines(text) {
            out.extend(doc(line));
        }
    }
    out
}

/// `.spx` documentation as rustdoc lines. It is prose written for a model
/// and a reader, not Markdown meant for rustdoc: `[`, `]` and `<` are
/// escaped (no intra-doc link or HTML tag is made of them), and a text that
/// would start a code block (an indented line, a fence) is shown whole in
/// a ```` ```text ```` block, so no comment ever becomes a doctest.
fn rustdoc_lines(text: &str) -> Vec<String> {
    let code_like = text.lines().any(|l| {
        let t = l.trim_start();
        l.starts_with("    ") || l.starts_with('\t') || t.starts_with("```") || t.starts_with("~~~")
    });
    if code_like {
        let mut run = 0;
        let mut longest = 0;
        for c in text.chars() {
            run = if c == '`' { run + 1 } else { 0 };
            longest = longest.max(run);
        }
        let fence = "`".repeat(longest.max(2) + 1);
        let mut out = vec![format!("{fence}text")];
        out.extend(text.lines().map(str::to_owned));
        out.push(fence);
        return out;
    }
    text.lines()
        .map(|l| {
            let mut e = String::with_capacity(l.len());
            for c in l.chars() {
                if matches!(c, '[' | ']' | '<' | '\\') {
                    e.push('\\');
                }
                e.push(c);
            }
            e
        })
        .collect()
}

fn repr_doc(schema: &Schema, ty: FieldType) -> String {
    match ty {
        FieldType::Scalar(Repr::U64) => "`u64` (`.spx` `usize`)".to_owned(),
        FieldType::Scalar(Repr::String) => "`string`, at most 4096 UTF-8 bytes".to_owned(),
        FieldType::Scalar(Repr::Bytes) => "`Bytes`, at most 4096 elements".to_owned(),
        FieldType::Scalar(r) => format!("`{}`", r.name()),
        FieldType::Nested(i) => format!(
            "nested `{}`",
            schema
                .graph()
                .types
                .get(i)
                .map_or("?", |t| t.stable_id.as_str())
        ),
    }
}

impl Ctx<'_> {
    fn nested(&self, schema: &Schema, i: usize) -> TokenStream {
        match schema
            .graph()
            .types
            .get(i)
            .and_then(|t| self.types.get(t.stable_id.as_str()))
        {
            Some(id) => quote!(#id),
            // Unreachable for a derived graph (every nested index is in range
            // and was named above); keep the expansion well-formed anyway.
            None => quote!(()),
        }
    }

    fn rust_type(&self, schema: &Schema, ty: FieldType) -> TokenStream {
        match ty {
            FieldType::Scalar(r) => match r {
                Repr::Bool => quote!(bool),
                Repr::I32 => quote!(i32),
                Repr::I64 => quote!(i64),
                Repr::U8 => quote!(u8),
                Repr::U64 => quote!(u64),
                Repr::String => quote!(::std::string::String),
                Repr::Bytes => quote!(::std::vec::Vec<u8>),
            },
            FieldType::Nested(i) => self.nested(schema, i),
        }
    }

    /// Reads one leaf or nested value at `__c`.
    fn read_expr(&self, schema: &Schema, ty: FieldType) -> TokenStream {
        let p = &self.p;
        match ty {
            FieldType::Scalar(r) => match r {
                Repr::Bool => quote!(__c.bool()?),
                Repr::I32 => quote!(__c.i32()?),
                Repr::I64 => quote!(__c.i64()?),
                Repr::U8 => quote!(__c.u8()?),
                Repr::U64 => quote!(__c.u64()?),
                Repr::String => quote!(__c.string()?),
                Repr::Bytes => quote!(__c.bytes()?),
            },
            FieldType::Nested(i) => {
                let t = self.nested(schema, i);
                quote!(<#t as #p::Generated>::read(__c)?)
            }
        }
    }

    /// Appends one value bound by reference as `v`.
    fn write_stmt(&self, schema: &Schema, ty: FieldType, v: &Ident) -> TokenStream {
        let p = &self.p;
        match ty {
            FieldType::Scalar(r) => match r {
                Repr::Bool => quote!(#p::write_bool(__out, *#v);),
                Repr::I32 => quote!(#p::write_i64(__out, ::core::convert::From::from(*#v));),
                Repr::I64 => quote!(#p::write_i64(__out, *#v);),
                Repr::U8 => quote!(#p::write_u64(__out, ::core::convert::From::from(*#v));),
                Repr::U64 => quote!(#p::write_u64(__out, *#v);),
                Repr::String => quote!(if !#p::write_string(__out, #v) { return false; }),
                Repr::Bytes => quote!(if !#p::write_bytes(__out, #v) { return false; }),
            },
            FieldType::Nested(i) => {
                let t = self.nested(schema, i);
                quote!(if !<#t as #p::Generated>::write(#v, __out) { return false; })
            }
        }
    }

    fn read_engine_value_expr(&self, schema: &Schema, f: &Field) -> TokenStream {
        let p = &self.p;
        let id = &f.stable_id;
        let v = quote!(#p::field(::core::iter::Iterator::next(&mut __it), #id)?);
        match f.ty {
            FieldType::Scalar(r) => {
                let take = format_ident!(
                    "{}",
                    match r {
                        Repr::Bool => "take_bool",
                        Repr::I32 => "take_i32",
                        Repr::I64 => "take_i64",
                        Repr::U8 => "take_u8",
                        Repr::U64 => "take_u64",
                        Repr::String => "take_string",
                        Repr::Bytes => "take_bytes",
                    }
                );
                quote!(#p::#take(#v)?)
            }
            FieldType::Nested(i) => {
                let t = self.nested(schema, i);
                quote!(<#t as #p::Generated>::from_engine_value(#v)?)
            }
        }
    }

    fn to_value_expr(&self, schema: &Schema, ty: FieldType, v: &Ident) -> TokenStream {
        let p = &self.p;
        match ty {
            FieldType::Scalar(r) => match r {
                Repr::Bool => quote!(#p::Value::Bool(*#v)),
                Repr::I32 => quote!(#p::Value::I64(::core::convert::From::from(*#v))),
                Repr::I64 => quote!(#p::Value::I64(*#v)),
                Repr::U8 => quote!(#p::Value::U64(::core::convert::From::from(*#v))),
                Repr::U64 => quote!(#p::Value::U64(*#v)),
                Repr::String => quote!(#p::Value::String(::core::clone::Clone::clone(#v))),
                Repr::Bytes => quote!(#p::Value::Bytes(::core::clone::Clone::clone(#v))),
            },
            FieldType::Nested(i) => {
                let t = self.nested(schema, i);
                quote!(<#t as #p::Generated>::to_engine_value(#v))
            }
        }
    }
}

fn locals(n: usize) -> Vec<Ident> {
    (0..n).map(|i| format_ident!("__f{}", i)).collect()
}

/// The literal and value-reading statements of one field list. `open` is
/// the literal text before the first field key; the first chunk is returned
/// separately so that a variant can match its case with it.
fn read_fields(
    ctx: &Ctx<'_>,
    schema: &Schema,
    open: &str,
    fields: &[Field],
) -> (Vec<u8>, TokenStream) {
    let mut first: Option<Vec<u8>> = None;
    let mut lit = open.to_owned();
    let mut body = TokenStream::new();
    let vars = locals(fields.len());
    for (k, (f, var)) in fields.iter().zip(&vars).enumerate() {
        if k > 0 {
            lit.push(',');
        }
        lit.push_str(&q(&f.stable_id));
        lit.push(':');
        let chunk = std::mem::take(&mut lit).into_bytes();
        if first.is_none() {
            first = Some(chunk);
        } else {
            let l = Literal::byte_string(&chunk);
            body.extend(quote!(__c.lit(#l)?;));
        }
        let e = ctx.read_expr(schema, f.ty);
        body.extend(quote!(let #var = #e;));
    }
    lit.push_str("}}");
    match first {
        None => (lit.into_bytes(), body),
        Some(first) => {
            let l = Literal::byte_string(lit.as_bytes());
            body.extend(quote!(__c.lit(#l)?;));
            (first, body)
        }
    }
}

fn write_fields(ctx: &Ctx<'_>, schema: &Schema, open: &str, fields: &[Field]) -> TokenStream {
    let mut lit = open.to_owned();
    let mut body = TokenStream::new();
    for (k, (f, var)) in fields.iter().zip(locals(fields.len())).enumerate() {
        if k > 0 {
            lit.push(',');
        }
        lit.push_str(&q(&f.stable_id));
        lit.push(':');
        let l = std::mem::take(&mut lit);
        body.extend(quote!(__out.push_str(#l);));
        body.extend(ctx.write_stmt(schema, f.ty, &var));
    }
    lit.push_str("}}");
    body.extend(quote!(__out.push_str(#lit);));
    body
}

fn to_value_fields(ctx: &Ctx<'_>, schema: &Schema, fields: &[Field]) -> TokenStream {
    let p = &ctx.p;
    let entries = fields.iter().zip(locals(fields.len())).map(|(f, var)| {
        let id = &f.stable_id;
        let e = ctx.to_value_expr(schema, f.ty, &var);
        quote!((::std::string::String::from(#id), #e))
    });
    quote!(<::std::vec::Vec<(::std::string::String, #p::Value)>>::from([#(#entries),*]))
}

/// The doc comment and derives of a generated type; `what` is `record` or
/// `variant`.
fn type_header(schema: &Schema, what: &str, t: &TypeNode) -> TokenStream {
    let tdoc = documented(
        schema,
        &t.stable_id,
        format!("`.spx` {what} `{}`, stable id `{}`.", t.name, t.stable_id),
    );
    quote! {
        #tdoc
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq, ::core::cmp::Eq, ::core::hash::Hash)]
    }
}

/// The items of one type: a record or a variant.
fn type_items(ctx: &Ctx<'_>, schema: &Schema, t: &TypeNode) -> Result<TokenStream, Vec<NameError>> {
    let Some(name) = ctx.types.get(t.stable_id.as_str()) else {
        return Ok(TokenStream::new());
    };
    match &t.kind {
        TypeKind::Record { fields } => record_items(ctx, schema, t, name, fields),
        TypeKind::Variant { cases } => variant_items(ctx, schema, t, name, cases),
    }
}

/// The declarations of `fields` (named `idents`), each with its doc
/// comment; `vis` is `pub` in a struct and empty in an enum case.
fn field_defs(
    ctx: &Ctx<'_>,
    schema: &Schema,
    fields: &[Field],
    idents: &[Ident],
    vis: &TokenStream,
) -> Vec<TokenStream> {
    fields
        .iter()
        .zip(idents)
        .map(|(f, id)| {
            let d = documented(
                schema,
                &f.stable_id,
                format!(
                    "`{}`: {}, stable id `{}`.",
                    f.name,
                    repr_doc(schema, f.ty),
                    f.stable_id
                ),
            );
            let ty = ctx.rust_type(schema, f.ty);
            quote!(#d #vis #id: #ty)
        })
        .collect()
}

/// A record: the struct, then its `Generated` impl.
fn record_items(
    ctx: &Ctx<'_>,
    schema: &Schema,
    t: &TypeNode,
    name: &Ident,
    fields: &[Field],
) -> Result<TokenStream, Vec<NameError>> {
    let idents = field_idents(fields)?;
    let header = type_header(schema, "record", t);
    let defs = field_defs(ctx, schema, fields, &idents, &quote!(pub));
    let generated = record_generated(ctx, schema, name, fields, &idents);
    Ok(quote! {
        #header
        pub struct #name {
            #(#defs,)*
        }

        #generated
    })
}

/// A record's `Generated` impl: the reader over its precomputed key
/// literals, the writer, and the conversions from/to engine values.
fn record_generated(
    ctx: &Ctx<'_>,
    schema: &Schema,
    name: &Ident,
    fields: &[Field],
    idents: &[Ident],
) -> TokenStream {
    let p = &ctx.p;
    let vars = locals(fields.len());
    let (first, rest) = read_fields(ctx, schema, RECORD_OPEN, fields);
    let first = Literal::byte_string(&first);
    let write = write_fields(ctx, schema, RECORD_OPEN, fields);
    let to_value = to_value_fields(ctx, schema, fields);
    let from = fields.iter().map(|f| ctx.read_engine_value_expr(schema, f));
    quote! {
        #[automatically_derived]
        impl #p::Generated for #name {
            #[inline]
            fn read(__c: &mut #p::Cursor<'_>) -> ::core::option::Option<Self> {
                __c.lit(#first)?;
                #rest
                ::core::option::Option::Some(Self { #(#idents: #vars),* })
            }
            fn write(&self, __out: &mut ::std::string::String) -> bool {
                let Self { #(#idents: #vars),* } = self;
                #write
                true
            }
            fn from_engine_value(__v: #p::Value) -> ::core::option::Option<Self> {
                let #p::Value::Record(__fields) = __v else {
                    return ::core::option::Option::None;
                };
                let mut __it = ::core::iter::IntoIterator::into_iter(__fields);
                #(let #vars = #from;)*
                if ::core::iter::Iterator::next(&mut __it).is_some() {
                    return ::core::option::Option::None;
                }
                ::core::option::Option::Some(Self { #(#idents: #vars),* })
            }
            fn to_engine_value(&self) -> #p::Value {
                let Self { #(#idents: #vars),* } = self;
                #p::Value::Record(#to_value)
            }
        }
    }
}

/// The Rust names of a variant's cases, and of each case's fields.
struct CaseNames {
    cases: Vec<Ident>,
    fields: Vec<Vec<Ident>>,
}

/// The [`CaseNames`] of a variant, refusing invalid names and collisions
/// (every mistake is reported, not only the first).
fn case_idents(cases: &[Case]) -> Result<CaseNames, Vec<NameError>> {
    let mut errors = Vec::new();
    let mut case_idents: Vec<Ident> = Vec::new();
    let mut field_lists = Vec::new();
    for c in cases {
        match name_ident(&c.stable_id, &c.name, &camel(&c.name), "case") {
            Ok(id) => {
                if let Some((prev, _)) = cases.iter().zip(&case_idents).find(|(_, o)| **o == id) {
                    errors.push(NameError {
                        stable_id: c.stable_id.clone(),
                        message: format!(
                            "the cases `{}` and `{}` would both be named `{id}` in Rust",
                            prev.stable_id, c.stable_id
                        ),
                    });
                }
                case_idents.push(id);
            }
            Err(e) => {
                errors.push(e);
                case_idents.push(format_ident!("__SpxInvalid{}", case_idents.len()));
            }
        }
        match field_idents(&c.fields) {
            Ok(ids) => field_lists.push(ids),
            Err(mut e) => {
                errors.append(&mut e);
                field_lists.push(Vec::new());
            }
        }
    }
    if errors.is_empty() {
        Ok(CaseNames {
            cases: case_idents,
            fields: field_lists,
        })
    } else {
        Err(errors)
    }
}

/// What one case contributes to its variant's enum and `Generated` impl.
struct CaseItems {
    /// The enum case with its docs.
    def: TokenStream,
    /// The reader's arm: matches the case id, then reads the fields.
    read: TokenStream,
    /// The writer's match arm.
    write: TokenStream,
    /// The arm of `from_engine_value`'s match on the case id.
    from: TokenStream,
    /// The arm of `to_engine_value`'s match.
    to: TokenStream,
}

impl CaseItems {
    fn new(ctx: &Ctx<'_>, schema: &Schema, c: &Case, cid: &Ident, fids: &[Ident]) -> CaseItems {
        let p = &ctx.p;
        let cdoc = documented(
            schema,
            &c.stable_id,
            format!("`{}`, stable id `{}`.", c.name, c.stable_id),
        );
        let vars = locals(c.fields.len());
        let (def, pat) = if c.fields.is_empty() {
            (quote!(#cdoc #cid), quote!(Self::#cid))
        } else {
            let fdefs = field_defs(ctx, schema, &c.fields, fids, &TokenStream::new());
            (
                quote!(#cdoc #cid { #(#fdefs,)* }),
                quote!(Self::#cid { #(#fids: #vars),* }),
            )
        };
        // The value is built with the same tokens as the pattern.
        let build = &pat;
        let open = format!("{},\"fields\":{{", q(&c.stable_id));
        let (first, rest) = read_fields(ctx, schema, &open, &c.fields);
        let first = Literal::byte_string(&first);
        let read = quote! {
            if __c.eat(#first) {
                #rest
                return ::core::option::Option::Some(#build);
            }
        };
        let w = write_fields(ctx, schema, &format!("{{\"case\":{open}"), &c.fields);
        let write = quote!(#pat => { #w });
        let from = c
            .fields
            .iter()
            .map(|f| ctx.read_engine_value_expr(schema, f));
        let cstr = &c.stable_id;
        let from = quote! {
            #cstr => {
                #(let #vars = #from;)*
                if ::core::iter::Iterator::next(&mut __it).is_some() {
                    return ::core::option::Option::None;
                }
                ::core::option::Option::Some(#build)
            }
        };
        let tv = to_value_fields(ctx, schema, &c.fields);
        let to = quote! {
            #pat => #p::Value::Variant {
                case: ::std::string::String::from(#cstr),
                fields: #tv,
            }
        };
        CaseItems {
            def,
            read,
            write,
            from,
            to,
        }
    }
}

/// A variant: the case names, the enum, then its `Generated` impl.
fn variant_items(
    ctx: &Ctx<'_>,
    schema: &Schema,
    t: &TypeNode,
    name: &Ident,
    cases: &[Case],
) -> Result<TokenStream, Vec<NameError>> {
    let names = case_idents(cases)?;
    let header = type_header(schema, "variant", t);
    let items: Vec<CaseItems> = cases
        .iter()
        .zip(&names.cases)
        .zip(&names.fields)
        .map(|((c, cid), fids)| CaseItems::new(ctx, schema, c, cid, fids))
        .collect();
    let defs = items.iter().map(|i| &i.def);
    let generated = variant_generated(ctx, name, &items);
    Ok(quote! {
        #header
        pub enum #name {
            #(#defs,)*
        }

        #generated
    })
}

/// A variant's `Generated` impl, from the pieces of its cases.
fn variant_generated(ctx: &Ctx<'_>, name: &Ident, items: &[CaseItems]) -> TokenStream {
    let p = &ctx.p;
    let reads = items.iter().map(|i| &i.read);
    let writes = items.iter().map(|i| &i.write);
    let froms = items.iter().map(|i| &i.from);
    let tos = items.iter().map(|i| &i.to);
    quote! {
        #[automatically_derived]
        impl #p::Generated for #name {
            #[inline]
            fn read(__c: &mut #p::Cursor<'_>) -> ::core::option::Option<Self> {
                __c.lit(b"{\"case\":")?;
                #(#reads)*
                ::core::option::Option::None
            }
            fn write(&self, __out: &mut ::std::string::String) -> bool {
                match self {
                    #(#writes)*
                }
                true
            }
            fn from_engine_value(__v: #p::Value) -> ::core::option::Option<Self> {
                let #p::Value::Variant { case: __case, fields: __fields } = __v else {
                    return ::core::option::Option::None;
                };
                let mut __it = ::core::iter::IntoIterator::into_iter(__fields);
                match __case.as_str() {
                    #(#froms)*
                    _ => ::core::option::Option::None,
                }
            }
            fn to_engine_value(&self) -> #p::Value {
                match self {
                    #(#tos,)*
                }
            }
        }
    }
}

/// A root's graph as literal code: the engine's graph without display names
/// (as its schema document reads back), for `Interaction::schema()`.
fn graph_expr(p: &TokenStream, schema: &Schema) -> TokenStream {
    let fields = |fields: &[Field]| {
        let fields = fields.iter().map(|f| {
            let id = &f.stable_id;
            let ty = match f.ty {
                FieldType::Scalar(r) => {
                    let r = format_ident!(
                        "{}",
                        match r {
                            Repr::Bool => "Bool",
                            Repr::I32 => "I32",
                            Repr::I64 => "I64",
                            Repr::U8 => "U8",
                            Repr::U64 => "U64",
                            Repr::String => "String",
                            Repr::Bytes => "Bytes",
                        }
                    );
                    quote!(#p::FieldType::Scalar(#p::Repr::#r))
                }
                FieldType::Nested(i) => {
                    let i = Literal::usize_unsuffixed(i);
                    quote!(#p::FieldType::Nested(#i))
                }
            };
            quote!(#p::graph_field(#id, #ty))
        });
        quote!(::std::vec::Vec::from([#(#fields),*]))
    };
    let nodes = schema.graph().types.iter().map(|t| {
        let id = &t.stable_id;
        match &t.kind {
            TypeKind::Record { fields: fs } => {
                let fs = fields(fs);
                quote!(#p::graph_record(#id, #fs))
            }
            TypeKind::Variant { cases } => {
                let cases = cases.iter().map(|c| {
                    let cid = &c.stable_id;
                    let fs = fields(&c.fields);
                    quote!(#p::graph_case(#cid, #fs))
                });
                quote!(#p::graph_variant(#id, ::std::vec::Vec::from([#(#cases),*])))
            }
        }
    });
    quote!(::std::vec::Vec::from([#(#nodes),*]))
}

/// A root's inherent items (constants, `decode`, `encode`) and its
/// `Interaction` impl.
fn root_items(ctx: &Ctx<'_>, schema: &Schema, extras: &RootExtras) -> TokenStream {
    let p = &ctx.p;
    let Some(name) = ctx.types.get(schema.root_type_id()) else {
        return TokenStream::new();
    };
    let root_id = schema.root_type_id();
    let revision = schema.revision();
    let digest = schema.digest();
    let json = schema.document();
    let provider = extras.provider_json_schema.as_str();
    let prefix = envelope::prefix(root_id, digest);
    let prefix_bytes = Literal::byte_string(prefix.as_bytes());
    let interaction = root_interaction(ctx, schema, name);
    let providers = extras.providers.iter().map(|(d, p)| provided(ctx, *d, p));
    let count = Literal::usize_unsuffixed(extras.providers.len());
    quote! {
        impl #name {
            /// The root's stable id.
            pub const ROOT_TYPE_ID: &'static str = #root_id;
            /// `root_type_revision` of the schema.
            pub const ROOT_TYPE_REVISION: &'static str = #revision;
            /// The schema digest (the pin).
            pub const SCHEMA_DIGEST: &'static str = #digest;
            /// The canonical schema document, ending with its LF.
            pub const SCHEMA_JSON: &'static str = #json;
            /// The JSON Schema (draft 2020-12) projection, ending with its LF.
            /// Presentation only: `decode` never reads it.
            pub const PROVIDER_JSON_SCHEMA: &'static str = #provider;

            /// Strictly decodes a canonical value document of this root. The
            /// result is identical to the engine's decoder: the same value,
            /// or the same code, rule and JSON Pointer.
            pub fn decode(bytes: &[u8]) -> ::core::result::Result<Self, #p::Diagnostic> {
                #p::decode::<Self>(bytes, #prefix_bytes, <Self as #p::Interaction>::schema)
            }

            /// Encodes the canonical value document (with its LF); refuses
            /// values over the bounds with the engine's SPX-Z206 rules.
            pub fn encode(&self) -> ::core::result::Result<::std::string::String, #p::Diagnostic> {
                #p::encode::<Self>(self, #prefix, <Self as #p::Interaction>::schema)
            }

            /// Admits raw provider output written against `dialect`'s
            /// projection (any JSON layout; the dialect's safe keys or the
            /// stable ids) straight into the typed value. A refusal names
            /// the code, rule and JSON Pointer into the answer, with a
            /// detail for the model (`Diagnostic::for_model`).
            pub fn admit(
                dialect: #p::Dialect,
                bytes: &[u8],
            ) -> ::core::result::Result<Self, #p::Diagnostic> {
                static KEYS: #p::KeyMaps = #p::KeyMaps::new();
                #p::admit::<Self>(dialect, bytes, <Self as #p::Interaction>::schema, &KEYS)
            }

            /// The projection for `dialect`, computed when the macro
            /// expanded, with its schema name and loss and key report; the
            /// refusal (SPX-Z207) when the schema exceeds a documented
            /// limit of the provider.
            pub fn provider(
                dialect: #p::Dialect,
            ) -> ::core::result::Result<&'static #p::ProviderSchema, #p::Diagnostic> {
                static PROVIDERS: [#p::Provided; #count] = [#(#providers),*];
                #p::provided(&PROVIDERS, dialect)
            }

            /// The document to send for `dialect`: `provider(dialect)`'s,
            /// or the empty string when the provider's limits refuse this
            /// schema.
            pub fn provider_schema(dialect: #p::Dialect) -> &'static str {
                match Self::provider(dialect) {
                    ::core::result::Result::Ok(p) => p.document,
                    ::core::result::Result::Err(_) => "",
                }
            }
        }

        #interaction
    }
}

/// A root's `Interaction` impl; its schema is built once from the graph
/// the macro derived (no parsing or hashing at run time).
fn root_interaction(ctx: &Ctx<'_>, schema: &Schema, name: &Ident) -> TokenStream {
    let p = &ctx.p;
    let root_id = schema.root_type_id();
    let revision = schema.revision();
    let digest = schema.digest();
    let graph = graph_expr(p, schema);
    quote! {
        #[automatically_derived]
        impl #p::Interaction for #name {
            const ROOT_TYPE_ID: &'static str = #root_id;
            const ROOT_TYPE_REVISION: &'static str = #revision;
            const SCHEMA_DIGEST: &'static str = #digest;
            const SCHEMA_JSON: &'static str = <#name>::SCHEMA_JSON;
            const PROVIDER_JSON_SCHEMA: &'static str = <#name>::PROVIDER_JSON_SCHEMA;

            fn decode(bytes: &[u8]) -> ::core::result::Result<Self, #p::Diagnostic> {
                <#name>::decode(bytes)
            }
            fn encode(&self) -> ::core::result::Result<::std::string::String, #p::Diagnostic> {
                <#name>::encode(self)
            }
            fn schema() -> &'static #p::Schema {
                static SCHEMA: #p::LazyLock<#p::Schema> = #p::LazyLock::new(|| {
                    #p::schema(
                        #graph,
                        <#name>::SCHEMA_JSON,
                        <#name>::ROOT_TYPE_REVISION,
                        <#name>::SCHEMA_DIGEST,
                    )
                });
                &SCHEMA
            }
            fn to_value(&self) -> #p::Value {
                <Self as #p::Generated>::to_engine_value(self)
            }
            fn admit(
                dialect: #p::Dialect,
                bytes: &[u8],
            ) -> ::core::result::Result<Self, #p::Diagnostic> {
                <#name>::admit(dialect, bytes)
            }
            fn provider(
                dialect: #p::Dialect,
            ) -> ::core::result::Result<&'static #p::ProviderSchema, #p::Diagnostic> {
                <#name>::provider(dialect)
            }
        }
    }
}

/// The `Dialect` variant as code.
fn dialect_expr(p: &TokenStream, d: Dialect) -> TokenStream {
    let v = format_ident!(
        "{}",
        match d {
            Dialect::Draft2020 => "Draft2020",
            Dialect::OpenAi => "OpenAi",
            Dialect::Anthropic => "Anthropic",
            Dialect::Gemini => "Gemini",
            Dialect::Lark => "Lark",
        }
    );
    quote!(#p::Dialect::#v)
}

/// One precomputed projection (or its refusal) as a `Provided` constant.
fn provided(ctx: &Ctx<'_>, d: Dialect, p: &Result<Projection, Diagnostic>) -> TokenStream {
    let pm = &ctx.p;
    let dialect = dialect_expr(pm, d);
    match p {
        Ok(p) => {
            let document = p.document.as_str();
            let report = p.report_json(d);
            let name = match &p.schema_name {
                Some(n) => quote!(::core::option::Option::Some(#n)),
                None => quote!(::core::option::Option::None),
            };
            quote! {
                #pm::Provided::Schema(#pm::ProviderSchema {
                    dialect: #dialect,
                    document: #document,
                    schema_name: #name,
                    report: #report,
                })
            }
        }
        Err(e) => {
            let code = e.code.as_str();
            let rule = e.rule;
            let message = e.message.as_str();
            let detail = e.detail.as_deref().unwrap_or("");
            quote! {
                #pm::Provided::Refused {
                    dialect: #dialect,
                    code: #code,
                    rule: #rule,
                    message: #message,
                    detail: #detail,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::private_module_name;

    #[test]
    fn the_private_module_is_named_after_the_whole_version() {
        assert_eq!(private_module_name("0.1.0"), "__private_0_1_0");
        assert_eq!(private_module_name("1.20.3"), "__private_1_20_3");
        assert_eq!(
            private_module_name("0.2.0-rc.1+build.7"),
            "__private_0_2_0_rc_1_build_7"
        );
    }
}
