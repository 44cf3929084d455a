//! Static evaluation: material plus piece-square tables, tapered between middlegame and
//! endgame by the material phase, plus a tempo bonus for the side to move.
//!
//! Scores are centipawns from the side to move's point of view. The piece-square tables
//! are generated at compile time from simple formulas (centralisation, pawn advance, rook
//! on the seventh, king shelter in the middlegame and activity in the endgame); they are
//! written from White's point of view and mirrored vertically for Black.

use std::fmt;

use shakmaty::{Chess, Color, Piece, Position as _, Role, Square};

/// Bonus for the side to move, in centipawns (not tapered).
pub const TEMPO: i32 = 10;

/// Phase of a full set of pieces (and the cap for positions with promoted material).
pub const MAX_PHASE: i32 = 24;

/// Middlegame and endgame values, indexed by `Role as usize - 1` (pawn .. king).
const VALUE_MG: [i32; 6] = [100, 320, 330, 500, 950, 0];
const VALUE_EG: [i32; 6] = [120, 300, 320, 540, 980, 0];

/// The roles in table order.
const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// Middlegame and endgame value of a piece of this role (the king is worth 0 here).
#[inline]
pub const fn piece_value(role: Role) -> (i32, i32) {
    let i = role as usize - 1;
    (VALUE_MG[i], VALUE_EG[i])
}

// ---------------------------------------------------------------------------------------
// Piece-square tables, from formulas.
// ---------------------------------------------------------------------------------------

/// Distance (0..=3) of a file or rank index from the two central lines.
const fn centre_line_distance(x: i32) -> i32 {
    if x < 4 { 3 - x } else { x - 4 }
}

/// Manhattan distance (0..=6) of a square from the four central squares.
const fn centre_distance(file: i32, rank: i32) -> i32 {
    centre_line_distance(file) + centre_line_distance(rank)
}

/// Middlegame and endgame bonus for a piece of `role` on (`file`, `rank`), White's view.
const fn pst_formula(role: usize, file: i32, rank: i32) -> (i32, i32) {
    let centre = centre_distance(file, rank); // 0 (centre) ..= 6 (corner)
    let file_centrality = 3 - centre_line_distance(file); // 0 (a/h) ..= 3 (d/e)
    match role {
        // Pawn: rewarded for advancing, more steeply in the endgame; in the middlegame
        // central files gain more from advancing. The first and last ranks never hold pawns.
        0 => {
            if rank == 0 || rank == 7 {
                (0, 0)
            } else {
                let adv = rank - 1; // 0 on the second rank ..= 5 on the seventh
                (adv * (4 + 3 * file_centrality), 2 * adv * adv + 5 * adv)
            }
        }
        // Knight: strongly centralising, a knight on the rim is dim.
        1 => (20 - 10 * centre, 15 - 8 * centre),
        // Bishop: mildly centralising.
        2 => (10 - 4 * centre, 10 - 4 * centre),
        // Rook: the seventh rank; a touch for central files in the middlegame.
        3 => {
            let seventh = if rank == 6 { 1 } else { 0 };
            let central_file = if file_centrality == 3 { 5 } else { 0 };
            (20 * seventh + central_file, 10 * seventh)
        }
        // Queen: slightly centralising in the middlegame, more so in the endgame.
        4 => (4 - 2 * centre, 12 - 5 * centre),
        // King: middlegame shelter on the back rank towards the corners (castled squares
        // best), endgame activity in the centre.
        _ => {
            let edge = if file < 4 { file } else { 7 - file }; // 0 (a/h) ..= 3 (d/e)
            let file_bonus = match edge {
                0 => 20,
                1 => 30,
                2 => 10,
                _ => -10,
            };
            let rank_penalty = if rank * 20 < 70 { rank * 20 } else { 70 };
            (file_bonus - rank_penalty, 30 - 10 * centre)
        }
    }
}

