//! Prints the size of the Lark grammar of every fixture root and of the
//! 64-type module, and the time llguidance takes to compile each one
//! (`cargo run -p spx-tests --example grammar_sizes`; llguidance, derivre
//! and toktrie are optimised even in the dev profile, see the workspace's
//! Cargo.toml, so its compile times are those of an optimised build; add
//! `--release` for the engine's own build times).

use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use spx_schema::project::{project, Dialect};
use spx_schema::Schema;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use toktrie::{ApproximateTokEnv, TokEnv, TokRxInfo, TokTrie};

/// A 32768-token vocabulary: every byte, then pieces of 2 to 8 characters
/// of JSON-ish text (letters, digits, punctuation, escapes, non-ASCII), so
/// that compiling sees a vocabulary of a realistic size.
fn vocabulary() -> TokEnv {
    const ALPHABET: &[&str] = &[
        "a", "e", "t", "s", ".", "_", "\"", ":", ",", "{", "}", "[", "]", "0", "1", "9", "-", "\\",
        "u", "n", "é", "€", " ", "fields", "case", "true", "false",
    ];
    let mut words: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    let mut seen: std::collections::HashSet<Vec<u8>> = words.iter().cloned().collect();
    let mut state = 0x5eed_u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    while words.len() < 32767 {
        let len = 2 + next(7);
        let w: String = (0..len).map(|_| ALPHABET[next(ALPHABET.len())]).collect();
        if seen.insert(w.clone().into_bytes()) {
            words.push(w.into_bytes());
        }
    }
    words.push(b"\xFF<|end|>".to_vec());
    let info = TokRxInfo::new(words.len() as u32, words.len() as u32 - 1);
    std::sync::Arc::new(ApproximateTokEnv::new(TokTrie::from(&info, &words)))
}

/// The median of 5 compilations of `grammar` (`create_parser` and
/// `Matcher::new`).
fn time(factory: &ParserFactory, grammar: &str) -> Duration {
    let mut compile = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let parser = factory.create_parser(TopLevelGrammar::from_lark(grammar.to_owned()));
        let m = Matcher::new(parser);
        compile.push(t.elapsed());
        assert!(!m.is_error(), "{:?}", m.get_error());
    }
    compile.sort();
    compile[2]
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut schemas: Vec<(String, Schema)> = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("golden/schema"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let s = Schema::parse_document(&std::fs::read(&f).unwrap()).unwrap();
        schemas.push((f.file_name().unwrap().to_string_lossy().into_owned(), s));
    }
    let planner = root.join("../examples/agent-host/agents/planner.spx");
    let text = std::fs::read_to_string(&planner).unwrap();
    let module = spx_schema::source::read_module("planner.spx", &text).unwrap();
    schemas.push((
        "agent-host planner.proposal".into(),
        Schema::derive(&module, "planner.proposal").unwrap(),
    ));
    let text = std::fs::read_to_string(root.join("fixtures/bench/types64.spx")).unwrap();
    let module = spx_schema::source::read_module("types64.spx", &text).unwrap();
    schemas.push((
        "types64.spx (64 types)".into(),
        Schema::derive(&module, "wide.t1").unwrap(),
    ));
    let env = ApproximateTokEnv::single_byte_env();
    let mut factory = ParserFactory::new_simple(&env).unwrap();
    factory.set_stderr_log_level(0);
    let big = vocabulary();
    let mut big_factory = ParserFactory::new_simple(&big).unwrap();
    big_factory.set_stderr_log_level(0);
    println!("| root | types | grammar bytes | lines | narrowings | spx builds it | llguidance compiles it (262 tokens) | (32768 tokens) |");
    println!("|---|---|---|---|---|---|---|---|");
    for (name, s) in &schemas {
        let t = Instant::now();
        let p = project(s, Dialect::Lark).unwrap();
        let built = t.elapsed();
        let compile = time(&factory, &p.document);
        let big_compile = time(&big_factory, &p.document);
        println!(
            "| {name} | {} | {} | {} | {} | {:.2} ms | {:.2} ms | {:.2} ms |",
            s.graph().types.len(),
            p.document.len(),
            p.document.lines().count(),
            p.narrowings.len(),
            built.as_secs_f64() * 1e3,
            compile.as_secs_f64() * 1e3,
            big_compile.as_secs_f64() * 1e3
        );
    }
}
