//! Writing the TOML file: the commented default snapshot, single-value saves that keep the user's
//! comments, order and layout (toml_edit), and atomic replacement (temp file + rename).

use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, Item, Table, value};

use super::{Channel, Config, ThemeSetting, migrate::CURRENT_SCHEMA_VERSION};
use crate::keymap::Context;
use crate::settings::{Setting, Settings};

/// The commented default config file, with the given config's values.
pub fn default_snapshot(config: &Config) -> String {
    let channels: Vec<String> = config
        .notifications
        .channels
        .iter()
        .map(|c| match c {
            Channel::Bell => "\"bell\"".to_owned(),
            Channel::Osc9 => "\"osc9\"".to_owned(),
            Channel::Osc777 => "\"osc777\"".to_owned(),
            Channel::Command(cmd) => {
                format!("{{ type = \"command\", command = {} }}", toml_string(cmd))
            }
        })
        .collect();
    // The toggles come from the settings table: each with its comment and current value.
    let settings = config.settings();
    let section = |name: &str| -> String {
        Setting::in_section(name)
            .map(|s| {
                format!(
                    "# {}\n{} = {}\n",
                    s.spec().comment,
                    s.spec().key,
                    settings.get(s)
                )
            })
            .collect()
    };
    let behaviour = format!("[behaviour]\n{}", section("behaviour"));
    let notifications = section("notifications");
    let mut out = format!(
        r##"# pi-ask configuration.
# Settings toggled in the settings modal (? in a form, or `pi-ask settings`) are saved here
# without touching your comments or layout. Documentation: docs/configuration.md.
schemaVersion = {CURRENT_SCHEMA_VERSION}

{behaviour}
[notifications]
{notifications}# In order: "bell", "osc9", "osc777", or {{ type = "command", command = "notify-send \"$ASK_NOTIFY_TITLE\" \"$ASK_NOTIFY_MESSAGE\"" }}.
channels = [{}]

[files]
# Extra glob patterns left out of `@` file suggestions (.gitignore rules already apply).
exclude = []
# Most files and folders the `@` index holds (it walks at the first `@`); past it the popup says so.
maxEntries = {}

[theme]
# "auto" (light when COLORFGBG says the background is light, else dark), "dark" or "light".
# --theme and PI_ASK_THEME override it; NO_COLOR=1 or --color never draw without colours.
name = "{}"
# Render Markdown in prompts, descriptions, notes and previews (false: draw every text as written).
markdown = {}

[theme.colors]
# Your colour for any token, over the theme's: accent, border, borderAccent, borderMuted,
# success, error, warning, muted, dim, text, selectedBg, and the Markdown ones (mdHeading, mdLink,
# mdLinkUrl, mdCode, mdCodeBlock, mdCodeBlockBorder, mdQuote, mdQuoteBorder, mdHr, mdListBullet,
# toolDiffAdded, toolDiffRemoved, toolDiffContext). A value is "#rrggbb", a 256-colour
# index (0-255), an ANSI colour name ("cyan", "bright-blue") or "" for the terminal's default.
# accent = "#5f87ff"

[history]
# Record every form in the history (`pi-ask history`, `replay`, `resume`); --no-history for one run.
enabled = {}

[accessibility]
# Line mode for every form: the questions as plain numbered lines, answered by typing a line
# (screen readers, dumb terminals). --accessible for one run; TERM=dumb turns it on too.
lineMode = {}

[mcp]
# `pi-ask mcp`: seconds a call waits for an answer before its ask is withdrawn and the call gets
# the questions back to ask later; 0: no limit.
timeoutSeconds = {}
# The most bytes a call's questions may have, and the most calls waiting at once; past either,
# a call gets an error result that names the limit.
maxAskBytes = {}
maxWaitingCalls = {}
# When no inbox has taken an ask within elicitAfterSeconds, ask in the MCP host's own form, if
# the host offers one: "fallback"; "always" at once; "never".
elicit = "{}"
elicitAfterSeconds = {}

[answer]
# `pi-ask answer`: the command that runs a model, given the extraction request on its standard
# input, e.g. ["llm", "-m", "gpt-4o-mini"] or ["claude", "-p"]; [] uses the built-in extractor.
extractor = [{}]
# The original pi-ask's model names, kept for compatibility (pi-ask runs `extractor`).
extractionModels = []
# Retries after an invalid extraction (0-3), and how long one attempt may take.
extractionRetries = {}
extractionTimeoutMs = {}

# Keymaps: an action listed here replaces that action's default keys; [] unbinds it; actions not
# listed keep their defaults. Key ids look like "ctrl+k", "shift+tab", "pageDown", "?".
# The defaults are shown commented out. Digits 1-9 are reserved. See docs/keymaps.md.
"##,
        channels.join(", "),
        config.files.max_entries,
        config.theme.name.name(),
        config.theme.markdown,
        config.history.enabled,
        config.accessibility.line_mode,
        config.mcp.timeout_seconds.unwrap_or(0),
        config.mcp.max_ask_bytes,
        config.mcp.max_waiting_calls,
        config.mcp.elicit.name(),
        config.mcp.elicit_after_seconds,
        config
            .answer
            .extractor
            .iter()
            .map(|a| toml_string(a))
            .collect::<Vec<_>>()
            .join(", "),
        config.answer.extraction_retries,
        config.answer.extraction_timeout_ms,
    );
    for context in Context::ALL {
        out.push_str(&format!("\n# [keymaps.{}]\n", context.name()));
        for action in context.actions() {
            let keys: Vec<String> = action
                .default_keys()
                .iter()
                .map(|k| toml_string(k))
                .collect();
            out.push_str(&format!("# {} = [{}]\n", action.name(), keys.join(", ")));
        }
    }
    out
}

