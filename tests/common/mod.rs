//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `../shared/<name>` beside the repository. In CI (`CI` set) it must exist; elsewhere a test
/// that needs it prints why it skips and returns `None`.
fn shared_dir(name: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(name);
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!("CI is set but {} is missing", dir.display());
    }
    eprintln!(
        "skipping: {} not found (it sits beside the repository in CI)",
        dir.display()
    );
    None
}

/// `../shared/epd`: the standard EPD suites.
pub fn shared_epd_dir() -> Option<PathBuf> {
    shared_dir("epd")
}

/// `../shared/syzygy`: every 3- and 4-piece Syzygy table.
pub fn shared_syzygy_dir() -> Option<PathBuf> {
    shared_dir("syzygy")
}

/// Whether `python3` can import `modules` (e.g. "chess, chess.engine").
pub fn python_imports(modules: &str) -> bool {
    std::process::Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether the tools a test needs are here (`present`); in CI they must be, elsewhere the test
/// prints why it skips.
pub fn tools_present(present: bool, what: &str) -> bool {
    if !present {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must provide {what} (.ci/run installs it)"
        );
        eprintln!("skipping: {what} not installed");
    }
    present
}

/// One line of perft.epd: a FEN and the expected counts by depth (`;D1 20 ;D2 400 ...`).
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

pub fn read_perft_suite() -> Option<Vec<PerftCase>> {
    let path = shared_epd_dir()?.join("perft.epd");
    let text = std::fs::read_to_string(&path).expect("perft.epd is readable");
    let cases = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or_default().trim().to_owned();
            let counts = parts
                .filter_map(|part| {
                    let mut words = part.split_whitespace();
                    let depth = words.next()?.strip_prefix('D')?.parse().ok()?;
                    let nodes = words.next()?.parse().ok()?;
                    Some((depth, nodes))
                })
                .collect();
            PerftCase { fen, counts }
        })
        .collect();
    Some(cases)
}

/// Runs the `horizon` binary with `args`; panics if it cannot be started.
pub fn run_horizon(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_horizon"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run horizon {args:?}: {e}"))
}

/// A fresh scratch directory for one test, under the system's temporary directory; removed
/// with everything in it when the value is dropped (also when the test fails), so repeated
/// test runs leave nothing behind.
pub struct ScratchDir(PathBuf);

impl std::ops::Deref for ScratchDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The built-in network's file: `nets/default.nnue`, or `nets/wide.nnue` in the `wide` build.
pub fn built_in_network_file() -> &'static str {
    if cfg!(feature = "wide") {
        concat!(env!("CARGO_MANIFEST_DIR"), "/crates/chess/nets/wide.nnue")
    } else {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/chess/nets/default.nnue"
        )
    }
}

/// The scratch directory `horizon-<test>-<pid>`, emptied first.
pub fn scratch_dir(test: &str) -> ScratchDir {
    let dir = std::env::temp_dir().join(format!("horizon-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory is writable");
    ScratchDir(dir)
}

/// Parses CSV (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks).
pub fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, '\r') => {}
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// The standard output of a finished process, as text.
pub fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Fails with the exit status and both streams unless the process succeeded.
pub fn assert_success(output: &std::process::Output) {
    assert!(
        output.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        stdout(output),
        String::from_utf8_lossy(&output.stderr)
    );
}
