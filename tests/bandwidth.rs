//! The bandwidth searcher against known answers: alpha-beta's best case on perfectly ordered
//! trees and the double expansion's counts, exact minimax on random trees whose estimates
//! respect the band (or whose look-ahead deepens past them, answering narrow windows with
//! bounds), the windows of sons, the direction of the drop rule, four verified mates and the
//! longest resistance, search limits, idle thinking, tree reuse across moves, and the memory
//! cap.

mod common;

use std::sync::Arc;
use std::time::Instant;

use harrier::moves::{MoveCode, decode, encode, parse_uci};
use harrier::search::alphabeta::Features;
use harrier::search::bandwidth::Bandwidth;
use harrier::search::bandwidth::chess::{ChessPos, ChessTree};
use harrier::search::bandwidth::game::{GameTree, Window};
use harrier::search::bandwidth::params::{
    BandwidthParams, BandwidthStyle, HYBRID_FULL_TAPER_LEVELS, HYBRID_LOOK_AHEAD_TAPER, LOOK_AHEAD_TAPER, MAX_BAND,
    UNCONFIRMED_DISCOUNT_CP,
};
use harrier::search::bandwidth::searcher::{Searcher, Step, back_up, son_window};
use harrier::search::bandwidth::synthetic::{LookAheadTree, RandomTree, UniformPos, UniformTree};
use harrier::search::bandwidth::tree::{CUT, DROPPED, PROVEN, TERMINAL};
use harrier::search::{Limits, MATE, Score, SearchJob, Searcher as _, Signals, Silent};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, zobrist::Zobrist64};

/// Node cap of the synthetic searches: more than any of their trees needs.
const SYNTHETIC_CAP: usize = 1 << 18;
/// Tree and tip cache of the chess searches, in MB.
const CHESS_MB: usize = 16;
/// Positions (tree and probes) the mate searches may visit.
const MATE_BUDGET: u64 = 2_000_000;

fn params(band: i32, strict_harris: bool) -> BandwidthParams {
    BandwidthParams { band, strict_harris, ..BandwidthParams::default() }
}

/// The hybrid's settings with band `band`, its look-ahead starting from one ply.
fn hybrid(band: i32) -> BandwidthParams {
    BandwidthParams { style: BandwidthStyle::Hybrid, band, tip_probe_depth: 1, ..BandwidthParams::default() }
}

fn never() -> bool {
    false
}

fn uniform_searcher(tree: UniformTree, p: BandwidthParams) -> Searcher<UniformTree> {
    let root = tree.root();
    Searcher::new(tree, root, p, SYNTHETIC_CAP).unwrap()
}

/// Expands until nothing in the band is left; returns the number of expansions.
fn run_to_end<G: GameTree>(searcher: &mut Searcher<G>, budget: u64) -> u64 {
    for n in 0..budget {
        match searcher.step(&mut never) {
            Step::Expanded => {}
            Step::Done => return n,
            other => panic!("unexpected {other:?}"),
        }
    }
    panic!("no end after {budget} expansions");
}

/// Plain fail-hard alpha-beta over a uniform tree in its move order; counts leaf visits.
fn alpha_beta(tree: &mut UniformTree, pos: UniformPos, mut alpha: i32, beta: i32, leaves: &mut u64) -> i32 {
    let mut moves = Vec::new();
    tree.moves(&pos, &mut moves);
    if moves.is_empty() {
        *leaves += 1;
        return tree.value(pos);
    }
    for m in moves {
        let child = tree.play(&pos, m);
        let value = -alpha_beta(tree, child, -beta, -alpha, leaves);
        if value >= beta {
            return beta;
        }
        alpha = alpha.max(value);
    }
    alpha
}

#[test]
fn alpha_beta_reference_meets_levins_count() {
    for b in 2..=4usize {
        for n in 1..=6usize {
            let mut tree = UniformTree::perfectly_ordered(b, n);
            let mut leaves = 0;
            let root = tree.root();
            let value = alpha_beta(&mut tree, root, -100_000, 100_000, &mut leaves);
            assert_eq!(value, tree.minimax());
            let expected = b.pow(n.div_ceil(2) as u32) + b.pow((n / 2) as u32) - 1;
            assert_eq!(leaves, expected as u64, "b={b} n={n}");
        }
    }
    let mut tree = UniformTree::perfectly_ordered(3, 4);
    let mut leaves = 0;
    let root = tree.root();
    alpha_beta(&mut tree, root, -100_000, 100_000, &mut leaves);
    assert_eq!((leaves, 3u64.pow(4)), (17, 81));
}

#[test]
fn with_exact_estimates_a_zero_band_expands_only_the_principal_line() {
    // Not a proof procedure: it trusts estimates the band says are exact, so it needs fewer
    // leaves than alpha-beta's minimal tree.
    for (b, n) in [(2, 4), (3, 4), (4, 4), (3, 6)] {
        let tree = UniformTree::perfectly_ordered(b, n);
        let exact = tree.minimax();
        let mut searcher = uniform_searcher(tree, params(0, false));
        assert_eq!(run_to_end(&mut searcher, 100) as usize, n / 2);
        assert_eq!(searcher.root_value(), exact);
        let levin = b.pow(n.div_ceil(2) as u32) + b.pow((n / 2) as u32) - 1;
        let leaves = searcher.game().evaluations()[n] as usize;
        assert!(leaves == 2 * b - 1 && leaves < levin, "b={b} n={n}: {leaves} leaves");
    }
}

#[test]
fn double_expansion_evaluates_2b_minus_1_or_b_squared_grandsons() {
    for b in 2..=8usize {
        for (band, expected) in [(0, 2 * b - 1), (MAX_BAND, b * b)] {
            let mut searcher = uniform_searcher(UniformTree::perfectly_ordered(b, 2), params(band, false));
            assert_eq!(searcher.step(&mut never), Step::Expanded);
            let evaluations = searcher.game().evaluations();
            assert_eq!(evaluations[1], b as u64, "every son is valued");
            assert_eq!(evaluations[2], expected as u64, "b={b} B={band}");
            assert_eq!(searcher.root_value(), UniformTree::perfectly_ordered(b, 2).minimax());
        }
    }
}

#[test]
fn unlimited_band_with_full_expansion_is_minimax_for_any_estimates() {
    for seed in 0..100 {
        let tree = UniformTree::random(3, 5, seed, 700, 900);
        let exact = tree.minimax();
        let mut searcher = uniform_searcher(tree, params(MAX_BAND, false));
        run_to_end(&mut searcher, 10_000);
        assert_eq!(searcher.root_value(), exact, "seed {seed}");
        assert!(searcher.root().has(PROVEN), "a fully expanded tree is proven");
    }
}

