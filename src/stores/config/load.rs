//! Finding and reading the config file. Reading never writes, except the one attempt to create a
//! commented default file when no config exists at all.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Config, config_from_tree};
use crate::bounded_read::{ReadRefused, ReadRule};
use crate::keymap::KeymapSource;

/// Where configuration may come from, in order of precedence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigPaths {
    /// The native TOML file (written by settings toggles).
    pub toml: PathBuf,
    /// The original pi-ask's JSON files, read when the TOML file is absent and never written.
    pub legacy_json: Vec<PathBuf>,
    /// An explicitly named JSON file (`--config x.json`), read-only.
    pub explicit_json: Option<PathBuf>,
    /// No home directory could be found (HOME unset and no passwd entry), so the default location
    /// does not exist: defaults are used and nothing is written.
    pub no_home: bool,
}

impl ConfigPaths {
    /// `--config PATH`, else `PI_ASK_CONFIG`, else `~/.pi/agent/extensions/pi-ask.toml` (the agent
    /// directory follows `PI_CODING_AGENT_DIR` like pi itself). Paths are made absolute.
    pub fn resolve(explicit: Option<&Path>, env: impl Fn(&str) -> Option<String>) -> ConfigPaths {
        ConfigPaths::resolve_with(explicit, env, passwd_home)
    }

    /// [`ConfigPaths::resolve`] with the passwd lookup given (for tests: no real home is read).
    pub fn resolve_with(
        explicit: Option<&Path>,
        env: impl Fn(&str) -> Option<String>,
        passwd: fn() -> Option<PathBuf>,
    ) -> ConfigPaths {
        // `HOME`, else the passwd entry's home (as a login shell would set it); looked up once.
        let home = env("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .or_else(passwd);
        // Where `~` points when there is no home at all (never written to: see `no_home`).
        let tilde = home.clone().unwrap_or_else(|| PathBuf::from("/"));
        let explicit = explicit.map(Path::to_path_buf).or_else(|| {
            env("PI_ASK_CONFIG")
                .filter(|s| !s.is_empty())
                .map(PathBuf::from)
        });
        let agent_dir_env = env("PI_CODING_AGENT_DIR").filter(|s| !s.is_empty());
        let no_home = explicit.is_none() && agent_dir_env.is_none() && home.is_none();
        let agent_dir = agent_dir_env
            .map(|d| expand_home(&d, &tilde))
            .unwrap_or_else(|| tilde.join(".pi").join("agent"));
        let agent_dir = crate::paths::absolute(&agent_dir);
        let legacy_json = vec![
            agent_dir.join("extensions").join("eko24ive-pi-ask.json"),
            agent_dir.join("eko24ive-pi-ask.json"),
        ];
        match explicit {
            Some(path) => {
                let path = crate::paths::absolute(&expand_home(&path.to_string_lossy(), &tilde));
                let is_json = path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("json"));
                if is_json {
                    ConfigPaths {
                        toml: path.with_extension("toml"),
                        legacy_json: Vec::new(),
                        explicit_json: Some(path),
                        no_home,
                    }
                } else {
                    ConfigPaths {
                        toml: path,
                        legacy_json: Vec::new(),
                        explicit_json: None,
                        no_home,
                    }
                }
            }
            None => ConfigPaths {
                toml: agent_dir.join("extensions").join("pi-ask.toml"),
                legacy_json,
                explicit_json: None,
                no_home,
            },
        }
    }

    /// Paths resolved from the process environment.
    pub fn from_env(explicit: Option<&Path>) -> ConfigPaths {
        ConfigPaths::resolve(explicit, |k| std::env::var(k).ok())
    }
}

