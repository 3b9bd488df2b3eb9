//! King attack: the attacking side's units (attackers, zone attacks, weak squares, safe
//! checks), counted only when at least two pieces (one with a queen) bear on the zone.

use shakmaty::{Bitboard, Color, Role, attacks};

use super::context::Context;
use super::terms::{Sink, Term};

/// Reports the king-attack units of both sides. Needs the attack maps of both.
pub fn evaluate<K: Sink>(ctx: &Context, sink: &mut K) {
    for color in Color::ALL {
        attack(ctx, color, sink);
    }
}

/// `color`'s attack on the enemy king.
fn attack<K: Sink>(ctx: &Context, color: Color, sink: &mut K) {
    let (us, them) = (color as usize, !color as usize);
    let board = ctx.board;
    let attackers = ctx.king_attackers[us];
    let queens = (board.queens() & board.by_color(color)).count() as i32;
    if attackers.iter().sum::<i32>() <= 1 - queens {
        return;
    }
    for (index, &count) in attackers.iter().enumerate() {
        if count > 0 {
            sink.add(color, Term::SafetyAttacker, index, count);
        }
    }
    sink.add(color, Term::SafetyZoneAttacks, 0, ctx.king_zone_attacks[us]);

    // Squares we attack that the defender covers only with the king or queen, or not at all.
    let defender_weak_cover = !ctx.attacked[them]
        | ctx.attacked_by[them][Role::King as usize - 1]
        | ctx.attacked_by[them][Role::Queen as usize - 1];
    let weak = ctx.attacked[us] & !ctx.attacked_twice[them] & defender_weak_cover;
    sink.add(color, Term::SafetyWeakSquares, 0, (weak & ctx.king_zone[them]).count() as i32);

    let safe = !board.by_color(color) & (!ctx.attacked[them] | (weak & ctx.attacked_twice[us]));
    let king = ctx.king[them];
    let diagonals = attacks::bishop_attacks(king, ctx.occupied);
    let lines = attacks::rook_attacks(king, ctx.occupied);
    let knight_checks = attacks::knight_attacks(king) & ctx.attacks_of(color, Role::Knight) & safe;
    let bishop_checks = diagonals & ctx.attacks_of(color, Role::Bishop) & safe;
    let rook_checks = lines & ctx.attacks_of(color, Role::Rook) & safe;
    let queen_checks = (diagonals | lines) & ctx.attacks_of(color, Role::Queen) & safe & !rook_checks;
    for (index, checks) in [knight_checks, bishop_checks, rook_checks, queen_checks].into_iter().enumerate() {
        if checks != Bitboard::EMPTY {
            sink.add(color, Term::SafetySafeCheck, index, checks.count() as i32);
        }
    }
    if queens == 0 {
        sink.add(color, Term::SafetyNoQueen, 0, 1);
    }
    sink.add(color, Term::SafetyOffset, 0, 1);
}
