//! Synthetic game trees for testing the bandwidth search against known answers: uniform
//! trees with given leaf values and interior estimates (also with estimates that look
//! ahead, as tip probes do), and an unbounded random tree.

use crate::moves::MoveCode;
use crate::random::SplitMix;
use crate::random::{GOLDEN_GAMMA, mix};

use super::game_tree::{GameTree, Tip, Window};

/// Leaf values of [`UniformTree::random`] lie within ±this.
pub const RANDOM_LEAF_RANGE: i32 = 1000;

/// A node of a [`UniformTree`]: its ply and its index among the nodes of that ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniformPos {
    /// Plies below the tree's root.
    pub ply: usize,
    /// Index among the `b^ply` nodes of the ply; son `j` of node `i` is `i * b + j`.
    pub index: usize,
}

/// A uniform tree of branching `b` and depth `n`. Leaves are terminal with exact values;
/// interior nodes carry estimates. Values are negamax, for the side to move at the node.
#[derive(Clone, Debug)]
pub struct UniformTree {
    branching: usize,
    depth: usize,
    /// `values[k][i]`: estimate of node `i` of ply `k`; the last ply holds the leaves.
    values: Vec<Vec<i32>>,
    /// Evaluations made per ply.
    evaluations: Vec<u64>,
}

impl UniformTree {
    /// A tree with the given `leaves` (`b^n` values, left to right) whose interior
    /// estimates are the exact negamax values.
    pub fn new(branching: usize, depth: usize, leaves: Vec<i32>) -> UniformTree {
        assert_eq!(leaves.len(), branching.pow(depth as u32), "one value per leaf");
        let mut values = vec![leaves];
        for _ in 0..depth {
            let below = values.last().expect("the leaves are there");
            let level: Vec<i32> =
                below.chunks(branching).map(|sons| sons.iter().map(|&v| -v).max().expect("b >= 1")).collect();
            values.push(level);
        }
        values.reverse();
        UniformTree { branching, depth, values, evaluations: vec![0; depth + 1] }
    }

    /// A perfectly ordered tree: at every node the first son is the best and every other
    /// son is strictly worse, so alpha-beta meets its best case.
    pub fn perfectly_ordered(branching: usize, depth: usize) -> UniformTree {
        let mut level = vec![0];
        for _ in 0..depth {
            level = level.iter().flat_map(|&v| (0..branching as i32).map(move |j| -(v - j))).collect();
        }
        UniformTree::new(branching, depth, level)
    }

    /// Random leaves and noisy estimates: from the view of the side to move at the root
    /// (the "program"), every interior estimate lies in `[v - e, v + d]` around the true
    /// value `v`, the errors uniform in that range.
    pub fn random(branching: usize, depth: usize, seed: u64, e: i32, d: i32) -> UniformTree {
        let mut rng = SplitMix::new(seed);
        let count = branching.pow(depth as u32);
        let leaves = (0..count).map(|_| rng.range(-RANDOM_LEAF_RANGE, RANDOM_LEAF_RANGE)).collect();
        let mut tree = UniformTree::new(branching, depth, leaves);
        for (ply, level) in tree.values.iter_mut().enumerate().take(depth) {
            // Negamax values of the opponent's nodes are the program's negated, so the
            // error interval flips on odd plies.
            let (lo, hi) = if ply % 2 == 0 { (-e, d) } else { (-d, e) };
            for v in level.iter_mut() {
                *v += rng.range(lo, hi);
            }
        }
        tree
    }

    /// The root position.
    pub fn root(&self) -> UniformPos {
        UniformPos { ply: 0, index: 0 }
    }

    /// The exact negamax value of the root.
    pub fn minimax(&self) -> i32 {
        let mut level = self.values[self.depth].clone();
        for _ in 0..self.depth {
            level = level.chunks(self.branching).map(|s| s.iter().map(|&v| -v).max().expect("b >= 1")).collect();
        }
        level[0]
    }

    /// The branching factor.
    pub fn branching(&self) -> usize {
        self.branching
    }

    /// The depth (plies from the root to the leaves).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The estimate (or, at a leaf, the exact value) of a node.
    pub fn value(&self, pos: UniformPos) -> i32 {
        self.values[pos.ply][pos.index]
    }

    /// Evaluations made so far, per ply.
    pub fn evaluations(&self) -> &[u64] {
        &self.evaluations
    }
}

impl GameTree for UniformTree {
    type Pos = UniformPos;
    type Move = usize;

    fn moves(&mut self, pos: &UniformPos, out: &mut Vec<usize>) {
        if pos.ply < self.depth {
            out.extend(0..self.branching);
        }
    }

    fn code(&self, mv: usize) -> MoveCode {
        mv as MoveCode + 1
    }

    fn decode(&mut self, pos: &UniformPos, code: MoveCode) -> Option<usize> {
        let mv = (code as usize).checked_sub(1)?;
        (pos.ply < self.depth && mv < self.branching).then_some(mv)
    }

    fn play(&mut self, pos: &UniformPos, mv: usize) -> UniformPos {
        UniformPos { ply: pos.ply + 1, index: pos.index * self.branching + mv }
    }

    fn enter(&mut self, _: &UniformPos) {}

    fn leave(&mut self) {}

