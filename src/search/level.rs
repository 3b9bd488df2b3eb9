//! Playing levels (`UCI_LimitStrength` with `UCI_Elo`, and `Skill Level`): a weaker
//! player sees less and misjudges more. A level limits the nodes a move's search may spend
//! and then picks among the best few moves with a temperature that grows as the level
//! drops, so that its mistakes are plausible ones; it keeps using a share of its time.

use crate::random::SplitMix;

/// The full `Skill Level`: no weakening.
pub const MAX_SKILL: u32 = 20;
/// The weakest `UCI_Elo` offered.
pub const MIN_ELO: u32 = 800;
/// The strongest `UCI_Elo` offered; at it the engine plays at full strength.
pub const MAX_ELO: u32 = 2850;
/// `UCI_Elo` against the skill (0 to [`MAX_SKILL`], in tenths) that plays at it, rising:
/// the calibrated mapping, fitted by `tools/calibrate_levels.py` with the network g8a at
/// 10+0.1 (see `docs/levels.md`), interpolated between its points.
const ELO_SKILL_TENTHS: [(u32, u32); 12] = [
    (MIN_ELO, 1),
    (1000, 29),
    (1200, 53),
    (1400, 77),
    (1600, 104),
    (1800, 126),
    (2000, 156),
    (2200, 194),
    (2400, 200),
    (2600, 200),
    (2800, 200),
    (MAX_ELO, 200),
];
/// Nodes a search may spend at skill 0...
const NODES_AT_ZERO: f64 = 64.0;
/// ...doubling every this many tenths of skill (skill 19 allows about 148,000).
const TENTHS_PER_DOUBLING: f64 = 17.0;
/// Root moves the choice is made among...
const CANDIDATES: usize = 4;
/// ...up to this skill in tenths; above it the choice narrows to the best move alone at
/// the top, so that the strongest levels meet full strength without a jump (choosing among
/// four up to full skill left a gap below it; docs/levels.md).
const NARROWING_FROM_TENTHS: u32 = 180;
/// The temperature of the choice at skill 0, in centipawns...
const TEMPERATURE_AT_ZERO: f64 = 250.0;
/// ...and at the full skill.
const TEMPERATURE_AT_FULL: f64 = 8.0;
/// A limited search still takes this share of its soft time budget, in per cent, so that
/// it neither moves at once nor uses the clock like a full search.
pub const TIME_SHARE_PERCENT: u32 = 30;

/// A playing level below full strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Skill in tenths, from 0 to `10 * MAX_SKILL` (exclusive: full skill is no level).
    tenths: u32,
}

impl Level {
    /// The level of `Skill Level` `skill`; `None` at full skill.
    pub fn from_skill(skill: u32) -> Option<Level> {
        (skill < MAX_SKILL).then_some(Level { tenths: skill * 10 })
    }

    /// The level that plays at `elo`; `None` at [`MAX_ELO`].
    pub fn from_elo(elo: u32) -> Option<Level> {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let at = ELO_SKILL_TENTHS.windows(2).find(|pair| elo <= pair[1].0).unwrap_or(&ELO_SKILL_TENTHS[..2]);
        let [(low_elo, low), (high_elo, high)] = [at[0], at[1]];
        let tenths = low + (high - low) * (elo - low_elo) / (high_elo - low_elo).max(1);
        (tenths < MAX_SKILL * 10).then_some(Level { tenths })
    }

    /// The nodes a search at this level may spend.
    pub fn nodes(self) -> u64 {
        (NODES_AT_ZERO * 2f64.powf(f64::from(self.tenths) / TENTHS_PER_DOUBLING)) as u64
    }

    /// The root moves the choice is made among: [`CANDIDATES`] up to
    /// [`NARROWING_FROM_TENTHS`], then one fewer at a time down to one below full skill.
    pub fn candidates(self) -> usize {
        let span = MAX_SKILL * 10 - NARROWING_FROM_TENTHS;
        let left = span - self.tenths.saturating_sub(NARROWING_FROM_TENTHS);
        1 + (CANDIDATES - 1) * left as usize / span as usize
    }

