//! The `[theme]` section: which built-in theme, and user colours for its tokens. A bad value is
//! a notice naming it; everything else in the section still applies.

use pi_ask_components::theme::{BadColor, COLOR_VALUE_HELP, Token, indexed_color, parse_color};
use ratatui::style::Color;
use serde_json::Value;

use super::Problem;

/// Which theme to use: a built-in one, or `auto` (decided from the terminal's environment).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum ThemeSetting {
    /// Dark or light, from the terminal's environment (`COLORFGBG`).
    #[default]
    Auto,
    /// pi's dark theme.
    Dark,
    /// pi's light theme.
    Light,
}

impl ThemeSetting {
    /// The names a config or `--theme` may give, for messages.
    pub const NAMES: &'static str = "auto, dark or light";

    /// The setting's name as configs spell it.
    pub fn name(self) -> &'static str {
        match self {
            ThemeSetting::Auto => "auto",
            ThemeSetting::Dark => "dark",
            ThemeSetting::Light => "light",
        }
    }

    /// The next in the settings modal's cycle: auto, dark, light, auto.
    pub fn next(self) -> ThemeSetting {
        match self {
            ThemeSetting::Auto => ThemeSetting::Dark,
            ThemeSetting::Dark => ThemeSetting::Light,
            ThemeSetting::Light => ThemeSetting::Auto,
        }
    }

    /// The setting a config calls `name`, if any.
    pub fn from_name(name: &str) -> Option<ThemeSetting> {
        match name.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(ThemeSetting::Auto),
            "dark" => Some(ThemeSetting::Dark),
            "light" => Some(ThemeSetting::Light),
            _ => None,
        }
    }
}

/// The `[theme]` section, always complete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThemeConfig {
    /// `auto`, `dark` or `light`.
    pub name: ThemeSetting,
    /// `[theme.colors]`: the user's colour per token, in file order.
    pub colors: Vec<(Token, Color)>,
    /// `theme.markdown`: render Markdown in prompts, descriptions, notes and previews (on by
    /// default); off, every text is drawn as written.
    pub markdown: bool,
}

impl Default for ThemeConfig {
    fn default() -> Self {
        ThemeConfig {
            name: ThemeSetting::default(),
            colors: Vec::new(),
            markdown: true,
        }
    }
}

/// Reads the section; returns it with a notice for each value that was left out.
pub fn read_theme(value: Option<&Value>) -> (ThemeConfig, Vec<Problem>) {
    let mut config = ThemeConfig::default();
    let mut notices = Vec::new();
    let Some(value) = value else {
        return (config, notices);
    };
    let Some(table) = value.as_object() else {
        notices.push(Problem::at(
            &["theme"],
            "theme must be a table; using the automatic theme.",
        ));
        return (config, notices);
    };
    for (key, value) in table {
        match key.as_str() {
            "name" => match value.as_str().and_then(ThemeSetting::from_name) {
                Some(name) => config.name = name,
                None => notices.push(Problem::at(
                    &["theme", "name"],
                    format!(
                        "theme.name must be {} (got {value}); using auto.",
                        ThemeSetting::NAMES
                    ),
                )),
            },
            "colors" => read_colors(value, &mut config.colors, &mut notices),
            "markdown" => match value.as_bool() {
                Some(on) => config.markdown = on,
                None => notices.push(Problem::at(
                    &["theme", "markdown"],
                    format!(
                        "theme.markdown must be true or false (got {value}); Markdown is rendered."
                    ),
                )),
            },
            // Named with the config's other unknown keys.
            _ => {}
        }
    }
    (config, notices)
}

fn read_colors(value: &Value, colors: &mut Vec<(Token, Color)>, notices: &mut Vec<Problem>) {
    let Some(table) = value.as_object() else {
        notices.push(Problem::at(
            &["theme", "colors"],
            "theme.colors must be a table of token = colour; ignored.",
        ));
        return;
    };
    for (key, value) in table {
        let Some(token) = Token::from_name(key) else {
            let known: Vec<&str> = Token::ALL.iter().map(|t| t.name()).collect();
            notices.push(Problem::at(
                &["theme", "colors", key],
                format!(
                    "Unknown theme colour token {key} ignored (tokens: {}).",
                    known.join(", ")
                ),
            ));
            continue;
        };
        let color = match value {
            Value::String(s) => parse_color(s),
            Value::Number(n) => n
                .as_i64()
                .map(indexed_color)
                .unwrap_or_else(|| Err(BadColor(format!("{n} is not a colour index 0-255")))),
            other => Err(BadColor(format!("{other} is not a colour"))),
        };
        match color {
            Ok(color) => colors.push((token, color)),
            Err(BadColor(why)) => notices.push(Problem::at(
                &["theme", "colors", key],
                format!("theme.colors.{key}: {why}; {COLOR_VALUE_HELP}. Kept the theme's colour."),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn good_values_apply_and_each_bad_one_is_named_while_the_rest_applies() {
        let (theme, notices) = read_theme(Some(&json!({
            "name": "light",
            "colors": {
                "accent": "#5f87ff",
                "muted": 244,
                "success": "bright-green",
                "text": "",
                "warning": "#zzz",
                "error": 300,
                "borderMuted": true,
                "sparkle": "red",
            },
        })));
        assert_eq!(theme.name, ThemeSetting::Light);
        assert_eq!(
            theme.colors,
            [
                (Token::Accent, Color::Rgb(0x5f, 0x87, 0xff)),
                (Token::Muted, Color::Indexed(244)),
                (Token::Success, Color::LightGreen),
                (Token::Text, Color::Reset),
            ]
        );
        let all = notices
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(notices.len(), 4, "{all}");
        for part in [
            "theme.colors.warning: \"#zzz\" is not a #rrggbb colour",
            "theme.colors.error: 300 is not a colour index 0-255",
            "theme.colors.borderMuted: true is not a colour",
            "Unknown theme colour token sparkle ignored (tokens: accent, border,",
            "Kept the theme's colour.",
        ] {
            assert!(all.contains(part), "{part:?} missing from {all}");
        }
    }

    #[test]
    fn a_bad_name_or_shape_falls_back_to_auto_with_a_notice() {
        let (theme, notices) = read_theme(Some(&json!({"name": "solarized", "extra": 1})));
        assert_eq!(theme, ThemeConfig::default());
        assert_eq!(
            notices,
            [Problem::at(
                &["theme", "name"],
                "theme.name must be auto, dark or light (got \"solarized\"); using auto."
            )]
        );
        let (theme, notices) = read_theme(Some(&json!("dark")));
        assert_eq!(theme, ThemeConfig::default());
        assert_eq!(notices.len(), 1);
        assert_eq!(read_theme(None), (ThemeConfig::default(), Vec::new()));
    }
}
