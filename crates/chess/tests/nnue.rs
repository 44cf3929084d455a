//! The neural evaluation: incremental accumulators against sums from scratch, the vector
//! kernels against the portable ones, colour symmetry, and the network file's checks.

use std::sync::Arc;

use horizon_chess::nnue::simd::Simd;
use horizon_chess::nnue::{
    Accumulator, Activation, HIDDEN, INPUTS, Inputs, Network, NetworkError, feature, king_flip,
};
use horizon_chess::shakmaty::Position as _;
use horizon_chess::{Color, Move, Position, Role};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Positions rich in castling, en passant and promotions.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1",
    "r3k2r/8/8/8/3pPp2/8/8/R3K1R1 b Qkq e3 0 1",
];

/// A network with random weights of a realistic size (first layer within ±0.25, so
/// activations spread over the clipped range).
fn random_network(seed: u64, activation: Activation, buckets: usize) -> Network {
    let mut rng = StdRng::seed_from_u64(seed);
    let ft_weights: Vec<i16> = (0..INPUTS * HIDDEN)
        .map(|_| rng.random_range(-64..=64))
        .collect();
    let ft_bias: Vec<i16> = (0..HIDDEN).map(|_| rng.random_range(0..=128)).collect();
    let out_weights: Vec<i16> = (0..buckets * 2 * HIDDEN)
        .map(|_| rng.random_range(-127..=127))
        .collect();
    let out_bias: Vec<i32> = (0..buckets)
        .map(|_| rng.random_range(-20_000..=20_000))
        .collect();
    Network::from_weights(&ft_weights, &ft_bias, &out_weights, &out_bias, activation)
        .expect("weights of the build's shape")
}

fn with_network(fen: &str, network: &Arc<Network>, simd: Simd) -> Position {
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    pos.set_network(Some(Arc::clone(network)), simd);
    pos
}

#[derive(Default, Debug)]
struct Seen {
    checked: usize,
    castles: usize,
    en_passant: usize,
    promotions: usize,
    captures: usize,
    nulls: usize,
    undos: usize,
    /// King moves that changed their side's square flip (king-mirrored inputs).
    flip_changes: usize,
    /// Single perspectives rebuilt from the refresh table (king-mirrored inputs).
    perspective_rebuilds: u64,
    /// Both perspectives rebuilt from a refresh table already used in the game (a lazy
    /// chain that crosses a flip, or one that reaches back past the first evaluated ply;
    /// the first case alone: `a_lazy_chain_across_a_flip_rebuilds_from_the_table`).
    later_refreshes: u64,
}

/// Whether `m` changes the mover's square flip under king-mirrored inputs.
fn changes_flip(pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    let Some(before) = pos.chess().board().king_of(us) else {
        return false;
    };
    let mut after = pos.chess().clone();
    after.play_unchecked(m);
    let king = after.board().king_of(us).expect("a king");
    king_flip(Inputs::KingMirrored, before) != king_flip(Inputs::KingMirrored, king)
}

/// Random games from every start: after each move (and null move, and some undos), with
/// evaluations skipped at random plies so the lazy chain spans several moves, the
/// accumulator equals the sum from scratch.
#[test]
fn incremental_accumulators_equal_sums_from_scratch() {
    for inputs in [Inputs::Plain, Inputs::KingMirrored] {
        let network = Arc::new(random_network(1, Activation::SCReLU, 8).with_inputs(inputs));
        incremental_accumulators_equal_sums_from_scratch_with(&network, inputs);
    }
}

