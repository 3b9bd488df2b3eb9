//! The line the search walks from the root down: the tree's nodes and their positions,
//! every one of them entered in the game (see [`GameTree::enter`]).

use super::game_tree::GameTree;
use super::tree::{NodeId, Tree};
use super::window;

/// The nodes from the root down to the one the search works at, with their positions.
pub(super) struct Path<P> {
    ids: Vec<NodeId>,
    positions: Vec<P>,
}

impl<P: Clone> Path<P> {
    /// An empty path.
    pub fn new() -> Path<P> {
        Path { ids: Vec::new(), positions: Vec::new() }
    }

    /// The node ids from the root down.
    pub fn ids(&self) -> &[NodeId] {
        &self.ids
    }

    /// The number of nodes on the path.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// The last node (the one worked at).
    pub fn last(&self) -> NodeId {
        *self.ids.last().expect("the path holds the root")
    }

    /// The position of the node at `ply`.
    pub fn pos(&self, ply: usize) -> &P {
        &self.positions[ply]
    }

    /// The position of the last node.
    pub fn last_pos(&self) -> &P {
        self.positions.last().expect("one position per path node")
    }

    /// The plies by which the moves of the path extend it down to its node at `ply`.
    pub fn extension(&self, tree: &Tree, ply: usize) -> u32 {
        window::path_extension(tree, &self.ids, ply)
    }

    /// Starts the path at the tree's root, entering the root's position `root` in the game.
    pub fn enter_root<G: GameTree<Pos = P>>(&mut self, game: &mut G, tree: &Tree, root: &P) {
        self.ids.clear();
        self.positions.clear();
        game.enter(root);
        self.ids.push(tree.root());
        self.positions.push(root.clone());
    }

    /// Extends the path by `son` of its last node, entering the son's position in the game.
    pub fn descend<G: GameTree<Pos = P>>(&mut self, game: &mut G, tree: &Tree, son: NodeId) {
        let pos = self.last_pos();
        let mv = game.decode(pos, tree.node(son).mv()).expect("tree moves are legal in their position");
        let next = game.play(pos, mv);
        game.enter(&next);
        self.ids.push(son);
        self.positions.push(next);
    }

    /// Takes the path back to its first `len` nodes, leaving the others' positions.
    pub fn truncate<G: GameTree<Pos = P>>(&mut self, game: &mut G, len: usize) {
        for _ in len..self.ids.len() {
            game.leave();
        }
        self.ids.truncate(len);
        self.positions.truncate(len);
    }

    /// Leaves every position of the path; the path is empty after.
    pub fn leave<G: GameTree<Pos = P>>(&mut self, game: &mut G) {
        self.truncate(game, 0);
    }
}
