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
fn host_file(host: Host, name: &str) -> Result<PathBuf, SetupError> {
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

/// `pi-ask setup <host>`: each of the host's files edited in turn (a file already so is left
/// untouched; one that cannot take its entry stops the command before the next is written).
pub fn run(host: Host, options: &SetupOptions) -> Ended {
    let hooks = match &options.hooks_file {
        Some(path) => path.clone(),
        None => host_file(
            host,
            match host {
                Host::Claude | Host::Gemini => "settings.json",
                Host::Codex => "hooks.json",
            },
        )?,
    };
    let mut parts = vec![(Part::Hook, hooks)];
    if !options.no_mcp {
        let (part, name) = match host {
            Host::Claude => (Part::McpJson, ".claude.json"),
            Host::Codex => (Part::McpToml, "config.toml"),
            // Gemini CLI keeps its MCP servers beside its hooks.
            Host::Gemini => (Part::McpJson, "settings.json"),
        };
        let path = match &options.mcp_file {
            Some(path) => path.clone(),
            None => host_file(host, name)?,
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
    let mut wrote = false;
    for (target, parts) in &files {
        wrote |= edit(host, parts, target, options)?;
    }
    if options.print {
        return Ok(CommandOutcome::Done);
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

/// Puts `parts` in (or takes them out of) the file at `target`: shown with `--print`, else
/// written once when any changed; whether it was written.
fn edit(
    host: Host,
    parts: &[Part],
    target: &Path,
    options: &SetupOptions,
) -> Result<bool, SetupError> {
    let shown = crate::paths::display(target);
    let rule = crate::bounded_read::ReadRule::capped(crate::bounded_read::CONFIG_CAP);
    let mut text = match rule.read_text(target) {
        Ok(text) => text,
        Err(why) if why.is_missing() => String::new(),
        Err(why) => return Err(SetupError::Unreadable { path: shown, why }),
    };
    let mut changed = Vec::new();
    for &part in parts {
        let (new_text, change) = apply(host, part, &text, options, &shown)?;
        if change == Change::Changed {
            text = new_text;
        }
        changed.push((part, change));
    }
    if options.print {
        // The file is the person's, but a terminal reads it: shown as print_json would.
        crate::report::print_line(&format!("# {shown}"));
        crate::report::print_line(&crate::printable::json_for_stdout(&text));
        return Ok(false);
    }
    let any = changed.iter().any(|(_, c)| *c == Change::Changed);
    if any {
        if let Some(folder) = target.parent() {
            let _ = std::fs::create_dir_all(folder);
        }
        crate::atomic::write(
            target,
            text.as_bytes(),
            crate::atomic::Permissions::KeepExisting,
        )
        .map_err(|why| SetupError::Unwritable {
            path: shown.clone(),
            why,
        })?;
    }
    for (part, change) in changed {
        let what = part.what(host, !options.no_mcp);
        report(&match (change, options.remove) {
            (Change::AlreadySo, true) => format!("{what} is not in {shown}; nothing to remove"),
            (Change::AlreadySo, false) => format!("{what} is already in {shown}"),
            (Change::Changed, true) => format!("removed {what} from {shown}"),
            (Change::Changed, false) => format!("added {what} to {shown}"),
        });
    }
    Ok(any)
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
            let mut value = if text.trim().is_empty() {
                serde_json::json!({})
            } else {
                serde_json::from_str(text).map_err(|why| SetupError::NotJson {
                    path: shown.to_owned(),
                    why,
                })?
            };
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
            Ok((
                serde_json::to_string_pretty(&value).unwrap_or_default() + "\n",
                change,
            ))
        }
    }
}
