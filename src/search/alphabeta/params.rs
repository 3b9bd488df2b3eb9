//! Every tunable number of the alpha-beta searcher.

/// Nodes between two checks of the clock and the stop flag.
pub const CHECK_INTERVAL: u64 = 1024;

/// Aspiration windows start at this depth...
pub const ASPIRATION_MIN_DEPTH: u32 = 5;
/// ...with this half-width in centipawns, doubled after each failure.
pub const ASPIRATION_DELTA: i32 = 25;

/// Reverse futility pruning: deepest draft where it applies.
pub const RFP_MAX_DEPTH: i32 = 7;
/// Reverse futility margin per ply of draft (one ply less when the eval is improving).
pub const RFP_MARGIN: i32 = 75;

/// Null-move pruning: shallowest draft where it applies.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null-move base reduction.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// Extra null-move reduction: one ply per this many plies of draft.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Extra null-move reduction: one ply per this many centipawns of eval above beta (max 3).
pub const NMP_EVAL_DIVISOR: i32 = 200;

/// Futility pruning of quiet moves: deepest draft where it applies.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
/// Futility margin: base plus per ply of draft.
pub const FUTILITY_BASE: i32 = 100;
/// Futility margin per ply.
pub const FUTILITY_PER_DEPTH: i32 = 100;
/// Futility margin added when the eval is improving: such a node is likelier to climb.
pub const FUTILITY_IMPROVING: i32 = 50;

/// Late move pruning: deepest draft where it applies.
pub const LMP_MAX_DEPTH: i32 = 6;
/// Late move pruning: quiets allowed before pruning is `LMP_BASE + depth²` when the eval
/// is improving...
pub const LMP_BASE: i32 = 3;
/// ...and that divided by this when it is not: a node going down needs fewer tries.
pub const LMP_NOT_IMPROVING_DIVISOR: i32 = 2;

/// SEE pruning: deepest draft where a move losing material on its square is skipped.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;
/// SEE pruning: a quiet move may lose this much per ply of draft before it is skipped.
pub const SEE_QUIET_MARGIN: i32 = 60;
/// SEE pruning: a capture or promotion may lose this much per ply of draft squared.
pub const SEE_TACTICAL_MARGIN: i32 = 20;

/// Late move reductions: shallowest draft where they apply.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late move reductions: moves searched at full depth before reducing.
pub const LMR_FULL_DEPTH_MOVES: usize = 3;
/// Late move reductions: `BASE + ln(depth)·ln(moves) / DIVISOR` plies.
pub const LMR_BASE: f64 = 0.75;
/// Divisor of the logarithmic reduction term.
pub const LMR_DIVISOR: f64 = 2.25;
/// History score worth one ply less (or more) of reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 16384;

/// Singular extensions: shallowest draft where the table move is tested.
pub const SE_MIN_DEPTH: i32 = 8;
/// Singular extensions: the table entry must be at most this many plies shallower.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// Singular extensions: the other moves must all fail below the table value minus this
/// many centipawns per ply of draft.
pub const SE_MARGIN: i32 = 2;

/// Internal iterative reduction: shallowest draft where a missing TT move costs a ply.
pub const IIR_MIN_DEPTH: i32 = 4;

/// The draft quiescence results are stored with: below every main-search draft, so they
/// never cut off a main-search node but give it a move and an evaluation.
pub const QUIESCENCE_DRAFT: i32 = 0;

/// Quiescence delta pruning: a capture must be able to lift the score within this of alpha.
pub const DELTA_MARGIN: i32 = 200;

/// History values stay within ±this.
pub const HISTORY_MAX: i32 = 16_384;
/// Largest single history bonus (the bonus is depth², capped).
pub const HISTORY_BONUS_MAX: i32 = 1_600;

/// Capture history is divided by this before it joins the MVV-LVA key: at most about a
/// pawn's worth of victim, so it orders captures of like value and rarely a queen below a pawn.
pub const CAPTURE_HISTORY_DIVISOR: i32 = 16;

/// Correction history: slots per side (indexed by pawn-structure hash).
pub const CORRECTION_SIZE: usize = 16_384;
/// Correction history entries are kept in 1/this centipawns, for smooth averaging.
pub const CORRECTION_GRAIN: i32 = 256;
/// Correction history: the largest correction, in centipawns.
pub const CORRECTION_MAX: i32 = 64;
/// Correction history: an update weighs `min(depth + 1, this)` out of
/// [`CORRECTION_WEIGHT_SUM`] against the old entry.
pub const CORRECTION_WEIGHT_MAX: i32 = 16;
/// See [`CORRECTION_WEIGHT_MAX`].
pub const CORRECTION_WEIGHT_SUM: i32 = 256;

/// Time management: iterations before this depth leave the soft budget as it is.
pub const TM_MIN_DEPTH: u32 = 5;
/// Time management: per cent more time per recent best-move change (changes halve in
/// weight every iteration).
pub const TM_CHANGE_PERCENT: u32 = 60;
/// Time management: per cent more time per 10 cp the score fell since the last iteration...
pub const TM_DROP_PERCENT_PER_10CP: i32 = 5;
/// ...counting at most this many centipawns of fall.
pub const TM_DROP_CAP: i32 = 100;
/// Time management: the budget share, in per cent, for a best move that took none of the
/// root's nodes; it falls by [`TM_NODE_SLOPE_PERCENT`] times the share it took.
pub const TM_NODE_BASE_PERCENT: u32 = 150;
/// See [`TM_NODE_BASE_PERCENT`].
pub const TM_NODE_SLOPE_PERCENT: u32 = 100;
/// Time management: the least share of the soft budget a search uses, in per cent...
pub const TM_MIN_PERCENT: u32 = 50;
/// ...and the most (the hard budget caps it anyway).
pub const TM_MAX_PERCENT: u32 = 250;

/// A tablebase value is stored in the transposition table as if searched this many plies
/// deeper than the node's draft: it is exact whatever the depth.
pub const TABLEBASE_DRAFT_BONUS: i32 = 6;

/// Lazy SMP: helper threads skip some iterations so that they search other depths than the
/// main thread at the same moment. Helper `i` skips depth `d` when
/// `(d + SMP_SKIP_PHASE[j]) / SMP_SKIP_SIZE[j]` is odd, with `j = (i - 1) % 20`.
pub const SMP_SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
/// See [`SMP_SKIP_SIZE`].
pub const SMP_SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// A mate score is taken as proven, and iterative deepening ends, once two iterations in
/// a row have found it and the second searched at least twice its distance in plies and
/// this many plies more (see `mates_settled` in iterate.rs).
pub const MATE_PROOF_EXTRA_PLIES: u32 = 2;