#[test]
fn exact_estimates_with_zero_band_give_minimax() {
    for seed in 0..100 {
        let tree = UniformTree::random(4, 4, seed, 0, 0);
        let exact = tree.minimax();
        let mut searcher = uniform_searcher(tree, params(0, false));
        let expansions = run_to_end(&mut searcher, 10_000);
        assert_eq!(searcher.root_value(), exact, "seed {seed}");
        // With exact estimates the band keeps only the best lines.
        assert!(expansions < 4 + 16, "seed {seed}: {expansions} expansions");
    }
}

/// Searches random trees with errors in [-e, +d] to the end under band `band`; returns the
/// seeds whose root value is not the exact minimax value.
fn wrong_seeds(e: i32, d: i32, band: i32, strict: bool, seeds: std::ops::Range<u64>) -> Vec<u64> {
    seeds
        .filter(|&seed| {
            let tree = UniformTree::random(3, 6, seed, e, d);
            let exact = tree.minimax();
            let mut searcher = uniform_searcher(tree, params(band, strict));
            run_to_end(&mut searcher, 100_000);
            searcher.root_value() != exact
        })
        .collect()
}

#[test]
fn band_covering_the_errors_gives_exact_minimax() {
    for (e, d) in [(0, 150), (150, 0), (60, 90), (200, 200)] {
        for strict in [false, true] {
            let wrong = wrong_seeds(e, d, e + d, strict, 0..100);
            assert!(wrong.is_empty(), "e={e} d={d} strict={strict}: wrong on seeds {wrong:?}");
        }
    }
}

#[test]
fn band_narrower_than_the_errors_fails_somewhere() {
    for strict in [false, true] {
        let wrong = wrong_seeds(200, 200, 50, strict, 0..100);
        assert!(!wrong.is_empty(), "strict={strict}: a narrow band never failed");
    }
}

/// Searches random trees with errors in [-200, +200] under a 50-point band, the tips valued
/// by look-ahead probes that deepen from one ply as the hybrid's tree deepens them; returns
/// the seeds whose root value is not the exact minimax value once nothing is left to expand.
fn wrong_seeds_with_deepening(seeds: std::ops::Range<u64>) -> Vec<u64> {
    let p = hybrid(50);
    seeds
        .filter(|&seed| {
            let tree = LookAheadTree::new(UniformTree::random(3, 6, seed, 200, 200));
            let exact = tree.tree().minimax();
            let root = tree.tree().root();
            let mut searcher = Searcher::new(tree, root, p, SYNTHETIC_CAP).unwrap();
            for _ in 0..100_000 {
                match searcher.step(&mut never) {
                    Step::Expanded | Step::Refreshed | Step::Deepened => {}
                    Step::Done => return searcher.root_value() != exact,
                    other => panic!("seed {seed}: unexpected {other:?}"),
                }
            }
            panic!("seed {seed}: no end after 100000 steps");
        })
        .collect()
}

#[test]
fn the_hybrids_tree_finds_minimax_through_a_narrow_band() {
    // The same errors and band fail without deepening (the test above). The hybrid's tree
    // deepens seldom, pushes the horizon of each line it grows a ply at a time and looks
    // deeper at the runner-up root son every second step; the tips along the selected line
    // get a second look each time the look-ahead grows, so a son that a shallow estimate
    // put out of the band comes back when a deeper one clears it: once nothing is left to
    // expand it must hold the exact value.
    let wrong = wrong_seeds_with_deepening(0..100);
    assert!(wrong.is_empty(), "wrong on seeds {wrong:?}");
}

#[test]
fn a_sons_window_follows_its_fathers_window_and_the_band_of_its_brothers() {
    let full = Window::FULL;
    // At the root only the band of the best brother bounds a son: from its side, a value
    // at or above the top puts it out of the band.
    assert_eq!(son_window(full, None, 30), full);
    assert_eq!(son_window(full, Some(100), 30), Window { alpha: full.alpha, beta: -69 });
    // Below, the father's window turns over: a son at or below alpha takes the father
    // above its window, one at or above beta below it...
    let father = Window { alpha: -50, beta: 20 };
    assert_eq!(son_window(father, None, 0), Window { alpha: -20, beta: 50 });
    // ...unless a brother reaches into the father's window: then the band of that brother
    // decides, narrower than the father's window or, with a wide band, wider (a son
    // inside the band is selected whatever the father is worth).
    assert_eq!(son_window(father, Some(0), 0), Window { alpha: -20, beta: 1 });
    assert_eq!(son_window(father, Some(0), 30), Window { alpha: -20, beta: 31 });
    assert_eq!(son_window(father, Some(0), 60), Window { alpha: -20, beta: 61 });
    assert_eq!(son_window(father, Some(-80), 0), Window { alpha: -20, beta: 50 });
    // Mate values back up one ply longer: an edge among them is no edge for the son.
    let mating = Window { alpha: MATE - 10, beta: MATE };
    assert_eq!(son_window(mating, None, 0), full);
    // The band's edge at a brother in the mate range lies where the son's value, backed
    // up, falls below the brother's: a son that ties it (the same mate) is inside.
    for best in [MATE - 3, MATE - 40, -(MATE - 2), -(MATE - 41), 0] {
        for band in [0, 30] {
            let beta = son_window(full, Some(best), band).beta;
            assert!(back_up(beta) < best - band, "{best} {band}: {beta} is out of the band");
            assert!(back_up(beta - 1) >= best - band, "{best} {band}: {} is inside it", beta - 1);
        }
    }
}

#[test]
fn a_son_tying_its_mating_brother_gets_a_value_and_the_search_goes_on() {
    // Every black move but one is mated at once; the search used to ask a son that ties
    // its brother (mated in one) whether it lies out of the band, over and over, and ran
    // out of time holding a mate in 3 (Rxa7) instead of this mate in 2.
    let fen = "1K1b4/n1RB2N1/PpQ1pP1P/kp2P2P/3p1ppN/PR1pP1Pn/2b2rpB/2r4q w - - 0 1";
    let mut searcher = bandwidth(BandwidthParams::default());
    let outcome = searcher.search(&job(position(fen), Vec::new(), nodes(MATE_BUDGET)), &mut Silent);
    let best = outcome.best.map(|m| m.to_uci(CastlingMode::Standard).to_string());
    assert_eq!(best.as_deref(), Some("b8a7"), "{:?}", outcome.report);
    assert_eq!(outcome.report.score, Score::Mate(2), "{:?}", outcome.report);
}

