//! The committed document corpus (tests/fixtures/bench/{small,medium,large}.json)
//! and its deterministic generator.
//!
//! The documents are values built with the generated types, encoded by the
//! engine's encoder (`spx_schema::encode::encode`). Loading checks that the
//! committed bytes are exactly what the generator produces today; after a
//! change to bench.spx or to this file, regenerate them with
//!
//! ```text
//! SPX_BENCH_REGENERATE=1 cargo bench -p spx-tests --bench allocs
//! ```

use super::planner::{Action, Budget, Context, Priority, Proposal, Step, Verdict, Window};
use super::{fixture_dir, schema, Root};
use spx_runtime::engine;
use spx_runtime::Interaction;

/// The documents, in table order: name, root, exact size in bytes (`None`
/// when the size is whatever the value needs).
pub const DOCS: [(&str, Root, Option<usize>); 3] = [
    ("small", Root::Verdict, None),
    ("medium", Root::Proposal, Some(4096)),
    ("large", Root::Proposal, Some(61440)),
];

/// The environment variable that makes [`load`] rewrite the committed files.
pub const REGENERATE: &str = "SPX_BENCH_REGENERATE";

/// Reads the committed corpus, checking it against the generator (or
/// rewriting it when `SPX_BENCH_REGENERATE` is set).
pub fn load() -> Vec<(&'static str, Root, Vec<u8>)> {
    let regenerate = std::env::var_os(REGENERATE).is_some();
    DOCS.iter()
        .map(|&(name, root, _)| {
            let generated = generate(name);
            let path = fixture_dir().join(format!("{name}.json"));
            if regenerate {
                std::fs::write(&path, &generated)
                    .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
            }
            let committed = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            assert!(
                committed == generated,
                "{} is not what the generator produces; regenerate with \
                 `{REGENERATE}=1 cargo bench -p spx-tests --bench allocs`",
                path.display()
            );
            (name, root, committed)
        })
        .collect()
}

/// The bytes of one document of [`DOCS`].
pub fn generate(name: &str) -> Vec<u8> {
    let (_, root, size) = DOCS
        .iter()
        .find(|d| d.0 == name)
        .unwrap_or_else(|| panic!("no document {name}"));
    let value = match name {
        "small" => Verdict {
            trace_id: 9_007_199_254_740_993,
            accepted: true,
            reason: "approved".to_owned(),
        }
        .to_value(),
        "medium" => proposal(&Sizes::MEDIUM, *size).to_value(),
        _ => proposal(&Sizes::LARGE, *size).to_value(),
    };
    let doc = engine::encode::encode(&schema(root.id()), &value)
        .unwrap_or_else(|d| panic!("the engine cannot encode {name}: {d}"));
    if let Some(size) = size {
        assert_eq!(doc.len(), *size, "{name} has the wrong size");
    }
    doc.into_bytes()
}

/// How long the strings and byte arrays of a proposal are.
struct Sizes {
    goal: usize,
    title: usize,
    rationale: usize,
    content: usize,
    attachment: usize,
    nonce: usize,
}

impl Sizes {
    const MEDIUM: Sizes = Sizes {
        goal: 60,
        title: 30,
        rationale: 100,
        content: 32,
        attachment: 24,
        nonce: 16,
    };
    const LARGE: Sizes = Sizes {
        goal: 4000,
        title: 200,
        rationale: 3900,
        content: 4096,
        attachment: 3000,
        nonce: 256,
    };
}

