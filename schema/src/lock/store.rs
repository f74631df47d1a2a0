//! The files of a package's pins: `spx.lock`, and the pinned documents in
//! `spx.lock.d/`, each written atomically and only when its bytes change.
//!
//! The pinned document of root `r` is kept as
//! `spx.lock.d/<pin_file_stem(r)>.schema.json` (see [`pin_file_stem`]), so
//! that drift can be explained structurally ([`crate::diff`]).

use super::format::Lock;
use super::messages::io_error;
use super::{LOCK_FILE, PIN_DIR};
use crate::diag::Diagnostic;
use crate::schema::Schema;
use std::io::Write as _;
use std::path::{Path, PathBuf};

impl Lock {
    /// Reads `<package_dir>/spx.lock`. `Ok(None)` when the file is absent.
    pub fn read(package_dir: &Path) -> Result<Option<Lock>, Diagnostic> {
        let path = package_dir.join(LOCK_FILE);
        match std::fs::read(&path) {
            Ok(bytes) => Lock::parse(&bytes).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_error(LOCK_FILE, "read", &e)),
        }
    }

    /// Writes `<package_dir>/spx.lock` atomically (temporary file in the
    /// same directory, then rename). Writes nothing when the file already
    /// holds exactly these bytes. Returns true when it wrote.
    pub fn write(&self, package_dir: &Path) -> Result<bool, Diagnostic> {
        write_atomic(&package_dir.join(LOCK_FILE), self.render().as_bytes())
            .map_err(|e| io_error(LOCK_FILE, "write", &e))
    }
}

/// The file-name stem of the pinned document of `root`: bytes `a-z 0-9 . _ -`
/// are kept, every other UTF-8 byte (upper-case letters included, so that
/// two roots never collide on a case-insensitive file system) is written
/// as `%` and two upper-case hex digits. A leading `.` is escaped too, so no
/// pinned document is a hidden file.
pub fn pin_file_stem(root: &str) -> String {
    let mut out = String::with_capacity(root.len());
    for (i, b) in root.bytes().enumerate() {
        let keep = b.is_ascii_lowercase()
            || b.is_ascii_digit()
            || b == b'_'
            || b == b'-'
            || (b == b'.' && i > 0);
        if keep {
            out.push(b as char);
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 0xf) as usize] as char);
        }
    }
    out
}

/// The package-relative path of the pinned document of `root`
/// (`spx.lock.d/<stem>.schema.json`), `/`-separated.
pub fn pinned_schema_relative(root: &str) -> String {
    format!("{PIN_DIR}/{}.schema.json", pin_file_stem(root))
}

/// The path of the pinned document of `root` under `package_dir`.
pub fn pinned_schema_path(package_dir: &Path, root: &str) -> PathBuf {
    package_dir
        .join(PIN_DIR)
        .join(format!("{}.schema.json", pin_file_stem(root)))
}

/// The pinned document of `root` kept in `spx.lock.d/`, read back with
/// [`Schema::parse_document`]. `None` when it is absent, unreadable or not
/// a canonical schema document of that root.
pub fn read_pinned_schema(package_dir: &Path, root: &str) -> Option<Schema> {
    let bytes = std::fs::read(pinned_schema_path(package_dir, root)).ok()?;
    let schema = Schema::parse_document(&bytes).ok()?;
    (schema.root_type_id() == root).then_some(schema)
}

/// Writes the pinned document of `schema` atomically into
/// `<package_dir>/spx.lock.d/`, creating the directory. Writes nothing when
/// the bytes are unchanged; returns true when it wrote.
pub fn write_pinned_schema(package_dir: &Path, schema: &Schema) -> Result<bool, Diagnostic> {
    let rel = pinned_schema_relative(schema.root_type_id());
    let dir = package_dir.join(PIN_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| io_error(PIN_DIR, "create", &e))?;
    write_atomic(
        &pinned_schema_path(package_dir, schema.root_type_id()),
        schema.document().as_bytes(),
    )
    .map_err(|e| io_error(&rel, "write", &e))
}

/// Removes the pinned document of `root`, if present. Returns true when it
/// removed one.
pub fn remove_pinned_schema(package_dir: &Path, root: &str) -> Result<bool, Diagnostic> {
    match std::fs::remove_file(pinned_schema_path(package_dir, root)) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io_error(&pinned_schema_relative(root), "remove", &e)),
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory is written, flushed and renamed over `path`, so a reader sees
/// either the old or the new bytes, never a partial file. Writes nothing
/// (and returns false) when `path` already holds exactly `bytes`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    if let Ok(existing) = std::fs::read(path) {
        if existing == bytes {
            return Ok(false);
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.tmp.{}.{n}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems() {
        assert_eq!(pin_file_stem("planner.proposal"), "planner.proposal");
        assert_eq!(pin_file_stem("A/b c"), "%41%2Fb%20c");
        assert_eq!(pin_file_stem(".x"), "%2Ex");
        assert_eq!(pin_file_stem("é"), "%C3%A9");
    }
}
