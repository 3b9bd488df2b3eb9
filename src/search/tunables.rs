//! The numbers of the alpha-beta search that a tuner may move, each declared once below
//! with its default, its range and its SPSA settings: the pruning, reduction and extension
//! margins and drafts, the late-move-reduction formula, the history bonus and malus,
//! aspiration windows, the correction history's weights, and the time manager's budgets
//! and how a search's stability stretches or cuts them. The search reads each through a
//! function of its name, `tunables::rfp_margin()`. Numbers no tuner should move (table
//! sizes, bounds that keep values in their storage, the polling interval) stay plain
//! constants beside their code.
//!
//! In the default build each function returns its default: a constant, inlined.
//!
//! With the cargo feature `tune` each value lives in an atomic. The engine holds its
//! values in its settings (`Values`, one UCI `spin` option per tunable under the same
//! name and range, set between searches only) and `publish`es them when they change; the
//! search threads read the atomics. The values are therefore the process's, not an
//! engine's: one engine per process, as a tuner runs them. `TUNABLES` describes every
//! tunable for `harrier tunables`, which prints OpenBench's SPSA input
//! (`name, int, default, min, max, c_end, r_end`; docs/tuning.md).
//!
//! Each line below reads `name: type = default in min..=max, c_end C, r_end R;`: C is the
//! perturbation SPSA ends with and R its learning rate at the end, as OpenBench takes them.
//! Every range is checked at compile time to hold its default and to fit its type.

/// Declares the tunables: in the default build a constant function each; in the `tune`
/// build an atomic each, its reading function, `Values`, `publish`, `TUNABLES` and
/// `setters`. Every build checks each range at compile time.
macro_rules! tunables {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident: $ty:ty = $default:literal in $min:literal..=$max:literal, c_end $c_end:literal, r_end $r_end:literal;
    )*) => {
        // A range that leaves out its default, a bound the type cannot hold, or an SPSA
        // step that is not positive stops the build.
        const _: () = {
            $(
                assert!($min <= $default && $default <= $max, concat!(stringify!($name), ": default outside its range"));
                assert!($c_end > 0.0 && $r_end > 0.0, concat!(stringify!($name), ": c_end and r_end must be positive"));
                let _: $ty = $min;
                let _: $ty = $max;
            )*
        };

        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub fn $name() -> $ty {
                $default
            }

            $(#[doc = $doc])*
            #[cfg(feature = "tune")]
            #[inline]
            pub fn $name() -> $ty {
                cell::$name.load(std::sync::atomic::Ordering::Relaxed) as $ty
            }
        )*

        /// The values the search reads in the `tune` build, one atomic per tunable: written
        /// by [`publish`] between searches, read by every search thread. Relaxed order is
        /// enough: a search starts from a job sent through a channel after the writes.
        #[cfg(feature = "tune")]
        mod cell {
            use std::sync::atomic::AtomicI32;
            $(
                #[allow(non_upper_case_globals)]
                pub(super) static $name: AtomicI32 = AtomicI32::new($default);
            )*
        }

        /// Every tunable's value, as one engine's options hold them.
        #[cfg(feature = "tune")]
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Values {
            $(
                $(#[doc = $doc])*
                pub $name: i32,
            )*
        }

        #[cfg(feature = "tune")]
        impl Default for Values {
            /// The declared defaults.
            fn default() -> Values {
                Values { $($name: $default,)* }
            }
        }

        /// Makes `values` the ones every search of this process reads from now on.
        #[cfg(feature = "tune")]
        pub fn publish(values: &Values) {
            $(cell::$name.store(values.$name, std::sync::atomic::Ordering::Relaxed);)*
        }

        /// Every tunable, in the order declared.
        #[cfg(feature = "tune")]
        pub static TUNABLES: &[Tunable] = &[
            $(
                Tunable {
                    name: stringify!($name),
                    default: $default,
                    min: $min,
                    max: $max,
                    c_end: $c_end,
                    r_end: $r_end,
                    doc: &[$($doc),*],
                },
            )*
        ];

        /// Per tunable, the function that stores a value into the [`Values`] a holder of
        /// settings keeps: the setter of the tunable's UCI option.
        #[cfg(feature = "tune")]
        mod set {
            $(
                pub(super) fn $name<S: AsMut<super::Values>>(holder: &mut S, value: i64) {
                    holder.as_mut().$name = value as i32;
                }
            )*
        }

        /// Every tunable with the function that stores a value of it into the [`Values`]
        /// of an `S` (an option's setter; the value is already checked against the range).
        #[cfg(feature = "tune")]
        pub fn setters<S: AsMut<Values>>() -> impl Iterator<Item = (&'static Tunable, fn(&mut S, i64))> {
            TUNABLES.iter().zip([$(set::$name::<S> as fn(&mut S, i64),)*])
        }
    };
}

