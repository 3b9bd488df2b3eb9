//! What the search keeps for each ply of the line it is on.

use super::history::{NO_PIECE_TO, PieceTo};
use crate::moves::{MoveCode, NO_MOVE};

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
