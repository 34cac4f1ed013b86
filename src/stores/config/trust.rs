//! Whether a config file may run commands. The config holds command channels (`sh -c`) and the
//! answer extractor: whoever can write the file, or replace it in its folder, chooses commands
//! that run as the user. A config that is not the user's (or root's), or that others can write
//! or replace, still applies, but without its commands.

use std::path::Path;

use crate::ownership::{OthersCan, others_can_change};

/// The fix when the file or its folder is another user's.
const OWN_FILE: &str = "keep the config in a file and folder only you can write";

/// Why others could change what the config at `path` runs, and the fix (`run chmod …`), or
/// `None` when only the user (or root) can. A link is followed: the file it leads to and that
/// file's folder are checked, and the folder holding the link too.
pub fn shared_because(path: &Path) -> Option<(String, String)> {
    let shown = |p: &Path| crate::printable::printable(&crate::paths::display(p));
    let real = std::fs::canonicalize(path).ok()?;
    let absolute = crate::paths::absolute(path);
    // The file's own bits count whatever its folder; a sticky folder keeps others from
    // replacing what is in it.
    let mut checked = vec![(shown(&real), real.clone(), false)];
    for folder in [real.parent(), absolute.parent()].into_iter().flatten() {
        checked.push((
            format!("its folder {}", shown(folder)),
            folder.to_path_buf(),
            true,
        ));
    }
    for (named, at, is_folder) in checked {
        let Ok(meta) = std::fs::metadata(&at) else {
            continue;
        };
        return Some(match others_can_change(&meta, is_folder) {
            None => continue,
            Some(OthersCan::Own(owner)) => (
                format!("{named} belongs to another user (uid {owner})"),
                OWN_FILE.to_owned(),
            ),
            Some(OthersCan::Write(mode)) => (
                format!(
                    "{named} can be written by others (mode {mode:o}){}",
                    if is_folder {
                        ", who could replace it"
                    } else {
                        ""
                    }
                ),
                format!("run `chmod go-w {}`", shown(&at)),
            ),
        });
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