fn incremental_accumulators_equal_sums_from_scratch_with(network: &Arc<Network>, inputs: Inputs) {
    let simd = Simd::detect();
    let mut rng = StdRng::seed_from_u64(7);
    let mut seen = Seen::default();
    for game in 0..300 {
        let fen = STARTS[game % STARTS.len()];
        let mut pos = with_network(fen, network, simd);
        // Plies played since the start, by kind, so undo knows what to take back.
        let mut path: Vec<bool> = Vec::new();
        for _ in 0..160 {
            let moves = pos.moves();
            let r = rng.random_range(0..100);
            if r < 8 && !path.is_empty() {
                let n = rng.random_range(1..=path.len().min(4));
                for _ in 0..n {
                    path.pop();
                    pos.undo();
                }
                seen.undos += 1;
            } else if r < 14 && !pos.in_check() && pos.last_move().is_some() {
                pos.play_null();
                path.push(true);
                seen.nulls += 1;
            } else if moves.is_empty() {
                break;
            } else {
                // Prefer the special moves so every kind is exercised often.
                let special: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
                    .collect();
                let m = if !special.is_empty() && rng.random_bool(0.5) {
                    special[rng.random_range(0..special.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                seen.castles += usize::from(m.is_castle());
                seen.en_passant += usize::from(m.is_en_passant());
                seen.promotions += usize::from(m.is_promotion());
                seen.captures += usize::from(m.is_capture());
                seen.flip_changes += usize::from(changes_flip(&pos, m));
                pos.play(m);
                // The search's eager update (`EagerAccumulator`) now and then.
                if rng.random_bool(0.3) {
                    pos.prepare_evaluation();
                }
                path.push(false);
            }
            if rng.random_bool(0.6) {
                let incremental = pos.nnue_accumulator().expect("a network is set");
                let scratch = Accumulator::refresh(network, simd, pos.chess());
                assert_eq!(
                    incremental,
                    scratch,
                    "{inputs:?} after {seen:?} at {}",
                    pos.fen()
                );
                seen.checked += 1;
            }
        }
        let stack = pos.nnue().expect("a network is set");
        seen.perspective_rebuilds += stack.rebuilds();
        seen.later_refreshes += stack.counters().0.saturating_sub(1);
    }
    assert!(seen.checked > 20_000, "{seen:?}");
    if inputs == Inputs::KingMirrored {
        assert!(seen.perspective_rebuilds > 50, "{seen:?}");
        assert!(seen.later_refreshes > 50, "{seen:?}");
    }
    for (kind, count) in [
        ("castles", seen.castles),
        ("en passant", seen.en_passant),
        ("promotions", seen.promotions),
        ("captures", seen.captures),
        ("null moves", seen.nulls),
        ("undos", seen.undos),
        ("king moves across the d/e line", seen.flip_changes),
    ] {
        assert!(count > 50, "only {count} {kind}: {seen:?}");
    }
}

/// Updates reuse the ply below: over a game, every accumulator but the first is updated,
/// and only the first is rebuilt for both perspectives. With king-mirrored inputs, exactly
/// the king moves that change their side's flip rebuild that side's perspective (and are
/// updates for the other).
#[test]
fn accumulators_are_updated_not_recomputed() {
    for inputs in [Inputs::Plain, Inputs::KingMirrored] {
        let network = Arc::new(random_network(2, Activation::SCReLU, 1).with_inputs(inputs));
        let mut flip_changes = 0;
        let mut games = 0;
        while flip_changes == 0 || games < 4 {
            let mut pos = with_network(STARTS[games % STARTS.len()], &network, Simd::detect());
            let mut rng = StdRng::seed_from_u64(3 + games as u64);
            // The root first: every later ply then has a computed accumulator below it.
            pos.evaluate();
            let mut changes = 0;
            let mut plies = 1;
            for _ in 0..120 {
                let moves = pos.moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                changes += u64::from(changes_flip(&pos, m));
                pos.play(m);
                pos.evaluate();
                plies += 1;
            }
            let stack = pos.nnue().expect("network set");
            let (refreshes, updates) = stack.counters();
            assert_eq!(refreshes, 1, "{inputs:?}: the root only");
            let expected = match inputs {
                Inputs::Plain => 0,
                Inputs::KingMirrored => changes,
            };
            assert_eq!(stack.rebuilds(), expected, "{inputs:?}: the flips");
            assert_eq!(refreshes + updates, plies, "one accumulator per evaluation");
            flip_changes += changes;
            games += 1;
        }
        assert!(games < 50, "no king crossed the d/e line in {games} games");
    }
}

/// A king move across the d/e line that is not evaluated lies inside the next evaluation's
/// lazy chain, whose board is not at hand: that evaluation rebuilds both perspectives from
/// the refresh table. Evaluated at its own ply, the king move rebuilds only its side's
/// perspective. Both equal sums from scratch.
#[test]
fn a_lazy_chain_across_a_flip_rebuilds_from_the_table() {
    let network =
        Arc::new(random_network(4, Activation::SCReLU, 8).with_inputs(Inputs::KingMirrored));
    let simd = Simd::detect();
    let mut pos = with_network("4k3/pppppppp/8/8/8/8/PPP2PPP/4K3 w - - 0 1", &network, simd);
    // The accumulator equals the sum from scratch, after these (whole rebuilds, updates)
    // and perspective rebuilds.
    let check = |pos: &mut Position, counts: ((u64, u64), u64), why: &str| {
        let scratch = Accumulator::refresh(&network, simd, pos.chess());
        assert_eq!(pos.nnue_accumulator(), Some(scratch), "{why}");
        let stack = pos.nnue().expect("a network is set");
        assert_eq!((stack.counters(), stack.rebuilds()), counts, "{why}");
    };
    let flip_move = |pos: &Position| pos.moves().into_iter().find(|&m| changes_flip(pos, m));
    check(&mut pos, ((1, 0), 0), "the root");

    let king_move = flip_move(&pos).expect("Kd1 or Kd2 crosses the d/e line");
    pos.play(king_move);
    let pawn_move = pos
        .moves()
        .into_iter()
        .find(|m| m.role() == Role::Pawn)
        .expect("Black has pawn moves");
    pos.play(pawn_move);
    check(&mut pos, ((2, 0), 0), "both perspectives from the table");

    pos.undo();
    check(
        &mut pos,
        ((2, 1), 1),
        "one perspective rebuilt, one updated",
    );

    // The pawn move again, now an update; then White's king crosses back, rebuilt from
    // the table's entry of the root's flip.
    pos.play(pawn_move);
    check(&mut pos, ((2, 2), 1), "an update");
    let back = flip_move(&pos).expect("White's king crosses back");
    pos.play(back);
    check(&mut pos, ((2, 3), 2), "the king back across the line");
}

/// `prepare_evaluation` updates the new ply's accumulator from the computed one below, and
/// only then: the later evaluation then needs no update of its own, and its value is the
/// lazy path's.
#[test]
fn eager_preparation_is_the_lazy_update_done_early() {
    let network = Arc::new(random_network(5, Activation::SCReLU, 1));
    let simd = Simd::detect();
    let mut eager = with_network(STARTS[1], &network, simd);
    let mut lazy = with_network(STARTS[1], &network, simd);
    // Nothing computed below the root yet: nothing to update from.
    eager.prepare_evaluation();
    assert_eq!(eager.nnue().expect("network set").counters(), (0, 0));
    assert_eq!(eager.evaluate(), lazy.evaluate());
    let mut rng = StdRng::seed_from_u64(11);
    let mut updates = 0;
    for _ in 0..60 {
        let moves = eager.moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        eager.play(m);
        lazy.play(m);
        let before = eager.nnue().expect("network set").counters();
        eager.prepare_evaluation();
        let after = eager.nnue().expect("network set").counters();
        // One update and no refresh (plain inputs: no king move makes one).
        assert_eq!((after.0, after.1 - before.1), (before.0, 1));
        updates += 1;
        // Prepared twice: nothing more to do.
        eager.prepare_evaluation();
        assert_eq!(eager.nnue().expect("network set").counters(), after);
        assert_eq!(eager.evaluate(), lazy.evaluate(), "at {}", eager.fen());
        assert_eq!(eager.nnue_accumulator(), lazy.nnue_accumulator());
    }
    assert!(updates > 40, "{updates} eager updates");
}

/// The AVX2 kernels and the portable ones give the same evaluations, bit for bit.
#[test]
fn vector_and_portable_kernels_agree() {
    if Simd::detect() != Simd::Avx2 {
        eprintln!("skipped: this processor has no AVX2, only the portable kernels run");
        return;
    }
    let mut rng = StdRng::seed_from_u64(11);
    let mut compared = 0;
    for (seed, activation, buckets) in [
        (5, Activation::SCReLU, 8),
        (6, Activation::CReLU, 1),
        (7, Activation::SCReLU, 1),
        (8, Activation::SCReLU, 8),
    ] {
        let inputs = if seed == 8 {
            Inputs::KingMirrored
        } else {
            Inputs::Plain
        };
        let network = Arc::new(random_network(seed, activation, buckets).with_inputs(inputs));
        for fen in STARTS {
            let mut fast = with_network(fen, &network, Simd::Avx2);
            let mut portable = with_network(fen, &network, Simd::Portable);
            assert_eq!(fast.nnue().map(|n| n.simd()), Some(Simd::Avx2));
            assert_eq!(portable.nnue().map(|n| n.simd()), Some(Simd::Portable));
            for _ in 0..80 {
                let moves = fast.moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                fast.play(m);
                portable.play(m);
                assert_eq!(fast.nnue_accumulator(), portable.nnue_accumulator());
                assert_eq!(fast.evaluate(), portable.evaluate(), "{}", fast.fen());
                compared += 1;
            }
        }
    }
    assert!(compared > 1_000, "{compared}");
}

/// The position with colours swapped and the board mirrored top to bottom.
fn mirrored_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let board: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|rank| rank.chars().map(swap).collect())
        .collect();
    let turn = if fields[1] == "w" { "b" } else { "w" };
    let castling: String = if fields[2] == "-" {
        "-".into()
    } else {
        let mut c: Vec<char> = fields[2].chars().map(swap).collect();
        c.sort_by_key(|c| (c.is_ascii_lowercase(), *c));
        c.into_iter().collect()
    };
    let ep = if fields[3] == "-" {
        "-".to_owned()
    } else {
        let b = fields[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    format!(
        "{} {turn} {castling} {ep} {} {}",
        board.join("/"),
        fields[4],
        fields[5]
    )
}

/// A position and its colour-flipped mirror evaluate the same for the side to move.
#[test]
fn mirrored_positions_evaluate_alike() {
    for inputs in [Inputs::Plain, Inputs::KingMirrored] {
        let network = Arc::new(random_network(9, Activation::SCReLU, 8).with_inputs(inputs));
        mirrored_positions_evaluate_alike_with(&network);
    }
}

fn mirrored_positions_evaluate_alike_with(network: &Arc<Network>) {
    let mut rng = StdRng::seed_from_u64(13);
    let mut compared = 0;
    let mut distinct = std::collections::HashSet::new();
    for fen in STARTS {
        let mut pos = with_network(fen, network, Simd::detect());
        for _ in 0..60 {
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.random_range(0..moves.len())]);
            let mirror_fen = mirrored_fen(&pos.fen());
            let mut mirror = with_network(&mirror_fen, network, Simd::detect());
            assert_ne!(mirror.turn(), pos.turn());
            let (a, b) = (pos.evaluate(), mirror.evaluate());
            assert_eq!(a, b, "{} against {mirror_fen}", pos.fen());
            distinct.insert(a);
            compared += 1;
        }
    }
    assert!(compared > 300, "{compared}");
    // The network is not constant: the symmetry is not a triviality.
    assert!(distinct.len() > 100, "{} distinct values", distinct.len());
}

/// The position with files mirrored (a <-> h), castling rights dropped.
fn files_mirrored_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let board: Vec<String> = fields[0]
        .split('/')
        .map(|rank| {
            let mut squares = String::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => squares.extend(std::iter::repeat_n('1', n as usize)),
                    None => squares.push(c),
                }
            }
            squares.chars().rev().collect()
        })
        .collect();
    let ep = match fields[3].as_bytes() {
        [file, rank] => format!("{}{}", (b'a' + b'h' - file) as char, *rank as char),
        _ => "-".to_owned(),
    };
    format!("{} {} - {ep} 0 1", board.join("/"), fields[1])
}