/// Steps until an expansion that left the look-ahead as it was (its new tips are up to
/// date), at a look-ahead of at least `enough` (it also grows when nothing in the band is
/// left to expand). Returns the moves of the root sons the runner-up challenge looked at
/// further ahead than the schedule asked: the lines grown below such a son keep that look,
/// since a line loses no more than the taper by growing.
fn run_to_settled_expansion(searcher: &mut Searcher<LookAheadTree>, enough: u32) -> Vec<MoveCode> {
    let mut looked_further = Vec::new();
    for _ in 0..100_000 {
        let before = searcher.probe_depth();
        let step = searcher.step(&mut never);
        assert!(matches!(step, Step::Expanded | Step::Refreshed | Step::Deepened), "{step:?}");
        let tree = searcher.tree();
        for c in tree.children(tree.root()) {
            let son = tree.node(c);
            if son.depth() > searcher.look_ahead_at(1, son.extension()) && !looked_further.contains(&son.mv()) {
                looked_further.push(son.mv());
            }
        }
        if step == Step::Expanded && before >= enough && searcher.probe_depth() == before {
            return looked_further;
        }
    }
    panic!("no settled expansion at a look-ahead of {enough} after 100000 steps");
}

/// The look-ahead the hybrid takes off the tips `level` double expansions below the
/// root's: the full taper for the first levels, which keep the root's horizon, and the
/// hybrid's lesser one for each level below them.
fn hybrid_taper(level: u32) -> u32 {
    let full = level.min(HYBRID_FULL_TAPER_LEVELS);
    full * LOOK_AHEAD_TAPER + (level - full) * HYBRID_LOOK_AHEAD_TAPER
}

#[test]
fn each_double_expansion_below_the_root_tapers_the_look_ahead_of_its_tips() {
    let tree = LookAheadTree::new(UniformTree::random(3, 12, 7, 200, 200));
    let root = tree.tree().root();
    let p = hybrid(0);
    let mut searcher = Searcher::new(tree, root, p, SYNTHETIC_CAP).unwrap();
    // At a look-ahead where the levels checked below are still above the base.
    let looked_further = run_to_settled_expansion(&mut searcher, (1 + hybrid_taper(3)).max(6));
    // The root's sons and grandsons look as far ahead as the search does; a son valued by
    // its own probe looks one ply further than its replies, so both share one horizon.
    assert_eq!(searcher.look_ahead_at(2, 0), searcher.probe_depth());
    let horizon = |ply: usize| ply as u32 + searcher.look_ahead_at(ply, 0);
    for level in 1..4 {
        let (son, reply) = (2 * level - 1, 2 * level);
        assert_eq!(horizon(son), horizon(reply), "level {level}");
        // Each double expansion gains two plies of tree and gives up its level's taper:
        // the first keep the root's horizon, each one below pushes it further.
        let taper = hybrid_taper(level as u32) - hybrid_taper(level as u32 - 1);
        assert_eq!(horizon(reply + 2), horizon(reply) + 2 - taper, "level {level}");
    }
    assert!(horizon(8) > horizon(2), "the tree extends its lines past the root's horizon");
    assert_eq!(searcher.look_ahead_at(60, 0), 1, "never below the base look-ahead");
    // The tree's tips were valued that way: none looks further ahead than the search asks
    // at its ply (below the root sons the runner-up challenge left alone), and deep ones
    // that are up to date look less far than the root's.
    let tree = searcher.tree();
    let mut stack: Vec<_> = tree.children(tree.root()).map(|c| (c, 1usize)).collect();
    stack.retain(|&(c, _)| !looked_further.contains(&tree.node(c).mv()));
    let mut tapered = 0;
    while let Some((id, ply)) = stack.pop() {
        let node = tree.node(id);
        if node.is_tip() && !node.has(TERMINAL) {
            assert!(node.depth() <= searcher.look_ahead_at(ply, 0), "a tip at ply {ply} looks too far");
            let asked = searcher.look_ahead_at(ply, 0);
            tapered += usize::from(ply >= 3 && node.depth() == asked && asked < searcher.look_ahead_at(ply - 2, 0));
        }
        stack.extend(tree.children(id).map(|c| (c, ply + 1)));
    }
    assert!(tapered > 0, "no up-to-date tip below the root's double expansion");
}

#[test]
fn a_move_that_extends_its_line_gives_every_tip_below_it_a_ply_more_look_ahead() {
    // The second move of every position extends (as a check does in chess).
    let tree = LookAheadTree::with_extending_move(UniformTree::random(3, 12, 7, 200, 200), 1);
    let root = tree.tree().root();
    let p = hybrid(0);
    let mut searcher = Searcher::new(tree, root, p, SYNTHETIC_CAP).unwrap();
    let looked_further = run_to_settled_expansion(&mut searcher, 4);
    let extending = searcher.game().code(1);
    assert_eq!(searcher.look_ahead_at(2, 1), searcher.look_ahead_at(2, 0) + 1);
    // No tip looks further ahead than its line asks for (below the root sons the runner-up
    // challenge left alone), and some up-to-date tips below an extending move look exactly
    // that far: further than an unextended line would.
    let tree = searcher.tree();
    let is_extending = |c| u32::from(tree.node(c).mv() == extending);
    let mut stack: Vec<_> = tree.children(tree.root()).map(|c| (c, 1usize, is_extending(c))).collect();
    stack.retain(|&(c, _, _)| !looked_further.contains(&tree.node(c).mv()));
    let mut extended = 0;
    while let Some((id, ply, ext)) = stack.pop() {
        let node = tree.node(id);
        if node.is_tip() && !node.has(TERMINAL) {
            let asked = searcher.look_ahead_at(ply, ext);
            assert!(node.depth() <= asked, "a tip at ply {ply} with extension {ext} looks too far");
            extended += usize::from(ext > 0 && node.depth() == asked && asked > searcher.look_ahead_at(ply, 0));
        }
        stack.extend(tree.children(id).map(|c| (c, ply + 1, ext + is_extending(c))));
    }
    assert!(extended > 0, "no tip below an extending move looked further ahead");
}

/// The hybrid's searcher with band 0 on a random tree (branching 4, depth 8) whose
/// estimates look ahead: as the look-ahead deepens, its best son's value often falls below
/// the bounds that scouts gave its brothers.
fn narrow_deepening_searcher(seed: u64) -> Searcher<LookAheadTree> {
    let p = hybrid(0);
    let tree = LookAheadTree::new(UniformTree::random(4, 8, seed, 200, 200));
    let root = tree.tree().root();
    Searcher::new(tree, root, p, SYNTHETIC_CAP).unwrap()
}

