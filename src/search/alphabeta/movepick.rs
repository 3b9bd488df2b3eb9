//! Move ordering: TT move, good captures by MVV-LVA and capture history, the two killers,
//! the counter move, quiet moves by history, then losing captures. shakmaty generates all moves at once, so the picker
//! stages the ordering: it scores every move and hands them out best first by selection.

use std::mem::MaybeUninit;

use shakmaty::{Move, MoveList, Role};

use super::see::may_lose_material;
use crate::moves::{MoveCode, encode, is_tactical, mvv_lva};
use crate::search::tunables;

/// Order class of the transposition-table move.
const TT_MOVE: i32 = 1 << 30;
/// Order class of captures that do not lose material, and queen promotions.
const GOOD_CAPTURE: i32 = 1 << 28;
/// Order class of the first killer (the second is one lower, the counter move two lower).
const KILLER: i32 = 1 << 27;
/// Order class of losing captures and under-promotions: after every quiet move.
const BAD_CAPTURE: i32 = -(1 << 28);

/// The sign bit of an `i32` score, flipped to sort scores as unsigned numbers.
const SIGN_BIT: u32 = 1 << 31;
/// Capacity of shakmaty's move list.
const MAX_MOVES: usize = 270;
/// Moves handed out by selection before the rest is sorted at once: most cut-nodes need
/// only the first few, all-nodes need them all, and one sort is cheaper than many scans.
const SELECT_BEFORE_SORT: usize = 3;

/// Room for the scores of one node's moves, kept in the node's frame beside its move list.
/// The picker borrows it rather than owning it: a picker that owned its scores was copied,
/// a kilobyte a node, from the constructor's frame to the node's.
pub struct MoveScores([MaybeUninit<i32>; MAX_MOVES]);

impl MoveScores {
    /// Unwritten room: the picker writes the score of each move it is given.
    #[inline(always)]
    pub fn unwritten() -> MoveScores {
        MoveScores([const { MaybeUninit::uninit() }; MAX_MOVES])
    }
}

/// Hands out the moves of one node in order of promise. It orders the node's own move
/// list in place, and leaves the scores of the slots past the list unwritten: a node
/// copies neither the list nor a cleared score array.
pub struct MovePicker<'a> {
    moves: &'a mut MoveList,
    /// The score of each move; only the first `moves.len()` are written.
    scores: &'a mut [MaybeUninit<i32>; MAX_MOVES],
    next: usize,
    sorted: bool,
}

/// What the picker needs to know to order a node's moves. The scorers are generic, not
/// trait objects, so that each node's scoring loop inlines them.
pub struct OrderingHints<H, C, S> {
    /// The transposition-table move.
    pub tt_move: MoveCode,
    /// The killers of this ply (zero when unused).
    pub killers: [MoveCode; 2],
    /// The quiet move that last refuted the previous move (zero when unused).
    pub counter: MoveCode,
    /// History score of a quiet move; `None` to order quiets as generated.
    pub history: Option<H>,
    /// History score of a capture, added to its MVV-LVA key (scaled down); `None` for
    /// MVV-LVA alone.
    pub capture_history: Option<C>,
    /// Exchange evaluation of a capture; `None` to treat every capture as good.
    pub see: Option<S>,
}

/// The type of a scorer a node goes without (`None::<Unused>`).
pub type Unused = fn(Move) -> i32;

