//! # spx-schema — the engine
//!
//! One library holds every stage, so that the macro, the build helper, the
//! CLI and the runtime can never disagree:
//!
//! | stage | module |
//! |---|---|
//! | `.spx` lexing, parsing, declaration checks | [`source`] |
//! | derivation of the type graph (SPX-Z202) | [`derive`] |
//! | canonical schema document, revision, digest (Z203/Z204) | [`render`], [`schema`] |
//! | source binding (snapshot, re-check) | [`binding`] |
//! | leaf readers and writers of the canonical value form, the envelope | [`codec`] (with [`quote`], [`scalar`]) |
//! | strict decoding of value documents (Z205/Z206) | [`decode`] |
//! | canonical encoding | [`encode`] |
//! | provider projections and dialect adapters | [`project`] |
//! | admission of raw provider output | [`admit`] |
//! | streaming: decoding and admission as the bytes arrive, events, provider SSE adapters | [`stream`] |
//! | the one JSON reader, used by decoding, admission and the adapters | `json` (crate-private) |
//! | the §7 value walk shared by decoding and admission | `walk` (crate-private) |
//! | pins: `spx.lock`, pinned documents, source paths, pin policy and plan, every pin diagnostic | [`lock`] |
//! | structural diff by stable id, drift messages | [`diff`] |
//!
//! ```
//! let module = spx_schema::source::read_module(
//!     "geo.spx",
//!     "module geo;\n@id(\"geo.point\")\nrecord Point {\n    @id(\"geo.point.x\")\n    x: i64,\n}\n",
//! ).unwrap();
//! let schema = spx_schema::Schema::derive(&module, "geo.point").unwrap();
//! assert!(schema.document().starts_with("{\"schema\":\"semaprax.agent-interaction-schema.v1\""));
//! ```
#![deny(missing_docs)]
// `unsafe` is denied in the whole crate and forbidden in every module but
// `codec`, whose private `simd` module alone allows it (the SIMD kernels of
// the codec: codec/simd.rs says why). A new module gets `forbid` too.
#![deny(unsafe_code)]

#[forbid(unsafe_code)]
pub mod admit;
#[forbid(unsafe_code)]
pub mod binding;
pub mod codec;
#[forbid(unsafe_code)]
pub mod decode;
#[forbid(unsafe_code)]
pub mod derive;
#[forbid(unsafe_code)]
pub mod diag;
#[forbid(unsafe_code)]
pub mod diff;
#[forbid(unsafe_code)]
pub mod encode;
#[forbid(unsafe_code)]
pub mod graph;
#[forbid(unsafe_code)]
pub(crate) mod json;
#[forbid(unsafe_code)]
pub mod lock;
#[forbid(unsafe_code)]
pub mod project;
#[forbid(unsafe_code)]
pub mod render;
#[forbid(unsafe_code)]
pub mod schema;
#[forbid(unsafe_code)]
pub mod source;
#[forbid(unsafe_code)]
pub mod stream;
#[forbid(unsafe_code)]
pub(crate) mod suggest;
#[forbid(unsafe_code)]
pub mod value;
#[forbid(unsafe_code)]
pub(crate) mod walk;

/// Canonical string quoting and JSON Pointer tokens ([`codec::quote`]).
pub use codec::quote;
/// The decimal-integer rule and integer ranges ([`codec::scalar`]).
pub use codec::scalar;

pub use diag::{Code, Diagnostic, Location, Severity};
pub use graph::{Case, Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
pub use schema::Schema;
pub use value::Value;
