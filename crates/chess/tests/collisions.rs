//! The shared table under forced key collisions: chess positions whose 64-bit key is cut to
//! 10 bits, so unrelated positions share keys all the time, searched with a tiny table by one
//! and by eight threads (on a 2-core machine). The move sanity check (`Game::decode`) must
//! reject every foreign move, so the move played is always legal; with 128-bit keys the
//! second 64 bits reject the foreign entries before their moves are even looked at.

use std::sync::Arc;

use horizon_chess::Position;
use horizon_search::threads::search_smp;
use horizon_search::{
    Draw, Game, Limits, NoMoves, SearchConfig, SearchControl, Searcher, Silent, TableOutcome,
    TranspositionTable,
};
use shakmaty::{Move, MoveList};

/// Keys keep only this many bits.
const KEY_BITS: u32 = 10;

/// A chess position with a crippled 64-bit key (the 128-bit extension stays whole).
#[derive(Clone)]
struct Colliding(Position);

impl Game for Colliding {
    type Move = Move;
    type Moves = MoveList;
    const HISTORY_SIZE: usize = Position::HISTORY_SIZE;
    const CONTINUATION_SIZE: usize = Position::CONTINUATION_SIZE;
    const BUTTERFLY_SIZE: usize = Position::BUTTERFLY_SIZE;
    const CAPTURE_HISTORY_SIZE: usize = Position::CAPTURE_HISTORY_SIZE;
    const MOVE_RULE_PLIES: Option<u32> = Position::MOVE_RULE_PLIES;

    fn key(&self) -> u64 {
        Game::key(&self.0) & ((1 << KEY_BITS) - 1)
    }
    fn key_extension(&self) -> u64 {
        self.0.key_extension()
    }
    fn set_wide_keys(&mut self, on: bool) {
        self.0.set_wide_keys(on);
    }
    fn ply(&self) -> usize {
        Game::ply(&self.0)
    }
    fn reversible_plies(&self) -> u32 {
        self.0.reversible_plies()
    }
    fn generate(&self, out: &mut MoveList) {
        self.0.generate(out);
    }
    fn generate_tactical(&self, out: &mut MoveList) {
        self.0.generate_tactical(out);
    }
    fn generate_quiet(&self, out: &mut MoveList) {
        self.0.generate_quiet(out);
    }
    fn play(&mut self, m: Move) {
        Game::play(&mut self.0, m);
    }
    fn undo(&mut self) {
        Game::undo(&mut self.0);
    }
    fn null_move_allowed(&self) -> bool {
        self.0.null_move_allowed()
    }
    fn play_null(&mut self) {
        Game::play_null(&mut self.0);
    }
    fn undo_null(&mut self) {
        self.0.undo_null();
    }
    fn non_pawn_pieces(&self) -> u32 {
        Game::non_pawn_pieces(&self.0)
    }
    fn mobile_non_pawn_pieces(&self) -> u32 {
        Game::mobile_non_pawn_pieces(&self.0)
    }
    fn non_pawn_mobility(&self) -> u32 {
        Game::non_pawn_mobility(&self.0)
    }
    fn evaluate(&mut self) -> i32 {
        Game::evaluate(&mut self.0)
    }
    fn in_check(&self) -> bool {
        Game::in_check(&self.0)
    }
    fn draw(&self, search_root_ply: usize) -> Option<Draw> {
        self.0.draw(search_root_ply)
    }
    fn no_moves(&self) -> NoMoves {
        self.0.no_moves()
    }
    fn has_upcoming_repetition(&self, search_root_ply: usize) -> bool {
        Game::has_upcoming_repetition(&self.0, search_root_ply)
    }
    fn is_capture(&self, m: Move) -> bool {
        self.0.is_capture(m)
    }
    fn is_promotion(&self, m: Move) -> bool {
        self.0.is_promotion(m)
    }
    fn mvv_lva(&self, m: Move) -> i32 {
        self.0.mvv_lva(m)
    }
    fn see(&self, m: Move) -> i32 {
        self.0.see(m)
    }
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.0.see_ge(m, threshold)
    }
    fn captured_value(&self, m: Move) -> i32 {
        self.0.captured_value(m)
    }
    fn is_recapture(&self, m: Move) -> bool {
        self.0.is_recapture(m)
    }
    fn is_advanced_pawn_push(&self, m: Move) -> bool {
        self.0.is_advanced_pawn_push(m)
    }
    fn encode(m: Move) -> u16 {
        Position::encode(m)
    }
    fn decode(&self, packed: u16) -> Option<Move> {
        self.0.decode(packed)
    }
    fn history_index(&self, m: Move) -> usize {
        self.0.history_index(m)
    }
    fn butterfly_index(&self, m: Move) -> usize {
        self.0.butterfly_index(m)
    }
    fn correction_key(&self) -> u64 {
        self.0.correction_key()
    }
    fn correction_keys_non_pawn(&self) -> [u64; 2] {
        self.0.correction_keys_non_pawn()
    }
    fn capture_history_index(&self, m: Move) -> usize {
        self.0.capture_history_index(m)
    }
    fn table_outcome(&self) -> Option<TableOutcome> {
        self.0.table_outcome()
    }
    fn last_move_index(&self) -> Option<usize> {
        self.0.last_move_index()
    }
}

const FENS: [&str; 4] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1P3P1/2BQ1PNP/R3R1K1 w - - 0 1",
];

/// Searches every position with `threads` threads sharing a 1 MiB table; returns the table
/// moves the sanity check rejected. Every move played must be legal.
fn search_all(threads: usize, wide_keys: bool) -> u64 {
    let config = SearchConfig {
        tt_wide_keys: wide_keys,
        ..SearchConfig::default()
    };
    let tt = Arc::new(TranspositionTable::new(1));
    let control = Arc::new(SearchControl::default());
    let mut main = Searcher::<Colliding>::new(config.clone(), tt.clone(), control.clone());
    let mut helpers: Vec<_> = (1..threads)
        .map(|_| Searcher::<Colliding>::new(config.clone(), tt.clone(), control.clone()))
        .collect();
    let mut rejected = 0;
    for fen in FENS {
        let mut position = Colliding(Position::from_fen(fen).expect("legal FEN"));
        // The table is not cleared: entries of the other positions stay as foreign matter.
        let result = search_smp(
            &mut main,
            &mut helpers,
            &mut position,
            &Limits::nodes(150_000),
            &mut Silent,
        );
        let best = result.best_move.expect("a legal move exists");
        assert!(
            position.0.moves().contains(&best),
            "{fen}: illegal {best:?}"
        );
        // The principal variation is a legal line too.
        let mut line = position.0.clone();
        for &m in &result.lines[0].moves {
            assert!(line.moves().contains(&m), "{fen}: illegal PV move {m:?}");
            line.play(m);
        }
        rejected += result.stats.tt_bad_moves;
    }
    rejected
}

#[test]
fn colliding_keys_never_produce_an_illegal_move() {
    let rejected = search_all(1, false);
    assert!(rejected > 0, "the collisions reached the move check");
    let rejected = search_all(8, false);
    assert!(rejected > 0);
}

#[test]
fn wide_keys_reject_colliding_entries_before_their_moves() {
    assert_eq!(search_all(1, true), 0);
    assert_eq!(search_all(8, true), 0);
}