impl<'a> MovePicker<'a> {
    /// Scores `moves` for a main-search node, into `scores`.
    pub fn new<H, C, S>(
        moves: &'a mut MoveList,
        scores: &'a mut MoveScores,
        hints: &OrderingHints<H, C, S>,
    ) -> MovePicker<'a>
    where
        H: Fn(Move) -> i32,
        C: Fn(Move) -> i32,
        S: Fn(Move) -> i32,
    {
        let scores = &mut scores.0;
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            let code = encode(m);
            *score = MaybeUninit::new(if code == hints.tt_move {
                TT_MOVE
            } else if is_tactical(m) {
                let losing = m.promotion().is_some_and(|r| r != Role::Queen)
                    || hints.see.as_ref().is_some_and(|see| m.is_capture() && may_lose_material(m) && see(m) < 0);
                let learned = hints.capture_history.as_ref().map_or(0, |h| h(m) / tunables::capture_history_divisor());
                mvv_lva(m) + learned + if losing { BAD_CAPTURE } else { GOOD_CAPTURE }
            } else if code == hints.killers[0] {
                KILLER
            } else if code == hints.killers[1] {
                KILLER - 1
            } else if code == hints.counter {
                KILLER - 2
            } else {
                hints.history.as_ref().map_or(0, |h| h(m))
            });
        }
        MovePicker { moves, scores, next: 0, sorted: false }
    }

    /// Scores captures and promotions (or evasions) for quiescence: the table move
    /// `tt_move` first, then MVV-LVA, into `scores`.
    pub fn tactical(moves: &'a mut MoveList, scores: &'a mut MoveScores, tt_move: MoveCode) -> MovePicker<'a> {
        let scores = &mut scores.0;
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            *score = MaybeUninit::new(if encode(m) == tt_move { TT_MOVE } else { mvv_lva(m) });
        }
        MovePicker { moves, scores, next: 0, sorted: false }
    }

    /// Number of moves in the picker.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when the node has no moves.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

impl MovePicker<'_> {
    /// The score of move `i`, one of the list's.
    #[inline]
    fn score(&self, i: usize) -> i32 {
        debug_assert!(i < self.moves.len());
        // SAFETY: the constructors write the score of every move of the list, and the
        // list never grows; callers pass indices of the list only.
        unsafe { self.scores[i].assume_init() }
    }

    /// Sorts the moves not yet handed out, best first, ties in list order. It sorts one
    /// 64-bit key per move (its score, then its place) and then moves each move once,
    /// where an insertion sort of the moves themselves (five bytes and a score each) was
    /// the picker's hottest loop in a profile of self-play.
    fn sort_rest(&mut self) {
        let (first, n) = (self.next, self.moves.len());
        let mut keys = [const { MaybeUninit::<u64>::uninit() }; MAX_MOVES];
        for (i, key) in (first..n).zip(&mut keys) {
            // The score with its sign bit flipped sorts as an unsigned number; the lower
            // place wins a tie.
            let score = self.score(i) as u32 ^ SIGN_BIT;
            *key = MaybeUninit::new((u64::from(score) << 32) | u64::from(u32::MAX - i as u32));
        }
        // SAFETY: the loop above wrote the first `n - first` keys.
        let keys = unsafe { std::slice::from_raw_parts_mut(keys.as_mut_ptr().cast::<u64>(), n - first) };
        keys.sort_unstable_by(|a, b| b.cmp(a));
        let unsorted = self.moves.clone();
        for (i, &key) in (first..n).zip(keys.iter()) {
            self.moves[i] = unsorted[(u32::MAX - key as u32) as usize];
        }
        // Sorted, the moves are handed out in order: their scores are not read again.
        self.sorted = true;
    }
}

