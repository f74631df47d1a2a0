//! Decoded values: data, never authority.

/// One decoded value. Records and variant cases keep their fields in
/// declaration order, keyed by stable id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    /// `bool`.
    Bool(bool),
    /// `i32` or `i64`.
    I64(i64),
    /// `u8` or `u64` (`usize`).
    U64(u64),
    /// `string`.
    String(String),
    /// `Bytes`.
    Bytes(Vec<u8>),
    /// A record: `(field stable id, value)` in declaration order.
    Record(Vec<(String, Value)>),
    /// A variant: the case's stable id and its fields in declaration order.
    Variant {
        /// The case's stable id.
        case: String,
        /// The case's fields.
        fields: Vec<(String, Value)>,
    },
}

impl Value {
    /// The value of the field with this stable id, for records and variants.
    pub fn field(&self, stable_id: &str) -> Option<&Value> {
        match self {
            Value::Record(fields) | Value::Variant { fields, .. } => fields
                .iter()
                .find(|(id, _)| id == stable_id)
                .map(|(_, v)| v),
            _ => None,
        }
    }
}