    /// The temperature of the move choice in centipawns. It falls with the square of the
    /// skill still missing, so that the strong levels seldom give away half a pawn and
    /// meet full strength without a jump (falling in a straight line, it left skill 165
    /// some 800 Elo below full strength).
    fn temperature(self) -> f64 {
        let missing = 1.0 - f64::from(self.tenths) / f64::from(MAX_SKILL * 10);
        TEMPERATURE_AT_FULL + (TEMPERATURE_AT_ZERO - TEMPERATURE_AT_FULL) * missing * missing
    }

    /// The index of the move to play among candidates of `values` (best first, from the
    /// side to move's view): each is chosen with a weight that falls exponentially with
    /// its loss against the best, on the level's temperature.
    pub fn choose(self, values: &[i32], rng: &mut SplitMix) -> usize {
        let Some(&best) = values.first() else { return 0 };
        let weights: Vec<f64> =
            values.iter().map(|&v| (-(f64::from(best.saturating_sub(v))) / self.temperature()).exp()).collect();
        let total: f64 = weights.iter().sum();
        let mut draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (index, weight) in weights.iter().enumerate() {
            if draw < *weight {
                return index;
            }
            draw -= weight;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_rise_with_elo_and_skill_to_full_strength() {
        assert_eq!(Level::from_skill(MAX_SKILL), None);
        assert_eq!(Level::from_elo(MAX_ELO), None);
        let skills: Vec<u64> = (0..MAX_SKILL).map(|s| Level::from_skill(s).unwrap().nodes()).collect();
        assert!(skills.windows(2).all(|w| w[0] < w[1]), "{skills:?}");
        // Full strength (no level) counts as the most nodes; the table may reach it below MAX_ELO.
        let elos: Vec<u64> =
            (MIN_ELO..MAX_ELO).step_by(50).map(|e| Level::from_elo(e).map_or(u64::MAX, Level::nodes)).collect();
        assert!(elos.windows(2).all(|w| w[0] <= w[1]), "{elos:?}");
        assert_eq!(Level::from_elo(100), Level::from_elo(MIN_ELO), "below the range is its bottom");
    }

    #[test]
    fn the_choice_narrows_to_the_best_move_below_full_skill() {
        let counts: Vec<usize> = (0..MAX_SKILL * 10).map(|tenths| Level { tenths }.candidates()).collect();
        assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
        assert_eq!(counts[0], CANDIDATES);
        assert_eq!(counts[NARROWING_FROM_TENTHS as usize], CANDIDATES);
        assert_eq!(counts[NARROWING_FROM_TENTHS as usize + 1], CANDIDATES - 1);
        assert_eq!(counts.last(), Some(&1));
        for count in 1..=CANDIDATES {
            assert!(counts.contains(&count), "no level chooses among {count}: {counts:?}");
        }
    }

    #[test]
    fn the_best_move_is_chosen_most_and_weaker_levels_stray_more() {
        let values = [50, 30, -40, -300];
        let share_of_best = |level: Level| {
            let mut rng = SplitMix::new(7);
            (0..4000).filter(|_| level.choose(&values, &mut rng) == 0).count()
        };
        let (weak, strong) = (Level::from_skill(0).unwrap(), Level::from_skill(19).unwrap());
        assert!(share_of_best(strong) > 2500);
        assert!(share_of_best(weak) < share_of_best(strong));
        assert!(share_of_best(weak) > 1000, "even the weakest level plays the best move most");
        let mut rng = SplitMix::new(1);
        assert!((0..4000).all(|_| strong.choose(&values, &mut rng) != 3), "a blunder of 3.5 pawns at skill 19");
        assert_eq!(weak.choose(&[10], &mut rng), 0);
    }
}
