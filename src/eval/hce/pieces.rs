//! Material, piece squares, mobility and the piece terms (outposts, bad bishops, rooks and
//! queens on files and the seventh rank, the bishop pair); fills the attack maps.

use shakmaty::{Bitboard, Color, Rank, Role, Square, attacks};

use super::bits::{file_of, relative_rank, relative_square, square_ahead};
use super::context::Context;
use super::terms::{Sink, Term};
use super::weights::{BISHOP_MOBILITY, KNIGHT_MOBILITY, QUEEN_MOBILITY, ROOK_MOBILITY};

/// Reports material and piece squares of every piece, then each side's piece terms.
pub fn evaluate<K: Sink>(ctx: &mut Context, sink: &mut K) {
    let board = ctx.board;
    for color in Color::ALL {
        // One call per role with the term known at compile time keeps the weight look-up a
        // plain array index.
        let mut place = |role: Role, term: Term| {
            let pieces = board.by_role(role) & board.by_color(color);
            if role != Role::King {
                sink.add(color, Term::Material, role as usize - 1, pieces.count() as i32);
            }
            for sq in pieces {
                sink.add(color, term, relative_square(color, sq) as usize, 1);
            }
        };
        place(Role::Pawn, Term::PawnSquares);
        place(Role::Knight, Term::KnightSquares);
        place(Role::Bishop, Term::BishopSquares);
        place(Role::Rook, Term::RookSquares);
        place(Role::Queen, Term::QueenSquares);
        place(Role::King, Term::KingSquares);
    }
    // Both sides' pawn and king attacks are in the context, so every mobility area is known.
    let areas = Color::ALL.map(|color| mobility_area(ctx, color));
    for color in Color::ALL {
        side(ctx, color, areas[color as usize], sink);
    }
}

/// The squares `color`'s pieces count as mobility: not its own pawns or king, not attacked
/// by enemy pawns.
fn mobility_area(ctx: &Context, color: Color) -> Bitboard {
    let board = ctx.board;
    let own = board.by_color(color) & (board.pawns() | board.kings());
    !own & !ctx.attacks_of(!color, Role::Pawn)
}

/// The piece terms of `color`.
fn side<K: Sink>(ctx: &mut Context, color: Color, area: Bitboard, sink: &mut K) {
    let board = ctx.board;
    let us = board.by_color(color);
    let our_pawns = board.pawns() & us;
    let all_pawns = board.pawns();
    let their_king = ctx.king[!color as usize];
    let their_zone = ctx.king_zone[!color as usize];
    let their_seventh_pawns = board.pawns() & board.by_color(!color) & seventh_rank(color);
    let pawn_defended = ctx.attacks_of(color, Role::Pawn);

    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in board.by_role(role) & us {
            let reach = piece_attacks(role, sq, ctx.occupied);
            ctx.note_attacks(color, role, reach);
            // Counts past a table's last entry score as that entry.
            let (mobility, max) = match role {
                Role::Knight => (Term::KnightMobility, KNIGHT_MOBILITY.len() - 1),
                Role::Bishop => (Term::BishopMobility, BISHOP_MOBILITY.len() - 1),
                Role::Rook => (Term::RookMobility, ROOK_MOBILITY.len() - 1),
                _ => (Term::QueenMobility, QUEEN_MOBILITY.len() - 1),
            };
            sink.add(color, mobility, (reach & area).count().min(max), 1);
            let zone_hits = reach & their_zone;
            if zone_hits.any() {
                ctx.king_attackers[color as usize][role as usize - 2] += 1;
                ctx.king_zone_attacks[color as usize] += zone_hits.count() as i32;
            }

            let rank = relative_rank(color, sq);
            match role {
                Role::Knight | Role::Bishop => {
                    let outpost = (3..=5).contains(&rank) && !ctx.pawn_span[!color as usize].contains(sq);
                    if outpost {
                        let index = 2 * usize::from(role == Role::Bishop) + usize::from(pawn_defended.contains(sq));
                        sink.add(color, Term::Outpost, index, 1);
                    }
                    if square_ahead(color, sq).is_some_and(|front| our_pawns.contains(front)) {
                        sink.add(color, Term::MinorBehindPawn, 0, 1);
                    }
                    if role == Role::Bishop {
                        let same_colour = if sq.is_dark() { Bitboard::DARK_SQUARES } else { Bitboard::LIGHT_SQUARES };
                        sink.add(color, Term::BishopPawns, 0, (our_pawns & same_colour).count() as i32);
                    }
                }
                _ => {
                    let file = file_of(sq.file());
                    if (file & our_pawns).is_empty() {
                        let term = if role == Role::Rook { Term::RookFile } else { Term::QueenFile };
                        sink.add(color, term, usize::from((file & all_pawns).is_empty()), 1);
                    }
                    let seventh = rank == 6 && (relative_rank(color, their_king) == 7 || their_seventh_pawns.any());
                    if seventh {
                        let term = if role == Role::Rook { Term::RookSeventh } else { Term::QueenSeventh };
                        sink.add(color, term, 0, 1);
                    }
                }
            }
        }
    }
    if (board.bishops() & us).more_than_one() {
        sink.add(color, Term::BishopPair, 0, 1);
    }
}

/// The seventh rank seen from `color`.
fn seventh_rank(color: Color) -> Bitboard {
    Bitboard::from_rank(if color == Color::White { Rank::Seventh } else { Rank::Second })
}

/// Squares attacked by a knight, bishop, rook or queen on `sq`.
#[inline]
pub fn piece_attacks(role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, occupied),
        Role::Rook => attacks::rook_attacks(sq, occupied),
        Role::Queen => attacks::queen_attacks(sq, occupied),
        Role::King => attacks::king_attacks(sq),
        Role::Pawn => Bitboard::EMPTY,
    }
}
