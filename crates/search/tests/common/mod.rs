//! A game on a small hand-drawn graph, for tests that need a position the random trees
//! cannot be relied on to produce (a repetition, a mate at a chosen ply).

use horizon_search::game::{Draw, Game, NoMoves};

/// The most moves a node of a [`Shape`] may have.
const MAX_EDGES: usize = 4;

/// A graph: nodes are numbers, White moves at the root and every second ply.
pub struct Shape {
    pub root: usize,
    /// The nodes a node leads to, in generation order.
    pub edges: fn(usize) -> &'static [usize],
    /// The static evaluation of a node, from White's point of view.
    pub evaluate: fn(usize) -> i32,
    /// What a node without moves is worth, from White's point of view; `None` for a loss
    /// of the side to move there (a mate).
    pub leaf: fn(usize) -> Option<i32>,
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Edge(pub u16);

impl Edge {
    pub fn to(node: usize) -> Edge {
        Edge(node as u16 + 1)
    }
}

#[derive(Default)]
pub struct Edges {
    buf: [Edge; MAX_EDGES],
    len: usize,
}

impl AsRef<[Edge]> for Edges {
    fn as_ref(&self) -> &[Edge] {
        &self.buf[..self.len]
    }
}

impl AsMut<[Edge]> for Edges {
    fn as_mut(&mut self) -> &mut [Edge] {
        &mut self.buf[..self.len]
    }
}

impl Extend<Edge> for Edges {
    fn extend<I: IntoIterator<Item = Edge>>(&mut self, edges: I) {
        for e in edges {
            self.buf[self.len] = e;
            self.len += 1;
        }
    }
}

#[derive(Clone)]
pub struct Graph {
    shape: &'static Shape,
    path: Vec<usize>,
}

impl Graph {
    pub fn new(shape: &'static Shape) -> Graph {
        Graph {
            shape,
            path: vec![shape.root],
        }
    }
    fn node(&self) -> usize {
        *self.path.last().expect("never empty")
    }
    fn white_to_move(&self) -> bool {
        self.path.len() % 2 == 1
    }
    fn for_side_to_move(&self, white_value: i32) -> i32 {
        if self.white_to_move() {
            white_value
        } else {
            -white_value
        }
    }
}

impl Game for Graph {
    type Move = Edge;
    type Moves = Edges;
    const HISTORY_SIZE: usize = 64;

    fn key(&self) -> u64 {
        (self.node() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(self.white_to_move())
    }
    fn key_extension(&self) -> u64 {
        0
    }
    fn set_wide_keys(&mut self, _: bool) {}
    fn ply(&self) -> usize {
        self.path.len() - 1
    }
    fn reversible_plies(&self) -> u32 {
        0
    }
    fn generate(&self, out: &mut Edges) {
        out.len = 0;
        out.extend(
            (self.shape.edges)(self.node())
                .iter()
                .map(|&to| Edge::to(to)),
        );
    }
    fn generate_tactical(&self, out: &mut Edges) {
        out.len = 0;
    }
    fn generate_quiet(&self, out: &mut Edges) {
        self.generate(out);
    }
    fn play(&mut self, m: Edge) {
        self.path.push(usize::from(m.0) - 1);
    }
    fn undo(&mut self) {
        self.path.pop();
    }
    fn null_move_allowed(&self) -> bool {
        false
    }
    fn play_null(&mut self) {}
    fn undo_null(&mut self) {}
    fn non_pawn_pieces(&self) -> u32 {
        0
    }
    fn evaluate(&mut self) -> i32 {
        self.for_side_to_move((self.shape.evaluate)(self.node()))
    }
    fn in_check(&self) -> bool {
        false
    }
    fn draw(&self, _: usize) -> Option<Draw> {
        // Same node with the same side to move earlier on the path.
        let here = self.path.len() - 1;
        let node = self.node();
        (0..here)
            .rev()
            .skip(1)
            .step_by(2)
            .find(|&i| self.path[i] == node)
            .map(|i| Draw::Repetition {
                plies_back: here - i,
            })
    }
    fn history_signature(&self, _search_root_ply: usize, plies: usize) -> Option<u64> {
        // Every earlier position can repeat (the graph has no irreversible move), and the
        // rule is the same before and after the root.
        let here = self.path.len() - 1;
        Some((here.saturating_sub(plies)..here).fold(0u64, |sum, i| {
            let white = i % 2 == 0;
            let key =
                (self.path[i] as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(white);
            sum.wrapping_add(key.wrapping_mul(0xD6E8_FEB8_6659_FD93).rotate_left(29))
        }))
    }
    fn no_moves(&self) -> NoMoves {
        match (self.shape.leaf)(self.node()) {
            Some(white) => NoMoves::Value(self.for_side_to_move(white)),
            None => NoMoves::Loss,
        }
    }
    fn is_capture(&self, _: Edge) -> bool {
        false
    }
    fn is_promotion(&self, _: Edge) -> bool {
        false
    }
    fn mvv_lva(&self, _: Edge) -> i32 {
        0
    }
    fn see(&self, _: Edge) -> i32 {
        0
    }
    fn captured_value(&self, _: Edge) -> i32 {
        0
    }
    fn is_recapture(&self, _: Edge) -> bool {
        false
    }
    fn is_advanced_pawn_push(&self, _: Edge) -> bool {
        false
    }
    fn encode(m: Edge) -> u16 {
        m.0
    }
    fn decode(&self, packed: u16) -> Option<Edge> {
        (self.shape.edges)(self.node())
            .iter()
            .any(|&to| Edge::to(to).0 == packed)
            .then_some(Edge(packed))
    }
    fn history_index(&self, m: Edge) -> usize {
        usize::from(m.0)
    }
    fn last_move_index(&self) -> Option<usize> {
        None
    }
}
