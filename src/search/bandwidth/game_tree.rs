//! The game abstraction the bandwidth search runs on, so that the same code searches chess
//! positions and the synthetic trees of the tests.

use crate::moves::MoveCode;

/// The deepest look-ahead a tip records (six bits of a node).
pub const MAX_TIP_DEPTH: u32 = 63;

/// What an estimate's value says of the true value, from the side to move at its node.
/// Unlike a reported score's [`Bound`](crate::search::Bound), a tip's bound may also go
/// either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accuracy {
    /// It is the value the estimate looked for.
    Exact,
    /// The true value is at least this: the estimate failed high.
    Lower,
    /// The true value is at most this: the estimate failed low.
    Upper,
    /// A bound either way: an old estimate kept where its value no longer matters.
    Unknown,
}

/// What a freshly created node is worth, from its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tip {
    /// Negamax value for the side to move; mate values relative to this node.
    pub value: i32,
    /// The game is over here (mate, stalemate, draw by rule, a leaf of a finite tree):
    /// `value` is exact and the node is never expanded.
    pub terminal: bool,
    /// How deep the game looked to make the estimate (see
    /// [`GameTree::deepest_estimate`]); 0 for a terminal.
    pub depth: u8,
    /// Exact, or a bound when it fell outside the window the estimate was asked for.
    pub accuracy: Accuracy,
}

impl Tip {
    /// An estimate of a position the game goes on from.
    pub fn estimate(value: i32) -> Tip {
        Tip { value, terminal: false, depth: 0, accuracy: Accuracy::Exact }
    }

    /// An estimate that looked `depth` plies ahead.
    pub fn estimate_at(value: i32, depth: u32) -> Tip {
        Tip { value, terminal: false, depth: depth.min(MAX_TIP_DEPTH) as u8, accuracy: Accuracy::Exact }
    }

    /// A bound of kind `accuracy` from an estimate that looked `depth` plies ahead.
    pub fn bound_at(value: i32, depth: u32, accuracy: Accuracy) -> Tip {
        Tip { accuracy, ..Tip::estimate_at(value, depth) }
    }

    /// The result of an estimate asked for `window`, looking `depth` plies ahead: exact
    /// inside the window, a bound (fail-soft) outside it.
    pub fn windowed(value: i32, depth: u32, window: Window) -> Tip {
        let accuracy = if value <= window.alpha {
            Accuracy::Upper
        } else if value >= window.beta {
            Accuracy::Lower
        } else {
            Accuracy::Exact
        };
        Tip::bound_at(value, depth, accuracy)
    }

    /// True if the value is only a bound.
    pub fn is_bound(&self) -> bool {
        self.accuracy != Accuracy::Exact
    }

    /// The exact value of a finished game.
    pub fn terminal(value: i32) -> Tip {
        Tip { value, terminal: true, depth: 0, accuracy: Accuracy::Exact }
    }
}

/// The values a caller of [`GameTree::evaluate`] needs told apart, from the side to move at
/// the evaluated node: an estimate at or below `alpha`, or at or above `beta`, may be a
/// bound in that direction (the caller only learns which side of the window it lies on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Values at or below this need not be exact.
    pub alpha: i32,
    /// Values at or above this need not be exact.
    pub beta: i32,
}

impl Window {
    /// Every value exact.
    pub const FULL: Window = Window { alpha: i32::MIN / 2, beta: i32::MAX / 2 };
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

    /// Values a node `ply` plies below the root, whose ancestors have been entered, looking
    /// `depth` plies ahead (at most [`deepest_estimate`](GameTree::deepest_estimate)); an
    /// estimate outside `window` may be a bound, and says so, so that the search values
    /// the node again before relying on it.
    /// At the root (`ply` 0) the game is only over when there is no legal move: draw rules
    /// there are the arbiter's business, and the search must still name a move.
    fn evaluate(&mut self, pos: &Self::Pos, ply: usize, depth: u32, window: Window) -> Tip;

    /// How many plies less than `depth` a scout of `son` may look ahead, `son` being the
    /// `rank`-th (from 0) most promising son of `father`: a late quiet move is seldom good,
    /// so a shallower look that keeps it out of the band is taken for the full one, as
    /// alpha-beta's late-move reductions do. 0 (the default): never reduced.
    fn reduction(&mut self, father: &Self::Pos, son: &Self::Pos, rank: usize, depth: u32) -> u32 {
        let _ = (father, son, rank, depth);
        0
    }

    /// True if the move into `pos` earns the line through it a ply more look-ahead
    /// (alpha-beta's check extension). The default: never.
    fn extends(&self, pos: &Self::Pos) -> bool {
        let _ = pos;
        false
    }

    /// The search is about to create `count` nodes: true when the game's node budget
    /// (`go nodes`, which the positions its estimates visit also spend) has room for them,
    /// which are then counted against it; false, counting nothing, when it has not, and
    /// the search abandons the expansion. The default: no budget.
    fn reserve(&mut self, count: u64) -> bool {
        let _ = count;
        true
    }

    /// The deepest look-ahead [`evaluate`](GameTree::evaluate) offers. The search deepens
    /// its estimates up to it as it goes (0: estimates do not deepen).
    fn deepest_estimate(&self) -> u32 {
        0
    }
}
