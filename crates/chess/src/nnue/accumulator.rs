//! Accumulators in the ply stack, updated lazily.
//!
//! `play` only records which pieces the move added and removed ([`Dirty`]); the first
//! evaluation at or below that ply walks back to the nearest computed accumulator and
//! applies the recorded changes forward, so a node that is cut off before it evaluates
//! costs no update (as in Stockfish's lazy accumulator). A king move that changes its side's
//! [`king_flip`] moves every square of that side's perspective: that perspective is rebuilt
//! from the [`RefreshTable`] by the pieces that differ, the other one updated as usual. A
//! position set up from scratch is rebuilt from the table for both perspectives.
//! [`Accumulator::refresh`] sums from scratch (the reference the tests compare with).

use std::sync::Arc;

use shakmaty::{Board, CastlingSide, Chess, Color, Move, Piece, Position as _, Role, Square};

use super::network::{Inputs, Network};
use super::simd::{Row, Simd};
use super::{feature, king_flip};

/// Both perspectives' first-layer sums, White's first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    pub rows: [Row; 2],
}

#[inline(always)]
fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

const PERSPECTIVES: [Color; 2] = [Color::White, Color::Black];

impl Accumulator {
    /// The sums of `chess`'s pieces, from scratch.
    pub fn refresh(network: &Network, simd: Simd, chess: &Chess) -> Accumulator {
        let mut acc = Accumulator {
            rows: [network.ft_bias; 2],
        };
        let board = chess.board();
        let flips = PERSPECTIVES.map(|p| {
            board
                .king_of(p)
                .map_or(0, |king| king_flip(network.inputs(), king))
        });
        for square in board.occupied() {
            let Some(piece) = board.piece_at(square) else {
                continue;
            };
            for perspective in PERSPECTIVES {
                let flip = flips[side(perspective)];
                let f = feature(perspective, piece.color, piece.role, square, flip);
                simd.add(&mut acc.rows[side(perspective)], network.row(f));
            }
        }
        acc
    }
}

/// A piece on a square, as a move adds or removes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Placed {
    color: Color,
    role: Role,
    square: Square,
}

impl Placed {
    #[inline(always)]
    fn feature(self, perspective: Color, flip: usize) -> usize {
        feature(perspective, self.color, self.role, self.square, flip)
    }
}

/// What a move changed on the board: at most two pieces added (castling) and two removed
/// (castling, captures), and each perspective's square flip ([`king_flip`]) before the
/// move, which stays after it except for the perspective in `rebuild`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dirty {
    added: [Placed; 2],
    removed: [Placed; 2],
    adds: u8,
    removes: u8,
    flips: [u8; 2],
    /// The side whose king move changed its flip: its perspective is rebuilt, not updated.
    rebuild: Option<Color>,
}

const NOWHERE: Placed = Placed {
    color: Color::White,
    role: Role::Pawn,
    square: Square::A1,
};

impl Dirty {
    /// Nothing changed (a null move).
    pub const NONE: Dirty = Dirty {
        added: [NOWHERE; 2],
        removed: [NOWHERE; 2],
        adds: 0,
        removes: 0,
        flips: [0; 2],
        rebuild: None,
    };

    #[inline(always)]
    fn add(&mut self, color: Color, role: Role, square: Square) {
        self.added[usize::from(self.adds)] = Placed {
            color,
            role,
            square,
        };
        self.adds += 1;
    }

    #[inline(always)]
    fn remove(&mut self, color: Color, role: Role, square: Square) {
        self.removed[usize::from(self.removes)] = Placed {
            color,
            role,
            square,
        };
        self.removes += 1;
    }

    /// The pieces added, then the pieces removed, as (colour, role, square).
    #[inline(always)]
    pub(crate) fn changes(
        &self,
    ) -> (
        impl Iterator<Item = (Color, Role, Square)> + '_,
        impl Iterator<Item = (Color, Role, Square)> + '_,
    ) {
        let triple = |p: &Placed| (p.color, p.role, p.square);
        (
            self.added[..usize::from(self.adds)].iter().map(triple),
            self.removed[..usize::from(self.removes)].iter().map(triple),
        )
    }

