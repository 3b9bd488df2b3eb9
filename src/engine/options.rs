//! The UCI option table, each option declared once: its name, type, default and range,
//! what it sets and whether it may change while a search runs. `uci` prints the table,
//! `setoption` is checked and applied through it, and [`Settings::default`] is its
//! defaults. The `tune` build adds a spin option per search tunable, from the tunables'
//! own declarations (`search::tunables`).

use super::searchers::SearchMode;
use super::settings::{Settings, SyzygySettings};
use crate::eval::Evaluation;
use crate::search::SearchSettings;
use crate::search::bandwidth::params::{
    BandwidthStyle, DEFAULT_ALWAYS_THINK, DEFAULT_BAND, DEFAULT_DEPTH_PENALTY, DEFAULT_STRICT_HARRIS, DEFAULT_STYLE,
    DEFAULT_TIP_PROBE_DEPTH, MAX_BAND, MAX_DEPTH_PENALTY, MAX_TIP_PROBE_DEPTH,
};
use crate::search::level::{MAX_ELO, MAX_SKILL, MIN_ELO};
use crate::search::tt::{MAX_HASH_MB, MIN_HASH_MB};
#[cfg(feature = "tune")]
use crate::search::tunables;

/// Default transposition table size in MB.
pub const DEFAULT_HASH_MB: i64 = 16;
/// Default reserve per move for communication delays, in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = 10;
/// The largest `Move Overhead` accepted, in ms.
pub const MAX_MOVE_OVERHEAD_MS: i64 = 5000;
/// The most search threads accepted (Lazy SMP).
pub const MAX_THREADS: i64 = 1024;
/// Default and smallest draft at which the search probes the tablebases.
pub const DEFAULT_SYZYGY_PROBE_DEPTH: i64 = 1;
/// The largest `SyzygyProbeDepth`.
pub const MAX_SYZYGY_PROBE_DEPTH: i64 = 100;
/// The most pieces a Syzygy table has.
pub const MAX_SYZYGY_PIECES: i64 = 7;
/// The most principal variations searched and reported (`MultiPV`).
pub const MAX_MULTI_PV: i64 = 256;
/// The evaluation a new engine uses: the network (else the hand-crafted evaluation).
pub const DEFAULT_USE_NNUE: bool = true;

/// The evaluation a new engine uses ([`DEFAULT_USE_NNUE`]): the network built in, or the
/// hand-crafted one.
pub fn default_evaluation() -> Evaluation {
    if DEFAULT_USE_NNUE { Evaluation::built_in_network() } else { Evaluation::HandCrafted }
}

/// How UCI writes an empty string option.
pub const EMPTY_TEXT: &str = "<empty>";

/// What a button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Forget what `ucinewgame` forgets: the transposition table, the histories (and the
    /// bandwidth tree); the position stays.
    ClearHash,
}

/// An option's type, default and range, and the setting its value goes to.
#[derive(Clone)]
pub enum OptionKind {
    /// A boolean.
    Check {
        /// Default value.
        default: bool,
        /// Stores a value.
        set: fn(&mut Settings, bool),
    },
    /// An integer in a range.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
        /// Stores a value.
        set: fn(&mut Settings, i64),
    },
    /// One of a list of names.
    Combo {
        /// Default value.
        default: &'static str,
        /// The names offered.
        choices: &'static [&'static str],
        /// Stores a value, spelt as offered.
        set: fn(&mut Settings, &'static str),
    },
    /// Text, such as a path.
    String {
        /// Default value; UCI spells the empty text `<empty>`.
        default: &'static str,
        /// Stores a value (`<empty>` read as the empty text).
        set: fn(&mut Settings, String),
    },
    /// An action without a value.
    Button(Action),
}

/// One UCI option.
#[derive(Clone)]
pub struct EngineOption {
    /// The option's name, as `uci` prints it (`setoption` matches it in any case).
    pub name: &'static str,
    /// Its type, default, range and setting.
    pub kind: OptionKind,
    /// It may change while a search runs (the running search does not read it).
    pub while_searching: bool,
}

/// A `setoption` checked against the table: the settings it gives, or a button pressed.
#[derive(Debug, PartialEq, Eq)]
pub enum OptionChange {
    /// The settings with the new value.
    Set(Box<Settings>),
    /// A button.
    Press(Action),
}

