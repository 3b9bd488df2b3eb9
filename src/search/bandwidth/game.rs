//! The game abstraction the bandwidth search runs on, so that the same code searches chess
//! positions and the synthetic trees of the tests.

use crate::moves::MoveCode;

/// What a freshly created node is worth, from its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tip {
    /// Negamax value for the side to move; mate values relative to this node.
    pub value: i32,
    /// The game is over here (mate, stalemate, draw by rule, a leaf of a finite tree):
    /// `value` is exact and the node is never expanded.
    pub terminal: bool,
}

impl Tip {
    /// An estimate of a position the game goes on from.
    pub fn estimate(value: i32) -> Tip {
        Tip { value, terminal: false }
    }

    /// The exact value of a finished game.
    pub fn terminal(value: i32) -> Tip {
        Tip { value, terminal: true }
    }
}

/// A two-player zero-sum game as the bandwidth search sees it. The search stores only move
/// codes and replays positions from the root, so positions are created on demand.
///
/// The search tells the game which positions lie on the current line with
/// [`enter`](GameTree::enter) and [`leave`](GameTree::leave): every position from the
/// root down to the father of a node being evaluated has been entered, which is what
/// path-dependent rules (repetitions) need.
pub trait GameTree {
    /// A position.
    type Pos: Clone;
    /// A move of a position.
    type Move: Copy;

    /// Appends the legal moves of `pos` to `out`, the most promising first (a cheap guess:
    /// the search values every son itself and orders the sons by value).
    fn moves(&mut self, pos: &Self::Pos, out: &mut Vec<Self::Move>);

    /// The compact code of `mv`: never zero, different for every move of one position.
    fn code(&self, mv: Self::Move) -> MoveCode;

    /// The move of `pos` whose code is `code`, if `pos` has one.
    fn decode(&mut self, pos: &Self::Pos, code: MoveCode) -> Option<Self::Move>;

    /// The position after the legal move `mv`.
    fn play(&mut self, pos: &Self::Pos, mv: Self::Move) -> Self::Pos;

    /// `pos` is now the last position of the current line.
    fn enter(&mut self, pos: &Self::Pos);

    /// The last entered position leaves the current line.
    fn leave(&mut self);

    /// Values a node `ply` plies below the root, whose ancestors have been entered. At the
    /// root (`ply` 0) the game is only over when there is no legal move: draw rules there
    /// are the arbiter's business, and the search must still name a move.
    fn evaluate(&mut self, pos: &Self::Pos, ply: usize) -> Tip;
}
