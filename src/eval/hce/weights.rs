//! The learned weights of the evaluation, (middlegame, endgame) centipawns per entry.
//!
//! Written by `harrier tune`; change the tuner or run it again rather than edit this file.

use super::score::{S, s};

/// Material by role: pawn, knight, bishop, rook, queen.
#[rustfmt::skip]
pub const MATERIAL: [S; 5] = [s(57, 119), s(227, 515), s(288, 488), s(313, 852), s(696, 1445)];

/// Pawn placement by square, seen from the owner's side (a1 = 0).
#[rustfmt::skip]
pub const PAWN_SQUARES: [S; 64] = [
    s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
    s(0, 15), s(-12, 40), s(-17, 37), s(-5, -40), s(-16, 28), s(15, 19), s(32, 4), s(-19, 5),
    s(-22, 10), s(-34, 27), s(-45, 26), s(-37, 6), s(-45, 15), s(-7, 5), s(-6, -3), s(-20, -3),
    s(1, 23), s(3, 24), s(-5, 5), s(-12, 4), s(0, -4), s(3, 14), s(30, -5), s(4, 8),
    s(11, 35), s(30, 12), s(5, 14), s(51, -27), s(56, -20), s(30, -1), s(37, -14), s(20, 14),
    s(7, 58), s(63, 25), s(92, -12), s(80, -9), s(111, -14), s(171, -17), s(21, 37), s(-1, 59),
    s(22, 115), s(72, 96), s(91, 134), s(64, 71), s(99, 78), s(146, 77), s(39, 134), s(48, 82),
    s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
];

/// Knight placement by square, seen from the owner's side.
#[rustfmt::skip]
pub const KNIGHT_SQUARES: [S; 64] = [
    s(-113, -67), s(-40, -73), s(-47, -28), s(-38, -47), s(-32, -16), s(-15, -41), s(-29, -67), s(-80, -104),
    s(-56, -39), s(-36, -9), s(-21, -10), s(-14, 13), s(-9, 9), s(8, -2), s(10, -41), s(-14, -37),
    s(-47, -16), s(-31, 5), s(-20, 39), s(8, 72), s(37, 48), s(-5, 39), s(16, 11), s(-8, 11),
    s(-22, -18), s(23, 37), s(17, 72), s(20, 65), s(26, 86), s(43, 63), s(58, 40), s(19, -22),
    s(-58, 31), s(-18, 47), s(18, 71), s(36, 91), s(-3, 87), s(15, 75), s(0, 57), s(-2, 7),
    s(-39, 33), s(-10, 69), s(13, 79), s(44, 66), s(20, 90), s(26, 116), s(58, 53), s(58, 10),
    s(-14, 11), s(7, 1), s(35, 33), s(70, 38), s(126, 40), s(-5, 33), s(-45, 22), s(66, 1),
    s(-221, -91), s(-16, 29), s(11, 49), s(-1, 0), s(180, 9), s(-17, 19), s(169, -84), s(-253, 76),
];

/// Bishop placement by square, seen from the owner's side.
#[rustfmt::skip]
pub const BISHOP_SQUARES: [S; 64] = [
    s(8, -10), s(19, -25), s(-10, 16), s(-19, 42), s(-23, 37), s(-29, 47), s(-35, 49), s(-46, 25),
    s(-32, 26), s(-32, 16), s(15, 18), s(-21, 34), s(-26, 45), s(-18, 31), s(-9, 19), s(-7, 23),
    s(-23, 75), s(-15, 48), s(-50, 59), s(-22, 48), s(-22, 58), s(-25, 50), s(-8, 35), s(-8, 71),
    s(-2, 41), s(-14, 58), s(-21, 93), s(-10, 78), s(-14, 67), s(-3, 66), s(8, 64), s(30, 20),
    s(-39, 76), s(-6, 61), s(3, 81), s(-11, 92), s(10, 72), s(35, 53), s(11, 77), s(-12, 47),
    s(-25, 89), s(-27, 82), s(-42, 120), s(-12, 75), s(37, 59), s(-11, 116), s(68, 67), s(17, 74),
    s(-39, 87), s(-1, 80), s(3, 82), s(-16, 88), s(86, 66), s(55, 72), s(30, 55), s(-66, 70),
    s(-73, 108), s(38, 92), s(30, 64), s(-54, 81), s(-56, 75), s(4, 74), s(-19, 77), s(-99, 22),
];

