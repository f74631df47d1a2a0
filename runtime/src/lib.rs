//! spx-runtime
