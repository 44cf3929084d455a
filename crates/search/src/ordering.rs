//! Move ordering: a staged move picker. The table move is tried before any move is
//! generated; the rest are scored once each, as they are generated, and picked best-first
//! by selection, so nothing is sorted beyond the move that produces a cutoff.
//!
//! Order (each part switchable): table move, the refutation-table (previous PV) move,
//! winning and equal captures and promotions (knowledge heuristic: SEE, MVV-LVA), killers,
//! countermove, quiet moves by history score, losing captures.
//!
//! With `staged_generation` the captures and promotions are generated first and the quiet
//! moves are generated (and appended) only once no winning capture is left to try, or at
//! once where a refutation move is expected, since it may be quiet.

use arrayvec::ArrayVec;

use crate::config::SearchConfig;
use crate::continuation::{ContinuationHistory, ContinuationKeys};
use crate::game::Game;
use crate::history::{History, main_history_index};

const REFUTATION: i32 = 2_100_000;
const GOOD_TACTICAL: i32 = 2_000_000;
const KILLER_FIRST: i32 = 1_900_000;
const KILLER_SECOND: i32 = 1_899_999;
const COUNTERMOVE: i32 = 1_899_000;
const HISTORY_MAX: i32 = 1_800_000;
/// Quiet moves with a negative history (gravity) still come before losing captures.
const HISTORY_MIN: i32 = -500_000;
const BAD_TACTICAL: i32 = -1_000_000;

/// Added to MVV-LVA with capture history so that the sum stays positive.
const CAPTURE_HISTORY_OFFSET: i32 = 20_000;

/// Most moves a position can have in any game the core searches.
pub const MAX_MOVES: usize = 320;

/// What the picker knows about a node before it generates moves.
#[derive(Copy, Clone)]
pub struct Hints {
    /// The previous iteration's PV move at this ply, when the path follows that PV.
    pub refutation: u16,
    pub killers: [u16; 2],
    pub countermove: u16,
    /// The continuation-history rows of the moves before this node.
    pub continuation: ContinuationKeys,
}

impl Default for Hints {
    fn default() -> Self {
        Hints {
            refutation: 0,
            killers: [0; 2],
            countermove: 0,
            continuation: ContinuationKeys::NONE,
        }
    }
}

/// The learnt tables quiet moves are ordered by.
#[derive(Copy, Clone)]
pub struct OrderingTables<'a> {
    pub history: &'a History,
    pub continuation: &'a ContinuationHistory,
    /// Capture history (gravity scores, `Game::capture_history_index`).
    pub capture: &'a History,
}

/// Why a move was picked: the search treats killers and tactical moves differently.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Class {
    TableMove,
    Refutation,
    GoodTactical,
    Killer,
    Countermove,
    Quiet,
    BadTactical,
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Stage {
    TableMove,
    Generate,
    /// Selecting the best remaining move each time (few moves are tried before a cutoff).
    Pick,
    /// The rest is sorted: step through it.
    Sorted,
    Done,
}

/// Yields a node's moves best-first.
pub struct MovePicker<G: Game> {
    moves: G::Moves,
    /// One score per generated move, in the moves' order. An `ArrayVec` rather than an
    /// array: a node's picker starts empty instead of zeroing 1,280 bytes.
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
    stage: Stage,
    tt_move: Option<G::Move>,
    /// Whether the table move was already returned (then it is skipped when picked).
    tt_given: bool,
    hints: Hints,
    tactical_only: bool,
    /// Staged generation: the quiet moves are still to be generated.
    quiets_pending: bool,
}

impl<G: Game> MovePicker<G> {
    /// A picker over all legal moves. `tt_move` must be legal (decoded with `Game::decode`).
    #[inline]
    pub fn new(tt_move: Option<G::Move>, hints: Hints) -> Self {
        MovePicker {
            moves: G::Moves::default(),
            scores: ArrayVec::new(),
            next: 0,
            stage: if tt_move.is_some() {
                Stage::TableMove
            } else {
                Stage::Generate
            },
            tt_move,
            tt_given: false,
            hints,
            tactical_only: false,
            quiets_pending: false,
        }
    }

