//! `pi-ask doctor`: what pi-ask would use here and whether it works, one finding a line: the
//! config, the history, where MCP asks go and whether an inbox watches them, the terminal, and
//! the pi-ask programs the hosts' hooks run.
//! Reads only; creates nothing.

use std::path::{Path, PathBuf};

use crate::drivers::hooks::Host;

use crate::report::CommandOutcome;
use crate::stores::config::{ConfigPaths, ConfigSource};
use crate::stores::queue::{AskQueue, Queue};

/// One finding: what was checked, what was found, and whether it is a problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What the finding is about (`config`, `history`, `queue`, …).
    pub topic: &'static str,
    /// The finding, in words.
    pub text: String,
    /// Whether it is a problem to fix.
    pub problem: bool,
    /// Lines under it: each problem of the config, placed at its line.
    pub details: Vec<String>,
}

fn finding(topic: &'static str, text: String, problem: bool) -> Finding {
    Finding {
        topic,
        text,
        problem,
        details: Vec::new(),
    }
}

fn shown(path: &Path) -> String {
    crate::paths::display(path)
}

/// The config in use, and every problem of it on a line of its own.
pub fn config(explicit: Option<&Path>) -> Finding {
    let loaded = crate::stores::config::load(&ConfigPaths::from_env(explicit));
    let mut found = match &loaded.source {
        ConfigSource::Toml(path) if loaded.problems.is_empty() => {
            finding("config", format!("{} (ok)", shown(path)), false)
        }
        ConfigSource::Toml(path) => finding(
            "config",
            format!(
                "{}: {} the rest applies:",
                shown(path),
                counted(loaded.problems.len())
            ),
            true,
        ),
        ConfigSource::Defaults(path) => match cannot_create(path) {
            None => finding(
                "config",
                format!(
                    "none yet; defaults apply ({} is made at the first form)",
                    shown(path)
                ),
                false,
            ),
            Some(why) => finding(
                "config",
                format!("none; defaults apply, but {} {why}", shown(path)),
                true,
            ),
        },
        ConfigSource::Invalid(path) => finding(
            "config",
            format!("{}: {}", shown(path), loaded.notices.join(" ")),
            true,
        ),
        ConfigSource::LegacyJson(path) if loaded.problems.is_empty() => finding(
            "config",
            format!("{} (the original pi-ask's JSON, read-only)", shown(path)),
            false,
        ),
        ConfigSource::LegacyJson(path) => finding(
            "config",
            format!(
                "{} (the original pi-ask's JSON, read-only): {} the rest applies:",
                shown(path),
                counted(loaded.problems.len())
            ),
            true,
        ),
        ConfigSource::NoHome(_) => finding("config", loaded.notices.join(" "), true),
    };
    if let ConfigSource::Toml(path) | ConfigSource::LegacyJson(path) = &loaded.source {
        found.details = loaded.problems.clone();
        // Flagged even when it holds no command yet: one added later would run as the user.
        if let Some((why, fix)) = crate::stores::config::trust::shared_because(path) {
            found.problem = true;
            found.text = found.text.replace(" (ok)", " (others can change it)");
            if !found.details.iter().any(|d| d.starts_with(&why)) {
                found.details.insert(
                    0,
                    format!("{why}: its command notifications and answer extractor would not be run; {fix}"),
                );
            }
        }
    }
    found
}

/// Whether pi-ask, as who it runs as, could create `path` (a file or folder it makes at first
/// use): `None` when it could, else why not. Tests access, not existence: a folder a run as
/// root left behind exists and still locks the user out.
fn cannot_create(path: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    if let Some((folder, owner)) = crate::ownership::users_folder_under_root(path) {
        return Some(crate::ownership::root_creates_nothing(&folder, owner));
    }
    let absolute = crate::paths::absolute(path);
    let existing = absolute.ancestors().skip(1).find(|p| p.exists())?;
    let c = std::ffi::CString::new(existing.as_os_str().as_encoded_bytes()).ok()?;
    // SAFETY: a valid C string.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } == 0 {
        return None;
    }
    let owner = std::fs::metadata(existing).map(|m| m.uid()).unwrap_or(0);
    Some(format!(
        "cannot be created: {} is not writable by you (it belongs to uid {owner}; a run as root may have made it: `sudo chown -R $USER {}`)",
        shown(existing),
        shown(existing)
    ))
}

/// `1 problem;`, `3 problems;`.
fn counted(problems: usize) -> String {
    match problems {
        1 => "1 problem;".to_owned(),
        n => format!("{n} problems;"),
    }
}

