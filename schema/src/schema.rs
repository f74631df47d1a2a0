//! A derived schema: the type graph with its canonical document, revision
//! and digest.

use crate::diag::Diagnostic;
use crate::graph::{TypeGraph, TypeKind};
use crate::source::Docs;

/// A derived Agent Interaction Schema v1.
///
/// Holds the type graph together with the canonical document bytes (with
/// their LF), `root_type_revision` and the schema digest, all computed once,
/// and, beside them, the `.spx` documentation of its types, fields and
/// cases ([`Schema::docs`]).
///
/// Documentation is not identity: it is in neither the document, the
/// revision nor the digest, and two schemas that differ only in it are
/// equal (`==`, and they hash alike).
#[derive(Debug, Clone)]
pub struct Schema {
    pub(crate) graph: TypeGraph,
    pub(crate) document: String,
    pub(crate) revision: String,
    pub(crate) digest: String,
    pub(crate) docs: Docs,
    /// What the streams need, computed on first use.
    pub(crate) stream: StreamPlan,
}

/// The streams' plan of a schema ([`crate::stream`]), computed on first
/// use and kept with it. It is derived from the other parts, so it takes
/// no part in comparisons or hashing, and a clone computes its own.
#[derive(Debug, Default)]
pub(crate) struct StreamPlan(std::sync::OnceLock<crate::stream::Plan>);

impl Clone for StreamPlan {
    fn clone(&self) -> Self {
        StreamPlan::default()
    }
}

impl PartialEq for Schema {
    fn eq(&self, other: &Schema) -> bool {
        self.graph == other.graph
            && self.document == other.document
            && self.revision == other.revision
            && self.digest == other.digest
    }
}

impl Eq for Schema {}

impl std::hash::Hash for Schema {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.graph.hash(state);
        self.document.hash(state);
        self.revision.hash(state);
        self.digest.hash(state);
    }
}

impl Schema {
    /// Renders `graph` (FORMAT.md §5). Refuses a document over 262144 bytes
    /// with SPX-Z203 `schema_bytes`.
    pub fn from_graph(graph: TypeGraph) -> Result<Schema, Diagnostic> {
        crate::render::render_schema(graph)
    }

    /// Derives the schema of `root_type_id` from a read module
    /// (FORMAT.md §4–5), with the module's documentation of every type,
    /// field and case of the graph ([`Schema::docs`]).
    pub fn derive(
        module: &crate::source::Module,
        root_type_id: &str,
    ) -> Result<Schema, Diagnostic> {
        let schema = Schema::from_graph(crate::derive::derive_graph(module, root_type_id)?)?;
        let docs = module.docs.filtered(|id| schema.declares(id));
        Ok(schema.with_docs(docs))
    }

    /// This schema with `docs` as its documentation (replacing any). Only
    /// presentation changes: the document, revision and digest stay.
    pub fn with_docs(mut self, docs: Docs) -> Schema {
        self.docs = docs;
        self
    }

    /// The documentation of the graph's types, fields and cases, by stable
    /// id: filled by [`Schema::derive`] from the `.spx` comments
    /// (`docs/SOURCE.md`, "Documentation"); empty for a schema read back
    /// from a document ([`Schema::parse_document`]) or built from a graph.
    pub fn docs(&self) -> &Docs {
        &self.docs
    }

    /// True when `stable_id` is the id of a type, case or field of the
    /// graph.
    fn declares(&self, stable_id: &str) -> bool {
        self.graph.types.iter().any(|t| {
            t.stable_id == stable_id
                || match &t.kind {
                    TypeKind::Record { fields } => fields.iter().any(|f| f.stable_id == stable_id),
                    TypeKind::Variant { cases } => cases.iter().any(|c| {
                        c.stable_id == stable_id
                            || c.fields.iter().any(|f| f.stable_id == stable_id)
                    }),
                }
        })
    }

    /// Derives the schema of `root_type_id` from the modules of a workspace
    /// (one module, or a project's, where `use type` aliases resolve). A
    /// project gives the bytes a single module declaring the same types
    /// gives, documentation included ([`Schema::docs`]: every module's
    /// documentation of the graph's types, fields and cases).
    pub fn derive_workspace(
        workspace: &crate::source::workspace::Workspace,
        root_type_id: &str,
    ) -> Result<Schema, Diagnostic> {
        let schema = Schema::from_graph(crate::derive::derive_workspace(workspace, root_type_id)?)?;
        let mut docs = Docs::new();
        for module in &workspace.modules {
            for (id, text) in module.docs.iter() {
                if schema.declares(id) {
                    docs.insert(id, text);
                }
            }
        }
        Ok(schema.with_docs(docs))
    }

    /// Reads a canonical schema document back (for example a pinned one, or
    /// the `SCHEMA_JSON` embedded in generated code). The result carries no
    /// display names. Refuses anything that does not re-render to exactly
    /// the given bytes with SPX-Z204.
    pub fn parse_document(bytes: &[u8]) -> Result<Schema, Diagnostic> {
        crate::render::parse_schema_document(bytes)
    }

    /// Assembles a schema from parts the caller already derived and checked:
    /// nothing is parsed, rendered or hashed, and nothing can fail.
    ///
    /// Not a public API: it exists for the code `spx_interaction!`
    /// generates, which passes the graph the macro derived (as literal code,
    /// without display names, exactly as [`Schema::parse_document`] would
    /// read it) together with that graph's canonical document, revision and
    /// digest, all computed by this engine at expansion time. Any other
    /// caller must use [`Schema::from_graph`] or [`Schema::parse_document`],
    /// which establish that the parts agree.
    #[doc(hidden)]
    pub fn from_derived_parts(
        graph: TypeGraph,
        document: &str,
        revision: &str,
        digest: &str,
    ) -> Schema {
        Schema {
            graph,
            document: document.to_owned(),
            revision: revision.to_owned(),
            digest: digest.to_owned(),
            docs: Docs::new(),
            stream: StreamPlan::default(),
        }
    }

    /// The type graph.
    pub fn graph(&self) -> &TypeGraph {
        &self.graph
    }

    /// The canonical document, ending with its LF.
    pub fn document(&self) -> &str {
        &self.document
    }

    /// `root_type_revision` (`sha256:…`).
    pub fn revision(&self) -> &str {
        &self.revision
    }

    /// The schema digest (`sha256:…`) over the whole document.
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// The root's stable id.
    pub fn root_type_id(&self) -> &str {
        self.graph.root_type_id()
    }

    /// The streams' plan of this schema, computed on first use.
    pub(crate) fn stream_plan(&self) -> &crate::stream::Plan {
        self.stream.0.get_or_init(|| crate::stream::Plan::new(self))
    }
}
