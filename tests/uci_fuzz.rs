//! The UCI fuzzer (`tests/python/uci_fuzz.py`) in its short mode: 45 seconds of random and
//! mutated input, then every saved failing input in `tests/fuzz-regressions/` replayed.
//! Each round must leave the engine answering `isready` within a second, every `bestmove`
//! legal, and `quit` must end the process cleanly. Needs python-chess (CI installs it).

use std::path::PathBuf;
use std::process::Command;

mod common;

#[test]
fn fuzzing_the_protocol_finds_no_fault() {
    if !common::tools_present(common::python_imports("chess"), "python-chess") {
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let failures = std::env::temp_dir().join(format!("horizon-fuzz-{}", std::process::id()));
    let output = Command::new("python3")
        .arg(root.join("tests/python/uci_fuzz.py"))
        .arg(env!("CARGO_BIN_EXE_horizon"))
        .args(["--seconds", "45", "--seed", "20261123", "--failures"])
        .arg(&failures)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains(" 0 failures"),
        "{stdout}\n(failing inputs in {})",
        failures.display()
    );
    let mut regressions: Vec<PathBuf> = std::fs::read_dir(root.join("tests/fuzz-regressions"))
        .expect("tests/fuzz-regressions exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    regressions.sort();
    assert!(!regressions.is_empty());
    for case in regressions {
        let output = Command::new("python3")
            .arg(root.join("tests/python/uci_fuzz.py"))
            .arg(env!("CARGO_BIN_EXE_horizon"))
            .arg("--replay")
            .arg(&case)
            .output()
            .expect("python3 runs");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stdout)
        );
    }
}
