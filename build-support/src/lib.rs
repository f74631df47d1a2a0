//! spx-build
