//! Chess as a [`horizon_search::Game`]: the search core's view of a [`Position`].

use horizon_search::{Draw, EvalKnowledge, EvalKnowledgeCounts, Game, NoMoves, TableOutcome};
use shakmaty::{Color, Move, MoveList, Position as _, Rank, Role};

use crate::encoding::PackedMove;
use crate::position::Position;
use crate::see;

/// History slot of a piece of `color` and `role` arriving on `to`: 2 × 6 × 64 slots.
#[inline]
fn piece_to_index(color: Color, role: Role, to: shakmaty::Square) -> usize {
    let piece = color as usize * 6 + (role as usize - 1);
    piece * 64 + to as usize
}

impl Game for Position {
    type Move = Move;
    type Moves = MoveList;
    const HISTORY_SIZE: usize = 2 * 6 * 64;
    const CONTINUATION_SIZE: usize = 2 * 6 * 64;
    /// Side × from-square × to-square.
    const BUTTERFLY_SIZE: usize = 2 * 64 * 64;
    /// (piece, square) × captured type: pawn to queen, or none (a quiet promotion).
    const CAPTURE_HISTORY_SIZE: usize = 2 * 6 * 64 * 6;
    const MOVE_RULE_PLIES: Option<u32> = Some(100);

    #[inline]
    fn key(&self) -> u64 {
        Position::key(self)
    }

    #[inline]
    fn key_extension(&self) -> u64 {
        if self.tracks_key128() {
            (self.key128() >> 64) as u64
        } else {
            0
        }
    }

    fn set_wide_keys(&mut self, on: bool) {
        self.set_track_key128(on);
    }

    fn set_eval_knowledge(&mut self, knowledge: EvalKnowledge) {
        Position::set_eval_knowledge(self, knowledge);
    }

    fn eval_knowledge_counts(&self) -> EvalKnowledgeCounts {
        Position::eval_knowledge_counts(self)
    }

    #[inline]
    fn ply(&self) -> usize {
        Position::ply(self)
    }

    #[inline]
    fn reversible_plies(&self) -> u32 {
        self.halfmoves()
    }

    #[inline]
    fn generate(&self, out: &mut MoveList) {
        self.legal_moves(out);
    }

    #[inline]
    fn generate_tactical(&self, out: &mut MoveList) {
        self.tactical_moves(out);
    }

    #[inline]
    fn generate_quiet(&self, out: &mut MoveList) {
        self.quiet_moves(out);
    }

    #[inline]
    fn play(&mut self, m: Move) {
        Position::play(self, m);
    }

    #[inline]
    fn undo(&mut self) {
        Position::undo(self);
    }

    #[inline]
    fn predicted_key(&self, m: Move) -> Option<u64> {
        Some(Position::predicted_key(self, m))
    }

    #[inline]
    fn prepare_evaluation(&mut self) {
        Position::prepare_evaluation(self);
    }

    #[inline]
    fn null_move_allowed(&self) -> bool {
        !self.in_check()
    }

    #[inline]
    fn play_null(&mut self) {
        Position::play_null(self);
    }

    #[inline]
    fn undo_null(&mut self) {
        Position::undo(self);
    }

    #[inline]
    fn non_pawn_pieces(&self) -> u32 {
        Position::non_pawn_pieces(self, self.turn())
    }

    fn mobile_non_pawn_pieces(&self) -> u32 {
        Position::mobile_non_pawn_pieces(self, self.turn())
    }

    fn non_pawn_mobility(&self) -> u32 {
        Position::non_pawn_mobility(self, self.turn())
    }

    #[inline]
    fn evaluate(&mut self) -> i32 {
        self.evaluate()
    }

    fn eval_cache_counters(&self) -> [(u64, u64); 2] {
        let (hits, probes) = Position::eval_cache_counters(self);
        let (pawn_hits, pawn_probes) = self.pawn_table_counters();
        [(probes, hits), (pawn_probes, pawn_hits)]
    }

    #[inline]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    #[inline]
    fn gives_check(&mut self, m: Move) -> bool {
        Position::gives_check(self, m)
    }

    #[inline]
    fn draw(&self, search_root_ply: usize) -> Option<Draw> {
        if let Some(plies_back) = self.repetition_distance(search_root_ply) {
            return Some(Draw::Repetition { plies_back });
        }
        if self.is_fifty_move_draw() {
            // Mate on the hundredth half-move still counts.
            let mated = self.in_check() && self.chess().legal_moves().is_empty();
            return (!mated).then_some(Draw::MoveRule);
        }
        if self.is_insufficient_material() {
            return Some(Draw::Material);
        }
        None
    }

