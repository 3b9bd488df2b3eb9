//! Pawn structure and the pawns around each king: the terms that depend on pawns and king
//! squares alone, so the engine caches them by a key of those.

use shakmaty::{Bitboard, Board, Color, File, Square, attacks};

use super::bits::{adjacent_files, file_of, front_span, passed_span, ranks_ahead, relative_rank, square_ahead};
use super::terms::{Sink, Term};

/// Reports the pawn-structure and king-shelter terms; returns both colours' passed pawns.
pub fn evaluate<K: Sink>(board: &Board, sink: &mut K) -> Bitboard {
    let mut passed = Bitboard::EMPTY;
    for color in Color::ALL {
        passed |= structure(board, color, sink);
        shelter(board, color, sink);
    }
    passed
}

/// Doubled, isolated, backward, connected, phalanx and candidate pawns of `color`.
fn structure<K: Sink>(board: &Board, color: Color, sink: &mut K) -> Bitboard {
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let mut passed = Bitboard::EMPTY;
    for sq in ours {
        let rank = relative_rank(color, sq);
        let ahead = front_span(color, sq);
        let opposed = (ahead & theirs).any();
        let neighbours = adjacent_files(sq.file()) & ours;
        let level_or_behind = neighbours & !ranks_ahead(color, sq);
        let supporters = attacks::pawn_attacks(!color, sq) & ours;
        let phalanx = neighbours & Bitboard::from_rank(sq.rank());
        let unopposed = usize::from(!opposed);

        if (ahead & ours).any() {
            sink.add(color, Term::PawnDoubled, 0, 1);
        }
        if neighbours.is_empty() {
            sink.add(color, Term::PawnIsolated, unopposed, 1);
        } else if level_or_behind.is_empty()
            && let Some(stop) = square_ahead(color, sq)
            && (attacks::pawn_attacks(color, stop) & theirs).any()
        {
            sink.add(color, Term::PawnBackward, unopposed, 1);
        }
        if supporters.any() {
            sink.add(color, Term::PawnConnected, rank, 1);
        }
        if phalanx.any() {
            sink.add(color, Term::PawnPhalanx, rank, 1);
        }
        let stoppers = passed_span(color, sq) & theirs;
        if stoppers.is_empty() && (ahead & ours).is_empty() {
            passed.add(sq);
        } else if !opposed && stoppers.count() <= level_or_behind.count() {
            sink.add(color, Term::PawnCandidate, rank, 1);
        }
    }
    passed
}

/// The pawn shield and storm on the king's file and its neighbours, and the open files there.
fn shelter<K: Sink>(board: &Board, color: Color, sink: &mut K) {
    let Some(king) = (board.kings() & board.by_color(color)).first() else { return };
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let in_front = ranks_ahead(color, king) | Bitboard::from_rank(king.rank());
    let king_file = king.file() as u32;
    for file in king_file.saturating_sub(1)..=(king_file + 1).min(7) {
        let file_squares = file_of(File::new(file));
        let own_rank = nearest_rank(color, ours & file_squares & in_front);
        let their_rank = nearest_rank(color, theirs & file_squares & in_front);
        let on_king_file = usize::from(file == king_file);
        sink.add(color, Term::KingShelter, on_king_file * 8 + own_rank, 1);
        let blocked = own_rank != 0 && their_rank == own_rank + 1;
        sink.add(color, Term::KingStorm, usize::from(blocked) * 8 + their_rank, 1);
        if (ours & file_squares).is_empty() {
            sink.add(color, Term::KingOpenFile, usize::from((theirs & file_squares).is_empty()), 1);
        }
    }
}

/// The lowest rank, counted from `color`'s side, of `pawns`; 0 when there are none.
fn nearest_rank(color: Color, pawns: Bitboard) -> usize {
    pawns.into_iter().map(|sq: Square| relative_rank(color, sq)).min().unwrap_or(0)
}