/// The history: where, whether it records, and whether it reads.
pub fn history(choice: &super::HistoryChoice) -> Finding {
    let Some(store) = &choice.store else {
        return finding(
            "history",
            "none: no home folder (give --history FILE or set PI_ASK_HISTORY)".into(),
            true,
        );
    };
    let recording = if choice.record {
        "recording"
    } else {
        "not recording ([history] enabled = false)"
    };
    if !store.path().exists() {
        if choice.record
            && let Some(why) = cannot_create(store.path())
        {
            return finding("history", format!("{} {why}", shown(store.path())), true);
        }
        return finding(
            "history",
            format!("{} (empty; {recording})", shown(store.path())),
            false,
        );
    }
    match store.read() {
        Ok(history) => finding(
            "history",
            format!(
                "{} ({} asks; {recording}{})",
                shown(store.path()),
                history.asks.len(),
                if history.skipped_lines > 0 {
                    format!("; {} unreadable lines skipped", history.skipped_lines)
                } else {
                    String::new()
                }
            ),
            false,
        ),
        Err(e) => finding(
            "history",
            format!("{}: cannot read it: {e}", shown(store.path())),
            true,
        ),
    }
}

/// Where MCP asks go, how many wait, and whether an inbox watches.
pub fn queue(dir: Option<&Path>) -> Vec<Finding> {
    let Some(dir) = dir else {
        return vec![finding(
            "queue",
            "none: no home folder (give --queue DIR or set PI_ASK_QUEUE)".into(),
            true,
        )];
    };
    if !dir.exists() {
        let queue = match cannot_create(dir) {
            None => finding(
                "queue",
                format!("{} (made at the first ask)", shown(dir)),
                false,
            ),
            Some(why) => finding("queue", format!("{} {why}", shown(dir)), true),
        };
        return vec![
            queue,
            finding("inbox", super::inbox::watching(&[], &[]), false),
        ];
    }
    // The folder exists, so opening it only checks it (private, this user's, not a link).
    match Queue::open(dir) {
        Err(e) => vec![finding("queue", e.to_string(), true)],
        Ok(queue) => {
            let waiting = queue.pending().len();
            let inboxes = queue.inboxes_watching();
            let stopped = queue.inboxes_stopped();
            // Asks waiting with nobody to see them is the problem, and an inbox the person
            // thinks is watching but is stopped; an idle queue is not.
            let unseen = inboxes.is_empty() && (waiting > 0 || !stopped.is_empty());
            let inbox = finding("inbox", super::inbox::watching(&inboxes, &stopped), unseen);
            let web = queue.web_pages().into_iter().map(|(process, origin)| {
                finding(
                    "web page",
                    format!("serving at {origin} (pi-ask serve, pid {})", process.pid),
                    false,
                )
            });
            let mut found = vec![
                finding(
                    "queue",
                    format!("{} ({waiting} waiting)", shown(dir)),
                    false,
                ),
                inbox,
            ];
            found.extend(web);
            found
        }
    }
}

/// When `PI_ASK_QUEUE` sends this shell's asks to another folder than the home's default: that
/// an MCP server its host starts without it (hosts pass only `HOME`, `PATH` and a few more)
/// queues in the default, naming both folders; a problem when asks wait there that no inbox sees.
pub fn split_queues(
    queue_dir: Option<&Path>,
    env: impl Fn(&str) -> Option<String>,
) -> Option<Finding> {
    let set = env("PI_ASK_QUEUE").filter(|d| !d.is_empty())?;
    let home = crate::stores::queue::home_queue_dir(&env)?;
    let ours = crate::paths::absolute(queue_dir?);
    if ours == home {
        return None;
    }
    let (waiting, watched) = match Queue::open_existing(&home) {
        Some(q) => (q.pending().len(), !q.inboxes_watching().is_empty()),
        None => (0, false),
    };
    let there = match (waiting, watched) {
        (_, true) => "an inbox watches it".to_owned(),
        (0, false) => "nothing waiting, no inbox watching it".to_owned(),
        (n, false) => format!("{n} waiting that no inbox sees"),
    };
    Some(finding(
        "servers",
        format!(
            "PI_ASK_QUEUE={} here, but an MCP server its host starts without it queues in {} ({there}): set the same PI_ASK_QUEUE in the host's server config, or unset it here",
            crate::printable::printable(&set),
            shown(&home)
        ),
        waiting > 0 && !watched,
    ))
}

/// The terminal a form would use.
pub fn terminal(term: Option<&str>) -> Finding {
    let term = term.unwrap_or("");
    match crate::drivers::tty::open_tty() {
        Err(e) => finding(
            "terminal",
            format!("none ({e}): `pi-ask ask` prints the questions back as a needs-input result"),
            false,
        ),
        Ok(_) => {
            let size = crossterm::terminal::size()
                .map(|(c, r)| format!("{c}x{r}"))
                .unwrap_or_else(|_| "size unknown".into());
            let term = if term.is_empty() { "TERM unset" } else { term };
            finding("terminal", format!("/dev/tty, {size}, {term}"), false)
        }
    }
}

