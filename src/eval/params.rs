//! Every weight of the evaluation, in centipawns, as (middlegame, endgame) pairs.
//!
//! The piece-square tables are built from a few shape parameters (centralisation, pawn
//! advance, king shelter) rather than typed out square by square, so that the tuning issue
//! can fit a handful of numbers instead of 768.

/// A middlegame/endgame pair of weights.
pub type Pair = (i32, i32);

/// Material values, indexed by role (pawn, knight, bishop, rook, queen, king).
pub const MATERIAL: [Pair; 6] = [(90, 120), (320, 300), (335, 320), (470, 530), (960, 980), (0, 0)];

/// Game-phase weight of each role; a full board sums to [`PHASE_TOTAL`].
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the starting position: 4 minors, 4 rooks, 2 queens.
pub const PHASE_TOTAL: i32 = 24;

/// Pawn advance bonus by relative rank (rank 2 = index 1, rank 7 = index 6).
pub const PAWN_ADVANCE: [Pair; 8] = [(0, 0), (0, 0), (2, 4), (6, 10), (14, 24), (28, 50), (50, 90), (0, 0)];
/// Extra middlegame bonus for d- and e-pawns on ranks 4 and 5 (central control).
pub const PAWN_CENTER: i32 = 12;

/// Centralisation bonus per step towards the centre (Manhattan distance), per role.
pub const CENTRALISATION: [Pair; 6] = [(0, 0), (7, 5), (3, 3), (0, 1), (2, 4), (0, 8)];

/// Rook on the seventh rank.
pub const ROOK_SEVENTH: Pair = (18, 12);

/// Middlegame king placement on the first rank, by file (shelter after castling).
pub const KING_HOME_RANK: [i32; 8] = [18, 28, 8, -6, -6, 8, 28, 18];
/// Middlegame penalty per rank the king has left its first rank.
pub const KING_ADVANCE: i32 = -22;

/// Mobility weight per reachable square, per role.
pub const MOBILITY: [Pair; 6] = [(0, 0), (4, 4), (5, 5), (2, 4), (1, 2), (0, 0)];
/// Typical mobility per role: mobility below it is a penalty, above it a bonus.
pub const MOBILITY_BASE: [i32; 6] = [0, 4, 6, 7, 13, 0];

/// Owning both bishops.
pub const BISHOP_PAIR: Pair = (28, 48);

/// Bonus for the side to move.
pub const TEMPO: i32 = 10;