    /// A picker over the quiescence moves (captures and promotions, or evasions in check).
    #[inline]
    pub fn tactical(tt_move: Option<G::Move>) -> Self {
        let mut picker = Self::new(tt_move, Hints::default());
        picker.tactical_only = true;
        picker
    }

    /// Number of legal moves, generating them if not done yet (single-reply detection).
    pub fn count(&mut self, game: &G, config: &SearchConfig, tables: OrderingTables<'_>) -> usize {
        if matches!(self.stage, Stage::TableMove | Stage::Generate) {
            self.generate(game, config, tables);
        }
        if self.quiets_pending {
            self.add_quiets(game, config, tables);
        }
        self.scores.len()
    }

    fn generate(&mut self, game: &G, config: &SearchConfig, tables: OrderingTables<'_>) {
        if self.tactical_only {
            game.generate_tactical(&mut self.moves);
        } else if config.staged_generation {
            game.generate_tactical(&mut self.moves);
            self.quiets_pending = true;
        } else {
            game.generate(&mut self.moves);
        }
        self.score_from(0, game, config, tables);
        self.stage = Stage::Pick;
        if self.quiets_pending && config.refutation && self.hints.refutation != 0 {
            self.add_quiets(game, config, tables);
        }
    }

    /// Whether staged generation generated the captures and never needed the quiet moves.
    #[inline]
    pub fn quiets_skipped(&self) -> bool {
        self.quiets_pending
    }

    /// Staged generation: appends the quiet moves behind the moves not yet given.
    fn add_quiets(&mut self, game: &G, config: &SearchConfig, tables: OrderingTables<'_>) {
        let mut quiets = G::Moves::default();
        game.generate_quiet(&mut quiets);
        let start = self.scores.len();
        self.moves.extend(quiets.as_ref().iter().copied());
        self.score_from(start, game, config, tables);
        self.quiets_pending = false;
    }

    /// Scores the generated moves from index `start` on (at most `MAX_MOVES` in all).
    fn score_from(
        &mut self,
        start: usize,
        game: &G,
        config: &SearchConfig,
        tables: OrderingTables<'_>,
    ) {
        debug_assert_eq!(self.scores.len(), start);
        let end = self.moves.as_ref().len().min(MAX_MOVES);
        let moves = &self.moves.as_ref()[start..end];
        for &m in moves {
            self.scores.push(score_move(
                game,
                m,
                &self.hints,
                config,
                tables,
                self.tactical_only,
            ));
        }
        // The table move, once found, is marked apart: no comparison for the other moves'
        // scores, and none at all after it.
        if let Some(tt_move) = self.tt_move
            && let Some(i) = moves.iter().position(|&m| m == tt_move)
        {
            self.scores[start + i] = if self.tt_given {
                i32::MIN // tried already: skipped when picked
            } else {
                i32::MAX // generation was forced before its turn: it still comes first
            };
        }
    }

