//! The user's configuration: where it lives, how it is read (never rewritten on load), and how a
//! single setting is saved without disturbing the rest of the file.

mod load;
mod migrate;
mod problem;
mod store;
mod theme;
mod toml_file;
pub mod trust;
mod unknown;

pub use load::{ConfigPaths, ConfigSource, Loaded, agent_dir, load, passwd_home, peek};
pub use migrate::{CURRENT_SCHEMA_VERSION, MigrationError, migrate};
pub use problem::Problem;
use problem::shown_value;
pub use store::ConfigStore;
pub use theme::{ThemeConfig, ThemeSetting, read_theme};
pub use toml_file::{SaveError, default_snapshot, reset_file, save_setting, save_theme};

use serde_json::{Map, Value};

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

/// Keymap problems of the original's JSON shown at most this many in its notice.
const SHOWN_KEYMAP_PROBLEMS: usize = 3;

/// The keymap notice of the original's JSON (its keymaps refused whole): each problem separated
/// by ` · `, the first few only and a count of the rest (the notice shares the footer with the
/// hints, so a long list must not fill the screen).
pub fn keymap_notice(problems: &[String]) -> String {
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
    format!(
        "{} Using default ask keymaps for this session. Edit the config and start pi-ask again.",
        shown.join(" · ")
    )
}

/// Why a config tree was rejected as a whole (it is not a versioned table pi-ask can read).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidConfig(pub String);

/// Builds a [`Config`] from a parsed tree (TOML or JSON, already a JSON value). Only a tree that
/// is not a versioned table is refused whole; past that a bad value costs only itself: its
/// default is used and a [`Problem`] says so, in the order the tree holds them.
pub fn config_from_tree(
    mut tree: Value,
    source: KeymapSource,
) -> Result<(Config, Vec<Problem>), InvalidConfig> {
    migrate(&mut tree).map_err(|e| InvalidConfig(e.0))?;
    let root = tree
        .as_object()
        .expect("migrate checked the root is an object");
    let mut read = Reader::default();
    read.problems.extend(unknown::unknown_keys(root));
    let mut config = Config {
        behaviour: read_behaviour(&mut read, root.get("behaviour")),
        ..Config::default()
    };

    if let Some(n) = read.table(root, "notifications") {
        let mut settings = crate::settings::Settings::defaults();
        for setting in crate::settings::Setting::in_section("notifications") {
            let spec = setting.spec();
            if let Some(on) = read.toggle(n, "notifications", spec.key, spec.default) {
                settings.set(setting, on);
            }
        }
        config.notifications.enabled = settings.notifications_enabled;
        if let Some(channels) = n.get("channels") {
            let (channels, skipped) = read_channels(channels);
            for s in skipped {
                read.bad(
                    &["notifications", "channels"],
                    format!("Skipped invalid notification channel {s}."),
                );
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
            read.problems.extend(problems.into_iter().map(|p| Problem {
                key: std::iter::once("keymaps".to_owned()).chain(p.at).collect(),
                text: p.text,
            }));
        }
        KeymapSource::LegacyJson => match keymaps_from_value(root.get("keymaps"), source) {
            Ok(keymaps) => config.keymaps = keymaps,
            Err(problems) => read.bad(&["keymaps"], keymap_notice(&problems)),
        },
    }

    if let Some(table) = read.table(root, "accessibility")
        && let Some(on) = read.toggle(table, "accessibility", "lineMode", false)
    {
        config.accessibility.line_mode = on;
    }
    if let Some(table) = read.table(root, "answer") {
        config.answer = read_answer(&mut read, table);
    }
    if let Some(files) = read.table(root, "files") {
        if let Some(exclude) = files.get("exclude") {
            match serde_json::from_value(exclude.clone()) {
                Ok(globs) => config.files.exclude = globs,
                Err(_) => read.bad(
                    &["files", "exclude"],
                    format!(
                        "files.exclude must be a list of glob strings (got {}); nothing extra is excluded.",
                        shown_value(exclude)
                    ),
                ),
            }
        }
        if let Some(max) = read.number(
            files,
            "files",
            "maxEntries",
            NumberRule::Positive,
            config.files.max_entries as u64,
        ) {
            config.files.max_entries = usize::try_from(max).unwrap_or(usize::MAX);
        }
    }
    if let Some(table) = read.table(root, "history")
        && let Some(on) = read.toggle(table, "history", "enabled", true)
    {
        config.history.enabled = on;
    }
    if let Some(table) = read.table(root, "mcp") {
        read_mcp(&mut read, table, &mut config.mcp);
    }
    let (theme, theme_problems) = theme::read_theme(root.get("theme"));
    config.theme = theme;
    read.problems.extend(theme_problems);
    Ok((config, read.problems))
}

/// What a whole number must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NumberRule {
    /// 0 or more.
    Whole,
    /// 1 or more.
    Positive,
}

/// Reads values out of the tree, noting each bad one (and the default used instead).
#[derive(Default)]
struct Reader {
    problems: Vec<Problem>,
}

impl Reader {
    fn bad(&mut self, key: &[&str], text: String) {
        self.problems.push(Problem::at(key, text));
    }