    #[inline]
    fn history_signature(&self, search_root_ply: usize, plies: usize) -> Option<u64> {
        Some(Position::history_signature(self, search_root_ply, plies))
    }

    #[inline]
    fn has_upcoming_repetition(&self, search_root_ply: usize) -> bool {
        Position::has_upcoming_repetition(self, search_root_ply)
    }

    #[inline]
    fn no_moves(&self) -> NoMoves {
        if self.in_check() {
            NoMoves::Loss
        } else {
            NoMoves::Draw
        }
    }

    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        m.is_capture()
    }

    #[inline]
    fn is_promotion(&self, m: Move) -> bool {
        m.is_promotion()
    }

    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        matches!(
            m,
            Move::Normal {
                capture: Some(_),
                ..
            } | Move::Normal {
                promotion: Some(_),
                ..
            } | Move::EnPassant { .. }
        )
    }

    #[inline]
    fn mvv_lva(&self, m: Move) -> i32 {
        see::mvv_lva(m)
    }

    #[inline]
    fn see(&self, m: Move) -> i32 {
        see::see(self, m)
    }

    #[inline]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        see::see_ge(self, m, threshold)
    }

    #[inline]
    fn captured_value(&self, m: Move) -> i32 {
        m.capture().map_or(0, see::see_value)
    }

    #[inline]
    fn is_recapture(&self, m: Move) -> bool {
        m.is_capture()
            && self
                .last_move()
                .is_some_and(|last| last.is_capture() && last.to() == m.to())
    }

    #[inline]
    fn is_advanced_pawn_push(&self, m: Move) -> bool {
        m.role() == Role::Pawn && m.to().rank() == self.turn().fold_wb(Rank::Seventh, Rank::Second)
    }

    #[inline]
    fn is_passed_pawn_push(&self, m: Move) -> bool {
        // A promotion lands on the eighth rank, so the rank test below excludes it.
        if m.role() != Role::Pawn || m.is_capture() {
            return false;
        }
        let us = self.turn();
        let rank = m.to().rank();
        if rank != us.fold_wb(Rank::Sixth, Rank::Third)
            && rank != us.fold_wb(Rank::Seventh, Rank::Second)
        {
            return false;
        }
        let board = self.chess().board();
        let their_pawns = board.pawns() & board.by_color(!us);
        let span = crate::eval::bits::PASSED_SPAN[us.fold_wb(0, 1)][usize::from(m.to())];
        their_pawns.0 & span == 0
    }

    #[inline]
    fn encode(m: Move) -> u16 {
        PackedMove::new(m).0
    }

    #[inline]
    fn decode(&self, packed: u16) -> Option<Move> {
        PackedMove(packed).to_legal_move(self)
    }

    #[inline]
    fn history_index(&self, m: Move) -> usize {
        piece_to_index(self.turn(), m.role(), m.to())
    }

    #[inline]
    fn butterfly_index(&self, m: Move) -> usize {
        // Castling is the king's move onto its rook (shakmaty's `to`); no drops in chess.
        let from = m.from().map_or(0, |s| s as usize);
        self.turn() as usize * 4096 + from * 64 + m.to() as usize
    }

    #[inline]
    fn correction_key(&self) -> u64 {
        let board = self.chess().board();
        let pawns = board.pawns();
        let key = crate::eval::pawn_key((pawns & board.white()).0, (pawns & board.black()).0);
        // The correction is from the side to move's view.
        match self.turn() {
            Color::White => key,
            Color::Black => key ^ 0x6a09_e667_f3bc_c909,
        }
    }

    #[inline]
    fn correction_keys_non_pawn(&self) -> [u64; 2] {
        let board = self.chess().board();
        let us = self.turn();
        [us, !us].map(|color| crate::eval::non_pawn_key(board, color))
    }

    #[inline]
    fn capture_history_index(&self, m: Move) -> usize {
        // A king is never captured: its slot holds quiet promotions.
        let captured = m.capture().map_or(5, |role| role as usize - 1);
        piece_to_index(self.turn(), m.role(), m.to()) * 6 + captured
    }

    #[inline]
    fn last_move_index(&self) -> Option<usize> {
        self.last_move()
            .map(|last| piece_to_index(!self.turn(), last.role(), last.to()))
    }

    /// Syzygy WDL right after a capture or pawn move (the clock is 0, so the table's
    /// fifty-move verdict is exact), when tables are loaded and cover the position.
    #[inline]
    fn table_outcome(&self) -> Option<TableOutcome> {
        let tablebases = self.tablebases()?;
        if self.halfmoves() != 0 {
            return None;
        }
        tablebases.probe_after_zeroing(self.chess())
    }
}
