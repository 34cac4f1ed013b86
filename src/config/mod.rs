//! The user's configuration: where it lives, how it is read (never rewritten on load), and how a
//! single setting is saved without disturbing the rest of the file.

mod load;
mod migrate;
mod store;
mod theme;
mod toml_file;
mod unknown;

pub use load::{ConfigPaths, ConfigSource, Loaded, agent_dir, load, passwd_home, peek};
pub use migrate::{CURRENT_SCHEMA_VERSION, MigrationError, migrate};
pub use store::ConfigStore;
pub use theme::{ThemeConfig, ThemeSetting, read_theme};
pub use toml_file::{SaveError, default_snapshot, reset_file, save_setting};

use serde_json::Value;

use crate::keymap::{KeymapSource, Keymaps, keymaps_applying_valid, keymaps_from_value};
use crate::settings::{Behaviour, Settings};

/// A notification channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Channel {
    /// The terminal bell (`BEL`).
    Bell,
    /// iTerm2-style `OSC 9` desktop notification.
    Osc9,
    /// urxvt/kitty-style `OSC 777;notify`.
    Osc777,
    /// A shell command run with `ASK_NOTIFY_EVENT`, `ASK_NOTIFY_TITLE` and `ASK_NOTIFY_MESSAGE` set.
    Command(String),
}

/// The `notifications` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notifications {
    /// Send the "question waiting" notification at all.
    pub enabled: bool,
    /// Where it goes (bell, OSC 9, OSC 777, a command), in order.
    pub channels: Vec<Channel>,
}

impl Default for Notifications {
    fn default() -> Self {
        Notifications {
            enabled: true,
            channels: vec![Channel::Bell],
        }
    }
}

/// The `accessibility` section.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Accessibility {
    /// Line mode for every form (`--accessible` for one run; `TERM=dumb` turns it on too).
    pub line_mode: bool,
}

/// The `answer` section: how `pi-ask answer` extracts questions from prose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerExtraction {
    /// The command that runs a model (program and arguments); empty: the built-in extractor.
    pub extractor: Vec<String>,
    /// The original's model names, kept for compatibility (pi-ask runs `extractor` instead).
    pub extraction_models: Vec<String>,
    /// How many times a model's bad answer is sent back with what was wrong.
    pub extraction_retries: u8,
    /// How long one run of the model command may take.
    pub extraction_timeout_ms: u64,
}

impl Default for AnswerExtraction {
    fn default() -> Self {
        AnswerExtraction {
            extractor: Vec::new(),
            extraction_models: Vec::new(),
            extraction_retries: 1,
            extraction_timeout_ms: 30_000,
        }
    }
}

/// The `history` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryConfig {
    /// Record asks in the history (`--no-history` turns it off for one run).
    pub enabled: bool,
}

impl Default for HistoryConfig {
    fn default() -> Self {
        HistoryConfig { enabled: true }
    }
}

/// How long an MCP call waits for an answer by default: long enough for a person called away,
/// short enough that an agent never waits for good on an ask nobody can see.
pub const DEFAULT_MCP_TIMEOUT_SECONDS: u64 = 1800;

/// Calls `pi-ask mcp` keeps waiting at once by default; the next one gets an error result saying so.
pub const DEFAULT_MAX_WAITING_CALLS: usize = 64;

/// The most bytes a queued ask (or an answer) may have by default: far above any real form,
/// far below what would hurt (a planted 1 GB file is refused unread).
pub const DEFAULT_MAX_ASK_BYTES: u64 = 4 * 1024 * 1024;

/// When `pi-ask mcp` asks through the host's own form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum ElicitMode {
    /// Never: asks wait for `pi-ask inbox` only.
    Never,
    /// When no inbox has taken the ask within the grace period.
    #[default]
    Fallback,
    /// At once (an inbox may still take it first).
    Always,
}

impl ElicitMode {
    /// The mode's name in the config and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ElicitMode::Never => "never",
            ElicitMode::Fallback => "fallback",
            ElicitMode::Always => "always",
        }
    }

    /// The mode a config value names.
    pub fn parse(text: &str) -> Option<ElicitMode> {
        match text {
            "never" => Some(ElicitMode::Never),
            "fallback" => Some(ElicitMode::Fallback),
            "always" => Some(ElicitMode::Always),
            _ => None,
        }
    }
}

