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
use toktrie::ApproximateTokEnv;

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
    println!("| root | types | grammar bytes | lines | narrowings | spx builds it | llguidance compiles it (median of 5) | first mask |");
    println!("|---|---|---|---|---|---|---|---|");
    for (name, s) in &schemas {
        let t = Instant::now();
        let p = project(s, Dialect::Lark).unwrap();
        let built = t.elapsed();
        let mut compile = Vec::new();
        let mut first = Duration::ZERO;
        for _ in 0..5 {
            let t = Instant::now();
            let parser = factory.create_parser(TopLevelGrammar::from_lark(p.document.clone()));
            let mut m = Matcher::new(parser);
            compile.push(t.elapsed());
            assert!(!m.is_error(), "{:?}", m.get_error());
            let t = Instant::now();
            m.compute_mask().unwrap();
            first = t.elapsed();
        }
        compile.sort();
        println!(
            "| {name} | {} | {} | {} | {} | {:.2} ms | {:.2} ms | {:.2} ms |",
            s.graph().types.len(),
            p.document.len(),
            p.document.lines().count(),
            p.narrowings.len(),
            built.as_secs_f64() * 1e3,
            compile[2].as_secs_f64() * 1e3,
            first.as_secs_f64() * 1e3
        );
    }
}