fn toml_string(s: &str) -> String {
    value(s).to_string().trim().to_owned()
}

/// Writes the default snapshot where no file exists (creating the folder). A file that appeared
/// at the name meanwhile (another pi-ask, an editor) is someone's and stays as it is.
pub(crate) fn write_snapshot(path: &Path, config: &Config) -> std::io::Result<()> {
    if let Some((folder, owner)) = crate::ownership::users_folder_under_root(path) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            crate::ownership::root_creates_nothing(&folder, owner),
        ));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    match crate::atomic::create(path, default_snapshot(config).as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        done => done,
    }
}

/// Why a setting could not be saved (or the file reset). Each message tells the person what to do
/// by hand; the session shows it in the settings modal and puts the toggle back.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The settings come from the original's JSON config, which pi-ask never writes.
    #[error(
        "Settings come from the original pi-ask JSON config at {}, which pi-ask never writes. Edit it manually, or create {} to let pi-ask save settings.",
        .legacy.display(),
        .toml.display()
    )]
    LegacyJson {
        /// The JSON config in use.
        legacy: PathBuf,
        /// Where pi-ask's own TOML config would be.
        toml: PathBuf,
    },
    /// There is no home folder to save into.
    #[error("{}", super::load::NO_HOME_NOTICE)]
    NoHome,
    /// The config file could not be read as a config, so it is left untouched.
    #[error(
        "Unable to save ask config at {}: the file could not be read as a config, so pi-ask leaves it untouched. Fix it manually and start pi-ask again.",
        .0.display()
    )]
    Unreadable(PathBuf),
    /// pi-ask runs as root and the config is in another user's folder.
    #[error("Unable to save ask config: {}.", crate::ownership::root_creates_nothing(.folder, *.owner))]
    RootInUsersFolder {
        /// The user's folder.
        folder: PathBuf,
        /// Its owner.
        owner: u32,
    },
    /// Another process holds the config's lock (it may be another user who can read it).
    #[error(
        "Unable to save ask config at {}: another process holds its lock. Try again, or look for a process that keeps it open.",
        .0.display()
    )]
    Busy(PathBuf),
    /// The file is read-only.
    #[error("{}", manual_edit_message(.0, "The file is read-only."))]
    ReadOnly(PathBuf),
    /// The file is not valid TOML (`detail` says where).
    #[error("{}", manual_edit_message(.path, &format!("It is not valid TOML: {}", .detail)))]
    NotToml {
        /// The config file.
        path: PathBuf,
        /// The syntax error, located.
        detail: String,
    },
    /// Reading, creating or replacing the file failed.
    #[error("{}", manual_edit_message(.path, &.source.to_string()))]
    Io {
        /// The config file.
        path: PathBuf,
        /// What failed.
        #[source]
        source: std::io::Error,
    },
}