    /// The changes of legal move `m` in `before`, for a network of `inputs`.
    #[inline]
    pub fn of_move(before: &Chess, m: Move, inputs: Inputs) -> Dirty {
        let us = before.turn();
        let mut dirty = Dirty::NONE;
        if inputs == Inputs::KingMirrored {
            let board = before.board();
            for perspective in PERSPECTIVES {
                let flip = board
                    .king_of(perspective)
                    .map_or(0, |k| king_flip(inputs, k));
                dirty.flips[side(perspective)] = flip as u8;
            }
            let king_to = match m {
                Move::Normal {
                    role: Role::King,
                    to,
                    ..
                } => Some(to),
                Move::Castle { king, rook } => {
                    Some(CastlingSide::from_king_side(king < rook).king_to(us))
                }
                _ => None,
            };
            if let Some(to) = king_to
                && king_flip(inputs, to) != usize::from(dirty.flips[side(us)])
            {
                dirty.rebuild = Some(us);
            }
        }
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                dirty.remove(us, role, from);
                dirty.add(us, promotion.unwrap_or(role), to);
                if let Some(captured) = capture {
                    dirty.remove(!us, captured, to);
                }
            }
            Move::EnPassant { from, to } => {
                dirty.remove(us, Role::Pawn, from);
                dirty.add(us, Role::Pawn, to);
                dirty.remove(!us, Role::Pawn, Square::from_coords(to.file(), from.rank()));
            }
            Move::Castle { king, rook } => {
                let castling = CastlingSide::from_king_side(king < rook);
                dirty.remove(us, Role::King, king);
                dirty.remove(us, Role::Rook, rook);
                dirty.add(us, Role::King, castling.king_to(us));
                dirty.add(us, Role::Rook, castling.rook_to(us));
            }
            Move::Put { .. } => {}
        }
        dirty
    }

    /// `dst = src` with these changes, for both perspectives but the one in `rebuild`.
    #[inline]
    fn apply(&self, network: &Network, simd: Simd, src: &Accumulator, dst: &mut Accumulator) {
        for perspective in PERSPECTIVES {
            if self.rebuild == Some(perspective) {
                continue;
            }
            let s = side(perspective);
            let flip = usize::from(self.flips[s]);
            let (from, to) = (&src.rows[s], &mut dst.rows[s]);
            let row = |p: Placed| network.row(p.feature(perspective, flip));
            match (self.adds, self.removes) {
                (0, 0) => *to = *from,
                (1, 1) => simd.add_sub(to, from, row(self.added[0]), row(self.removed[0])),
                (1, 2) => simd.add_sub_sub(
                    to,
                    from,
                    row(self.added[0]),
                    row(self.removed[0]),
                    row(self.removed[1]),
                ),
                (2, 2) => {
                    // Castling: king and rook.
                    simd.add_sub(to, from, row(self.added[0]), row(self.removed[0]));
                    simd.add_sub_in_place(to, row(self.added[1]), row(self.removed[1]));
                }
                _ => {
                    // Anything else is applied piece by piece.
                    *to = *from;
                    for p in &self.added[..usize::from(self.adds)] {
                        simd.add(to, row(*p));
                    }
                    for p in &self.removed[..usize::from(self.removes)] {
                        simd.sub(to, row(*p));
                    }
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The accumulator is up to date.
    Computed,
    /// The accumulator is the one below plus `dirty`.
    Dirty,
    /// As `Dirty` for the side not in `dirty.rebuild`; that side's perspective is rebuilt
    /// from this ply's board, so the update needs the position.
    Rebuild,
    /// Unknown: an evaluation here rebuilds both perspectives from the refresh table.
    Stale,
}

#[derive(Clone, Debug)]
struct Slot {
    acc: Accumulator,
    dirty: Dirty,
    state: State,
}

/// One perspective's accumulator row as last rebuilt for one square flip, and the board it
/// was rebuilt for.
#[derive(Clone, Debug)]
struct RefreshEntry {
    row: Row,
    board: Board,
}

/// The last row of each perspective and flip: a perspective is rebuilt from its entry by
/// adding the pieces the board gained since and removing those it lost, a few rows where a
/// sum from scratch adds thirty (the accumulator refresh table, or "Finny table", of
/// Koivisto and Stockfish; here two entries per perspective, as the inputs have two flips
/// and no king buckets).
#[derive(Clone, Debug)]
struct RefreshTable {
    /// `[perspective][flip is 7]`.
    entries: [[RefreshEntry; 2]; 2],
}

impl RefreshTable {
    fn new(network: &Network) -> RefreshTable {
        let empty = || RefreshEntry {
            row: network.ft_bias,
            board: Board::empty(),
        };
        RefreshTable {
            entries: [[empty(), empty()], [empty(), empty()]],
        }
    }

    /// Sets `row` to `perspective`'s sum of `board`'s pieces.
    #[inline]
    fn rebuild(
        &mut self,
        network: &Network,
        simd: Simd,
        perspective: Color,
        board: &Board,
        row: &mut Row,
    ) {
        let flip = board
            .king_of(perspective)
            .map_or(0, |king| king_flip(network.inputs(), king));
        let entry = &mut self.entries[side(perspective)][usize::from(flip != 0)];
        for color in PERSPECTIVES {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let (now, then) = (board.by_piece(piece), entry.board.by_piece(piece));
                for square in now & !then {
                    let f = feature(perspective, color, role, square, flip);
                    simd.add(&mut entry.row, network.row(f));
                }
                for square in then & !now {
                    let f = feature(perspective, color, role, square, flip);
                    simd.sub(&mut entry.row, network.row(f));
                }
            }
        }
        entry.board = board.clone();
        *row = entry.row;
    }
}

/// The network and one accumulator per ply of a position's stack.
#[derive(Clone, Debug)]
pub struct NnueStack {
    network: Arc<Network>,
    simd: Simd,
    slots: Vec<Slot>,
    refresh_table: Box<RefreshTable>,
    /// Accumulators rebuilt for both perspectives, updated from the ply below (one
    /// perspective rebuilt or not), and single perspectives rebuilt (tests and `bench`).
    refreshes: u64,
    updates: u64,
    rebuilds: u64,
}

impl NnueStack {
    /// A stack whose accumulators are all unknown (rebuilt at the first evaluation).
    pub fn new(network: Arc<Network>, simd: Simd) -> NnueStack {
        let refresh_table = Box::new(RefreshTable::new(&network));
        NnueStack {
            network,
            simd: simd.checked(),
            slots: Vec::new(),
            refresh_table,
            refreshes: 0,
            updates: 0,
            rebuilds: 0,
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    pub fn simd(&self) -> Simd {
        self.simd
    }

    #[inline]
    fn slot(&mut self, ply: usize) -> &mut Slot {
        while self.slots.len() <= ply {
            let stale = Slot {
                acc: Accumulator {
                    rows: [Row::ZERO; 2],
                },
                dirty: Dirty::NONE,
                state: State::Stale,
            };
            self.slots.push(stale);
        }
        &mut self.slots[ply]
    }

    /// Every accumulator becomes unknown (the stack was rebuilt).
    pub fn invalidate(&mut self) {
        for slot in &mut self.slots {
            slot.state = State::Stale;
        }
    }

    /// Records the changes of the move that leads to `ply`.
    #[inline]
    pub fn record(&mut self, ply: usize, dirty: Dirty) {
        let slot = self.slot(ply);
        slot.dirty = dirty;
        slot.state = if dirty.rebuild.is_some() {
            State::Rebuild
        } else {
            State::Dirty
        };
    }

    /// Records legal move `m`, played in `before`, that leads to `ply`.
    #[inline]
    pub fn record_move(&mut self, ply: usize, before: &Chess, m: Move) {
        let dirty = Dirty::of_move(before, m, self.network.inputs());
        self.record(ply, dirty);
    }

    /// The accumulator of `ply`, whose position is `chess`, brought up to date.
    #[inline]
    pub fn accumulator(&mut self, ply: usize, chess: &Chess) -> &Accumulator {
        self.slot(ply);
        // The nearest computed accumulator at or below `ply` that the chain of changes
        // reaches: a rebuild is possible only at `ply`, where the board is known.
        let mut base = ply;
        if ply > 0 && self.slots[ply].state == State::Rebuild {
            base -= 1;
        }
        while self.slots[base].state == State::Dirty && base > 0 {
            base -= 1;
        }
        if self.slots[base].state == State::Computed {
            for k in base + 1..=ply {
                self.update_slot(k, chess);
            }
        } else {
            let slot = &mut self.slots[ply];
            for perspective in PERSPECTIVES {
                self.refresh_table.rebuild(
                    &self.network,
                    self.simd,
                    perspective,
                    chess.board(),
                    &mut slot.acc.rows[side(perspective)],
                );
            }
            slot.state = State::Computed;
            self.refreshes += 1;
        }
        &self.slots[ply].acc
    }

    /// Updates the accumulator of `ply` (position `chess`) from the one below when that
    /// one is computed and this one only needs the update: the cheap case of
    /// [`Self::accumulator`], done eagerly.
    #[inline]
    pub fn update_from_below(&mut self, ply: usize, chess: &Chess) {
        if ply > 0
            && ply < self.slots.len()
            && matches!(self.slots[ply].state, State::Dirty | State::Rebuild)
            && self.slots[ply - 1].state == State::Computed
        {
            self.update_slot(ply, chess);
        }
    }

    /// Accumulator `k` becomes the one below plus its recorded changes; the perspective of
    /// a king move that changed its flip is rebuilt from `chess`, which is only read then
    /// (it is the position of `k` whenever `k` is in state `Rebuild`).
    #[inline]
    fn update_slot(&mut self, k: usize, chess: &Chess) {
        let (below, above) = self.slots.split_at_mut(k);
        let (src, dst) = (&below[k - 1], &mut above[0]);
        dst.dirty
            .apply(&self.network, self.simd, &src.acc, &mut dst.acc);
        if let Some(perspective) = dst.dirty.rebuild {
            self.refresh_table.rebuild(
                &self.network,
                self.simd,
                perspective,
                chess.board(),
                &mut dst.acc.rows[side(perspective)],
            );
            self.rebuilds += 1;
        }
        dst.state = State::Computed;
        self.updates += 1;
    }

    /// The evaluation of `chess` (at `ply`) in centipawns, for the side to move.
    #[inline]
    pub fn evaluate(&mut self, ply: usize, chess: &Chess) -> i32 {
        let us = side(chess.turn());
        let pieces = chess.board().occupied().count() as u32;
        self.accumulator(ply, chess);
        let acc = &self.slots[ply].acc;
        self.network
            .output(self.simd, &acc.rows[us], &acc.rows[1 - us], pieces)
    }

    /// (accumulators rebuilt for both perspectives, accumulators updated from the ply
    /// below).
    pub fn counters(&self) -> (u64, u64) {
        (self.refreshes, self.updates)
    }

    /// Single perspectives rebuilt after a king move changed their flip (each also counted
    /// as an update in [`Self::counters`]).
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds
    }
}
