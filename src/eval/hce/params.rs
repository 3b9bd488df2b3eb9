//! The evaluation's hand-set numbers: phase, the king-attack curve, endgame scaling and
//! the pawn cache. The learned weights live in `weights.rs`.

/// Game-phase weight of each role (pawn, knight, bishop, rook, queen, king).
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the starting position: 4 minors, 4 rooks, 2 queens.
pub const PHASE_TOTAL: i32 = 24;

/// King-attack units `u` are worth `u² / SAFETY_MG_DIVISOR` in the middlegame: a lone
/// attacker is harmless, several together are deadly.
pub const SAFETY_MG_DIVISOR: i32 = 720;
/// ...and `u / SAFETY_EG_DIVISOR` in the endgame.
pub const SAFETY_EG_DIVISOR: i32 = 20;

/// The endgame score's full scale: no drawish pattern on the board.
pub const SCALE_NORMAL: i32 = 128;
/// The stronger side has no pawns and at most a minor piece: it cannot win.
pub const SCALE_NO_MATING_MATERIAL: i32 = 0;
/// The stronger side has no pawns and is at most a minor piece ahead (KRvKB, KRNvKR).
pub const SCALE_NO_PAWNS_MINOR_EDGE: i32 = 16;
/// Bishops of opposite colours and no other pieces.
pub const SCALE_OPPOSITE_BISHOPS: i32 = 64;
/// Bishops of opposite colours with other pieces beside them.
pub const SCALE_OPPOSITE_BISHOPS_WITH_PIECES: i32 = 104;
/// A rook each, at most a pawn apart, the stronger side's pawns all on one wing.
pub const SCALE_ROOK_ENDING: i32 = 96;
/// Known draws: same-coloured bishops with every pawn of the leader blocked and the other
/// side's pawns out of its bishop's reach (see `draws`).
pub const SCALE_BLOCKED_BISHOPS: i32 = 16;

/// Entries of each thread's pawn-structure cache (a power of two).
pub const PAWN_CACHE_ENTRIES: usize = 1 << 14;