/// With king-mirrored inputs a position and its left-right mirror image are the same
/// inputs, so they evaluate the same; with plain inputs they do not.
#[test]
fn king_mirrored_inputs_see_left_and_right_alike() {
    let mut rng = StdRng::seed_from_u64(17);
    let plain = Arc::new(random_network(10, Activation::SCReLU, 8));
    let mirrored =
        Arc::new(random_network(10, Activation::SCReLU, 8).with_inputs(Inputs::KingMirrored));
    let (mut compared, mut plain_differs) = (0, 0);
    for fen in STARTS {
        let mut pos = Position::from_fen(fen).expect("valid FEN");
        for _ in 0..60 {
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.random_range(0..moves.len())]);
            let fen = files_mirrored_fen(&pos.fen());
            let original = files_mirrored_fen(&files_mirrored_fen(&pos.fen()));
            let eval = |fen: &str, network: &Arc<Network>| {
                with_network(fen, network, Simd::detect()).evaluate()
            };
            assert_eq!(eval(&original, &mirrored), eval(&fen, &mirrored), "{fen}");
            plain_differs += usize::from(eval(&original, &plain) != eval(&fen, &plain));
            compared += 1;
        }
    }
    assert!(compared > 300, "{compared}");
    assert!(
        plain_differs > compared / 2,
        "{plain_differs} of {compared}"
    );
}

