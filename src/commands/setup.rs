//! `pi-ask setup claude|codex [--print] [--remove] [--settings FILE] [--mcp-config FILE]
//! [--no-mcp]`: registers `pi-ask hook <host>` in the host's hooks config and pi-ask's MCP server
//! in its MCP config (or removes them), changing nothing else in the files; `--print` shows the
//! files as they would be and writes nothing.

use std::path::{Path, PathBuf};

use super::Ended;
use crate::drivers::hooks::Host;
use crate::drivers::hooks::setup::{self, Change};
use crate::report::{CommandOutcome, report};

/// The hook's own timeout in the host's config (seconds): above `pi-ask hook --wait` (590 s).
const HOOK_TIMEOUT: u64 = 600;

/// The hook's own timeout in `host`'s unit (Gemini CLI counts milliseconds).
fn hook_timeout(host: Host) -> u64 {
    match host {
        Host::Gemini => HOOK_TIMEOUT * 1000,
        Host::Claude | Host::Codex => HOOK_TIMEOUT,
    }
}

/// The tool's name for Gemini CLI, which hides MCP tools named `ask_user` in headless mode.
const GEMINI_TOOL_NAME: &str = "ask_person";

/// pi-ask's entry in a JSON `mcpServers`, as `host` reads it.
fn mcp_entry(host: Host, program: &str) -> serde_json::Value {
    match host {
        // `trust` skips Gemini CLI's confirmation of each call (asking whether the person may be
        // asked would be asking twice); `timeout` in milliseconds, as pi-ask's own 30 minutes.
        Host::Gemini => serde_json::json!({"command": program,
            "args": ["mcp", "--tool-name", GEMINI_TOOL_NAME],
            "timeout": CODEX_TOOL_TIMEOUT * 1000, "trust": true}),
        Host::Claude | Host::Codex => {
            serde_json::json!({"type": "stdio", "command": program, "args": ["mcp"]})
        }
    }
}

/// pi-ask's MCP tool as Claude Code names it (allowed without a prompt).
const CLAUDE_MCP_TOOL: &str = "mcp__pi-ask__ask_user";

/// How long a host lets pi-ask's `ask_user` run (seconds; Codex's default is a minute):
/// `pi-ask mcp`'s own default timeout.
const CODEX_TOOL_TIMEOUT: u64 = 1800;

/// Why the settings were left alone.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// No home folder to find the host's files in.
    #[error("no home folder: give --settings FILE and --mcp-config FILE (or --no-mcp)")]
    NoHome,
    /// A file cannot be read (too large, not text, not a regular file).
    #[error("cannot read {path}: {why}")]
    Unreadable {
        /// The file.
        path: String,
        /// Why.
        why: crate::bounded_read::ReadRefused,
    },
    /// A JSON file is not JSON.
    #[error("{path} is not JSON ({why}); fix it by hand, pi-ask leaves it as it is")]
    NotJson {
        /// The file.
        path: String,
        /// Where and why.
        why: serde_json::Error,
    },
    /// A file has another shape where the entry goes.
    #[error("{path}: {why}")]
    Unfit {
        /// The file.
        path: String,
        /// What.
        why: setup::Unfit,
    },
    /// A JSON file's text cannot be edited in place.
    #[error("{path}: {why}; pi-ask leaves it as it is")]
    NotEditable {
        /// The file.
        path: String,
        /// Why.
        why: crate::drivers::hooks::json_text::NotEditable,
    },
    /// A file its owner made read-only.
    #[error(
        "{path} is read-only (mode {mode:o}); pi-ask leaves it as it is and writes none of the files"
    )]
    ReadOnly {
        /// The file.
        path: String,
        /// Its mode.
        mode: u32,
    },
    /// Root in a user's home (`sudo -E pi-ask setup`): the files would become root's.
    #[error("{0}")]
    RootInUsersHome(String),
    /// The program the host would run can be changed by someone else.
    #[error(
        "the hook would run {path}, but {why}, who could put a program of their own there that runs as you; install pi-ask where only you can write (`cargo install pi-ask`) and run setup from there"
    )]
    UnsafeProgram {
        /// The program.
        path: String,
        /// Who else could change it.
        why: String,
    },
    /// A file cannot be written.
    #[error("cannot write {path}: {why}")]
    Unwritable {
        /// The file.
        path: String,
        /// Why.
        why: std::io::Error,
    },
}

