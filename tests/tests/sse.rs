//! The provider stream adapters (`spx_schema::stream::sse`): every fixture
//! (written from each provider's documented event format, with pings,
//! empty deltas, `[DONE]`, CRLF line ends and multi-byte characters) gives
//! exactly its answer text cut at every byte, and the answer fed through a
//! `StreamAdmitter` as it arrives is what whole-document admission gives;
//! a malformed stream is a diagnostic with its offset, the same at every
//! cut.

use spx_schema::project::Dialect;
use spx_schema::source::read_module;
use spx_schema::stream::sse::{answer_text, Provider, SseReader};
use spx_schema::stream::StreamAdmitter;
use spx_schema::{Diagnostic, Location, Schema};

const POINT: &str = include_str!("../../cli/tests/fixtures/point.spx");
const ANSWER: &str = r#"{"fields":{"t.point.x":"-42","t.point.ok":true}}"#;

const FIXTURES: [(Provider, &str, &[u8]); 6] = [
    (
        Provider::OpenAiChat,
        "openai.sse",
        include_bytes!("../../cli/tests/fixtures/sse/openai.sse"),
    ),
    (
        Provider::OpenAiChat,
        "openai_tools.sse",
        include_bytes!("../../cli/tests/fixtures/sse/openai_tools.sse"),
    ),
    (
        Provider::OpenAiResponses,
        "openai_responses.sse",
        include_bytes!("../../cli/tests/fixtures/sse/openai_responses.sse"),
    ),
    (
        Provider::Anthropic,
        "anthropic.sse",
        include_bytes!("../../cli/tests/fixtures/sse/anthropic.sse"),
    ),
    (
        Provider::Anthropic,
        "anthropic_text.sse",
        include_bytes!("../../cli/tests/fixtures/sse/anthropic_text.sse"),
    ),
    (
        Provider::Gemini,
        "gemini.sse",
        include_bytes!("../../cli/tests/fixtures/sse/gemini.sse"),
    ),
];

fn point() -> Schema {
    Schema::derive(&read_module("point.spx", POINT).unwrap(), "t.point").unwrap()
}

/// The text `provider`'s reader hands out when `bytes` arrive in these
/// pieces, or its refusal.
fn read_in(provider: Provider, pieces: &[&[u8]]) -> Result<String, Diagnostic> {
    let mut r = SseReader::new(provider);
    let mut out = String::new();
    for p in pieces {
        r.feed(p, &mut |t| out.push_str(t))?;
    }
    r.finish()?;
    Ok(out)
}

/// Every cut of `bytes` in two, and one byte at a time.
fn cuts(bytes: &[u8]) -> Vec<Vec<&[u8]>> {
    let mut out: Vec<Vec<&[u8]>> = (0..=bytes.len())
        .map(|i| vec![&bytes[..i], &bytes[i..]])
        .collect();
    out.push(bytes.chunks(1).collect());
    out.push(bytes.chunks(7).collect());
    out
}

