//! Move-ordering memory: two killer moves per ply, the history heuristic, continuation
//! history, counter moves and capture history; with the correction history, what one
//! search thread learns and keeps from search to search.

use shakmaty::{Color, Move, Role};

use super::correction::CorrectionHistory;
use super::params::HISTORY_MAX;
use crate::moves::{MoveCode, NO_MOVE, encode};
use crate::search::MAX_PLY;
use crate::search::tunables;

/// A moved piece (colour and role) and its destination, packed as `piece * 64 + to`: what
/// continuation history and counter moves remember of a move.
pub type PieceTo = u16;

/// The [`PieceTo`] of no move: the root's predecessor, or a null move.
pub const NO_PIECE_TO: PieceTo = u16::MAX;

/// Number of distinct [`PieceTo`] values: 12 pieces on 64 squares.
const PIECE_TO_COUNT: usize = 12 * 64;

/// The [`PieceTo`] of `m`, played by `side`.
#[inline]
pub fn piece_to(side: Color, m: Move) -> PieceTo {
    let piece = side as usize * 6 + (m.role() as usize - 1);
    (piece * 64 + m.to() as usize) as PieceTo
}

/// The bonus a cutoff at `depth` earns.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth * tunables::history_bonus_percent() / 100).min(tunables::history_bonus_max())
}

/// The malus the moves tried before a cutoff at `depth` pay (a positive amount).
#[inline]
pub fn history_malus(depth: i32) -> i32 {
    (depth * depth * tunables::history_malus_percent() / 100).min(tunables::history_malus_max())
}

/// Gravity update: the closer to the bound, the smaller the step, so values never leave
/// ±HISTORY_MAX and old knowledge fades.
#[inline]
fn gravity(entry: i32, bonus: i32) -> i32 {
    entry + bonus - entry * bonus.abs() / HISTORY_MAX
}

/// Two killer moves per ply: quiet moves that caused a cutoff at that ply in a sibling.
pub struct Killers([[MoveCode; 2]; MAX_PLY + 1]);

impl Default for Killers {
    fn default() -> Killers {
        Killers([[NO_MOVE; 2]; MAX_PLY + 1])
    }
}

impl Killers {
    /// The killers of `ply`, most recent first.
    #[inline]
    pub fn at(&self, ply: usize) -> [MoveCode; 2] {
        self.0[ply]
    }

    /// Records a cutoff move; the older killer moves to the second slot.
    pub fn record(&mut self, ply: usize, code: MoveCode) {
        let slot = &mut self.0[ply];
        if slot[0] != code {
            slot[1] = slot[0];
            slot[0] = code;
        }
    }

    /// Forgets all killers.
    pub fn clear(&mut self) {
        *self = Killers::default();
    }
}

/// History heuristic: a score per (side, from, to), raised for quiet moves that cut off
/// and lowered for quiet moves tried before them.
pub struct History(Box<[[[i32; 64]; 64]; 2]>);

impl Default for History {
    fn default() -> History {
        History(Box::new([[[0; 64]; 64]; 2]))
    }
}

impl History {
    /// The score of a quiet move by `side`, given by its code.
    #[inline]
    pub fn score(&self, side: Color, code: MoveCode) -> i32 {
        let code = code as usize;
        self.0[side as usize][code & 63][(code >> 6) & 63]
    }

    /// Rewards the cutoff move and punishes the quiets tried before it.
    pub fn update(&mut self, side: Color, depth: i32, best: MoveCode, tried: &[MoveCode]) {
        self.adjust(side, best, history_bonus(depth));
        let malus = history_malus(depth);
        for &m in tried {
            self.adjust(side, m, -malus);
        }
    }

    /// Moves the score of `code` towards the bound `bonus` points to.
    fn adjust(&mut self, side: Color, code: MoveCode, bonus: i32) {
        let code = code as usize;
        let entry = &mut self.0[side as usize][code & 63][(code >> 6) & 63];
        *entry = gravity(*entry, bonus);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = History::default();
    }
}

/// Continuation history: a score per (earlier move's piece and square, quiet move's piece
/// and square), learning which replies work after which move, beside the butterfly
/// history that knows the move alone. One table per distance back (one ply, two plies).
pub struct ContinuationHistory(Vec<i16>);