/// Rook placement by square, seen from the owner's side.
#[rustfmt::skip]
pub const ROOK_SQUARES: [S; 64] = [
    s(-50, 30), s(-41, 32), s(-36, 26), s(-36, 12), s(-25, 1), s(-26, 2), s(-15, 8), s(-31, -3),
    s(-62, 33), s(-49, 28), s(-40, 26), s(-38, 18), s(-26, 13), s(-19, 15), s(0, -8), s(-29, 0),
    s(-55, 45), s(-46, 52), s(-40, 49), s(-31, 38), s(-11, 38), s(-22, 63), s(24, 34), s(-5, 17),
    s(-24, 64), s(-15, 59), s(-42, 76), s(-21, 68), s(-2, 64), s(-12, 55), s(28, 44), s(-38, 59),
    s(-1, 76), s(-9, 79), s(-2, 84), s(19, 67), s(19, 67), s(13, 72), s(64, 55), s(9, 58),
    s(6, 72), s(15, 74), s(-14, 77), s(38, 50), s(28, 64), s(44, 64), s(96, 54), s(8, 80),
    s(66, 45), s(71, 47), s(102, 27), s(125, 6), s(112, 17), s(90, 53), s(131, 41), s(99, 41),
    s(-11, 86), s(35, 75), s(-8, 95), s(22, 73), s(1, 78), s(60, 61), s(4, 91), s(23, 62),
];

/// Queen placement by square, seen from the owner's side.
#[rustfmt::skip]
pub const QUEEN_SQUARES: [S; 64] = [
    s(-16, 49), s(-12, 8), s(-19, 52), s(-22, 60), s(-4, 11), s(-54, 14), s(-24, -27), s(-53, 65),
    s(-47, 38), s(-16, 41), s(-22, 33), s(-11, 40), s(-13, 45), s(-23, 21), s(-9, -57), s(-11, 15),
    s(-56, 88), s(-43, 102), s(-42, 117), s(-26, 91), s(-29, 100), s(-8, 72), s(2, 75), s(-1, 98),
    s(-31, 91), s(-26, 102), s(-40, 131), s(-66, 199), s(-24, 134), s(-29, 145), s(43, 68), s(15, 127),
    s(-14, 93), s(-54, 174), s(-56, 212), s(-7, 130), s(-46, 223), s(-35, 192), s(23, 145), s(14, 123),
    s(-15, 102), s(-55, 162), s(-63, 202), s(16, 122), s(-38, 185), s(8, 157), s(26, 135), s(-17, 188),
    s(2, 124), s(-23, 132), s(-1, 161), s(68, 99), s(50, 112), s(94, 79), s(55, 108), s(128, 36),
    s(-42, 102), s(1, 116), s(-50, 148), s(-9, 129), s(78, 33), s(39, 128), s(58, 91), s(55, 82),
];

/// King placement by square, seen from the owner's side.
#[rustfmt::skip]
pub const KING_SQUARES: [S; 64] = [
    s(-43, -29), s(3, -18), s(5, -6), s(-94, 9), s(-22, -24), s(-82, 3), s(-34, -31), s(-35, -75),
    s(38, -24), s(-3, 7), s(16, -11), s(-9, 0), s(-19, 10), s(-32, 7), s(-14, -9), s(-11, -38),
    s(-39, 16), s(31, -1), s(-7, 24), s(-15, 30), s(-38, 29), s(-12, 14), s(13, -7), s(-35, -26),
    s(-75, 38), s(4, 22), s(-13, 51), s(-45, 48), s(-18, 45), s(58, 11), s(9, 4), s(-52, -2),
    s(-58, 4), s(-81, 75), s(53, 66), s(-19, 67), s(20, 54), s(-44, 63), s(128, 14), s(-116, 9),
    s(-55, 68), s(39, 64), s(58, 65), s(133, 39), s(55, 59), s(69, 73), s(131, 48), s(271, -29),
    s(21, -13), s(-24, 67), s(149, 33), s(93, 28), s(106, 15), s(18, 66), s(-20, 76), s(361, -97),
    s(-286, -200), s(19, 4), s(140, -11), s(50, 34), s(100, -25), s(22, -4), s(-173, 133), s(422, -146),
];

/// Knight by number of safe squares it reaches.
#[rustfmt::skip]
pub const KNIGHT_MOBILITY: [S; 9] = [
    s(-16, 4), s(-19, 136), s(-18, 88), s(-17, 93), s(-16, 84), s(-12, 71), s(-12, 66), s(-19, 57),
    s(-28, 45),
];

/// Bishop by number of safe squares it reaches.
#[rustfmt::skip]
pub const BISHOP_MOBILITY: [S; 14] = [
    s(-85, 275), s(-58, -17), s(-50, 37), s(-30, 64), s(-22, 80), s(-14, 90), s(-11, 97), s(-8, 108),
    s(-4, 109), s(5, 113), s(10, 111), s(34, 97), s(45, 107), s(52, 63),
];

