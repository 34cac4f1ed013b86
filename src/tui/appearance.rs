//! Choosing the theme and the colour depth from the command line, the environment and the
//! config. Decided from what the environment says, never by asking the terminal, so the first
//! frame is not delayed.

use pi_ask_components::Theme;
use pi_ask_components::theme::{ColorDepth, ThemeName};

use crate::stores::config::{ThemeConfig, ThemeSetting};

/// `--color`: whether to draw colours.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum ColorMode {
    /// Colours unless `NO_COLOR` is set or `TERM=dumb`.
    #[default]
    Auto,
    /// Colours even with `NO_COLOR` (the depth still follows the terminal).
    Always,
    /// No colours.
    Never,
}

/// The environment variables the choice reads (`PI_ASK_THEME` already checked).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct ThemeEnv {
    pi_ask_theme: Option<ThemeSetting>,
    colorfgbg: Option<String>,
    colorterm: Option<String>,
    wt_session: bool,
    term: Option<String>,
    no_color: bool,
}

/// What the command line and the environment ask for; with the config it gives the theme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appearance {
    theme: Option<ThemeSetting>,
    color: ColorMode,
    env: ThemeEnv,
    /// A depth fixed in code instead of the one the environment gives.
    fixed_depth: Option<ColorDepth>,
    /// The theme of the program the form is embedded in (pi's, through the embed protocol): its
    /// name and colours come first; the config's `[theme.colors]` still apply over them.
    host: Option<ThemeConfig>,
    /// Problems with what the environment asked for (the config's own are config notices).
    notices: Vec<String>,
}

impl Default for Appearance {
    /// The config's theme (`auto` meaning dark) in 24-bit colour, whatever the environment says.
    fn default() -> Self {
        Appearance::fixed(None, ColorDepth::TrueColor)
    }
}

/// Where the theme's name came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeSource {
    /// `--theme`.
    CommandLine,
    /// `PI_ASK_THEME`.
    Environment,
    /// The config's `[theme]`.
    Config,
    /// `auto` with `COLORFGBG` saying the background's colour.
    Colorfgbg,
    /// `auto` with nothing to go by.
    Fallback,
    /// The program the form is embedded in (pi) gave its theme.
    Host,
}

/// The theme in use and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChosenTheme {
    /// The colours.
    pub theme: Theme,
    /// Which theme it is.
    pub name: ThemeName,
    /// Where the choice came from.
    pub source: ThemeSource,
    /// The colour depth drawn with.
    pub depth: ColorDepth,
    /// `[theme.colors]` entries applied.
    pub custom_colors: usize,
    /// The config's `[theme] name` (what the settings' Theme row shows and cycles).
    pub configured: ThemeSetting,
}

impl ChosenTheme {
    /// One line for the settings modal: `light (COLORFGBG) · 256 colours`.
    pub fn label(&self) -> String {
        let source = match self.source {
            ThemeSource::CommandLine => "--theme",
            ThemeSource::Environment => "PI_ASK_THEME",
            ThemeSource::Config => "config",
            ThemeSource::Colorfgbg => "auto, COLORFGBG",
            ThemeSource::Fallback => "auto",
            ThemeSource::Host => "host",
        };
        let mut label = format!(
            "{} ({source}) · {}",
            self.name.name(),
            self.depth.describe()
        );
        match self.custom_colors {
            0 => {}
            1 => label.push_str(" · 1 custom colour"),
            n => label.push_str(&format!(" · {n} custom colours")),
        }
        label
    }
}

/// What the view needs of the chosen theme: its colours, and the line the settings modal shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Look {
    /// The colours.
    pub theme: Theme,
    /// The theme's name and where it came from, for the settings and `doctor`.
    pub label: String,
    /// The config's `[theme] name`.
    pub configured: ThemeSetting,
}

impl From<&ChosenTheme> for Look {
    fn from(chosen: &ChosenTheme) -> Look {
        Look {
            theme: chosen.theme,
            label: chosen.label(),
            configured: chosen.configured,
        }
    }
}

