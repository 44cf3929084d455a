//! `horizon epd` and `horizon ablate` end to end, and every suite of `../shared/epd` read by
//! the EPD reader.

mod common;

use std::collections::BTreeMap;

use common::{
    assert_success, built_in_network_file, csv_rows, run_horizon, scratch_dir, shared_epd_dir,
    stdout,
};
use horizon_chess::epd::parse_suite_bytes;

const HORIZON_EPD: &str = include_str!("../epd/horizon.epd");

/// (records, blank lines) expected of each suite in `../shared/epd`.
const SHARED: &[(&str, usize, usize)] = &[
    ("bratko-kopec.epd", 24, 1),
    ("ecm-gcp.epd", 183, 0),
    ("endgames-tb.epd", 434, 0),
    ("lct2.epd", 35, 1),
    ("perft.epd", 126, 0),
    ("wac.epd", 300, 0),
    ("zugzwang.epd", 30, 0),
];

#[test]
fn every_shared_suite_loads_with_the_expected_count() {
    let Some(dir) = shared_epd_dir() else { return };
    let mut seen = BTreeMap::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "epd"))
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let suite = parse_suite_bytes(&std::fs::read(&path).expect("readable"));
        let errors: Vec<String> = suite
            .errors()
            .map(|s| format!("line {}: {}", s.line, s.reason))
            .collect();
        let (blank, comment, _) = suite.skip_counts();
        println!(
            "{name}: {} records, {blank} blank, {comment} comment, {} unreadable",
            suite.records.len(),
            errors.len()
        );
        assert!(errors.is_empty(), "{name}: {errors:?}");
        if let Some(&(_, records, blanks)) = SHARED.iter().find(|(n, _, _)| *n == name) {
            assert_eq!(suite.records.len(), records, "{name}");
            assert_eq!(blank, blanks, "{name}");
        }
        if name == "perft.epd" {
            assert!(suite.records.iter().all(|r| r.perft_counts().len() >= 5));
        } else {
            assert!(suite.records.iter().all(|r| r.has_solution()), "{name}");
        }
        seen.insert(name, suite.records.len());
    }
    for (name, _, _) in SHARED {
        assert!(
            seen.contains_key(*name),
            "{name} missing from {}",
            dir.display()
        );
    }
}

