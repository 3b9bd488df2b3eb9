//! The learned weights of the evaluation, (middlegame, endgame) centipawns per entry.
//!
//! Written by `harrier tune`; change the tuner or run it again rather than edit this file.

use super::score::{S, s};

/// Material by role: pawn, knight, bishop, rook, queen.
#[rustfmt::skip]
pub const MATERIAL: [S; 5] = [s(90, 120), s(320, 300), s(335, 320), s(470, 530), s(960, 980)];

/// Pawn placement by square, seen from the owner's side (a1 = 0).
#[rustfmt::skip]
pub const PAWN_SQUARES: [S; 64] = [
    s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
    s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
    s(2, 4), s(2, 4), s(2, 4), s(2, 4), s(2, 4), s(2, 4), s(2, 4), s(2, 4),
    s(6, 10), s(6, 10), s(6, 10), s(18, 10), s(18, 10), s(6, 10), s(6, 10), s(6, 10),
    s(14, 24), s(14, 24), s(14, 24), s(26, 24), s(26, 24), s(14, 24), s(14, 24), s(14, 24),
    s(28, 50), s(28, 50), s(28, 50), s(28, 50), s(28, 50), s(28, 50), s(28, 50), s(28, 50),
    s(50, 90), s(50, 90), s(50, 90), s(50, 90), s(50, 90), s(50, 90), s(50, 90), s(50, 90),
    s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
];

/// Knight placement by square, seen from the owner's side.
#[rustfmt::skip]
pub const KNIGHT_SQUARES: [S; 64] = [
    s(-21, -15), s(-14, -10), s(-7, -5), s(0, 0), s(0, 0), s(-7, -5), s(-14, -10), s(-21, -15),
    s(-14, -10), s(-7, -5), s(0, 0), s(7, 5), s(7, 5), s(0, 0), s(-7, -5), s(-14, -10),
    s(-7, -5), s(0, 0), s(7, 5), s(14, 10), s(14, 10), s(7, 5), s(0, 0), s(-7, -5),
    s(0, 0), s(7, 5), s(14, 10), s(21, 15), s(21, 15), s(14, 10), s(7, 5), s(0, 0),
    s(0, 0), s(7, 5), s(14, 10), s(21, 15), s(21, 15), s(14, 10), s(7, 5), s(0, 0),
    s(-7, -5), s(0, 0), s(7, 5), s(14, 10), s(14, 10), s(7, 5), s(0, 0), s(-7, -5),
    s(-14, -10), s(-7, -5), s(0, 0), s(7, 5), s(7, 5), s(0, 0), s(-7, -5), s(-14, -10),
    s(-21, -15), s(-14, -10), s(-7, -5), s(0, 0), s(0, 0), s(-7, -5), s(-14, -10), s(-21, -15),
];

/// Bishop placement by square, seen from the owner's side.
#[rustfmt::skip]
pub const BISHOP_SQUARES: [S; 64] = [
    s(-9, -9), s(-6, -6), s(-3, -3), s(0, 0), s(0, 0), s(-3, -3), s(-6, -6), s(-9, -9),
    s(-6, -6), s(-3, -3), s(0, 0), s(3, 3), s(3, 3), s(0, 0), s(-3, -3), s(-6, -6),
    s(-3, -3), s(0, 0), s(3, 3), s(6, 6), s(6, 6), s(3, 3), s(0, 0), s(-3, -3),
    s(0, 0), s(3, 3), s(6, 6), s(9, 9), s(9, 9), s(6, 6), s(3, 3), s(0, 0),
    s(0, 0), s(3, 3), s(6, 6), s(9, 9), s(9, 9), s(6, 6), s(3, 3), s(0, 0),
    s(-3, -3), s(0, 0), s(3, 3), s(6, 6), s(6, 6), s(3, 3), s(0, 0), s(-3, -3),
    s(-6, -6), s(-3, -3), s(0, 0), s(3, 3), s(3, 3), s(0, 0), s(-3, -3), s(-6, -6),
    s(-9, -9), s(-6, -6), s(-3, -3), s(0, 0), s(0, 0), s(-3, -3), s(-6, -6), s(-9, -9),
];