/// This pi-ask's program, as `pi-ask setup` writes it into a host's hooks and MCP config: a
/// problem when someone else could change it (it, or a folder above it).
pub fn program() -> Finding {
    let Ok(path) = std::env::current_exe() else {
        return finding(
            "program",
            "cannot tell where this pi-ask is".to_owned(),
            true,
        );
    };
    match crate::ownership::program_changeable_because(&path) {
        None => finding("program", shown(&path), false),
        Some(why) => finding(
            "program",
            format!(
                "{why}: a host hook running it runs what others put there; install pi-ask where only you can write and run `pi-ask setup` again"
            ),
            true,
        ),
    }
}

/// The programs pi-ask's entries in `host`'s own files run (hooks and MCP server), each with the
/// file it is written in. A file that is missing or unreadable has none (setup says why).
fn installed_programs(host: Host) -> Vec<(String, PathBuf)> {
    use super::setup::{HOST_FILE_CAP, hooks_file_name, host_file, mcp_file_name};
    use crate::drivers::hooks::setup as entries;
    let read = |name: &str| {
        let path = host_file(host, name).ok()?;
        let text = crate::bounded_read::ReadRule::capped(HOST_FILE_CAP)
            .read_text(&path)
            .ok()?;
        Some((path, text))
    };
    let json = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok();
    let hooks = read(hooks_file_name(host));
    // Gemini CLI keeps both in one file: read once.
    let mcp = if mcp_file_name(host) == hooks_file_name(host) {
        hooks.clone()
    } else {
        read(mcp_file_name(host))
    };
    let mut found = Vec::new();
    if let Some((path, text)) = hooks
        && let Some(settings) = json(&text)
    {
        for slot in host.slots() {
            let programs = entries::hook_programs(&settings, &slot);
            found.extend(programs.into_iter().map(|p| (p, path.clone())));
        }
    }
    if let Some((path, text)) = mcp {
        let program = match host {
            Host::Codex => entries::mcp_program_toml(&text),
            Host::Claude | Host::Gemini => json(&text).and_then(|c| entries::mcp_program_json(&c)),
        };
        found.extend(program.map(|p| (p, path)));
    }
    found
}

/// The programs `pi-ask setup` wrote into the hosts' hooks and MCP configs, checked as
/// [`program`] checks this one: a host runs them as the user, so one that someone else could
/// change (it, or a folder above it) is a problem, as is one that is not there.
pub fn installed_hooks() -> Vec<Finding> {
    let mut findings = Vec::new();
    for host in [Host::Claude, Host::Codex, Host::Gemini] {
        let mut seen: Vec<String> = Vec::new();
        for (program, file) in installed_programs(host) {
            if seen.contains(&program) {
                continue;
            }
            seen.push(program.clone());
            let path = Path::new(&program);
            let why = if path.is_absolute() {
                crate::ownership::program_changeable_because(path)
            } else {
                Some(format!(
                    "{program} is not a full path, so it is whatever comes first on the host's PATH"
                ))
            };
            findings.push(match why {
                None => finding("hooks", format!("{} runs {program}", host.name()), false),
                Some(why) => finding(
                    "hooks",
                    format!(
                        "{} runs {program} (written in {}): {why}; install pi-ask where only you can write and run `pi-ask setup {}` again",
                        host.name(),
                        shown(&file),
                        host.word()
                    ),
                    true,
                ),
            });
        }
    }
    if findings.is_empty() {
        findings.push(finding(
            "hooks",
            "no host runs pi-ask (`pi-ask setup claude|codex|gemini` registers it)".to_owned(),
            false,
        ));
    }
    findings
}

/// Prints every finding; done when none is a problem, not ready otherwise.
pub fn doctor(
    config_path: Option<&Path>,
    choice: &super::HistoryChoice,
    queue_dir: Option<&Path>,
) -> CommandOutcome {
    let mut findings = vec![config(config_path), history(choice)];
    findings.extend(queue(queue_dir));
    findings.extend(split_queues(queue_dir, |k| std::env::var(k).ok()));
    findings.push(terminal(std::env::var("TERM").ok().as_deref()));
    findings.push(program());
    findings.extend(installed_hooks());
    let mut problems = 0;
    for f in &findings {
        let mark = if f.problem { "!!" } else { "ok" };
        problems += usize::from(f.problem);
        crate::report::print_line(&format!(
            "{mark} {:<9} {}",
            format!("{}:", f.topic),
            crate::printable::printable(&f.text)
        ));
        for detail in &f.details {
            crate::report::print_line(&format!(
                "   {:<9} {}",
                "",
                crate::printable::printable(detail)
            ));
        }
    }
    CommandOutcome::done_if(problems == 0, CommandOutcome::NotReady)
}