    /// The next move and why it comes now, or `None` when all were given.
    #[inline]
    pub fn next(
        &mut self,
        game: &G,
        config: &SearchConfig,
        tables: OrderingTables<'_>,
    ) -> Option<(G::Move, Class)> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::Generate;
                    if let Some(m) = self.tt_move {
                        self.tt_given = true;
                        return Some((m, Class::TableMove));
                    }
                }
                Stage::Generate => self.generate(game, config, tables),
                Stage::Sorted => {
                    if self.next >= self.scores.len() {
                        self.stage = Stage::Done;
                        return None;
                    }
                    let i = self.next;
                    self.next += 1;
                    if self.scores[i] == i32::MIN {
                        continue;
                    }
                    return Some((self.moves.as_ref()[i], classify(self.scores[i])));
                }
                Stage::Pick => {
                    if self.next >= self.scores.len() {
                        if self.quiets_pending {
                            self.add_quiets(game, config, tables);
                            continue;
                        }
                        self.stage = Stage::Done;
                        return None;
                    }
                    let (best, score) = best_of(&self.scores[self.next..]);
                    let best = self.next + best;
                    if self.quiets_pending && score < GOOD_TACTICAL {
                        // No winning capture left: killers and quiet moves come next.
                        self.add_quiets(game, config, tables);
                        continue;
                    }
                    if score < COUNTERMOVE {
                        // Only quiet moves and losing captures are left: sort them once
                        // instead of selecting each (all-nodes search every move).
                        self.sort_rest();
                        self.stage = Stage::Sorted;
                        continue;
                    }
                    let moves = self.moves.as_mut();
                    moves.swap(self.next, best);
                    self.scores.swap(self.next, best);
                    let m = moves[self.next];
                    self.next += 1;
                    if score == i32::MIN {
                        continue; // the table move, tried first
                    }
                    return Some((m, classify(score)));
                }
                Stage::Done => return None,
            }
        }
    }
}

impl<G: Game> MovePicker<G> {
    /// Sorts the moves not yet given best first, ties in generation order (a stable sort).
    /// Each score and its index are packed into one `i32` key in place (distinct keys, so an
    /// unstable sort is stable here), the keys sorted, and the moves permuted once: cheaper
    /// than an insertion sort that shifts moves and scores together.
    fn sort_rest(&mut self) {
        let (start, end) = (self.next, self.scores.len());
        if end - start < 2 {
            return;
        }
        let keys = &mut self.scores[start..end];
        for (offset, score) in keys.iter_mut().enumerate() {
            *score = sort_key(*score, offset);
        }
        keys.sort_unstable_by(|a, b| b.cmp(a));
        let moves = self.moves.as_mut();
        let mut unsorted = G::Moves::default();
        unsorted.extend(moves[start..end].iter().copied());
        for (m, key) in moves[start..end].iter_mut().zip(keys.iter_mut()) {
            *m = unsorted.as_ref()[key_offset(*key)];
            *key = key_score(*key);
        }
    }
}

/// The offset and score of the highest score in `scores` (not empty), the first of equals.
/// A scan over one slice, the best score kept in a register: no bounds check per move.
#[inline]
fn best_of(scores: &[i32]) -> (usize, i32) {
    let mut best = (0, scores[0]);
    for (offset, &score) in scores.iter().enumerate().skip(1) {
        if score > best.1 {
            best = (offset, score);
        }
    }
    best
}

/// Bits of a sort key that hold the move's offset (`MAX_MOVES` fits).
const KEY_OFFSET_BITS: u32 = 9;
const KEY_OFFSET_MASK: i32 = (1 << KEY_OFFSET_BITS) - 1;
/// Scores left to sort lie in `BAD_TACTICAL ..= COUNTERMOVE`, inside `±KEY_SCORE_LIMIT`;
/// the skipped table move (`i32::MIN`) takes the key score `-KEY_SCORE_LIMIT`.
const KEY_SCORE_LIMIT: i32 = 1 << (31 - KEY_OFFSET_BITS - 1);
const _: () = assert!(MAX_MOVES <= 1 << KEY_OFFSET_BITS);
const _: () = assert!(BAD_TACTICAL - 100_000 > -KEY_SCORE_LIMIT && COUNTERMOVE < KEY_SCORE_LIMIT);

/// A key that sorts descending by score, then ascending by offset.
#[inline]
fn sort_key(score: i32, offset: usize) -> i32 {
    let score = if score == i32::MIN {
        -KEY_SCORE_LIMIT
    } else {
        debug_assert!(
            score.abs() < KEY_SCORE_LIMIT,
            "score {score} out of key range"
        );
        score.clamp(1 - KEY_SCORE_LIMIT, KEY_SCORE_LIMIT - 1)
    };
    (score << KEY_OFFSET_BITS) | (KEY_OFFSET_MASK - offset as i32)
}