/// Rook placement by square, seen from the owner's side.
#[rustfmt::skip]
pub const ROOK_SQUARES: [S; 64] = [
    s(0, -3), s(0, -2), s(0, -1), s(0, 0), s(0, 0), s(0, -1), s(0, -2), s(0, -3),
    s(0, -2), s(0, -1), s(0, 0), s(0, 1), s(0, 1), s(0, 0), s(0, -1), s(0, -2),
    s(0, -1), s(0, 0), s(0, 1), s(0, 2), s(0, 2), s(0, 1), s(0, 0), s(0, -1),
    s(0, 0), s(0, 1), s(0, 2), s(0, 3), s(0, 3), s(0, 2), s(0, 1), s(0, 0),
    s(0, 0), s(0, 1), s(0, 2), s(0, 3), s(0, 3), s(0, 2), s(0, 1), s(0, 0),
    s(0, -1), s(0, 0), s(0, 1), s(0, 2), s(0, 2), s(0, 1), s(0, 0), s(0, -1),
    s(0, -2), s(0, -1), s(0, 0), s(0, 1), s(0, 1), s(0, 0), s(0, -1), s(0, -2),
    s(0, -3), s(0, -2), s(0, -1), s(0, 0), s(0, 0), s(0, -1), s(0, -2), s(0, -3),
];

/// Queen placement by square, seen from the owner's side.
#[rustfmt::skip]
pub const QUEEN_SQUARES: [S; 64] = [
    s(-6, -12), s(-4, -8), s(-2, -4), s(0, 0), s(0, 0), s(-2, -4), s(-4, -8), s(-6, -12),
    s(-4, -8), s(-2, -4), s(0, 0), s(2, 4), s(2, 4), s(0, 0), s(-2, -4), s(-4, -8),
    s(-2, -4), s(0, 0), s(2, 4), s(4, 8), s(4, 8), s(2, 4), s(0, 0), s(-2, -4),
    s(0, 0), s(2, 4), s(4, 8), s(6, 12), s(6, 12), s(4, 8), s(2, 4), s(0, 0),
    s(0, 0), s(2, 4), s(4, 8), s(6, 12), s(6, 12), s(4, 8), s(2, 4), s(0, 0),
    s(-2, -4), s(0, 0), s(2, 4), s(4, 8), s(4, 8), s(2, 4), s(0, 0), s(-2, -4),
    s(-4, -8), s(-2, -4), s(0, 0), s(2, 4), s(2, 4), s(0, 0), s(-2, -4), s(-4, -8),
    s(-6, -12), s(-4, -8), s(-2, -4), s(0, 0), s(0, 0), s(-2, -4), s(-4, -8), s(-6, -12),
];

/// King placement by square, seen from the owner's side.
#[rustfmt::skip]
pub const KING_SQUARES: [S; 64] = [
    s(18, -24), s(28, -16), s(8, -8), s(-6, 0), s(-6, 0), s(8, -8), s(28, -16), s(18, -24),
    s(-22, -16), s(-22, -8), s(-22, 0), s(-22, 8), s(-22, 8), s(-22, 0), s(-22, -8), s(-22, -16),
    s(-44, -8), s(-44, 0), s(-44, 8), s(-44, 16), s(-44, 16), s(-44, 8), s(-44, 0), s(-44, -8),
    s(-66, 0), s(-66, 8), s(-66, 16), s(-66, 24), s(-66, 24), s(-66, 16), s(-66, 8), s(-66, 0),
    s(-88, 0), s(-88, 8), s(-88, 16), s(-88, 24), s(-88, 24), s(-88, 16), s(-88, 8), s(-88, 0),
    s(-110, -8), s(-110, 0), s(-110, 8), s(-110, 16), s(-110, 16), s(-110, 8), s(-110, 0), s(-110, -8),
    s(-132, -16), s(-132, -8), s(-132, 0), s(-132, 8), s(-132, 8), s(-132, 0), s(-132, -8), s(-132, -16),
    s(-154, -24), s(-154, -16), s(-154, -8), s(-154, 0), s(-154, 0), s(-154, -8), s(-154, -16), s(-154, -24),
];

/// Knight by number of safe squares it reaches.
#[rustfmt::skip]
pub const KNIGHT_MOBILITY: [S; 9] = [
    s(-16, -16), s(-12, -12), s(-8, -8), s(-4, -4), s(0, 0), s(4, 4), s(8, 8), s(12, 12),
    s(16, 16),
];

/// Bishop by number of safe squares it reaches.
#[rustfmt::skip]
pub const BISHOP_MOBILITY: [S; 14] = [
    s(-30, -30), s(-25, -25), s(-20, -20), s(-15, -15), s(-10, -10), s(-5, -5), s(0, 0), s(5, 5),
    s(10, 10), s(15, 15), s(20, 20), s(25, 25), s(30, 30), s(35, 35),
];