#[test]
fn a_son_ahead_only_by_a_scouts_bound_is_never_the_move_reported() {
    // With a narrow band and a deepening look-ahead, the best son's value often falls below
    // the bounds its brothers got from scouts against its old value: they lead by those
    // bounds until selection values them again. A search stopped then must not play one,
    // unless the trusted son is worse by more than the discount such bounds take.
    let mut led_by_a_bound = 0;
    for seed in 0..10 {
        let mut searcher = narrow_deepening_searcher(seed);
        for _ in 0..2_000 {
            match searcher.step(&mut never) {
                Step::Expanded | Step::Refreshed | Step::Deepened => {}
                Step::Done => break,
                other => panic!("seed {seed}: unexpected {other:?}"),
            }
            let tree = searcher.tree();
            let choices = searcher.root_choices();
            let Some(&(first, first_value)) = choices.first() else { continue };
            assert_eq!(
                searcher.principal_line()[0],
                tree.node(first).mv(),
                "seed {seed}: the line starts with the choice"
            );
            let trusted = choices.iter().filter(|&&(c, _)| !searcher.flatters_root(c)).map(|&(_, v)| v).max();
            if let (Some(trusted), true) = (trusted, searcher.flatters_root(first)) {
                assert!(!tree.node(first).is_tip(), "seed {seed}: a scouted tip reported before a trusted son");
                // The incumbent ranks as trusted; any other flattered son takes the discount.
                if searcher.incumbent_son() == Some(first) {
                    assert!(first_value >= trusted, "seed {seed}: the incumbent at {first_value} before {trusted}");
                } else {
                    assert!(
                        first_value - UNCONFIRMED_DISCOUNT_CP > trusted,
                        "seed {seed}: a flattered son at {first_value} reported before a trusted one at {trusted}"
                    );
                }
            }
            led_by_a_bound += usize::from(!searcher.best_son_trusted());
        }
    }
    assert!(led_by_a_bound > 0, "no search was ever led by a bound: the test tests nothing");
}

#[test]
fn the_last_trusted_best_son_keeps_its_place_until_a_brother_is_confirmed_better() {
    // When a deeper look leaves every root son's line ending in a bound in the root's
    // favour, the son that was last best with a trusted value is still played, as
    // alpha-beta plays its last finished iteration's move, unless a brother leads it by
    // more than the discount.
    let mut kept = 0;
    for seed in 0..10 {
        let mut searcher = narrow_deepening_searcher(seed);
        let mut incumbent = None;
        for _ in 0..2_000 {
            // The searcher notes the incumbent as a step begins.
            if !searcher.root().is_tip() && searcher.best_son_trusted() {
                let (tree, root) = (searcher.tree(), searcher.tree().root());
                incumbent = Some(tree.node(tree.children(root).start + searcher.root().best() as u32).mv());
            }
            match searcher.step(&mut never) {
                Step::Expanded | Step::Refreshed | Step::Deepened => {}
                Step::Done => break,
                other => panic!("seed {seed}: unexpected {other:?}"),
            }
            let tree = searcher.tree();
            assert_eq!(searcher.incumbent_son().map(|c| tree.node(c).mv()), incumbent, "seed {seed}");
            let Some(son) = searcher.incumbent_son() else { continue };
            let choices = searcher.root_choices();
            let value = choices.iter().find(|&&(c, _)| c == son).expect("the incumbent is a choice").1;
            let (first, first_value) = choices[0];
            if first != son && searcher.flatters_root(first) {
                assert!(
                    first_value - UNCONFIRMED_DISCOUNT_CP > value,
                    "seed {seed}: a son at {first_value} that a bound flatters displaced the incumbent at {value}"
                );
            }
            let challenged = choices.iter().any(|&(c, v)| c != son && searcher.flatters_root(c) && v > value);
            kept += usize::from(first == son && searcher.flatters_root(son) && challenged);
        }
    }
    assert!(kept > 0, "no flattered incumbent ever held off a flattered brother: the test tests nothing");
}

/// Checks which sons of `father` are out of the band and, in strict mode, dropped (never
/// the root's: its moves stay selectable).
fn assert_only_worst_dropped(searcher: &Searcher<UniformTree>, father: u32, strict: bool) {
    let tree = searcher.tree();
    let sons: Vec<u32> = tree.children(father).collect();
    assert_eq!(sons.len(), 3);
    let by_move = |code: u16| *sons.iter().find(|&&c| tree.node(c).mv() == code).unwrap();
    // Moves 1, 2, 3 are worth +100, 0, -300 to the side choosing at `father`.
    for (code, kept) in [(1, true), (2, true), (3, false)] {
        let son = by_move(code);
        assert_eq!(searcher.is_in_band(father, son), kept, "move {code}");
        assert_eq!(tree.node(son).has(DROPPED), strict && !kept && father != tree.root(), "move {code}");
    }
}

#[test]
fn drop_rule_leaves_out_only_the_son_the_chooser_likes_least() {
    // Root to move: its sons are worth +100, 0, -300 to it (the least of their three
    // leaves, which are valued from the root's side); the worst son's first reply refutes it.
    let root_chooses = vec![100, 150, 200, 0, 40, 90, -300, -250, -220];
    // A forced first move; then the opponent chooses among +100, 0, -300 (its view).
    let opponent_chooses = vec![100, 0, -300];
    for strict in [false, true] {
        let mut searcher = uniform_searcher(UniformTree::new(3, 2, root_chooses.clone()), params(150, strict));
        assert_eq!(searcher.step(&mut never), Step::Expanded);
        assert_only_worst_dropped(&searcher, searcher.tree().root(), strict);
        assert_eq!(searcher.root_value(), 100);
        let worst = searcher.tree().children(searcher.tree().root()).last().unwrap();
        assert!(searcher.tree().node(worst).has(CUT), "the -300 son is refuted by its first reply");

        let forced = UniformTree::new(3, 3, forced_line(&opponent_chooses));
        let mut searcher = uniform_searcher(forced, params(150, strict));
        assert_eq!(searcher.step(&mut never), Step::Expanded);
        let root = searcher.tree().root();
        let first = searcher.tree().children(root).find(|&c| searcher.tree().node(c).mv() == 1).unwrap();
        assert_only_worst_dropped(&searcher, first, strict);
    }
}

