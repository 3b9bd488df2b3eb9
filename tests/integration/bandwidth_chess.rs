//! The bandwidth searcher in chess: four verified mates in both styles, a strict drop that
//! never hides an escape, the longest resistance, search limits, idle thinking, tree reuse
//! across moves and ponder hits, the memory cap (on a random tree and in chess), the depth
//! penalty, and a frozen tree that deepens its tips instead of growing.

use std::sync::Arc;
use std::time::Instant;

use harrier::moves::{decode, encode, parse_uci};
use harrier::search::alphabeta::alpha_beta_probers;
use harrier::search::alphabeta::presets::Minimax;
use harrier::search::bandwidth::Bandwidth;
use harrier::search::bandwidth::best_first::{BestFirst, Step};
use harrier::search::bandwidth::chess::{ChessPos, ChessTree};
use harrier::search::bandwidth::game_tree::GameTree;
use harrier::search::bandwidth::params::{BandwidthParams, BandwidthStyle, LOOK_AHEAD_TAPER};
use harrier::search::bandwidth::synthetic::RandomTree;
use harrier::search::bandwidth::tree::DROPPED;
use harrier::search::{Limits, Score, SearchJob, Searcher as _, Signals, Silent};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, zobrist::Zobrist64};

/// Tree and tip cache of the chess searches, in MB.
const CHESS_MB: usize = 16;
/// Positions (tree and probes) the mate searches may visit.
const MATE_BUDGET: u64 = 2_000_000;

fn params(band: i32, strict_harris: bool) -> BandwidthParams {
    BandwidthParams { band, strict_harris, ..BandwidthParams::default() }
}

fn never() -> bool {
    false
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

fn job(root: Chess, history: Vec<u64>, limits: Limits) -> SearchJob {
    SearchJob { root, history, limits, move_overhead: 0, started: Instant::now() }
}

fn bandwidth(p: BandwidthParams) -> Bandwidth {
    Bandwidth::new(CHESS_MB, p, alpha_beta_probers(), Arc::new(Signals::default())).unwrap()
}

fn nodes(n: u64) -> Limits {
    Limits { nodes: Some(n), ..Limits::default() }
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
            let reference = crate::common::searching::search::<Minimax>(&pos, &[], depth).report.score;
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
        // Strict mode gets a narrow band, which drops replies for good within the nodes
        // given whatever the search's tunables; the loose band leaves root sons as tips.
        let mut searcher = bandwidth(params(if strict { 5 } else { 20 }, strict));
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
fn run_under_cap<G: GameTree>(searcher: &mut BestFirst<G>, expansions: u64, check_every: u64) {
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
    let mut searcher = BestFirst::new(game, root, p, 20_000).unwrap();
    run_under_cap(&mut searcher, 100_000, 1000);

    let pos = position("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9");
    let mut game = ChessTree::new(1 << 20, 4, &alpha_beta_probers(), Arc::new(Signals::default())).unwrap();
    game.set_history(&[]);
    // Harris's style with quiescence tips: the look-ahead never deepens.
    let p = BandwidthParams { style: BandwidthStyle::Harris, tip_probe_depth: 0, ..BandwidthParams::default() };
    let mut searcher = BestFirst::new(game, ChessPos::new(pos.clone()), p, 20_000).unwrap();
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
    let mut searcher =
        Bandwidth::new(CHESS_MB, BandwidthParams::default(), alpha_beta_probers(), signals.clone()).unwrap();
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
    searcher.set_params(params(300, false));
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
    let mut searcher =
        Bandwidth::new(CHESS_MB, BandwidthParams::default(), alpha_beta_probers(), signals.clone()).unwrap();
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
    let mut game = ChessTree::new(1 << 20, 4, &alpha_beta_probers(), Arc::new(Signals::default())).unwrap();
    game.set_history(&[]);
    // Harris's style, whose look-ahead never deepens by expansion count: only freezing
    // raises it here. A band wide enough that collapsing out-of-band subtrees cannot keep
    // up with the growth.
    let p = BandwidthParams { style: BandwidthStyle::Harris, band: 30, ..BandwidthParams::default() };
    let mut searcher = BestFirst::new(game, ChessPos::new(pos.clone()), p, 1).unwrap();
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
