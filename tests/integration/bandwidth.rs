//! The bandwidth searcher on synthetic trees, against known answers: alpha-beta's best
//! case on perfectly ordered trees and the double expansion's counts, exact minimax on
//! random trees whose estimates respect the band (or whose look-ahead deepens past them,
//! answering narrow windows with bounds), the windows of sons, the look-ahead taper, the
//! incumbent best son, the direction of the drop rule and a band narrowed between steps.
//! `bandwidth_chess.rs` holds the same searcher in chess.

use harrier::moves::MoveCode;
use harrier::search::MATE;
use harrier::search::bandwidth::best_first::{BestFirst, Step, back_up, son_window};
use harrier::search::bandwidth::game_tree::{GameTree, Window};
use harrier::search::bandwidth::params::{
    BandwidthParams, BandwidthStyle, HYBRID_FULL_TAPER_LEVELS, HYBRID_LOOK_AHEAD_TAPER, LOOK_AHEAD_TAPER, MAX_BAND,
    UNCONFIRMED_DISCOUNT_CP,
};
use harrier::search::bandwidth::synthetic::{LookAheadTree, UniformPos, UniformTree};
use harrier::search::bandwidth::tree::{CUT, DROPPED, EXHAUSTED, PROVEN, TERMINAL};

/// Node cap of the synthetic searches: more than any of their trees needs.
const SYNTHETIC_CAP: usize = 1 << 18;

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

fn uniform_searcher(tree: UniformTree, p: BandwidthParams) -> BestFirst<UniformTree> {
    let root = tree.root();
    BestFirst::new(tree, root, p, SYNTHETIC_CAP).unwrap()
}

/// Expands until nothing in the band is left; returns the number of expansions.
fn run_to_end<G: GameTree>(searcher: &mut BestFirst<G>, budget: u64) -> u64 {
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
            let mut searcher = BestFirst::new(tree, root, p, SYNTHETIC_CAP).unwrap();
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

/// Steps until an expansion that left the look-ahead as it was (its new tips are up to
/// date), at a look-ahead of at least `enough` (it also grows when nothing in the band is
/// left to expand). Returns the moves of the root sons the runner-up challenge looked at
/// further ahead than the schedule asked: the lines grown below such a son keep that look,
/// since a line loses no more than the taper by growing.
fn run_to_settled_expansion(searcher: &mut BestFirst<LookAheadTree>, enough: u32) -> Vec<MoveCode> {
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
    let mut searcher = BestFirst::new(tree, root, p, SYNTHETIC_CAP).unwrap();
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
    let mut searcher = BestFirst::new(tree, root, p, SYNTHETIC_CAP).unwrap();
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
fn narrow_deepening_searcher(seed: u64) -> BestFirst<LookAheadTree> {
    let p = hybrid(0);
    let tree = LookAheadTree::new(UniformTree::random(4, 8, seed, 200, 200));
    let root = tree.tree().root();
    BestFirst::new(tree, root, p, SYNTHETIC_CAP).unwrap()
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
fn assert_only_worst_dropped(searcher: &BestFirst<UniformTree>, father: u32, strict: bool) {
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

/// A band narrowed between steps leaves the root's flags stale: its best son exhausted, its
/// other son out of the new band, but the root not yet marked exhausted. Selection finds no
/// son to enter, repairs the flags and the search ends.
#[test]
fn a_band_narrowed_between_steps_ends_the_search() {
    // Every leaf under the first root move is worth 0 to the root, under the second -50.
    let leaves = (0..16).map(|k| if k < 8 { 0 } else { -50 }).collect();
    let wide = BandwidthParams { band: 100, depth_penalty: 0, ..BandwidthParams::default() };
    let mut searcher = uniform_searcher(UniformTree::new(2, 4, leaves), wide);
    let first_son = |s: &BestFirst<UniformTree>| s.tree().children(s.tree().root()).start;
    loop {
        assert_eq!(searcher.step(&mut never), Step::Expanded);
        if !searcher.root().is_tip() && searcher.tree().node(first_son(&searcher)).has(EXHAUSTED) {
            break;
        }
    }
    assert!(!searcher.is_finished(), "the second move is still in the band of 100");
    searcher.set_params(BandwidthParams { band: 10, ..wide });
    assert_eq!(searcher.step(&mut never), Step::Done);
    assert!(searcher.is_finished());
}
