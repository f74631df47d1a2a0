//! Provider stream adapters: a provider's Server-Sent Events, as bytes
//! split anywhere, into the text chunks that carry the answer, to feed a
//! [`super::StreamAdmitter`].
//!
//! [`SseReader`] reads the event stream as the WHATWG HTML standard
//! ("Server-sent events", §9.2.6) defines it: lines end with CRLF, LF or CR
//! (a CRLF split between two chunks is one line end); a leading U+FEFF is
//! skipped; a line starting with `:` is a comment (a keep-alive ping); a
//! `field: value` line loses one space after the colon; `data` lines are
//! joined with LF; an empty line dispatches the event; an event with no
//! `data` is not dispatched, and neither is a last event the stream ends
//! before its empty line. Only whole lines are decoded, so a UTF-8
//! character split between chunks is read whole. Memory is the longest line
//! plus the pending event's data.
//!
//! Each dispatched event's data is read with the engine's one JSON reader
//! ([`crate::json`]) and the provider's [`Provider`] rule picks the answer
//! text out of it:
//!
//! | provider | the answer text |
//! |---|---|
//! | [`Provider::OpenAiChat`] (`openai`) | `choices[i].delta.content` and `choices[i].delta.tool_calls[j].function.arguments` of choice 0 and tool call 0; `data: [DONE]` ends the stream |
//! | [`Provider::OpenAiResponses`] (`openai-responses`) | `delta` of each `{"type":"response.output_text.delta"}` |
//! | [`Provider::Anthropic`] (`anthropic`) | `delta.text` of a `content_block_delta` whose `delta.type` is `text_delta`, `delta.partial_json` of one whose `delta.type` is `input_json_delta` |
//! | [`Provider::Gemini`] (`gemini`, `streamGenerateContent?alt=sse`) | `candidates[i].content.parts[k].text` of candidate 0, except parts marked `"thought":true` |
//!
//! Every other event (`ping`, `message_start`, `content_block_start`,
//! `response.created`, usage chunks, …) carries no answer text and is
//! skipped, and so are empty deltas. A malformed stream is a diagnostic
//! ([`SSE_MALFORMED`], `SPX-E001`), and so is an error the provider sends in
//! the stream ([`SSE_PROVIDER_ERROR`], `SPX-E002`); both carry the
//! [`Diagnostic::offset`] of the line at fault in the event stream. Never a
//! panic.

use crate::diag::{Code, Diagnostic};
use crate::json::{self, Bom, Duplicates, Json, Numbers, Options};

/// A malformed provider event stream: a line that is not UTF-8
/// (`sse.utf8`), an event whose data is not the provider's JSON
/// (`sse.payload`), an event after the stream's end marker
/// (`sse.after_end`).
pub const SSE_MALFORMED: Code = Code("SPX-E001");

/// The provider reported an error inside the event stream
/// (`sse.provider_error`; the detail is the provider's message).
pub const SSE_PROVIDER_ERROR: Code = Code("SPX-E002");

/// How an event's data is read: duplicates refused (which one would count
/// is not the provider's documented behaviour), generous nesting, no BOM
/// inside an event.
const PAYLOAD: Options = Options {
    duplicates: Duplicates::Refuse,
    max_nesting: 128,
    bom: Bom::Refuse,
    numbers: Numbers::Any,
};

/// A provider's event stream format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Provider {
    /// OpenAI Chat Completions with `"stream": true`.
    OpenAiChat,
    /// OpenAI Responses with `"stream": true`.
    OpenAiResponses,
    /// Anthropic Messages with `"stream": true`.
    Anthropic,
    /// Gemini `streamGenerateContent` with `alt=sse`.
    Gemini,
}

impl Provider {
    /// Every provider, in the order of [`Provider::name`]'s table.
    pub const ALL: [Provider; 4] = [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Gemini,
    ];

