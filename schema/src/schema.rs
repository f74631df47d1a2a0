//! A derived schema: the type graph with its canonical document, revision
//! and digest.

use crate::diag::Diagnostic;
use crate::graph::TypeGraph;

/// A derived Agent Interaction Schema v1.
///
/// Holds the type graph together with the canonical document bytes (with
/// their LF), `root_type_revision` and the schema digest, all computed once.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Schema {
    pub(crate) graph: TypeGraph,
    pub(crate) document: String,
    pub(crate) revision: String,
    pub(crate) digest: String,
}

impl Schema {
    /// Renders `graph` (FORMAT.md §5). Refuses a document over 262144 bytes
    /// with SPX-Z203 `schema_bytes`.
    pub fn from_graph(graph: TypeGraph) -> Result<Schema, Diagnostic> {
        crate::render::render_schema(graph)
    }

    /// Derives the schema of `root_type_id` from a read module
    /// (FORMAT.md §4–5).
    pub fn derive(
        module: &crate::source::Module,
        root_type_id: &str,
    ) -> Result<Schema, Diagnostic> {
        Schema::from_graph(crate::derive::derive_graph(module, root_type_id)?)
    }

    /// Derives the schema of `root_type_id` from the modules of a workspace
    /// (one module, or a project's, where `use type` aliases resolve). A
    /// project gives the bytes a single module declaring the same types
    /// gives.
    pub fn derive_workspace(
        workspace: &crate::source::workspace::Workspace,
        root_type_id: &str,
    ) -> Result<Schema, Diagnostic> {
        Schema::from_graph(crate::derive::derive_workspace(workspace, root_type_id)?)
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
}
