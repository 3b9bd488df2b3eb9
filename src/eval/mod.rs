//! Static evaluation: tapered material and piece-square tables plus mobility.
//!
//! `evaluate` returns centipawns from the side to move's point of view.

pub mod params;
pub mod wdl;

use once_cell::sync::Lazy;
use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, Square, attacks};

use params::*;

/// Piece-square values including material, [role][relative square] as (mg, eg), where the
/// relative square is the square seen from the owner's side (White's view for White).
static PIECE_SQUARE: Lazy<[[Pair; 64]; 6]> = Lazy::new(build_piece_square_tables);

fn build_piece_square_tables() -> [[Pair; 64]; 6] {
    let mut table = [[(0, 0); 64]; 6];
    for (role_index, role_table) in table.iter_mut().enumerate() {
        for (sq, entry) in role_table.iter_mut().enumerate() {
            let file = (sq % 8) as i32;
            let rank = (sq / 8) as i32;
            // Steps towards the centre: 0 on the corners, 6 on d4/e4/d5/e5.
            let centrality = 6 - ((2 * file - 7).abs() + (2 * rank - 7).abs() - 2) / 2;
            let (cmg, ceg) = CENTRALISATION[role_index];
            let (mut mg, mut eg) = MATERIAL[role_index];
            mg += cmg * (centrality - 3);
            eg += ceg * (centrality - 3);
            match role_index {
                0 => {
                    mg += PAWN_ADVANCE[rank as usize].0;
                    eg += PAWN_ADVANCE[rank as usize].1;
                    if (3..=4).contains(&file) && (3..=4).contains(&rank) {
                        mg += PAWN_CENTER;
                    }
                }
                3 if rank == 6 => {
                    mg += ROOK_SEVENTH.0;
                    eg += ROOK_SEVENTH.1;
                }
                5 => {
                    mg += if rank == 0 { KING_HOME_RANK[file as usize] } else { KING_ADVANCE * rank };
                }
                _ => {}
            }
            *entry = (mg, eg);
        }
    }
    table
}

/// Index of a role in the weight tables.
#[inline]
fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// Evaluates `pos` in centipawns for the side to move.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let (mut mg, mut eg, mut phase) = (0, 0, 0);
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let (m, e, p) = side_terms(board, color);
        mg += sign * m;
        eg += sign * e;
        phase += p;
    }
    let phase = phase.min(PHASE_TOTAL);
    let white = (mg * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL;
    let relative = if pos.turn() == Color::White { white } else { -white };
    relative + TEMPO
}

/// Middlegame score, endgame score and phase contribution of one side's pieces.
fn side_terms(board: &Board, color: Color) -> (i32, i32, i32) {
    let tables = &*PIECE_SQUARE;
    let ours = board.by_color(color);
    let occupied = board.occupied();
    let their_pawns = board.pawns() & board.by_color(!color);
    let pawn_attacked = pawn_attack_span(their_pawns, !color);
    let mobility_area = !ours & !pawn_attacked;
    let (mut mg, mut eg, mut phase) = (0, 0, 0);

    for role in Role::ALL {
        let index = role_index(role);
        let pieces = board.by_role(role) & ours;
        let (mob_mg, mob_eg) = MOBILITY[index];
        for sq in pieces {
            let relative = if color == Color::White { sq } else { sq.flip_vertical() };
            let (m, e) = tables[index][relative as usize];
            mg += m;
            eg += e;
            phase += PHASE_WEIGHT[index];
            if mob_mg != 0 || mob_eg != 0 {
                let reach = piece_attacks(role, sq, occupied) & mobility_area;
                let surplus = reach.count() as i32 - MOBILITY_BASE[index];
                mg += mob_mg * surplus;
                eg += mob_eg * surplus;
            }
        }
    }
    if (board.bishops() & ours).count() >= 2 {
        mg += BISHOP_PAIR.0;
        eg += BISHOP_PAIR.1;
    }
    (mg, eg, phase)
}

/// Squares attacked by a non-pawn piece.
#[inline]
fn piece_attacks(role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, occupied),
        Role::Rook => attacks::rook_attacks(sq, occupied),
        Role::Queen => attacks::queen_attacks(sq, occupied),
        Role::King => attacks::king_attacks(sq),
        Role::Pawn => Bitboard::EMPTY,
    }
}

/// All squares attacked by `pawns` of `color`.
#[inline]
fn pawn_attack_span(pawns: Bitboard, color: Color) -> Bitboard {
    let not_a = !Bitboard::from(shakmaty::File::A);
    let not_h = !Bitboard::from(shakmaty::File::H);
    if color == Color::White {
        Bitboard(((pawns & not_a).0 << 7) | ((pawns & not_h).0 << 9))
    } else {
        Bitboard(((pawns & not_a).0 >> 9) | ((pawns & not_h).0 >> 7))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn start_position_is_balanced_apart_from_tempo() {
        assert_eq!(evaluate(&Chess::default()), TEMPO);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        let fens = [
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
            ),
            ("8/5k2/8/3P4/8/8/5K2/8 w - - 0 1", "8/5k2/8/8/3p4/8/5K2/8 b - - 0 1"),
        ];
        for (a, b) in fens {
            assert_eq!(evaluate(&position(a)), evaluate(&position(b)), "{a} vs {b}");
        }
    }

    #[test]
    fn pawn_attacks_match_shakmaty() {
        let pos = position("k7/p1p4p/8/3p4/8/P3P2P/8/K7 w - - 0 1");
        for color in Color::ALL {
            let pawns = pos.board().pawns() & pos.board().by_color(color);
            let expected = pawns.into_iter().fold(Bitboard::EMPTY, |acc, sq| acc | attacks::pawn_attacks(color, sq));
            assert_eq!(pawn_attack_span(pawns, color), expected);
        }
    }

    #[test]
    fn extra_material_is_better() {
        let up_a_knight = position("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
        assert!(evaluate(&up_a_knight) > 250);
    }
}