    /// The provider's name on the command line: `openai`,
    /// `openai-responses`, `anthropic`, `gemini`.
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAiChat => "openai",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
        }
    }

    /// The provider of that [`Provider::name`].
    pub fn from_name(name: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Reads a provider's event stream incrementally and hands out the answer
/// text (see the [module](self)).
#[derive(Debug)]
pub struct SseReader {
    provider: Provider,
    /// The bytes of the line being read (no line end).
    line: Vec<u8>,
    /// The stream offset of the line's first byte.
    line_start: u64,
    /// Bytes received.
    pos: u64,
    /// The last byte was a CR: an LF right after it ends nothing.
    after_cr: bool,
    /// No line has ended yet (a leading BOM is skipped).
    first_line: bool,
    /// The pending event's data, and for each of its `data` lines where it
    /// starts in `data` and in the stream.
    data: String,
    data_lines: Vec<(usize, u64)>,
    /// The end marker (`data: [DONE]`) was read.
    ended: bool,
    /// The first refusal, returned again by every later call.
    failed: Option<Diagnostic>,
}

impl SseReader {
    /// A reader of `provider`'s event stream, before its first byte.
    pub fn new(provider: Provider) -> SseReader {
        SseReader {
            provider,
            line: Vec::new(),
            line_start: 0,
            pos: 0,
            after_cr: false,
            first_line: true,
            data: String::new(),
            data_lines: Vec::new(),
            ended: false,
            failed: None,
        }
    }

    /// The provider read.
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// Bytes received so far.
    pub fn offset(&self) -> u64 {
        self.pos
    }

    /// Reads the next bytes of the stream; `text` receives each non-empty
    /// piece of answer text, in order, as soon as its event is complete.
    pub fn feed(&mut self, chunk: &[u8], text: &mut impl FnMut(&str)) -> Result<(), Diagnostic> {
        if let Some(d) = &self.failed {
            return Err(d.clone());
        }
        let mut rest = chunk;
        while !rest.is_empty() {
            if self.after_cr {
                self.after_cr = false;
                if rest.first() == Some(&b'\n') {
                    rest = rest.get(1..).unwrap_or_default();
                    self.pos += 1;
                    self.line_start = self.pos;
                    continue;
                }
            }
            match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => {
                    self.line
                        .extend_from_slice(rest.get(..i).unwrap_or_default());
                    self.after_cr = rest.get(i) == Some(&b'\r');
                    self.pos += i as u64 + 1;
                    rest = rest.get(i + 1..).unwrap_or_default();
                    let r = self.end_line(text);
                    self.line.clear();
                    self.line_start = self.pos;
                    if let Err(d) = r {
                        self.failed = Some(d.clone());
                        return Err(d);
                    }
                }
                None => {
                    self.line.extend_from_slice(rest);
                    self.pos += rest.len() as u64;
                    rest = &[];
                }
            }
        }
        Ok(())
    }

    /// Ends the stream. A last event not followed by its empty line is not
    /// dispatched (as the standard says); a last line that is not UTF-8 is
    /// still refused.
    pub fn finish(mut self) -> Result<(), Diagnostic> {
        if let Some(d) = self.failed {
            return Err(d);
        }
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.decode(&line)?;
        }
        Ok(())
    }

    /// The line as text, or `sse.utf8` at its first bad byte.
    fn decode<'l>(&self, line: &'l [u8]) -> Result<&'l str, Diagnostic> {
        std::str::from_utf8(line).map_err(|e| {
            Diagnostic::error(
                SSE_MALFORMED,
                "sse.utf8",
                "the provider event stream is not UTF-8",
            )
            .with_help("an event stream is UTF-8 text (WHATWG HTML, server-sent events)")
            .at_offset(self.line_start + e.valid_up_to() as u64)
        })
    }

    fn end_line(&mut self, text: &mut impl FnMut(&str)) -> Result<(), Diagnostic> {
        let line = std::mem::take(&mut self.line);
        let mut bytes: &[u8] = &line;
        let mut start = self.line_start;
        if self.first_line {
            self.first_line = false;
            if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
                bytes = rest;
                start += 3;
            }
        }
        let saved = self.line_start;
        self.line_start = start;
        let s = self.decode(bytes);
        self.line_start = saved;
        let s = s?;
        let r = if s.is_empty() {
            self.dispatch(text)
        } else if s.starts_with(':') {
            Ok(())
        } else {
            let (field, value, at) = match s.find(':') {
                Some(i) => {
                    let v = s.get(i + 1..).unwrap_or_default();
                    let (v, skip) = match v.strip_prefix(' ') {
                        Some(v) => (v, i + 2),
                        None => (v, i + 1),
                    };
                    (s.get(..i).unwrap_or_default(), v, skip)
                }
                None => (s, "", s.len()),
            };
            if field == "data" {
                if !self.data_lines.is_empty() {
                    self.data.push('\n');
                }
                self.data_lines.push((self.data.len(), start + at as u64));
                self.data.push_str(value);
            }
            // `event`, `id`, `retry` and unknown fields carry no answer
            // text: each provider's data names its own event type.
            Ok(())
        };
        self.line = line;
        r
    }

    /// The stream offset of byte `i` of the pending data.
    fn data_offset(&self, i: usize) -> u64 {
        let (from, at) = self
            .data_lines
            .iter()
            .rev()
            .find(|(from, _)| *from <= i)
            .copied()
            .unwrap_or((0, self.line_start));
        at + (i - from) as u64
    }

    fn dispatch(&mut self, text: &mut impl FnMut(&str)) -> Result<(), Diagnostic> {
        if self.data_lines.is_empty() {
            return Ok(());
        }
        let data = std::mem::take(&mut self.data);
        let r = self.payload(&data, text);
        self.data = data;
        self.data.clear();
        self.data_lines.clear();
        r
    }

    fn malformed(&self, at: usize, pointer: String, detail: String) -> Diagnostic {
        Diagnostic::error(
            SSE_MALFORMED,
            "sse.payload",
            format!(
                "the {} event stream holds an event that is not the provider's",
                self.provider.name()
            ),
        )
        .at_pointer(pointer)
        .with_detail(detail)
        .with_help(format!(
            "record the provider's stream unchanged, and read it with --sse {}",
            self.provider.name()
        ))
        .at_offset(self.data_offset(at))
    }

    fn payload(&mut self, data: &str, text: &mut impl FnMut(&str)) -> Result<(), Diagnostic> {
        if self.ended {
            return Err(Diagnostic::error(
                SSE_MALFORMED,
                "sse.after_end",
                format!(
                    "the {} event stream goes on after its end marker",
                    self.provider.name()
                ),
            )
            .with_detail("an event follows `data: [DONE]`")
            .at_offset(self.data_offset(0)));
        }
        if self.provider == Provider::OpenAiChat && data == "[DONE]" {
            self.ended = true;
            return Ok(());
        }
        let v = Json::read(data, &PAYLOAD).map_err(|e| {
            self.malformed(
                e.offset,
                e.pointer.clone(),
                format!("the event's data is not JSON: {}", e.reason()),
            )
        })?;
        if !matches!(v, Json::Object(_)) {
            return Err(self.malformed(
                0,
                String::new(),
                "the event's data is not an object".into(),
            ));
        }
        let mut out = Picked {
            reader: self,
            data,
            text,
        };
        match out.reader.provider {
            Provider::OpenAiChat => out.openai_chat(&v),
            Provider::OpenAiResponses => out.openai_responses(&v),
            Provider::Anthropic => out.anthropic(&v),
            Provider::Gemini => out.gemini(&v),
        }
    }
}

