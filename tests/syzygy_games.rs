//! Tablebase conversion in real games: python-chess has Horizon (with `../shared/syzygy`)
//! play 20 won 3- and 4-piece positions to the end against Debian's Stockfish
//! (`tests/python/syzygy_conversion.py`); every one must end in Horizon's mate within the
//! fifty-move rule, with no repetition draw on the way.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

#[test]
fn twenty_won_endings_are_mated_within_the_fifty_move_rule() {
    let Some(tables) = common::shared_syzygy_dir() else {
        return;
    };
    let present =
        common::python_imports("chess, chess.engine") && Path::new("/usr/games/stockfish").exists();
    if !common::tools_present(present, "python-chess and /usr/games/stockfish") {
        return;
    }
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/syzygy_conversion.py");
    let output = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_horizon"))
        .arg(&tables)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("won 20 of 20"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
