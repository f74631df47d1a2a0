//! The re-ask loop: ask a provider, admit its answer, and when admission
//! refuses it, tell the model exactly what to fix and ask again.
//!
//! Provider-neutral: the loop knows messages (a role and a text), not any
//! provider's API. The host gives a closure that sends the conversation to
//! its provider (with the schema of `Root::provider_schema`) and returns the
//! raw bytes of the answer; [`ask`] admits them with `Root::admit`, and on
//! a refusal appends the answer (as the assistant's turn) and the
//! diagnostic rendered for the model ([`Diagnostic::for_model`], with the
//! keys the model was given), then calls the closure again, at most
//! `retries` more times.
//!
//! ```
//! use spx_runtime::reask::{ask, Message};
//! use spx_runtime::{Dialect, Interaction};
//! # fn demo<Proposal: Interaction>() {
//! let mut conversation = vec![Message::user("Propose the next step.")];
//! let mut answers = vec![&b"{\"fields\":{}}"[..]].into_iter();
//! let result = ask::<Proposal, _>(Dialect::OpenAi, 2, &mut conversation, |_messages| {
//!     // A real host sends `_messages` and `Proposal::provider_schema(Dialect::OpenAi)`.
//!     answers.next().map(<[u8]>::to_vec).ok_or("the provider hung up")
//! });
//! # let _ = result;
//! # }
//! ```

use crate::{Dialect, Interaction};
use spx_schema::Diagnostic;
use std::fmt;

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The host (the prompt, and the feedback on a refused answer).
    User,
    /// The model (its answers, as received).
    Assistant,
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// What it says.
    pub content: String,
}

impl Message {
    /// A message of the host.
    pub fn user(content: impl Into<String>) -> Message {
        Message {
            role: Role::User,
            content: content.into(),
        }
    }

    /// A message of the model.
    pub fn assistant(content: impl Into<String>) -> Message {
        Message {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// Why [`ask`] returned no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskError<E> {
    /// Every answer was refused: one diagnostic per answer, in order
    /// (`retries + 1` of them).
    Refused(Vec<Diagnostic>),
    /// The provider failed; `refused` holds the diagnostics of the answers
    /// refused before.
    Provider {
        /// The provider's error.
        error: E,
        /// The refusals met before it.
        refused: Vec<Diagnostic>,
    },
}

impl<E> AskError<E> {
    /// Every diagnostic met, in order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            AskError::Refused(d) => d,
            AskError::Provider { refused, .. } => refused,
        }
    }
}

impl<E: fmt::Display> fmt::Display for AskError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::Refused(d) => {
                write!(f, "every answer was refused ({} in all)", d.len())?;
                if let Some(last) = d.last() {
                    write!(f, "; the last: {last}")?;
                }
                Ok(())
            }
            AskError::Provider { error, refused } => write!(
                f,
                "the provider failed after {} refused answers: {error}",
                refused.len()
            ),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for AskError<E> {}

/// Asks until an answer is admitted: calls `provider` with the
/// conversation, admits its answer into `T` for `dialect`, and on a
/// refusal appends the answer and the feedback to `messages` and asks
/// again, at most `retries` more times. Returns the typed value, or every
/// diagnostic met.
///
/// `messages` is the whole conversation afterwards (so a host can log it
/// or continue it); the admitted answer is not appended.
pub fn ask<T: Interaction, E>(
    dialect: Dialect,
    retries: usize,
    messages: &mut Vec<Message>,
    mut provider: impl FnMut(&[Message]) -> Result<Vec<u8>, E>,
) -> Result<T, AskError<E>> {
    let mut refused = Vec::new();
    for _ in 0..=retries {
        let answer = match provider(messages) {
            Ok(a) => a,
            Err(error) => return Err(AskError::Provider { error, refused }),
        };
        match T::admit(dialect, &answer) {
            Ok(value) => return Ok(value),
            Err(d) => {
                messages.push(Message::assistant(String::from_utf8_lossy(&answer)));
                messages.push(Message::user(d.for_model()));
                refused.push(d);
            }
        }
    }
    Err(AskError::Refused(refused))
}