/// `[phase][role][square]`: phase 0 = middlegame, 1 = endgame; squares from White's view.
const fn build_pst() -> [[[i16; 64]; 6]; 2] {
    let mut table = [[[0i16; 64]; 6]; 2];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let (mg, eg) = pst_formula(role, (sq % 8) as i32, (sq / 8) as i32);
            table[0][role][sq] = mg as i16;
            table[1][role][sq] = eg as i16;
            sq += 1;
        }
        role += 1;
    }
    table
}

static PST: [[[i16; 64]; 6]; 2] = build_pst();

/// Packs a middlegame and an endgame score into one `i32` (endgame in the high half), so
/// one addition updates both. Each half must stay within `i16`.
const fn pack(mg: i32, eg: i32) -> i32 {
    (eg << 16) + mg
}

#[inline(always)]
const fn unpack_mg(s: i32) -> i32 {
    s as i16 as i32
}

#[inline(always)]
const fn unpack_eg(s: i32) -> i32 {
    ((s + 0x8000) >> 16) as i16 as i32
}

/// `[side][role][square]`: packed piece value plus piece-square bonus, from the owner's
/// view, indexed by the real square (Black's half is pre-mirrored). Side 0 = White.
const fn build_psqt() -> [[[i32; 64]; 6]; 2] {
    let pst = build_pst();
    let mut table = [[[0i32; 64]; 6]; 2];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let mg = VALUE_MG[role] + pst[0][role][sq] as i32;
            let eg = VALUE_EG[role] + pst[1][role][sq] as i32;
            table[0][role][sq] = pack(mg, eg);
            table[1][role][sq ^ 56] = pack(mg, eg);
            sq += 1;
        }
        role += 1;
    }
    table
}

static PSQT: [[[i32; 64]; 6]; 2] = build_psqt();

/// Piece-square bonus (middlegame, endgame) for a piece of `color` and `role` on `sq`,
/// from that piece's own point of view (positive is good for its owner). Excludes the
/// piece's value ([`piece_value`]).
#[inline]
pub fn pst(color: Color, role: Role, sq: Square) -> (i32, i32) {
    let idx = match color {
        Color::White => sq.to_usize(),
        Color::Black => sq.to_usize() ^ 56,
    };
    let r = role as usize - 1;
    (i32::from(PST[0][r][idx]), i32::from(PST[1][r][idx]))
}

// ---------------------------------------------------------------------------------------
// Evaluation.
// ---------------------------------------------------------------------------------------

/// Blends middlegame and endgame scores by phase (`MAX_PHASE` = pure middlegame).
#[inline(always)]
fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// Colour index in the breakdown arrays: 0 = White, 1 = Black.
#[inline(always)]
const fn side_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The shared evaluation. With `TRACE` the terms are recorded in `trace`; without it the
/// recording compiles away.
#[inline(always)]
fn compute<const TRACE: bool>(chess: &Chess, trace: &mut EvalBreakdown) -> i32 {
    let board = chess.board();
    let turn = chess.turn();
    if TRACE {
        trace.turn = turn;
    }
    if chess.is_insufficient_material() {
        if TRACE {
            trace.insufficient_material = true;
        }
        return 0;
    }

    // Packed (value + piece-square) sums, each side from its own view.
    let mut sums = [0i32; 2];
    for color in [Color::White, Color::Black] {
        let side = side_index(color);
        let table = &PSQT[side];
        let mut sum = 0;
        for (r, role) in ROLES.into_iter().enumerate() {
            let pieces = board.by_piece(Piece { color, role });
            for sq in pieces {
                sum += table[r][sq.to_usize()];
            }
            if TRACE {
                let count = pieces.count() as i32;
                let (mat_mg, mat_eg) = trace.material[side];
                trace.material[side] = (mat_mg + count * VALUE_MG[r], mat_eg + count * VALUE_EG[r]);
            }
        }
        sums[side] = sum;
        if TRACE {
            let (mat_mg, mat_eg) = trace.material[side];
            trace.pst[side] = (unpack_mg(sum) - mat_mg, unpack_eg(sum) - mat_eg);
        }
    }
    let net = sums[0] - sums[1];
    let (mg, eg) = (unpack_mg(net), unpack_eg(net));
    let phase = (board.knights() | board.bishops()).count() as i32
        + 2 * board.rooks().count() as i32
        + 4 * board.queens().count() as i32;
    let phase = phase.min(MAX_PHASE);
    let white = taper(mg, eg, phase);
    let score = match turn {
        Color::White => white,
        Color::Black => -white,
    } + TEMPO;
    if TRACE {
        trace.phase = phase;
        trace.tempo[side_index(turn)] = TEMPO;
        trace.white_tapered = white;
        trace.score = score;
    }
    score
}