impl EngineOption {
    /// Checks `value` (as sent after `value`, trimmed) and applies it to a copy of
    /// `settings`; `Err` says what is wrong with it.
    pub fn apply(&self, settings: &Settings, value: &str) -> Result<OptionChange, String> {
        let value = value.trim();
        let invalid = || format!("invalid value '{value}' for option {}", self.name);
        let mut changed = settings.clone();
        match &self.kind {
            OptionKind::Check { set, .. } => match value.to_ascii_lowercase().as_str() {
                "true" => set(&mut changed, true),
                "false" => set(&mut changed, false),
                _ => return Err(invalid()),
            },
            OptionKind::Spin { min, max, set, .. } => {
                let n: i64 = value.parse().map_err(|_| invalid())?;
                if !(*min..=*max).contains(&n) {
                    return Err(format!("value {n} for option {} is outside {min}..{max}", self.name));
                }
                set(&mut changed, n);
            }
            OptionKind::Combo { choices, set, .. } => {
                let choice = choices.iter().find(|choice| choice.eq_ignore_ascii_case(value)).ok_or_else(invalid)?;
                set(&mut changed, choice);
            }
            OptionKind::String { set, .. } if value == EMPTY_TEXT => set(&mut changed, String::new()),
            OptionKind::String { set, .. } => set(&mut changed, value.to_string()),
            OptionKind::Button(action) => return Ok(OptionChange::Press(*action)),
        }
        Ok(OptionChange::Set(Box::new(changed)))
    }

    /// Applies the declared default to `settings`.
    pub fn apply_default(&self, settings: &mut Settings) {
        match &self.kind {
            OptionKind::Check { default, set } => set(settings, *default),
            OptionKind::Spin { default, set, .. } => set(settings, *default),
            OptionKind::Combo { default, set, .. } => set(settings, default),
            OptionKind::String { default, set } if *default == EMPTY_TEXT => set(settings, String::new()),
            OptionKind::String { default, set } => set(settings, default.to_string()),
            OptionKind::Button(_) => {}
        }
    }
}

/// The option called `name` (in any case).
pub fn find(name: &str) -> Option<&'static EngineOption> {
    all().iter().find(|option| option.name.eq_ignore_ascii_case(name))
}

/// Every option, in the order `uci` prints them.
#[cfg(not(feature = "tune"))]
pub fn all() -> &'static [EngineOption] {
    BUILT_IN
}

/// Every option, in the order `uci` prints them: the built-in ones, then the tunables'.
#[cfg(feature = "tune")]
pub fn all() -> &'static [EngineOption] {
    &WITH_TUNABLES
}

/// The built-in options, then a spin option per search tunable under its name, over its
/// declared range. A tunable changes between searches only: the search threads read it.
#[cfg(feature = "tune")]
static WITH_TUNABLES: once_cell::sync::Lazy<Vec<EngineOption>> = once_cell::sync::Lazy::new(|| {
    let tunables = tunables::setters::<Settings>().map(|(tunable, set)| EngineOption {
        name: tunable.name,
        kind: OptionKind::Spin {
            default: tunable.default.into(),
            min: tunable.min.into(),
            max: tunable.max.into(),
            set,
        },
        while_searching: false,
    });
    BUILT_IN.iter().cloned().chain(tunables).collect()
});

