//! A diagnostic in words meant for the model that wrote the refused text:
//! the re-ask feedback of an agent host ([`Diagnostic::for_model`]).

use super::{Diagnostic, Location};

/// What a rule of admission (or decoding) means, in words a model reads.
pub fn rule_in_words(rule: &str) -> &'static str {
    match rule {
        "document_bytes" => "the answer is longer than the 65536 bytes admitted",
        "utf8" => "the answer is not valid UTF-8",
        "json.syntax" => "the answer is not valid JSON",
        "duplicate_key" => "a key occurs twice in one object",
        "value.shape" => "a value does not have the shape the schema requires",
        "value.case" => "a case that the schema does not declare",
        "value.fields.unknown" => "a field that the schema does not declare",
        "value.fields.missing" => "a required field is missing",
        "value.representation" => "a value has the wrong JSON type",
        "value.string_bytes" => "a string is longer than 4096 UTF-8 bytes",
        "value.bytes_length" => "a byte array has more than 4096 elements",
        "value.bytes_element" => "a byte array holds something other than an integer from 0 to 255",
        "value.integer" => "an integer is not written in its canonical decimal form",
        "value.integer_range" => "an integer is outside the range of its type",
        "value.max_depth" => "the value nests deeper than the schema allows",
        _ => "the answer breaks a rule of the schema",
    }
}

impl Diagnostic {
    /// The refusal as one short paragraph for the model that wrote the
    /// text: where (the JSON Pointer into its answer, with the keys it was
    /// given), the rule in words, what was expected and what was found,
    /// and what to do.
    ///
    /// ```
    /// use spx_schema::Diagnostic;
    /// let d = Diagnostic::z206("value.integer_range")
    ///     .at_pointer("/fields/p.n")
    ///     .with_detail("/fields/p.n: expected a decimal string integer between 0 and 255, got \"300\"");
    /// assert_eq!(
    ///     d.for_model(),
    ///     "Your answer was refused at /fields/p.n: an integer is outside the range of its type \
    ///      (rule value.integer_range). Expected a decimal string integer between 0 and 255, got \
    ///      \"300\". Answer again with the whole JSON value, corrected."
    /// );
    /// ```
    pub fn for_model(&self) -> String {
        let at = match &self.location {
            Location::Pointer(p) if p.is_empty() => "(root)".to_owned(),
            Location::Pointer(p) => p.clone(),
            _ => "(root)".to_owned(),
        };
        let mut s = format!(
            "Your answer was refused at {at}: {} (rule {}).",
            rule_in_words(self.rule),
            self.rule
        );
        let said = match &self.detail {
            Some(d) => d.strip_prefix(&format!("{at}: ")).unwrap_or(d).to_owned(),
            None => self.message.clone(),
        };
        let mut chars = said.chars();
        if let Some(first) = chars.next() {
            s.push(' ');
            s.extend(first.to_uppercase());
            s.push_str(chars.as_str());
            if !said.ends_with('.') {
                s.push('.');
            }
        }
        s.push_str(" Answer again with the whole JSON value, corrected.");
        s
    }
}