/// The features of a piece are mirrored for the other side, and left to right by a flip.
#[test]
fn features_mirror_between_perspectives() {
    use horizon_chess::{Role, Square};
    assert_eq!(
        feature(Color::White, Color::White, Role::Pawn, Square::A1, 0),
        0
    );
    assert_eq!(
        feature(Color::White, Color::Black, Role::King, Square::H8, 0),
        767
    );
    assert_eq!(
        feature(Color::Black, Color::Black, Role::Knight, Square::G8, 0),
        64 + Square::G1 as usize
    );
    assert_eq!(
        feature(Color::Black, Color::White, Role::Queen, Square::D1, 0),
        (6 + 4) * 64 + Square::D8 as usize
    );
    assert_eq!(
        feature(Color::Black, Color::White, Role::Queen, Square::D1, 7),
        (6 + 4) * 64 + Square::E8 as usize
    );
    assert_eq!(
        feature(Color::White, Color::White, Role::Pawn, Square::A2, 7),
        Square::H2 as usize
    );
    assert_eq!(king_flip(Inputs::Plain, Square::C1), 0);
    assert_eq!(king_flip(Inputs::KingMirrored, Square::D8), 7);
    assert_eq!(king_flip(Inputs::KingMirrored, Square::E1), 0);
}

/// `weights()` gives back what `from_weights` took, for a random network and for the
/// built-in one (whose hash, computed over the weights, must come out the same).
#[test]
fn quantised_weights_rebuild_the_network() {
    let mut rng = StdRng::seed_from_u64(5);
    let ft_weights: Vec<i16> = (0..INPUTS * HIDDEN)
        .map(|_| rng.random_range(-505..=505))
        .collect();
    let ft_bias: Vec<i16> = (0..HIDDEN).map(|_| rng.random_range(-505..=505)).collect();
    let out_weights: Vec<i16> = (0..3 * 2 * HIDDEN)
        .map(|_| rng.random_range(-2032..=2032))
        .collect();
    let out_bias = vec![-7, 0, 123_456];
    let network = Network::from_weights(
        &ft_weights,
        &ft_bias,
        &out_weights,
        &out_bias,
        Activation::CReLU,
    )
    .expect("weights of the build's shape");
    let w = network.weights();
    assert_eq!(w.ft_weights, ft_weights);
    assert_eq!(w.ft_bias, ft_bias);
    assert_eq!(w.out_weights, out_weights);
    assert_eq!(w.out_bias, out_bias);

    let built_in = Network::embedded().expect("the built-in network");
    let w = built_in.weights();
    let rebuilt = Network::from_weights(
        &w.ft_weights,
        &w.ft_bias,
        &w.out_weights,
        &w.out_bias,
        built_in.activation(),
    )
    .expect("its own weights")
    .with_inputs(built_in.inputs());
    assert_eq!(rebuilt.hash(), built_in.hash());
    assert_eq!(rebuilt, built_in);
}