    /// The section `name` when it is a table; a section of another type is a problem and its
    /// defaults apply.
    fn table<'a>(
        &mut self,
        root: &'a Map<String, Value>,
        name: &str,
    ) -> Option<&'a Map<String, Value>> {
        let value = root.get(name)?;
        let table = value.as_object();
        if table.is_none() {
            self.bad(
                &[name],
                format!(
                    "{name} must be a table (got {}); its defaults apply.",
                    shown_value(value)
                ),
            );
        }
        table
    }

    /// `section.key` when it is there and true or false.
    fn toggle(
        &mut self,
        table: &Map<String, Value>,
        section: &str,
        key: &str,
        default: bool,
    ) -> Option<bool> {
        let value = table.get(key)?;
        let on = value.as_bool();
        if on.is_none() {
            self.bad(
                &[section, key],
                format!(
                    "{section}.{key} must be true or false (got {}); using {default}.",
                    shown_value(value)
                ),
            );
        }
        on
    }

    /// `section.key` when it is there and a whole number the rule allows.
    fn number(
        &mut self,
        table: &Map<String, Value>,
        section: &str,
        key: &str,
        rule: NumberRule,
        default: u64,
    ) -> Option<u64> {
        let value = table.get(key)?;
        let number = value
            .as_u64()
            .filter(|n| rule == NumberRule::Whole || *n > 0);
        if number.is_none() {
            let what = match rule {
                NumberRule::Whole => "a whole number",
                NumberRule::Positive => "a positive whole number",
            };
            self.bad(
                &[section, key],
                format!(
                    "{section}.{key} must be {what} (got {}); using {default}.",
                    shown_value(value)
                ),
            );
        }
        number
    }
}

/// The `behaviour` section: every setting the settings table keeps there.
fn read_behaviour(read: &mut Reader, value: Option<&Value>) -> Behaviour {
    let mut settings = crate::settings::Settings::defaults();
    let Some(value) = value else {
        return settings.behaviour;
    };
    let Some(table) = value.as_object() else {
        read.bad(
            &["behaviour"],
            format!(
                "behaviour must be a table (got {}); its defaults apply.",
                shown_value(value)
            ),
        );
        return settings.behaviour;
    };
    for setting in crate::settings::Setting::in_section("behaviour") {
        let spec = setting.spec();
        if let Some(on) = read.toggle(table, "behaviour", spec.key, spec.default) {
            settings.set(setting, on);
        }
    }
    settings.behaviour
}

/// The `mcp` section.
fn read_mcp(read: &mut Reader, table: &Map<String, Value>, mcp: &mut McpConfig) {
    if let Some(seconds) = read.number(
        table,
        "mcp",
        "timeoutSeconds",
        NumberRule::Whole,
        DEFAULT_MCP_TIMEOUT_SECONDS,
    ) {
        mcp.timeout_seconds = (seconds > 0).then_some(seconds);
    }
    if let Some(mode) = table.get("elicit") {
        match mode.as_str().and_then(ElicitMode::parse) {
            Some(parsed) => mcp.elicit = parsed,
            None => read.bad(
                &["mcp", "elicit"],
                format!(
                    "mcp.elicit must be \"never\", \"fallback\" or \"always\" (got {}); using {}.",
                    shown_value(mode),
                    mcp.elicit.name()
                ),
            ),
        }
    }
    if let Some(seconds) = read.number(
        table,
        "mcp",
        "elicitAfterSeconds",
        NumberRule::Whole,
        mcp.elicit_after_seconds,
    ) {
        mcp.elicit_after_seconds = seconds;
    }
    if let Some(bytes) = read.number(
        table,
        "mcp",
        "maxAskBytes",
        NumberRule::Positive,
        mcp.max_ask_bytes,
    ) {
        mcp.max_ask_bytes = bytes;
    }
    if let Some(calls) = read.number(
        table,
        "mcp",
        "maxWaitingCalls",
        NumberRule::Positive,
        mcp.max_waiting_calls as u64,
    ) {
        mcp.max_waiting_calls = calls.min(100_000) as usize;
    }
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

/// The `answer` section.
fn read_answer(read: &mut Reader, table: &Map<String, Value>) -> AnswerExtraction {
    let mut answer = AnswerExtraction::default();
    if let Some(command) = table.get("extractor") {
        match serde_json::from_value(command.clone()) {
            Ok(command) => answer.extractor = command,
            Err(_) => read.bad(
                &["answer", "extractor"],
                format!(
                    "answer.extractor must be a list of strings, the program and its arguments (got {}); using the built-in extractor.",
                    shown_value(command)
                ),
            ),
        }
    }
    if let Some(models) = table.get("extractionModels") {
        match serde_json::from_value(models.clone()) {
            Ok(models) => answer.extraction_models = models,
            Err(_) => read.bad(
                &["answer", "extractionModels"],
                format!(
                    "answer.extractionModels must be a list of strings (got {}); using none.",
                    shown_value(models)
                ),
            ),
        }
    }
    let default = AnswerExtraction::default();
    if let Some(n) = read.number(
        table,
        "answer",
        "extractionRetries",
        NumberRule::Whole,
        u64::from(default.extraction_retries),
    ) {
        answer.extraction_retries = n.min(3) as u8;
    }
    if let Some(ms) = read.number(
        table,
        "answer",
        "extractionTimeoutMs",
        NumberRule::Whole,
        default.extraction_timeout_ms,
    ) {
        answer.extraction_timeout_ms = ms;
    }
    answer
}