/// Leaves of a b=3, n=3 tree where the root's first move is far better than the others,
/// and after it the opponent's sons are worth `opponent` to the opponent; the root's other
/// moves are hopeless, so the first is effectively forced.
fn forced_line(opponent: &[i32]) -> Vec<i32> {
    let mut leaves = Vec::new();
    for first in 0..3 {
        for &v in opponent {
            // Grandson value (root to move there) is -v; its three leaves (opponent to
            // move) are v each.
            let v = if first == 0 { v } else { 5000 };
            leaves.extend([v; 3]);
        }
    }
    leaves
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

fn job(root: Chess, history: Vec<u64>, limits: Limits) -> SearchJob {
    SearchJob { root, history, limits, move_overhead: 0, started: Instant::now() }
}

fn bandwidth(p: BandwidthParams) -> Bandwidth {
    Bandwidth::new(CHESS_MB, p, Arc::new(Signals::default())).unwrap()
}

fn nodes(n: u64) -> Limits {
    Limits { nodes: Some(n), ..Limits::default() }
}

#[test]
fn finds_the_four_verified_mates() {
    let cases = [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", 1),
        ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6", 2),
        ("8/8/8/8/8/k7/8/1R2R1K1 w - - 0 1", "e1e2", 2),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "f6a6", 3),
    ];
    // Harris's search with one-ply probes at the tips proves each mate in its tree (the
    // root is exhausted); the engine's default, whose deepening probes find mates beyond
    // the tree, plays and reports them too.
    let harris = BandwidthParams { style: BandwidthStyle::Harris, tip_probe_depth: 1, ..BandwidthParams::default() };
    let strict_narrow = BandwidthParams { strict_harris: true, band: 0, ..harris };
    let strict_wide = BandwidthParams { strict_harris: true, band: 300, ..harris };
    // Under a depth penalty a strict drop can leave a node with only dropped sons.
    let strict_penalized = BandwidthParams { depth_penalty: 40, ..strict_narrow };
    let cases_by_params = [
        (harris, true),
        (strict_narrow, true),
        (strict_wide, true),
        (strict_penalized, true),
        (BandwidthParams::default(), false),
    ];
    for (params, proves) in cases_by_params {
        for (fen, answer, mate) in cases {
            let mut searcher = bandwidth(params);
            let outcome = searcher.search(&job(position(fen), Vec::new(), nodes(MATE_BUDGET)), &mut Silent);
            let best = outcome.best.map(|m| m.to_uci(CastlingMode::Standard).to_string());
            assert_eq!(best.as_deref(), Some(answer), "{fen} {params:?}: {:?}", outcome.report);
            assert_eq!(outcome.report.score, Score::Mate(mate), "{fen} {params:?}: {:?}", outcome.report);
            if proves {
                assert!(searcher.searcher().is_finished(), "{fen}: the shortest mate is proven in the tree");
            }
        }
    }
}

/// Positions from Win at Chess (74, 75, 85, 96) where Harris's strict drop at a band of 0
/// with quiescence tips, when it hid the dropped replies from the backup, claimed mates in 3
/// or 4 that full-width alpha-beta to depth 7 refutes: the defender's best first reply was
/// mated, and the escapes it had dropped were not counted.
const STRICT_FALSE_MATES: [&str; 4] = [
    "5r1k/pp4pp/2p5/2b1P3/4Pq2/1PB1p3/P3Q1PP/3N2K1 b - - 0 1",
    "r3r1k1/pppq1ppp/8/8/1Q4n1/7P/PPP2PP1/RNB1R1K1 b - - 0 1",
    "kr2R3/p4r2/2pq4/2N2p1p/3P2p1/Q5P1/5P1P/5BK1 w - - 0 1",
    "r1b4k/ppp2Bb1/6Pp/3pP3/1qnP1p1Q/8/PPP3P1/1K1R3R w - - 0 1",
];

#[test]
fn a_strict_drop_never_hides_an_escape_from_a_mate() {
    let strict = BandwidthParams {
        style: BandwidthStyle::Harris,
        strict_harris: true,
        band: 0,
        tip_probe_depth: 0,
        ..BandwidthParams::default()
    };
    for fen in STRICT_FALSE_MATES {
        let pos = position(fen);
        let outcome = bandwidth(strict).search(&job(pos.clone(), Vec::new(), nodes(200_000)), &mut Silent);
        if let Score::Mate(moves) = outcome.report.score
            && moves > 0
        {
            // Full-width alpha-beta to the mate's depth proves any mate that short.
            let depth = 2 * moves as u32 - 1;
            let reference = common::searching::search(&pos, &[], depth, Features::MINIMAX).report.score;
            assert!(
                matches!(reference, Score::Mate(m) if m > 0 && m <= moves),
                "{fen}: strict Harris claims mate in {moves}, full-width depth {depth} says {reference:?}"
            );
        }
    }
}

#[test]
fn a_move_refuted_only_by_a_shallow_look_at_one_answer_gets_a_deeper_look() {
    // Win At Chess 118: 1. Rh4! wins (alpha-beta sees +4.8 from depth 6 on). After 1... Qe5
    // the winning answer is 2. Rh8+!, which an early, shallow probe valued as losing the
    // rook, so the principal line of Rh4 ends in another answer. Only a sweep that looks
    // again at every answer Rh4's refutation rests on (not only the principal line's tip)
    // finds it; without it the search plays 1. Rf5 or 1. Bc4 at this node count.
    let fen = "r5k1/pb2rpp1/1p6/2p4q/5R2/2PB2Q1/P1P3PP/5R1K w - - 0 1";
    let mut searcher = bandwidth(BandwidthParams::default());
    let outcome = searcher.search(&job(position(fen), Vec::new(), nodes(800_000)), &mut Silent);
    let best = outcome.best.map(|m| m.to_uci(CastlingMode::Standard).to_string());
    assert_eq!(best.as_deref(), Some("f4h4"), "{:?}", outcome.report);
    assert!(matches!(outcome.report.score, Score::Centipawns(cp) if cp > 300), "{:?}", outcome.report);
}

