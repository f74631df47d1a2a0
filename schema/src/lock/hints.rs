//! Which commands can re-pin a package in a given situation, so that no
//! hint ever names one that cannot work there, and what a build script
//! tells the `spx_interaction!` calls of its crate about the roots it pins
//! (the `SPX_BUILD_ROOTS` variable).
//!
//! * `SPX_UPDATE_PINS=1 cargo build` re-pins only when a build script of
//!   the package runs spx-build for the root with the pin policy read from
//!   the environment ([`crate::lock::PinPolicy::FromEnv`]), and `CI` is not
//!   set.
//! * `spx pin` re-pins only the roots `[package.metadata.spx]` lists.

use crate::quote::quote;

/// What can re-pin the package a message is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Repin {
    /// `SPX_UPDATE_PINS=1 cargo build` re-pins the root (outside CI).
    pub update_env: bool,
    /// `spx pin` re-pins the root: `[package.metadata.spx]` lists it.
    pub spx_pin: bool,
    /// `CI` is set, so nothing is written here: the commands are for a
    /// checkout where it is not.
    pub ci: bool,
    /// The configuration sets its pin policy in code (a build helper
    /// `Config` with an explicit [`crate::lock::PinPolicy`]): running it
    /// once with `PinPolicy::Update` re-pins.
    pub policy_in_code: bool,
}

impl Repin {
    /// The commands that work, as a hint ends them: `` `SPX_UPDATE_PINS=1
    /// cargo build` or `spx pin` `` (or one of them); `None` when neither
    /// works. To `create` a missing pin a plain `` `cargo build` `` is
    /// enough.
    pub fn commands(self, create: bool) -> Option<&'static str> {
        match (self.update_env, self.spx_pin, create) {
            (true, true, false) => Some("`SPX_UPDATE_PINS=1 cargo build` or `spx pin`"),
            (true, true, true) => Some("`cargo build` or `spx pin`"),
            (true, false, false) => Some("`SPX_UPDATE_PINS=1 cargo build`"),
            (true, false, true) => Some("`cargo build`"),
            (false, true, _) => Some("`spx pin`"),
            (false, false, _) => None,
        }
    }

    /// "`verb` with …" (`verb` is "re-pin", "pin it" or "re-create it"),
    /// with "where `CI` is not set, and commit …" under CI; when no command
    /// works, what to do instead. `create`: see [`Repin::commands`].
    pub fn hint(self, verb: &str, create: bool) -> String {
        match self.commands(create) {
            Some(c) if self.ci => format!(
                "{verb} with {c} where `CI` is not set, and commit spx.lock and spx.lock.d/"
            ),
            Some(c) => format!("{verb} with {c}"),
            None if self.policy_in_code => format!(
                "{verb} by running this configuration once with `.pin_policy(PinPolicy::Update)` (it sets its pin policy itself, so `SPX_UPDATE_PINS` does not apply)"
            ),
            None => format!(
                "{verb} with `spx pin` once the root is listed in `[package.metadata.spx]` of Cargo.toml (no build script of this package pins it)"
            ),
        }
    }
}

/// The name of the variable a build script sets (`cargo:rustc-env`) for
/// its crate: the roots it pins, so that a macro call can say whether
/// `SPX_UPDATE_PINS=1 cargo build` or `spx pin` would pin its root.
pub const BUILD_ROOTS_VAR: &str = "SPX_BUILD_ROOTS";

/// The value of [`BUILD_ROOTS_VAR`]: what the package's build script pins.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BuildRoots {
    /// The configuration came from `[package.metadata.spx]`, so `spx pin`
    /// pins the same roots.
    pub from_metadata: bool,
    /// The pin policy is read from the environment, so `SPX_UPDATE_PINS=1`
    /// re-pins.
    pub update_env: bool,
    /// Each pinned root: the normal form of its source path, and its id.
    pub roots: Vec<(String, String)>,
}

/// `%XX` for every byte but `A-Z a-z 0-9 . _ / -`, so a field holds no
/// space, `=` or control character.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'/' | b'-') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn unescape(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

impl BuildRoots {
    /// The variable's value: `1`, the flags (`m` from metadata, `e` policy
    /// from the environment, or `-`), then `source=root` per root, each
    /// field `%`-escaped, all separated by single spaces.
    pub fn encode(&self) -> String {
        let mut flags = String::new();
        if self.from_metadata {
            flags.push('m');
        }
        if self.update_env {
            flags.push('e');
        }
        if flags.is_empty() {
            flags.push('-');
        }
        let mut out = format!("1 {flags}");
        for (source, root) in &self.roots {
            out.push_str(&format!(" {}={}", escape(source), escape(root)));
        }
        out
    }

