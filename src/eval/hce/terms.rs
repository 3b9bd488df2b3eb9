//! The table of evaluation terms: every weight group's name, size, display group and kind,
//! and the [`Sink`] the evaluation reports each term to.
//!
//! The evaluation never reads a weight itself: it reports "term T, entry i, n times, for
//! colour c" to a sink. The engine's sink multiplies by the weight at once; the trace
//! records the counts, which the `eval` command prints and the tuner fits.

use shakmaty::Color;

use super::score::S;
use super::weights;

/// How a term enters the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Added to the score as it is.
    Linear,
    /// Added as it is, but set by hand: the tuner leaves it (rules for positions the
    /// training games hardly reach, such as mating a bare king).
    Fixed,
    /// Summed into the king-attack units of the attacking side, which count non-linearly.
    Safety,
}

macro_rules! terms {
    ($($variant:ident => $weights:ident, $group:literal, $kind:ident, $doc:literal;)*) => {
        /// One group of weights of the evaluation; its entries are indexed from 0.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Term { $(#[doc = $doc] $variant),* }

        impl Term {
            /// Every term, in the order of the weight file.
            pub const ALL: &[Term] = &[$(Term::$variant),*];

            /// The number of weights of the term.
            pub const fn size(self) -> usize {
                match self { $(Term::$variant => weights::$weights.len()),* }
            }

            /// The name of the term's constant in the weight file.
            pub const fn name(self) -> &'static str {
                match self { $(Term::$variant => stringify!($weights)),* }
            }

            /// The line of the `eval` table the term is summed into.
            pub const fn group(self) -> &'static str {
                match self { $(Term::$variant => $group),* }
            }

            /// What the term weighs, in a line.
            pub const fn doc(self) -> &'static str {
                match self { $(Term::$variant => $doc),* }
            }

            /// How the term enters the evaluation.
            pub const fn kind(self) -> Kind {
                match self { $(Term::$variant => Kind::$kind),* }
            }

            /// The weight of entry `index` of the term.
            #[inline(always)]
            pub fn weight(self, index: usize) -> S {
                match self { $(Term::$variant => weights::$weights[index]),* }
            }
        }
    };
}

terms! {
    Material => MATERIAL, "Material", Linear, "Material by role: pawn, knight, bishop, rook, queen.";
    PawnSquares => PAWN_SQUARES, "Piece squares", Linear, "Pawn placement by square, seen from the owner's side (a1 = 0).";
    KnightSquares => KNIGHT_SQUARES, "Piece squares", Linear, "Knight placement by square, seen from the owner's side.";
    BishopSquares => BISHOP_SQUARES, "Piece squares", Linear, "Bishop placement by square, seen from the owner's side.";
    RookSquares => ROOK_SQUARES, "Piece squares", Linear, "Rook placement by square, seen from the owner's side.";
    QueenSquares => QUEEN_SQUARES, "Piece squares", Linear, "Queen placement by square, seen from the owner's side.";
    KingSquares => KING_SQUARES, "Piece squares", Linear, "King placement by square, seen from the owner's side.";
    KnightMobility => KNIGHT_MOBILITY, "Mobility", Linear, "Knight by number of safe squares it reaches.";
    BishopMobility => BISHOP_MOBILITY, "Mobility", Linear, "Bishop by number of safe squares it reaches.";
    RookMobility => ROOK_MOBILITY, "Mobility", Linear, "Rook by number of safe squares it reaches.";
    QueenMobility => QUEEN_MOBILITY, "Mobility", Linear, "Queen by number of safe squares it reaches.";
    PawnDoubled => PAWN_DOUBLED, "Pawns", Linear, "A pawn with an own pawn in front of it on its file.";
    PawnIsolated => PAWN_ISOLATED, "Pawns", Linear, "A pawn without own pawns on the neighbouring files: opposed, unopposed.";
    PawnBackward => PAWN_BACKWARD, "Pawns", Linear, "A pawn behind its neighbours whose advance an enemy pawn stops: opposed, unopposed.";
    PawnConnected => PAWN_CONNECTED, "Pawns", Linear, "A pawn defended by a pawn, by relative rank.";
    PawnPhalanx => PAWN_PHALANX, "Pawns", Linear, "A pawn with an own pawn beside it, by relative rank.";
    PawnCandidate => PAWN_CANDIDATE, "Pawns", Linear, "An unopposed pawn with at least as many helpers as stoppers, by relative rank.";
    PassedRank => PASSED_RANK, "Passed pawns", Linear, "A passed pawn, by relative rank.";
    PassedSafePush => PASSED_SAFE_PUSH, "Passed pawns", Linear, "A passed pawn whose next square is empty and not attacked, by relative rank.";
    PassedFreePath => PASSED_FREE_PATH, "Passed pawns", Linear, "A passed pawn whose whole path is empty and not attacked, by relative rank.";
    PassedOwnKing => PASSED_OWN_KING, "Passed pawns", Linear, "A passed pawn by its own king's distance to the square in front.";
    PassedTheirKing => PASSED_THEIR_KING, "Passed pawns", Linear, "A passed pawn by the enemy king's distance to the square in front.";
    PassedRookBehind => PASSED_ROOK_BEHIND, "Passed pawns", Linear, "A rook behind a passed pawn: the owner's, the enemy's.";
    PassedUnstoppable => PASSED_UNSTOPPABLE, "Passed pawns", Linear, "A passed pawn a bare king cannot catch (the square rule).";
    KingShelter => KING_SHELTER, "King shelter", Linear, "The nearest own pawn ahead on each file at the king: [king's file][relative rank, 0 none].";
    KingStorm => KING_STORM, "King shelter", Linear, "The nearest enemy pawn ahead on each file at the king: [blocked][relative rank, 0 none].";
    KingOpenFile => KING_OPEN_FILE, "King shelter", Linear, "A file at the king without own pawns: half-open, open.";
    SafetyAttacker => SAFETY_ATTACKER, "King attack", Safety, "King-attack units per piece bearing on the enemy king zone: knight, bishop, rook, queen.";
    SafetyZoneAttacks => SAFETY_ZONE_ATTACKS, "King attack", Safety, "King-attack units per attack on a square of the enemy king zone.";
    SafetyWeakSquares => SAFETY_WEAK_SQUARES, "King attack", Safety, "King-attack units per zone square defended only by the king or queen, or not at all.";
    SafetySafeCheck => SAFETY_SAFE_CHECK, "King attack", Safety, "King-attack units per safe checking square: knight, bishop, rook, queen.";
    SafetyNoQueen => SAFETY_NO_QUEEN, "King attack", Safety, "King-attack units when the attacker has no queen.";
    SafetyOffset => SAFETY_OFFSET, "King attack", Safety, "King-attack units of every counted attack.";
    ThreatByPawn => THREAT_BY_PAWN, "Threats", Linear, "An enemy piece attacked by a pawn: knight, bishop, rook, queen.";
    ThreatByMinor => THREAT_BY_MINOR, "Threats", Linear, "An enemy attacked by a minor piece, by victim (pawn to queen; minors and pawns only when no pawn defends them).";
    ThreatByRook => THREAT_BY_ROOK, "Threats", Linear, "An enemy attacked by a rook, by victim (pawn to queen; the queen always, others when no pawn defends them).";
    ThreatHanging => THREAT_HANGING, "Threats", Linear, "An enemy piece attacked and not defended.";
    ThreatPawnPush => THREAT_PAWN_PUSH, "Threats", Linear, "An enemy piece a safe pawn push would attack.";
    BishopPair => BISHOP_PAIR, "Pieces", Linear, "Both bishops.";
    BishopPawns => BISHOP_PAWNS, "Pieces", Linear, "Per own pawn on the squares of a bishop's colour.";
    Outpost => OUTPOST, "Pieces", Linear, "A minor piece no enemy pawn can chase away, on ranks 4 to 6: [bishop][defended by a pawn].";
    MinorBehindPawn => MINOR_BEHIND_PAWN, "Pieces", Linear, "A minor piece right behind an own pawn.";
    RookFile => ROOK_FILE, "Pieces", Linear, "A rook on a file without own pawns: half-open, open.";
    QueenFile => QUEEN_FILE, "Pieces", Linear, "A queen on a file without own pawns: half-open, open.";
    RookSeventh => ROOK_SEVENTH, "Pieces", Linear, "A rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.";
    QueenSeventh => QUEEN_SEVENTH, "Pieces", Linear, "A queen on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.";
    Space => SPACE, "Space", Linear, "Per safe central square behind the pawns, by the owner's number of pieces.";
    MopUpEdge => MOP_UP_EDGE, "Mop-up", Fixed, "Against a bare king: per step the king stands from the centre.";
    MopUpKings => MOP_UP_KINGS, "Mop-up", Fixed, "Against a bare king: per step the kings stand closer than 7 apart.";
    Tempo => TEMPO, "Tempo", Linear, "The side to move.";
}

