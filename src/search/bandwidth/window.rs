//! The value arithmetic of the bandwidth search over the tree: backing up, the keys sons
//! are compared by, the band, and the alpha-beta windows a node's estimate needs from the
//! nodes above it.

use crate::search::{MATE, MATE_BOUND};

use super::game_tree::Window;
use super::params::{BandwidthParams, MAX_BAND};
use super::tree::{DROPPED, Node, NodeId, PROVEN, Tree};

/// A value below every value a node can hold.
pub(super) const NO_VALUE: i32 = i32::MIN / 2;

/// One ply of backing up: the father's view of a son's value, mates one ply longer.
#[inline]
pub fn back_up(son_value: i32) -> i32 {
    let v = -son_value;
    if v >= MATE_BOUND {
        v - 1
    } else if v <= -MATE_BOUND {
        v + 1
    } else {
        v
    }
}

/// How sons are compared and which of them lie in the band: the band width B and the
/// depth penalty g' of the settings.
#[derive(Clone, Copy, Debug)]
pub(super) struct Band {
    width: i32,
    depth_penalty: i32,
}

impl Band {
    /// The band the settings ask for.
    pub fn of(params: &BandwidthParams) -> Band {
        Band { width: params.band, depth_penalty: params.applied_depth_penalty() }
    }

    /// True if the band drops nothing: pure best-first minimax.
    pub fn is_unlimited(&self) -> bool {
        self.width >= MAX_BAND
    }

    /// The band width B: sons more than this below their best brother are out of the band.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// True if keys are plain backed-up values (no depth penalty).
    pub fn keys_are_values(&self) -> bool {
        self.depth_penalty == 0
    }

    /// A son's value from its father's view, penalized by the depth of its principal line:
    /// what choosers compare (the alternating g' of Harris).
    #[inline]
    pub fn key(&self, son: &Node) -> i32 {
        back_up(son.value()) - self.depth_penalty * son.pvlen() as i32
    }

    /// True if a son with `key` lies in the band of a brother with `best_key`.
    #[inline]
    pub fn contains(&self, key: i32, best_key: i32) -> bool {
        self.is_unlimited() || key >= best_key - self.width
    }

    /// The window of a son whose father's best key (among the other sons) is `best`: from
    /// the son's side, values at or above its top put the son out of the band, so a bound
    /// is enough there. Exact everywhere without a band, or without a best key yet.
    pub fn window(&self, best: i32) -> Window {
        if best == NO_VALUE || self.is_unlimited() {
            return Window::FULL;
        }
        son_window(Window::FULL, Some(best), self.width)
    }

    /// The window of a son, chained from its father's window (see [`son_window`]).
    pub fn son_window(&self, father: Window, brother: Option<i32>) -> Window {
        son_window(father, brother, self.width)
    }
}

/// The window of a son whose father needs `father`, and whose best brother whose value
/// is known has key `brother` (from the father's side), under a band of `band`. From the
/// son's side, values at or below `alpha` take the father above its window; values at or
/// above `beta` leave the son outside the band of that brother, or, where the brothers do
/// not reach the father's window, take the father below it. (Where they do, the band
/// rules: a son inside it is selected even below the father's window.) Edges of the
/// father's window in the mate range become no edge, since backing up shifts mate values
/// by a ply; the band's edge is placed where the son's value, backed up, falls below it.
pub fn son_window(father: Window, brother: Option<i32>, band: i32) -> Window {
    let plain = |edge: i32| edge.abs() < MATE_BOUND;
    let alpha = if plain(father.beta) { -father.beta } else { Window::FULL.alpha };
    let beta = match brother {
        Some(best) if best > father.alpha => least_value_backing_up_below(best - band),
        _ if plain(father.alpha) => -father.alpha,
        _ => Window::FULL.beta,
    };
    Window { alpha, beta }
}