impl Iterator for MovePicker<'_> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        if self.next == SELECT_BEFORE_SORT && !self.sorted {
            self.sort_rest();
        }
        if !self.sorted {
            let mut best = self.next;
            for i in self.next + 1..n {
                if self.score(i) > self.score(best) {
                    best = i;
                }
            }
            self.moves.swap(self.next, best);
            self.scores.swap(self.next, best);
        }
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::parse_uci;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    #[test]
    fn order_is_tt_captures_killers_quiets() {
        let pos: Chess = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let tt = parse_uci(&pos, "a2a3").unwrap();
        let killer = parse_uci(&pos, "b2b3").unwrap();
        let history = |m: Move| if m == parse_uci(&pos, "g2g3").unwrap() { 500 } else { 0 };
        let counter = parse_uci(&pos, "h1f1").unwrap();
        let hints = OrderingHints {
            tt_move: encode(tt),
            killers: [encode(killer), 0],
            counter: encode(counter),
            history: Some(history),
            capture_history: None::<Unused>,
            see: None::<Unused>,
        };
        let order: Vec<Move> = MovePicker::new(&mut pos.legal_moves(), &mut MoveScores::unwritten(), &hints).collect();
        assert_eq!(order.len(), 48);
        assert_eq!(order[0], tt);
        let captures = pos.legal_moves().iter().filter(|m| m.is_capture()).count();
        assert!(order[1..=captures].iter().all(|m| m.is_capture()));
        // The most valuable victim first: the bishop on a6.
        assert_eq!(order[1].capture(), Some(Role::Bishop));
        assert_eq!(order[captures + 1], killer);
        assert_eq!(order[captures + 2], counter);
        assert_eq!(order[captures + 3], parse_uci(&pos, "g2g3").unwrap());
    }

    /// The order the picker promises, worked out plainly: the first few moves by
    /// selection (each swapped with the move in its place), the rest by a stable sort.
    fn promised_order(moves: &[Move], score: impl Fn(Move) -> i32) -> Vec<Move> {
        let mut list: Vec<(Move, i32)> = moves.iter().map(|&m| (m, score(m))).collect();
        for next in 0..SELECT_BEFORE_SORT.min(list.len()) {
            let best = (next..list.len()).fold(next, |best, i| if list[i].1 > list[best].1 { i } else { best });
            list.swap(next, best);
        }
        let first = SELECT_BEFORE_SORT.min(list.len());
        list[first..].sort_by_key(|&(_, score)| std::cmp::Reverse(score));
        list.into_iter().map(|(m, _)| m).collect()
    }

    #[test]
    fn ties_keep_their_order_and_scores_sort_best_first() {
        let pos: Chess = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        // Scores of few values, so that many moves tie, and both signs.
        for modulus in [1, 3, 7, 64] {
            let history = |m: Move| (i32::from(encode(m)) * 7919 % modulus) * 1000 - 3000;
            let hints = OrderingHints {
                tt_move: 0,
                killers: [0; 2],
                counter: 0,
                history: Some(history),
                capture_history: None::<Unused>,
                see: None::<Unused>,
            };
            let moves = pos.legal_moves();
            let quiets: Vec<Move> = moves.iter().copied().filter(|&m| !is_tactical(m)).collect();
            let mut only_quiets = moves.clone();
            only_quiets.retain(|m| !is_tactical(*m));
            let order: Vec<Move> = MovePicker::new(&mut only_quiets, &mut MoveScores::unwritten(), &hints).collect();
            assert_eq!(order, promised_order(&quiets, history), "scores modulo {modulus}");
        }
    }

    #[test]
    fn capture_history_reorders_captures_of_one_class() {
        let pos: Chess = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        // Two pawn captures by MVV-LVA alone: the pawn takes first (least valuable attacker).
        let by_pawn = parse_uci(&pos, "d5e6").unwrap();
        let by_queen = parse_uci(&pos, "f3h3").unwrap();
        assert!(mvv_lva(by_pawn) > mvv_lva(by_queen));
        let learned = |m: Move| if m == by_queen { 16_000 } else { 0 };
        let hints = OrderingHints {
            tt_move: 0,
            killers: [0; 2],
            counter: 0,
            history: None::<Unused>,
            capture_history: Some(learned),
            see: None::<Unused>,
        };
        let order: Vec<Move> = MovePicker::new(&mut pos.legal_moves(), &mut MoveScores::unwritten(), &hints).collect();
        let rank = |m: Move| order.iter().position(|&x| x == m).unwrap();
        assert!(rank(by_queen) < rank(by_pawn), "a capture that keeps cutting off moves up");
        assert_eq!(order[0].capture(), Some(Role::Bishop), "but not past a more valuable victim");
    }
}