/// The program path of this pi-ask, as the host will run it.
fn own_program() -> String {
    std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "pi-ask".to_owned())
}

/// The command that runs this pi-ask as `host`'s hook, quoted for the shell the host runs it in.
fn hook_command(host: Host) -> String {
    format!(
        "'{}' hook {}",
        own_program().replace('\'', r"'\''"),
        host.word()
    )
}

/// What `pi-ask setup <host>` was told.
#[derive(Debug, Clone, Default)]
pub struct SetupOptions {
    /// The hooks file instead of the host's own (`--settings`).
    pub hooks_file: Option<PathBuf>,
    /// The MCP config file instead of the host's own (`--mcp-config`).
    pub mcp_file: Option<PathBuf>,
    /// Leave the MCP server out (`--no-mcp`).
    pub no_mcp: bool,
    /// Show the files as they would be; write nothing.
    pub print: bool,
    /// Remove pi-ask's entries instead.
    pub remove: bool,
}

/// One of the host's files and what pi-ask puts in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// The hook for the question tool (JSON `hooks`).
    Hook,
    /// The MCP server in a JSON config (`mcpServers`).
    McpJson,
    /// The MCP server in a TOML config (`[mcp_servers]`).
    McpToml,
}

impl Part {
    /// What it is, as the person is told.
    fn what(self, host: Host, with_mcp: bool) -> String {
        match self {
            Part::Hook if host == Host::Claude && with_mcp => format!(
                "the hooks for {} and MCP servers' forms (and the rule allowing pi-ask's MCP tool)",
                host.tool()
            ),
            Part::Hook if host == Host::Claude => {
                format!("the hooks for {} and MCP servers' forms", host.tool())
            }
            Part::Hook => format!("the hook for {}", host.tool()),
            Part::McpJson | Part::McpToml => "pi-ask's MCP server (ask_user)".to_owned(),
        }
    }
}

/// The host's config folder: Codex's `$CODEX_HOME`, else the folder under the home.
pub(crate) fn host_file(host: Host, name: &str) -> Result<PathBuf, SetupError> {
    let home = || {
        std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .ok_or(SetupError::NoHome)
    };
    Ok(match (host, name) {
        (Host::Claude, ".claude.json") => home()?.join(name),
        (Host::Claude, _) => home()?.join(".claude").join(name),
        (Host::Gemini, _) => home()?.join(".gemini").join(name),
        (Host::Codex, _) => std::env::var_os("CODEX_HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .map_or_else(|| home().map(|h| h.join(".codex")), Ok)?
            .join(name),
    })
}

/// The name of `host`'s hooks file in its config folder ([`host_file`]).
pub(crate) fn hooks_file_name(host: Host) -> &'static str {
    match host {
        Host::Claude | Host::Gemini => "settings.json",
        Host::Codex => "hooks.json",
    }
}

/// The name of `host`'s MCP config file ([`host_file`]; Gemini CLI keeps its MCP servers beside
/// its hooks).
pub(crate) fn mcp_file_name(host: Host) -> &'static str {
    match host {
        Host::Claude => ".claude.json",
        Host::Codex => "config.toml",
        Host::Gemini => "settings.json",
    }
}

