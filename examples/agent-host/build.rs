//! Derives the planner's interaction schemas, writes them (and their
//! provider projections) to `$OUT_DIR/spx/`, and checks them against the
//! pins in `spx.lock`. The roots come from `[package.metadata.spx]`.

fn main() -> Result<(), spx_build::Error> {
    spx_build::Config::from_metadata()?.compile()?;
    Ok(())
}
