//! Every perft count of `../shared/epd/perft.epd`, walked with Horizon's make/unmake.
//! Depths whose count exceeds `NODE_CAP` are left out to keep the test near 15 s in release.

mod common;

use horizon_chess::Position;
use horizon_chess::perft::perft;

const NODE_CAP: u64 = 20_000_000;

#[test]
fn perft_suite_counts_match() {
    let Some(cases) = common::read_perft_suite() else {
        return;
    };
    assert_eq!(cases.len(), 126, "perft.epd has 126 positions");
    let checked = std::sync::atomic::AtomicU64::new(0);
    // Two workers, one per core.
    std::thread::scope(|scope| {
        for half in cases.chunks(cases.len().div_ceil(2)) {
            let checked = &checked;
            scope.spawn(move || {
                for case in half {
                    let mut pos = Position::from_fen(&case.fen).expect("perft FEN parses");
                    assert!(!case.counts.is_empty(), "no counts for {}", case.fen);
                    for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n <= NODE_CAP) {
                        let nodes = perft(&mut pos, depth);
                        assert_eq!(nodes, expected, "perft({depth}) of {}", case.fen);
                        checked.fetch_add(nodes, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let total = checked.into_inner();
    println!("checked {total} leaf nodes");
    assert!(
        total > 250_000_000,
        "the suite should walk most of its counts, walked {total}"
    );
}