/// Rook by number of safe squares it reaches.
#[rustfmt::skip]
pub const ROOK_MOBILITY: [S; 15] = [
    s(-406, 42), s(-42, 42), s(-51, 17), s(-39, 74), s(-34, 97), s(-28, 107), s(-28, 110), s(-23, 111),
    s(-18, 117), s(-14, 123), s(-10, 132), s(-7, 131), s(-5, 138), s(-8, 148), s(-15, 140),
];

/// Queen by number of safe squares it reaches.
#[rustfmt::skip]
pub const QUEEN_MOBILITY: [S; 28] = [
    s(-13, -26), s(34, -217), s(-202, -107), s(35, -162), s(-111, 276), s(-48, 280), s(-35, 237), s(-38, 294),
    s(-39, 289), s(-34, 291), s(-31, 298), s(-29, 301), s(-27, 296), s(-32, 307), s(-31, 307), s(-29, 308),
    s(-18, 298), s(-23, 296), s(9, 268), s(1, 263), s(28, 230), s(8, 238), s(37, 206), s(148, 103),
    s(40, 170), s(167, 12), s(-132, 211), s(45, 173),
];

/// A pawn with an own pawn in front of it on its file.
#[rustfmt::skip]
pub const PAWN_DOUBLED: [S; 1] = [s(-20, -13)];

/// A pawn without own pawns on the neighbouring files: opposed, unopposed.
#[rustfmt::skip]
pub const PAWN_ISOLATED: [S; 2] = [s(13, -7), s(-4, -21)];

/// A pawn behind its neighbours whose advance an enemy pawn stops: opposed, unopposed.
#[rustfmt::skip]
pub const PAWN_BACKWARD: [S; 2] = [s(-12, 4), s(-29, -13)];

/// A pawn defended by a pawn, by relative rank.
#[rustfmt::skip]
pub const PAWN_CONNECTED: [S; 8] = [s(0, 0), s(0, 0), s(28, 7), s(22, 8), s(21, 22), s(18, 65), s(141, 89), s(0, 0)];

/// A pawn with an own pawn beside it, by relative rank.
#[rustfmt::skip]
pub const PAWN_PHALANX: [S; 8] = [s(0, 0), s(-5, -5), s(18, 1), s(15, 18), s(21, 51), s(121, 107), s(214, 226), s(0, 0)];

/// An unopposed pawn with at least as many helpers as stoppers, by relative rank.
#[rustfmt::skip]
pub const PAWN_CANDIDATE: [S; 8] = [s(0, 0), s(-4, -8), s(-12, -2), s(-2, 10), s(6, 39), s(29, 71), s(0, 0), s(0, 0)];

/// A passed pawn, by relative rank.
#[rustfmt::skip]
pub const PASSED_RANK: [S; 8] = [s(0, 0), s(-28, -1), s(-33, -4), s(-4, 29), s(10, 72), s(28, 135), s(97, 139), s(0, 0)];

/// A passed pawn whose next square is empty and not attacked, by relative rank.
#[rustfmt::skip]
pub const PASSED_SAFE_PUSH: [S; 8] = [s(0, 0), s(9, -4), s(3, 7), s(-5, 15), s(12, 29), s(18, 14), s(10, 35), s(0, 0)];

/// A passed pawn whose whole path is empty and not attacked, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [S; 8] = [s(0, 0), s(-49, 29), s(-116, 45), s(-70, 51), s(-16, 57), s(62, 43), s(16, 115), s(0, 0)];

/// A passed pawn by its own king's distance to the square in front.
#[rustfmt::skip]
pub const PASSED_OWN_KING: [S; 8] = [s(22, 28), s(-13, 41), s(1, 28), s(-27, 15), s(-21, -7), s(-9, -23), s(-14, -19), s(-40, -10)];

/// A passed pawn by the enemy king's distance to the square in front.
#[rustfmt::skip]
pub const PASSED_THEIR_KING: [S; 8] = [s(-149, -22), s(-10, 0), s(10, -14), s(2, 10), s(10, 20), s(10, 33), s(13, 44), s(7, 30)];

/// A rook behind a passed pawn: the owner's, the enemy's.
#[rustfmt::skip]
pub const PASSED_ROOK_BEHIND: [S; 2] = [s(15, 13), s(-10, -49)];

/// A passed pawn a bare king cannot catch (the square rule).
#[rustfmt::skip]
pub const PASSED_UNSTOPPABLE: [S; 1] = [s(-43, 61)];

/// The nearest own pawn ahead on each file at the king: [king's file][relative rank, 0 none].
#[rustfmt::skip]
pub const KING_SHELTER: [S; 16] = [
    s(-45, 29), s(18, 1), s(7, -1), s(2, -5), s(11, -5), s(7, -7), s(101, -23), s(0, 0),
    s(-57, 13), s(22, -9), s(19, -11), s(0, -11), s(-12, -4), s(3, -4), s(218, -89), s(0, 0),
];

