//! The line a search thread is on: the keys of the positions from the game's start to the
//! current node, what it keeps for each ply, and the principal variations found.

use super::history::{NO_PIECE_TO, PieceTo};
use crate::moves::{MoveCode, NO_MOVE};
use crate::search::MAX_PLY;

/// One ply of the current line.
#[derive(Clone, Copy, Debug)]
pub struct PlyState {
    /// The move being searched at this ply, as piece and destination ([`NO_PIECE_TO`] for
    /// a null move): the earlier move of the plies below for continuation history.
    pub moved: PieceTo,
    /// The corrected static evaluation at this ply; `None` in check or not known.
    pub static_eval: Option<i32>,
    /// The move a singular-extension search at this ply leaves out ([`NO_MOVE`]: none).
    pub excluded: MoveCode,
}

impl Default for PlyState {
    fn default() -> PlyState {
        PlyState { moved: NO_PIECE_TO, static_eval: None, excluded: NO_MOVE }
    }
}

/// The current line and the principal variations below each of its plies.
pub struct SearchLine {
    /// Keys of the game's positions before the root, then of the root and the line.
    pub keys: Vec<u64>,
    /// The root's place in `keys`: repetitions after it count at once.
    pub root_index: usize,
    /// What each ply of the line keeps.
    pub plies: Vec<PlyState>,
    /// The principal variation found below each ply, as move codes.
    pv: Box<[[MoveCode; MAX_PLY + 1]; MAX_PLY + 1]>,
    /// The length of each ply's principal variation.
    pub pv_len: [usize; MAX_PLY + 2],
}

impl Default for SearchLine {
    fn default() -> SearchLine {
        SearchLine {
            keys: Vec::with_capacity(1024),
            root_index: 0,
            plies: vec![PlyState::default(); MAX_PLY + 2],
            pv: Box::new([[NO_MOVE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 2],
        }
    }
}

impl SearchLine {
    /// Starts a line at a root whose key is `root_key`, after the game's positions
    /// `history` (oldest first).
    pub fn set_root(&mut self, history: &[u64], root_key: u64) {
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.root_index = self.keys.len();
        self.keys.push(root_key);
    }

    /// Makes `code` followed by the child's line the principal variation at `ply`.
    #[inline]
    pub fn update_pv(&mut self, ply: usize, code: MoveCode) {
        let child_len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[0] = code;
        line[1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// The root's principal variation.
    pub fn principal_codes(&self) -> &[MoveCode] {
        &self.pv[0][..self.pv_len[0]]
    }
}