#[test]
fn fixtures_give_the_answer_at_every_cut() {
    for (provider, name, bytes) in FIXTURES {
        assert_eq!(
            answer_text(provider, bytes).as_deref(),
            Ok(ANSWER),
            "{name}"
        );
        for pieces in cuts(bytes) {
            assert_eq!(
                read_in(provider, &pieces).as_deref(),
                Ok(ANSWER),
                "{name} cut {:?}",
                pieces.iter().map(|p| p.len()).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn fixtures_are_the_documented_shapes() {
    // The fixtures hold what they claim to test.
    let text = |n: usize| std::str::from_utf8(FIXTURES[n].2).unwrap();
    assert!(text(0).starts_with(": keep-alive é\n\n") && text(0).ends_with("data: [DONE]\n\n"));
    assert!(text(0).contains(r#""delta":{}"#));
    assert!(text(1).contains("\r\n\r\n") && !text(1).replace("\r\n", "").contains('\n'));
    assert!(text(2).contains(r#""delta":"""#) && text(2).contains("Réponds"));
    assert!(text(3).contains("event: ping\n") && text(3).contains(r#""partial_json": """#));
    assert!(text(4).contains("thinking_delta") && text(4).contains("text_delta"));
    assert!(text(5).contains(r#""thought": true"#) && text(5).contains("\r\n\r\n"));
    for (_, name, bytes) in FIXTURES {
        assert!(
            bytes.iter().any(|&b| b >= 0x80),
            "{name} has a multi-byte character to split"
        );
    }
}

#[test]
fn the_answer_is_admitted_as_it_arrives() {
    let schema = point();
    let whole = spx_schema::admit::admit(&schema, Dialect::Draft2020, ANSWER.as_bytes()).unwrap();
    for (provider, name, bytes) in FIXTURES {
        for size in [1, 3, 64, bytes.len()] {
            let mut r = SseReader::new(provider);
            let mut a = StreamAdmitter::new(&schema, Dialect::Draft2020);
            for chunk in bytes.chunks(size) {
                let mut pending = Vec::new();
                r.feed(chunk, &mut |t| pending.push(t.to_string())).unwrap();
                for t in pending {
                    a.feed(t.as_bytes()).unwrap();
                }
            }
            r.finish().unwrap();
            assert_eq!(a.finish().as_ref(), Ok(&whole), "{name} by {size}");
        }
    }
}

#[test]
fn split_characters_in_the_answer_are_whole() {
    let s = "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"caf\u{e9} \u{1F600}\"}}\n\n";
    for pieces in cuts(s.as_bytes()) {
        assert_eq!(
            read_in(Provider::Anthropic, &pieces).as_deref(),
            Ok("caf\u{e9} \u{1F600}")
        );
    }
}

#[test]
fn line_ends_bom_comments_and_multiline_data() {
    // CR alone ends a line; a leading BOM is skipped; `data` lines join
    // with LF (JSON whitespace); a last event without its empty line is
    // not dispatched.
    let s = "\u{feff}: hi\rdata: {\"candidates\":[{\"content\":\r\ndata: {\"parts\":[{\"text\":\"a\"}]}}]}\r\rid: 7\nretry: 10\n\ndata: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"b\"}]}}]}";
    for pieces in cuts(s.as_bytes()) {
        assert_eq!(read_in(Provider::Gemini, &pieces).as_deref(), Ok("a"));
    }
    // Other choices, other tool calls and other candidates are not the
    // answer.
    let s = "data: {\"choices\":[{\"index\":1,\"delta\":{\"content\":\"x\"}},{\"index\":0,\"delta\":{\"content\":\"y\",\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"z\"}}]}}]}\n\n";
    assert_eq!(
        answer_text(Provider::OpenAiChat, s.as_bytes()).as_deref(),
        Ok("y")
    );
}

fn refusal(provider: Provider, s: &[u8]) -> Diagnostic {
    let d = answer_text(provider, s).unwrap_err();
    for pieces in cuts(s) {
        assert_eq!(read_in(provider, &pieces).as_ref(), Err(&d), "{d:?}");
    }
    d
}

fn shape(d: &Diagnostic) -> (&str, &str, Option<u64>, Option<&str>) {
    let ptr = match &d.location {
        Location::Pointer(p) => Some(p.as_str()),
        _ => None,
    };
    (d.code.as_str(), d.rule, d.offset, ptr)
}

#[test]
fn malformed_streams_are_diagnostics_with_offsets() {
    // Not UTF-8: the offset of the bad byte.
    let d = refusal(Provider::OpenAiChat, b"data: {}\n\ndata: \"\xff\"\n\n");
    assert_eq!(shape(&d), ("SPX-E001", "sse.utf8", Some(17), None));
    // Data that is not JSON: the offset of the reader's refusal in the
    // stream, across data lines.
    let s = b"event: x\ndata: {\"type\":\ndata: \"ping\",}\n\n";
    let d = refusal(Provider::Anthropic, s);
    assert_eq!(
        shape(&d),
        ("SPX-E001", "sse.payload", Some(37), Some("")),
        "{d:?}"
    );
    assert_eq!(
        d.detail.as_deref(),
        Some("the event's data is not JSON: expected a string key, found \"}\"")
    );
    assert_eq!(s[37], b'}');
    // A member of the wrong type.
    let d = refusal(
        Provider::OpenAiResponses,
        b"data: {\"type\":\"response.output_text.delta\",\"delta\":7}\n\n",
    );
    assert_eq!(
        shape(&d),
        ("SPX-E001", "sse.payload", Some(6), Some("/delta"))
    );
    let d = refusal(
        Provider::Gemini,
        b"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":[]}]}}]}\n\n",
    );
    assert_eq!(
        shape(&d),
        (
            "SPX-E001",
            "sse.payload",
            Some(6),
            Some("/candidates/0/content/parts/0/text")
        )
    );
    let d = refusal(Provider::Anthropic, b"data: [1]\n\n");
    assert_eq!(shape(&d), ("SPX-E001", "sse.payload", Some(6), Some("")));
    // An event after `[DONE]`.
    let d = refusal(
        Provider::OpenAiChat,
        b"data: [DONE]\n\ndata: {\"choices\":[]}\n\n",
    );
    assert_eq!(shape(&d), ("SPX-E001", "sse.after_end", Some(20), None));
    // A bad last line is refused even without its line end.
    let d = refusal(Provider::Gemini, b"data: {}\n\n: \xc3");
    assert_eq!(shape(&d), ("SPX-E001", "sse.utf8", Some(12), None));
}

#[test]
fn provider_errors_are_diagnostics() {
    let d = refusal(
        Provider::Anthropic,
        b"event: ping\ndata: {\"type\": \"ping\"}\n\nevent: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n",
    );
    assert_eq!(
        shape(&d),
        ("SPX-E002", "sse.provider_error", Some(55), None)
    );
    assert_eq!(d.detail.as_deref(), Some("Overloaded"));
    let d = refusal(
        Provider::OpenAiResponses,
        b"data: {\"type\":\"error\",\"code\":\"ERR_SOMETHING\",\"message\":\"Something went wrong\",\"param\":null,\"sequence_number\":1}\n\n",
    );
    assert_eq!(d.detail.as_deref(), Some("Something went wrong"));
    let d = refusal(
        Provider::Gemini,
        b"data: {\"error\":{\"code\":503,\"status\":\"UNAVAILABLE\"}}\n\n",
    );
    assert_eq!(
        d.detail.as_deref(),
        Some(r#"{"error":{"code":503,"status":"UNAVAILABLE"}}"#)
    );
    assert_eq!(
        Provider::from_name("openai-responses"),
        Some(Provider::OpenAiResponses)
    );
    assert_eq!(Provider::from_name("cobol"), None);
}