/// Seconds an ask waits for an inbox before the host's own form is used, by default.
pub const DEFAULT_ELICIT_AFTER_SECONDS: u64 = 5;

/// The `mcp` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpConfig {
    /// How long a call waits for the inbox before it is withdrawn (`None`: no limit).
    pub timeout_seconds: Option<u64>,
    /// The most bytes a call's payload (and a queued ask) may have.
    pub max_ask_bytes: u64,
    /// The most calls waiting for the inbox at once.
    pub max_waiting_calls: usize,
    /// When to ask through the host's own form (MCP elicitation).
    pub elicit: ElicitMode,
    /// Seconds an ask waits for an inbox before the host's form is used (`fallback`).
    pub elicit_after_seconds: u64,
}

impl Default for McpConfig {
    fn default() -> Self {
        McpConfig {
            timeout_seconds: Some(DEFAULT_MCP_TIMEOUT_SECONDS),
            max_ask_bytes: DEFAULT_MAX_ASK_BYTES,
            max_waiting_calls: DEFAULT_MAX_WAITING_CALLS,
            elicit: ElicitMode::Fallback,
            elicit_after_seconds: DEFAULT_ELICIT_AFTER_SECONDS,
        }
    }
}

/// The `files` section: extra exclude globs for `@` file suggestions, and the index's cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Files {
    /// Glob patterns of paths `@` never suggests.
    pub exclude: Vec<String>,
    /// Most entries the `@` index holds (`maxEntries`); past it the popup says the index is truncated.
    pub max_entries: usize,
}

impl Default for Files {
    fn default() -> Self {
        Files {
            exclude: Vec::new(),
            max_entries: crate::files::DEFAULT_MAX_ENTRIES,
        }
    }
}

/// The whole configuration, always complete (defaults fill what a file leaves out).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    /// The `[behaviour]` toggles.
    pub behaviour: Behaviour,
    /// The `[notifications]` section.
    pub notifications: Notifications,
    /// The `[accessibility]` section.
    pub accessibility: Accessibility,
    /// The key bindings (`[keymaps]`).
    pub keymaps: Keymaps,
    /// The `[answer]` section.
    pub answer: AnswerExtraction,
    /// The `[files]` section (`@` suggestions).
    pub files: Files,
    /// The `[theme]` section.
    pub theme: ThemeConfig,
    /// The `[history]` section.
    pub history: HistoryConfig,
    /// The `[mcp]` section.
    pub mcp: McpConfig,
}

impl Config {
    /// The toggles a flow reads.
    pub fn settings(&self) -> Settings {
        Settings {
            behaviour: self.behaviour,
            notifications_enabled: self.notifications.enabled,
        }
    }

    /// Applies a settings-modal toggle.
    pub fn set_settings(&mut self, settings: Settings) {
        self.behaviour = settings.behaviour;
        self.notifications.enabled = settings.notifications_enabled;
    }
}

/// Keymap problems shown at most this many at a time; the rest are counted.
const SHOWN_KEYMAP_PROBLEMS: usize = 3;

/// The notice for keymap entries left out of a TOML config (the rest applied).
pub fn keymap_partial_notice(problems: &[String]) -> String {
    format!(
        "{} The other keymaps apply. Edit the config to fix these.",
        shown_problems(problems)
    )
}

/// The first problems, joined, and how many more there are.
fn shown_problems(problems: &[String]) -> String {
    let mut shown: Vec<&str> = problems
        .iter()
        .take(SHOWN_KEYMAP_PROBLEMS)
        .map(String::as_str)
        .collect();
    let more = problems.len().saturating_sub(SHOWN_KEYMAP_PROBLEMS);
    let more_text = format!("… and {more} more keymap problems.");
    if more > 0 {
        shown.push(&more_text);
    }
    shown.join(" · ")
}

/// The keymap notice of the original's JSON (its keymaps refused whole): each problem separated
/// by ` · `, the first few only and a count of the rest (the notice shares the footer with the
/// hints, so a long list must not fill the screen).
pub fn keymap_notice(problems: &[String]) -> String {
    format!(
        "{} Using default ask keymaps for this session. Edit the config and start pi-ask again.",
        shown_problems(problems)
    )
}

/// Why a config tree was rejected as a whole.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidConfig(pub String);