#[inline]
fn key_offset(key: i32) -> usize {
    (KEY_OFFSET_MASK - (key & KEY_OFFSET_MASK)) as usize
}

#[inline]
fn key_score(key: i32) -> i32 {
    match key >> KEY_OFFSET_BITS {
        score if score == -KEY_SCORE_LIMIT => i32::MIN,
        score => score,
    }
}

#[inline]
fn classify(score: i32) -> Class {
    match score {
        i32::MAX => Class::TableMove,
        REFUTATION => Class::Refutation,
        s if s >= GOOD_TACTICAL => Class::GoodTactical,
        KILLER_FIRST | KILLER_SECOND => Class::Killer,
        COUNTERMOVE => Class::Countermove,
        s if s < HISTORY_MIN => Class::BadTactical,
        _ => Class::Quiet,
    }
}

#[inline]
fn score_move<G: Game>(
    game: &G,
    m: G::Move,
    hints: &Hints,
    config: &SearchConfig,
    tables: OrderingTables<'_>,
    quiescence: bool,
) -> i32 {
    // Encoding costs a little: only moves that may match a hint are encoded.
    if config.refutation && hints.refutation != 0 && G::encode(m) == hints.refutation {
        return REFUTATION;
    }
    let tactical = game.is_tactical(m);
    // Quiescence always takes captures in MVV-LVA order: unordered, it explodes, and a
    // quiescence search is part of even the barest alpha-beta. The knowledge heuristic
    // adds that order (and SEE) to the main search.
    if tactical && (config.knowledge || quiescence) {
        let mut order = game.mvv_lva(m);
        if config.capture_history {
            // Offset so the sum stays positive: the SEE class decides first.
            order += CAPTURE_HISTORY_OFFSET
                + tables.capture.score(game.capture_history_index(m))
                    / config.capture_history_divisor.max(1);
        }
        let order = order.clamp(0, 99_999);
        let winning = !(config.knowledge && config.knowledge_see) || game.see_ge(m, 0);
        return if winning {
            GOOD_TACTICAL + order
        } else {
            BAD_TACTICAL + order
        };
    }
    if config.killers || config.countermove {
        let packed = G::encode(m);
        if config.killers && packed == hints.killers[0] {
            return KILLER_FIRST;
        }
        if config.killers && packed == hints.killers[1] {
            return KILLER_SECOND;
        }
        if config.countermove && packed == hints.countermove {
            return COUNTERMOVE;
        }
    }
    if config.history || config.continuation_history {
        let index = game.history_index(m);
        let mut score = 0;
        if config.history {
            score += tables
                .history
                .score(main_history_index(config, game, m, index));
        }
        if config.continuation_history {
            score += tables.continuation.score(&hints.continuation, index);
        }
        return score.clamp(HISTORY_MIN, HISTORY_MAX);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random_tree::{RandomTree, TreeConfig};

    /// Fresh (all-zero) ordering tables for a random tree.
    struct EmptyTables {
        history: History,
        continuation: ContinuationHistory,
        capture: History,
    }

    impl EmptyTables {
        fn new() -> Self {
            let size = <RandomTree as Game>::HISTORY_SIZE;
            EmptyTables {
                history: History::new(size),
                continuation: ContinuationHistory::new(<RandomTree as Game>::CONTINUATION_SIZE),
                capture: History::new(size),
            }
        }

        fn tables(&self) -> OrderingTables<'_> {
            OrderingTables {
                history: &self.history,
                continuation: &self.continuation,
                capture: &self.capture,
            }
        }
    }

    /// The moves generated at the tree's current node.
    fn generated(game: &RandomTree) -> Vec<<RandomTree as Game>::Move> {
        let mut all = <RandomTree as Game>::Moves::default();
        game.generate(&mut all);
        all.as_ref().to_vec()
    }

    /// Move codes in ascending order: equal when two lists hold the same moves.
    fn sorted_codes(codes: impl IntoIterator<Item = u16>) -> Vec<u16> {
        let mut codes: Vec<u16> = codes.into_iter().collect();
        codes.sort_unstable();
        codes
    }

    /// Every move a picker gives, in order.
    fn picked(
        game: &RandomTree,
        tt_move: Option<<RandomTree as Game>::Move>,
        hints: Hints,
        config: &SearchConfig,
        tables: OrderingTables<'_>,
    ) -> Vec<(u16, Class)> {
        let mut picker = MovePicker::<RandomTree>::new(tt_move, hints);
        let mut out = Vec::new();
        while let Some((m, class)) = picker.next(game, config, tables) {
            out.push((RandomTree::encode(m), class));
        }
        out
    }

    #[test]
    fn best_of_finds_the_first_highest_score() {
        assert_eq!(best_of(&[7]), (0, 7));
        assert_eq!(best_of(&[3, 9, -1, 9, 8]), (1, 9));
        assert_eq!(best_of(&[i32::MIN, -5, i32::MIN]), (1, -5));
        assert_eq!(best_of(&[i32::MIN, i32::MIN]), (0, i32::MIN));
    }

    #[test]
    fn sort_keys_order_scores_descending_and_ties_by_offset() {
        let scores = [
            0,
            i32::MIN,
            COUNTERMOVE - 1,
            -1,
            1,
            BAD_TACTICAL,
            BAD_TACTICAL + 99_999,
            HISTORY_MIN,
            -1,
            0,
            HISTORY_MAX,
            i32::MIN,
        ];
        let mut keys: Vec<i32> = scores
            .iter()
            .enumerate()
            .map(|(i, &s)| sort_key(s, i))
            .collect();
        for (&key, (i, &score)) in keys.iter().zip(scores.iter().enumerate()) {
            assert_eq!((key_score(key), key_offset(key)), (score, i));
        }
        keys.sort_unstable_by(|a, b| b.cmp(a));
        let mut stable: Vec<(usize, i32)> = scores.iter().copied().enumerate().collect();
        stable.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        let from_keys: Vec<(usize, i32)> = keys
            .iter()
            .map(|&k| (key_offset(k), key_score(k)))
            .collect();
        assert_eq!(from_keys, stable);
        let last = MAX_MOVES - 1;
        assert_eq!(key_offset(sort_key(i32::MIN, last)), last);
    }

    /// Captures by their exchange (the knowledge heuristic): winning ones first by MVV-LVA,
    /// every one of them holding its exchange; every losing one last, by MVV-LVA, after the
    /// quiet moves.
    #[test]
    fn captures_are_ordered_by_exchange_then_mvv_lva() {
        let empty = EmptyTables::new();
        let tables = empty.tables();
        let config = SearchConfig::default();
        let (mut winning, mut losing) = (0, 0);
        for seed in 0..40 {
            let mut game = RandomTree::new(TreeConfig {
                seed,
                tactical_rate: 0.6,
                ..TreeConfig::default()
            });
            for ply in 0..5 {
                let moves = generated(&game);
                if moves.is_empty() {
                    break;
                }
                for tt_move in [None, Some(moves[(ply + seed as usize) % moves.len()])] {
                    let given = picked(&game, tt_move, Hints::default(), &config, tables);
                    let expected = sorted_codes(moves.iter().map(|&m| RandomTree::encode(m)));
                    assert_eq!(
                        sorted_codes(given.iter().map(|g| g.0)),
                        expected,
                        "seed {seed} ply {ply}: every move once"
                    );
                    let decoded = |code: u16| {
                        *moves
                            .iter()
                            .find(|&&m| RandomTree::encode(m) == code)
                            .expect("a generated move")
                    };
                    let order = |class: Class| -> Vec<i32> {
                        given
                            .iter()
                            .filter(|g| g.1 == class)
                            .map(|g| game.mvv_lva(decoded(g.0)))
                            .collect()
                    };
                    let (good, bad) = (order(Class::GoodTactical), order(Class::BadTactical));
                    assert!(
                        good.is_sorted_by(|a, b| a >= b),
                        "winning by MVV-LVA: {good:?}"
                    );
                    assert!(
                        bad.is_sorted_by(|a, b| a >= b),
                        "losing by MVV-LVA: {bad:?}"
                    );
                    let first = usize::from(tt_move.is_some());
                    for (i, &(code, class)) in given.iter().enumerate().skip(first) {
                        let m = decoded(code);
                        if !game.is_capture(m) {
                            assert!(matches!(class, Class::Quiet), "{class:?}");
                            continue;
                        }
                        let holds = game.see_ge(m, 0);
                        assert_eq!(class == Class::GoodTactical, holds, "seed {seed} ply {ply}");
                        if holds {
                            winning += 1;
                            assert!(given[first..i].iter().all(|g| g.1 == Class::GoodTactical));
                        } else {
                            losing += 1;
                            assert!(given[i..].iter().all(|g| g.1 == Class::BadTactical));
                        }
                    }
                }
                game.play(moves[ply % moves.len()]);
            }
        }
        assert!(
            winning > 100 && losing > 20,
            "{winning} winning, {losing} losing"
        );
    }

    #[test]
    fn staged_generation_gives_every_move_once_winning_captures_before_quiets() {
        let tree = RandomTree::new(TreeConfig {
            seed: 3,
            tactical_rate: 0.4,
            ..TreeConfig::default()
        });
        let empty = EmptyTables::new();
        let tables = empty.tables();
        let full = SearchConfig::default();
        let staged = SearchConfig {
            staged_generation: true,
            ..full.clone()
        };
        let mut game = tree;
        let mut nodes = 0;
        // Moves given while the quiet moves were still ungenerated.
        let mut skipped_quiets = 0;
        // Walk down the first moves, a few plies, checking every node on the way.
        for ply in 0..6 {
            let moves = generated(&game);
            if moves.is_empty() {
                break;
            }
            let mut killer_hints = Hints::default();
            killer_hints.killers[0] = RandomTree::encode(moves[moves.len() - 1]);
            for tt_move in [None, Some(moves[ply % moves.len()])] {
                for hints in [Hints::default(), killer_hints] {
                    let a = picked(&game, tt_move, hints, &full, tables);
                    let b = picked(&game, tt_move, hints, &staged, tables);
                    let sorted = |v: &[(u16, Class)]| sorted_codes(v.iter().map(|p| p.0));
                    let expected = sorted_codes(moves.iter().map(|&m| RandomTree::encode(m)));
                    assert_eq!(sorted(&a), expected, "ply {ply}: full list");
                    assert_eq!(sorted(&b), expected, "ply {ply}: staged");
                    // Every winning capture comes before the first killer or quiet move.
                    let first_quiet = b
                        .iter()
                        .position(|p| matches!(p.1, Class::Killer | Class::Quiet));
                    let last_winning = b.iter().rposition(|p| p.1 == Class::GoodTactical);
                    if let (Some(q), Some(w)) = (first_quiet, last_winning) {
                        assert!(w < q, "ply {ply}: {b:?}");
                    }
                    // The staged picker stops short of the quiet moves when asked only for
                    // the winning captures.
                    let mut picker = MovePicker::<RandomTree>::new(tt_move, hints);
                    while let Some((_, class)) = picker.next(&game, &staged, tables) {
                        if !matches!(class, Class::TableMove | Class::GoodTactical) {
                            break;
                        }
                        if picker.quiets_skipped() {
                            skipped_quiets += 1;
                        }
                    }
                    nodes += 1;
                }
            }
            game.play(moves[0]);
        }
        assert!(nodes >= 20, "{nodes} pickers compared");
        assert!(
            skipped_quiets > 0,
            "captures were given before any quiet move was generated"
        );
    }
}