/// Static evaluation in centipawns from the side to move's point of view. Positions with
/// insufficient material on both sides are 0.
#[inline]
pub fn evaluate(chess: &Chess) -> i32 {
    let mut unused = EvalBreakdown::EMPTY;
    compute::<false>(chess, &mut unused)
}

/// The evaluation split into its terms, per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalBreakdown {
    /// Side to move.
    pub turn: Color,
    /// Material phase, 0 (bare kings and pawns) ..= [`MAX_PHASE`] (full middlegame).
    pub phase: i32,
    /// Material (middlegame, endgame), index 0 = White, 1 = Black, each from its own view.
    pub material: [(i32, i32); 2],
    /// Piece-square bonuses (middlegame, endgame), as `material`.
    pub pst: [(i32, i32); 2],
    /// Tempo bonus, as `material` (only the side to move has it).
    pub tempo: [i32; 2],
    /// The tapered material and piece-square sum from White's view (tempo excluded).
    pub white_tapered: i32,
    /// Whether the position was scored 0 for insufficient material (other terms are then 0).
    pub insufficient_material: bool,
    /// The final score from the side to move's view: equal to [`evaluate`].
    pub score: i32,
}

impl EvalBreakdown {
    const EMPTY: EvalBreakdown = EvalBreakdown {
        turn: Color::White,
        phase: 0,
        material: [(0, 0); 2],
        pst: [(0, 0); 2],
        tempo: [0; 2],
        white_tapered: 0,
        insufficient_material: false,
        score: 0,
    };
}

/// The evaluation of `chess` with its terms.
pub fn breakdown(chess: &Chess) -> EvalBreakdown {
    let mut trace = EvalBreakdown::EMPTY;
    compute::<true>(chess, &mut trace);
    trace
}