/// One tunable as the `tune` build describes it: to the engine's options, to
/// `harrier tunables` and to its tests.
#[cfg(feature = "tune")]
#[derive(Debug)]
pub struct Tunable {
    /// The function's name, and the UCI option's.
    pub name: &'static str,
    /// The value of the default build.
    pub default: i32,
    /// The smallest value.
    pub min: i32,
    /// The largest value.
    pub max: i32,
    /// SPSA: the perturbation at the last iteration.
    pub c_end: f64,
    /// SPSA: the learning rate at the last iteration.
    pub r_end: f64,
    /// The doc comment, a line per element.
    pub doc: &'static [&'static str],
}

#[cfg(feature = "tune")]
impl Tunable {
    /// The tunable as a line of OpenBench's SPSA input: `name, int, default, min, max,
    /// c_end, r_end`.
    pub fn spsa_line(&self) -> String {
        format!("{}, int, {}, {}, {}, {}, {}", self.name, self.default, self.min, self.max, self.c_end, self.r_end)
    }

    /// What the tunable does: its doc comment on one line.
    pub fn description(&self) -> String {
        self.doc.iter().map(|line| line.trim()).collect::<Vec<_>>().join(" ")
    }
}

tunables! {
    // Aspiration windows (root.rs).

    /// Aspiration windows start at this depth.
    aspiration_min_depth: u32 = 5 in 1..=10, c_end 1.0, r_end 0.002;
    /// Half-width of the first aspiration window, in centipawns.
    aspiration_delta: i32 = 25 in 5..=100, c_end 4.0, r_end 0.002;
    /// A failed aspiration window grows to this many per cent of its width (at least 130,
    /// so that the narrowest window still grows).
    aspiration_growth_percent: i32 = 197 in 130..=400, c_end 15.0, r_end 0.002;

    // Pruning before the moves (negamax.rs).

    /// Reverse futility pruning: deepest draft where it applies.
    rfp_max_depth: i32 = 7 in 2..=12, c_end 1.0, r_end 0.002;
    /// Reverse futility margin per ply of draft (one ply less when the eval is improving).
    rfp_margin: i32 = 79 in 20..=200, c_end 8.0, r_end 0.002;
    /// Null-move pruning: shallowest draft where it applies.
    nmp_min_depth: i32 = 2 in 1..=6, c_end 1.0, r_end 0.002;
    /// Null-move base reduction, in plies.
    nmp_base_reduction: i32 = 3 in 1..=6, c_end 1.0, r_end 0.002;
    /// Extra null-move reduction: one ply per this many plies of draft.
    nmp_depth_divisor: i32 = 3 in 2..=8, c_end 1.0, r_end 0.002;
    /// Extra null-move reduction: one ply per this many centipawns of eval above beta...
    nmp_eval_divisor: i32 = 202 in 50..=500, c_end 20.0, r_end 0.002;
    /// ...up to this many plies.
    nmp_eval_reduction_max: i32 = 3 in 0..=6, c_end 1.0, r_end 0.002;
    /// Internal iterative reduction: shallowest draft where a missing table move costs a ply.
    iir_min_depth: i32 = 3 in 2..=8, c_end 1.0, r_end 0.002;

    // Pruning of moves (negamax.rs).

    /// Futility pruning of quiet moves: deepest draft where it applies.
    futility_max_depth: i32 = 6 in 1..=10, c_end 1.0, r_end 0.002;
    /// Futility margin: this base plus `futility_per_depth` per ply of draft.
    futility_base: i32 = 100 in 0..=250, c_end 10.0, r_end 0.002;
    /// Futility margin per ply of draft.
    futility_per_depth: i32 = 95 in 30..=250, c_end 10.0, r_end 0.002;
    /// Futility margin added when the eval is improving: such a node is likelier to climb.
    futility_improving: i32 = 49 in 0..=150, c_end 8.0, r_end 0.002;
    /// Late move pruning: deepest draft where it applies.
    lmp_max_depth: i32 = 6 in 1..=10, c_end 1.0, r_end 0.002;
    /// Late move pruning: quiets allowed before pruning are `lmp_base + depth²` when the
    /// eval is improving...
    lmp_base: i32 = 4 in 0..=10, c_end 1.0, r_end 0.002;
    /// ...and this many per cent of that when it is not: a node going down needs fewer tries.
    lmp_not_improving_percent: i32 = 52 in 20..=100, c_end 5.0, r_end 0.002;
    /// SEE pruning: deepest draft where a move losing material on its square is skipped.
    see_prune_max_depth: i32 = 8 in 1..=12, c_end 1.0, r_end 0.002;
    /// SEE pruning: a quiet move may lose this much per ply of draft before it is skipped.
    see_quiet_margin: i32 = 56 in 10..=150, c_end 6.0, r_end 0.002;
    /// SEE pruning: a capture or promotion may lose this much per ply of draft squared.
    see_tactical_margin: i32 = 21 in 2..=60, c_end 2.0, r_end 0.002;

    // Late move reductions (negamax.rs; tip_prober.rs for the bandwidth searcher's tips).

    /// Late move reductions: shallowest draft where they apply.
    lmr_min_depth: i32 = 3 in 2..=6, c_end 1.0, r_end 0.002;
    /// Late move reductions: moves searched at full depth before reducing.
    lmr_full_depth_moves: usize = 4 in 1..=8, c_end 1.0, r_end 0.002;
    /// Late move reductions are `base + ln(depth)·ln(moves) / divisor` plies: the base, in
    /// hundredths of a ply.
    lmr_base_percent: i32 = 76 in 0..=200, c_end 8.0, r_end 0.002;
    /// The divisor of the logarithmic reduction term, in hundredths.
    lmr_divisor_percent: i32 = 217 in 120..=400, c_end 12.0, r_end 0.002;
    /// History score worth one ply less (or more) of reduction.
    lmr_history_divisor: i32 = 16444 in 4096..=32768, c_end 1024.0, r_end 0.002;

    // Extensions (negamax.rs).

    /// Singular extensions: shallowest draft where the table move is tested.
    se_min_depth: i32 = 7 in 4..=12, c_end 1.0, r_end 0.002;
    /// Singular extensions: the table entry must be at most this many plies shallower.
    se_tt_depth_margin: i32 = 3 in 1..=6, c_end 1.0, r_end 0.002;
    /// Singular extensions: the other moves must all fail below the table value minus this
    /// many centipawns per ply of draft.
    se_margin: i32 = 2 in 1..=8, c_end 1.0, r_end 0.002;

    // Quiescence (quiescence.rs).

    /// Quiescence delta pruning: a capture must be able to lift the score within this of alpha.
    delta_margin: i32 = 219 in 50..=500, c_end 20.0, r_end 0.002;

    // Move-ordering memory (history.rs, movepick.rs).

    /// History bonus of a cutoff move: this many per cent of the draft squared...
    history_bonus_percent: i32 = 94 in 25..=300, c_end 10.0, r_end 0.002;
    /// ...capped here (below the histories' bound, 16384).
    history_bonus_max: i32 = 1618 in 200..=4000, c_end 120.0, r_end 0.002;
    /// History malus of the moves tried before a cutoff: this many per cent of the draft
    /// squared...
    history_malus_percent: i32 = 107 in 25..=300, c_end 10.0, r_end 0.002;
    /// ...capped here.
    history_malus_max: i32 = 1547 in 200..=4000, c_end 120.0, r_end 0.002;
    /// Capture history is divided by this before it joins the MVV-LVA key: at most about a
    /// pawn's worth of victim, so it orders captures of like value and rarely a queen below
    /// a pawn.
    capture_history_divisor: i32 = 16 in 4..=64, c_end 2.0, r_end 0.002;

    // Correction history (correction.rs).

    /// Correction history: the largest correction, in centipawns.
    correction_max: i32 = 60 in 16..=160, c_end 6.0, r_end 0.002;
    /// Correction history: an update weighs `min(depth + 1, this)` out of
    /// `correction_weight_sum` against the old entry.
    correction_weight_max: i32 = 15 in 4..=32, c_end 2.0, r_end 0.002;
    /// Correction history: the whole of an update's weight (see `correction_weight_max`).
    correction_weight_sum: i32 = 253 in 128..=1024, c_end 24.0, r_end 0.002;

    // How an iteration's result stretches or cuts the soft budget (timing.rs).

    /// Time management: iterations before this depth leave the soft budget as it is.
    tm_min_depth: u32 = 5 in 1..=10, c_end 1.0, r_end 0.002;
    /// Time management: per cent more time per recent best-move change (changes halve in
    /// weight every iteration).
    tm_change_percent: u32 = 58 in 0..=200, c_end 8.0, r_end 0.002;
    /// Time management: per cent more time per 10 cp the score fell since the last iteration...
    tm_drop_percent_per_10cp: i32 = 5 in 0..=20, c_end 1.0, r_end 0.002;
    /// ...counting at most this many centipawns of fall.
    tm_drop_cap: i32 = 98 in 20..=300, c_end 12.0, r_end 0.002;
    /// Time management: the budget share, in per cent, for a best move that took none of
    /// the root's nodes; it falls by `tm_node_slope_percent` times the share it took.
    tm_node_base_percent: u32 = 134 in 100..=250, c_end 8.0, r_end 0.002;
    /// See `tm_node_base_percent`.
    tm_node_slope_percent: u32 = 108 in 0..=200, c_end 8.0, r_end 0.002;
    /// Time management: the least share of the soft budget a search uses, in per cent...
    tm_min_percent: u32 = 49 in 10..=100, c_end 5.0, r_end 0.002;
    /// ...and the most (the hard budget caps it anyway).
    tm_max_percent: u32 = 255 in 100..=500, c_end 15.0, r_end 0.002;

    // The budgets from the clock (search/time.rs; the bandwidth searcher's too).

    /// Moves assumed to remain when the GUI sends no `movestogo`.
    tm_moves_to_go: i64 = 27 in 10..=50, c_end 2.0, r_end 0.002;
    /// Share of the increment spent on this move, in per mille...
    tm_increment_per_mille: i64 = 732 in 300..=1000, c_end 40.0, r_end 0.002;
    /// ...and when the clock holds less than `tm_low_clock_increments` increments: spending
    /// well under the increment lets a low clock grow back instead of hovering near zero.
    tm_low_clock_increment_per_mille: i64 = 405 in 100..=900, c_end 40.0, r_end 0.002;
    /// A clock under this many increments is low.
    tm_low_clock_increments: i64 = 14 in 5..=50, c_end 3.0, r_end 0.002;
    /// On a low clock the hard limit is at most this share of the increment, in per mille
    /// (unless the soft budget is larger), so that searches that run to their hard limit
    /// (a bandwidth tree that never settles) still let the clock grow back: with half the
    /// clock as the only cap they held it near 100 ms at 5+0.05 and lost on time.
    tm_low_clock_hard_per_mille: i64 = 789 in 400..=1000, c_end 40.0, r_end 0.002;
    /// The hard limit, in per cent of the soft budget.
    tm_hard_percent: i64 = 311 in 150..=600, c_end 25.0, r_end 0.002;
    /// The hard limit never exceeds this share of the remaining clock, in per mille.
    tm_max_clock_per_mille: i64 = 512 in 200..=800, c_end 30.0, r_end 0.002;
}