/// Rook by number of safe squares it reaches.
#[rustfmt::skip]
pub const ROOK_MOBILITY: [S; 15] = [
    s(-14, -28), s(-12, -24), s(-10, -20), s(-8, -16), s(-6, -12), s(-4, -8), s(-2, -4), s(0, 0),
    s(2, 4), s(4, 8), s(6, 12), s(8, 16), s(10, 20), s(12, 24), s(14, 28),
];

/// Queen by number of safe squares it reaches.
#[rustfmt::skip]
pub const QUEEN_MOBILITY: [S; 28] = [
    s(-13, -26), s(-12, -24), s(-11, -22), s(-10, -20), s(-9, -18), s(-8, -16), s(-7, -14), s(-6, -12),
    s(-5, -10), s(-4, -8), s(-3, -6), s(-2, -4), s(-1, -2), s(0, 0), s(1, 2), s(2, 4),
    s(3, 6), s(4, 8), s(5, 10), s(6, 12), s(7, 14), s(8, 16), s(9, 18), s(10, 20),
    s(11, 22), s(12, 24), s(13, 26), s(14, 28),
];

/// A pawn with an own pawn in front of it on its file.
#[rustfmt::skip]
pub const PAWN_DOUBLED: [S; 1] = [s(-10, -20)];

/// A pawn without own pawns on the neighbouring files: opposed, unopposed.
#[rustfmt::skip]
pub const PAWN_ISOLATED: [S; 2] = [s(-10, -10), s(-15, -15)];

/// A pawn behind its neighbours whose advance an enemy pawn stops: opposed, unopposed.
#[rustfmt::skip]
pub const PAWN_BACKWARD: [S; 2] = [s(-5, -5), s(-10, -10)];

/// A pawn defended by a pawn, by relative rank.
#[rustfmt::skip]
pub const PAWN_CONNECTED: [S; 8] = [s(0, 0), s(0, 0), s(8, 4), s(10, 6), s(15, 12), s(25, 25), s(40, 40), s(0, 0)];

/// A pawn with an own pawn beside it, by relative rank.
#[rustfmt::skip]
pub const PAWN_PHALANX: [S; 8] = [s(0, 0), s(0, 0), s(5, 2), s(8, 4), s(12, 10), s(20, 20), s(30, 30), s(0, 0)];

/// An unopposed pawn with at least as many helpers as stoppers, by relative rank.
#[rustfmt::skip]
pub const PAWN_CANDIDATE: [S; 8] = [s(0, 0), s(0, 0), s(2, 5), s(4, 8), s(8, 15), s(15, 30), s(0, 0), s(0, 0)];

/// A passed pawn, by relative rank.
#[rustfmt::skip]
pub const PASSED_RANK: [S; 8] = [s(0, 0), s(0, 5), s(0, 10), s(5, 20), s(15, 40), s(30, 70), s(50, 110), s(0, 0)];

/// A passed pawn whose next square is empty and not attacked, by relative rank.
#[rustfmt::skip]
pub const PASSED_SAFE_PUSH: [S; 8] = [s(0, 0), s(0, 0), s(0, 2), s(0, 5), s(2, 10), s(5, 20), s(10, 35), s(0, 0)];

/// A passed pawn whose whole path is empty and not attacked, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [S; 8] = [s(0, 0), s(0, 0), s(0, 2), s(0, 5), s(5, 15), s(10, 30), s(20, 50), s(0, 0)];

/// A passed pawn by its own king's distance to the square in front.
#[rustfmt::skip]
pub const PASSED_OWN_KING: [S; 8] = [s(0, 0), s(0, 10), s(0, 5), s(0, 0), s(0, -5), s(0, -10), s(0, -15), s(0, -20)];

/// A passed pawn by the enemy king's distance to the square in front.
#[rustfmt::skip]
pub const PASSED_THEIR_KING: [S; 8] = [s(0, -30), s(0, -15), s(0, -5), s(0, 0), s(0, 5), s(0, 10), s(0, 15), s(0, 20)];

/// A rook behind a passed pawn: the owner's, the enemy's.
#[rustfmt::skip]
pub const PASSED_ROOK_BEHIND: [S; 2] = [s(5, 15), s(-5, -15)];

/// A passed pawn a bare king cannot catch (the square rule).
#[rustfmt::skip]
pub const PASSED_UNSTOPPABLE: [S; 1] = [s(0, 200)];

/// The nearest own pawn ahead on each file at the king: [king's file][relative rank, 0 none].
#[rustfmt::skip]
pub const KING_SHELTER: [S; 16] = [
    s(-20, 0), s(0, 0), s(15, 0), s(10, 0), s(5, 0), s(0, 0), s(0, 0), s(0, 0),
    s(-30, 0), s(0, 0), s(20, 0), s(12, 0), s(5, 0), s(0, 0), s(0, 0), s(0, 0),
];

