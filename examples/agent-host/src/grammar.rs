//! The grammar mode of the scripted provider (`--grammar`, or
//! `SPX_AGENT_GRAMMAR=1`): instead of playing back canned responses, the
//! provider writes its answer by sampling under the schema's Lark grammar
//! (`Dialect::Lark`, docs/GRAMMARS.md), the way a local model constrained
//! by llguidance would. llguidance runs with toktrie's byte-level
//! tokenizer, so each "token" is one byte and nothing is downloaded; the
//! "model" picks uniformly among the bytes the grammar allows, preferring
//! to close strings and arrays so that answers stay short.
//!
//! Because the grammar's language is exactly the canonical value
//! documents, the host needs no admission step: every answer is decoded by
//! the strict decoder as it is.

use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use toktrie::{ApproximateTokEnv, TokenId};

/// A provider whose "model" samples under a grammar.
pub struct GrammarProvider {
    matcher: Matcher,
    eos: TokenId,
    state: u64,
}

impl GrammarProvider {
    /// Compiles `lark` for a byte-level tokenizer; `seed` makes the answers
    /// reproducible.
    pub fn new(lark: &str, seed: u64) -> Result<GrammarProvider, String> {
        let env = ApproximateTokEnv::single_byte_env();
        let eos = env.tok_trie().eos_token();
        let mut factory = ParserFactory::new_simple(&env).map_err(|e| e.to_string())?;
        factory.set_stderr_log_level(0);
        let parser = factory.create_parser(TopLevelGrammar::from_lark(lark.to_owned()));
        let matcher = Matcher::new(parser);
        if let Some(e) = matcher.get_error() {
            return Err(format!("llguidance refused the grammar: {e}"));
        }
        Ok(GrammarProvider {
            matcher,
            eos,
            state: seed | 1,
        })
    }

    fn below(&mut self, n: usize) -> usize {
        // xorshift64*
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        (self.state.wrapping_mul(0x2545_f491_4f6c_dd1d) % n.max(1) as u64) as usize
    }

    /// One answer: the bytes the grammar forces, and at every choice one of
    /// the bytes it allows, until it allows only the end.
    pub fn complete(&mut self) -> Result<Vec<u8>, String> {
        let mut m = self.matcher.clone();
        let mut out = Vec::new();
        loop {
            for t in m.consume_ff_tokens() {
                out.push(t as u8);
            }
            if let Some(e) = m.get_error() {
                return Err(e);
            }
            if m.is_stopped() {
                return Ok(out);
            }
            let mask = m.compute_mask().map_err(|e| e.to_string())?;
            let mut bytes = Vec::new();
            let mut closing = Vec::new();
            mask.iter_set_entries(|t| {
                if t < 256 {
                    bytes.push(t as TokenId);
                    if t == usize::from(b'"') || t == usize::from(b']') {
                        closing.push(t as TokenId);
                    }
                }
            });
            if bytes.is_empty() {
                return if mask.is_allowed(self.eos) {
                    Ok(out)
                } else {
                    Err("the grammar allows nothing".into())
                };
            }
            let t = if !closing.is_empty() && self.below(4) == 0 {
                closing[self.below(closing.len())]
            } else {
                bytes[self.below(bytes.len())]
            };
            m.consume_token(t).map_err(|e| e.to_string())?;
            out.push(t as u8);
        }
    }
}