/// Builds a [`Config`] from a parsed tree (TOML or JSON, already a JSON value).
/// Returns the config and notices about parts that were replaced by defaults.
pub fn config_from_tree(
    mut tree: Value,
    source: KeymapSource,
) -> Result<(Config, Vec<String>), InvalidConfig> {
    migrate(&mut tree).map_err(|e| InvalidConfig(e.0))?;
    let root = tree
        .as_object()
        .expect("migrate checked the root is an object");
    let mut notices: Vec<String> = unknown::unknown_keys_notice(root).into_iter().collect();
    let mut config = Config {
        behaviour: read_behaviour(root.get("behaviour"))?,
        ..Config::default()
    };

    if let Some(n) = root.get("notifications") {
        let n = n
            .as_object()
            .ok_or_else(|| InvalidConfig("notifications must be a table".into()))?;
        let mut settings = crate::settings::Settings::defaults();
        for setting in crate::settings::Setting::in_section("notifications") {
            let key = setting.spec().key;
            if let Some(v) = n.get(key) {
                let on = v.as_bool().ok_or_else(|| {
                    InvalidConfig(format!("notifications.{key} must be true or false"))
                })?;
                settings.set(setting, on);
            }
        }
        config.notifications.enabled = settings.notifications_enabled;
        if let Some(channels) = n.get("channels") {
            let (channels, skipped) = read_channels(channels);
            for s in skipped {
                notices.push(format!("Skipped invalid notification channel {s}."));
            }
            config.notifications.channels = if channels.is_empty() {
                vec![Channel::Bell]
            } else {
                channels
            };
        }
    }

    // pi-ask's TOML: a bad entry costs only itself. The original's JSON keeps the original's
    // rule (any problem: the default keymaps, with its notice).
    match source {
        KeymapSource::Toml => {
            let (keymaps, problems) = keymaps_applying_valid(root.get("keymaps"), source);
            config.keymaps = keymaps;
            if !problems.is_empty() {
                notices.push(keymap_partial_notice(&problems));
            }
        }
        KeymapSource::LegacyJson => match keymaps_from_value(root.get("keymaps"), source) {
            Ok(keymaps) => config.keymaps = keymaps,
            Err(problems) => notices.push(keymap_notice(&problems)),
        },
    }

    if let Some(accessibility) = root.get("accessibility") {
        let table = accessibility
            .as_object()
            .ok_or_else(|| InvalidConfig("accessibility must be a table".into()))?;
        if let Some(on) = table.get("lineMode") {
            config.accessibility.line_mode = on.as_bool().ok_or_else(|| {
                InvalidConfig("accessibility.lineMode must be true or false".into())
            })?;
        }
    }

    if let Some(answer) = root.get("answer") {
        config.answer = read_answer(answer)?;
    }
    if let Some(files) = root.get("files") {
        let exclude = files
            .get("exclude")
            .cloned()
            .unwrap_or(Value::Array(Vec::new()));
        config.files.exclude = serde_json::from_value(exclude)
            .map_err(|_| InvalidConfig("files.exclude must be a list of glob strings".into()))?;
        if let Some(max) = files.get("maxEntries") {
            config.files.max_entries = max
                .as_u64()
                .filter(|n| *n > 0)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| {
                    InvalidConfig("files.maxEntries must be a positive whole number".into())
                })?;
        }
    }
    if let Some(history) = root.get("history") {
        let table = history
            .as_object()
            .ok_or_else(|| InvalidConfig("history must be a table".into()))?;
        if let Some(enabled) = table.get("enabled") {
            config.history.enabled = enabled
                .as_bool()
                .ok_or_else(|| InvalidConfig("history.enabled must be true or false".into()))?;
        }
    }
    if let Some(mcp) = root.get("mcp") {
        let table = mcp
            .as_object()
            .ok_or_else(|| InvalidConfig("mcp must be a table".into()))?;
        if let Some(timeout) = table.get("timeoutSeconds") {
            let seconds = timeout.as_u64().ok_or_else(|| {
                InvalidConfig("mcp.timeoutSeconds must be a whole number (0: no limit)".into())
            })?;
            config.mcp.timeout_seconds = (seconds > 0).then_some(seconds);
        }
        if let Some(mode) = table.get("elicit") {
            config.mcp.elicit = mode.as_str().and_then(ElicitMode::parse).ok_or_else(|| {
                InvalidConfig("mcp.elicit must be \"never\", \"fallback\" or \"always\"".into())
            })?;
        }
        if let Some(seconds) = table.get("elicitAfterSeconds") {
            config.mcp.elicit_after_seconds = seconds.as_u64().ok_or_else(|| {
                InvalidConfig("mcp.elicitAfterSeconds must be a whole number".into())
            })?;
        }
        if let Some(bytes) = table.get("maxAskBytes") {
            config.mcp.max_ask_bytes = bytes.as_u64().filter(|b| *b > 0).ok_or_else(|| {
                InvalidConfig("mcp.maxAskBytes must be a positive whole number".into())
            })?;
        }
        if let Some(calls) = table.get("maxWaitingCalls") {
            config.mcp.max_waiting_calls = calls
                .as_u64()
                .filter(|c| *c > 0)
                .map(|c| c.min(100_000) as usize)
                .ok_or_else(|| {
                    InvalidConfig("mcp.maxWaitingCalls must be a positive whole number".into())
                })?;
        }
    }
    let (theme, theme_notices) = theme::read_theme(root.get("theme"));
    config.theme = theme;
    notices.extend(theme_notices);
    Ok((config, notices))
}