/// A proposal whose canonical document is exactly `size` bytes: the
/// summary is padded to fill it.
fn proposal(s: &Sizes, size: Option<usize>) -> Proposal {
    let mut rng = Rng(0x5eed_0000_0000_0001 ^ s.rationale as u64);
    let step = |rng: &mut Rng, action: Action, priority: Priority, confidence: u8| Step {
        action,
        priority,
        title: text(rng, s.title),
        rationale: text(rng, s.rationale),
        confidence,
    };
    let step_1 = step(
        &mut rng,
        Action::Fetch {
            url: "https://api.example.org/v2/reports/2026-Q3?format=csv&page=1".to_owned(),
            max_bytes: 1 << 20,
        },
        Priority::Normal,
        87,
    );
    let content = bytes(&mut rng, s.content);
    let step_2 = step(
        &mut rng,
        Action::Write {
            path: "/var/lib/agent/out/report-2026-q3.csv".to_owned(),
            content,
        },
        Priority::Urgent {
            deadline_ms: 1_767_225_600_000,
        },
        64,
    );
    let step_3 = step(
        &mut rng,
        Action::Shell {
            command: "sha256sum --check report-2026-q3.sha256".to_owned(),
            timeout_s: 30,
            retries: 2,
        },
        Priority::Low,
        91,
    );
    let step_4 = step(
        &mut rng,
        Action::Wait {
            window: Window {
                start_ms: 1_767_225_600_000,
                end_ms: 1_767_229_200_000,
            },
        },
        Priority::Normal,
        50,
    );
    let step_5 = step(&mut rng, Action::Done, Priority::Low, 100);
    let fallback = step(
        &mut rng,
        Action::Fetch {
            url: "https://mirror.example.net/reports/2026/q3.csv".to_owned(),
            max_bytes: 262_144,
        },
        Priority::Urgent {
            deadline_ms: -1, // "no deadline" in this host's convention
        },
        12,
    );
    let context = Context {
        goal: text(&mut rng, s.goal),
        user: "user-4821@example.org".to_owned(),
        locale: "fr-FR".to_owned(),
        attachment: bytes(&mut rng, s.attachment),
    };
    let mut p = Proposal {
        trace_id: 9_007_199_254_740_993,
        context,
        step_1,
        step_2,
        step_3,
        step_4,
        step_5,
        fallback,
        budget: Budget {
            max_tokens: 200_000,
            max_cost_micros: 2_500_000,
            retries: 3,
            strict: true,
        },
        offset_s: -3600,
        confident: true,
        nonce: bytes(&mut rng, s.nonce),
        summary: String::new(),
    };
    if let Some(size) = size {
        let without = p.encode().map(|d| d.len()).unwrap_or(usize::MAX);
        let room = size
            .checked_sub(without)
            .unwrap_or_else(|| panic!("the proposal is {without} bytes without a summary"));
        p.summary = plain_text(&mut rng, room);
    }
    p
}

/// xorshift64*: deterministic on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const WORDS: &[&str] = &[
    "the",
    "report",
    "fetch",
    "quarterly",
    "numbers",
    "from",
    "upstream",
    "cache",
    "and",
    "verify",
    "checksum",
    "before",
    "writing",
    "output",
    "to",
    "disk",
    "because",
    "budget",
    "allows",
    "one",
    "retry",
    "if",
    "the",
    "mirror",
    "times",
    "out",
    "user",
    "asked",
    "for",
    "a",
    "summary",
    "of",
    "Q3",
    "revenue",
    "by",
    "region",
    "café",
    "naïve",
    "déjà",
    "vu",
    "→",
    "—",
    "日本語",
    "€42",
    "step",
    "is",
    "safe",
    "idempotent",
    "read-only",
    "window",
    "closes",
    "at",
    "noon",
    "UTC",
];

const SEPARATORS: &[&str] = &[
    " ", " ", " ", " ", " ", " ", " ", ", ", ". ", "\n", "\t", " \"", "\" ", " (", ") ", ": ",
];

/// Prose with the escapes a model really sends (quotes, LF, TAB) and
/// non-ASCII text: at most `max` UTF-8 bytes.
fn text(rng: &mut Rng, max: usize) -> String {
    let mut out = String::with_capacity(max);
    loop {
        let word = WORDS[rng.below(WORDS.len())];
        let sep = SEPARATORS[rng.below(SEPARATORS.len())];
        if out.len() + word.len() + sep.len() > max {
            break;
        }
        out.push_str(word);
        out.push_str(sep);
    }
    out
}

/// ASCII prose with no character that needs an escape: exactly `len` bytes.
fn plain_text(rng: &mut Rng, len: usize) -> String {
    assert!(
        len <= 4096,
        "a summary of {len} bytes is over the string bound"
    );
    let mut out = String::with_capacity(len);
    while out.len() < len {
        let word = WORDS[rng.below(WORDS.len())];
        if word.is_ascii() && out.len() + word.len() < len {
            out.push_str(word);
        }
        out.push(' ');
    }
    out.truncate(len);
    out
}

fn bytes(rng: &mut Rng, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.next() as u8).collect()
}
