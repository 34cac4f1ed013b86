//! Finding a directory's newest pi session (`--session latest`).

use std::path::{Path, PathBuf};

/// pi's folder name for a working directory: one leading `/` or `\` dropped, then every `/`,
/// `\` and `:` replaced by `-`, wrapped in `--…--` (`/home/u/proj` → `--home-u-proj--`).
pub fn encode_cwd(cwd: &str) -> String {
    let trimmed = cwd
        .strip_prefix('/')
        .or_else(|| cwd.strip_prefix('\\'))
        .unwrap_or(cwd);
    let encoded: String = trimmed
        .chars()
        .map(|c| {
            if matches!(c, '/' | '\\' | ':') {
                '-'
            } else {
                c
            }
        })
        .collect();
    format!("--{encoded}--")
}

/// The folder of `cwd`'s sessions under pi's agent directory.
pub fn sessions_dir(agent_dir: &Path, cwd: &str) -> PathBuf {
    agent_dir.join("sessions").join(encode_cwd(cwd))
}

/// Why no session was found for `--session latest`.
#[derive(Debug, thiserror::Error)]
pub enum NoSession {
    /// The folder of the directory's sessions cannot be read (the folder as shown).
    #[error("no pi sessions for this directory in {folder}: {source}")]
    NoFolder {
        /// The folder, as shown to people.
        folder: String,
        /// Why it cannot be read.
        source: std::io::Error,
    },
    /// The folder has no session file.
    #[error("no pi session files in {0}")]
    NoFiles(String),
    /// There is no home folder to find pi's sessions in.
    #[error("no home directory, so pi's sessions cannot be found; give --session FILE")]
    NoHome,
}

/// The most recently modified `.jsonl` in `dir` whose first line is a session header, as pi's
/// `--continue` picks it.
pub fn latest_session_in(dir: &Path) -> Result<PathBuf, NoSession> {
    let shown = crate::paths::display(dir);
    let entries = std::fs::read_dir(dir).map_err(|source| NoSession::NoFolder {
        folder: shown.clone(),
        source,
    })?;
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let Ok(modified) = entry.metadata().and_then(|m| m.modified()) else {
            continue;
        };
        if best.as_ref().is_some_and(|(t, _)| *t >= modified) || !has_header(&path) {
            continue;
        }
        best = Some((modified, path));
    }
    best.map(|(_, p)| p).ok_or(NoSession::NoFiles(shown))
}

fn has_header(path: &Path) -> bool {
    use std::io::BufRead;
    use std::os::unix::fs::OpenOptionsExt;
    // Non-blocking and regular only: a FIFO named `*.jsonl` must not hang the search.
    let Ok(file) = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
    else {
        return false;
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut first = String::new();
    // A header is short; a huge first line is not one.
    let mut reader = std::io::BufReader::new(std::io::Read::take(file, 64 * 1024));
    reader.read_line(&mut first).is_ok() && super::header(first.trim_end()).is_some()
}
