//! spx-macros