/// `pi-ask setup <host>`: each of the host's files edited in turn (a file already so is left
/// untouched; one that cannot take its entry stops the command before the next is written).
pub fn run(host: Host, options: &SetupOptions) -> Ended {
    let hooks = match &options.hooks_file {
        Some(path) => path.clone(),
        None => host_file(host, hooks_file_name(host))?,
    };
    let mut parts = vec![(Part::Hook, hooks)];
    if !options.no_mcp {
        let part = match host {
            Host::Codex => Part::McpToml,
            Host::Claude | Host::Gemini => Part::McpJson,
        };
        let path = match &options.mcp_file {
            Some(path) => path.clone(),
            None => host_file(host, mcp_file_name(host))?,
        };
        parts.push((part, path));
    }
    // Each file once: a file that is a link (dotfiles) is edited where it points, so the link
    // stays; the parts that go in one file (Gemini CLI's settings) are applied together.
    let mut files: Vec<(PathBuf, Vec<Part>)> = Vec::new();
    for (part, path) in parts {
        let target = std::fs::canonicalize(&path).unwrap_or(path);
        match files.iter_mut().find(|(file, _)| *file == target) {
            Some((_, parts)) => parts.push(part),
            None => files.push((target, vec![part])),
        }
    }
    if !options.remove
        && let Ok(program) = std::env::current_exe()
        && let Some(why) = crate::ownership::program_changeable_because(&program)
    {
        return Err(SetupError::UnsafeProgram {
            path: crate::printable::printable(&crate::paths::display(&program)),
            why,
        }
        .into());
    }
    // Every file is read, edited and checked before any is written: all are written, or none.
    let mut planned = Vec::new();
    for (target, parts) in &files {
        planned.push(plan(host, parts, target, options)?);
    }
    if options.print {
        for plan in &planned {
            // The file is the person's, but a terminal reads it: shown as print_json would.
            crate::report::print_line(&format!("# {}", plan.shown));
            crate::report::print_line(&crate::printable::json_for_stdout(&plan.text));
        }
        return Ok(CommandOutcome::Done);
    }
    write_all(&planned)?;
    let wrote = planned.iter().any(Planned::changed);
    for plan in &planned {
        for (part, change) in &plan.changes {
            let (what, shown) = (part.what(host, !options.no_mcp), &plan.shown);
            report(&match (change, options.remove) {
                (Change::AlreadySo, true) => format!("{what} is not in {shown}; nothing to remove"),
                (Change::AlreadySo, false) => format!("{what} is already in {shown}"),
                (Change::Changed, true) => format!("removed {what} from {shown}"),
                (Change::Changed, false) => format!("added {what} to {shown}"),
            });
        }
    }
    if options.remove {
        report(&format!("{}: pi-ask is no longer registered", host.name()));
        return Ok(CommandOutcome::Done);
    }
    report(&format!(
        "{}'s {} now goes to pi-ask: answer it in `pi-ask inbox` or `pi-ask serve`; undo with `pi-ask setup {} --remove`",
        host.name(),
        host.tool(),
        host.word()
    ));
    if host == Host::Gemini {
        report(&format!(
            "Gemini CLI offers ask_user in its interactive mode only; pi-ask's MCP tool is {GEMINI_TOOL_NAME} there (Gemini CLI hides MCP tools named ask_user when headless)"
        ));
    }
    if host == Host::Codex && wrote {
        report(
            "Codex runs a new hook only once you trust it: start `codex`, open /hooks and trust pi-ask's (or choose \"Trust all and continue\" when Codex asks)",
        );
    }
    Ok(CommandOutcome::Done)
}

/// A host's file as it is to be: its text before (none when it does not exist) and after.
struct Planned {
    target: PathBuf,
    shown: String,
    before: Option<String>,
    text: String,
    changes: Vec<(Part, Change)>,
}

impl Planned {
    fn changed(&self) -> bool {
        self.changes.iter().any(|(_, c)| *c == Change::Changed)
    }
}

/// The largest host file read (Claude Code's `~/.claude.json` keeps every project's state and
/// grows to megabytes).
pub(crate) const HOST_FILE_CAP: u64 = 64 * 1024 * 1024;

/// `parts` put in (or taken out of) the file at `target`, checked writable when it changes.
fn plan(
    host: Host,
    parts: &[Part],
    target: &Path,
    options: &SetupOptions,
) -> Result<Planned, SetupError> {
    let shown = crate::paths::display(target);
    let rule = crate::bounded_read::ReadRule::capped(HOST_FILE_CAP);
    let before = match rule.read_text(target) {
        Ok(text) => Some(text),
        Err(why) if why.is_missing() => None,
        Err(why) => return Err(SetupError::Unreadable { path: shown, why }),
    };
    let mut text = before.clone().unwrap_or_default();
    let mut changes = Vec::new();
    for &part in parts {
        let (new_text, change) = apply(host, part, &text, options, &shown)?;
        if change == Change::Changed {
            text = new_text;
        }
        changes.push((part, change));
    }
    let planned = Planned {
        target: target.to_path_buf(),
        shown,
        before,
        text,
        changes,
    };
    if planned.changed() && !options.print {
        if let Some((folder, owner)) = crate::ownership::users_folder_under_root(target) {
            return Err(SetupError::RootInUsersHome(
                crate::ownership::root_creates_nothing(&folder, owner),
            ));
        }
        if let Ok(meta) = std::fs::metadata(target) {
            use std::os::unix::fs::PermissionsExt;
            let mode = meta.permissions().mode() & 0o7777;
            if mode & 0o200 == 0 {
                return Err(SetupError::ReadOnly {
                    path: planned.shown,
                    mode,
                });
            }
        }
    }
    Ok(planned)
}

