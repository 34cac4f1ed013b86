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

/// The most recently modified `.jsonl` in `dir` whose first line is a session header, as pi's
/// `--continue` picks it.
pub fn latest_session_in(dir: &Path) -> Result<PathBuf, String> {
    let shown = crate::paths::display(dir);
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("no pi sessions for this directory in {shown}: {e}"))?;
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
    best.map(|(_, p)| p)
        .ok_or_else(|| format!("no pi session files in {shown}"))
}

fn has_header(path: &Path) -> bool {
    use std::io::BufRead;
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut first = String::new();
    // A header is short; a huge first line is not one.
    let mut reader = std::io::BufReader::new(std::io::Read::take(file, 64 * 1024));
    reader.read_line(&mut first).is_ok() && super::header(first.trim_end()).is_some()
}
