//! The alpha-beta searcher's fixed numbers: sizes, bounds and schedules that no tuner
//! should move. The numbers a tuner may move are in `search::tunables`.

/// Nodes between two checks of the clock and the stop flag.
pub const CHECK_INTERVAL: u64 = 1024;

/// The draft quiescence results are stored with: below every main-search draft, so they
/// never cut off a main-search node but give it a move and an evaluation.
pub const QUIESCENCE_DRAFT: i32 = 0;

/// History values stay within ±this (continuation history keeps them in 16 bits).
pub const HISTORY_MAX: i32 = 16_384;

/// Correction history: slots per side (indexed by pawn-structure hash).
pub const CORRECTION_SIZE: usize = 16_384;
/// Correction history entries are kept in 1/this centipawns, for smooth averaging.
pub const CORRECTION_GRAIN: i32 = 256;

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
