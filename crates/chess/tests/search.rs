//! The search core on chess positions with known answers.

use horizon_chess::Position;
use horizon_search::{Limits, SearchConfig, Searcher, Silent};

fn search(fen: &str, config: SearchConfig, limits: Limits) -> (String, i32, u32, u64) {
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    let mut searcher = Searcher::<Position>::standalone(config, 16);
    let result = searcher.search(&mut pos, &limits, &mut Silent);
    let best = result.best_move.map(|m| pos.uci(m)).unwrap_or_default();
    println!("{}", result.stats);
    (best, result.score, result.depth, result.stats.total_nodes())
}

#[test]
fn smoke_startpos() {
    for d in 1..=5 {
        let (best, score, depth, nodes) = search(
            horizon_chess::START_FEN,
            SearchConfig::default(),
            Limits::depth(d),
        );
        println!("{best} {score} {depth} {nodes}");
    }
}
