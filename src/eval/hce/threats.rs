//! Threats: enemy pieces attacked by pawns or by lesser pieces, hanging pieces, and pawn
//! pushes that would attack a piece.

use shakmaty::{Bitboard, Color, Rank, Role};

use super::bits::{pawn_attacks, shift_forward};
use super::context::Context;
use super::terms::{Sink, Term};

/// Reports both sides' threats. Needs the attack maps of both.
pub fn evaluate<K: Sink>(ctx: &Context, sink: &mut K) {
    for color in Color::ALL {
        side(ctx, color, sink);
    }
}

fn side<K: Sink>(ctx: &Context, color: Color, sink: &mut K) {
    let board = ctx.board;
    let (us, them) = (color as usize, !color as usize);
    let enemies = board.by_color(!color);
    let pieces = enemies & !board.pawns() & !board.kings();
    // Enemies not defended by a pawn: worth attacking even with a piece of equal value.
    let not_pawn_defended = enemies & !ctx.attacked_by[them][Role::Pawn as usize - 1];
    let minors = ctx.attacks_of(color, Role::Knight) | ctx.attacks_of(color, Role::Bishop);
    let rooks = ctx.attacks_of(color, Role::Rook);
    let by_pawn = ctx.attacks_of(color, Role::Pawn);

    for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let targets = board.by_role(role) & enemies;
        let index = role as usize - 1;
        if role != Role::Pawn {
            add_count(sink, color, Term::ThreatByPawn, index - 1, by_pawn & targets);
        }
        let minor_targets =
            if matches!(role, Role::Rook | Role::Queen) { targets } else { targets & not_pawn_defended };
        add_count(sink, color, Term::ThreatByMinor, index, minors & minor_targets);
        let rook_targets = if role == Role::Queen { targets } else { targets & not_pawn_defended };
        add_count(sink, color, Term::ThreatByRook, index, rooks & rook_targets);
    }
    add_count(sink, color, Term::ThreatHanging, 0, pieces & ctx.attacked[us] & !ctx.attacked[them]);

    let our_pawns = board.pawns() & board.by_color(color);
    let empty = !ctx.occupied;
    let single = shift_forward(color, our_pawns) & empty;
    let third_rank = Bitboard::from_rank(if color == Color::White { Rank::Third } else { Rank::Sixth });
    let double = shift_forward(color, single & third_rank) & empty;
    let safe =
        (single | double) & !ctx.attacked_by[them][Role::Pawn as usize - 1] & (ctx.attacked[us] | !ctx.attacked[them]);
    add_count(sink, color, Term::ThreatPawnPush, 0, pawn_attacks(color, safe) & pieces);
}

/// Reports `term[index]` once per square of `squares`, if any.
#[inline]
fn add_count<K: Sink>(sink: &mut K, color: Color, term: Term, index: usize, squares: Bitboard) {
    if squares.any() {
        sink.add(color, term, index, squares.count() as i32);
    }
}