#[test]
fn network_files_round_trip_and_damage_is_refused() {
    let mirrored = random_network(21, Activation::SCReLU, 8).with_inputs(Inputs::KingMirrored);
    let bytes = mirrored.to_bytes();
    assert_eq!(Network::from_bytes(&bytes), Ok(mirrored.clone()));
    // The inputs byte is covered by the hash: read as plain, the file is refused.
    let mut plain_header = bytes.clone();
    plain_header[13] = 0;
    assert!(matches!(
        Network::from_bytes(&plain_header),
        Err(NetworkError::HashMismatch { .. })
    ));
    let mut unknown = bytes;
    unknown[13] = 2;
    assert!(matches!(
        Network::from_bytes(&unknown),
        Err(NetworkError::Architecture(_))
    ));

    let network = random_network(21, Activation::SCReLU, 8);
    assert_ne!(network.hash(), mirrored.hash());
    let bytes = network.to_bytes();
    let back = Network::from_bytes(&bytes).expect("own file");
    assert_eq!(back, network);
    assert_eq!(back.hash(), network.hash());
    assert_eq!(back.inputs(), Inputs::Plain);

    let truncated = Network::from_bytes(&bytes[..bytes.len() - 1]);
    assert!(
        matches!(truncated, Err(NetworkError::Truncated { .. })),
        "{truncated:?}"
    );
    assert!(matches!(
        Network::from_bytes(&bytes[..10]),
        Err(NetworkError::Truncated { .. })
    ));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetworkError::TrailingBytes { .. })
    ));
    let mut flipped = bytes.clone();
    flipped[1000] ^= 0x10;
    assert!(matches!(
        Network::from_bytes(&flipped),
        Err(NetworkError::HashMismatch { .. })
    ));
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert_eq!(Network::from_bytes(&magic), Err(NetworkError::BadMagic));
    let mut hidden = bytes.clone();
    hidden[8] = 128;
    hidden[9] = 0;
    assert!(matches!(
        Network::from_bytes(&hidden),
        Err(NetworkError::Architecture(_))
    ));
    let mut version = bytes;
    version[4] = 9;
    assert_eq!(
        Network::from_bytes(&version),
        Err(NetworkError::UnsupportedVersion(9))
    );
}

/// A file's own output scale is read and used (the first networks were written at 64), and
/// a scale that is not a power of two (a damaged header: it is outside the hash) is refused.
#[test]
fn the_output_scale_is_the_files_own() {
    let network = random_network(22, Activation::SCReLU, 1);
    assert_eq!(network.qb(), horizon_chess::nnue::QB);
    let mut bytes = network.to_bytes();
    bytes[18..20].copy_from_slice(&64i16.to_le_bytes());
    let coarse = Network::from_bytes(&bytes).expect("scale 64 reads");
    assert_eq!(coarse.qb(), 64);
    let (fine, coarse) = (Arc::new(network), Arc::new(coarse));
    for fen in STARTS {
        let a = with_network(fen, &fine, Simd::detect()).evaluate();
        let b = with_network(fen, &coarse, Simd::detect()).evaluate();
        // The same integers at a 16 times coarser scale: 16 times the centipawns, up to
        // each result's truncation.
        assert!((b - 16 * a).abs() <= 16, "{fen}: {a} at 1024, {b} at 64");
        assert_ne!(a, 0, "{fen}");
    }
    for qb in [0i16, -64, 65, 1025, 1023] {
        bytes[18..20].copy_from_slice(&qb.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetworkError::Architecture(_))
        ));
    }
}