/// The nearest enemy pawn ahead on each file at the king: [blocked][relative rank, 0 none].
#[rustfmt::skip]
pub const KING_STORM: [S; 16] = [
    s(-15, 15), s(-11, 168), s(-62, 89), s(-35, 20), s(-17, 4), s(8, -6), s(-1, -4), s(0, 0),
    s(0, 0), s(0, 0), s(-18, -152), s(-20, -6), s(-7, -4), s(-2, -6), s(31, 0), s(0, 0),
];

/// A file at the king without own pawns: half-open, open.
#[rustfmt::skip]
pub const KING_OPEN_FILE: [S; 2] = [s(20, -19), s(22, -49)];

/// King-attack units per piece bearing on the enemy king zone: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const SAFETY_ATTACKER: [S; 4] = [s(51, 472), s(41, 371), s(32, -7), s(9, -107)];

/// King-attack units per attack on a square of the enemy king zone.
#[rustfmt::skip]
pub const SAFETY_ZONE_ATTACKS: [S; 1] = [s(47, 6)];

/// King-attack units per zone square defended only by the king or queen, or not at all.
#[rustfmt::skip]
pub const SAFETY_WEAK_SQUARES: [S; 1] = [s(8, -262)];

/// King-attack units per safe checking square: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const SAFETY_SAFE_CHECK: [S; 4] = [s(101, 36), s(29, 794), s(125, 207), s(70, 81)];

/// King-attack units when the attacker has no queen.
#[rustfmt::skip]
pub const SAFETY_NO_QUEEN: [S; 1] = [s(-278, -648)];

/// King-attack units of every counted attack.
#[rustfmt::skip]
pub const SAFETY_OFFSET: [S; 1] = [s(2, 364)];

/// An enemy piece attacked by a pawn: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [S; 4] = [s(29, 50), s(25, 60), s(53, 53), s(40, -38)];

/// An enemy attacked by a minor piece, by victim (pawn to queen; minors and pawns only when no pawn defends them).
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [S; 5] = [s(2, 29), s(23, 25), s(31, 21), s(44, 11), s(36, 5)];

/// An enemy attacked by a rook, by victim (pawn to queen; the queen always, others when no pawn defends them).
#[rustfmt::skip]
pub const THREAT_BY_ROOK: [S; 5] = [s(-4, 34), s(22, 34), s(29, 20), s(-24, 30), s(50, -1)];

/// An enemy piece attacked and not defended.
#[rustfmt::skip]
pub const THREAT_HANGING: [S; 1] = [s(10, 15)];

/// An enemy piece a safe pawn push would attack.
#[rustfmt::skip]
pub const THREAT_PAWN_PUSH: [S; 1] = [s(19, 32)];

/// Both bishops.
#[rustfmt::skip]
pub const BISHOP_PAIR: [S; 1] = [s(30, 69)];

/// Per own pawn on the squares of a bishop's colour.
#[rustfmt::skip]
pub const BISHOP_PAWNS: [S; 1] = [s(-10, -7)];

/// A minor piece no enemy pawn can chase away, on ranks 4 to 6: [bishop][defended by a pawn].
#[rustfmt::skip]
pub const OUTPOST: [S; 4] = [s(41, -23), s(35, 9), s(22, -18), s(22, 10)];

/// A minor piece right behind an own pawn.
#[rustfmt::skip]
pub const MINOR_BEHIND_PAWN: [S; 1] = [s(17, 5)];

/// A rook on a file without own pawns: half-open, open.
#[rustfmt::skip]
pub const ROOK_FILE: [S; 2] = [s(17, 2), s(31, 10)];

/// A queen on a file without own pawns: half-open, open.
#[rustfmt::skip]
pub const QUEEN_FILE: [S; 2] = [s(9, 0), s(2, 12)];

/// A rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
#[rustfmt::skip]
pub const ROOK_SEVENTH: [S; 1] = [s(-102, 53)];

/// A queen on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
#[rustfmt::skip]
pub const QUEEN_SEVENTH: [S; 1] = [s(-60, 32)];

/// Per safe central square behind the pawns, by the owner's number of pieces.
#[rustfmt::skip]
pub const SPACE: [S; 8] = [s(178, 11), s(-12, 7), s(-16, 7), s(-18, 11), s(-3, 2), s(9, -9), s(11, 2), s(12, 146)];

/// Against a bare king: per step the king stands from the centre.
#[rustfmt::skip]
pub const MOP_UP_EDGE: [S; 1] = [s(0, 40)];

/// Against a bare king: per step the kings stand closer than 7 apart.
#[rustfmt::skip]
pub const MOP_UP_KINGS: [S; 1] = [s(0, 20)];

/// The side to move.
#[rustfmt::skip]
pub const TEMPO: [S; 1] = [s(9, 2)];
