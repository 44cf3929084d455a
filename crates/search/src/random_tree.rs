//! Artificial game trees for testing the search: deterministic, seeded, with transpositions
//! and with move-ordering hints that correlate with the values.
//!
//! A move is a token ([`TreeMove`]). A state is the multiset of (token, player) pairs played
//! so far, the side to move and the number of null moves; its key is the XOR of per-feature
//! Zobrist values computed by hashing (no tables), so any `u16` token works. Everything at a
//! node (its move list, its static value, its SEE values) is a hash of that key, hence
//! identical wherever the state is reached. Each token has an intrinsic gain; a state's
//! material is the sum of the gains of White's tokens minus those of Black's, so good tokens
//! are good everywhere and killers, history and MVV-LVA have something to learn.
//!
//! Every ply (a move or a null move) adds exactly one feature to the state, so a state is
//! reachable at one ply only: transpositions always meet at equal remaining depth.
//!
//! [`negamax`] and [`count_nodes`] are the plain reference algorithms the search is checked
//! against; they work on any [`Game`].

use crate::game::{Draw, Game, NoMoves};
use crate::score;

/// The most moves a node can have (the capacity of [`TreeMoves`]).
pub const MAX_BRANCHING: usize = 64;
/// The largest pool accepted (the unique tokens need room above it in `u16`).
pub const MAX_POOL: usize = 32_768;

/// The shape of a random tree.
#[derive(Clone, Debug)]
pub struct TreeConfig {
    /// Everything is a hash of this and the state.
    pub seed: u64,
    /// Move slots per node (1..=64). Nodes have exactly this many moves unless the slots
    /// drawing from the pool exhaust it.
    pub branching: usize,
    /// Plies from the root to the leaves (nodes at this ply have no moves).
    pub depth: usize,
    /// Size of the shared token pool `1..=pool`.
    pub pool: usize,
    /// Probability that a move slot holds a pool token (the source of transpositions and of
    /// moves recurring across nodes).
    pub transposition_rate: f64,
    /// Fraction of tokens that are tactical (captures with a large gain).
    pub tactical_rate: f64,
}

/// A chess-like shape: 6 moves a node, 8 plies (1.7 million leaves), a quarter of the tokens
/// tactical. A transposition needs each of its moves listed at every node along both paths,
/// so the pool is small and pool slots common: with pool 12 and rate 0.5 only 0.3% of the
/// nodes at depth 6 were transpositions, with these 19% (6% at depth 4).
impl Default for TreeConfig {
    fn default() -> Self {
        TreeConfig {
            seed: 1,
            branching: 6,
            depth: 8,
            pool: 8,
            transposition_rate: 0.8,
            tactical_rate: 0.25,
        }
    }
}

/// A move of a random tree: a token, never 0. The same token at different nodes is the same
/// move (same gain, same history slot).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TreeMove(pub u16);

/// A fixed-capacity move list ([`MAX_BRANCHING`] moves, no heap).
#[derive(Copy, Clone, Debug)]
pub struct TreeMoves {
    moves: [TreeMove; MAX_BRANCHING],
    len: usize,
}

impl Default for TreeMoves {
    fn default() -> Self {
        TreeMoves {
            moves: [TreeMove(0); MAX_BRANCHING],
            len: 0,
        }
    }
}

impl TreeMoves {
    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a move; panics when full.
    #[inline]
    pub fn push(&mut self, m: TreeMove) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn contains(&self, token: u16) -> bool {
        self.as_ref().iter().any(|m| m.0 == token)
    }
}

impl AsRef<[TreeMove]> for TreeMoves {
    #[inline]
    fn as_ref(&self) -> &[TreeMove] {
        &self.moves[..self.len]
    }
}

impl AsMut<[TreeMove]> for TreeMoves {
    #[inline]
    fn as_mut(&mut self) -> &mut [TreeMove] {
        &mut self.moves[..self.len]
    }
}