/// pi's agent directory: `PI_CODING_AGENT_DIR` (a leading `~` expanded), else `~/.pi/agent`, made
/// absolute. `None` when neither is set and there is no home directory.
pub fn agent_dir(
    env: impl Fn(&str) -> Option<String>,
    passwd: fn() -> Option<PathBuf>,
) -> Option<PathBuf> {
    let home = env("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(passwd);
    let dir = match env("PI_CODING_AGENT_DIR").filter(|s| !s.is_empty()) {
        Some(d) => expand_home(&d, home.as_deref().unwrap_or(Path::new("/"))),
        None => home?.join(".pi").join("agent"),
    };
    Some(crate::paths::absolute(&dir))
}

/// The home directory in the passwd entry of the current user.
pub fn passwd_home() -> Option<PathBuf> {
    use std::ffi::CStr;
    use std::os::unix::ffi::OsStrExt;
    let mut buf = vec![0 as libc::c_char; 4096];
    let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: getpwuid_r writes into `entry` and `buf`, which outlive the call; `found` is set to
    // `&entry` or null.
    let rc = unsafe {
        libc::getpwuid_r(
            libc::getuid(),
            &mut entry,
            buf.as_mut_ptr(),
            buf.len(),
            &mut found,
        )
    };
    if rc != 0 || found.is_null() || entry.pw_dir.is_null() {
        return None;
    }
    // SAFETY: pw_dir points into `buf`, NUL-terminated by getpwuid_r.
    let dir = unsafe { CStr::from_ptr(entry.pw_dir) };
    let path = PathBuf::from(std::ffi::OsStr::from_bytes(dir.to_bytes()));
    (path.is_absolute() && !dir.to_bytes().is_empty()).then_some(path)
}

fn expand_home(path: &str, home: &Path) -> PathBuf {
    match path.strip_prefix("~/") {
        Some(rest) => home.join(rest),
        None if path == "~" => home.to_path_buf(),
        None => PathBuf::from(path),
    }
}

/// Which file the session's configuration came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigSource {
    /// The TOML file, read successfully (keymaps may still have fallen back).
    Toml(PathBuf),
    /// No file existed; defaults were used (and a commented default file was written if possible).
    Defaults(PathBuf),
    /// A file existed but could not be used; defaults for the session, file untouched.
    Invalid(PathBuf),
    /// The original pi-ask's JSON file (read-only).
    LegacyJson(PathBuf),
    /// No home directory: defaults for the session, nothing is saved.
    NoHome(PathBuf),
}

impl ConfigSource {
    /// The file settings are shown as coming from.
    pub fn path(&self) -> &Path {
        match self {
            ConfigSource::Toml(p)
            | ConfigSource::Defaults(p)
            | ConfigSource::Invalid(p)
            | ConfigSource::LegacyJson(p)
            | ConfigSource::NoHome(p) => p,
        }
    }
}

/// A loaded configuration with the notices to show about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The configuration read.
    pub config: Config,
    /// Which file it came from, if any.
    pub source: ConfigSource,
    /// What to tell the person in the form: the file's problems in one short notice (the first
    /// few), or why it was not used at all.
    pub notices: Vec<String>,
    /// Every problem of the file, each placed (`pi-ask.toml:7: …`), in the file's order: what
    /// `pi-ask doctor` and `pi-ask mcp`'s log list.
    pub problems: Vec<String>,
}

/// How a config file is read: a regular file (a FIFO planted at its path must not hang the
/// form), through a link (a config kept in dotfiles), capped.
pub(crate) const CONFIG_FILE: ReadRule = ReadRule::capped(crate::bounded_read::CONFIG_CAP);

/// The notice when there is no home directory to keep a config in.
pub const NO_HOME_NOTICE: &str = "No home directory (HOME is unset and the user has no passwd entry): using default settings for this session and saving nothing. Set HOME or pass --config PATH to keep settings.";

/// The notice for a file that could not be used.
fn invalid_notice(path: &Path, detail: &str) -> String {
    format!(
        "Config was invalid or unsupported ({detail}). Loaded defaults for this session and left the config file unchanged. Edit {} and start pi-ask again after fixing it.",
        path.display()
    )
}

/// Loads the configuration, with where it came from and its notices. See
/// [`ConfigPaths::resolve`] for precedence. Loading writes nothing: the commented default file
/// where there is none is the config store's to write, once a form shows
/// ([`super::ConfigStore::create_default`]).
pub fn load(paths: &ConfigPaths) -> Loaded {
    if let Some(json) = &paths.explicit_json {
        return load_json(json);
    }
    if paths.no_home {
        return Loaded::whole(
            ConfigSource::NoHome(paths.toml.clone()),
            NO_HOME_NOTICE.to_owned(),
        );
    }
    match CONFIG_FILE.read_text(&paths.toml) {
        Ok(text) => return load_toml_text(&paths.toml, &text),
        // A parent that is a file (`~/.pi` as a regular file) also means there is no config.
        Err(err) if !err.is_missing() => {
            return Loaded::whole(
                ConfigSource::Invalid(paths.toml.clone()),
                invalid_notice(&paths.toml, &format!("cannot read it: {err}")),
            );
        }
        Err(_) => {}
    }
    if let Some(json) = paths.legacy_json.iter().find(|p| p.is_file()) {
        return load_json(json);
    }
    Loaded {
        config: Config::default(),
        source: ConfigSource::Defaults(paths.toml.clone()),
        notices: Vec::new(),
        problems: Vec::new(),
    }
}