impl Default for ContinuationHistory {
    fn default() -> ContinuationHistory {
        ContinuationHistory(vec![0; PIECE_TO_COUNT * PIECE_TO_COUNT])
    }
}

impl ContinuationHistory {
    /// The score of the move `current` after the earlier move `previous` (0 when there is
    /// no earlier move).
    #[inline]
    pub fn score(&self, previous: PieceTo, current: PieceTo) -> i32 {
        reply_score(self.replies_to(previous), current)
    }

    /// The scores of every reply to `previous` (`None` when there is no earlier move),
    /// indexed by the reply's [`PieceTo`].
    #[inline]
    fn replies_to(&self, previous: PieceTo) -> Option<&[i16; PIECE_TO_COUNT]> {
        if previous == NO_PIECE_TO {
            return None;
        }
        let start = previous as usize * PIECE_TO_COUNT;
        self.0[start..start + PIECE_TO_COUNT].try_into().ok()
    }

    /// Rewards the cutoff move `best` and punishes the quiets `tried` before it, all as
    /// replies to `previous`.
    pub fn update(&mut self, previous: PieceTo, depth: i32, best: PieceTo, tried: &[PieceTo]) {
        if previous == NO_PIECE_TO {
            return;
        }
        self.adjust(previous, best, history_bonus(depth));
        let malus = history_malus(depth);
        for &m in tried {
            self.adjust(previous, m, -malus);
        }
    }

    fn adjust(&mut self, previous: PieceTo, current: PieceTo, bonus: i32) {
        let entry = &mut self.0[previous as usize * PIECE_TO_COUNT + current as usize];
        *entry = gravity(i32::from(*entry), bonus) as i16;
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.0.fill(0);
    }
}

/// Counter moves: per previous move (piece and square), the quiet move that last refuted it.
pub struct CounterMoves(Vec<MoveCode>);

impl Default for CounterMoves {
    fn default() -> CounterMoves {
        CounterMoves(vec![NO_MOVE; PIECE_TO_COUNT])
    }
}

impl CounterMoves {
    /// The counter move to `previous` ([`NO_MOVE`] when none is known).
    #[inline]
    pub fn get(&self, previous: PieceTo) -> MoveCode {
        if previous == NO_PIECE_TO { NO_MOVE } else { self.0[previous as usize] }
    }

    /// Remembers `code` as the refutation of `previous`.
    pub fn record(&mut self, previous: PieceTo, code: MoveCode) {
        if previous != NO_PIECE_TO {
            self.0[previous as usize] = code;
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.0.fill(NO_MOVE);
    }
}

/// Capture history: a score per (moving piece, destination, captured role), raised for
/// captures that cut off and lowered for captures tried before a cutoff; it refines
/// MVV-LVA among captures of the same class.
pub struct CaptureHistory(Box<[[[i32; 6]; 64]; 12]>);

impl Default for CaptureHistory {
    fn default() -> CaptureHistory {
        CaptureHistory(Box::new([[[0; 6]; 64]; 12]))
    }
}

/// The role a capture takes (a pawn for en passant; a promotion without capture counts as
/// taking a pawn's worth of nothing: the pawn slot).
#[inline]
fn victim(m: Move) -> usize {
    m.capture().unwrap_or(Role::Pawn) as usize - 1
}

impl CaptureHistory {
    /// The score of the tactical move `m` by `side`.
    #[inline]
    pub fn score(&self, side: Color, m: Move) -> i32 {
        let pt = piece_to(side, m) as usize;
        self.0[pt / 64][pt % 64][victim(m)]
    }

    /// Rewards the cutoff capture `best` (if the cutoff was a capture) and punishes the
    /// captures `tried` before it.
    pub fn update(&mut self, side: Color, depth: i32, best: Option<Move>, tried: impl IntoIterator<Item = Move>) {
        if let Some(m) = best {
            self.adjust(side, m, history_bonus(depth));
        }
        let malus = history_malus(depth);
        for m in tried {
            self.adjust(side, m, -malus);
        }
    }