/// The options of every build, in the order `uci` prints them.
static BUILT_IN: &[EngineOption] = &[
    EngineOption {
        name: "Hash",
        kind: OptionKind::Spin {
            default: DEFAULT_HASH_MB,
            min: MIN_HASH_MB as i64,
            max: MAX_HASH_MB as i64,
            set: |s, mb| s.hash_mb = mb as usize,
        },
        while_searching: false,
    },
    EngineOption { name: "Clear Hash", kind: OptionKind::Button(Action::ClearHash), while_searching: false },
    EngineOption {
        name: "Threads",
        kind: OptionKind::Spin { default: 1, min: 1, max: MAX_THREADS, set: |s, n| s.threads = n as usize },
        while_searching: false,
    },
    EngineOption {
        name: "Ponder",
        kind: OptionKind::Check { default: false, set: |s, on| s.ponder = on },
        while_searching: true,
    },
    EngineOption {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS,
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
            set: |s, ms| s.move_overhead_ms = ms as u64,
        },
        while_searching: true,
    },
    EngineOption {
        name: "MultiPV",
        kind: OptionKind::Spin { default: 1, min: 1, max: MAX_MULTI_PV, set: |s, n| s.search.multi_pv = n as usize },
        while_searching: false,
    },
    EngineOption {
        name: "SearchMode",
        kind: OptionKind::Combo {
            default: SearchMode::DEFAULT.name(),
            choices: SearchMode::NAMES,
            set: |s, name| s.search_mode = SearchMode::from_name(name).unwrap_or(s.search_mode),
        },
        while_searching: false,
    },
    EngineOption {
        name: "UCI_Chess960",
        kind: OptionKind::Check { default: false, set: |s, on| s.chess960 = on },
        while_searching: true,
    },
    EngineOption {
        name: "UCI_AnalyseMode",
        kind: OptionKind::Check { default: false, set: |s, on| s.analyse_mode = on },
        while_searching: true,
    },
    EngineOption {
        name: "UCI_ShowWDL",
        kind: OptionKind::Check { default: false, set: |s, on| s.show_wdl = on },
        while_searching: true,
    },
    // Who the opponent is (`GM 2800 human Carlsen`): accepted, as GUIs send it, and unused.
    EngineOption {
        name: "UCI_Opponent",
        kind: OptionKind::String { default: EMPTY_TEXT, set: |_, _| {} },
        while_searching: true,
    },
    EngineOption {
        name: "SyzygyPath",
        kind: OptionKind::String { default: EMPTY_TEXT, set: |s, path| s.syzygy.path = path },
        while_searching: false,
    },
    EngineOption {
        name: "SyzygyProbeDepth",
        kind: OptionKind::Spin {
            default: DEFAULT_SYZYGY_PROBE_DEPTH,
            min: 1,
            max: MAX_SYZYGY_PROBE_DEPTH,
            set: |s, depth| s.syzygy.probe_depth = depth as i32,
        },
        while_searching: false,
    },
    EngineOption {
        name: "Syzygy50MoveRule",
        kind: OptionKind::Check { default: true, set: |s, on| s.syzygy.rule50 = on },
        while_searching: false,
    },
    EngineOption {
        name: "SyzygyProbeLimit",
        kind: OptionKind::Spin {
            default: MAX_SYZYGY_PIECES,
            min: 0,
            max: MAX_SYZYGY_PIECES,
            set: |s, pieces| s.syzygy.probe_limit = pieces as usize,
        },
        while_searching: false,
    },
    EngineOption {
        name: "OwnBook",
        kind: OptionKind::Check { default: false, set: |s, on| s.own_book = on },
        while_searching: true,
    },
    // Searches never read the book, so it may change while one runs.
    EngineOption {
        name: "BookFile",
        kind: OptionKind::String { default: EMPTY_TEXT, set: |s, path| s.book_file = path },
        while_searching: true,
    },
    EngineOption {
        name: "UCI_LimitStrength",
        kind: OptionKind::Check { default: false, set: |s, on| s.limit_strength = on },
        while_searching: false,
    },
    EngineOption {
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: MAX_ELO as i64,
            min: MIN_ELO as i64,
            max: MAX_ELO as i64,
            set: |s, elo| s.elo = elo as u32,
        },
        while_searching: false,
    },
    EngineOption {
        name: "Skill Level",
        kind: OptionKind::Spin {
            default: MAX_SKILL as i64,
            min: 0,
            max: MAX_SKILL as i64,
            set: |s, skill| s.skill = skill as u32,
        },
        while_searching: false,
    },
    EngineOption {
        name: "Use NNUE",
        kind: OptionKind::Check { default: DEFAULT_USE_NNUE, set: |s, on| s.use_nnue = on },
        while_searching: false,
    },
    EngineOption {
        name: "EvalFile",
        kind: OptionKind::String { default: EMPTY_TEXT, set: |s, path| s.eval_file = path },
        while_searching: false,
    },
    EngineOption {
        name: "BandwidthStyle",
        kind: OptionKind::Combo {
            default: DEFAULT_STYLE.name(),
            choices: BandwidthStyle::NAMES,
            set: |s, name| {
                let params = &mut s.search.bandwidth.params;
                params.style = BandwidthStyle::from_name(name).unwrap_or(params.style);
            },
        },
        while_searching: false,
    },
    EngineOption {
        name: "Bandwidth",
        kind: OptionKind::Spin {
            default: DEFAULT_BAND as i64,
            min: 0,
            max: MAX_BAND as i64,
            set: |s, band| s.search.bandwidth.params.band = band as i32,
        },
        while_searching: false,
    },
    EngineOption {
        name: "DepthPenalty",
        kind: OptionKind::Spin {
            default: DEFAULT_DEPTH_PENALTY as i64,
            min: 0,
            max: MAX_DEPTH_PENALTY as i64,
            set: |s, cp| s.search.bandwidth.params.depth_penalty = cp as i32,
        },
        while_searching: false,
    },
    EngineOption {
        name: "TipProbeDepth",
        kind: OptionKind::Spin {
            default: DEFAULT_TIP_PROBE_DEPTH as i64,
            min: 0,
            max: MAX_TIP_PROBE_DEPTH as i64,
            set: |s, depth| s.search.bandwidth.params.tip_probe_depth = depth as u32,
        },
        while_searching: false,
    },
    EngineOption {
        name: "StrictHarris",
        kind: OptionKind::Check {
            default: DEFAULT_STRICT_HARRIS,
            set: |s, on| s.search.bandwidth.params.strict_harris = on,
        },
        while_searching: false,
    },
    EngineOption {
        name: "AlwaysThink",
        kind: OptionKind::Check { default: DEFAULT_ALWAYS_THINK, set: |s, on| s.search.bandwidth.always_think = on },
        while_searching: false,
    },
];

