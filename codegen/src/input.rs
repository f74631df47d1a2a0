//! Stage 1: the macro's arguments.
//!
//! ```text
//! source: "agents/planner.spx",
//! root: "planner.proposal", digest: "sha256:…",
//! root: "planner.other",
//! crate = ::spx_runtime,
//! ```

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token};

mod kw {
    syn::custom_keyword!(source);
    syn::custom_keyword!(root);
    syn::custom_keyword!(digest);
}

/// One `root: …` with its optional `digest: …`.
#[derive(Clone)]
pub struct RootArg {
    /// The root's stable id.
    pub root: LitStr,
    /// The pin, when given in the macro.
    pub digest: Option<LitStr>,
}

/// The parsed arguments of `spx_interaction!`.
#[derive(Clone)]
pub struct MacroInput {
    /// The `.spx` path, relative to the calling crate's manifest directory.
    pub source: Option<LitStr>,
    /// The roots in the order given.
    pub roots: Vec<RootArg>,
    /// The runtime path (`crate = path`), default `::spx_runtime`.
    pub krate: Option<syn::Path>,
    /// Mistakes that did not stop parsing (duplicate and unknown keys,
    /// malformed values), reported together with any later ones.
    pub errors: Vec<syn::Error>,
    /// The span of the whole invocation, for "missing key" errors.
    pub span: Span,
    /// A `source` key was written (even with a malformed value).
    pub saw_source: bool,
    /// A `root` key was written (even with a malformed value).
    pub saw_root: bool,
}

const EXPECTED: &str = "expected one of `source`, `root`, `digest`, `crate`";

impl Parse for MacroInput {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let mut out = MacroInput {
            source: None,
            roots: Vec::new(),
            krate: None,
            errors: Vec::new(),
            span: proc_macro2::Span::call_site(),
            saw_source: false,
            saw_root: false,
        };
        match parse_keys(input, &mut out) {
            Ok(()) => Ok(out),
            // A syntax error stops parsing; report it with every mistake
            // collected before it.
            Err(e) => {
                let mut all = out.errors.into_iter();
                let mut first = match all.next() {
                    Some(f) => f,
                    None => return Err(e),
                };
                all.for_each(|x| first.combine(x));
                first.combine(e);
                Err(first)
            }
        }
    }
}

fn parse_keys(input: ParseStream<'_>, out: &mut MacroInput) -> syn::Result<()> {
    {
        while !input.is_empty() {
            let look = input.lookahead1();
            if look.peek(kw::source) {
                let key: kw::source = input.parse()?;
                input.parse::<Token![:]>()?;
                out.saw_source = true;
                let lit = parse_lit(input, &mut out.errors)?;
                if out.source.is_some() {
                    out.errors.push(syn::Error::new(
                        key.span,
                        "duplicate key `source`: a macro call reads exactly one `.spx` file",
                    ));
                } else {
                    out.source = lit;
                }
            } else if look.peek(kw::root) {
                let _key: kw::root = input.parse()?;
                input.parse::<Token![:]>()?;
                out.saw_root = true;
                if let Some(lit) = parse_lit(input, &mut out.errors)? {
                    if out.roots.iter().any(|r| r.root.value() == lit.value()) {
                        out.errors.push(syn::Error::new(
                            lit.span(),
                            format!("duplicate root `{}`", lit.value()),
                        ));
                    } else {
                        out.roots.push(RootArg {
                            root: lit,
                            digest: None,
                        });
                    }
                }
            } else if look.peek(kw::digest) {
                let key: kw::digest = input.parse()?;
                input.parse::<Token![:]>()?;
                let lit = parse_lit(input, &mut out.errors)?;
                match out.roots.last_mut() {
                    None => out.errors.push(syn::Error::new(
                        key.span,
                        "`digest` must follow the `root` it pins",
                    )),
                    Some(r) if r.digest.is_some() => out.errors.push(syn::Error::new(
                        key.span,
                        format!("duplicate key `digest` for root `{}`", r.root.value()),
                    )),
                    Some(r) => {
                        if let Some(lit) = lit {
                            if is_digest(&lit.value()) {
                                r.digest = Some(lit);
                            } else {
                                out.errors.push(syn::Error::new(
                                    lit.span(),
                                    "malformed digest: expected `sha256:` followed by 64 lowercase hex digits",
                                ));
                            }
                        }
                    }
                }
            } else if look.peek(Token![crate]) {
                let key: Token![crate] = input.parse()?;
                let sep = input.lookahead1();
                if sep.peek(Token![=]) {
                    input.parse::<Token![=]>()?;
                } else if sep.peek(Token![:]) {
                    input.parse::<Token![:]>()?;
                } else {
                    return Err(sep.error());
                }
                let path = syn::Path::parse_mod_style(input)?;
                if out.krate.is_some() {
                    out.errors
                        .push(syn::Error::new(key.span, "duplicate key `crate`"));
                } else {
                    out.krate = Some(path);
                }
            } else if input.peek(syn::Ident::peek_any)
                && (input.peek2(Token![:]) || input.peek2(Token![=]))
            {
                let key: syn::Ident = input.call(syn::ext::IdentExt::parse_any)?;
                out.errors.push(syn::Error::new(
                    key.span(),
                    format!("unknown key `{key}`, {EXPECTED}"),
                ));
                // Skip the value so that later keys are still checked.
                input.parse::<proc_macro2::TokenTree>()?;
                while !input.is_empty() && !input.peek(Token![,]) {
                    input.parse::<proc_macro2::TokenTree>()?;
                }
            } else {
                return Err(look.error());
            }
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        Ok(())
    }
}

/// A string literal value; anything else is recorded as an error and
/// skipped (up to the next comma).
fn parse_lit(input: ParseStream<'_>, errors: &mut Vec<syn::Error>) -> syn::Result<Option<LitStr>> {
    if input.peek(LitStr) {
        return Ok(Some(input.parse()?));
    }
    if input.is_empty() || input.peek(Token![,]) {
        return Err(input.error("expected a string literal"));
    }
    let tt: proc_macro2::TokenTree = input.parse()?;
    errors.push(syn::Error::new(tt.span(), "expected a string literal"));
    while !input.is_empty() && !input.peek(Token![,]) {
        input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(None)
}

/// `sha256:` and 64 lowercase hex digits.
pub fn is_digest(s: &str) -> bool {
    s.strip_prefix("sha256:").is_some_and(|h| {
        h.len() == 64
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}
