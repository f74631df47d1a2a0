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
//! The host admits the good proposal and prints it, refuses a tampered
//! response, an out-of-range integer, tampered evidence and evidence bound
//! to a foreign schema digest (printing each diagnostic), and finally
//! replays the admitted evidence: the canonical document re-decodes to the
//! same value and re-encodes to the same bytes.
//!
//! Run it with `cargo run -p agent-host`; it exits 0 when every step
//! behaved as expected.
//!
//! With `cargo run -p agent-host -- --grammar` (or `SPX_AGENT_GRAMMAR=1`)
//! the provider is a local "model" constrained by the schema's Lark grammar
//! instead ([`grammar`]): it writes each answer by sampling under the
//! grammar with llguidance, and the host decodes every answer strictly, with
//! no admission step, because the grammar admits only canonical documents.

use spx_runtime::engine::admit::admit;
use spx_runtime::engine::decode::decode;
use spx_runtime::engine::project::Dialect;
use spx_runtime::{Diagnostic, Interaction};
use std::collections::VecDeque;
use std::process::ExitCode;

mod grammar;

mod planner {
    spx_runtime::spx_interaction! {
        source: "agents/planner.spx",
        root: "planner.proposal",
        root: "planner.step",
    }
}

use planner::{Action, Proposal, Step};

/// The OpenAI projection the build script wrote: what the provider is
/// constrained with. Presentation only; admission never reads it.
const OPENAI_SCHEMA: &str = include_str!(concat!(
    env!("OUT_DIR"),
    "/spx/planner.proposal.openai.json"
));

/// One request to the provider.
struct Request<'a> {
    goal: &'a str,
    response_schema: &'a str,
}

/// An offline provider that plays back a script of canned responses.
struct ScriptedProvider {
    script: VecDeque<(&'static str, &'static [u8])>,
}

impl ScriptedProvider {
    fn new() -> ScriptedProvider {
        ScriptedProvider {
            script: VecDeque::from([
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
        }
    }

    /// The next scripted response. A real provider would send the goal and
    /// the response schema to a model; the script only checks that it got
    /// a schema at all.
    fn complete(&mut self, request: &Request<'_>) -> Option<(&'static str, &'static [u8])> {
        if request.goal.is_empty() || request.response_schema.is_empty() {
            return None;
        }
        self.script.pop_front()
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

fn run() -> Result<(), String> {
    println!(
        "schema {} pinned at {}",
        Proposal::ROOT_TYPE_ID,
        Proposal::SCHEMA_DIGEST
    );
    println!(
        "provider constrained with the OpenAI projection ({} bytes)\n",
        OPENAI_SCHEMA.len()
    );
    let mut provider = ScriptedProvider::new();
    let request = Request {
        goal: "prepare the quarterly report",
        response_schema: OPENAI_SCHEMA,
    };

    // Turn 1: admit the good proposal.
    let (what, response) = provider
        .complete(&request)
        .ok_or("the script ended early")?;
    let admitted = admit(Proposal::schema(), Dialect::OpenAi, response)
        .map_err(|d| format!("{what} was refused:\n{d}"))?;
    let evidence = admitted.canonical;
    let proposal =
        Proposal::decode(evidence.as_bytes()).map_err(|d| format!("evidence refused:\n{d}"))?;
    println!("admitted {what}:");
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

    // Turns 2 and 3: refusals from the provider.
    let mut expect_refusal = |rule: &str| -> Result<(), String> {
        let (what, response) = provider
            .complete(&request)
            .ok_or("the script ended early")?;
        match admit(Proposal::schema(), Dialect::OpenAi, response) {
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
    let reencoded = proposal
        .encode()
        .map_err(|d| format!("encode failed:\n{d}"))?;
    if replayed.value != admitted.value || replayed.canonical != evidence || reencoded != evidence {
        return Err("replay differs from the admitted evidence".into());
    }
    println!(
        "\nreplayed the evidence ({} bytes): same value, same canonical bytes",
        evidence.len()
    );
    Ok(())
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
    #[test]
    fn the_grammar_mode_answers_only_what_the_decoder_admits() {
        // Several seeds: every sampled answer decodes strictly.
        for seed in 1..=5 {
            super::run_grammar(4, seed).unwrap();
        }
    }
}