/// Writes every changed file; when one cannot be written, those written before it get their
/// text back (or are removed, if setup created them), so the host's files stay consistent.
fn write_all(planned: &[Planned]) -> Result<(), SetupError> {
    let mut written: Vec<&Planned> = Vec::new();
    for plan in planned.iter().filter(|p| p.changed()) {
        if let Some(folder) = plan.target.parent() {
            let _ = std::fs::create_dir_all(folder);
        }
        let result = crate::atomic::write(
            &plan.target,
            plan.text.as_bytes(),
            crate::atomic::Permissions::KeepExisting,
        );
        if let Err(why) = result {
            for done in written {
                let _ = match &done.before {
                    Some(text) => crate::atomic::write(
                        &done.target,
                        text.as_bytes(),
                        crate::atomic::Permissions::KeepExisting,
                    ),
                    None => std::fs::remove_file(&done.target),
                };
            }
            return Err(SetupError::Unwritable {
                path: plan.shown.clone(),
                why,
            });
        }
        written.push(plan);
    }
    Ok(())
}

/// `text` (a file's, shown as `shown`) with `part` put in or taken out, and whether it changed.
fn apply(
    host: Host,
    part: Part,
    text: &str,
    options: &SetupOptions,
    shown: &str,
) -> Result<(String, Change), SetupError> {
    let unfit = |why| SetupError::Unfit {
        path: shown.to_owned(),
        why,
    };
    let program = own_program();
    match part {
        Part::McpToml if options.remove => setup::unregister_mcp_toml(text).map_err(unfit),
        Part::McpToml => {
            setup::register_mcp_toml(text, &program, &["mcp"], CODEX_TOOL_TIMEOUT).map_err(unfit)
        }
        Part::Hook | Part::McpJson => {
            let before: serde_json::Value = if text.trim().is_empty() {
                serde_json::json!({})
            } else {
                serde_json::from_str(text).map_err(|why| SetupError::NotJson {
                    path: shown.to_owned(),
                    why,
                })?
            };
            let mut value = before.clone();
            let mut change = match (part, options.remove) {
                (Part::Hook, remove) => {
                    let mut change = Change::AlreadySo;
                    for slot in host.slots() {
                        let done = if remove {
                            setup::unregister(&mut value, &slot)
                        } else {
                            setup::register(
                                &mut value,
                                &slot,
                                &hook_command(host),
                                hook_timeout(host),
                            )
                        }
                        .map_err(unfit)?;
                        if done == Change::Changed {
                            change = Change::Changed;
                        }
                    }
                    change
                }
                (_, true) => setup::unregister_mcp_json(&mut value).map_err(unfit)?,
                (_, false) => setup::register_mcp_json(&mut value, mcp_entry(host, &program))
                    .map_err(unfit)?,
            };
            // Claude Code asks the person before each MCP call: pi-ask's, which only asks the
            // person, is allowed in the same settings as the hook.
            if part == Part::Hook && host == Host::Claude && !options.no_mcp {
                let allowed = if options.remove {
                    setup::disallow_tool(&mut value, CLAUDE_MCP_TOOL)
                } else {
                    setup::allow_tool(&mut value, CLAUDE_MCP_TOOL).map_err(unfit)?
                };
                if allowed == Change::Changed {
                    change = Change::Changed;
                }
            }
            // Only what pi-ask changed is edited in the text; the rest keeps its bytes.
            let edited =
                crate::drivers::hooks::json_text::edited(text, &before, &value).map_err(|why| {
                    SetupError::NotEditable {
                        path: shown.to_owned(),
                        why,
                    }
                })?;
            Ok((edited, change))
        }
    }
}
