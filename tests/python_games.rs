//! The real-client test: python-chess drives the release binary through 20 games at
//! 2 s + 0.05 s, 10 against itself and 10 against Debian's Stockfish
//! (`tests/python/ci_games.sh`), and the match and gauntlet runners' unit tests run with pytest.
//! Any illegal move, time forfeit, crash, hang or missing result by Horizon fails it; Stockfish's
//! own faults are reported but not judged.

use std::path::Path;
use std::process::Command;

fn available(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether python-chess and Stockfish are here; in CI they must be.
fn tools_present() -> bool {
    let python_chess = available("python3", &["-c", "import chess, chess.engine"]);
    let stockfish = Path::new("/usr/games/stockfish").exists();
    if python_chess && stockfish {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must provide python-chess and /usr/games/stockfish (.ci/run installs them)"
    );
    eprintln!("skipping: python-chess or /usr/games/stockfish not installed");
    false
}

/// One test, so pytest's fake-engine games do not run beside the real ones (cargo runs the
/// tests of a file in parallel, and the clocks are tight at 2 s + 0.05 s).
#[test]
fn match_runner_tests_then_twenty_real_games() {
    if !tools_present() {
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    if available("python3", &["-c", "import pytest"]) {
        let status = Command::new("python3")
            .args([
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "tests/python/test_match.py",
                "tests/python/test_gauntlet.py",
                "tests/python/test_param_sprt.py",
                "tests/python/test_elo_ablation.py",
                "tests/python/test_uci_epd.py",
                "tests/python/test_sprt_join.py",
                "tests/python/test_smp_ttd.py",
                "tests/python/test_eval_scale.py",
                "tests/python/test_eval_loss.py",
                "tests/python/test_endgame_starts.py",
                "tests/python/test_uci_latency.py",
                "tests/python/test_widen_nnue.py",
            ])
            .current_dir(root)
            .status()
            .expect("pytest runs");
        assert!(status.success(), "the match runner's unit tests failed");
    } else {
        assert!(std::env::var_os("CI").is_none(), "CI must provide pytest");
        eprintln!("skipping the runner's unit tests: pytest not installed");
    }
    if !Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/openings")).is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have ../shared/openings"
        );
        eprintln!("skipping the games: ../shared/openings not found");
        return;
    }
    let output = Command::new("bash")
        .arg("tests/python/ci_games.sh")
        .arg(env!("CARGO_BIN_EXE_horizon"))
        .current_dir(root)
        .output()
        .expect("the games run");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    let last = stdout.lines().last().unwrap_or_default();
    assert!(output.status.success(), "games failed: {last}");
    assert_eq!(last, "20 passed, 0 failed");
}