#[test]
fn a_line_ending_in_a_repetition_does_not_end_the_search() {
    // After 1... Rh4 2. Nb7 Rh2+ 3. Kf1 Rh1+ 4. Kf2 Rh2+ the position repeats, and the
    // first looks at the other moves kept them out of the band: the root was exhausted and
    // a search ended after 27,000 of its nodes, playing 1... Rh4, which loses (Stockfish
    // and alpha-beta hold the balance with 1... Rh2+ or 1... Ne6). An outcome that is not
    // proven must be searched to the end of the budget, looking further ahead.
    let fen = "8/1p6/4PR2/2Np3k/3n3P/7r/5K2/8 b - - 0 46";
    let mut searcher = bandwidth(BandwidthParams::default());
    let budget = 300_000;
    let outcome = searcher.search(&job(position(fen), Vec::new(), nodes(budget)), &mut Silent);
    assert!(!searcher.searcher().is_proven());
    assert!(outcome.report.nodes >= budget, "stopped after {} nodes", outcome.report.nodes);
    let best = outcome.best.map(|m| m.to_uci(CastlingMode::Standard).to_string());
    assert_ne!(best.as_deref(), Some("h3h4"), "{:?}", outcome.report);
}

fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The start position after `moves` (UCI text), with the keys of the positions before it.
fn after(moves: &[&str]) -> (Chess, Vec<u64>) {
    let mut pos = Chess::default();
    let mut history = Vec::new();
    for text in moves {
        let m = parse_uci(&pos, text).unwrap();
        history.push(key(&pos));
        pos.play_unchecked(m);
    }
    (pos, history)
}