impl Loaded {
    /// The defaults, with one notice about the file as a whole (also its one problem).
    fn whole(source: ConfigSource, notice: String) -> Loaded {
        Loaded {
            config: Config::default(),
            source,
            notices: vec![notice.clone()],
            problems: vec![notice],
        }
    }
}

/// The configuration [`load`] finds (for commands that only read a setting or two).
pub fn peek(paths: &ConfigPaths) -> Config {
    load(paths).config
}

/// Reads TOML text from `path` (never writes).
pub(crate) fn load_toml_text(path: &Path, text: &str) -> Loaded {
    // Straight into the JSON tree the config is read from (the original's JSON config reads the
    // same way), without building a TOML tree first: loading is a fifth of the first frame.
    let tree = toml::from_str::<Value>(text)
        .map_err(|e| NotApplied::Syntax(syntax_error_detail(path, text, &e)));
    from_tree(
        path,
        tree,
        KeymapSource::Toml,
        ConfigSource::Toml(path.to_path_buf()),
        Some(text),
    )
}

/// A TOML syntax error with its place, as an editor jumps to it (`pi-ask.toml:3:8: unclosed
/// table, expected `]``), and the offending line quoted (control characters shown as `?`, at most
/// 80 characters) so the notice alone says what to fix.
fn syntax_error_detail(path: &Path, text: &str, error: &toml::de::Error) -> String {
    located_syntax_error(path, text, error.message(), error.span())
}

/// [`syntax_error_detail`] from a message and the byte span it points at (the `toml` and
/// `toml_edit` errors both have them).
pub(crate) fn located_syntax_error(
    path: &Path,
    text: &str,
    message: &str,
    span: Option<std::ops::Range<usize>>,
) -> String {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let message = message.trim_end();
    let Some(span) = span else {
        return format!("{name}: {message}");
    };
    let at = span.start.min(text.len());
    let at = (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_no = text[..at].matches('\n').count() + 1;
    let column = text[line_start..at].chars().count() + 1;
    let line = text[line_start..].lines().next().unwrap_or("");
    let quoted = crate::printable::printable(&line.chars().take(80).collect::<String>());
    format!("{name}:{line_no}:{column}: {message}; line {line_no}: {quoted}")
}

fn load_json(path: &Path) -> Loaded {
    let tree = CONFIG_FILE
        .read_text(path)
        .map_err(NotApplied::Read)
        .and_then(|text| Ok(serde_json::from_str::<Value>(&text)?));
    from_tree(
        path,
        tree,
        KeymapSource::LegacyJson,
        ConfigSource::LegacyJson(path.to_path_buf()),
        None,
    )
}

/// Why a config file was not applied (its notice says so and the defaults apply).
#[derive(Debug, thiserror::Error)]
enum NotApplied {
    #[error("cannot read it: {0}")]
    Read(#[source] ReadRefused),
    /// A TOML syntax error, located.
    #[error("{0}")]
    Syntax(String),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Invalid(#[from] super::InvalidConfig),
}

/// The config a tree gives, its problems placed at their lines of `toml_text` (when the file is
/// TOML), or the defaults with a notice when the file cannot be used at all.
fn from_tree(
    path: &Path,
    tree: Result<Value, NotApplied>,
    keymaps: KeymapSource,
    source: ConfigSource,
    toml_text: Option<&str>,
) -> Loaded {
    match tree.and_then(|t| Ok(config_from_tree(t, keymaps)?)) {
        Ok((mut config, problems)) => {
            let mut problems = super::problem::located(path, toml_text, problems);
            if let Some((why, fix)) = super::trust::shared_because(path) {
                let taken = super::trust::without_commands(&mut config);
                if !taken.is_empty() {
                    // First, so the form's short notice always shows it.
                    problems.insert(
                        0,
                        format!(
                            "{why}, so another user could make it run commands as you: its {} are not run; {fix}.",
                            taken.join(" and ")
                        ),
                    );
                }
            }
            // The original's JSON says each problem as the original does (its keymap notice
            // whole); pi-ask's TOML in one short notice.
            let notices = match keymaps {
                KeymapSource::LegacyJson => problems.clone(),
                KeymapSource::Toml => super::problem::notice(&problems).into_iter().collect(),
            };
            Loaded {
                config,
                source,
                notices,
                problems,
            }
        }
        Err(detail) => Loaded::whole(
            ConfigSource::Invalid(path.to_path_buf()),
            invalid_notice(path, &detail.to_string()),
        ),
    }
}
