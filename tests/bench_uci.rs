//! `horizon bench --uci` drives the UCI front-end (its crate's own copy of the search) through
//! the bench positions: each search must be the one `horizon bench` runs, node for node.

mod common;

use common::{assert_success, run_horizon, stdout};

/// Each position's id and node count, and the total of the last line.
fn node_counts(text: &str) -> (Vec<(String, u64)>, u64) {
    let mut positions = Vec::new();
    let mut total = None;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = words.iter().position(|&w| w == "nodes") else {
            continue;
        };
        let nodes: u64 = words[at - 1].parse().expect("a node count before `nodes`");
        if words[0].starts_with("bench.") {
            positions.push((words[0].to_owned(), nodes));
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
    let (direct, direct_total) = node_counts(&stdout(&direct));
    let (uci, uci_total) = node_counts(&stdout(&through_uci));
    assert_eq!(direct.len(), 48, "{extra:?}: every bench position searched");
    assert_eq!(uci, direct, "{extra:?}: per-position node counts");
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
    assert!(stderr.contains("no option named"), "{stderr}");
    let output = run_horizon(&["bench", "3", "--uci", "--bare"]);
    assert!(!output.status.success());
}