/// The output is summed exactly: every neuron saturated and every output weight at the
/// `i16` maximum (a sum some 500 times past `i32`) gives the value computed in `i128`.
#[test]
fn the_output_sum_cannot_wrap() {
    let ft_weights = vec![0i16; INPUTS * HIDDEN];
    let ft_bias = vec![255i16; HIDDEN];
    let out_weights = vec![i16::MAX; 2 * HIDDEN];
    let bias = 1_000_000i32;
    let network = Arc::new(
        Network::from_weights(
            &ft_weights,
            &ft_bias,
            &out_weights,
            &[bias],
            Activation::SCReLU,
        )
        .expect("weights of the build's shape"),
    );
    let (qa, qb, scale) = (255i128, i128::from(horizon_chess::nnue::QB), 400i128);
    let dot = 2 * HIDDEN as i128 * qa * qa * i128::from(i16::MAX);
    assert!(dot > 200 * i128::from(i32::MAX));
    let expected = (dot / qa + i128::from(bias)) * scale / (qa * qb);
    for simd in [Simd::Portable, Simd::detect()] {
        let eval = with_network(STARTS[0], &network, simd).evaluate();
        assert_eq!(i128::from(eval), expected, "{simd:?}");
    }
}

/// The evaluation from feature lists (the trainer's check) equals the one in the search.
#[test]
fn feature_lists_evaluate_like_positions() {
    for inputs in [Inputs::Plain, Inputs::KingMirrored] {
        let network = Arc::new(random_network(31, Activation::SCReLU, 8).with_inputs(inputs));
        for fen in STARTS {
            let mut pos = with_network(fen, &network, Simd::detect());
            let board = pos.chess().board().clone();
            let us = pos.turn();
            let flip = |side| king_flip(inputs, board.king_of(side).expect("a king"));
            let mut mine = Vec::new();
            let mut theirs = Vec::new();
            for square in board.occupied() {
                let piece = board.piece_at(square).expect("occupied");
                mine.push(feature(us, piece.color, piece.role, square, flip(us)));
                theirs.push(feature(!us, piece.color, piece.role, square, flip(!us)));
            }
            assert_eq!(
                network.evaluate_features(Simd::detect(), &mine, &theirs),
                pos.evaluate(),
                "{inputs:?} {fen}"
            );
        }
    }
}

/// The evaluation cache (by key) serves the network's values too: with positions revisited
/// by take-backs, every evaluation equals a fresh position's, many of them from the cache,
/// and a change of network (or back to the classic evaluation) drops the cached values.
#[test]
fn cached_network_evaluations_are_the_networks_own() {
    let simd = Simd::detect();
    let first =
        Arc::new(random_network(41, Activation::SCReLU, 8).with_inputs(Inputs::KingMirrored));
    let second = Arc::new(random_network(42, Activation::SCReLU, 8));
    let fresh = |pos: &Position, network: Option<&Arc<Network>>| {
        let mut p = Position::from_fen(&pos.fen()).expect("own FEN");
        p.set_network(network.cloned(), simd);
        p.evaluate()
    };
    let mut rng = StdRng::seed_from_u64(43);
    let mut switches = 0;
    for game in 0..40 {
        let mut pos = with_network(STARTS[game % STARTS.len()], &first, simd);
        for _ in 0..60 {
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            pos.play(m);
            let value = pos.evaluate();
            assert_eq!(value, fresh(&pos, Some(&first)), "{}", pos.fen());
            // Back and forth: the second visit is a cache hit.
            pos.undo();
            pos.evaluate();
            pos.play(m);
            assert_eq!(pos.evaluate(), value, "{}", pos.fen());
        }
        let (hits, probes) = pos.eval_cache_counters();
        assert!(hits * 3 >= probes, "{hits} hits of {probes} probes");
        // Another network, then the classic evaluation: no value of the first survives.
        let value = pos.evaluate();
        pos.set_network(Some(Arc::clone(&second)), simd);
        let other = pos.evaluate();
        assert_eq!(other, fresh(&pos, Some(&second)));
        pos.set_network(None, simd);
        assert_eq!(pos.evaluate(), fresh(&pos, None));
        switches += usize::from(other != value);
    }
    assert!(
        switches > 30,
        "the two networks agreed in {} of 40 positions",
        40 - switches
    );
}