fn manual_edit_message(path: &Path, detail: &str) -> String {
    format!(
        "Unable to save ask config at {}. The file may be read-only or managed outside pi-ask; edit it manually and start pi-ask again. {detail}",
        path.display()
    )
}

/// Saves one setting, changing only that value in the file. A missing file is created from the
/// default snapshot with the value applied. Errors are the manual-edit message.
pub fn save_setting(
    path: &Path,
    setting: Setting,
    on: bool,
    current: &Config,
) -> Result<(), SaveError> {
    let (section, key) = setting.config_key();
    edit_file(path, current, |doc| set_bool(doc, section, key, on))
}

/// Saves `[theme] name` (the settings modal's Theme row), the rest of the file as it was.
pub fn save_theme(path: &Path, name: ThemeSetting, current: &Config) -> Result<(), SaveError> {
    edit_file(path, current, |doc| {
        set_value(doc, "theme", "name", toml_edit::Value::from(name.name()))
    })
}

/// Resets every value to its default in place (comments and unknown keys stay; keymap overrides
/// are removed). A missing file is created from the default snapshot.
pub fn reset_file(path: &Path) -> Result<(), SaveError> {
    edit_file(path, &Config::default(), |doc| {
        let defaults = Settings::defaults();
        for setting in Setting::ALL {
            let (section, key) = setting.config_key();
            set_bool(doc, section, key, defaults.get(setting));
        }
        let mut channels = toml_edit::Array::new();
        channels.push("bell");
        set_value(
            doc,
            "notifications",
            "channels",
            toml_edit::Value::Array(channels),
        );
        set_value(
            doc,
            "answer",
            "extractionModels",
            toml_edit::Value::Array(toml_edit::Array::new()),
        );
        set_value(
            doc,
            "answer",
            "extractionRetries",
            toml_edit::Value::from(1i64),
        );
        set_value(
            doc,
            "answer",
            "extractionTimeoutMs",
            toml_edit::Value::from(30_000i64),
        );
        // The settings' Theme row's value goes back too (a file without one keeps none).
        if doc
            .get("theme")
            .and_then(|theme| theme.get("name"))
            .is_some()
        {
            set_value(
                doc,
                "theme",
                "name",
                toml_edit::Value::from(ThemeSetting::Auto.name()),
            );
        }
        doc.remove("keymaps");
    })
}

/// An exclusive `flock` on the config file as it is now, held while it is read, edited and
/// replaced, so two pi-asks saving different settings at once both keep their change. A save
/// replaces the file (a new inode), so a lock taken on the old one is taken again.
///
/// Never blocks: anyone who can read the config can hold a lock on it (a config linked into a
/// shared dotfiles folder), and a save runs on the form's loop. The lock is tried without
/// blocking for [`LOCK_BUDGET`]; then the save gives up with [`SaveError::Busy`].
struct FileLock {
    /// The locked file; the lock goes when it closes.
    _file: Option<std::fs::File>,
}

/// How long a save tries for the config's lock (pi-asks saving at once take milliseconds).
const LOCK_BUDGET: std::time::Duration = std::time::Duration::from_millis(300);

