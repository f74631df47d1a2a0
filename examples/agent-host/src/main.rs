//! An agent host with an offline scripted provider.
//!
//! * `build.rs` derives the planner's schemas from `agents/planner.spx`
//!   (roots listed in `[package.metadata.spx]`), writes them and their
//!   provider projections to `$OUT_DIR/spx/`, and checks them against the
//!   pins in `spx.lock`.
//! * `spx_interaction!` generates the Rust types, the strict decoder and the
//!   canonical encoder from the same source; with no `digest:` argument it
//!   takes each root's pin from `spx.lock`, so the macro and the build
//!   script agree on one digest or the build fails.
//! * The scripted provider answers each turn with a canned response (files
//!   in `responses/`), the way a model constrained by the OpenAI projection
//!   would: pretty-printed, keys in any order, integers as strings.
//!
//! The host first asks for a proposal through the re-ask loop
//! (`spx_runtime::reask::ask`): the scripted model's first answer is wrong
//! the way real answers are (a number where a decimal string belongs, a
//! field it invented), the loop sends it the refusal in words, and its
//! second answer is admitted straight into the typed `Proposal`
//! (`Proposal::admit`). The same answer is then streamed as an OpenAI
//! event stream and admitted as it arrives ([`streaming`]: every field shown
//! once validated, the same canonical document), and the out-of-range
//! answer, streamed, is refused before it has all arrived. The host then
//! refuses an out-of-range integer, a response tampered with in transit,
//! tampered evidence and evidence bound
//! to a foreign schema digest (printing each diagnostic), and finally
//! replays the evidence: the canonical document re-decodes to the same
//! value and re-encodes to the same bytes.
//!
//! Run it with `cargo run -p agent-host`; it exits 0 when every step
//! behaved as expected. `cargo test -p agent-host` runs the same path.
//!
//! With `cargo run -p agent-host -- --grammar` (or `SPX_AGENT_GRAMMAR=1`)
//! the provider is a local "model" constrained by the schema's Lark grammar
//! instead ([`grammar`]): it writes each answer by sampling under the
//! grammar with llguidance, and the host decodes every answer strictly, with
//! no admission step, because the grammar admits only canonical documents.

use spx_runtime::engine::admit::admit;
use spx_runtime::engine::decode::decode;
use spx_runtime::reask::{ask, AskError, Message};
use spx_runtime::{Diagnostic, Dialect, Interaction};
use std::collections::VecDeque;
use std::process::ExitCode;

mod grammar;
mod streaming;

mod planner {
    spx_runtime::spx_interaction! {
        source: "agents/planner.spx",
        root: "planner.proposal",
        root: "planner.step",
    }
}

use planner::{Action, Proposal, Step};

/// The dialect the scripted provider is constrained with.
const DIALECT: Dialect = Dialect::OpenAi;

/// An offline provider that plays back a script of canned responses, the
/// way a model constrained by the OpenAI projection would answer:
/// pretty-printed, keys in any order, integers as strings (mostly).
struct ScriptedProvider {
    script: VecDeque<(&'static str, &'static [u8])>,
    /// What the provider was sent, per call: the messages and the schema.
    seen: Vec<(Vec<Message>, &'static str)>,
}

impl ScriptedProvider {
    fn new() -> ScriptedProvider {
        ScriptedProvider {
            script: VecDeque::from([
                (
                    "a first attempt (a number where a decimal string belongs, an invented field)",
                    include_bytes!("../responses/00-first-attempt.json").as_slice(),
                ),
                (
                    "a well-formed proposal",
                    include_bytes!("../responses/01-proposal.json").as_slice(),
                ),
                (
                    "a proposal with an out-of-range integer (retries = 300, a u8)",
                    include_bytes!("../responses/02-out-of-range.json").as_slice(),
                ),
                (
                    "a response tampered with in transit (an injected field)",
                    include_bytes!("../responses/03-tampered.json").as_slice(),
                ),
            ]),
            seen: Vec::new(),
        }
    }

