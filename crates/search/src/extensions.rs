//! Depth extensions: check, single reply, recapture, pawn to the seventh. At most one ply
//! per move, and none beyond `extension_ply_factor` times the iteration depth, so the
//! search always terminates.

use crate::game::Game;
use crate::searcher::Searcher;

impl<G: Game> Searcher<G> {
    /// Whether a checking move earns the check extension: always, or with `ExtendCheckSEE`
    /// only when it does not lose material on its square (a check that hangs the piece is
    /// seldom worth a deeper look: the extension of Stockfish's older versions). Asked before
    /// the move is made; checks left unextended are counted.
    #[inline]
    pub(crate) fn check_extends(&mut self, game: &G, m: G::Move, gives_check: bool) -> bool {
        if !gives_check || !self.config.extend_check {
            return false;
        }
        if !self.config.extend_check_see || game.see_ge(m, 0) {
            return true;
        }
        self.stats.ext_check_losing += 1;
        false
    }

    /// The extension of a move just played at `ply` (0 or 1), counted by kind.
    #[inline]
    pub(crate) fn extension(
        &mut self,
        check_extends: bool,
        single_reply: bool,
        recapture: bool,
        pawn_seventh: bool,
        ply: usize,
    ) -> i32 {
        let limit = self.root_depth.max(1) as usize * usize::from(self.config.extension_ply_factor);
        if ply >= limit {
            return 0;
        }
        if check_extends {
            self.stats.ext_check += 1;
            1
        } else if single_reply {
            self.stats.ext_single_reply += 1;
            1
        } else if recapture {
            self.stats.ext_recapture += 1;
            1
        } else if pawn_seventh {
            self.stats.ext_pawn_seventh += 1;
            1
        } else {
            0
        }
    }
}
