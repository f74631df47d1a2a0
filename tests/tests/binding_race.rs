//! Source binding (FORMAT.md §5): derivation reads one snapshot of the
//! `.spx` bytes and, immediately before returning success, re-checks that
//! the file still holds exactly those bytes. A change in between fails
//! closed with SPX-F002 `source.changed` and returns no schema; a rewrite
//! to identical bytes is not a change.

use spx_schema::binding::{self, compile_file, compile_file_with_hook, SOURCE_CHANGED};
use spx_schema::source::read_module;
use spx_schema::{Location, Schema};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

const A: &str =
    "module race;\n@id(\"race.r\")\nrecord R {\n    @id(\"race.r.x\")\n    x: i64,\n}\n";
const B: &str =
    "module race;\n@id(\"race.r\")\nrecord R {\n    @id(\"race.r.y\")\n    y: bool,\n}\n";

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("spx-binding-race-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn file(&self, text: &str) -> PathBuf {
        let p = self.0.join("race.spx");
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn derived(text: &str) -> Schema {
    Schema::derive(&read_module("race.spx", text).unwrap(), "race.r").unwrap()
}

fn assert_changed(errs: &[spx_schema::Diagnostic]) {
    assert_eq!(errs.len(), 1, "{errs:?}");
    let e = &errs[0];
    assert_eq!((e.code, e.rule), (SOURCE_CHANGED, "source.changed"));
    assert_eq!(e.code.as_str(), "SPX-F002");
    assert_eq!(
        e.location,
        Location::File {
            path: "race.spx".into()
        }
    );
    assert!(e.message.contains("changed"), "{}", e.message);
}

#[test]
fn a_rewrite_between_snapshot_and_check_fails_closed() {
    let dir = Scratch::new("rewrite");
    let path = dir.file(A);
    let errs = compile_file_with_hook(&path, "race.spx", "race.r", || {
        std::fs::write(&path, B).unwrap();
    })
    .unwrap_err();
    assert_changed(&errs);
    // Neither the old nor the new schema was returned; a fresh derivation
    // now sees B.
    assert_eq!(
        compile_file(&path, "race.spx", "race.r").unwrap(),
        derived(B)
    );
}

#[test]
fn a_change_that_keeps_the_schema_still_fails_closed() {
    // Only a comment changes: the derivation would be identical, but the
    // bytes are not the ones that were read.
    let dir = Scratch::new("comment");
    let path = dir.file(A);
    let errs = compile_file_with_hook(&path, "race.spx", "race.r", || {
        std::fs::write(&path, format!("{A}// edited\n")).unwrap();
    })
    .unwrap_err();
    assert_changed(&errs);
    // One byte more, one byte less, same length with one byte changed.
    for edit in [
        format!("{A} "),
        A[..A.len() - 1].to_owned(),
        A.replace("race.r.x", "race.r.X"),
    ] {
        let errs = compile_file_with_hook(&path, "race.spx", "race.r", || {
            std::fs::write(&path, &edit).unwrap();
        })
        .unwrap_err();
        assert_changed(&errs);
        std::fs::write(&path, A).unwrap();
    }
}

#[test]
fn a_deleted_or_replaced_file_fails_closed() {
    let dir = Scratch::new("delete");
    let path = dir.file(A);
    let errs = compile_file_with_hook(&path, "race.spx", "race.r", || {
        std::fs::remove_file(&path).unwrap();
    })
    .unwrap_err();
    assert_changed(&errs);
    // Replaced by a directory.
    let path = dir.file(A);
    let errs = compile_file_with_hook(&path, "race.spx", "race.r", || {
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
    })
    .unwrap_err();
    assert_changed(&errs);
}

#[test]
fn a_rewrite_to_identical_bytes_is_fine() {
    let dir = Scratch::new("identical");
    let path = dir.file(A);
    let s = compile_file_with_hook(&path, "race.spx", "race.r", || {
        std::fs::write(&path, A).unwrap();
    })
    .unwrap();
    assert_eq!(s, derived(A));
    // Changed and changed back before the check (A → B → A): the bytes
    // are the snapshot's, so the schema is the snapshot's.
    let s = compile_file_with_hook(&path, "race.spx", "race.r", || {
        std::fs::write(&path, B).unwrap();
        std::fs::write(&path, A).unwrap();
    })
    .unwrap();
    assert_eq!(s, derived(A));
    // Replaced by another file (new inode) with the same bytes.
    let s = compile_file_with_hook(&path, "race.spx", "race.r", || {
        let tmp = dir.0.join("tmp.spx");
        std::fs::write(&tmp, A).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
    })
    .unwrap();
    assert_eq!(s, derived(A));
}

#[test]
fn bundle_verification_is_bound_too() {
    let dir = Scratch::new("bundle");
    let path = dir.file(A);
    let doc = derived(A).document().to_owned();
    binding::verify_bundle(&path, "race.spx", "race.r", doc.as_bytes()).unwrap();
    std::fs::write(&path, B).unwrap();
    let errs = binding::verify_bundle(&path, "race.spx", "race.r", doc.as_bytes()).unwrap_err();
    assert_eq!(
        (errs[0].code.as_str(), errs[0].rule),
        ("SPX-Z204", "schema.replay")
    );
}

/// A writer thread swaps the file between A and B (atomically, by rename,
/// so every read sees one whole version) while the main thread derives
/// again and again: every success is exactly the schema of A or of B, and
/// every failure is SPX-F002. Which of them happen depends on scheduling;
/// the hook tests above are the deterministic proof of the failure path.
#[test]
fn a_concurrent_writer_never_yields_a_mixed_schema() {
    let dir = Scratch::new("writer");
    let path = dir.file(A);
    let (sa, sb) = (derived(A), derived(B));
    let stop = Arc::new(AtomicBool::new(false));
    let writes = Arc::new(AtomicUsize::new(0));
    let writer = {
        let (stop, writes) = (stop.clone(), writes.clone());
        let dir = dir.0.clone();
        let path = path.clone();
        std::thread::spawn(move || {
            let mut b = true;
            while !stop.load(Ordering::Relaxed) {
                let tmp = dir.join(if b { "wb.spx" } else { "wa.spx" });
                std::fs::write(&tmp, if b { B } else { A }).unwrap();
                std::fs::rename(&tmp, &path).unwrap();
                writes.fetch_add(1, Ordering::Relaxed);
                b = !b;
            }
        })
    };
    let (mut ok_a, mut ok_b, mut changed) = (0, 0, 0);
    for _ in 0..300 {
        match compile_file(&path, "race.spx", "race.r") {
            Ok(s) if s == sa => ok_a += 1,
            Ok(s) if s == sb => ok_b += 1,
            Ok(s) => panic!("a schema of neither version: {}", s.document()),
            Err(errs) => {
                assert_changed(&errs);
                changed += 1;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    eprintln!(
        "A: {ok_a}, B: {ok_b}, SPX-F002: {changed}, writes: {}",
        writes.load(Ordering::Relaxed)
    );
    assert_eq!(ok_a + ok_b + changed, 300);
    assert!(writes.load(Ordering::Relaxed) > 0);
    assert!(Path::new(&path).exists());
}