    /// The next scripted response. A real provider would send the messages
    /// and the response schema to a model; the script only checks that it
    /// got both.
    fn complete(
        &mut self,
        messages: &[Message],
        schema: &'static str,
    ) -> Result<(&'static str, &'static [u8]), String> {
        if messages.is_empty() || schema.is_empty() {
            return Err("no prompt or no schema".into());
        }
        self.seen.push((messages.to_vec(), schema));
        self.script
            .pop_front()
            .ok_or_else(|| "the script ended early".into())
    }
}

fn show_refusal(what: &str, d: &Diagnostic) {
    println!("refused {what}:");
    for line in d.to_string().lines() {
        println!("    {line}");
    }
}

fn describe(step: &Step) -> String {
    match &step.action {
        Action::Fetch { url, max_bytes } => format!("fetch {url} (at most {max_bytes} bytes)"),
        Action::Write { path, content } => format!("write {} bytes to {path}", content.len()),
        Action::Wait { window } => {
            format!("wait from {} to {} (ms)", window.start_ms, window.end_ms)
        }
        Action::Done => "done".to_owned(),
    }
}

/// Turn 1: the re-ask loop. Returns the proposal and the conversation.
fn propose(provider: &mut ScriptedProvider) -> Result<(Proposal, Vec<Message>), String> {
    let schema = Proposal::provider_schema(DIALECT);
    let mut conversation = vec![Message::user(
        "Goal: prepare the quarterly report. Answer with one JSON value of the schema.",
    )];
    let proposal = ask::<Proposal, String>(DIALECT, 2, &mut conversation, |messages| {
        let (what, bytes) = provider.complete(messages, schema)?;
        println!("the model answers: {what}");
        Ok(bytes.to_vec())
    })
    .map_err(|e| match e {
        AskError::Refused(ds) => format!("every answer was refused: {ds:?}"),
        AskError::Provider { error, .. } => error,
    })?;
    Ok((proposal, conversation))
}

fn run() -> Result<(), String> {
    println!(
        "schema {} pinned at {}",
        Proposal::ROOT_TYPE_ID,
        Proposal::SCHEMA_DIGEST
    );
    let sent = Proposal::provider(DIALECT).map_err(|d| d.to_string())?;
    println!(
        "provider constrained with the OpenAI projection \"{}\" ({} bytes)\n",
        sent.schema_name.unwrap_or_default(),
        sent.document.len()
    );
    let mut provider = ScriptedProvider::new();

    // Turn 1: ask until admitted.
    let (proposal, conversation) = propose(&mut provider)?;
    let Some(feedback) = conversation.last().filter(|_| conversation.len() == 3) else {
        return Err(format!(
            "expected one refused answer before the admitted one, got {} messages",
            conversation.len()
        ));
    };
    println!("the loop told the model:\n    {}", feedback.content);
    println!("admitted the second answer into a typed Proposal:");
    println!("{proposal:#?}");
    println!("  next step:  {}", describe(&proposal.step));
    println!("  fallback:   {}", describe(&proposal.fallback));
    println!(
        "  trace id {} and token budget {} kept exactly (beyond 2^53 = 9007199254740992)\n",
        proposal.trace_id, proposal.budget.max_tokens
    );
    if proposal.trace_id != 18_446_744_073_709_551_557 {
        return Err("the trace id lost precision".into());
    }

    // Turn 1 again, streamed: the same answer as an OpenAI event stream,
    // admitted as it arrives.
    stream_turns(&proposal)?;

    // Turns 2 and 3: refusals from the provider.
    let mut expect_refusal = |rule: &str| -> Result<(), String> {
        let (what, response) = provider.complete(&conversation, sent.document)?;
        match Proposal::admit(DIALECT, response) {
            Ok(_) => Err(format!("{what} was admitted")),
            Err(d) if d.rule == rule => {
                show_refusal(what, &d);
                Ok(())
            }
            Err(d) => Err(format!("{what}: expected rule {rule}, got:\n{d}")),
        }
    };
    expect_refusal("value.integer_range")?;
    expect_refusal("value.fields.unknown")?;

    // The evidence: the canonical document of the admitted value, the same
    // bytes the engine's admission makes of the admitted answer.
    let evidence = proposal
        .encode()
        .map_err(|d| format!("encode failed:\n{d}"))?;
    let admitted = admit(
        Proposal::schema(),
        DIALECT,
        include_bytes!("../responses/01-proposal.json"),
    )
    .map_err(|d| format!("engine admission refused:\n{d}"))?;
    if admitted.canonical != evidence {
        return Err("the typed and the engine admission disagree".into());
    }

    // Evidence tampered with after admission: one byte of whitespace.
    let tampered = evidence.replacen("\"fields\":{", "\"fields\": {", 1);
    match Proposal::decode(tampered.as_bytes()) {
        Ok(_) => return Err("tampered evidence was admitted".into()),
        Err(d) => show_refusal("evidence tampered with after admission", &d),
    }

    // Evidence bound to a foreign schema: the same value under the digest
    // of the planner's `Step` schema.
    let foreign = evidence.replacen(Proposal::SCHEMA_DIGEST, Step::SCHEMA_DIGEST, 1);
    match Proposal::decode(foreign.as_bytes()) {
        Ok(_) => return Err("a foreign digest was admitted".into()),
        Err(d) if d.rule == "schema_digest" => {
            show_refusal("evidence bound to a foreign schema digest", &d)
        }
        Err(d) => return Err(format!("foreign digest: unexpected refusal:\n{d}")),
    }

    // Replay: the evidence alone, decoded independently by the engine,
    // gives the same value, and the typed value re-encodes to the same
    // bytes.
    let replayed = decode(Proposal::schema(), evidence.as_bytes())
        .map_err(|d| format!("replay refused:\n{d}"))?;
    let redecoded =
        Proposal::decode(evidence.as_bytes()).map_err(|d| format!("evidence refused:\n{d}"))?;
    if replayed.value != proposal.to_value()
        || replayed.canonical != evidence
        || redecoded != proposal
    {
        return Err("replay differs from the admitted evidence".into());
    }
    println!(
        "\nreplayed the evidence ({} bytes): same value, same canonical bytes",
        evidence.len()
    );
    Ok(())
}

/// The streaming turns: the admitted answer, streamed in small deltas and
/// read in 61-byte pieces, gives the same canonical document as
/// `Proposal::admit`, with every field shown once validated; the
/// out-of-range answer, streamed, is refused before it has all arrived.
fn stream_turns(proposal: &Proposal) -> Result<(), String> {
    let answer = include_str!("../responses/01-proposal.json");
    let events = streaming::openai_events(answer, 24);
    let s = streaming::admit_stream::<Proposal>(DIALECT, &events, 61);
    let decoded = s
        .result
        .map_err(|d| format!("the streamed answer was refused:\n{d}"))?;
    let evidence = proposal
        .encode()
        .map_err(|d| format!("encode failed:\n{d}"))?;
    if decoded.canonical != evidence || s.fields.is_empty() {
        return Err("the streamed answer differs from the admitted one".into());
    }
    println!(
        "streamed the same answer ({} bytes of OpenAI events, read 61 bytes at a time): {} fields shown as validated while it arrived, first {}, cases {}; admitted to the same canonical document",
        events.len(),
        s.fields.len(),
        s.fields.first().map_or("", String::as_str),
        s.cases.join(", ")
    );
    let bad = include_str!("../responses/02-out-of-range.json");
    let s = streaming::admit_stream::<Proposal>(DIALECT, &streaming::openai_events(bad, 24), 61);
    match s.result {
        Ok(_) => Err("the streamed out-of-range answer was admitted".into()),
        Err(d) if d.rule == "value.integer_range" && s.received < bad.len() => {
            println!(
                "streamed the out-of-range answer: refused at byte {} of its {} bytes, with {} received and {} fields already shown ({})\n",
                d.offset.unwrap_or(s.accepted),
                bad.len(),
                s.received,
                s.fields.len(),
                d.rule
            );
            Ok(())
        }
        Err(d) => Err(format!(
            "streamed out-of-range answer: expected value.integer_range before its end ({} of {} bytes received), got:\n{d}",
            s.received,
            bad.len()
        )),
    }
}

/// The grammar mode: a provider constrained by the Lark grammar of
/// `Proposal`, answering `turns` requests, its sampling seeded by `seed`.
fn run_grammar(turns: usize, seed: u64) -> Result<(), String> {
    let projection = spx_runtime::engine::project::project(Proposal::schema(), Dialect::Lark)
        .map_err(|d| d.to_string())?;
    println!(
        "schema {} pinned at {}",
        Proposal::ROOT_TYPE_ID,
        Proposal::SCHEMA_DIGEST
    );
    println!(
        "provider constrained with the Lark grammar ({} bytes; narrowed bounds: {})",
        projection.document.len(),
        projection.losses_json().trim_end()
    );
    let mut provider = grammar::GrammarProvider::new(&projection.document, seed)?;
    for turn in 1..=turns {
        let answer = provider.complete()?;
        // No admission step: the answer is a canonical document or the
        // grammar was wrong.
        let proposal = Proposal::decode(&answer).map_err(|d| {
            format!(
                "turn {turn}: the strict decoder refused a sampled answer:\n{d}\n{}",
                String::from_utf8_lossy(&answer)
            )
        })?;
        if proposal.encode().map_err(|d| d.to_string())?.as_bytes() != answer.as_slice() {
            return Err(format!("turn {turn}: the answer is not canonical"));
        }
        println!(
            "\nturn {turn}: sampled {} bytes, decoded strictly:",
            answer.len()
        );
        println!("  next step:  {}", describe(&proposal.step));
        println!("  fallback:   {}", describe(&proposal.fallback));
        println!("  trace id {}", proposal.trace_id);
    }
    println!(
        "\n{turns} answers sampled under the grammar, every one admitted by the strict decoder"
    );
    Ok(())
}

fn main() -> ExitCode {
    let grammar_mode = std::env::args().any(|a| a == "--grammar")
        || std::env::var_os("SPX_AGENT_GRAMMAR").is_some_and(|v| v == "1");
    let seed = std::env::var("SPX_AGENT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2024);
    let result = if grammar_mode {
        run_grammar(3, seed)
    } else {
        run()
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("agent-host: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The demo's first turn is a test: the wrong answer is refused with
    /// the rule and pointer a model can act on, the feedback names them,
    /// and the corrected answer is admitted.
    #[test]
    fn the_reask_loop_corrects_a_wrong_answer() {
        let mut provider = ScriptedProvider::new();
        let (proposal, conversation) = propose(&mut provider).unwrap();
        assert_eq!(proposal.trace_id, 18_446_744_073_709_551_557);
        assert_eq!(proposal.budget.retries, 3);
        // prompt, the refused answer, the feedback
        assert_eq!(conversation.len(), 3);
        assert_eq!(
            conversation[1].content.as_bytes(),
            include_bytes!("../responses/00-first-attempt.json")
        );
        assert_eq!(
            conversation[2].content,
            "Your answer was refused at /fields/planner.proposal.trace_id: a value has the wrong \
             JSON type (rule value.representation). Expected a decimal string integer between 0 \
             and 18446744073709551615, got 18446744073709551557. Answer again with \
             the whole JSON value, corrected."
        );
        // The provider saw the schema both times, and the feedback the second.
        assert_eq!(provider.seen.len(), 2);
        assert!(provider
            .seen
            .iter()
            .all(|(_, s)| *s == Proposal::provider_schema(DIALECT)));
        assert_eq!(provider.seen[1].0, conversation);
        // The invented field is an error of its own, once the number is fixed.
        let fixed = String::from_utf8_lossy(include_bytes!("../responses/00-first-attempt.json"))
            .replace("18446744073709551557,", "\"18446744073709551557\",");
        let d = Proposal::admit(DIALECT, fixed.as_bytes()).unwrap_err();
        assert_eq!(d.rule, "value.fields.unknown");
        assert_eq!(
            d.location,
            spx_runtime::Location::Pointer(
                "/fields/planner.proposal.budget/fields/planner.budget.currency".into()
            )
        );
    }

    /// However the provider cuts its deltas and the network its reads,
    /// the streamed answer announces the same fields and cases and ends in
    /// `Proposal::admit`'s value; the bad answer is refused at one offset.
    #[test]
    fn streaming_does_not_depend_on_the_cuts() {
        let good = include_str!("../responses/01-proposal.json");
        let bad = include_str!("../responses/02-out-of-range.json");
        let admitted = Proposal::admit(DIALECT, good.as_bytes()).unwrap();
        let whole = streaming::admit_stream::<Proposal>(
            DIALECT,
            &streaming::openai_events(good, 1 << 20),
            1 << 20,
        );
        let refused = Proposal::admit(DIALECT, bad.as_bytes()).unwrap_err();
        for (piece, chunk) in [(1, 1), (3, 7), (24, 61), (500, 4096)] {
            let s = streaming::admit_stream::<Proposal>(
                DIALECT,
                &streaming::openai_events(good, piece),
                chunk,
            );
            assert_eq!(s.fields, whole.fields, "{piece}/{chunk}");
            assert_eq!(s.cases, whole.cases);
            let d = s.result.unwrap();
            assert_eq!(d.canonical, admitted.encode().unwrap());
            let s = streaming::admit_stream::<Proposal>(
                DIALECT,
                &streaming::openai_events(bad, piece),
                chunk,
            );
            let e = s.result.unwrap_err();
            assert_eq!((e.code, e.rule), (refused.code, refused.rule));
            assert_eq!(e.location, refused.location);
            assert_eq!(e.offset, Some(1462), "{piece}/{chunk}");
        }
        assert_eq!(whole.fields.len(), 14);
    }

    #[test]
    fn the_whole_demo_runs() {
        run().unwrap();
    }

    #[test]
    fn the_grammar_mode_answers_only_what_the_decoder_admits() {
        // Several seeds: every sampled answer decodes strictly.
        for seed in 1..=5 {
            super::run_grammar(4, seed).unwrap();
        }
    }
}
