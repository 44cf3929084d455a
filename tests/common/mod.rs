//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared/epd` beside the repository. In CI (`CI` set) it must exist; elsewhere a test
/// that needs it prints why it skips and returns `None`.
pub fn shared_epd_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/epd");
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
