//! Reading pi's session files (JSONL, read-only): the header, the entries, and the current branch
//! (the path from the last entry in file order back through `parentId`), as pi resumes them.
//! pi may be appending to a file while it is read, so it is never written, locked or renamed.

mod locate;
mod lookup;

pub use locate::{NoSession, encode_cwd, latest_session_in, sessions_dir};
pub use lookup::{
    AssistantTurn, BranchForm, DISMISSED_ENTRY, Missing, PAYLOAD_ENTRY, Pending, TurnError,
    latest_assistant_turn, latest_extracted_form, latest_tool_form, pending_call,
};

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// One entry line (every line after the header that parsed as a JSON object).
#[derive(Debug, Clone, PartialEq)]
pub struct SessionEntry {
    /// The entry's id.
    pub id: Option<String>,
    /// The entry it follows on its branch.
    pub parent_id: Option<String>,
    /// The entry `type` (`message`, `custom`, `compaction`, …; unknown types are kept).
    pub kind: String,
    /// The whole line as JSON.
    pub raw: Value,
}

impl SessionEntry {
    /// An entry from its JSON object (a session file's line, or what pi's `getBranch()` gives);
    /// `None` for anything but an object.
    pub fn from_value(raw: Value) -> Option<SessionEntry> {
        if !raw.is_object() {
            return None;
        }
        let text_of = |k: &str| raw.get(k).and_then(Value::as_str).map(str::to_owned);
        Some(SessionEntry {
            id: text_of("id"),
            parent_id: text_of("parentId"),
            kind: text_of("type").unwrap_or_default(),
            raw,
        })
    }

    /// The `message` object of a `message` entry.
    pub fn message(&self) -> Option<&Value> {
        (self.kind == "message")
            .then(|| self.raw.get("message"))
            .flatten()
    }

    /// The message role, for `message` entries.
    pub fn role(&self) -> Option<&str> {
        self.message()?.get("role")?.as_str()
    }

    /// The `data` of a `custom` entry of this `customType`.
    pub fn custom_data(&self, custom_type: &str) -> Option<&Value> {
        (self.kind == "custom"
            && self.raw.get("customType").and_then(Value::as_str) == Some(custom_type))
        .then(|| self.raw.get("data"))
        .flatten()
    }
}

/// A parsed session file.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionFile {
    /// Where the file is.
    pub path: PathBuf,
    /// The session's id (the header's `id`).
    pub id: String,
    /// The header's `version` (1 when absent: a linear list without a tree).
    pub version: u64,
    /// The working directory the session ran in, if the header says.
    pub cwd: Option<String>,
    /// Every entry line, in file order.
    pub entries: Vec<SessionEntry>,
    /// Lines that were not JSON objects (pi skips them too).
    pub skipped_lines: usize,
}

/// Why a session file could not be read.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SessionError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Unreadable {
        /// The file, as shown to a person.
        path: String,
        /// Why (shared, so the error stays `Clone`).
        #[source]
        source: std::sync::Arc<std::io::Error>,
    },
    /// The file is not a pi session (why).
    #[error("{0}")]
    NotASession(String),
}

/// Reads a session file.
pub fn read_session(path: &Path) -> Result<SessionFile, SessionError> {
    let shown = crate::paths::display(path);
    let bytes = crate::bounded_read::ReadRule::capped(crate::bounded_read::DOCUMENT_CAP)
        .read(path)
        .map_err(|refused| SessionError::Unreadable {
            path: shown.clone(),
            source: std::sync::Arc::new(refused.into()),
        })?;
    parse_session(&String::from_utf8_lossy(&bytes), path)
}

/// The session header of a first line: its id and version, when it is one.
pub(crate) fn header(line: &str) -> Option<(String, u64, Option<String>)> {
    let value: Value = serde_json::from_str(line).ok()?;
    if value.get("type")?.as_str()? != "session" {
        return None;
    }
    let id = value.get("id")?.as_str()?.to_owned();
    let version = value.get("version").and_then(Value::as_u64).unwrap_or(1);
    let cwd = value.get("cwd").and_then(Value::as_str).map(str::to_owned);
    Some((id, version, cwd))
}

/// Parses session text; `path` only names the file in errors and results.
pub fn parse_session(text: &str, path: &Path) -> Result<SessionFile, SessionError> {
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    let Some((id, version, cwd)) = header(first.trim_end_matches('\r')) else {
        return Err(SessionError::NotASession(format!(
            "{} is not a pi session file: its first line is not a session header ({{\"type\":\"session\",\"id\":…}})",
            crate::paths::display(path)
        )));
    };
    let mut entries = Vec::new();
    let mut skipped_lines = 0;
    for line in lines {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line)
            .ok()
            .and_then(SessionEntry::from_value)
        {
            Some(entry) => entries.push(entry),
            None => skipped_lines += 1,
        }
    }
    Ok(SessionFile {
        path: path.to_path_buf(),
        id,
        version,
        cwd,
        entries,
        skipped_lines,
    })
}

impl SessionFile {
    /// The current branch, root first. Version 1 files (no tree) are one linear branch; in a
    /// tree, the leaf is the last entry in file order that has an id, and the path follows
    /// `parentId` until a root or a missing parent (a cycle stops the walk too).
    pub fn branch(&self) -> Vec<&SessionEntry> {
        if self.version < 2 {
            return self.entries.iter().collect();
        }
        let by_id: HashMap<&str, &SessionEntry> = self
            .entries
            .iter()
            .filter_map(|e| Some((e.id.as_deref()?, e)))
            .collect();
        let mut path = Vec::new();
        let mut seen = HashSet::new();
        let mut next = self.entries.iter().rev().find(|e| e.id.is_some());
        while let Some(entry) = next {
            if !seen.insert(entry.id.as_deref()) {
                break;
            }
            path.push(entry);
            next = entry
                .parent_id
                .as_deref()
                .and_then(|p| by_id.get(p).copied());
        }
        path.reverse();
        path
    }
}