fn uci(m: shakmaty::Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

#[test]
fn tree_is_reused_after_our_move_and_an_in_tree_reply() {
    let mut searcher = bandwidth(BandwidthParams::default());
    let outcome = searcher.search(&job(Chess::default(), Vec::new(), nodes(600_000)), &mut Silent);
    let ours = outcome.best.unwrap();
    let tree = searcher.tree();
    let our_node = tree.child_by_move(tree.root(), encode(ours)).unwrap();
    // The reply whose subtree is largest.
    let reply_node = tree.children(our_node).max_by_key(|&c| tree.subtree_size(c)).unwrap();
    let expected = tree.subtree_size(reply_node);
    assert!(expected > 1, "the reply has been expanded");
    let reply = decode(&after(&[&uci(ours)]).0, tree.node(reply_node).mv()).unwrap();

    // The engine's way: the new position and its history.
    let (pos, history) = after(&[&uci(ours), &uci(reply)]);
    assert!(searcher.set_position(&pos, &history));
    assert_eq!(searcher.nodes_in_tree(), expected);
    let outcome = searcher.search(&job(pos.clone(), history.clone(), nodes(150_000)), &mut Silent);
    assert_eq!(searcher.last_summary().reused_nodes, expected);
    assert!(pos.is_legal(outcome.best.unwrap()));

    // The same by moves, along the largest subtree: a search stopped by its node limit
    // may end just after a son that was never expanded became the best.
    let tree = searcher.tree();
    let largest = |id| tree.children(id).max_by_key(|&c| tree.subtree_size(c)).unwrap();
    let our_node = largest(tree.root());
    let ours = decode(&pos, tree.node(our_node).mv()).unwrap();
    let reply_node = largest(our_node);
    let expected = tree.subtree_size(reply_node);
    let mut next = pos.clone();
    next.play_unchecked(ours);
    let reply = decode(&next, tree.node(reply_node).mv()).unwrap();
    assert!(searcher.advance(&[ours, reply]));
    assert_eq!(searcher.nodes_in_tree(), expected);

    // A takeback is not in the tree: a fresh root.
    assert!(!searcher.set_position(&pos, &history));
    assert_eq!(searcher.nodes_in_tree(), 1);
}

#[test]
fn a_reply_never_generated_or_dropped_gives_a_fresh_root() {
    for strict in [false, true] {
        let mut searcher = bandwidth(params(20, strict));
        searcher.search(&job(Chess::default(), Vec::new(), nodes(1_500_000)), &mut Silent);
        let tree = searcher.tree();
        let root = tree.root();
        // A root son left without replies (cut by the band), or in strict mode a reply
        // dropped for good (root sons never are).
        let (son, dropped_reply) = if strict {
            tree.children(root)
                .find_map(|c| tree.children(c).find(|&r| tree.node(r).has(DROPPED)).map(|r| (c, Some(r))))
                .expect("some reply is dropped")
        } else {
            (tree.children(root).find(|&c| tree.node(c).is_tip()).expect("some root son is out of the band"), None)
        };
        assert!(tree.children(root).all(|c| !tree.node(c).has(DROPPED)), "a root son was dropped");
        let ours = decode(&Chess::default(), tree.node(son).mv()).unwrap();
        let mut pos = Chess::default();
        pos.play_unchecked(ours);
        let reply = match dropped_reply {
            Some(r) => decode(&pos, tree.node(r).mv()).unwrap(),
            None => pos.legal_moves()[0],
        };
        assert!(!searcher.advance(&[ours, reply]), "strict={strict}");
        assert_eq!(searcher.nodes_in_tree(), 1);
        let (pos, history) = after(&[&uci(ours), &uci(reply)]);
        assert_eq!(searcher.root(), &pos);
        let outcome = searcher.search(&job(pos.clone(), history, nodes(60_000)), &mut Silent);
        assert!(pos.is_legal(outcome.best.unwrap()));
    }
}

/// Steps a searcher through `expansions` expansions (and the revaluations of tips between
/// them), checking the cap after every step and that compaction keeps the root value and
/// the principal line.
fn run_under_cap<G: GameTree>(searcher: &mut Searcher<G>, expansions: u64, check_every: u64) {
    let cap = searcher.tree().cap();
    for n in 0..expansions {
        while searcher.step(&mut never) == Step::Refreshed {}
        assert_eq!(searcher.stats().expansions, n + 1, "expansion {n}");
        assert!(searcher.tree().len() <= cap && searcher.tree().live() <= cap);
        if n % check_every == check_every - 1 {
            let (value, line) = (searcher.root_value(), searcher.principal_line());
            searcher.manage_memory();
            assert_eq!((searcher.root_value(), searcher.principal_line()), (value, line), "expansion {n}");
            assert!(!searcher.is_frozen(), "expansion {n}");
        }
    }
    let stats = searcher.stats();
    assert!(stats.compactions > 0 && stats.collapsed > 0, "{stats:?}");
}

#[test]
fn memory_cap_holds_over_many_expansions() {
    // Independent random estimates make pure best-first dive to the depth limit; a depth
    // penalty keeps the tree bushy (and exercises the penalty's bookkeeping).
    let game = RandomTree::new(6, 300);
    let root = game.root(7);
    // A wide band: with a narrow one, brothers tie on value more often, and the tie-break
    // by subtree size may then move after a collapse shrinks one of them.
    let p =
        BandwidthParams { style: BandwidthStyle::Harris, depth_penalty: 10, band: 100, ..BandwidthParams::default() };
    let mut searcher = Searcher::new(game, root, p, 20_000).unwrap();
    run_under_cap(&mut searcher, 100_000, 1000);

    let pos = position("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9");
    let mut game = ChessTree::new(1 << 20, 4, Arc::new(Signals::default())).unwrap();
    game.set_history(&[]);
    // Harris's style with quiescence tips: the look-ahead never deepens.
    let p = BandwidthParams { style: BandwidthStyle::Harris, tip_probe_depth: 0, ..BandwidthParams::default() };
    let mut searcher = Searcher::new(game, ChessPos::new(pos.clone()), p, 20_000).unwrap();
    run_under_cap(&mut searcher, 300, 50);
    let best = decode(&pos, searcher.principal_line()[0]).unwrap();
    assert!(pos.is_legal(best));
}

#[test]
fn the_depth_penalty_steers_the_harris_style_and_not_the_hybrid() {
    let pos = position("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9");
    // What a fixed-node search ends with; one thread, so the same settings give the same.
    let result = |p: BandwidthParams| {
        let outcome = bandwidth(p).search(&job(pos.clone(), Vec::new(), nodes(200_000)), &mut Silent);
        (outcome.report.nodes, outcome.report.score, outcome.report.pv.into_iter().map(uci).collect::<Vec<_>>())
    };
    let with_penalty = |style, depth_penalty| BandwidthParams { style, depth_penalty, ..BandwidthParams::default() };
    let hybrid = result(with_penalty(BandwidthStyle::Hybrid, 0));
    assert_eq!(result(with_penalty(BandwidthStyle::Hybrid, 60)), hybrid);
    let harris = result(with_penalty(BandwidthStyle::Harris, 0));
    assert_eq!(result(with_penalty(BandwidthStyle::Harris, 0)), harris);
    assert_ne!(result(with_penalty(BandwidthStyle::Harris, 60)), harris);
}

#[test]
fn a_proven_loss_plays_the_longest_resistance() {
    // After 1. Ra6 of the mate in 3: ...f6 is mated in two more moves, ...Rg7 in one.
    let pos = position("r5rk/5p1p/R7/4B3/8/8/7P/7K b - - 1 1");
    let mut searcher = bandwidth(BandwidthParams::default());
    let outcome = searcher.search(&job(pos, Vec::new(), nodes(MATE_BUDGET)), &mut Silent);
    assert_eq!(outcome.best.map(uci).as_deref(), Some("f7f6"));
    assert_eq!(outcome.report.score, Score::Mate(-2));
}

#[test]
fn search_limits_are_respected() {
    let pos = position("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9");
    // go depth: the principal line reaches it.
    let mut searcher = bandwidth(BandwidthParams::default());
    let limits = Limits { depth: Some(6), ..Limits::default() };
    let outcome = searcher.search(&job(pos.clone(), Vec::new(), limits), &mut Silent);
    assert!(outcome.report.depth >= 6 && pos.is_legal(outcome.best.unwrap()));

    // go movetime: done in time.
    let limits = Limits { movetime: Some(200), ..Limits::default() };
    let start = std::time::Instant::now();
    let outcome = searcher.search(&job(pos.clone(), Vec::new(), limits), &mut Silent);
    assert!(start.elapsed().as_millis() < 500, "{:?}", start.elapsed());
    assert!(pos.is_legal(outcome.best.unwrap()) && outcome.ponder.is_some());

    // A stop before the search still gives a legal move, from the static fallback: even the
    // first expansion may be aborted (with tip probes it can outlast a short clock).
    let signals = Arc::new(Signals::default());
    let mut searcher = Bandwidth::new(CHESS_MB, BandwidthParams::default(), signals.clone()).unwrap();
    signals.request_stop();
    let limits = Limits { infinite: true, ..Limits::default() };
    let outcome = searcher.search(&job(pos.clone(), Vec::new(), limits), &mut Silent);
    assert!(pos.is_legal(outcome.best.unwrap()));
    assert_eq!(searcher.last_summary().expansions, 0);

    // One legal move under a clock: answered after one expansion.
    let forced = position("k7/8/8/8/8/8/1q6/K7 w - - 0 1");
    let mut searcher = bandwidth(BandwidthParams::default());
    let limits = Limits { wtime: Some(60_000), btime: Some(60_000), ..Limits::default() };
    let outcome = searcher.search(&job(forced, Vec::new(), limits), &mut Silent);
    assert_eq!(outcome.best.map(uci).as_deref(), Some("a1b2"));
    assert_eq!(searcher.last_summary().expansions, 1);

    // No legal move: no best move, the score says why.
    let mated = position("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    let outcome = searcher.search(&job(mated, Vec::new(), nodes(30_000)), &mut Silent);
    assert_eq!((outcome.best, outcome.report.score), (None, Score::Mate(0)));
}

#[test]
fn idle_thinking_grows_the_tree_and_stops_on_request() {
    // Quiescence tips: an expansion then fits well inside the 5000 polls below (the stop
    // closure is polled after every tip).
    let mut searcher = bandwidth(BandwidthParams { tip_probe_depth: 0, ..BandwidthParams::default() });
    searcher.search(&job(Chess::default(), Vec::new(), nodes(60_000)), &mut Silent);
    let before = searcher.nodes_in_tree();
    assert_eq!(searcher.think_until(|| true), 0);
    let polls = std::cell::Cell::new(0);
    let added = searcher.think_until(|| {
        polls.set(polls.get() + 1);
        polls.get() > 5000
    });
    assert!(added > 0 && searcher.nodes_in_tree() > before);
    searcher.search(&job(Chess::default(), Vec::new(), nodes(1)), &mut Silent);
    let summary = searcher.last_summary();
    assert_eq!(summary.idle_nodes, added);
    assert!(summary.reused_nodes > before);
}

#[test]
fn self_play_reuses_the_tree_and_plays_legal_moves() {
    fn assert_send<T: Send>() {}
    assert_send::<Bandwidth>();
    let mut searcher = bandwidth(BandwidthParams::default());
    let mut pos = Chess::default();
    let mut history = Vec::new();
    let mut reused = 0;
    for ply in 0..40 {
        let outcome = searcher.search(&job(pos.clone(), history.clone(), nodes(90_000)), &mut Silent);
        let Some(best) = outcome.best else { break };
        assert!(pos.is_legal(best), "ply {ply}");
        if searcher.last_summary().reused_nodes > 0 {
            reused += 1;
        }
        history.push(key(&pos));
        pos.play_unchecked(best);
    }
    assert!(reused >= 30, "the tree was reused on {reused} of 40 moves");

    // New settings start a fresh tree at the same root; so does a new budget.
    let root = searcher.root().clone();
    searcher.set_params(params(300, false)).unwrap();
    assert_eq!((searcher.nodes_in_tree(), searcher.root()), (1, &root));
    searcher.resize(4).unwrap();
    assert_eq!((searcher.nodes_in_tree(), searcher.root()), (1, &root));
    searcher.new_game();
    assert_eq!(searcher.root(), &Chess::default());
}

#[test]
fn a_found_mate_survives_re_rooting() {
    let root = position("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1");
    let mut searcher = bandwidth(BandwidthParams::default());
    let mut outcome = searcher.search(&job(root.clone(), Vec::new(), nodes(MATE_BUDGET)), &mut Silent);
    let (mut pos, mut history) = (root, Vec::new());
    for mate in (1..=3).rev() {
        assert_eq!(outcome.report.score, Score::Mate(mate));
        let line = outcome.report.pv.clone();
        assert!(line.len() >= 2 || mate == 1, "{line:?}");
        for &m in line.iter().take(2) {
            history.push(key(&pos));
            pos.play_unchecked(m);
        }
        if mate == 1 {
            assert!(pos.is_checkmate());
            break;
        }
        let kept = searcher.set_position(&pos, &history);
        assert!(kept && searcher.nodes_in_tree() > 1, "mate {mate}");
        outcome = searcher.search(&job(pos.clone(), history.clone(), nodes(30_000)), &mut Silent);
    }
}

#[test]
fn pondering_grows_the_expected_replys_subtree_and_a_miss_starts_afresh() {
    let signals = Arc::new(Signals::default());
    let mut searcher = Bandwidth::new(CHESS_MB, BandwidthParams::default(), signals.clone()).unwrap();
    // A search can end just after its principal line changed, with the new expected reply
    // still a tip (or not in the tree): the search goes on (on the same tree) until that
    // reply has sons.
    let mut searches = 0;
    let (ours, expected, reply_subtree) = loop {
        let first = searcher.search(&job(Chess::default(), Vec::new(), nodes(300_000)), &mut Silent);
        let (ours, expected) = (first.best.unwrap(), first.ponder.unwrap());
        let tree = searcher.tree();
        // The hybrid may play its iterative deepening's move, which the tree may not have
        // grown: then the reply is not in the tree at all.
        let our_node = tree.child_by_move(tree.root(), encode(ours)).unwrap();
        let reply_node = tree.child_by_move(our_node, encode(expected));
        let reply_subtree = reply_node.map_or(0, |reply| tree.subtree_size(reply));
        if reply_subtree > 1 {
            break (ours, expected, reply_subtree);
        }
        searches += 1;
        assert!(searches < 10, "the expected reply never got sons");
    };
    let (pos, history) = after(&[&uci(ours), &uci(expected)]);
    let (before_reply, _) = after(&[&uci(ours)]);

    signals.arm(true);
    let limits = Limits { ponder: true, nodes: Some(1_000_000), ..Limits::default() };
    let ponder_job = job(pos.clone(), history.clone(), limits);
    assert!(searcher.prepare(&ponder_job), "pondering keeps the expected reply's subtree");
    assert_eq!(searcher.nodes_in_tree(), reply_subtree);
    let outcome = searcher.search(&ponder_job, &mut Silent);
    assert_eq!(searcher.root(), &pos, "the tree is rooted after the expected reply");
    assert!(pos.is_legal(outcome.best.unwrap()), "the report answers the expected reply");
    // The hybrid's iterations may have left the kept subtree so far behind that the tree
    // started afresh from them: the tree grew if the search expanded it.
    let grown = searcher.nodes_in_tree();
    assert!(searcher.last_summary().expansions > 0 && grown > 1, "pondering grew the tree");

    // ponderhit: the position stays, and so does the tree.
    assert!(searcher.set_position(&pos, &history));
    assert_eq!(searcher.nodes_in_tree(), grown);
    // A miss: the opponent played another reply, and the tree starts afresh there.
    let other = before_reply.legal_moves().into_iter().find(|&m| m != expected).unwrap();
    let (miss, history) = after(&[&uci(ours), &uci(other)]);
    assert!(!searcher.set_position(&miss, &history));
    assert_eq!(searcher.root(), &miss);
    assert_eq!(searcher.nodes_in_tree(), 1);
}

#[test]
fn a_frozen_tree_deepens_its_tips_instead_of_growing() {
    let pos = position("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9");
    let mut game = ChessTree::new(1 << 20, 4, Arc::new(Signals::default())).unwrap();
    game.set_history(&[]);
    // Harris's style, whose look-ahead never deepens by expansion count: only freezing
    // raises it here. A band wide enough that collapsing out-of-band subtrees cannot keep
    // up with the growth.
    let p = BandwidthParams { style: BandwidthStyle::Harris, band: 30, ..BandwidthParams::default() };
    let mut searcher = Searcher::new(game, ChessPos::new(pos.clone()), p, 1).unwrap();
    let cap = searcher.tree().cap();
    let mut steps = 0;
    while !searcher.is_frozen() {
        assert!(matches!(searcher.step(&mut never), Step::Expanded | Step::Refreshed));
        steps += 1;
        assert!(steps < 10_000, "the tree never filled");
        let base = searcher.probe_depth() == p.tip_probe_depth;
        assert!(base || searcher.is_frozen(), "Harris's look-ahead grew before the tree froze");
    }
    let frozen_at = searcher.probe_depth();
    let nodes = searcher.nodes_in_tree();
    let mut refreshed = 0;
    while searcher.probe_depth() < frozen_at + 2 {
        match searcher.step(&mut never) {
            Step::Refreshed => refreshed += 1,
            other => panic!("a frozen tree {other:?}"),
        }
        assert!(searcher.tree().live() <= cap && searcher.nodes_in_tree() == nodes);
    }
    assert!(refreshed > 0);
    // The tips of the next double expansion keep the horizon of the root's (two plies more
    // tree, two less look-ahead), down to the base look-ahead.
    let (first, next) = (searcher.look_ahead_at(2, 0), searcher.look_ahead_at(4, 0));
    assert_eq!(next, first.saturating_sub(LOOK_AHEAD_TAPER).max(p.tip_probe_depth), "at {first}");
    let best = decode(&pos, searcher.principal_line()[0]).unwrap();
    assert!(pos.is_legal(best));
}