impl Default for Settings {
    /// The option table's defaults, applied to neutral values.
    fn default() -> Settings {
        let mut settings = Settings {
            hash_mb: 0,
            threads: 0,
            ponder: false,
            move_overhead_ms: 0,
            search_mode: SearchMode::DEFAULT,
            chess960: false,
            analyse_mode: false,
            show_wdl: false,
            syzygy: SyzygySettings { path: String::new(), probe_depth: 0, probe_limit: 0, rule50: false },
            own_book: false,
            book_file: String::new(),
            limit_strength: false,
            elo: 0,
            skill: 0,
            use_nnue: false,
            eval_file: String::new(),
            search: SearchSettings::default(),
            #[cfg(feature = "tune")]
            tunables: tunables::Values::default(),
        };
        for option in all() {
            option.apply_default(&mut settings);
        }
        settings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(name: &str, value: &str) -> Result<Settings, String> {
        let option = find(name).ok_or("unknown")?;
        match option.apply(&Settings::default(), value)? {
            OptionChange::Set(settings) => Ok(*settings),
            OptionChange::Press(_) => Err("a button".to_string()),
        }
    }

    #[test]
    fn values_are_checked_and_set() {
        assert_eq!(set("hash", "64").map(|s| s.hash_mb), Ok(64));
        assert_eq!(set("Move Overhead", " 30 ").map(|s| s.move_overhead_ms), Ok(30));
        assert_eq!(set("Ponder", "TRUE").map(|s| s.ponder), Ok(true));
        assert_eq!(set("searchmode", "minimax").map(|s| s.search_mode), Ok(SearchMode::Minimax));
        assert_eq!(set("Bandwidth", "150").map(|s| s.search.bandwidth.params.band), Ok(150));
        assert_eq!(set("alwaysthink", "true").map(|s| s.search.bandwidth.always_think), Ok(true));
        assert_eq!(set("SyzygyPath", "<empty>").map(|s| s.syzygy.path), Ok(String::new()));
        assert_eq!(set("SyzygyPath", "/a:/b c").map(|s| s.syzygy.path), Ok("/a:/b c".to_string()));
        assert_eq!(
            set("BandwidthStyle", "harris").map(|s| s.search.bandwidth.params.style),
            Ok(BandwidthStyle::Harris)
        );
        for (name, value) in [
            ("Hash", "0"),
            ("Hash", "lots"),
            ("Threads", "0"),
            ("Bandwidth", "-1"),
            ("TipProbeDepth", "9"),
            ("SyzygyProbeLimit", "8"),
            ("Ponder", "maybe"),
            ("SearchMode", "Best"),
        ] {
            assert!(set(name, value).is_err(), "{name} {value}");
        }
        assert_eq!(
            find("clear hash").map(|o| o.apply(&Settings::default(), "")),
            Some(Ok(OptionChange::Press(Action::ClearHash)))
        );
        assert!(find("Contempt").is_none());
    }

    #[test]
    fn names_are_unique_and_defaults_are_in_range() {
        let options = all();
        for (i, option) in options.iter().enumerate() {
            assert!(options[..i].iter().all(|o| !o.name.eq_ignore_ascii_case(option.name)), "{}", option.name);
            match option.kind {
                OptionKind::Spin { default, min, max, .. } => {
                    assert!((min..=max).contains(&default), "{}", option.name)
                }
                OptionKind::Combo { default, choices, .. } => assert!(choices.contains(&default), "{}", option.name),
                _ => {}
            }
        }
    }
}