/// The nearest enemy pawn ahead on each file at the king: [blocked][relative rank, 0 none].
#[rustfmt::skip]
pub const KING_STORM: [S; 16] = [
    s(0, 0), s(0, 0), s(0, 0), s(-20, 0), s(-10, 0), s(-5, 0), s(0, 0), s(0, 0),
    s(0, 0), s(0, 0), s(0, 0), s(-5, 0), s(-3, 0), s(0, 0), s(0, 0), s(0, 0),
];

/// A file at the king without own pawns: half-open, open.
#[rustfmt::skip]
pub const KING_OPEN_FILE: [S; 2] = [s(-10, 0), s(-15, 0)];

/// King-attack units per piece bearing on the enemy king zone: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const SAFETY_ATTACKER: [S; 4] = [s(20, 5), s(20, 5), s(30, 5), s(40, 5)];

/// King-attack units per attack on a square of the enemy king zone.
#[rustfmt::skip]
pub const SAFETY_ZONE_ATTACKS: [S; 1] = [s(10, 2)];

/// King-attack units per zone square defended only by the king or queen, or not at all.
#[rustfmt::skip]
pub const SAFETY_WEAK_SQUARES: [S; 1] = [s(20, 5)];

/// King-attack units per safe checking square: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const SAFETY_SAFE_CHECK: [S; 4] = [s(50, 5), s(40, 5), s(60, 5), s(50, 5)];

/// King-attack units when the attacker has no queen.
#[rustfmt::skip]
pub const SAFETY_NO_QUEEN: [S; 1] = [s(-100, -20)];

/// King-attack units of every counted attack.
#[rustfmt::skip]
pub const SAFETY_OFFSET: [S; 1] = [s(-30, -10)];

/// An enemy piece attacked by a pawn: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [S; 4] = [s(40, 30), s(40, 30), s(50, 40), s(50, 40)];

/// An enemy attacked by a minor piece, by victim (pawn to queen; minors and pawns only when no pawn defends them).
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [S; 5] = [s(5, 15), s(20, 20), s(20, 20), s(40, 40), s(40, 40)];

/// An enemy attacked by a rook, by victim (pawn to queen; the queen always, others when no pawn defends them).
#[rustfmt::skip]
pub const THREAT_BY_ROOK: [S; 5] = [s(2, 15), s(15, 20), s(15, 20), s(0, 0), s(30, 30)];

/// An enemy piece attacked and not defended.
#[rustfmt::skip]
pub const THREAT_HANGING: [S; 1] = [s(30, 15)];

/// An enemy piece a safe pawn push would attack.
#[rustfmt::skip]
pub const THREAT_PAWN_PUSH: [S; 1] = [s(15, 10)];

/// Both bishops.
#[rustfmt::skip]
pub const BISHOP_PAIR: [S; 1] = [s(28, 48)];

/// Per own pawn on the squares of a bishop's colour.
#[rustfmt::skip]
pub const BISHOP_PAWNS: [S; 1] = [s(-2, -4)];

/// A minor piece no enemy pawn can chase away, on ranks 4 to 6: [bishop][defended by a pawn].
#[rustfmt::skip]
pub const OUTPOST: [S; 4] = [s(15, 5), s(25, 10), s(8, 3), s(15, 5)];

/// A minor piece right behind an own pawn.
#[rustfmt::skip]
pub const MINOR_BEHIND_PAWN: [S; 1] = [s(8, 0)];

/// A rook on a file without own pawns: half-open, open.
#[rustfmt::skip]
pub const ROOK_FILE: [S; 2] = [s(10, 5), s(25, 10)];

/// A queen on a file without own pawns: half-open, open.
#[rustfmt::skip]
pub const QUEEN_FILE: [S; 2] = [s(3, 3), s(5, 5)];

/// A rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
#[rustfmt::skip]
pub const ROOK_SEVENTH: [S; 1] = [s(10, 20)];

/// A queen on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
#[rustfmt::skip]
pub const QUEEN_SEVENTH: [S; 1] = [s(5, 10)];

/// Per safe central square behind the pawns, by the owner's number of pieces.
#[rustfmt::skip]
pub const SPACE: [S; 8] = [s(0, 0), s(0, 0), s(1, 0), s(1, 0), s(2, 0), s(2, 0), s(3, 0), s(3, 0)];

/// The side to move.
#[rustfmt::skip]
pub const TEMPO: [S; 1] = [s(10, 10)];
