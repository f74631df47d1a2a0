//! `spx decode`: strict decoding of a value document (the canonical
//! document is JSON in every format); with `--chunk`/`--events` through
//! the streaming decoder.

use super::stream::{Feed, Lines};
use crate::input::{compile, one_stdin, read_input};
use crate::output::{CmdResult, Ctx, Output};
use spx_schema::stream::StreamDecoder;
use std::path::Path;

pub fn run(
    ctx: &mut Ctx,
    feed: &Feed,
    source: &Path,
    root: &str,
    document: Option<&Path>,
) -> CmdResult {
    one_stdin(&[Some(source), Some(document.unwrap_or(Path::new("-")))])?;
    let s = compile(ctx, source, root)?;
    let bytes = read_input(document)?;
    if !feed.streaming() {
        let decoded = spx_schema::decode::decode(&s, &bytes)?;
        return Ok(Output::from(decoded.canonical));
    }
    let mut lines = Lines::new(feed);
    let mut stream = StreamDecoder::new(&s);
    for chunk in feed.chunks(&bytes) {
        if stream.feed_with(chunk, &mut |e| lines.push(e)).is_err() {
            break;
        }
    }
    lines.result(stream.finish().map(|d| d.canonical))
}