/// The UCI engine's search position: `copy_game_from` takes another position's game and
/// keeps the evaluation and its cache, and setting the same network again keeps the cache.
/// Every evaluation then equals a fresh position's, also after moves played from the copied
/// game (the accumulators were rebuilt, not carried over), and a position seen before the
/// copy is a cache hit after it.
#[test]
fn a_search_position_takes_new_games_and_keeps_its_cache() {
    let simd = Simd::detect();
    let network =
        Arc::new(random_network(44, Activation::SCReLU, 8).with_inputs(Inputs::KingMirrored));
    let fresh = |pos: &Position| {
        let mut p = Position::from_fen(&pos.fen()).expect("own FEN");
        p.set_network(Some(Arc::clone(&network)), simd);
        p.evaluate()
    };
    let mut rng = StdRng::seed_from_u64(45);
    let mut search = with_network(STARTS[0], &network, simd);
    let mut hits_after_copies = 0;
    for game in 0..30 {
        // The game as the engine keeps it: no network, its own moves.
        let mut game_position = Position::from_fen(STARTS[game % STARTS.len()]).expect("valid");
        for _ in 0..rng.random_range(0..40) {
            let moves = game_position.moves();
            if moves.is_empty() {
                break;
            }
            game_position.play(moves[rng.random_range(0..moves.len())]);
        }
        search.copy_game_from(&game_position);
        search.set_network(Some(Arc::clone(&network)), simd);
        assert_eq!(search.fen(), game_position.fen());
        assert_eq!(search.key(), game_position.key());
        assert_eq!(search.evaluate(), fresh(&search), "{}", search.fen());
        for _ in 0..20 {
            let moves = search.moves();
            if moves.is_empty() {
                break;
            }
            search.play(moves[rng.random_range(0..moves.len())]);
            assert_eq!(search.evaluate(), fresh(&search), "{}", search.fen());
        }
        // The copied game's root again (as the next `go` of the same position would see it).
        search.copy_game_from(&game_position);
        search.set_network(Some(Arc::clone(&network)), simd);
        let (before, _) = search.eval_cache_counters();
        assert_eq!(search.evaluate(), fresh(&search));
        hits_after_copies += usize::from(search.eval_cache_counters().0 > before);
    }
    assert_eq!(hits_after_copies, 30, "the cache was not kept");
}

/// `NetworkClassicBlend`: with six men or fewer the evaluation is the network's value and
/// the classic one mixed by the percentage (100: the classic value itself), counted once per
/// evaluation; with more men the network's value is left alone and nothing is counted.
#[test]
fn the_classic_blend_mixes_both_evaluations_in_small_endings() {
    use horizon_search::EvalKnowledge;
    let network = Arc::new(Network::embedded().expect("the built-in network"));
    let simd = Simd::detect();
    let blend = |percent: u8| EvalKnowledge {
        network_classic_blend: percent,
        ..EvalKnowledge::default()
    };
    // (network, classic, blended 50%, blended 100%, blends counted)
    let values = |fen: &str| {
        let mut pos = with_network(fen, &network, simd);
        let network_value = pos.evaluate();
        let classic = pos.evaluate_classic();
        pos.set_eval_knowledge(blend(50));
        let half = pos.evaluate();
        pos.set_eval_knowledge(blend(100));
        let full = pos.evaluate();
        // A cached value is not blended (or counted) again.
        assert_eq!(pos.evaluate(), full, "{fen}");
        (
            network_value,
            classic,
            half,
            full,
            pos.eval_knowledge_counts().network_blended,
        )
    };
    for fen in [
        "8/8/8/3R4/2K5/6pp/k7/8 w - - 0 1",
        "8/8/8/3R4/2K5/6pp/k7/8 b - - 0 1",
        "3R4/8/8/8/3K4/p6p/4k3/8 w - - 0 1",
        "4k3/3R4/1b1K4/8/8/8/8/8 w - - 0 1",
        "8/4r3/7P/8/6P1/8/k4K2/8 b - - 0 1",
    ] {
        let (network_value, classic, half, full, count) = values(fen);
        assert_ne!(
            network_value, classic,
            "{fen}: the two evaluations must differ"
        );
        assert_eq!(full, classic, "{fen}");
        assert_eq!(half, (network_value + classic) / 2, "{fen}");
        assert_eq!(count, 2, "{fen}");
    }
    for fen in STARTS {
        let (network_value, _, half, full, count) = values(fen);
        assert_eq!(
            (half, full, count),
            (network_value, network_value, 0),
            "{fen}"
        );
    }
}

