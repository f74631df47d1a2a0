//! `spx pin`: re-pin `spx.lock`, or check it.

use crate::output::{CmdResult, Failure};
use spx_build::pin::PinChange;
use std::path::Path;

pub fn run(check: bool, package: &Path) -> CmdResult {
    let report =
        spx_build::pin::run(package, check).map_err(|e| Failure::from(e.diagnostics().to_vec()))?;
    let mut out = String::new();
    for e in &report.entries {
        let what = match &e.change {
            PinChange::Unchanged => "unchanged".to_owned(),
            PinChange::Created => "created".to_owned(),
            PinChange::Updated { from } => format!("updated (was {from})"),
            PinChange::Removed => "removed".to_owned(),
        };
        out.push_str(&format!("{} {} {} {what}\n", e.source, e.root, e.digest));
    }
    if check {
        out.push_str("pins are current\n");
    }
    Ok(out.into_bytes())
}
