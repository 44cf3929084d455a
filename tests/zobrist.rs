//! At every node of a depth-3 walk over the perft positions (and after a null move at every
//! node not in check), the incremental 64- and 128-bit keys equal keys computed from scratch.

mod common;

use horizon_chess::Position;

fn walk(pos: &mut Position, depth: u32, visited: &mut u64) {
    assert_eq!(
        (pos.key(), pos.key128()),
        pos.key_from_scratch(),
        "incremental key differs from scratch in {}",
        pos.fen()
    );
    *visited += 1;
    if depth == 0 {
        return;
    }
    if !pos.in_check() {
        pos.play_null();
        assert_eq!(
            (pos.key(), pos.key128()),
            pos.key_from_scratch(),
            "null-move key differs from scratch in {}",
            pos.fen()
        );
        pos.undo();
    }
    for m in pos.moves() {
        pos.play(m);
        walk(pos, depth - 1, visited);
        pos.undo();
    }
}

#[test]
fn incremental_keys_equal_keys_from_scratch() {
    let Some(cases) = common::read_perft_suite() else {
        return;
    };
    let mut visited = 0;
    // The walk visits the root and every node down to depth 3: 1 + D1 + D2 + D3 each.
    let expected: u64 = cases
        .iter()
        .map(|case| {
            1 + case
                .counts
                .iter()
                .filter(|(d, _)| *d <= 3)
                .map(|(_, n)| n)
                .sum::<u64>()
        })
        .sum();
    for case in &cases {
        let mut pos = Position::from_fen(&case.fen).expect("perft FEN parses");
        pos.set_track_key128(true);
        walk(&mut pos, 3, &mut visited);
    }
    println!("compared keys at {visited} nodes");
    assert_eq!(visited, expected);
}