    /// Reads a value written by [`BuildRoots::encode`]; `None` for anything
    /// else (another version of spx-build).
    pub fn decode(value: &str) -> Option<BuildRoots> {
        let mut parts = value.split(' ');
        if parts.next()? != "1" {
            return None;
        }
        let flags = parts.next()?;
        let mut roots = Vec::new();
        for p in parts {
            let (source, root) = p.split_once('=')?;
            roots.push((unescape(source)?, unescape(root)?));
        }
        Some(BuildRoots {
            from_metadata: flags.contains('m'),
            update_env: flags.contains('e'),
            roots,
        })
    }

    /// True when the build script pins `root` of the source whose pin key
    /// is `source`.
    pub fn pins(&self, source: &str, root: &str) -> bool {
        self.roots.iter().any(|(s, r)| s == source && r == root)
    }
}

/// What a macro call knows about its package's build script: the decoded
/// [`BUILD_ROOTS_VAR`] (`None` when no build script running spx-build set
/// it) and whether `SPX_UPDATE_PINS` is set.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MacroBuild {
    /// What the build script pins, when one ran spx-build.
    pub build: Option<BuildRoots>,
    /// `SPX_UPDATE_PINS` is set (not empty, `0` or `false`).
    pub update_pins: bool,
    /// `CI` is set.
    pub ci: bool,
}

impl MacroBuild {
    /// Read from the process environment (the compiler's, for a macro).
    pub fn from_env() -> MacroBuild {
        MacroBuild {
            build: std::env::var(BUILD_ROOTS_VAR)
                .ok()
                .and_then(|v| BuildRoots::decode(&v)),
            update_pins: super::plan::env_flag("SPX_UPDATE_PINS"),
            ci: super::plan::env_flag("CI"),
        }
    }

    /// What re-pins `root` of the source keyed `source` (`None` for a
    /// source outside the package, which `spx.lock` cannot pin).
    pub fn repin(&self, source: Option<&str>, root: &str) -> Repin {
        let listed = match (&self.build, source) {
            (Some(b), Some(s)) => b.pins(s, root).then_some(b),
            _ => None,
        };
        Repin {
            update_env: listed.is_some_and(|b| b.update_env),
            spx_pin: listed.is_some_and(|b| b.from_metadata),
            ci: self.ci,
            policy_in_code: false,
        }
    }

    /// When `SPX_UPDATE_PINS` is set but cannot re-pin `root`: a note
    /// saying why.
    pub fn update_pins_note(&self, source: Option<&str>, root: &str) -> Option<String> {
        if !self.update_pins || self.repin(source, root).update_env {
            return None;
        }
        Some(match (&self.build, source) {
            (_, None) => format!(
                "SPX_UPDATE_PINS is set, but spx.lock cannot pin a source outside the package, so it does not re-pin root {}",
                quote(root)
            ),
            (None, _) => format!(
                "SPX_UPDATE_PINS is set, but no build script of this package runs spx-build, so nothing re-pins root {}",
                quote(root)
            ),
            (Some(b), Some(s)) if !b.pins(s, root) => format!(
                "SPX_UPDATE_PINS is set, but the build script does not pin root {} of source {} (it is not among the roots it is configured with), so nothing re-pins it",
                quote(root),
                quote(s)
            ),
            (Some(_), Some(_)) => format!(
                "SPX_UPDATE_PINS is set, but the build script sets its pin policy itself, so it does not re-pin root {}",
                quote(root)
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_roots_round_trip() {
        let b = BuildRoots {
            from_metadata: true,
            update_env: false,
            roots: vec![
                ("agents/p.spx".into(), "p.a".into()),
                ("a b/=%.spx".into(), "r é".into()),
            ],
        };
        let v = b.encode();
        assert_eq!(v, "1 m agents/p.spx=p.a a%20b/%3D%25.spx=r%20%C3%A9");
        assert_eq!(BuildRoots::decode(&v), Some(b));
        assert_eq!(BuildRoots::decode("1 -"), Some(BuildRoots::default()));
        assert_eq!(BuildRoots::decode("2 m"), None);
        assert_eq!(BuildRoots::decode("1 m x"), None);
        assert_eq!(BuildRoots::decode("1 m x=%4"), None);
    }

    #[test]
    fn hints_name_only_what_works() {
        let r = |update_env, spx_pin, ci| Repin {
            update_env,
            spx_pin,
            ci,
            policy_in_code: false,
        };
        assert_eq!(
            r(true, true, false).hint("re-pin", false),
            "re-pin with `SPX_UPDATE_PINS=1 cargo build` or `spx pin`"
        );
        assert_eq!(
            r(false, true, false).hint("re-pin", false),
            "re-pin with `spx pin`"
        );
        assert_eq!(
            r(true, true, false).hint("pin it", true),
            "pin it with `cargo build` or `spx pin`"
        );
        assert_eq!(
            r(true, false, true).hint("re-pin", false),
            "re-pin with `SPX_UPDATE_PINS=1 cargo build` where `CI` is not set, and commit spx.lock and spx.lock.d/"
        );
        assert!(!r(false, false, false)
            .hint("re-pin", false)
            .contains("SPX_UPDATE_PINS=1 cargo build"));
    }
}
