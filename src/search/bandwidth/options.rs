//! The bandwidth searcher's UCI options: their declarations and how each maps onto the
//! searcher's settings.

use super::params::{
    BandwidthParams, BandwidthStyle, DEFAULT_ALWAYS_THINK, DEFAULT_BAND, DEFAULT_DEPTH_PENALTY, DEFAULT_STRICT_HARRIS,
    DEFAULT_STYLE, DEFAULT_TIP_PROBE_DEPTH, MAX_BAND, MAX_DEPTH_PENALTY, MAX_TIP_PROBE_DEPTH,
};
use crate::search::options::{OptionKind, OptionSpec, OptionValue, Setting};

/// Harris's loop or the hybrid.
pub const STYLE: &str = "BandwidthStyle";
/// The band B = e + d in centipawns.
pub const BAND: &str = "Bandwidth";
/// Harris's depth penalty g', in centipawns per ply (the `Harris` style only).
pub const DEPTH_PENALTY: &str = "DepthPenalty";
/// The depth of the tip probes when a search starts.
pub const TIP_PROBE_DEPTH: &str = "TipProbeDepth";
/// Harris's irreversible dropping of out-of-band sons.
pub const STRICT_HARRIS: &str = "StrictHarris";
/// Expanding the tree silently between commands.
pub const ALWAYS_THINK: &str = "AlwaysThink";

/// The options bandwidth mode declares, in the order `uci` prints them.
pub fn declared() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            name: STYLE,
            kind: OptionKind::Combo { default: DEFAULT_STYLE.name(), choices: BandwidthStyle::NAMES },
        },
        OptionSpec {
            name: BAND,
            kind: OptionKind::Spin { default: DEFAULT_BAND as i64, min: 0, max: MAX_BAND as i64 },
        },
        OptionSpec {
            name: DEPTH_PENALTY,
            kind: OptionKind::Spin { default: DEFAULT_DEPTH_PENALTY as i64, min: 0, max: MAX_DEPTH_PENALTY as i64 },
        },
        OptionSpec {
            name: TIP_PROBE_DEPTH,
            kind: OptionKind::Spin { default: DEFAULT_TIP_PROBE_DEPTH as i64, min: 0, max: MAX_TIP_PROBE_DEPTH as i64 },
        },
        OptionSpec { name: STRICT_HARRIS, kind: OptionKind::Check { default: DEFAULT_STRICT_HARRIS } },
        OptionSpec { name: ALWAYS_THINK, kind: OptionKind::Check { default: DEFAULT_ALWAYS_THINK } },
    ]
}

/// Everything the options set: the search's parameters and whether it thinks while idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BandwidthSettings {
    /// The parameters of the search.
    pub params: BandwidthParams,
    /// Keep expanding the tree between commands.
    pub always_think: bool,
}

impl Default for BandwidthSettings {
    fn default() -> BandwidthSettings {
        BandwidthSettings { params: BandwidthParams::default(), always_think: DEFAULT_ALWAYS_THINK }
    }
}

impl BandwidthSettings {
    /// The defaults with `settings` applied in order.
    pub fn from_settings(settings: &[Setting]) -> Result<BandwidthSettings, String> {
        let mut result = BandwidthSettings::default();
        for (name, value) in settings {
            result.apply(name, value.clone())?;
        }
        Ok(result)
    }

    /// Applies one option, already checked against its declaration.
    pub fn apply(&mut self, name: &str, value: OptionValue) -> Result<(), String> {
        match (name, value) {
            (STYLE, OptionValue::Combo(name)) => {
                self.params.style =
                    BandwidthStyle::from_name(name).ok_or_else(|| format!("unknown bandwidth style {name}"))?
            }
            (BAND, OptionValue::Spin(n)) => self.params.band = n as i32,
            (DEPTH_PENALTY, OptionValue::Spin(n)) => self.params.depth_penalty = n as i32,
            (TIP_PROBE_DEPTH, OptionValue::Spin(n)) => self.params.tip_probe_depth = n as u32,
            (STRICT_HARRIS, OptionValue::Check(on)) => self.params.strict_harris = on,
            (ALWAYS_THINK, OptionValue::Check(on)) => self.always_think = on,
            _ => return Err(format!("option {name} does not apply to bandwidth mode")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_option_applies_and_its_default_is_the_default_setting() {
        let defaults: Vec<Setting> = declared().iter().map(|spec| (spec.name, spec.default_value())).collect();
        assert_eq!(BandwidthSettings::from_settings(&defaults), Ok(BandwidthSettings::default()));
        let mut settings = BandwidthSettings::default();
        assert!(settings.apply(BAND, OptionValue::Spin(30)).is_ok());
        assert!(settings.apply(ALWAYS_THINK, OptionValue::Check(false)).is_ok());
        assert!(settings.apply(STYLE, OptionValue::Combo("Harris")).is_ok());
        assert_eq!(settings.params.style, BandwidthStyle::Harris);
        assert_eq!((settings.params.band, settings.always_think), (30, false));
        assert!(settings.apply("Hash", OptionValue::Spin(16)).is_err());
    }
}