/// The `behaviour` section: every setting the settings table keeps there.
fn read_behaviour(value: Option<&Value>) -> Result<Behaviour, InvalidConfig> {
    let mut settings = crate::settings::Settings::defaults();
    let Some(value) = value else {
        return Ok(settings.behaviour);
    };
    let table = value
        .as_object()
        .ok_or_else(|| InvalidConfig("behaviour must be a table".into()))?;
    for setting in crate::settings::Setting::in_section("behaviour") {
        let key = setting.spec().key;
        if let Some(v) = table.get(key) {
            let on = v
                .as_bool()
                .ok_or_else(|| InvalidConfig(format!("behaviour.{key} must be true or false")))?;
            settings.set(setting, on);
        }
    }
    Ok(settings.behaviour)
}

/// Valid channels, and a description of each skipped one.
fn read_channels(value: &Value) -> (Vec<Channel>, Vec<String>) {
    let Some(items) = value.as_array() else {
        return (Vec::new(), vec![value.to_string()]);
    };
    let mut channels = Vec::new();
    let mut skipped = Vec::new();
    for item in items {
        let channel = match item {
            Value::String(s) if s == "bell" => Some(Channel::Bell),
            Value::String(s) if s == "osc9" => Some(Channel::Osc9),
            Value::String(s) if s == "osc777" => Some(Channel::Osc777),
            Value::Object(o) if o.get("type").and_then(Value::as_str) == Some("command") => o
                .get("command")
                .and_then(Value::as_str)
                .filter(|c| !c.trim().is_empty())
                .map(|c| Channel::Command(c.to_owned())),
            _ => None,
        };
        match channel {
            Some(c) => channels.push(c),
            None => skipped.push(item.to_string()),
        }
    }
    (channels, skipped)
}

fn read_answer(value: &Value) -> Result<AnswerExtraction, InvalidConfig> {
    let mut answer = AnswerExtraction::default();
    let table = value
        .as_object()
        .ok_or_else(|| InvalidConfig("answer must be a table".into()))?;
    if let Some(command) = table.get("extractor") {
        answer.extractor = serde_json::from_value(command.clone()).map_err(|_| {
            InvalidConfig(
                "answer.extractor must be a list of strings (the program and its arguments)".into(),
            )
        })?;
    }
    if let Some(models) = table.get("extractionModels") {
        answer.extraction_models = serde_json::from_value(models.clone()).map_err(|_| {
            InvalidConfig("answer.extractionModels must be a list of strings".into())
        })?;
    }
    if let Some(retries) = table.get("extractionRetries") {
        let n = retries.as_u64().ok_or_else(|| {
            InvalidConfig("answer.extractionRetries must be a whole number".into())
        })?;
        answer.extraction_retries = n.min(3) as u8;
    }
    if let Some(timeout) = table.get("extractionTimeoutMs") {
        answer.extraction_timeout_ms = timeout.as_u64().ok_or_else(|| {
            InvalidConfig("answer.extractionTimeoutMs must be a whole number".into())
        })?;
    }
    Ok(answer)
}