/// The mate-in-1 and mate-in-2 lines of the project's suite.
fn short_mates() -> String {
    HORIZON_EPD
        .lines()
        .filter(|l| l.contains("dm 1;") || l.contains("dm 2;"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn short_mates_are_solved_at_depth_8_with_the_same_nodes_on_two_jobs() {
    let dir = scratch_dir("short-mates");
    let suite = dir.join("mates.epd");
    let mates = short_mates();
    let count = mates.lines().count();
    assert!(count >= 8, "the suite has its mate-in-1/2 lines");
    std::fs::write(&suite, &mates).expect("writable");
    let mut nodes = Vec::new();
    for jobs in ["1", "2"] {
        let csv = dir.join(format!("jobs{jobs}.csv"));
        let json = dir.join(format!("jobs{jobs}.json"));
        let output = run_horizon(&[
            "epd",
            suite.to_str().expect("utf-8 path"),
            // Depth 8: WAC.001 (1.Qg6, quiet) is first seen at depth 8 with the dynamic
            // null-move R (depth 5 with R = 2/3, depth 3 with the piece-square evaluation).
            "--depth",
            "8",
            "--jobs",
            jobs,
            "--csv",
            csv.to_str().expect("utf-8 path"),
            "--json",
            json.to_str().expect("utf-8 path"),
        ]);
        assert_success(&output);
        let text = stdout(&output);
        println!("{text}");
        assert!(
            text.contains(&format!("solved {count}/{count} (100.0%)")),
            "{text}"
        );
        let rows = csv_rows(&std::fs::read_to_string(&csv).expect("csv written"));
        let header = &rows[0];
        let column = |name: &str| {
            header
                .iter()
                .position(|h| h == name)
                .unwrap_or_else(|| panic!("column {name} in {header:?}"))
        };
        assert_eq!(rows.len(), count + 1);
        for row in &rows[1..] {
            assert_eq!(row.len(), header.len());
            assert_eq!(row[column("solved")], "true", "{row:?}");
            let mate: i32 = row[column("mate")].parse().expect("a mate was announced");
            assert!((1..=2).contains(&mate), "{row:?}");
            assert!(!row[column("found_depth")].is_empty());
        }
        nodes.push(
            rows[1..]
                .iter()
                .map(|r| r[column("nodes")].clone())
                .collect::<Vec<_>>(),
        );
        let json = std::fs::read_to_string(&json).expect("json written");
        assert!(json.contains(&format!("\"solved\": {count}")), "{json}");
    }
    assert_eq!(
        nodes[0], nodes[1],
        "fixed depth, one thread per job: same nodes"
    );
}

/// The `nodes` column of a `horizon epd --csv` file, one entry per position.
fn nodes_column(csv: &std::path::Path) -> Vec<String> {
    let rows = csv_rows(&std::fs::read_to_string(csv).expect("csv written"));
    let column = rows[0]
        .iter()
        .position(|h| h == "nodes")
        .expect("a nodes column");
    rows[1..].iter().map(|r| r[column].clone()).collect()
}

#[test]
fn the_network_options_make_epd_search_with_the_network() {
    let dir = scratch_dir("epd-network");
    let suite = dir.join("mates.epd");
    let mates = short_mates();
    let count = mates.lines().count();
    std::fs::write(&suite, &mates).expect("writable");
    let default_net = built_in_network_file();
    let truncated = dir.join("truncated.nnue");
    let bytes = std::fs::read(default_net).expect("the built-in network's file");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).expect("writable");

    let run = |name: &str, extra: &[&str]| {
        let csv = dir.join(format!("{name}.csv"));
        let mut args = vec![
            "epd",
            suite.to_str().expect("utf-8 path"),
            "--depth",
            "8",
            "--csv",
            csv.to_str().expect("utf-8 path"),
        ];
        args.extend_from_slice(extra);
        let output = run_horizon(&args);
        assert_success(&output);
        let text = stdout(&output);
        assert!(
            text.contains(&format!("solved {count}/{count} (100.0%)")),
            "{name}: {text}"
        );
        (text, nodes_column(&csv))
    };
    let (classic_text, classic) = run("classic", &[]);
    let (nnue_text, nnue) = run("nnue", &["--nnue"]);
    let (file_text, from_file) = run("file", &["--eval-file", default_net]);
    assert!(
        !classic_text.contains("evaluation: network"),
        "{classic_text}"
    );
    assert!(nnue_text.contains("evaluation: network"), "{nnue_text}");
    assert!(file_text.contains("evaluation: network"), "{file_text}");
    // The network changes the trees; the same network from its file searches the same ones.
    assert_ne!(classic, nnue, "--nnue searched with the classic evaluation");
    assert_eq!(nnue, from_file, "the built-in network and its file differ");

    let refused = run_horizon(&[
        "epd",
        suite.to_str().expect("utf-8 path"),
        "--depth",
        "2",
        "--eval-file",
        truncated.to_str().expect("utf-8 path"),
    ]);
    assert!(
        !refused.status.success(),
        "a truncated network was accepted"
    );
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("is not a usable network"), "{stderr}");
}

#[test]
fn unreadable_lines_are_reported_and_the_run_goes_on() {
    let dir = scratch_dir("bad-lines");
    let suite = dir.join("bad.epd");
    let first_mate = short_mates().lines().next().unwrap_or_default().to_owned();
    std::fs::write(
        &suite,
        format!("{first_mate}\r\n8/8/8 w - - bm e4;\r\n\0\r\n{first_mate}\r\n"),
    )
    .expect("writable");
    let output = run_horizon(&["epd", suite.to_str().expect("utf-8 path"), "--depth", "2"]);
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad.epd:2: skipped: position:"), "{stderr}");
    let text = stdout(&output);
    assert!(
        text.contains("2 positions, skipped 1 blank, 1 unreadable"),
        "{text}"
    );
    assert!(text.contains("solved 2/2"), "{text}");

    let missing = run_horizon(&["epd", "/nonexistent/suite.epd"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"));
}

/// Runs `ablate` and returns (stdout, CSV rows).
fn ablate(dir: &std::path::Path, name: &str, depths: &str) -> (String, Vec<Vec<String>>) {
    let csv = dir.join(format!("{name}.csv"));
    let chart = dir.join(format!("{name}.svg"));
    let output = run_horizon(&[
        "ablate",
        "--enhancements",
        "tt,killers",
        "--depths",
        depths,
        "--only",
        "opening",
        // Fast: plain alpha-beta's unordered quiescence search is what costs time here.
        "--set",
        "Quiescence=false",
        "--quiet",
        "--csv",
        csv.to_str().expect("utf-8 path"),
        "--chart",
        chart.to_str().expect("utf-8 path"),
    ]);
    assert_success(&output);
    let svg = std::fs::read_to_string(&chart).expect("chart written");
    assert!(svg.starts_with("<svg") && svg.contains("plain alpha-beta"));
    let rows = csv_rows(&std::fs::read_to_string(&csv).expect("csv written"));
    (stdout(&output), rows)
}

#[test]
fn ablate_two_enhancements_two_depths_is_a_4_by_2_table_and_repeats_exactly() {
    let dir = scratch_dir("ablate");
    let (text, first) = ablate(&dir, "first", "2..3");
    println!("{text}");
    let header = &first[0];
    assert_eq!(
        header[..6],
        ["combination", "mask", "TT", "KM", "depth", "nodes"]
    );
    let data = &first[1..];
    assert_eq!(data.len(), 4 * 2, "4 combinations x 2 depths");
    let combinations: Vec<&str> = data.iter().step_by(2).map(|r| r[0].as_str()).collect();
    assert_eq!(combinations, ["none", "TT", "KM", "TT+KM"]);
    assert!(data.iter().all(|r| r[4] == "2" || r[4] == "3"));
    // The Markdown table: header, rule, 4 combinations.
    let main_table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("| combination"))
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(main_table.len(), 2 + 4, "{text}");
    assert!(main_table[0].contains("depth 2") && main_table[0].contains("depth 3"));
    assert!(text.contains("### Best combinations at depth 3"));

    let (_, second) = ablate(&dir, "second", "2..3");
    let nodes = |rows: &[Vec<String>]| -> Vec<(String, String, String)> {
        rows[1..]
            .iter()
            .map(|r| (r[0].clone(), r[4].clone(), r[5].clone()))
            .collect()
    };
    assert_eq!(nodes(&first), nodes(&second), "deterministic node counts");

    // Depth 2 inside a search to depth 3 costs what a search to depth 2 costs.
    let (_, shallow) = ablate(&dir, "shallow", "2");
    let depth2: Vec<_> = nodes(&first).into_iter().filter(|r| r.1 == "2").collect();
    assert_eq!(nodes(&shallow), depth2);
}

#[test]
fn presearch_study_reports_both_sides() {
    let dir = scratch_dir("presearch");
    let suite = dir.join("mates.epd");
    std::fs::write(&suite, short_mates()).expect("writable");
    let csv = dir.join("presearch.csv");
    let output = run_horizon(&[
        "ablate",
        "--presearch",
        "--min-nodes",
        "30000",
        "--quiet",
        suite.to_str().expect("utf-8 path"),
        "--csv",
        csv.to_str().expect("utf-8 path"),
    ]);
    assert_success(&output);
    let text = stdout(&output);
    println!("{text}");
    for expected in [
        "| total nodes",
        "problems solved",
        "fewer nodes",
        "more nodes",
        "at an earlier iteration with pre-search",
        "at a later iteration with pre-search",
    ] {
        assert!(text.contains(expected), "{expected} in\n{text}");
    }
    let rows = csv_rows(&std::fs::read_to_string(&csv).expect("csv written"));
    assert_eq!(rows.len(), short_mates().lines().count() + 1);
    assert!(
        rows[1..].iter().all(|r| r[8] == "true" && r[9] == "true"),
        "mates solved with pre-search off and on: {rows:?}"
    );
}
