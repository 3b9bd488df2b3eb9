//! Declared settings: what an option is called, its type and range, and how a value sent
//! for it is checked. The engine declares its own options with these types and each
//! searcher declares its own, so that `uci` lists them all and `setoption` checks them alike.

/// The kind of an option, with its default and range, as `uci` declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A boolean.
    Check {
        /// Default value.
        default: bool,
    },
    /// An integer in a range.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of a list of names.
    Combo {
        /// Default value.
        default: &'static str,
        /// The names offered.
        choices: &'static [&'static str],
    },
    /// An action without a value.
    Button,
    /// Text, such as a path.
    String {
        /// Default value; UCI spells the empty text `<empty>`.
        default: &'static str,
    },
}

/// One declared option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option's name, as printed.
    pub name: &'static str,
    /// Its type and range.
    pub kind: OptionKind,
}

/// A value checked against its option's declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A check option's value.
    Check(bool),
    /// A spin option's value, inside its range.
    Spin(i64),
    /// A combo option's value, spelt as declared.
    Combo(&'static str),
    /// A button was pressed.
    Button,
    /// A string option's text (`<empty>` read as the empty text).
    Text(String),
}

impl OptionSpec {
    /// Checks `value` (as sent after `value`, trimmed) against the declaration.
    pub fn check(&self, value: &str) -> Result<OptionValue, String> {
        let value = value.trim();
        let invalid = || format!("invalid value '{value}' for option {}", self.name);
        match &self.kind {
            OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Check(true)),
                "false" => Ok(OptionValue::Check(false)),
                _ => Err(invalid()),
            },
            OptionKind::Spin { min, max, .. } => {
                let n: i64 = value.parse().map_err(|_| invalid())?;
                if !(*min..=*max).contains(&n) {
                    return Err(format!("value {n} for option {} is outside {min}..{max}", self.name));
                }
                Ok(OptionValue::Spin(n))
            }
            OptionKind::Combo { choices, .. } => choices
                .iter()
                .find(|choice| choice.eq_ignore_ascii_case(value))
                .map(|&choice| OptionValue::Combo(choice))
                .ok_or_else(invalid),
            OptionKind::Button => Ok(OptionValue::Button),
            OptionKind::String { .. } if value == EMPTY_TEXT => Ok(OptionValue::Text(String::new())),
            OptionKind::String { .. } => Ok(OptionValue::Text(value.to_string())),
        }
    }

    /// The declared default, as a value.
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Check { default } => OptionValue::Check(default),
            OptionKind::Spin { default, .. } => OptionValue::Spin(default),
            OptionKind::Combo { default, .. } => OptionValue::Combo(default),
            OptionKind::Button => OptionValue::Button,
            OptionKind::String { default } if default == EMPTY_TEXT => OptionValue::Text(String::new()),
            OptionKind::String { default } => OptionValue::Text(default.to_string()),
        }
    }
}

/// How UCI writes an empty string option.
pub const EMPTY_TEXT: &str = "<empty>";

/// A searcher's setting, by the name of the option it was declared as.
pub type Setting = (&'static str, OptionValue);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_against_the_declaration() {
        let spin = OptionSpec { name: "Hash", kind: OptionKind::Spin { default: 16, min: 1, max: 64 } };
        assert_eq!(spin.check(" 32 "), Ok(OptionValue::Spin(32)));
        assert!(spin.check("0").is_err());
        assert!(spin.check("lots").is_err());
        let check = OptionSpec { name: "Ponder", kind: OptionKind::Check { default: false } };
        assert_eq!(check.check("TRUE"), Ok(OptionValue::Check(true)));
        assert!(check.check("maybe").is_err());
        let combo = OptionSpec { name: "Mode", kind: OptionKind::Combo { default: "A", choices: &["Alpha", "Beta"] } };
        assert_eq!(combo.check("beta"), Ok(OptionValue::Combo("Beta")));
        assert!(combo.check("Gamma").is_err());
        assert_eq!(combo.default_value(), OptionValue::Combo("A"));
        let text = OptionSpec { name: "Path", kind: OptionKind::String { default: EMPTY_TEXT } };
        assert_eq!(text.check(" /a b/c "), Ok(OptionValue::Text("/a b/c".to_string())));
        assert_eq!(text.check("<empty>"), Ok(OptionValue::Text(String::new())));
        assert_eq!(text.default_value(), OptionValue::Text(String::new()));
    }
}