/// One event's data being picked through.
struct Picked<'r, 'd, F> {
    reader: &'r SseReader,
    data: &'d str,
    text: &'r mut F,
}

impl<F: FnMut(&str)> Picked<'_, '_, F> {
    fn wrong(&self, pointer: &str, want: &str) -> Diagnostic {
        self.reader
            .malformed(0, pointer.to_string(), format!("{pointer} is not {want}"))
    }

    /// A member that must be a string when present (`null` counts as
    /// absent), handed out when not empty.
    fn emit(&mut self, v: Option<&Json>, pointer: &str) -> Result<(), Diagnostic> {
        match v {
            None | Some(Json::Null) => Ok(()),
            Some(Json::String(s)) => {
                if !s.is_empty() {
                    (self.text)(s);
                }
                Ok(())
            }
            Some(_) => Err(self.wrong(pointer, "a string")),
        }
    }

    /// The elements of a member that must be an array when present.
    fn array<'j>(&self, v: Option<&'j Json>, pointer: &str) -> Result<&'j [Json], Diagnostic> {
        match v {
            None | Some(Json::Null) => Ok(&[]),
            Some(Json::Array(items)) => Ok(items),
            Some(_) => Err(self.wrong(pointer, "an array")),
        }
    }

    /// The `index` member of an element (absent: 0).
    fn index(&self, v: &Json, pointer: &str) -> Result<bool, Diagnostic> {
        match v.get("index") {
            None => Ok(true),
            Some(Json::Number(n)) => Ok(n == "0"),
            Some(_) => Err(self.wrong(&format!("{pointer}/index"), "a number")),
        }
    }

    /// A provider's own error: its message (or the whole event) as detail.
    fn provider_error(&self, message: Option<&Json>) -> Diagnostic {
        let detail = match message.and_then(Json::as_str) {
            Some(m) => m.to_string(),
            None => {
                let mut s = String::new();
                if let Ok(v) = Json::read(self.data, &PAYLOAD) {
                    json::write(&mut s, &v);
                }
                s
            }
        };
        Diagnostic::error(
            SSE_PROVIDER_ERROR,
            "sse.provider_error",
            format!(
                "the {} event stream reports an error",
                self.reader.provider.name()
            ),
        )
        .with_detail(detail)
        .with_help("the provider did not finish the answer: retry the request")
        .at_offset(self.reader.data_offset(0))
    }

    fn type_of<'j>(&self, v: &'j Json) -> Result<&'j str, Diagnostic> {
        match v.get("type") {
            Some(Json::String(t)) => Ok(t),
            _ => Err(self.wrong("/type", "a string")),
        }
    }

    fn openai_chat(&mut self, v: &Json) -> Result<(), Diagnostic> {
        if let Some(e) = v.get("error") {
            return Err(self.provider_error(e.get("message")));
        }
        let choices = self.array(v.get("choices"), "/choices")?;
        for (i, choice) in choices.iter().enumerate() {
            let at = format!("/choices/{i}");
            if !self.index(choice, &at)? {
                continue;
            }
            let delta = match choice.get("delta") {
                None | Some(Json::Null) => continue,
                Some(d @ Json::Object(_)) => d,
                Some(_) => return Err(self.wrong(&format!("{at}/delta"), "an object")),
            };
            self.emit(delta.get("content"), &format!("{at}/delta/content"))?;
            let calls = self.array(delta.get("tool_calls"), &format!("{at}/delta/tool_calls"))?;
            for (j, call) in calls.iter().enumerate() {
                let at = format!("{at}/delta/tool_calls/{j}");
                if !self.index(call, &at)? {
                    continue;
                }
                if let Some(f) = call.get("function") {
                    self.emit(f.get("arguments"), &format!("{at}/function/arguments"))?;
                }
            }
        }
        Ok(())
    }

    fn openai_responses(&mut self, v: &Json) -> Result<(), Diagnostic> {
        match self.type_of(v)? {
            "response.output_text.delta" => match v.get("delta") {
                Some(d @ Json::String(_)) => self.emit(Some(d), "/delta"),
                _ => Err(self.wrong("/delta", "a string")),
            },
            "error" => Err(self.provider_error(v.get("message"))),
            "response.failed" => Err(self.provider_error(
                v.get("response")
                    .and_then(|r| r.get("error"))
                    .and_then(|e| e.get("message")),
            )),
            _ => Ok(()),
        }
    }

    fn anthropic(&mut self, v: &Json) -> Result<(), Diagnostic> {
        match self.type_of(v)? {
            "content_block_delta" => {
                let Some(delta @ Json::Object(_)) = v.get("delta") else {
                    return Err(self.wrong("/delta", "an object"));
                };
                match self.type_of(delta) {
                    Ok("text_delta") => match delta.get("text") {
                        Some(t @ Json::String(_)) => self.emit(Some(t), "/delta/text"),
                        _ => Err(self.wrong("/delta/text", "a string")),
                    },
                    Ok("input_json_delta") => match delta.get("partial_json") {
                        Some(t @ Json::String(_)) => self.emit(Some(t), "/delta/partial_json"),
                        _ => Err(self.wrong("/delta/partial_json", "a string")),
                    },
                    Ok(_) => Ok(()),
                    Err(_) => Err(self.wrong("/delta/type", "a string")),
                }
            }
            "error" => Err(self.provider_error(v.get("error").and_then(|e| e.get("message")))),
            _ => Ok(()),
        }
    }

    fn gemini(&mut self, v: &Json) -> Result<(), Diagnostic> {
        if let Some(e) = v.get("error") {
            return Err(self.provider_error(e.get("message")));
        }
        let candidates = self.array(v.get("candidates"), "/candidates")?;
        for (i, candidate) in candidates.iter().enumerate() {
            let at = format!("/candidates/{i}");
            if !self.index(candidate, &at)? {
                continue;
            }
            let Some(content) = candidate.get("content") else {
                continue;
            };
            let parts = self.array(content.get("parts"), &format!("{at}/content/parts"))?;
            for (k, part) in parts.iter().enumerate() {
                if part.get("thought") == Some(&Json::Bool(true)) {
                    continue;
                }
                self.emit(part.get("text"), &format!("{at}/content/parts/{k}/text"))?;
            }
        }
        Ok(())
    }
}

/// Reads a whole recorded event stream and returns its answer text.
pub fn answer_text(provider: Provider, stream: &[u8]) -> Result<String, Diagnostic> {
    let mut r = SseReader::new(provider);
    let mut out = String::new();
    r.feed(stream, &mut |t| out.push_str(t))?;
    r.finish()?;
    Ok(out)
}
