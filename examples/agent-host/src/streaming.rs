//! The streaming turn: the scripted provider sends its answers as an
//! OpenAI Chat Completions event stream, and the host admits them as the
//! bytes arrive (`spx_runtime::engine::stream`), showing each field once it
//! is validated and aborting a bad answer at the first impossible byte.

use spx_runtime::engine::decode::Decoded;
use spx_runtime::engine::quote::quote;
use spx_runtime::engine::stream::sse::{Provider, SseReader};
use spx_runtime::engine::stream::{Event, StreamAdmitter};
use spx_runtime::{Diagnostic, Dialect, Interaction};

/// `answer` as the event stream an OpenAI model streams it in: a role
/// event, the text in deltas of about `piece` bytes (cut at character
/// boundaries), a keep-alive comment, the finish event and `[DONE]`.
pub fn openai_events(answer: &str, piece: usize) -> Vec<u8> {
    let event = |delta: &str, finish: &str| {
        format!(
            "data: {{\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{delta},\"finish_reason\":{finish}}}]}}\n\n"
        )
    };
    let mut out = String::from(": keep-alive\n\n");
    out.push_str(&event("{\"role\":\"assistant\",\"content\":\"\"}", "null"));
    let mut rest = answer;
    while !rest.is_empty() {
        let mut cut = piece.min(rest.len());
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (now, later) = rest.split_at(cut);
        out.push_str(&event(&format!("{{\"content\":{}}}", quote(now)), "null"));
        rest = later;
    }
    out.push_str(&event("{}", "\"stop\""));
    out.push_str("data: [DONE]\n\n");
    out.into_bytes()
}

/// What one streamed answer gave.
pub struct Streamed {
    /// The admission, or the refusal.
    pub result: Result<Decoded, Diagnostic>,
    /// The fields announced as validated, in order.
    pub fields: Vec<String>,
    /// The cases announced, in order.
    pub cases: Vec<String>,
    /// Bytes of answer text the admitter had accepted when it stopped.
    pub accepted: u64,
    /// Bytes of answer text received before the stream stopped.
    pub received: usize,
}

/// Reads `events` in network-sized chunks of `chunk` bytes: the SSE
/// reader hands each delta's text to the admitter, which announces the
/// validated fields; the first refusal ends the stream.
pub fn admit_stream<T: Interaction>(dialect: Dialect, events: &[u8], chunk: usize) -> Streamed {
    let mut sse = SseReader::new(Provider::OpenAiChat);
    let mut admitter = StreamAdmitter::new(T::schema(), dialect);
    let mut fields = Vec::new();
    let mut cases = Vec::new();
    let mut refused: Option<Diagnostic> = None;
    let mut received = 0;
    for bytes in events.chunks(chunk.max(1)) {
        let fed = sse.feed(bytes, &mut |text| {
            received += text.len();
            if refused.is_some() {
                return;
            }
            let r = admitter.feed_with(text.as_bytes(), &mut |e| match e {
                Event::FieldDone { pointer, .. } => fields.push(pointer),
                Event::CaseChosen { case, .. } => cases.push(case),
                Event::Progress { .. } => {}
            });
            if let Err(d) = r {
                refused = Some(d);
            }
        });
        if let Err(d) = fed {
            refused.get_or_insert(d);
        }
        if refused.is_some() {
            break;
        }
    }
    let accepted = admitter.offset();
    let result = match refused {
        Some(d) => Err(d),
        None => sse.finish().and_then(|()| admitter.finish()),
    };
    Streamed {
        result,
        fields,
        cases,
        accepted,
        received,
    }
}