impl FileLock {
    fn take(path: &Path) -> Result<FileLock, SaveError> {
        use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
        use std::os::unix::io::AsRawFd;
        let busy = || SaveError::Busy(path.to_path_buf());
        let deadline = std::time::Instant::now() + LOCK_BUDGET;
        loop {
            // Non-blocking: a FIFO planted at the path opens at once (and is then refused).
            let file = match std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
                .open(path)
            {
                Ok(file) => file,
                // No file yet: nothing to lock (it is created from the default snapshot).
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Ok(FileLock { _file: None });
                }
                Err(source) => {
                    return Err(SaveError::Io {
                        path: path.to_path_buf(),
                        source,
                    });
                }
            };
            if !file.metadata().is_ok_and(|m| m.is_file()) {
                return Err(SaveError::Unreadable(path.to_path_buf()));
            }
            // SAFETY: flock on a descriptor we own; released when the file closes.
            let locked =
                unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
            if locked {
                let held = file.metadata().map(|m| m.ino()).ok();
                let current = std::fs::metadata(path).map(|m| m.ino()).ok();
                if held.is_some() && held == current {
                    return Ok(FileLock { _file: Some(file) });
                }
            }
            if std::time::Instant::now() >= deadline {
                return Err(busy());
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}

/// The file a save writes: the target of a symlinked config (so the link stays a link).
fn write_target(path: &Path) -> std::path::PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

fn edit_file(
    path: &Path,
    current: &Config,
    edit: impl FnOnce(&mut DocumentMut),
) -> Result<(), SaveError> {
    let target = write_target(path);
    // A save replaces the file: as root, the user's config would become root's.
    if let Some((folder, owner)) = crate::ownership::users_folder_under_root(&target) {
        return Err(SaveError::RootInUsersFolder { folder, owner });
    }
    let _lock = FileLock::take(&target)?;
    let text = match super::load::CONFIG_FILE.read_text(&target) {
        Ok(text) => text,
        Err(e) if e.is_missing() => default_snapshot(current),
        Err(crate::bounded_read::ReadRefused::Io(source)) => {
            return Err(SaveError::Io {
                path: path.to_owned(),
                source,
            });
        }
        Err(_) => return Err(SaveError::Unreadable(path.to_owned())),
    };
    if let Ok(meta) = std::fs::metadata(&target)
        && meta.permissions().readonly()
    {
        return Err(SaveError::ReadOnly(path.to_owned()));
    }
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        let detail = super::load::located_syntax_error(path, &text, e.message(), e.span());
        SaveError::NotToml {
            path: path.to_owned(),
            detail,
        }
    })?;
    edit(&mut doc);
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir).map_err(|source| SaveError::Io {
            path: path.to_owned(),
            source,
        })?;
    }
    atomic_write(&target, &doc.to_string()).map_err(|source| SaveError::Io {
        path: path.to_owned(),
        source,
    })
}

fn set_bool(doc: &mut DocumentMut, section: &str, key: &str, on: bool) {
    set_value(doc, section, key, toml_edit::Value::from(on));
}

/// Sets `[section].key`, keeping the old value's surrounding whitespace and trailing comment.
fn set_value(doc: &mut DocumentMut, section: &str, key: &str, mut new: toml_edit::Value) {
    if !doc.contains_key(section) {
        doc.insert(section, Item::Table(Table::new()));
    }
    let Some(table) = doc.get_mut(section).and_then(Item::as_table_like_mut) else {
        return;
    };
    // Replace the value in place: inserting would also replace the key and its leading comment.
    if let Some(old) = table.get_mut(key).and_then(Item::as_value_mut) {
        *new.decor_mut() = old.decor().clone();
        *old = new;
    } else {
        table.insert(key, Item::Value(new));
    }
}

/// Replaces `path` atomically: write a temp file in the same folder, sync, keep permissions, rename.
fn atomic_write(path: &Path, contents: &str) -> std::io::Result<()> {
    crate::atomic::write(
        path,
        contents.as_bytes(),
        crate::atomic::Permissions::KeepExisting,
    )
}