/// The least value of a son whose [backed-up](back_up) value is below `key`. Outside the
/// mate range that is `1 - key`; inside it the shift of a ply moves it by one, without
/// which a son tying its mating brother would be asked whether it lies at or above a top
/// that it reaches and yet stays in the band: a bound, selected and asked again for ever.
fn least_value_backing_up_below(key: i32) -> i32 {
    let backing_up_to_key = if key >= MATE_BOUND {
        -key - 1
    } else if key <= -MATE_BOUND {
        1 - key
    } else {
        -key
    };
    backing_up_to_key + 1
}

/// The length in plies of the shortest mate a proven son gives the side to move at `id`,
/// if any.
pub(super) fn proven_win(tree: &Tree, id: NodeId) -> Option<i32> {
    tree.children(id)
        .map(|c| tree.node(c))
        .filter(|son| son.has(PROVEN) && !son.has(DROPPED))
        .map(|son| back_up(son.value()))
        .filter(|&v| v >= MATE_BOUND)
        .max()
        .map(|v| MATE - v)
}

/// The plies by which the moves of `path` (node ids from the root down) extend it down
/// to its node at `ply` (the root's own move, made before the search, does not count).
pub(super) fn path_extension(tree: &Tree, path: &[NodeId], ply: usize) -> u32 {
    path[1..=ply].iter().map(|&id| tree.node(id).extension()).sum()
}

/// The window the node at the end of `path` needs, alpha-beta style: from the root down,
/// each node's window follows from its father's and its brothers' (see [`son_window`]). A
/// tip deep in a son that is out of the band at the root is so asked only whether it
/// brings that son back, not for its exact value among its own brothers. Empty
/// (`alpha >= beta`) when the brothers of some node of the path already put its father
/// outside the father's window. Where keys are not values (a depth penalty), only the band
/// at the tip's father counts; where the band does not rule selection (no band, or a
/// proven mate on the path that selection hunts a faster one for), every value is exact.
/// `unreliable` tells the tips whose values are not known (see [`best_known_brother`]).
pub(super) fn path_window(tree: &Tree, band: Band, path: &[NodeId], unreliable: Unreliable) -> Window {
    if band.is_unlimited() || path.len() < 2 {
        return Window::FULL;
    }
    let mut window = Window::FULL;
    for k in 1..path.len() {
        let father = path[k - 1];
        if proven_win(tree, father).is_some() {
            return Window::FULL;
        }
        window = if band.keys_are_values() {
            band.son_window(window, best_known_brother(tree, band, path, k, unreliable))
        } else {
            brothers_window(tree, band, path, k, unreliable)
        };
    }
    window
}

/// Tells whether the value of a tip (`ply` plies below the root, on a line extended by the
/// given plies) is unknown: see [`LookAhead::unreliable`](super::schedule::LookAhead::unreliable).
pub(super) type Unreliable<'a> = &'a dyn Fn(&Node, usize, u32) -> bool;

/// The window the node of `path` at `ply` needs from its brothers alone: the band of the
/// best one whose value is known.
pub(super) fn brothers_window(tree: &Tree, band: Band, path: &[NodeId], ply: usize, unreliable: Unreliable) -> Window {
    best_known_brother(tree, band, path, ply, unreliable).map_or(Window::FULL, |best| band.window(best))
}

/// The best key among the brothers of the node of `path` at `ply` whose values are known
/// (not unreliable tips), from the father's side.
fn best_known_brother(tree: &Tree, band: Band, path: &[NodeId], ply: usize, unreliable: Unreliable) -> Option<i32> {
    let (father, id) = (path[ply - 1], path[ply]);
    let above = path_extension(tree, path, ply - 1);
    tree.children(father)
        .filter(|&c| c != id)
        .map(|c| tree.node(c))
        .filter(|son| !(son.has(DROPPED) || son.is_tip() && unreliable(son, ply, above + son.extension())))
        .map(|son| band.key(son))
        .max()
}