/// `NetworkEndgameScale`: the built-in network's value times the classic endgame scale,
/// blended by phase. Rook against bishop without pawns: scale 8 of 64 at phase 3 (rook 2,
/// bishop 1) blends to (64·3 + 8·21) / 24 = 15 of 64. Opposite bishops alone with pawns,
/// two pawns up or less: scale 16 at phase 2, (64·2 + 16·22) / 24 = 20. Positions the scale
/// leaves alone keep the network's value, and no value grows or changes sign.
#[test]
fn the_endgame_scale_shrinks_network_values_of_drawish_endings() {
    use horizon_search::EvalKnowledge;
    let network = Arc::new(Network::embedded().expect("the built-in network"));
    let simd = Simd::detect();
    let on = EvalKnowledge {
        network_endgame_scale: true,
        ..EvalKnowledge::default()
    };
    let values = |fen: &str| {
        let mut pos = with_network(fen, &network, simd);
        let plain = pos.evaluate();
        pos.set_eval_knowledge(on);
        let scaled = pos.evaluate();
        (plain, scaled, pos.eval_knowledge_counts().network_scaled)
    };
    for (fen, blended) in [
        ("8/8/8/4k3/8/8/2KR4/5b2 w - - 0 1", 15),
        ("8/8/8/4k3/8/8/2KR4/5b2 b - - 0 1", 15),
        ("8/8/3k4/3p4/2pP1b2/2P5/3K4/3B4 w - - 0 1", 20),
        ("3b4/8/3k4/3p4/2pP4/2P5/3KB3/8 b - - 0 1", 20),
    ] {
        let (plain, scaled, count) = values(fen);
        assert_ne!(plain, 0, "{fen}");
        assert_eq!(scaled, plain * blended / 64, "{fen}");
        assert_eq!(count, 1, "{fen}");
    }
    for fen in STARTS {
        let (plain, scaled, count) = values(fen);
        assert_eq!((scaled, count), (plain, 0), "{fen}");
    }
    // Random games down to their endings.
    let mut rng = StdRng::seed_from_u64(51);
    let (mut positions, mut changed) = (0, 0);
    for game in 0..60 {
        let mut pos = with_network(STARTS[game % STARTS.len()], &network, simd);
        for _ in 0..200 {
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            // Captures first, so that games reach endings.
            let captures: Vec<Move> = moves.iter().copied().filter(|m| m.is_capture()).collect();
            let pick = if captures.is_empty() {
                &moves[..]
            } else {
                &captures[..]
            };
            pos.play(pick[rng.random_range(0..pick.len())]);
            let (plain, scaled, _) = values(&pos.fen());
            assert!(scaled.abs() <= plain.abs(), "{}", pos.fen());
            assert!(
                scaled == 0 || scaled.signum() == plain.signum(),
                "{}",
                pos.fen()
            );
            positions += 1;
            changed += usize::from(scaled != plain);
        }
    }
    assert!(
        changed > 50 && changed < positions / 2,
        "{changed} of {positions} changed"
    );
}

/// With a network `play` keeps no classic material and piece-square sum; the classic
/// evaluation stays exact wherever it is asked: of the network's position, of a classic
/// position that takes the network's game, and after the network is switched off, when
/// `play` keeps the sum again.
#[test]
fn the_classic_sum_is_exact_with_and_after_the_network() {
    let network = Arc::new(random_network(5, Activation::SCReLU, 8));
    let mut rng = StdRng::seed_from_u64(29);
    let mut compared = 0;
    for fen in STARTS {
        let mut net = with_network(fen, &network, Simd::detect());
        let mut classic = Position::from_fen(fen).expect("valid FEN");
        for ply in 0..60 {
            let moves = classic.moves();
            if moves.is_empty() {
                break;
            }
            if ply % 7 == 3 && !classic.in_check() {
                net.play_null();
                classic.play_null();
            } else {
                let m = moves[rng.random_range(0..moves.len())];
                net.play(m);
                classic.play(m);
            }
            assert_eq!(
                net.evaluate_classic(),
                classic.evaluate_classic(),
                "{}",
                net.fen()
            );
            compared += 1;
        }
        let mut copy = Position::from_fen(STARTS[0]).expect("valid FEN");
        copy.copy_game_from(&net);
        assert_eq!(copy.evaluate(), classic.evaluate(), "{}", classic.fen());
        net.set_network(None, Simd::detect());
        assert_eq!(net.evaluate(), classic.evaluate(), "{}", classic.fen());
        for _ in 0..20 {
            let moves = classic.moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            for pos in [&mut net, &mut copy, &mut classic] {
                pos.play(m);
            }
            assert_eq!(net.evaluate(), classic.evaluate(), "{}", classic.fen());
            assert_eq!(copy.evaluate(), classic.evaluate(), "{}", classic.fen());
            compared += 1;
        }
    }
    assert!(compared > 300, "{compared}");
}
