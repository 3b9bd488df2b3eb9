//! The value scale every layer shares: centipawns for the side to move, with mates and
//! tablebase results above every evaluation. The search produces these values, the
//! transposition table stores them, and the training data keeps only positions whose
//! score is neither a mate nor a tablebase result.

/// The deepest ply any search line may reach (mate distances are counted within it).
pub const MAX_PLY: usize = 128;
/// The value of delivering mate at the root; mate in `n` plies is `MATE - n`.
pub const MATE: i32 = 32_000;
/// Larger than any value a search returns.
pub const INFINITY: i32 = 32_001;
/// Values at or beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The value of a tablebase win at the root: below every mate score, above every
/// evaluation; a win `ply` plies away is worth `TB_WIN - ply`.
pub const TB_WIN: i32 = MATE_BOUND - 1 - MAX_PLY as i32;
/// Values beyond this magnitude are tablebase wins or losses (or mates).
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// The value for the side to move when it mates in `ply` plies.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The value for the side to move when it is mated in `ply` plies.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}