/// The display groups of the `eval` table, in order.
pub const GROUPS: [&str; 12] = [
    "Material",
    "Piece squares",
    "Mobility",
    "Pawns",
    "Passed pawns",
    "King shelter",
    "King attack",
    "Threats",
    "Pieces",
    "Space",
    "Mop-up",
    "Tempo",
];

/// Where each term's weights start in the flat list of all weights, and (last) its length.
const OFFSETS: [usize; Term::ALL.len() + 1] = {
    let mut table = [0; Term::ALL.len() + 1];
    let mut i = 0;
    while i < Term::ALL.len() {
        table[i + 1] = table[i] + Term::ALL[i].size();
        i += 1;
    }
    table
};

impl Term {
    /// The position of the term's first weight in the flat list of all weights.
    #[inline]
    pub const fn offset(self) -> usize {
        OFFSETS[self as usize]
    }
}

/// The number of weights of all terms together.
pub const WEIGHT_COUNT: usize = OFFSETS[Term::ALL.len()];

impl Kind {
    /// True for king-attack units, which count non-linearly.
    pub fn is_safety(self) -> bool {
        self == Kind::Safety
    }
}

/// Where the evaluation reports its terms.
pub trait Sink {
    /// Entry `index` of `term` counts `count` times for `color`.
    fn add(&mut self, color: Color, term: Term, index: usize, count: i32);
}

/// The engine's sink: each colour's weighted term sums, weighed as the terms come.
#[derive(Default)]
pub struct TermSums {
    /// Each colour's linear terms.
    pub linear: [S; 2],
    /// Each colour's king-attack units, before the non-linear step.
    pub safety: [S; 2],
}

impl Sink for TermSums {
    #[inline(always)]
    fn add(&mut self, color: Color, term: Term, index: usize, count: i32) {
        let value = term.weight(index) * count;
        match term.kind() {
            Kind::Linear | Kind::Fixed => self.linear[color as usize] += value,
            Kind::Safety => self.safety[color as usize] += value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_tile_the_flat_weight_list() {
        let mut next = 0;
        for &term in Term::ALL {
            assert_eq!(term.offset(), next, "{}", term.name());
            next += term.size();
            assert!(GROUPS.contains(&term.group()), "{}", term.name());
        }
        assert_eq!(next, WEIGHT_COUNT);
    }
}