impl Default for Look {
    /// [`Appearance::default`] with the default config: pi's dark theme in 24-bit colour.
    fn default() -> Self {
        Look::from(&Appearance::default().choose(&ThemeConfig::default()))
    }
}

impl Appearance {
    /// The command line's choices, with the process environment.
    pub fn from_env(theme: Option<ThemeSetting>, color: ColorMode) -> Appearance {
        Appearance::with_env(theme, color, |k| std::env::var(k).ok())
    }

    /// The command line's choices, with the environment given (for tests).
    pub fn with_env(
        theme: Option<ThemeSetting>,
        color: ColorMode,
        env: impl Fn(&str) -> Option<String>,
    ) -> Appearance {
        let var = |k: &str| env(k).filter(|v| !v.is_empty());
        let mut notices = Vec::new();
        let pi_ask_theme = var("PI_ASK_THEME").and_then(|v| {
            let setting = ThemeSetting::from_name(&v);
            if setting.is_none() {
                notices.push(format!(
                    "PI_ASK_THEME={v:?} is not {}; ignored.",
                    ThemeSetting::NAMES
                ));
            }
            setting
        });
        Appearance {
            theme,
            color,
            env: ThemeEnv {
                pi_ask_theme,
                colorfgbg: var("COLORFGBG"),
                colorterm: var("COLORTERM"),
                wt_session: var("WT_SESSION").is_some(),
                term: var("TERM"),
                no_color: var("NO_COLOR").is_some(),
            },
            fixed_depth: None,
            host: None,
            notices,
        }
    }

    /// A theme and depth fixed in code, whatever the environment says (`None`: the config
    /// decides, `auto` meaning dark). For tests and programs embedding the form.
    pub fn fixed(theme: Option<ThemeName>, depth: ColorDepth) -> Appearance {
        let theme = theme.map(|n| match n {
            ThemeName::Dark => ThemeSetting::Dark,
            ThemeName::Light => ThemeSetting::Light,
        });
        Appearance {
            theme,
            color: ColorMode::Auto,
            env: ThemeEnv::default(),
            fixed_depth: Some(depth),
            host: None,
            notices: Vec::new(),
        }
    }

    /// Wears the theme of the program the form is embedded in: its name and colours, with the
    /// config's `[theme.colors]` over them (a colour the person chose for pi-ask stays theirs).
    pub fn with_host_theme(mut self, theme: ThemeConfig) -> Appearance {
        self.host = Some(theme);
        self
    }

    /// Problems with what the environment asked for, to show once at start.
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    /// The theme for this config.
    pub fn choose(&self, config: &ThemeConfig) -> ChosenTheme {
        if let Some(host) = &self.host {
            let name = match host.name {
                ThemeSetting::Light => ThemeName::Light,
                ThemeSetting::Dark | ThemeSetting::Auto => ThemeName::Dark,
            };
            let colors: Vec<_> = host.colors.iter().chain(&config.colors).copied().collect();
            let depth = self.fixed_depth.unwrap_or(ColorDepth::TrueColor);
            return ChosenTheme {
                theme: Theme {
                    render_markdown: config.markdown,
                    ..Theme::new(name, &colors, depth)
                },
                name,
                source: ThemeSource::Host,
                depth,
                custom_colors: config.colors.len(),
                configured: config.name,
            };
        }
        let env = &self.env;
        let (setting, source) = match (self.theme, env.pi_ask_theme) {
            (Some(t), _) => (t, ThemeSource::CommandLine),
            (None, Some(t)) => (t, ThemeSource::Environment),
            (None, None) => (config.name, ThemeSource::Config),
        };
        let (name, source) = match setting {
            ThemeSetting::Dark => (ThemeName::Dark, source),
            ThemeSetting::Light => (ThemeName::Light, source),
            ThemeSetting::Auto => match env.colorfgbg.as_deref().and_then(background_is_light) {
                Some(true) => (ThemeName::Light, ThemeSource::Colorfgbg),
                Some(false) => (ThemeName::Dark, ThemeSource::Colorfgbg),
                None => (ThemeName::Dark, ThemeSource::Fallback),
            },
        };
        let depth = self
            .fixed_depth
            .unwrap_or_else(|| color_depth(self.color, env));
        ChosenTheme {
            theme: Theme {
                render_markdown: config.markdown,
                ..Theme::new(name, &config.colors, depth)
            },
            name,
            source,
            depth,
            custom_colors: config.colors.len(),
            configured: config.name,
        }
    }
}

