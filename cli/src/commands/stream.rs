//! `--chunk N` and `--events` of `spx decode` and `spx admit`: the input
//! fed through a stream in N-byte chunks, and the stream's events as JSON
//! lines on stdout before the result.

use crate::output::{CmdResult, Failure, Output};
use spx_schema::stream::Event;
use spx_schema::Diagnostic;

/// How the input is fed.
pub struct Feed {
    chunk: Option<usize>,
    events: bool,
}

impl Feed {
    pub fn new(chunk: Option<u64>, events: bool) -> Feed {
        Feed {
            chunk: chunk.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
            events,
        }
    }

    /// True when the input goes through a stream (`--chunk` or `--events`).
    pub fn streaming(&self) -> bool {
        self.chunk.is_some() || self.events
    }

    /// The input cut in chunks (the whole input without `--chunk`).
    pub fn chunks<'b>(&self, bytes: &'b [u8]) -> std::slice::Chunks<'b, u8> {
        bytes.chunks(self.chunk.unwrap_or(bytes.len()).max(1))
    }
}

/// The event lines written so far.
#[derive(Default)]
pub struct Lines {
    on: bool,
    out: Vec<u8>,
}

impl Lines {
    pub fn new(feed: &Feed) -> Lines {
        Lines {
            on: feed.events,
            out: Vec::new(),
        }
    }

    pub fn push(&mut self, e: Event) {
        if self.on {
            self.out.extend_from_slice(e.to_json_line().as_bytes());
            self.out.push(b'\n');
        }
    }

    /// The command's result: the event lines, then the output; or the
    /// event lines and the refusal.
    pub fn result(self, r: Result<String, Diagnostic>) -> CmdResult {
        match r {
            Ok(text) => {
                let mut stdout = self.out;
                stdout.extend_from_slice(text.as_bytes());
                Ok(Output::from(stdout))
            }
            Err(d) => {
                let mut f = Failure::from(d);
                f.stdout = self.out;
                Err(f)
            }
        }
    }
}
