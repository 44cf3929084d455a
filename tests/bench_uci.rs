//! `horizon bench --uci` drives the UCI front-end (its crate's own copy of the search) through
//! the bench positions: each search must be the one `horizon bench` runs, node for node.

mod common;

use common::{assert_success, run_horizon, stdout};

/// Each position's id, node count and best move, and the total of the last line.
fn searches(text: &str) -> (Vec<(String, u64, String)>, u64) {
    let mut positions = Vec::new();
    let mut total = None;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = words.iter().position(|&w| w == "nodes") else {
            continue;
        };
        let nodes: u64 = words[at - 1].parse().expect("a node count before `nodes`");
        if words[0].starts_with("bench.") {
            let best = words.last().expect("a best move").to_string();
            positions.push((words[0].to_owned(), nodes, best));
        } else if at == 1 {
            total = Some(nodes);
        }
    }
    (positions, total.expect("a total line"))
}

fn assert_same_searches(extra: &[&str]) {
    let mut args = vec!["bench", "7"];
    args.extend_from_slice(extra);
    let direct = run_horizon(&args);
    assert_success(&direct);
    args.push("--uci");
    let through_uci = run_horizon(&args);
    assert_success(&through_uci);
    let (direct_text, uci_text) = (stdout(&direct), stdout(&through_uci));
    // The UCI path says so, and prints UCI scores (`cp 20`, `mate 3`) where bench prints
    // internal ones: the runs were not the same code path twice.
    assert!(
        uci_text.starts_with("through the UCI front-end"),
        "{uci_text}"
    );
    assert!(!direct_text.contains("UCI front-end"), "{direct_text}");
    assert!(
        uci_text.contains(" cp ") && !direct_text.contains(" cp "),
        "{uci_text}"
    );
    let (direct, direct_total) = searches(&direct_text);
    let (uci, uci_total) = searches(&uci_text);
    assert_eq!(direct.len(), 48, "{extra:?}: every bench position searched");
    assert_eq!(uci, direct, "{extra:?}: per-position nodes and best moves");
    assert_eq!(uci_total, direct_total, "{extra:?}");
    assert_eq!(direct_total, direct.iter().map(|p| p.1).sum::<u64>());
}

#[test]
fn uci_path_searches_the_bench_trees_node_for_node() {
    assert_same_searches(&[]);
    assert_same_searches(&["--nnue"]);
    assert_same_searches(&["--set", "NullMove=false", "--set", "LMR=false"]);
}

#[test]
fn a_rejected_option_fails_the_uci_bench() {
    let output = run_horizon(&["bench", "3", "--uci", "--set", "NoSuchSwitch=true"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("NoSuchSwitch"), "{stderr}");
    // Only the search options `horizon bench` takes: not the front-end's own.
    let output = run_horizon(&["bench", "3", "--uci", "--set", "UCI_LimitStrength=true"]);
    assert!(!output.status.success());
    for refused in ["--bare", "--stats"] {
        let output = run_horizon(&["bench", "3", "--uci", refused]);
        assert!(!output.status.success(), "{refused}");
    }
    let output = run_horizon(&["bench", "3", "--uci", "--threads", "2"]);
    assert!(!output.status.success());
}