    fn evaluate(&mut self, pos: &UniformPos, _: usize, _: u32, _: Window) -> Tip {
        self.evaluations[pos.ply] += 1;
        let value = self.value(*pos);
        if pos.ply == self.depth { Tip::terminal(value) } else { Tip::estimate(value) }
    }
}

/// A [`UniformTree`] whose estimates look ahead: the estimate at depth `d` is the negamax
/// of the tree's own estimates `d` plies down (exact from the depth of the leaves on), as a
/// tip probe is on a real game. For the deepening search.
#[derive(Clone, Debug)]
pub struct LookAheadTree {
    tree: UniformTree,
    /// The index (among its brothers) of the move that extends the lines through it.
    extending: Option<usize>,
}

impl LookAheadTree {
    /// Wraps `tree`.
    pub fn new(tree: UniformTree) -> LookAheadTree {
        LookAheadTree { tree, extending: None }
    }

    /// Wraps `tree`, where the `j`-th move of every position extends the lines through it
    /// (as a check does in chess).
    pub fn with_extending_move(tree: UniformTree, j: usize) -> LookAheadTree {
        LookAheadTree { tree, extending: Some(j) }
    }

    /// The wrapped tree.
    pub fn tree(&self) -> &UniformTree {
        &self.tree
    }

    fn negamax(&self, pos: UniformPos, depth: u32) -> i32 {
        if depth == 0 || pos.ply == self.tree.depth {
            return self.tree.value(pos);
        }
        let b = self.tree.branching;
        (0..b)
            .map(|j| -self.negamax(UniformPos { ply: pos.ply + 1, index: pos.index * b + j }, depth - 1))
            .max()
            .expect("b >= 1")
    }
}

impl GameTree for LookAheadTree {
    type Pos = UniformPos;
    type Move = usize;

    fn moves(&mut self, pos: &UniformPos, out: &mut Vec<usize>) {
        self.tree.moves(pos, out);
    }

    fn code(&self, mv: usize) -> MoveCode {
        self.tree.code(mv)
    }

    fn decode(&mut self, pos: &UniformPos, code: MoveCode) -> Option<usize> {
        self.tree.decode(pos, code)
    }

    fn play(&mut self, pos: &UniformPos, mv: usize) -> UniformPos {
        self.tree.play(pos, mv)
    }

    fn enter(&mut self, _: &UniformPos) {}

    fn leave(&mut self) {}

    /// Answers as an alpha-beta probe does (fail-soft): a value outside `window` is
    /// reported as a bound, so the search must value the tip again before relying on it.
    fn evaluate(&mut self, pos: &UniformPos, _: usize, depth: u32, window: Window) -> Tip {
        assert!(window.alpha < window.beta, "empty window {window:?}");
        self.tree.evaluations[pos.ply] += 1;
        if pos.ply == self.tree.depth {
            return Tip::terminal(self.tree.value(*pos));
        }
        Tip::windowed(self.negamax(*pos, depth), depth, window)
    }

    fn deepest_estimate(&self) -> u32 {
        self.tree.depth as u32
    }

    fn extends(&self, pos: &UniformPos) -> bool {
        pos.ply > 0 && self.extending == Some(pos.index % self.tree.branching)
    }
}

/// A node of a [`RandomTree`]: a hash that determines everything below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomPos(pub u64);

/// An unbounded random tree: every node has 2 to `max_branching` sons and a pseudo-random
/// estimate; no node is terminal. For memory and speed tests.
#[derive(Clone, Debug)]
pub struct RandomTree {
    max_branching: usize,
    spread: i32,
}

impl RandomTree {
    /// A tree whose estimates lie within ±`spread`.
    pub fn new(max_branching: usize, spread: i32) -> RandomTree {
        assert!((2..=255).contains(&max_branching), "2 to 255 sons");
        RandomTree { max_branching, spread }
    }

    /// The root of the tree numbered `seed`.
    pub fn root(&self, seed: u64) -> RandomPos {
        RandomPos(mix(seed))
    }
}

impl GameTree for RandomTree {
    type Pos = RandomPos;
    type Move = usize;

    fn moves(&mut self, pos: &RandomPos, out: &mut Vec<usize>) {
        let count = 2 + (pos.0 % (self.max_branching as u64 - 1)) as usize;
        out.extend(0..count);
    }

    fn code(&self, mv: usize) -> MoveCode {
        mv as MoveCode + 1
    }

    fn decode(&mut self, pos: &RandomPos, code: MoveCode) -> Option<usize> {
        let mv = (code as usize).checked_sub(1)?;
        let count = 2 + (pos.0 % (self.max_branching as u64 - 1)) as usize;
        (mv < count).then_some(mv)
    }

    fn play(&mut self, pos: &RandomPos, mv: usize) -> RandomPos {
        RandomPos(mix(pos.0 ^ (mv as u64 + 1).wrapping_mul(GOLDEN_GAMMA)))
    }

    fn enter(&mut self, _: &RandomPos) {}

    fn leave(&mut self) {}

    fn evaluate(&mut self, pos: &RandomPos, _: usize, _: u32, _: Window) -> Tip {
        let span = 2 * self.spread as u64 + 1;
        Tip::estimate(((pos.0 >> 20) % span) as i32 - self.spread)
    }
}