/// Whether `COLORFGBG` (`fg;bg` or `fg;default;bg`, set by rxvt, Konsole, iTerm2 and others)
/// names a light background: ANSI 7 or 9–15, as Vim reads it. `None` when it says nothing.
pub fn background_is_light(colorfgbg: &str) -> Option<bool> {
    let bg: u8 = colorfgbg.rsplit(';').next()?.trim().parse().ok()?;
    match bg {
        0..=6 | 8 => Some(false),
        7 | 9..=15 => Some(true),
        _ => None,
    }
}

/// The colour depth: none for `--color never`, `NO_COLOR` or `TERM=dumb` (unless `--color
/// always`); 24-bit when `COLORTERM` says so (or in Windows Terminal, or `TERM=*-direct`); 16
/// for terminals known to have 16 or 8; else 256, as pi does.
fn color_depth(mode: ColorMode, env: &ThemeEnv) -> ColorDepth {
    let term = env.term.as_deref().unwrap_or("");
    match mode {
        ColorMode::Never => return ColorDepth::None,
        ColorMode::Auto if env.no_color || term == "dumb" => return ColorDepth::None,
        _ => {}
    }
    let colorterm = env.colorterm.as_deref().unwrap_or("").to_ascii_lowercase();
    if colorterm == "truecolor"
        || colorterm == "24bit"
        || env.wt_session
        || term.ends_with("-direct")
    {
        return ColorDepth::TrueColor;
    }
    let sixteen = [
        "linux",
        "ansi",
        "cons25",
        "xterm-color",
        "rxvt",
        "dumb",
        "vt100",
        "vt220",
    ];
    if term.contains("256color") {
        ColorDepth::Ansi256
    } else if sixteen.contains(&term) || term.ends_with("-16color") || term.ends_with("-8color") {
        ColorDepth::Ansi16
    } else {
        ColorDepth::Ansi256
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Color;

    fn chosen(theme: Option<ThemeSetting>, color: ColorMode, vars: &[(&str, &str)]) -> ChosenTheme {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        Appearance::with_env(theme, color, |k| {
            vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
        })
        .choose(&ThemeConfig::default())
    }

    #[test]
    fn command_line_beats_environment_beats_config_beats_auto() {
        let config = ThemeConfig {
            name: ThemeSetting::Light,
            ..ThemeConfig::default()
        };
        let env = |v: &'static str| move |k: &str| (k == "PI_ASK_THEME").then(|| v.to_owned());
        let a = Appearance::with_env(Some(ThemeSetting::Dark), ColorMode::Auto, env("light"));
        assert_eq!(a.choose(&config).name, ThemeName::Dark);
        assert_eq!(a.choose(&config).source, ThemeSource::CommandLine);
        let a = Appearance::with_env(None, ColorMode::Auto, env("dark"));
        assert_eq!(a.choose(&config).name, ThemeName::Dark);
        assert_eq!(a.choose(&config).source, ThemeSource::Environment);
        let a = Appearance::with_env(None, ColorMode::Auto, |_| None);
        assert_eq!(a.choose(&config).name, ThemeName::Light);
        assert_eq!(a.choose(&config).source, ThemeSource::Config);
        // A bad PI_ASK_THEME is named and the config decides.
        let a = Appearance::with_env(None, ColorMode::Auto, env("sepia"));
        let c = a.choose(&config);
        assert_eq!((c.name, c.source), (ThemeName::Light, ThemeSource::Config));
        assert_eq!(
            a.notices(),
            ["PI_ASK_THEME=\"sepia\" is not auto, dark or light; ignored."]
        );
    }

    #[test]
    fn auto_reads_colorfgbg_and_otherwise_picks_dark() {
        let light = chosen(None, ColorMode::Auto, &[("COLORFGBG", "0;15")]);
        assert_eq!(
            (light.name, light.source),
            (ThemeName::Light, ThemeSource::Colorfgbg)
        );
        let dark = chosen(None, ColorMode::Auto, &[("COLORFGBG", "15;default;0")]);
        assert_eq!(
            (dark.name, dark.source),
            (ThemeName::Dark, ThemeSource::Colorfgbg)
        );
        let none = chosen(None, ColorMode::Auto, &[("COLORFGBG", "default;default")]);
        assert_eq!(
            (none.name, none.source),
            (ThemeName::Dark, ThemeSource::Fallback)
        );
        assert_eq!(background_is_light("12;7"), Some(true));
        assert_eq!(background_is_light("7;8"), Some(false));
        assert_eq!(background_is_light(""), None);
    }

    #[test]
    fn depth_follows_colorterm_term_no_color_and_the_color_flag() {
        let depth = |color, vars: &[(&str, &str)]| chosen(None, color, vars).depth;
        use ColorMode::*;
        assert_eq!(
            depth(Auto, &[("COLORTERM", "truecolor")]),
            ColorDepth::TrueColor
        );
        assert_eq!(
            depth(Auto, &[("COLORTERM", "24bit")]),
            ColorDepth::TrueColor
        );
        assert_eq!(depth(Auto, &[("WT_SESSION", "x")]), ColorDepth::TrueColor);
        assert_eq!(
            depth(Auto, &[("TERM", "xterm-256color")]),
            ColorDepth::Ansi256
        );
        assert_eq!(depth(Auto, &[("TERM", "screen")]), ColorDepth::Ansi256);
        assert_eq!(depth(Auto, &[]), ColorDepth::Ansi256);
        assert_eq!(depth(Auto, &[("TERM", "linux")]), ColorDepth::Ansi16);
        assert_eq!(
            depth(Auto, &[("TERM", "xterm-16color")]),
            ColorDepth::Ansi16
        );
        assert_eq!(depth(Auto, &[("TERM", "dumb")]), ColorDepth::None);
        assert_eq!(depth(Always, &[("TERM", "dumb")]), ColorDepth::Ansi16);
        let no_color = [("NO_COLOR", "1"), ("COLORTERM", "truecolor")];
        assert_eq!(depth(Auto, &no_color), ColorDepth::None);
        assert_eq!(depth(Always, &no_color), ColorDepth::TrueColor);
        assert_eq!(
            depth(Never, &[("COLORTERM", "truecolor")]),
            ColorDepth::None
        );
        // An empty NO_COLOR does not count, as no-color.org says.
        assert_eq!(
            depth(Auto, &[("NO_COLOR", ""), ("COLORTERM", "truecolor")]),
            ColorDepth::TrueColor
        );
    }

    #[test]
    fn custom_colours_are_counted_and_reduced_with_the_theme() {
        let config = ThemeConfig {
            name: ThemeSetting::Dark,
            colors: vec![(
                pi_ask_components::theme::Token::Accent,
                Color::Rgb(0xff, 0, 0),
            )],
            ..ThemeConfig::default()
        };
        let c = Appearance::fixed(None, ColorDepth::Ansi256).choose(&config);
        assert_eq!(c.theme.accent, Color::Indexed(196));
        assert_eq!(c.label(), "dark (config) · 256 colours · 1 custom colour");
        let d = Appearance::default().choose(&ThemeConfig::default());
        assert_eq!(d.theme, Theme::default());
        assert_eq!(d.label(), "dark (auto) · 24-bit colour");
    }
}
