//! Whether a config file may run commands. The config holds command channels (`sh -c`) and the
//! answer extractor: whoever can write the file, or replace it in its folder, chooses commands
//! that run as the user. A config that is not the user's (or root's), or that others can write
//! or replace, still applies, but without its commands.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// The fix when the file or its folder is another user's.
const OWN_FILE: &str = "keep the config in a file and folder only you can write";

/// Why others could change what the config at `path` runs, and the fix (`run chmod …`), or
/// `None` when only the user (or root) can. A link is followed: the file it leads to and that file's folder are checked, and
/// the folder holding the link too.
pub fn shared_because(path: &Path) -> Option<(String, String)> {
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let trusted_owner = |uid: u32| uid == me || uid == 0;
    let shown = |p: &Path| crate::printable::printable(&crate::paths::display(p));
    let real = std::fs::canonicalize(path).ok()?;
    let file = std::fs::metadata(&real).ok()?;
    if !trusted_owner(file.uid()) {
        return Some((
            format!(
                "{} belongs to another user (uid {})",
                shown(&real),
                file.uid()
            ),
            OWN_FILE.to_owned(),
        ));
    }
    if file.mode() & 0o022 != 0 {
        return Some((
            format!(
                "{} can be written by others (mode {:o})",
                shown(&real),
                file.mode() & 0o7777
            ),
            format!("run `chmod go-w {}`", shown(&real)),
        ));
    }
    let mut folders = vec![real.parent().map(Path::to_path_buf)];
    folders.push(crate::paths::absolute(path).parent().map(Path::to_path_buf));
    for folder in folders.into_iter().flatten() {
        let Ok(meta) = std::fs::metadata(&folder) else {
            continue;
        };
        let sticky = meta.mode() & 0o1000 != 0;
        if !trusted_owner(meta.uid()) {
            return Some((
                format!(
                    "its folder {} belongs to another user (uid {})",
                    shown(&folder),
                    meta.uid()
                ),
                OWN_FILE.to_owned(),
            ));
        }
        if meta.mode() & 0o022 != 0 && !sticky {
            return Some((
                format!(
                    "its folder {} can be written by others (mode {:o}), who could replace it",
                    shown(&folder),
                    meta.mode() & 0o7777
                ),
                format!("run `chmod go-w {}`", shown(&folder)),
            ));
        }
    }
    None
}

/// Takes the commands out of a config others could change: its command channels and its answer
/// extractor. Returns what was taken, for the notice.
pub fn without_commands(config: &mut super::Config) -> Vec<&'static str> {
    let mut taken = Vec::new();
    let before = config.notifications.channels.len();
    config
        .notifications
        .channels
        .retain(|c| !matches!(c, super::Channel::Command(_)));
    if config.notifications.channels.len() != before {
        taken.push("command notifications");
    }
    if !config.answer.extractor.is_empty() {
        config.answer.extractor.clear();
        taken.push("answer extractor");
    }
    taken
}