impl Extend<TreeMove> for TreeMoves {
    /// Appends; panics beyond [`MAX_BRANCHING`] moves, which no node has.
    fn extend<I: IntoIterator<Item = TreeMove>>(&mut self, moves: I) {
        for m in moves {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
}

/// The splitmix64 finaliser: a bijection on `u64` with good avalanche.
#[inline]
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// Hashes `value` in the domain `salt`. Injective in `value` for a fixed salt (an odd
/// multiplier, an addition and a bijection), so distinct features never share a Zobrist value.
#[inline]
const fn hash(salt: u64, value: u64) -> u64 {
    mix(salt.wrapping_add(value.wrapping_mul(GOLDEN)))
}

/// A hash as a uniform number in `[0, 1)`.
#[inline]
fn unit(h: u64) -> f64 {
    (h >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Per-seed salts, one per use of the hash, so the uses are independent.
#[derive(Clone, Debug)]
struct Salts {
    zobrist: u64,
    zobrist2: u64,
    side: u64,
    side2: u64,
    null: u64,
    null2: u64,
    slot: u64,
    token: u64,
    noise: u64,
    risk: u64,
    thin: u64,
}

impl Salts {
    fn new(seed: u64) -> Self {
        let s = |tag: u64| mix(seed ^ mix(tag.wrapping_mul(GOLDEN)));
        Salts {
            zobrist: s(1),
            zobrist2: s(2),
            side: s(3),
            side2: s(4),
            null: s(5),
            null2: s(6),
            slot: s(7),
            token: s(8),
            noise: s(9),
            risk: s(10),
            thin: s(11),
        }
    }
}

/// One ply of the path: the state reached and how.
#[derive(Copy, Clone, Debug, Default)]
struct Frame {
    key: u64,
    key2: u64,
    /// Sum of the gains from White's point of view.
    material: i32,
    nulls: u32,
    black_to_move: bool,
    /// The token played to reach this state; 0 at the root and after a null move.
    last: u16,
}

/// A random game tree (see the module documentation).
#[derive(Clone, Debug)]
pub struct RandomTree {
    config: TreeConfig,
    salts: Salts,
    /// `frames[0..=ply]` is the path; preallocated to `depth + 1`, since no ply goes further.
    frames: Vec<Frame>,
    ply: usize,
}

impl RandomTree {
    /// Side-to-move material plus a noise term in -10..=10 from the key, so transpositions
    /// agree and equal material still gives distinct leaves.
    fn static_value(&self) -> i32 {
        let f = self.frame();
        let noise = (hash(self.salts.noise, f.key) % 21) as i32 - 10;
        let material = if f.black_to_move {
            -f.material
        } else {
            f.material
        };
        material + noise
    }

    /// Builds the tree's root. Panics on a configuration out of range.
    pub fn new(config: TreeConfig) -> Self {
        assert!(
            (1..=MAX_BRANCHING).contains(&config.branching),
            "branching must be in 1..={MAX_BRANCHING}"
        );
        assert!(config.pool <= MAX_POOL, "pool must be at most {MAX_POOL}");
        assert!(
            config.depth <= score::MAX_PLY,
            "depth must be at most {}",
            score::MAX_PLY
        );
        assert!((0.0..=1.0).contains(&config.transposition_rate));
        assert!((0.0..=1.0).contains(&config.tactical_rate));
        let salts = Salts::new(config.seed);
        let root = Frame {
            key: mix(salts.zobrist ^ GOLDEN),
            key2: mix(salts.zobrist2 ^ GOLDEN),
            ..Frame::default()
        };
        let mut frames = vec![Frame::default(); config.depth + 1];
        frames[0] = root;
        RandomTree {
            config,
            salts,
            frames,
            ply: 0,
        }
    }

    /// The configuration the tree was built from.
    pub fn config(&self) -> &TreeConfig {
        &self.config
    }

    #[inline]
    fn frame(&self) -> &Frame {
        &self.frames[self.ply]
    }

    /// Whether a token is tactical (a capture with a large gain). A property of the token.
    #[inline]
    pub fn is_tactical(&self, m: TreeMove) -> bool {
        unit(hash(self.salts.token, m.0 as u64)) < self.config.tactical_rate
    }

    /// The token's intrinsic gain for the side playing it: 100..=300 for tactical tokens,
    /// -100..=100 otherwise.
    #[inline]
    pub fn gain(&self, m: TreeMove) -> i32 {
        // The low bits: `is_tactical` is decided by the high ones, so the two are independent.
        let h = hash(self.salts.token, m.0 as u64) as u32;
        if self.is_tactical(m) {
            100 + (h % 201) as i32
        } else {
            (h % 201) as i32 - 100
        }
    }

    /// The material from White's point of view (sum of the signed gains on the path).
    #[inline]
    pub fn material(&self) -> i32 {
        self.frame().material
    }

    /// How many times `player` (true: Black) has played `token` on the path.
    fn occurrences(&self, token: u16, black: bool) -> u64 {
        // Frame i was reached by the side to move at frame i - 1. The path is at most
        // `depth` long, so a scan is cheaper than maintaining counts for every token.
        (1..=self.ply)
            .filter(|&i| self.frames[i].last == token && self.frames[i - 1].black_to_move == black)
            .count() as u64
    }

    /// The Zobrist feature of the `occurrence`-th (from 0) `token` played by `black`.
    #[inline]
    fn feature(token: u16, black: bool, occurrence: u64) -> u64 {
        token as u64 | (black as u64) << 16 | occurrence << 17
    }

    /// The null-move feature: its Zobrist value XORed out and in as the count changes, 0 for
    /// no null move so the count is part of the key (a null adds a ply, like a move).
    #[inline]
    fn null_zobrist(salt: u64, nulls: u32) -> u64 {
        if nulls == 0 {
            0
        } else {
            hash(salt, nulls as u64)
        }
    }

    /// The move list of the current state, in slot order (uncorrelated with value).
    fn moves_into(&self, out: &mut TreeMoves) {
        out.clear();
        if self.ply >= self.config.depth {
            return;
        }
        let key = self.frame().key;
        let pool = self.config.pool as u64;
        let unique_span = u16::MAX as u64 - pool; // tokens pool + 1 ..= u16::MAX
        for slot in 0..self.config.branching as u64 {
            let h = mix(key ^ hash(self.salts.slot, slot));
            if pool > 0 && unit(h) < self.config.transposition_rate {
                // Probe the pool linearly past tokens already listed, so the node keeps its
                // full branching while the pool lasts; skip the slot once it is exhausted.
                let start = (h >> 32) % pool;
                if let Some(t) = (0..pool)
                    .map(|i| (start + i) % pool + 1)
                    .find(|&t| !out.contains(t as u16))
                {
                    out.push(TreeMove(t as u16));
                }
            } else {
                // Rehash on a (rare) duplicate; terminates since 64 tokens cannot fill the span.
                let mut g = h;
                loop {
                    let t = (pool + 1 + (g >> 16) % unique_span) as u16;
                    if !out.contains(t) {
                        out.push(TreeMove(t));
                        break;
                    }
                    g = mix(g ^ GOLDEN);
                }
            }
        }
    }
}

impl Game for RandomTree {
    type Move = TreeMove;
    type Moves = TreeMoves;
    const HISTORY_SIZE: usize = 65536;

    #[inline]
    fn key(&self) -> u64 {
        self.frame().key
    }

    #[inline]
    fn key_extension(&self) -> u64 {
        self.frame().key2
    }

    /// The extension is always maintained (it is cheap), so this is a no-op.
    fn set_wide_keys(&mut self, _on: bool) {}

    #[inline]
    fn ply(&self) -> usize {
        self.ply
    }

    #[inline]
    fn reversible_plies(&self) -> u32 {
        0
    }

    fn generate(&self, out: &mut TreeMoves) {
        self.moves_into(out);
    }

    fn generate_tactical(&self, out: &mut TreeMoves) {
        self.moves_into(out);
        let mut kept = 0;
        for i in 0..out.len {
            let m = out.moves[i];
            if self.is_tactical(m) {
                out.moves[kept] = m;
                kept += 1;
            }
        }
        out.len = kept;
    }

    fn generate_quiet(&self, out: &mut TreeMoves) {
        self.moves_into(out);
        let mut kept = 0;
        for i in 0..out.len {
            let m = out.moves[i];
            if !self.is_tactical(m) {
                out.moves[kept] = m;
                kept += 1;
            }
        }
        out.len = kept;
    }

    fn play(&mut self, m: TreeMove) {
        debug_assert!(
            self.decode(m.0).is_some(),
            "illegal move {m:?} at ply {}",
            self.ply
        );
        let s = &self.salts;
        let from = *self.frame();
        let black = from.black_to_move;
        let feature = Self::feature(m.0, black, self.occurrences(m.0, black));
        let gain = if black { -self.gain(m) } else { self.gain(m) };
        self.ply += 1;
        self.frames[self.ply] = Frame {
            key: from.key ^ hash(s.zobrist, feature) ^ s.side,
            key2: from.key2 ^ hash(s.zobrist2, feature) ^ s.side2,
            material: from.material + gain,
            nulls: from.nulls,
            black_to_move: !black,
            last: m.0,
        };
    }

    #[inline]
    fn undo(&mut self) {
        debug_assert!(
            self.ply > 0 && self.frame().last != 0,
            "undo without a move"
        );
        self.ply -= 1;
    }

    /// Allowed except at the leaves (which have no moves either), so the path never outgrows
    /// the preallocated `depth + 1` frames.
    #[inline]
    fn null_move_allowed(&self) -> bool {
        self.ply < self.config.depth
    }

    fn play_null(&mut self) {
        assert!(self.null_move_allowed(), "null move at a leaf");
        let s = &self.salts;
        let from = *self.frame();
        let n = from.nulls;
        let null = Self::null_zobrist(s.null, n) ^ Self::null_zobrist(s.null, n + 1);
        let null2 = Self::null_zobrist(s.null2, n) ^ Self::null_zobrist(s.null2, n + 1);
        self.ply += 1;
        self.frames[self.ply] = Frame {
            key: from.key ^ null ^ s.side,
            key2: from.key2 ^ null2 ^ s.side2,
            material: from.material,
            nulls: n + 1,
            black_to_move: !from.black_to_move,
            last: 0,
        };
    }

    #[inline]
    fn undo_null(&mut self) {
        debug_assert!(
            self.ply > 0 && self.frame().last == 0,
            "undo_null without a null move"
        );
        self.ply -= 1;
    }

    /// 1 to 4, by the state's key, so that the piece-count rules of the null move are
    /// exercised.
    fn non_pawn_pieces(&self) -> u32 {
        1 + (hash(self.salts.thin, self.frame().key) % 4) as u32
    }

    /// 0 up to `non_pawn_pieces`, by another hash of the key, so that walled-in pieces
    /// (`null_mobile_pieces`) occur, all of them included.
    fn mobile_non_pawn_pieces(&self) -> u32 {
        let pieces = self.non_pawn_pieces();
        (hash(self.salts.thin ^ GOLDEN, self.frame().key) % u64::from(pieces + 1)) as u32
    }

    /// 0 to 3 moves per mobile piece, by a third hash of the key, so that low mobility
    /// (`null_min_mobility`) occurs.
    fn non_pawn_mobility(&self) -> u32 {
        let mobile = u64::from(self.mobile_non_pawn_pieces());
        (hash(self.salts.thin ^ GOLDEN.rotate_left(17), self.frame().key) % (3 * mobile + 1)) as u32
    }

    fn evaluate(&mut self) -> i32 {
        self.static_value()
    }

    #[inline]
    fn in_check(&self) -> bool {
        false
    }

    #[inline]
    fn draw(&self, _search_root_ply: usize) -> Option<Draw> {
        None
    }

    fn no_moves(&self) -> NoMoves {
        NoMoves::Value(self.static_value())
    }

    #[inline]
    fn is_capture(&self, m: TreeMove) -> bool {
        self.is_tactical(m)
    }

    #[inline]
    fn is_promotion(&self, _m: TreeMove) -> bool {
        false
    }

    #[inline]
    fn mvv_lva(&self, m: TreeMove) -> i32 {
        if self.is_tactical(m) { self.gain(m) } else { 0 }
    }

    /// The gain minus a node-dependent risk in 0..=150: informative, not exact (some
    /// captures look losing, some quiet moves look worse than they are).
    fn see(&self, m: TreeMove) -> i32 {
        let risk = (hash(self.salts.risk, self.frame().key ^ m.0 as u64) % 151) as i32;
        self.gain(m) - risk
    }

    #[inline]
    fn captured_value(&self, m: TreeMove) -> i32 {
        self.mvv_lva(m)
    }

    #[inline]
    fn is_recapture(&self, _m: TreeMove) -> bool {
        false
    }

    #[inline]
    fn is_advanced_pawn_push(&self, _m: TreeMove) -> bool {
        false
    }

    #[inline]
    fn encode(m: TreeMove) -> u16 {
        m.0
    }

    fn decode(&self, packed: u16) -> Option<TreeMove> {
        if packed == 0 {
            return None;
        }
        let mut moves = TreeMoves::default();
        self.moves_into(&mut moves);
        moves.contains(packed).then_some(TreeMove(packed))
    }

    #[inline]
    fn history_index(&self, m: TreeMove) -> usize {
        m.0 as usize
    }

    #[inline]
    fn last_move_index(&self) -> Option<usize> {
        match self.frame().last {
            0 => None,
            t => Some(t as usize),
        }
    }
}

/// Plain full-width negamax to `depth`, the reference value the search must reproduce.
///
/// Below the starting node, a draw by rule (`draw` with the starting ply as the search root)
/// scores 0; the starting node itself is searched regardless, as the search does at its root.
/// Depth 0 scores `evaluate()`; a node without legal moves scores per `no_moves()`, a loss as
/// mated at the distance from the starting node.
pub fn negamax<G: Game>(game: &mut G, depth: u32) -> i32 {
    fn visit<G: Game>(game: &mut G, depth: u32, root_ply: usize) -> i32 {
        if game.ply() > root_ply && game.draw(root_ply).is_some() {
            return score::DRAW;
        }
        if depth == 0 {
            return game.evaluate();
        }
        let mut moves = G::Moves::default();
        game.generate(&mut moves);
        if moves.as_ref().is_empty() {
            return match game.no_moves() {
                NoMoves::Loss => score::mated_in(game.ply() - root_ply),
                NoMoves::Draw => score::DRAW,
                NoMoves::Value(v) => v,
            };
        }
        let mut best = -score::INFINITY;
        for &m in moves.as_ref() {
            game.play(m);
            best = best.max(-visit(game, depth - 1, root_ply));
            game.undo();
        }
        best
    }
    let root_ply = game.ply();
    visit(game, depth, root_ply)
}

/// The number of nodes (the starting node included) of the full tree to `depth`, with the
/// same leaves as [`negamax`]: depth 0, no legal moves, or a draw below the starting node.
pub fn count_nodes<G: Game>(game: &mut G, depth: u32) -> u64 {
    fn visit<G: Game>(game: &mut G, depth: u32, root_ply: usize) -> u64 {
        if depth == 0 || (game.ply() > root_ply && game.draw(root_ply).is_some()) {
            return 1;
        }
        let mut moves = G::Moves::default();
        game.generate(&mut moves);
        let mut nodes = 1;
        for &m in moves.as_ref() {
            game.play(m);
            nodes += visit(game, depth - 1, root_ply);
            game.undo();
        }
        nodes
    }
    let root_ply = game.ply();
    visit(game, depth, root_ply)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::collections::{HashMap, HashSet};

    fn tree(seed: u64) -> RandomTree {
        RandomTree::new(TreeConfig {
            seed,
            ..TreeConfig::default()
        })
    }

    fn moves_of(t: &RandomTree) -> Vec<TreeMove> {
        let mut moves = TreeMoves::default();
        t.generate(&mut moves);
        moves.as_ref().to_vec()
    }

    /// Everything observable about a node, to compare nodes with.
    #[derive(Debug, PartialEq)]
    struct Snapshot {
        key: u64,
        key2: u64,
        ply: usize,
        eval: i32,
        moves: Vec<TreeMove>,
        tactical: Vec<TreeMove>,
        last: Option<usize>,
    }

    fn snapshot(t: &RandomTree) -> Snapshot {
        let mut tactical = TreeMoves::default();
        t.generate_tactical(&mut tactical);
        Snapshot {
            key: t.key(),
            key2: t.key_extension(),
            ply: t.ply(),
            eval: t.static_value(),
            moves: moves_of(t),
            tactical: tactical.as_ref().to_vec(),
            last: t.last_move_index(),
        }
    }

    /// Visits every node to `depth`, optionally trying a null move as an extra child.
    fn walk(t: &mut RandomTree, depth: u32, nulls: bool, visit: &mut impl FnMut(&RandomTree)) {
        visit(t);
        if depth == 0 {
            return;
        }
        for m in moves_of(t) {
            t.play(m);
            walk(t, depth - 1, nulls, visit);
            t.undo();
        }
        if nulls && t.null_move_allowed() {
            t.play_null();
            walk(t, depth - 1, nulls, visit);
            t.undo_null();
        }
    }

    /// (distinct keys, nodes) of the full walk to `depth`.
    fn distinct_keys(config: TreeConfig, depth: u32) -> (usize, usize) {
        let mut t = RandomTree::new(config);
        let mut keys = HashSet::new();
        let mut nodes = 0;
        walk(&mut t, depth, false, &mut |t| {
            keys.insert(t.key());
            nodes += 1;
        });
        assert_eq!(nodes as u64, count_nodes(&mut t, depth));
        (keys.len(), nodes)
    }

    #[test]
    fn same_seed_same_tree_different_seed_different_tree() {
        let (mut a, mut b, mut c) = (tree(7), tree(7), tree(8));
        assert_ne!(moves_of(&a), moves_of(&c));
        assert_ne!(a.key(), c.key());
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..50 {
            while !moves_of(&a).is_empty() {
                assert_eq!(snapshot(&a), snapshot(&b));
                let moves = moves_of(&a);
                let m = moves[rng.random_range(0..moves.len())];
                a.play(m);
                b.play(m);
            }
            assert_eq!(snapshot(&a), snapshot(&b));
            while a.ply() > 0 {
                a.undo();
                b.undo();
            }
        }
        // The seed changes the whole tree, not just the root: follow the same slot choices.
        let mut differ = 0;
        for i in 0..8 {
            differ += (moves_of(&a) != moves_of(&c)) as u32;
            assert_ne!((a.key(), a.key_extension()), (c.key(), c.key_extension()));
            a.play(moves_of(&a)[i % 6]);
            c.play(moves_of(&c)[i % 6]);
        }
        assert!(differ >= 7, "{differ}");
    }

    #[test]
    fn play_and_undo_restore_the_node_exactly() {
        let mut rng = StdRng::seed_from_u64(2);
        for seed in 0..20 {
            let config = TreeConfig {
                seed,
                depth: 10,
                transposition_rate: rng.random_range(0.0..=1.0),
                pool: rng.random_range(0..20),
                branching: rng.random_range(1..=10),
                ..TreeConfig::default()
            };
            let mut t = RandomTree::new(config);
            for _ in 0..20 {
                let mut path = vec![snapshot(&t)];
                let mut nulls = vec![];
                loop {
                    let moves = moves_of(&t);
                    if t.null_move_allowed() && rng.random_bool(0.2) {
                        t.play_null();
                        nulls.push(true);
                    } else if let Some(&m) = moves.get(rng.random_range(0..moves.len().max(1))) {
                        t.play(m);
                        nulls.push(false);
                    } else {
                        break;
                    }
                    path.push(snapshot(&t));
                }
                assert_eq!(t.ply(), 10);
                while let Some(null) = nulls.pop() {
                    assert_eq!(&snapshot(&t), path.last().unwrap());
                    path.pop();
                    if null { t.undo_null() } else { t.undo() }
                }
                assert_eq!(snapshot(&t), path[0]);
            }
        }
    }

    #[test]
    fn pool_tokens_played_in_either_order_transpose() {
        // Every node lists the whole pool.
        let config = TreeConfig {
            branching: 4,
            pool: 4,
            transposition_rate: 1.0,
            ..TreeConfig::default()
        };
        let mut t = RandomTree::new(config);
        let mut root: Vec<_> = moves_of(&t).iter().map(|m| m.0).collect();
        root.sort();
        assert_eq!(root, [1, 2, 3, 4]);
        let reach = |t: &mut RandomTree, line: [u16; 3]| {
            for token in line {
                t.play(t.decode(token).expect("pool token listed"));
            }
            let s = snapshot(t);
            for _ in line {
                t.undo();
            }
            s
        };
        let (a, b) = (reach(&mut t, [1, 3, 2]), reach(&mut t, [2, 3, 1]));
        assert_eq!(
            (a.key, a.key2, a.eval, &a.moves),
            (b.key, b.key2, b.eval, &b.moves)
        );
        assert_ne!(a.last, b.last);
        // Same tokens, other players: another state.
        assert_ne!(reach(&mut t, [1, 2, 3]).key, a.key);
        // A token played twice by one side does not cancel out.
        assert_ne!(reach(&mut t, [1, 2, 1]).key, reach(&mut t, [3, 2, 3]).key);
    }

    #[test]
    fn transpositions_exist_only_with_pool_tokens() {
        for seed in 0..5 {
            let config = |rate| TreeConfig {
                seed,
                transposition_rate: rate,
                ..Default::default()
            };
            let (distinct, nodes) = distinct_keys(config(0.8), 4);
            assert!(distinct < nodes, "{distinct} distinct of {nodes}");
            let (distinct, nodes) = distinct_keys(config(0.0), 4);
            assert_eq!(distinct, nodes);
            assert_eq!(nodes, 1 + 6 + 36 + 216 + 1296);
        }
    }

    #[test]
    fn report_default_transposition_counts() {
        for depth in [4, 6] {
            let (distinct, nodes) = distinct_keys(TreeConfig::default(), depth);
            println!("default config, depth {depth}: {distinct} distinct keys of {nodes} nodes");
            assert!(distinct < nodes);
        }
    }

    #[test]
    fn a_state_is_reachable_at_one_ply_only() {
        for (rate, pool) in [(0.5, 12), (1.0, 3), (0.8, 6)] {
            let config = TreeConfig {
                branching: 5,
                pool,
                transposition_rate: rate,
                seed: 3,
                depth: 6,
                ..Default::default()
            };
            let mut t = RandomTree::new(config);
            let mut seen: HashMap<u64, (usize, Snapshot)> = HashMap::new();
            let mut transpositions = 0;
            walk(&mut t, 5, true, &mut |t| {
                let s = snapshot(t);
                match seen.get(&t.key()) {
                    Some((ply, first)) => {
                        assert_eq!(*ply, t.ply());
                        // A transposition is the same node in every respect but how it was reached.
                        assert_eq!(
                            (first.key2, first.eval, &first.moves),
                            (s.key2, s.eval, &s.moves)
                        );
                        transpositions += 1;
                    }
                    None => {
                        seen.insert(t.key(), (t.ply(), s));
                    }
                }
            });
            assert!(transpositions > 0);
        }
    }

    #[test]
    fn decode_accepts_exactly_the_current_moves() {
        let mut t = tree(4);
        let mut rng = StdRng::seed_from_u64(4);
        for _ in 0..t.config().depth + 1 {
            let moves = moves_of(&t);
            for packed in 0..=u16::MAX {
                let legal = moves.contains(&TreeMove(packed));
                assert_eq!(t.decode(packed), legal.then_some(TreeMove(packed)));
            }
            for &m in &moves {
                assert_eq!(t.decode(RandomTree::encode(m)), Some(m));
                assert!(t.history_index(m) < RandomTree::HISTORY_SIZE);
            }
            match moves.get(rng.random_range(0..moves.len().max(1))) {
                Some(&m) => t.play(m),
                None => assert_eq!(t.ply(), t.config().depth),
            }
        }
    }

    #[test]
    fn move_lists_are_well_formed_and_hints_match_the_values() {
        let mut t = tree(5);
        let mut tactical_seen = 0;
        walk(&mut t, 3, false, &mut |t| {
            let moves = moves_of(t);
            let set: HashSet<_> = moves.iter().collect();
            assert_eq!(set.len(), moves.len(), "duplicate token");
            assert_eq!(moves.len(), 6);
            let mut tactical = TreeMoves::default();
            t.generate_tactical(&mut tactical);
            let expected: Vec<_> = moves.iter().copied().filter(|&m| t.is_capture(m)).collect();
            assert_eq!(tactical.as_ref(), &expected[..]);
            for &m in &moves {
                assert_ne!(m.0, 0);
                let gain = t.gain(m);
                if t.is_capture(m) {
                    tactical_seen += 1;
                    assert!((100..=300).contains(&gain));
                    assert_eq!((t.mvv_lva(m), t.captured_value(m)), (gain, gain));
                } else {
                    assert!((-100..=100).contains(&gain));
                    assert_eq!((t.mvv_lva(m), t.captured_value(m)), (0, 0));
                }
                assert!((gain - 150..=gain).contains(&t.see(m)));
                // The move's gain is what the mover's evaluation changes by, up to the noise.
                let mut child = t.clone();
                child.play(m);
                assert!((-child.evaluate() - (t.static_value() + gain)).abs() <= 20);
                assert_eq!(child.last_move_index(), Some(m.0 as usize));
            }
        });
        assert!(tactical_seen > 0);
        assert_eq!(t.last_move_index(), None);
        t.play_null();
        assert_eq!(t.last_move_index(), None);
    }

    #[test]
    fn negamax_on_a_hand_checked_tree() {
        let mut t = RandomTree::new(TreeConfig {
            branching: 2,
            depth: 2,
            seed: 6,
            ..Default::default()
        });
        let root = moves_of(&t);
        assert_eq!(root.len(), 2);
        // Leaf values are from White's point of view (White moves at ply 2); the node after
        // each root move is Black's, who minimises them; White maximises over those.
        let mut black_values = vec![];
        for &a in &root {
            t.play(a);
            let replies = moves_of(&t);
            assert_eq!(replies.len(), 2);
            let mut leaves = vec![];
            for &b in &replies {
                t.play(b);
                assert!(moves_of(&t).is_empty());
                assert_eq!(t.no_moves(), NoMoves::Value(t.evaluate()));
                leaves.push(t.evaluate());
                t.undo();
            }
            black_values.push(leaves[0].min(leaves[1]));
            // From Black's side: the best reply's negated leaf value.
            assert_eq!(negamax(&mut t, 1), -leaves[0].min(leaves[1]));
            t.undo();
        }
        let expected = black_values[0].max(black_values[1]);
        assert_eq!(negamax(&mut t, 2), expected);
        // Deeper than the tree: the leaves have no moves and score their evaluation.
        assert_eq!(negamax(&mut t, 5), expected);
        assert_eq!(negamax(&mut t, 0), t.evaluate());
        assert_eq!(count_nodes(&mut t, 2), 7);
        assert_eq!(count_nodes(&mut t, 9), 7);
        assert_eq!(t.ply(), 0);
    }
}