    fn adjust(&mut self, side: Color, m: Move, bonus: i32) {
        let pt = piece_to(side, m) as usize;
        let entry = &mut self.0[pt / 64][pt % 64][victim(m)];
        *entry = gravity(*entry, bonus);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = CaptureHistory::default();
    }
}

/// The score of the reply `current` in the row `replies` of one earlier move (0 when there
/// is no earlier move).
#[inline]
fn reply_score(replies: Option<&[i16; PIECE_TO_COUNT]>, current: PieceTo) -> i32 {
    replies.map_or(0, |row| i32::from(row[current as usize]))
}

/// One node's view of the quiet-move histories: the butterfly table and the continuation
/// scores of replies to the moves one and two plies back. The continuation rows are found
/// once a node, not once a move; a move's score is the sum of its three entries.
pub struct QuietScorer<'a> {
    side: Color,
    butterfly: &'a History,
    replies: [Option<&'a [i16; PIECE_TO_COUNT]>; 2],
}

impl QuietScorer<'_> {
    /// The history score of the quiet move `m`.
    #[inline]
    pub fn score(&self, m: Move) -> i32 {
        let moved = piece_to(self.side, m);
        self.butterfly.score(self.side, encode(m))
            + reply_score(self.replies[0], moved)
            + reply_score(self.replies[1], moved)
    }
}

/// Everything one thread learns from its searches: move order from cutoffs and the
/// static evaluation's corrections. Kept between searches, forgotten at a new game.
#[derive(Default)]
pub struct Histories {
    /// Two killer moves per ply.
    pub killers: Killers,
    /// The butterfly history of quiet moves.
    pub quiet: History,
    /// Continuation history one and two plies back.
    pub continuation: [ContinuationHistory; 2],
    /// The last quiet refutation of each move.
    pub counters: CounterMoves,
    /// The history of captures.
    pub captures: CaptureHistory,
    /// The static evaluation's error by pawn structure.
    pub correction: CorrectionHistory,
}

impl Histories {
    /// The quiet-move histories of `side` after the moves `previous` (one and two plies
    /// back), looked up once for a node's moves.
    #[inline]
    pub fn quiet_scorer(&self, side: Color, previous: [PieceTo; 2]) -> QuietScorer<'_> {
        QuietScorer {
            side,
            butterfly: &self.quiet,
            replies: [0, 1].map(|back| self.continuation[back].replies_to(previous[back])),
        }
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        self.killers.clear();
        self.quiet.clear();
        self.continuation.iter_mut().for_each(ContinuationHistory::clear);
        self.counters.clear();
        self.captures.clear();
        self.correction.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::encode;
    use shakmaty::{Chess, Position};

    #[test]
    fn history_stays_bounded() {
        let pos = Chess::default();
        let moves: Vec<MoveCode> = pos.legal_moves().iter().map(|&m| encode(m)).collect();
        let mut history = History::default();
        for _ in 0..10_000 {
            history.update(Color::White, 40, moves[0], &moves[1..5]);
        }
        assert!(history.score(Color::White, moves[0]) <= HISTORY_MAX);
        assert!(history.score(Color::White, moves[1]) >= -HISTORY_MAX);
        assert!(history.score(Color::White, moves[0]) > history.score(Color::White, moves[6]));
        assert_eq!(history.score(Color::Black, moves[0]), 0);
    }

    #[test]
    fn a_nodes_quiet_scorer_sums_the_three_tables() {
        let pos = Chess::default();
        let m = |uci: &str| crate::moves::parse_uci(&pos, uci).unwrap();
        let (e4, d4, nf3, c4) = (m("e2e4"), m("d2d4"), m("g1f3"), m("c2c4"));
        let white = |m: Move| piece_to(Color::White, m);
        let mut histories = Histories::default();
        histories.quiet.update(Color::White, 5, encode(nf3), &[encode(c4)]);
        histories.continuation[0].update(white(e4), 7, white(nf3), &[white(c4)]);
        histories.continuation[1].update(white(d4), 3, white(c4), &[white(nf3)]);
        for previous in [[white(e4), white(d4)], [white(d4), NO_PIECE_TO], [NO_PIECE_TO; 2]] {
            let scorer = histories.quiet_scorer(Color::White, previous);
            for &mv in pos.legal_moves().iter() {
                let sum = histories.quiet.score(Color::White, encode(mv))
                    + histories.continuation[0].score(previous[0], white(mv))
                    + histories.continuation[1].score(previous[1], white(mv));
                assert_eq!(scorer.score(mv), sum, "{mv} after {previous:?}");
            }
        }
        let scorer = histories.quiet_scorer(Color::White, [white(e4), white(d4)]);
        assert!(scorer.score(nf3) > 0 && scorer.score(c4) != 0, "the updates are seen");
    }

