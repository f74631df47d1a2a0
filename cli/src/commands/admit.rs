//! `spx admit`: raw provider output to the canonical value document (JSON
//! in every format); with `--chunk`/`--events` through the streaming
//! admitter, and with `--sse` from a recorded provider event stream.

use super::stream::{Feed, Lines};
use crate::input::{compile, one_stdin, read_input};
use crate::output::{CmdResult, Ctx, Output};
use spx_schema::project::Dialect;
use spx_schema::stream::sse::{Provider, SseReader};
use spx_schema::stream::StreamAdmitter;
use std::path::Path;

pub fn run(
    ctx: &mut Ctx,
    dialect: Dialect,
    feed: &Feed,
    sse: Option<Provider>,
    source: &Path,
    root: &str,
    file: Option<&Path>,
) -> CmdResult {
    one_stdin(&[Some(source), Some(file.unwrap_or(Path::new("-")))])?;
    let s = compile(ctx, source, root)?;
    let bytes = read_input(file)?;
    if !feed.streaming() && sse.is_none() {
        return Ok(Output::from(
            spx_schema::admit::admit(&s, dialect, &bytes)?.canonical,
        ));
    }
    let mut lines = Lines::new(feed);
    let mut stream = StreamAdmitter::new(&s, dialect);
    match sse {
        None => {
            for chunk in feed.chunks(&bytes) {
                if stream.feed_with(chunk, &mut |e| lines.push(e)).is_err() {
                    break;
                }
            }
        }
        Some(provider) => {
            // The event stream in chunks; each piece of answer text to the
            // admitter as soon as its event is complete.
            let mut reader = SseReader::new(provider);
            let mut refused = false;
            for chunk in feed.chunks(&bytes) {
                let read = reader.feed(chunk, &mut |text| {
                    if !refused {
                        refused = stream
                            .feed_with(text.as_bytes(), &mut |e| lines.push(e))
                            .is_err();
                    }
                });
                if let Err(d) = read {
                    return lines.result(Err(d));
                }
                if refused {
                    break;
                }
            }
            if !refused {
                if let Err(d) = reader.finish() {
                    return lines.result(Err(d));
                }
            }
        }
    }
    lines.result(stream.finish().map(|d| d.canonical))
}
