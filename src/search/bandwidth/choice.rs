//! The choice of the root move: a pure ranking of the tree's root sons by their plain
//! negamax values and by how far those values can be trusted, and the principal variation
//! that follows from it.

use crate::moves::MoveCode;

use super::game_tree::Accuracy;
use super::params::UNCONFIRMED_DISCOUNT_CP;
use super::tree::{COLLAPSED, DROPPED, NodeId, Tree};
use super::window::{Band, NO_VALUE, back_up};

/// How far a root son's value can be trusted, in rising order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Trust {
    /// The son is a tip whose own estimate is a bound in the root's favour: a scout showed
    /// only that the move was no better than the best one then.
    None,
    /// The son once had an exact value (it was expanded), but a bound in the root's favour
    /// ends its principal line now.
    Partial,
    /// No bound flatters the son's value.
    Full,
}

/// The root sons of a tree as the move choice sees them.
pub(super) struct Ranking<'a> {
    tree: &'a Tree,
    /// Every node's plain negamax value under a depth penalty (see [`pure_values`]); `None`
    /// where the stored values are those already.
    values: Option<Vec<i32>>,
    /// The [incumbent](incumbent_son) root son.
    incumbent: Option<NodeId>,
}

impl<'a> Ranking<'a> {
    /// The ranking of `tree` under a depth penalty of `depth_penalty`, where the root son
    /// with the move `incumbent` was last best with a trusted value.
    pub fn new(tree: &'a Tree, depth_penalty: i32, incumbent: Option<MoveCode>) -> Ranking<'a> {
        Ranking { tree, values: pure_values(tree, depth_penalty), incumbent: incumbent_son(tree, incumbent) }
    }

    /// The plain values, `None` where the stored values are those already.
    pub fn into_values(self) -> Option<Vec<i32>> {
        self.values
    }

    /// The plain value of `id` from its side to move.
    fn value(&self, id: NodeId) -> i32 {
        self.values.as_ref().map_or_else(|| self.tree.node(id).value(), |v| v[id as usize])
    }

    /// The root value without the depth penalty, from the root's side.
    pub fn root_value(&self) -> i32 {
        self.value(self.tree.root())
    }

    /// The sons of the root with their values from the root's view, ignoring the depth
    /// penalty, best first: those that [flatter](flatters_root) the root count
    /// [`UNCONFIRMED_DISCOUNT_CP`] less (except the incumbent), and tips holding a scout's
    /// bound come after every other son; ties go to the larger subtree.
    pub fn root_sons(&self) -> Vec<(NodeId, i32)> {
        let tree = self.tree;
        let mut choices: Vec<(NodeId, i32, Trust)> = tree
            .children(tree.root())
            .filter(|&c| !tree.node(c).has(DROPPED))
            .map(|c| (c, back_up(self.value(c)), trust(tree, c, self.incumbent)))
            .collect();
        // An expanded son that flatters the root ranks by its bound less a discount: a
        // little below a trusted brother (it may only have failed to beat that brother's old
        // value), far above a trusted brother that is much worse (a bound from a deeper look
        // at the former best move does not make a blunder the better choice). Tips holding
        // a scout's bound come last.
        let rank = |v: i32, trust: Trust| {
            let discount = if trust == Trust::Partial { UNCONFIRMED_DISCOUNT_CP } else { 0 };
            (trust != Trust::None, v.saturating_sub(discount), trust)
        };
        choices.sort_by_key(|&(_, v, trust)| std::cmp::Reverse(rank(v, trust)));
        let first = choices.first().map(|&(_, v, trust)| rank(v, trust));
        let ties = choices.iter().take_while(|&&(_, v, trust)| Some(rank(v, trust)) == first).count();
        if ties > 1 {
            choices[..ties].sort_by_cached_key(|&(c, _, _)| std::cmp::Reverse(tree.subtree_size(c)));
        }
        choices.into_iter().map(|(c, v, _)| (c, v)).collect()
    }

    /// The nodes of the principal variation: the best root son, then the best sons by plain
    /// value.
    pub fn principal_nodes(&self) -> Vec<NodeId> {
        let tree = self.tree;
        let mut line = Vec::new();
        let Some(&(mut id, _)) = self.root_sons().first() else {
            return line;
        };
        loop {
            line.push(id);
            if tree.node(id).is_tip() {
                return line;
            }
            id = match &self.values {
                None => tree.best_son(id),
                Some(v) => tree
                    .children(id)
                    .max_by_key(|&c| (back_up(v[c as usize]), std::cmp::Reverse(c)))
                    .expect("an expanded node has sons"),
            };
        }
    }
}

/// The root son with the move `code`, if it is still a son: the son that was last best with
/// a trusted value since the root last changed ranks as trusted until a brother is
/// confirmed better, as alpha-beta's last finished iteration keeps its move.
pub(super) fn incumbent_son(tree: &Tree, code: Option<MoveCode>) -> Option<NodeId> {
    let code = code?;
    tree.child_by_move(tree.root(), code).filter(|&c| !tree.node(c).has(DROPPED))
}

/// How far the value of the root son `c` can be trusted. The `incumbent` counts as trusted
/// while only the end of its line is unconfirmed, as alpha-beta keeps its last finished
/// iteration's move: a brother whose value is a bound in the root's favour takes its place
/// only by more than the discount.
fn trust(tree: &Tree, c: NodeId, incumbent: Option<NodeId>) -> Trust {
    if !flatters_root(tree, c) || Some(c) == incumbent && !tree.node(c).is_tip() {
        Trust::Full
    } else if tree.node(c).is_tip() {
        Trust::None
    } else {
        Trust::Partial
    }
}

/// True if the value of the root son `c` may flatter the root's side: the tip at the end of
/// its principal line holds a bound in the root's favour, such as a scout's, which only
/// showed the move to be no better than the best one was then. When the best move's value
/// falls with a deeper look, such a son leads by its bound alone until selection values it
/// again, as a move that fails high in alpha-beta leads only once its re-search confirms
/// it: until then it is neither played nor reported, unless every trusted brother is worse
/// by more than [`UNCONFIRMED_DISCOUNT_CP`].
pub(super) fn flatters_root(tree: &Tree, c: NodeId) -> bool {
    let (mut id, mut ply) = (c, 1);
    while !tree.node(id).is_tip() {
        id = tree.best_son(id);
        ply += 1;
    }
    // A lower bound (from the tip's side to move) favours the side that chose the move into
    // the tip, an upper bound the side to move there. The root's side chooses the moves
    // into odd plies and is to move at even ones.
    match tree.node(id).accuracy() {
        Accuracy::Exact => false,
        Accuracy::Lower => ply % 2 == 1,
        Accuracy::Upper => ply % 2 == 0,
        Accuracy::Unknown => true,
    }
}

/// True if the root's best son by key (the one selection follows) can be trusted: it does
/// not [flatter](flatters_root) the root. A search should not stop by choice before it is.
pub(super) fn best_son_trusted(tree: &Tree) -> bool {
    let root = tree.root();
    tree.node(root).is_tip() || !flatters_root(tree, tree.best_son(root))
}

/// With a depth penalty, every node's plain negamax value (one bottom-up pass; a collapsed
/// stub keeps its own in `tip_eval`; a dropped son counts, as in the backup); without one
/// the stored values are those already.
fn pure_values(tree: &Tree, depth_penalty: i32) -> Option<Vec<i32>> {
    if depth_penalty == 0 {
        return None;
    }
    Some(tree.bottom_up(|id, sons| {
        let node = tree.node(id);
        if sons.is_empty() {
            return if node.has(COLLAPSED) { node.tip_eval() } else { node.value() };
        }
        sons.iter().map(|&v| back_up(v)).max().expect("a node with sons has a best one")
    }))
}

/// The best root son's lead over the runner-up (keys, from the root's view), if the root
/// has two candidate sons.
pub(super) fn root_lead(tree: &Tree, band: Band) -> Option<(NodeId, i32)> {
    let mut best: Option<(NodeId, i32)> = None;
    let mut second = NO_VALUE;
    for c in tree.children(tree.root()) {
        let son = tree.node(c);
        if son.has(DROPPED) {
            continue;
        }
        let key = band.key(son);
        match best {
            Some((_, b)) if key <= b => second = second.max(key),
            _ => {
                if let Some((_, b)) = best {
                    second = b;
                }
                best = Some((c, key));
            }
        }
    }
    let (c, b) = best?;
    (second > NO_VALUE).then_some((c, b - second))
}
