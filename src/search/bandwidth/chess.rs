//! Chess as a [`GameTree`]: legal moves from shakmaty, 16-bit move codes, draw rules over
//! the game history plus the tree path, and tips valued by the alpha-beta searcher's
//! quiescence search (or a shallow probe), cached by zobrist key.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Chess, Move, Position};

use crate::eval::Evaluation;
use crate::moves::{MoveCode, decode, encode, is_tactical, mvv_lva};
use crate::search::probe::{ProbeLimits, Prober, ProberFactory};
use crate::search::syzygy::Syzygy;
use crate::search::time::TimeManager;
use crate::search::{INFINITY, MATE, Reporter, SearchJob, SearchOutcome, Signals, drawn_by_rule, mated_in};
use crate::zobrist::{key_after, key_of};

use super::game_tree::{Accuracy, GameTree, Tip, Window};
use super::params::{DEEPEST_TIP_PROBE, MAX_QUIESCENCE_PROBE_NODES};
use super::tip_cache::TipCache;

/// A position with its zobrist key.
#[derive(Clone, Debug)]
pub struct ChessPos {
    /// The board, side to move, castling rights and en-passant square.
    pub pos: Chess,
    /// The zobrist key of `pos` ([`key_of`]).
    pub key: u64,
}

impl ChessPos {
    /// Wraps `pos` with its key.
    pub fn new(pos: Chess) -> ChessPos {
        ChessPos { key: key_of(&pos), pos }
    }

    /// The position after the legal move `m`, its key updated incrementally where
    /// shakmaty can.
    pub fn play(&self, m: Move) -> ChessPos {
        let mut next = self.pos.clone();
        next.play_unchecked(m);
        ChessPos { key: key_after(&self.pos, self.key, m, &next), pos: next }
    }
}

/// The classes of a position's moves, in rising precedence: its sons list the hint
/// first and the quiet moves last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum MoveClass {
    Quiet,
    Tactical,
    Hint,
}

/// Chess for the bandwidth search.
pub struct ChessTree {
    prober: Box<dyn Prober>,
    cache: TipCache,
    /// The clock of the running search: probes end at its hard limit.
    clock: Option<TimeManager>,
    /// Keys of the game's positions before the root, then of the entered path.
    keys: Vec<u64>,
    /// Index of the root's key in `keys`, once entered.
    root_index: usize,
    /// Nodes searched by tip probes.
    probe_nodes: u64,
    /// The nodes the search may still visit (`go nodes`), in its probes and its tree
    /// together; none: no limit.
    node_budget: Option<u64>,
    /// Set once `node_budget` is spent: the search's abort test reads it.
    budget_spent: Arc<AtomicBool>,
    scratch: Vec<((MoveClass, i32), Move)>,
    /// What a search of the root knows of its sons, by key, each used once (see
    /// [`seed_root`](ChessTree::seed_root)).
    seeds: Vec<(u64, Tip)>,
    /// The root's key and the best move of that search: the first son.
    seeded_root: Option<(u64, Move)>,
    /// The probes search with alpha-beta's selectivity (else full width).
    selective: bool,
    /// Syzygy tables: tips they cover take their value, and the probes search with them.
    tablebases: Option<Syzygy>,
    /// The static evaluation the probes use.
    evaluation: Evaluation,
}

impl ChessTree {
    /// A chess game with a tip cache of `cache_bytes` and a prober from `probers` with a
    /// transposition table of `table_mb` megabytes, whose probes end when `signals` asks
    /// the search to stop.
    pub fn new(
        cache_bytes: usize,
        table_mb: usize,
        probers: &ProberFactory,
        signals: Arc<Signals>,
    ) -> Result<ChessTree, String> {
        Ok(ChessTree {
            prober: probers(table_mb, signals)?,
            cache: TipCache::new(cache_bytes)?,
            clock: None,
            keys: Vec::with_capacity(1024),
            root_index: 0,
            probe_nodes: 0,
            node_budget: None,
            budget_spent: Arc::new(AtomicBool::new(false)),
            scratch: Vec::with_capacity(256),
            seeds: Vec::new(),
            seeded_root: None,
            selective: true,
            tablebases: None,
            evaluation: Evaluation::HandCrafted,
        })
    }

    /// Probes end at the hard limit of `clock` (none: only at the stop signal).
    pub fn set_clock(&mut self, clock: Option<TimeManager>) {
        self.clock = clock;
    }