impl fmt::Display for EvalBreakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const W: usize = 0;
        const B: usize = 1;
        let rule = "-----------+-------------+-------------+-------------";
        writeln!(
            f,
            "{:<10} | {:>5} {:>5} | {:>5} {:>5} | {:>5} {:>5}",
            "Term", "W mg", "W eg", "B mg", "B eg", "Net mg", "eg"
        )?;
        writeln!(f, "{rule}")?;
        let mut row = |name: &str, w: (i32, i32), b: (i32, i32)| {
            writeln!(
                f,
                "{:<10} | {:>5} {:>5} | {:>5} {:>5} | {:>5} {:>5}",
                name,
                w.0,
                w.1,
                b.0,
                b.1,
                w.0 - b.0,
                w.1 - b.1
            )
        };
        row("Material", self.material[W], self.material[B])?;
        row("PST", self.pst[W], self.pst[B])?;
        row(
            "Tempo",
            (self.tempo[W], self.tempo[W]),
            (self.tempo[B], self.tempo[B]),
        )?;
        writeln!(f, "{rule}")?;
        let side = match self.turn {
            Color::White => "white",
            Color::Black => "black",
        };
        if self.insufficient_material {
            writeln!(f, "Insufficient material: draw")?;
        } else {
            writeln!(
                f,
                "Phase {}/{}; tapered (White view) {:+}",
                self.phase, MAX_PHASE, self.white_tapered
            )?;
        }
        write!(f, "Final ({side} to move): {:+} cp", self.score)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, EnPassantMode, FromSetup, PositionError};

    use super::*;
    use crate::{Position, START_FEN};

    fn chess(fen: &str) -> Chess {
        Position::from_fen(fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .chess()
            .clone()
    }

    fn mirrored(pos: &Chess) -> Chess {
        // `Setup::mirror` flips the board vertically, swaps the colours and the turn.
        let setup = pos.to_setup(EnPassantMode::Legal).into_mirrored();
        Chess::from_setup(setup, CastlingMode::Standard)
            .or_else(PositionError::ignore_impossible_check)
            .expect("mirror is legal")
    }

    const FENS: &[&str] = &[
        START_FEN,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 b - - 6 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/4k3/8/2p5/8/B2P2K1/8 b - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KQ2 b - - 0 1",
        "QQQQkQQQ/8/8/8/8/8/8/4K3 b - - 0 1",
        "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - b3 0 23",
        "8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1",
    ];

    #[test]
    fn start_position_is_tempo() {
        let start = Chess::default();
        assert_eq!(evaluate(&start), TEMPO);
        let black = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(evaluate(&black), TEMPO);
        let b = breakdown(&start);
        assert_eq!(b.phase, MAX_PHASE);
        assert_eq!(b.material[0], b.material[1]);
        assert_eq!(b.pst[0], b.pst[1]);
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // indexes two squares at once
    fn tables_are_left_right_symmetric_and_sane() {
        for r in 0..6 {
            for sq in 0..64 {
                let flipped = sq ^ 7;
                assert_eq!(PST[0][r][sq], PST[0][r][flipped], "mg role {r} sq {sq}");
                assert_eq!(PST[1][r][sq], PST[1][r][flipped], "eg role {r} sq {sq}");
            }
        }
        // No pawns on the first or last rank: those entries are unused and zero.
        for file in 0..8 {
            assert_eq!((PST[0][0][file], PST[1][0][file]), (0, 0));
            assert_eq!((PST[0][0][56 + file], PST[1][0][56 + file]), (0, 0));
        }
        // Knights: centre beats corner.
        assert!(
            pst(Color::White, Role::Knight, Square::E4).0
                > pst(Color::White, Role::Knight, Square::A1).0
        );
        // Black's table is White's mirrored.
        assert_eq!(
            pst(Color::Black, Role::King, Square::G8),
            pst(Color::White, Role::King, Square::G1)
        );
    }

    #[test]
    fn packed_table_is_value_plus_pst() {
        for (r, role) in ROLES.into_iter().enumerate() {
            let (vm, ve) = piece_value(role);
            for sq in Square::ALL {
                for color in [Color::White, Color::Black] {
                    let packed = PSQT[side_index(color)][r][sq.to_usize()];
                    let (pm, pe) = pst(color, role, sq);
                    assert_eq!((unpack_mg(packed), unpack_eg(packed)), (vm + pm, ve + pe));
                }
            }
        }
        for (mg, eg) in [(0, 0), (-1, 1), (1, -1), (-20000, 15000), (30000, -30000)] {
            let s = pack(mg, eg);
            assert_eq!((unpack_mg(s), unpack_eg(s)), (mg, eg));
        }
        let diff = pack(120, -35) - pack(-80, 400);
        assert_eq!((unpack_mg(diff), unpack_eg(diff)), (200, -435));
    }

    #[test]
    fn colour_mirror_symmetry() {
        for fen in FENS {
            let pos = chess(fen);
            let mirror = mirrored(&pos);
            assert_eq!(evaluate(&pos), evaluate(&mirror), "{fen}");
            // Flipping only the side to move changes the sign of the tapered part.
            let b = breakdown(&pos);
            let bm = breakdown(&mirror);
            assert_eq!(b.white_tapered, -bm.white_tapered, "{fen}");
            assert_eq!(b.material[0], bm.material[1], "{fen}");
            assert_eq!(b.pst[0], bm.pst[1], "{fen}");
        }
    }

    #[test]
    fn breakdown_matches_evaluate() {
        let extra = [
            "4k3/8/8/8/8/8/8/3NK3 w - - 0 1",
            "4k3/8/8/8/8/8/8/3NK3 b - - 0 1",
        ];
        for fen in FENS.iter().chain(extra.iter()) {
            let pos = chess(fen);
            let b = breakdown(&pos);
            assert_eq!(b.score, evaluate(&pos), "{fen}");
            let shown = b.to_string();
            assert!(shown.contains("Final"), "{shown}");
            if !b.insufficient_material {
                let net = |t: [(i32, i32); 2]| (t[0].0 - t[1].0, t[0].1 - t[1].1);
                let (m, p) = (net(b.material), net(b.pst));
                assert_eq!(
                    b.white_tapered,
                    taper(m.0 + p.0, m.1 + p.1, b.phase),
                    "{fen}"
                );
            }
        }
        // Promoted material: the phase is clamped.
        assert_eq!(breakdown(&chess(FENS[11])).phase, MAX_PHASE);
    }

    #[test]
    fn insufficient_material_is_zero() {
        for fen in [
            "4k3/8/8/8/8/8/8/3NK3 w - - 0 1",
            "4k3/8/8/8/8/8/8/3NK3 b - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1", // same-coloured bishops
        ] {
            let pos = chess(fen);
            assert_eq!(evaluate(&pos), 0, "{fen}");
            assert!(breakdown(&pos).insufficient_material);
        }
        // A lone knight against a pawn is not insufficient for both sides.
        assert_ne!(evaluate(&chess("4k3/4p3/8/8/8/8/8/3NK3 w - - 0 1")), 0);
    }

    #[test]
    fn extra_material_dominates() {
        // White has an extra piece: the start position minus a black piece.
        for (board, min) in [
            ("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 700),
            ("rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 350),
            ("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 200),
        ] {
            let white = evaluate(&chess(&format!("{board} w KQ - 0 1")));
            let black = evaluate(&chess(&format!("{board} b KQ - 0 1")));
            assert!(white > min, "{board}: {white}");
            assert!(black < -min, "{board}: {black}");
            assert_eq!(white - TEMPO, -(black - TEMPO), "{board}");
        }
    }

    #[test]
    fn passed_pawn_on_seventh_beats_second() {
        let seventh = evaluate(&chess("8/3P4/8/8/8/8/8/k2K4 w - - 0 1"));
        let second = evaluate(&chess("8/8/8/8/8/8/3P4/k2K4 w - - 0 1"));
        assert!(seventh > second + 50, "{seventh} vs {second}");
        // Same from Black's side.
        let seventh = evaluate(&chess("K2k4/8/8/8/8/8/3p4/8 b - - 0 1"));
        let second = evaluate(&chess("K2k4/3p4/8/8/8/8/8/8 b - - 0 1"));
        assert!(seventh > second + 50, "{seventh} vs {second}");
    }

    #[test]
    fn king_placement_by_phase() {
        // Endgame: an active king beats a cornered one.
        let centre = evaluate(&chess("4k3/8/8/8/4K3/8/4P3/8 w - - 0 1"));
        let corner = evaluate(&chess("4k3/8/8/8/8/8/4P3/K7 w - - 0 1"));
        assert!(centre > corner + 20, "{centre} vs {corner}");
        // Middlegame: the castled king beats an exposed one.
        let castled = evaluate(&chess(
            "r1bq1rk1/pppp1ppp/2n5/2b5/2B5/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1",
        ));
        let exposed = evaluate(&chess(
            "r1bq1rk1/pppp1ppp/2n5/2b5/2B1K3/2N2N2/PPPP1PPP/R1BQ1R2 w - - 0 1",
        ));
        assert!(castled > exposed + 50, "{castled} vs {exposed}");
    }

    /// `cargo test -p horizon-chess --release eval::tests::bench -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn bench_evaluate() {
        use std::hint::black_box;
        use std::time::Instant;
        let pos = chess(FENS[3]);
        let n = 10_000_000u64;
        let mut acc = 0i64;
        let start = Instant::now();
        for _ in 0..n {
            acc += i64::from(evaluate(black_box(&pos)));
        }
        let elapsed = start.elapsed();
        black_box(acc);
        println!(
            "evaluate: {:.2} ns/call over {n} calls ({})",
            elapsed.as_nanos() as f64 / n as f64,
            evaluate(&pos)
        );
        println!("{}", breakdown(&pos));
    }
}
