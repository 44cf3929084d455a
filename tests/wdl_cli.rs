//! `horizon selfplay --wdl-out` and `horizon wdl-fit` end to end: the scores self-play
//! writes for the win/draw/loss model, and a fit of them.

mod common;

use std::collections::BTreeMap;

use common::{assert_success, run_horizon, scratch_dir, stdout};

#[test]
fn selfplay_scores_feed_the_wdl_fit() {
    let dir = scratch_dir("wdl");
    let positions = dir.join("games.txt");
    let scores = dir.join("scores.csv");
    let output = run_horizon(&[
        "selfplay",
        "--games",
        "6",
        "--nodes",
        "400",
        "--threads",
        "2",
        "--seed",
        "5",
        "--out",
        positions.to_str().expect("utf-8 path"),
        "--wdl-out",
        scores.to_str().expect("utf-8 path"),
    ]);
    assert_success(&output);
    let text = std::fs::read_to_string(&scores).expect("scores written");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("game,ply,material,score,result"));
    // game -> (ply, result) in order.
    let mut games: BTreeMap<usize, Vec<(usize, f64)>> = BTreeMap::new();
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 5, "{line}");
        let game: usize = fields[0].parse().expect("game");
        let ply: usize = fields[1].parse().expect("ply");
        let material: u32 = fields[2].parse().expect("material");
        let score: i32 = fields[3].parse().expect("score");
        let result: f64 = fields[4].parse().expect("result");
        assert!(material <= 78, "{line}");
        assert!(score.abs() < 20_000, "mate or table score written: {line}");
        assert!([0.0, 0.5, 1.0].contains(&result), "{line}");
        games.entry(game).or_default().push((ply, result));
    }
    assert_eq!(games.len(), 6, "every game writes scores");
    for (game, plies) in &games {
        assert_eq!(plies[0].0, 0, "game {game} starts at its first ply");
        // Results are from the side to move: consecutive plies see opposite results.
        for pair in plies.windows(2) {
            if pair[1].0 == pair[0].0 + 1 {
                assert_eq!(pair[0].1 + pair[1].1, 1.0, "game {game}: {pair:?}");
            }
        }
    }

    let output = run_horizon(&[
        "wdl-fit",
        "--data",
        scores.to_str().expect("utf-8 path"),
        "--holdout",
        "2",
    ]);
    assert_success(&output);
    let report = stdout(&output);
    for expected in [
        "score and material",
        "score only",
        "built in",
        "held-out",
        "pub const FITTED",
    ] {
        assert!(report.contains(expected), "{expected}: {report}");
    }

    // Bad input is an error that names the line, not a panic.
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "game,ply,material,score,result\n1,2,30,15,win\n").expect("write");
    let output = run_horizon(&["wdl-fit", "--data", bad.to_str().expect("utf-8 path")]);
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("bad.csv:2"), "{err}");
}