    /// From now on the probes and the tree's new nodes together may visit `budget` nodes
    /// (none: no limit): a probe may search what is left, and [`reserve`](GameTree::reserve)
    /// refuses nodes beyond it. The flag from [`budget_spent`](ChessTree::budget_spent) is
    /// raised once nothing is left.
    pub fn set_node_budget(&mut self, budget: Option<u64>) {
        self.node_budget = budget;
        self.budget_spent.store(budget == Some(0), Ordering::Relaxed);
    }

    /// Takes `nodes` off the node budget, if there is one.
    fn spend(&mut self, nodes: u64) {
        if let Some(left) = &mut self.node_budget {
            *left = left.saturating_sub(nodes);
            if *left == 0 {
                self.budget_spent.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The flag raised when the node budget is spent, for an abort test that cannot borrow
    /// the game.
    pub fn budget_spent(&self) -> Arc<AtomicBool> {
        self.budget_spent.clone()
    }

    /// Sets the keys of the game's positions before the root, oldest first.
    pub fn set_history(&mut self, history: &[u64]) {
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.root_index = history.len();
    }

    /// The keys of the positions before the root.
    pub fn history(&self) -> &[u64] {
        &self.keys[..self.root_index]
    }

    /// Starts a new search: the prober's table entries from earlier searches become the
    /// first to be replaced. Without this the table would fill up with deep entries of
    /// positions long gone, since replacement prefers to keep deeper entries.
    pub fn new_search(&mut self) {
        self.prober.new_search();
    }

    /// Probes with the alpha-beta searcher's selectivity (`true`, the hybrid style) or
    /// full width (Harris's style, like `SearchMode` `Minimax`). A change forgets the
    /// cached estimates, which the other probes made.
    pub fn set_selective(&mut self, selective: bool) {
        if self.selective != selective {
            self.selective = selective;
            self.prober.set_full_width(!selective);
            self.clear();
        }
    }

    /// Evaluates with `evaluation`; a change forgets the cached estimates, which the other
    /// evaluation made.
    pub fn set_evaluation(&mut self, evaluation: &Evaluation) {
        if !self.evaluation.is_same(evaluation) {
            self.prober.set_evaluation(evaluation);
            self.evaluation = evaluation.clone();
            self.cache.clear();
        }
    }

    /// The static evaluation of `pos`, by the probes' evaluation.
    pub fn static_evaluation(&mut self, pos: &Chess) -> i32 {
        self.prober.evaluate(pos)
    }

    /// Runs the prober's iterative deepening on `job`'s root on the budgets of `time`,
    /// reporting its iterations: its table then holds what the tips below the root will
    /// ask. Its nodes count as probe nodes.
    pub fn search_root(&mut self, job: &SearchJob, reporter: &mut dyn Reporter, time: TimeManager) -> SearchOutcome {
        let outcome = self.prober.search_root(job, reporter, time);
        self.probe_nodes += self.prober.nodes();
        outcome
    }

    /// Hands what a search of `root` that looked `depth` plies ahead found to the next
    /// estimate of each of its sons (once: a bound handed again to a son valued again would
    /// never become exact), until [`clear_seeds`](ChessTree::clear_seeds): the son after
    /// `best`, listed first, is worth `value` (from the root's side), every other son less
    /// (a bound: alpha-beta found it no better, and a tie goes to the move found first).
    /// Expanding the root then costs no probe: without this, every son would be searched
    /// again, the best as a PV node (which takes no value from the table) and the others in
    /// windows the search's own scouts did not ask. Replaces any earlier seeds.
    pub fn seed_root(&mut self, root: &ChessPos, best: Move, value: i32, depth: u32) {
        self.clear_seeds();
        if depth == 0 {
            return;
        }
        self.seeded_root = Some((root.key, best));
        for m in root.pos.legal_moves() {
            let son = root.play(m);
            let look = depth - 1;
            let tip = if m == best {
                Tip::estimate_at(-value, look)
            } else {
                Tip::bound_at(1 - value, look, Accuracy::Lower)
            };
            self.seeds.push((son.key, tip));
        }
    }

    /// Values tips, and lets the probes search, with `tablebases` from now on; the cached
    /// estimates, made without them, are forgotten.
    pub fn set_tablebases(&mut self, tablebases: Option<Syzygy>) {
        self.prober.set_tablebases(tablebases.clone());
        self.tablebases = tablebases;
        self.clear();
    }

    /// The tables' value of `pos`, when they cover it just after a capture or pawn move:
    /// exact, as a finished game's.
    fn tablebase_tip(&self, pos: &ChessPos) -> Option<Tip> {
        let tables = self.tablebases.as_ref()?;
        if pos.pos.halfmoves() != 0 || !tables.covers(&pos.pos) {
            return None;
        }
        tables.probe_value(&pos.pos, 0).map(Tip::terminal)
    }

    /// Forgets the seeds of [`seed_root`](ChessTree::seed_root) not used yet.
    pub fn clear_seeds(&mut self) {
        self.seeds.clear();
        self.seeded_root = None;
    }

    /// Forgets cached estimates and the prober's tables.
    pub fn clear(&mut self) {
        self.cache.clear();
        self.prober.new_game();
    }

    /// The prober's best reply to `best` in `pos`, if its table holds one: after a probe of
    /// the position `best` leads to, the expected reply.
    pub fn expected_reply(&self, pos: &Chess, best: Move) -> Option<Move> {
        let mut after = pos.clone();
        after.play_unchecked(best);
        self.table_move(&after)
    }

    /// The prober's best move in `pos`, if its table holds one.
    pub fn table_move(&self, pos: &Chess) -> Option<Move> {
        self.table_move_at(pos, key_of(pos))
    }

    /// The prober's best move in `pos`, whose key is `key`, if its table holds one.
    fn table_move_at(&self, pos: &Chess, key: u64) -> Option<Move> {
        decode(pos, self.prober.table_entry(key)?.mv)
    }

    /// The value the probes' table holds for the position with `key` from a search at
    /// least `depth` (from 1) deep, if it settles the window: a tip whose probe would
    /// search it again as a PV node, which takes no value from the table.
    fn table_value(&self, key: u64, depth: u32, alpha: i32, beta: i32) -> Option<i32> {
        let hit = self.prober.table_entry(key)?;
        (depth > 0 && hit.depth >= depth as i32 && hit.settles(alpha, beta)).then_some(hit.value)
    }

    /// Nodes searched by tip probes so far.
    pub fn probe_nodes(&self) -> u64 {
        self.probe_nodes
    }

    /// True when the game is drawn at `pos` (not the root) by the fifty-move rule,
    /// insufficient material or repetition. As in the alpha-beta search, a repetition of a
    /// position after the root counts at once; one of the game's earlier positions must
    /// have occurred twice before.
    fn is_draw(&self, pos: &ChessPos) -> bool {
        drawn_by_rule(&pos.pos, pos.key, &self.keys, self.root_index)
    }

    /// The estimate of a position the game goes on from, looking `depth` plies ahead; a
    /// value outside `window` may be a bound. A stopped probe gives the static evaluation,
    /// which the search then throws away with its expansion.
    fn estimate(&mut self, pos: &ChessPos, depth: u32, window: Window) -> Tip {
        if let Some(value) = self.cache.get(pos.key, depth) {
            return Tip::estimate_at(value, depth);
        }
        let (alpha, beta) = (window.alpha.max(-INFINITY), window.beta.min(INFINITY));
        if let Some(value) = self.table_value(pos.key, depth, alpha, beta) {
            return Tip::windowed(value.clamp(-MATE, MATE), depth, window);
        }
        if self.node_budget == Some(0) {
            return Tip::estimate_at(self.prober.evaluate(&pos.pos), 0);
        }
        let mut nodes = self.node_budget;
        if depth == 0 {
            nodes = Some(nodes.map_or(MAX_QUIESCENCE_PROBE_NODES, |n| n.min(MAX_QUIESCENCE_PROBE_NODES)));
        }
        let limits = ProbeLimits { clock: self.clock.as_ref(), nodes };
        let probe = self.prober.probe(&pos.pos, &self.keys, depth, (window.alpha, window.beta), limits);
        self.probe_nodes += self.prober.nodes();
        self.spend(self.prober.nodes());
        let Some(value) = probe else {
            return Tip::estimate_at(self.prober.evaluate(&pos.pos), 0);
        };
        let tip = Tip::windowed(value.clamp(-MATE, MATE), depth, window);
        if !tip.is_bound() {
            self.cache.put(pos.key, depth, tip.value);
        }
        tip
    }
}

impl GameTree for ChessTree {
    type Pos = ChessPos;
    type Move = Move;

    /// The prober's best move for the position first (after a probe of it: the expected
    /// refutation; at a [seeded](ChessTree::seed_root) root, the seeding search's move),
    /// then captures and promotions by MVV-LVA, then the quiet moves by the prober's
    /// history: the order that late-son reductions go by.
    fn moves(&mut self, pos: &ChessPos, out: &mut Vec<Move>) {
        let seeded = self.seeded_root.and_then(|(key, best)| (key == pos.key).then_some(best));
        let hint = seeded.or_else(|| self.table_move_at(&pos.pos, pos.key));
        let side = pos.pos.turn();
        let prober = &self.prober;
        self.scratch.clear();
        self.scratch.extend(pos.pos.legal_moves().into_iter().map(|m| {
            let order = if Some(m) == hint {
                (MoveClass::Hint, 0)
            } else if is_tactical(m) {
                (MoveClass::Tactical, mvv_lva(m))
            } else {
                (MoveClass::Quiet, prober.quiet_move_score(side, m))
            };
            (order, m)
        }));
        self.scratch.sort_by_key(|&(order, _)| std::cmp::Reverse(order));
        out.extend(self.scratch.iter().map(|&(_, m)| m));
    }

    fn code(&self, mv: Move) -> MoveCode {
        encode(mv)
    }

    fn decode(&mut self, pos: &ChessPos, code: MoveCode) -> Option<Move> {
        decode(&pos.pos, code)
    }

    fn play(&mut self, pos: &ChessPos, mv: Move) -> ChessPos {
        pos.play(mv)
    }

    fn enter(&mut self, pos: &ChessPos) {
        self.keys.push(pos.key);
    }

    fn leave(&mut self) {
        self.keys.pop();
    }

    fn evaluate(&mut self, pos: &ChessPos, ply: usize, depth: u32, window: Window) -> Tip {
        if ply > 0 && self.is_draw(pos) {
            return Tip::terminal(0);
        }
        if pos.pos.legal_moves().is_empty() {
            return Tip::terminal(if pos.pos.is_check() { mated_in(0) } else { 0 });
        }
        if ply > 0
            && let Some(tip) = self.tablebase_tip(pos)
        {
            return tip;
        }
        if ply == 1
            && let Some(k) = self.seeds.iter().position(|&(key, tip)| key == pos.key && tip.depth as u32 >= depth)
        {
            return self.seeds.swap_remove(k).1;
        }
        self.estimate(pos, depth.min(DEEPEST_TIP_PROBE), window)
    }

    /// Alpha-beta's reduction for a quiet move of a principal-variation node: none for a
    /// capture, a promotion, a check or a move out of check.
    fn reduction(&mut self, father: &ChessPos, son: &ChessPos, rank: usize, depth: u32) -> u32 {
        let (before, after) = (father.pos.board(), son.pos.board());
        let quiet =
            before.occupied().count() == after.occupied().count() && before.pawns().count() == after.pawns().count();
        if !quiet || father.pos.is_check() || son.pos.is_check() {
            return 0;
        }
        self.prober.late_move_reduction(depth, rank)
    }

    fn deepest_estimate(&self) -> u32 {
        DEEPEST_TIP_PROBE
    }

    fn reserve(&mut self, count: u64) -> bool {
        match self.node_budget {
            Some(left) if left < count => {
                self.budget_spent.store(true, Ordering::Relaxed);
                false
            }
            _ => {
                self.spend(count);
                true
            }
        }
    }

    /// A check: the side in check has few moves, so the line costs little more and its
    /// outcome is often decided just past the horizon.
    fn extends(&self, pos: &ChessPos) -> bool {
        pos.pos.is_check()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::parse_uci;
    use crate::search::bandwidth::game_tree::Accuracy;
    use shakmaty::CastlingMode;

    fn chess(fen: &str) -> Chess {
        fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn tree() -> ChessTree {
        let probers = crate::search::alphabeta::alpha_beta_probers();
        let mut tree = ChessTree::new(1 << 16, 4, &probers, Arc::new(Signals::default())).unwrap();
        tree.set_history(&[]);
        tree
    }

    /// Enters the root and the positions after each of `moves` but the last, and returns
    /// the position after the last, ready to be evaluated.
    fn walk(tree: &mut ChessTree, root: &ChessPos, moves: &[&str]) -> ChessPos {
        let mut pos = root.clone();
        tree.enter(&pos);
        for (i, text) in moves.iter().enumerate() {
            pos = pos.play(parse_uci(&pos.pos, text).unwrap());
            if i + 1 < moves.len() {
                tree.enter(&pos);
            }
        }
        pos
    }

    #[test]
    fn a_check_extends_its_line_and_a_quiet_move_does_not() {
        let game = tree();
        let root = ChessPos::new(chess("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
        let check = root.play(parse_uci(&root.pos, "a1a8").unwrap());
        let quiet = root.play(parse_uci(&root.pos, "a1a7").unwrap());
        assert!(game.extends(&check));
        assert!(!game.extends(&quiet));
    }

    #[test]
    fn estimates_outside_the_window_are_bounds() {
        let mut game = tree();
        let pos = ChessPos::new(Chess::default());
        game.enter(&pos);
        let exact = game.evaluate(&pos, 1, 2, Window::FULL);
        assert_eq!((exact.depth, exact.accuracy), (2, Accuracy::Exact));
        let mut fresh = tree();
        fresh.enter(&pos);
        let above = fresh.evaluate(&pos, 1, 2, Window { alpha: exact.value + 50, beta: exact.value + 51 });
        assert_eq!(above.accuracy, Accuracy::Upper);
        assert!(above.value <= exact.value + 50);
        // A null window gets a non-PV search (with its pruning): it must still land on the
        // right side of a window well away from the exact value.
        let mut fresh = tree();
        fresh.enter(&pos);
        let below = fresh.evaluate(&pos, 1, 2, Window { alpha: exact.value - 51, beta: exact.value - 50 });
        assert_eq!(below.accuracy, Accuracy::Lower);
        assert!(below.value >= exact.value - 50);
    }

    #[test]
    fn after_a_probe_of_a_move_the_table_knows_the_expected_reply() {
        // After Ra8+ black has one move, Kh7.
        let root = ChessPos::new(chess("7k/6p1/8/8/8/8/8/R5K1 w - - 0 1"));
        let check = parse_uci(&root.pos, "a1a8").unwrap();
        let mut game = tree();
        assert_eq!(game.expected_reply(&root.pos, check), None, "nothing probed yet");
        game.enter(&root);
        let after = root.play(check);
        game.evaluate(&after, 1, 3, Window::FULL);
        let reply = game.expected_reply(&root.pos, check).map(|m| m.to_uci(CastlingMode::Standard).to_string());
        assert_eq!(reply.as_deref(), Some("h8h7"));
    }

    #[test]
    fn a_repetition_after_the_root_is_a_draw_one_of_the_root_is_not() {
        let root = ChessPos::new(Chess::default());
        let mut game = tree();
        let back_to_root = walk(&mut game, &root, &["g1f3", "g8f6", "f3g1", "f6g8"]);
        let estimate = game.estimate(&back_to_root, 1, Window::FULL);
        assert!(!estimate.terminal);
        assert_eq!(game.evaluate(&back_to_root, 4, 1, Window::FULL), estimate);

        let mut game = tree();
        let cycle = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3"];
        let again = walk(&mut game, &root, &cycle);
        assert_eq!(game.evaluate(&again, 5, 1, Window::FULL), Tip::terminal(0));
    }

    #[test]
    fn the_root_ignores_draw_rules_but_not_mate() {
        let mut game = tree();
        let fifty = chess("4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
        let pos = ChessPos::new(fifty);
        assert!(!game.evaluate(&pos, 0, 0, Window::FULL).terminal);
        assert_eq!(game.evaluate(&pos, 1, 0, Window::FULL), Tip::terminal(0));

        let mated = chess("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assert_eq!(game.evaluate(&ChessPos::new(mated), 0, 0, Window::FULL), Tip::terminal(mated_in(0)));
    }

    #[test]
    fn sons_come_hint_first_then_captures_then_quiets_by_history() {
        let mut game = tree();
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3";
        let pos = ChessPos::new(chess(fen));
        game.enter(&pos);
        game.evaluate(&pos, 1, 6, Window::FULL);
        let hint = game.table_move_at(&pos.pos, pos.key).expect("a probe leaves its best move");
        let mut sons = Vec::new();
        game.moves(&pos, &mut sons);
        assert_eq!(sons[0], hint);
        let rest = &sons[1..];
        let first_quiet = rest.iter().position(|&m| !is_tactical(m)).unwrap();
        assert!(rest[first_quiet..].iter().all(|&m| !is_tactical(m)), "captures before quiet moves");
        let side = pos.pos.turn();
        let history: Vec<i32> = rest[first_quiet..].iter().map(|&m| game.prober.quiet_move_score(side, m)).collect();
        assert!(history.windows(2).all(|w| w[0] >= w[1]), "quiet moves by history: {history:?}");
        assert!(history[0] > 0, "the probe taught the history something");
    }

    #[test]
    fn only_late_quiet_sons_are_reduced() {
        let mut game = tree();
        let son = |fen: &str, uci: &str| {
            let pos = ChessPos::new(chess(fen));
            let next = pos.play(parse_uci(&pos.pos, uci).unwrap());
            (pos, next)
        };
        let (start, quiet) = son("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3");
        assert!(game.reduction(&start, &quiet, 10, 8) > 0);
        assert!(game.reduction(&start, &quiet, 30, 8) >= game.reduction(&start, &quiet, 10, 8));
        assert_eq!(game.reduction(&start, &quiet, 1, 8), 0, "an early son");
        assert_eq!(game.reduction(&start, &quiet, 10, 2), 0, "too shallow to reduce");
        assert!(game.reduction(&start, &quiet, 63, 8) <= 6, "at least two plies are left");
        let (pos, capture) = son("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5");
        assert_eq!(game.reduction(&pos, &capture, 10, 8), 0, "a capture");
        let (pos, check) = son("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8");
        assert_eq!(game.reduction(&pos, &check, 10, 8), 0, "a check");
        let (pos, promotion) = son("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n");
        assert_eq!(game.reduction(&pos, &promotion, 10, 8), 0, "a promotion");
        let (pos, evasion) = son("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "e1e2");
        assert_eq!(game.reduction(&pos, &evasion, 10, 8), 0, "out of check");
    }

    #[test]
    fn a_seeded_root_values_each_son_once_without_a_probe_and_lists_the_best_first() {
        let mut game = tree();
        let root = ChessPos::new(Chess::default());
        let (e4, d4) = (parse_uci(&root.pos, "e2e4").unwrap(), parse_uci(&root.pos, "d2d4").unwrap());
        game.seed_root(&root, d4, 30, 8);
        let mut sons = Vec::new();
        game.moves(&root, &mut sons);
        assert_eq!(sons[0], d4);
        game.enter(&root);
        let (after_d4, after_e4) = (root.play(d4), root.play(e4));
        assert_eq!(game.evaluate(&after_d4, 1, 7, Window::FULL), Tip::estimate_at(-30, 7));
        let other = Tip::bound_at(-29, 6, Accuracy::Lower);
        assert_eq!(game.evaluate(&after_e4, 1, 6, Window::FULL), Tip { depth: 7, ..other }, "deeper than asked");
        assert_eq!(game.probe_nodes(), 0, "no probe");
        // Once each: the son is probed when valued again; a deeper look is never seeded.
        assert!(game.evaluate(&after_d4, 1, 2, Window::FULL).depth == 2 && game.probe_nodes() > 0);
        let after_c4 = root.play(parse_uci(&root.pos, "c2c4").unwrap());
        assert_eq!(game.evaluate(&after_c4, 1, 8, Window::FULL).depth, 8);
        game.clear_seeds();
        let probed = game.probe_nodes();
        let after_h3 = root.play(parse_uci(&root.pos, "h2h3").unwrap());
        assert_eq!(game.evaluate(&after_h3, 1, 2, Window::FULL).accuracy, Accuracy::Exact);
        assert!(game.probe_nodes() > probed, "cleared seeds are not used");
    }

    #[test]
    fn a_tip_the_probes_table_settles_costs_no_probe() {
        let mut game = tree();
        let root = ChessPos::new(Chess::default());
        game.enter(&root);
        let pos = root.play(parse_uci(&root.pos, "g1f3").unwrap());
        let exact = game.evaluate(&pos, 1, 5, Window::FULL);
        assert_eq!(exact.accuracy, Accuracy::Exact);
        game.cache.clear();
        let probed = game.probe_nodes();
        assert_eq!(game.evaluate(&pos, 1, 4, Window::FULL), Tip { depth: 4, ..exact }, "a shallower look");
        assert_eq!(game.probe_nodes(), probed, "the table's entry settles it");
        game.evaluate(&pos, 1, 6, Window::FULL);
        assert!(game.probe_nodes() > probed, "a deeper look than the table holds is a probe");
    }
}
