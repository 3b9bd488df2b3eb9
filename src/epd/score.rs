//! Scoring: whether a record is solved, the points a move earns, and the totals per theme
//! that close a run.

use std::time::Duration;

use shakmaty::Move;

use super::record::EpdRecord;
use crate::search::{Score, nodes_per_second};

/// True when `played` (with the search's final `score`) meets every condition of the
/// record: among its `bm` moves, not among its `am` moves, and a mate found within `dm`
/// moves. A record with none of these is solved by a move that earns its most points.
pub fn is_solved(record: &EpdRecord, played: Option<Move>, score: Score) -> bool {
    let Some(m) = played else { return false };
    let best = record.best.is_empty() || record.best.contains(&m);
    let avoided = !record.avoid.contains(&m);
    let mated = record.mate.is_none_or(|n| score.mates_within(n));
    let only_points = record.best.is_empty() && record.avoid.is_empty() && record.mate.is_none();
    let top = !only_points || record.points_for(played) == record.max_points();
    best && avoided && mated && top
}

/// The theme of a record: its id without the trailing `.NNN` number and without the
/// `STS(vN.N) ` prefix of the Strategic Test Suite (`STS(v1.0) Undermine.001` is
/// `Undermine`), or `None` when the id does not end in a number.
pub fn theme(id: &str) -> Option<&str> {
    let (name, number) = id.rsplit_once('.')?;
    if name.is_empty() || number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let name = match name.split_once(") ") {
        Some((prefix, rest)) if prefix.starts_with("STS(") && !rest.is_empty() => rest,
        _ => name,
    };
    Some(name.trim())
}

/// Positions, solved positions and points of a set of records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Positions run.
    pub positions: usize,
    /// Positions solved.
    pub solved: usize,
    /// Points earned.
    pub points: u32,
    /// The most points the positions could earn.
    pub max_points: u32,
}

impl Tally {
    fn add(&mut self, solved: bool, points: u32, max_points: u32) {
        self.positions += 1;
        self.solved += usize::from(solved);
        self.points += points;
        self.max_points += max_points;
    }
}

/// The totals of a run, per theme and overall.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteSummary {
    /// All positions.
    pub total: Tally,
    /// Per theme, in the order the themes first appear; `None`: ids without a theme.
    pub themes: Vec<(Option<String>, Tally)>,
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

/// The name the theme table gives records whose id has no theme.
const NO_THEME: &str = "(no theme)";

impl SuiteSummary {
    /// Counts one finished position.
    pub fn add(&mut self, record: &EpdRecord, solved: bool, points: u32, nodes: u64) {
        let max_points = record.max_points();
        self.total.add(solved, points, max_points);
        self.nodes += nodes;
        let name = theme(&record.id);
        let index = match self.themes.iter().position(|(known, _)| known.as_deref() == name) {
            Some(index) => index,
            None => {
                self.themes.push((name.map(str::to_string), Tally::default()));
                self.themes.len() - 1
            }
        };
        self.themes[index].1.add(solved, points, max_points);
    }

