//! `pi-ask setup claude [--print] [--remove] [--settings FILE]`: registers `pi-ask hook claude`
//! in Claude Code's settings (or removes it), changing nothing else in the file; `--print` shows
//! the file as it would be and writes nothing.

use std::path::{Path, PathBuf};

use super::Ended;
use crate::hooks::setup::{self, Change};
use crate::report::{CommandOutcome, report};

/// The hook's own timeout in Claude Code's settings: above `pi-ask hook claude --wait` (590 s).
const HOOK_TIMEOUT: u64 = 600;

/// Why the settings were left alone.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// No home folder to find Claude Code's settings in.
    #[error("no home folder: give --settings FILE")]
    NoHome,
    /// The settings cannot be read (too large, not text, not a regular file).
    #[error("cannot read {path}: {why}")]
    Unreadable {
        /// The file.
        path: String,
        /// Why.
        why: crate::bounded_read::ReadRefused,
    },
    /// The settings are not JSON.
    #[error("{path} is not JSON ({why}); fix it by hand, pi-ask leaves it as it is")]
    NotJson {
        /// The file.
        path: String,
        /// Where and why.
        why: serde_json::Error,
    },
    /// The settings have another shape where the entry goes.
    #[error("{path}: {why}")]
    Unfit {
        /// The file.
        path: String,
        /// What.
        why: setup::Unfit,
    },
    /// The settings cannot be written.
    #[error("cannot write {path}: {why}")]
    Unwritable {
        /// The file.
        path: String,
        /// Why.
        why: std::io::Error,
    },
}

/// The command that runs this pi-ask as the hook, quoted for the shell Claude Code runs it in.
fn hook_command() -> String {
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "pi-ask".to_owned());
    format!("'{}' hook claude", exe.replace('\'', r"'\''"))
}

/// `pi-ask setup claude`.
pub fn claude(settings: Option<PathBuf>, print: bool, remove: bool) -> Ended {
    let path = match settings {
        Some(path) => path,
        None => std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(|h| Path::new(&h).join(".claude/settings.json"))
            .ok_or(SetupError::NoHome)?,
    };
    // A settings file that is a link (dotfiles) is edited where it points, so the link stays.
    let target = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
    let shown = crate::paths::display(&target);
    let rule = crate::bounded_read::ReadRule::capped(crate::bounded_read::CONFIG_CAP);
    let text = match rule.read_text(&target) {
        Ok(text) => Some(text),
        Err(why) if why.is_missing() => None,
        Err(why) => return Err(SetupError::Unreadable { path: shown, why }.into()),
    };
    let mut value = match &text {
        Some(text) if !text.trim().is_empty() => {
            serde_json::from_str(text).map_err(|why| SetupError::NotJson {
                path: shown.clone(),
                why,
            })?
        }
        _ => serde_json::json!({}),
    };
    let command = hook_command();
    let change = if remove {
        setup::unregister(&mut value)
    } else {
        setup::register(&mut value, &command, HOOK_TIMEOUT)
    }
    .map_err(|why| SetupError::Unfit {
        path: shown.clone(),
        why,
    })?;
    let pretty = serde_json::to_string_pretty(&value).unwrap_or_default() + "\n";
    if print {
        // The settings are the person's file, but a terminal reads it: shown as print_json would.
        crate::report::print_line(&crate::printable::json_for_stdout(&pretty));
        return Ok(CommandOutcome::Done);
    }
    match (change, remove) {
        (Change::AlreadySo, false) => {
            report(&format!("Claude Code already runs pi-ask's hook ({shown})"));
            return Ok(CommandOutcome::Done);
        }
        (Change::AlreadySo, true) => {
            report(&format!(
                "pi-ask's hook is not in {shown}; nothing to remove"
            ));
            return Ok(CommandOutcome::Done);
        }
        (Change::Changed, _) => {}
    }
    if let Some(folder) = target.parent() {
        let _ = std::fs::create_dir_all(folder);
    }
    crate::atomic::write(
        &target,
        pretty.as_bytes(),
        crate::atomic::Permissions::KeepExisting,
    )
    .map_err(|why| SetupError::Unwritable {
        path: shown.clone(),
        why,
    })?;
    if remove {
        report(&format!("removed pi-ask's hook from {shown}"));
    } else {
        report(&format!(
            "Claude Code's AskUserQuestion now goes to pi-ask ({shown}): answer it in `pi-ask inbox` or `pi-ask serve`; undo with `pi-ask setup claude --remove`"
        ));
    }
    Ok(CommandOutcome::Done)
}
