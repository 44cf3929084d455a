//! The tools' output: a reader that goes away (`horizon bench | head -1`) ends the tool
//! quietly with success, not with a panic about a broken pipe.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn a_closed_pipe_ends_bench_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_horizon"))
        .args(["bench", "9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("horizon starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut first = String::new();
    BufReader::new(stdout)
        .read_line(&mut first)
        .expect("first line");
    assert!(first.starts_with("bench.01"), "{first}");
    // The reader is gone; the next line bench writes meets a closed pipe.
    let output = child.wait_with_output().expect("horizon ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}