    /// The closing lines: a table per theme when there are several themes, `score P/Pmax`
    /// when records had point lists, time, nodes and speed, and `solved X/Y` last.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.themes.iter().filter(|(name, _)| name.is_some()).count() > 1 {
            let width = self.themes.iter().map(|(name, _)| name.as_deref().unwrap_or(NO_THEME).len()).max();
            let width = width.unwrap_or(0).max("theme".len());
            lines.push(format!("{:<width$} {:>9} {:>6} {:>9}", "theme", "positions", "solved", "points"));
            for (name, tally) in &self.themes {
                lines.push(format!(
                    "{:<width$} {:>9} {:>6} {:>9}",
                    name.as_deref().unwrap_or(NO_THEME),
                    tally.positions,
                    tally.solved,
                    format!("{}/{}", tally.points, tally.max_points),
                ));
            }
        }
        if self.total.max_points > 0 {
            lines.push(format!("score {}/{}", self.total.points, self.total.max_points));
        }
        let seconds = self.elapsed.as_secs_f64();
        let nps = nodes_per_second(self.nodes, self.elapsed);
        lines.push(format!("time {seconds:.1} s nodes {} nps {nps}", self.nodes));
        lines.push(format!("solved {}/{}", self.total.solved, self.total.positions));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epd::record::parse_record;

    #[test]
    fn themes_drop_the_number_and_the_sts_prefix() {
        assert_eq!(theme("STS(v1.0) Undermine.001"), Some("Undermine"));
        assert_eq!(theme("STS(v9.0) Advancement of a/b/c pawns.28"), Some("Advancement of a/b/c pawns"));
        assert_eq!(theme("WAC.001"), Some("WAC"));
        assert_eq!(theme("arasan2023.12"), Some("arasan2023"));
        assert_eq!(theme("BT2630-14"), None);
        assert_eq!(theme("line 5"), None);
        assert_eq!(theme("v1.0a"), None);
        assert_eq!(theme(".001"), None);
    }

    #[test]
    fn records_are_solved_by_their_conditions() {
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - -";
        let record = |ops: &str| parse_record(&format!("{fen} {ops}"), 1).unwrap();
        let both = record("bm Ra8; am Ra2;");
        let (ra8, ra2, kf1) = (
            both.best[0],
            both.avoid[0],
            shakmaty::Move::Normal {
                role: shakmaty::Role::King,
                from: shakmaty::Square::G1,
                capture: None,
                to: shakmaty::Square::F1,
                promotion: None,
            },
        );
        let cp = Score::Centipawns(0);
        assert!(is_solved(&both, Some(ra8), cp));
        assert!(!is_solved(&both, Some(ra2), cp) && !is_solved(&both, Some(kf1), cp) && !is_solved(&both, None, cp));
        let avoid = record("am Ra2;");
        assert!(is_solved(&avoid, Some(kf1), cp) && !is_solved(&avoid, Some(ra2), cp));
        let mate = record("dm 1;");
        assert!(is_solved(&mate, Some(ra8), Score::Mate(1)));
        assert!(!is_solved(&mate, Some(ra8), Score::Mate(2)) && !is_solved(&mate, Some(ra8), Score::Mate(-1)));
        assert!(!is_solved(&mate, Some(ra8), cp));
        let mate_bm = record("bm Ra8; dm 2;");
        assert!(is_solved(&mate_bm, Some(ra8), Score::Mate(1)) && !is_solved(&mate_bm, Some(kf1), Score::Mate(2)));
        let points = record("c8 \"10 4\"; c9 \"a1a8 g1f1\";");
        assert!(is_solved(&points, Some(ra8), cp) && !is_solved(&points, Some(kf1), cp));
        assert_eq!((points.points_for(Some(kf1)), points.points_for(Some(ra2))), (4, 0));
    }

    #[test]
    fn the_summary_counts_per_theme() {
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - -";
        let mut summary = SuiteSummary::default();
        for (ops, solved, points) in [
            ("id \"STS(v1.0) Undermine.001\"; c0 \"Ra8=10, Kf1=3\";", true, 10),
            ("id \"STS(v1.0) Undermine.002\"; c0 \"Ra8=10, Kf1=3\";", false, 3),
            ("id \"STS(v2.2) Open Files and Diagonals.001\"; c0 \"Ra8=10\";", false, 0),
            ("bm Ra8;", true, 0),
        ] {
            summary.add(&parse_record(&format!("{fen} {ops}"), 1).unwrap(), solved, points, 100);
        }
        summary.elapsed = Duration::from_secs(2);
        assert_eq!(
            summary.lines(),
            [
                "theme                    positions solved    points",
                "Undermine                        2      1     13/20",
                "Open Files and Diagonals         1      0      0/10",
                "(no theme)                       1      1       0/0",
                "score 13/30",
                "time 2.0 s nodes 400 nps 200",
                "solved 2/4",
            ]
        );
    }
}
