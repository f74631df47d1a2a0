//! Provider stream adapters (written next).