    #[test]
    fn continuation_history_learns_replies_to_one_move() {
        let pos = Chess::default();
        let m = |uci: &str| crate::moves::parse_uci(&pos, uci).unwrap();
        let (e4, d4, nf3, c4) = (m("e2e4"), m("d2d4"), m("g1f3"), m("c2c4"));
        let mut table = ContinuationHistory::default();
        let after = piece_to(Color::White, e4);
        let tried = [piece_to(Color::White, c4)];
        table.update(after, 6, piece_to(Color::White, nf3), &tried);
        assert_eq!(table.score(after, piece_to(Color::White, nf3)), history_bonus(6));
        assert_eq!(table.score(after, piece_to(Color::White, c4)), -history_malus(6));
        assert_eq!(table.score(piece_to(Color::White, d4), piece_to(Color::White, nf3)), 0, "another move");
        assert_eq!(table.score(NO_PIECE_TO, piece_to(Color::White, nf3)), 0, "no move before");
        table.update(NO_PIECE_TO, 6, piece_to(Color::White, nf3), &tried);
        assert_eq!(
            table.score(after, piece_to(Color::White, c4)),
            -history_malus(6),
            "nothing learned without a move before"
        );
        for _ in 0..10_000 {
            table.update(after, 40, piece_to(Color::White, nf3), &tried);
        }
        assert!((table.score(after, piece_to(Color::White, nf3)) - HISTORY_MAX).abs() < 200);
        assert!((table.score(after, piece_to(Color::White, c4)) + HISTORY_MAX).abs() < 200);
    }

    #[test]
    fn piece_to_tells_colours_roles_and_squares_apart() {
        let pos = Chess::default();
        let codes: std::collections::HashSet<PieceTo> =
            pos.legal_moves().iter().map(|&m| piece_to(Color::White, m)).collect();
        assert_eq!(codes.len(), 20);
        let nf3 = crate::moves::parse_uci(&pos, "g1f3").unwrap();
        assert_ne!(piece_to(Color::White, nf3), piece_to(Color::Black, nf3));
        assert!(codes.iter().all(|&c| (c as usize) < PIECE_TO_COUNT));
    }

    #[test]
    fn counter_moves_remember_the_last_refutation() {
        let pos = Chess::default();
        let e4 = piece_to(Color::White, crate::moves::parse_uci(&pos, "e2e4").unwrap());
        let mut counters = CounterMoves::default();
        assert_eq!(counters.get(e4), NO_MOVE);
        counters.record(e4, 100);
        counters.record(e4, 200);
        assert_eq!(counters.get(e4), 200);
        counters.record(NO_PIECE_TO, 300);
        assert_eq!(counters.get(NO_PIECE_TO), NO_MOVE);
        counters.clear();
        assert_eq!(counters.get(e4), NO_MOVE);
    }

    #[test]
    fn capture_history_rewards_the_cutoff_capture_and_punishes_the_others() {
        let pos: Chess = "4k3/8/8/3p1r2/4P3/8/8/4K3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let takes_pawn = crate::moves::parse_uci(&pos, "e4d5").unwrap();
        let takes_rook = crate::moves::parse_uci(&pos, "e4f5").unwrap();
        let mut table = CaptureHistory::default();
        table.update(Color::White, 5, Some(takes_rook), [takes_pawn]);
        assert_eq!(table.score(Color::White, takes_rook), history_bonus(5));
        assert_eq!(table.score(Color::White, takes_pawn), -history_malus(5));
        assert_eq!(table.score(Color::Black, takes_rook), 0);
        table.update(Color::White, 5, None, [takes_rook]);
        assert!(table.score(Color::White, takes_rook) < history_bonus(5));
    }

    #[test]
    fn killers_keep_two_distinct_moves() {
        let mut killers = Killers::default();
        killers.record(3, 10);
        killers.record(3, 10);
        killers.record(3, 20);
        assert_eq!(killers.at(3), [20, 10]);
        killers.record(3, 30);
        assert_eq!(killers.at(3), [30, 20]);
        assert_eq!(killers.at(4), [NO_MOVE; 2]);
    }
}
