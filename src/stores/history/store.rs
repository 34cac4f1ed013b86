//! The history file: appends of one fsync'd line under a lock, a reader that skips torn or
//! unknown lines, and compaction that keeps the newest asks.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Event, History};
use crate::bounded_read::{self, ReadRule};

/// How many asks compaction keeps (the newest ones, whatever their status).
pub const KEEP_ASKS: usize = 200;
/// Compaction runs once the file holds this many asks, so it is rare.
const COMPACT_AT: usize = KEEP_ASKS + KEEP_ASKS / 4;
/// Drafts are written while a form is open; past this many, a compaction keeps only the newest
/// draft of each ask still open or interrupted.
const COMPACT_DRAFTS_AT: usize = 500;
/// A file past this many bytes is compacted too (drafts and ends of many big forms).
const COMPACT_BYTES_AT: u64 = 16 * 1024 * 1024;
/// A payload or result larger than this is kept in a file of its own beside the history
/// (`blobs/<id>.payload.json`), with only a reference in the history line, so the history that
/// every start reads stays small whatever was asked.
pub const INLINE_MAX_BYTES: usize = 256 * 1024;
/// The key of such a reference: `{"piAskBlob": "<file name>", "bytes": N}`.
pub const BLOB_KEY: &str = "piAskBlob";
/// The newest session dismissals kept.
const KEEP_SESSION_DISMISSALS: usize = 1000;

/// `$PI_ASK_HISTORY`, else `history.jsonl` in pi-ask's state folder under pi's agent directory
/// (`~/.pi/agent/pi-ask/`, following `PI_CODING_AGENT_DIR`). `None` without a home directory.
pub fn default_history_path(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(path) = env("PI_ASK_HISTORY").filter(|p| !p.is_empty()) {
        return Some(crate::paths::absolute(Path::new(&path)));
    }
    let agent = crate::stores::config::agent_dir(&env, crate::stores::config::passwd_home)?;
    Some(agent.join("pi-ask").join("history.jsonl"))
}

/// The history file of one user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryStore {
    path: PathBuf,
}

/// An exclusive `flock` on the lock file beside the history, released on drop.
struct Lock(File);

impl Drop for Lock {
    fn drop(&mut self) {
        // SAFETY: the descriptor is open for as long as `self.0` lives.
        unsafe { libc::flock(self.0.as_raw_fd(), libc::LOCK_UN) };
    }
}

impl HistoryStore {
    /// The history file at `path` (created at the first append).
    pub fn new(path: impl Into<PathBuf>) -> HistoryStore {
        HistoryStore { path: path.into() }
    }

    /// Where the file is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn lock_path(&self) -> PathBuf {
        let mut name = self.path.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        self.path.with_file_name(name)
    }

    /// The history's folder: created 0700, and refused when others can write it (they could
    /// rewrite what `resume` reopens or plant a link where the history is written).
    fn ensure_dir(&self) -> io::Result<()> {
        match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => {
                Ok(crate::private_dir::ensure_private_dir(dir)?)
            }
            _ => Ok(()),
        }
    }

    fn lock(&self) -> io::Result<Lock> {
        self.ensure_dir()?;
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(self.lock_path())?;
        loop {
            // SAFETY: flock on a descriptor we own.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
                return Ok(Lock(file));
            }
            let err = io::Error::last_os_error();
            if err.kind() != io::ErrorKind::Interrupted {
                return Err(err);
            }
        }
    }

    /// Appends one event as one line and waits until it is on disk. A torn last line left by a
    /// crash is closed first, so it cannot swallow this one.
    pub fn append(&self, event: &Event) -> io::Result<()> {
        let _lock = self.lock()?;
        self.append_locked(event)
    }

    fn append_locked(&self, event: &Event) -> io::Result<()> {
        // Never blocks on a FIFO planted at the name, and writes only into a regular file.
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .mode(0o600)
            .custom_flags(libc::O_NONBLOCK)
            .open(&self.path)?;
        if !file.metadata()?.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the history is not a regular file",
            ));
        }
        let mut line = serde_json::to_string(event).map_err(io::Error::other)?;
        line.push('\n');
        let len = file.metadata()?.len();
        if len > 0 {
            let mut last = [0u8; 1];
            file.seek(SeekFrom::Start(len - 1))?;
            file.read_exact(&mut last)?;
            if last[0] != b'\n' {
                line.insert(0, '\n');
            }
        }
        // One write of the whole line: O_APPEND puts it at the end even if another process
        // appended meanwhile (the lock makes that impossible among pi-asks anyway).
        file.write_all(line.as_bytes())?;
        file.sync_data()
    }

    /// The folder of payloads and results too big to keep inline.
    pub(super) fn blob_dir(&self) -> PathBuf {
        self.path.parent().unwrap_or(Path::new(".")).join("blobs")
    }

    /// `value` as the history keeps it: itself, or (over [`INLINE_MAX_BYTES`]) a reference to
    /// `blobs/<id>.<kind>.json`, written atomically in a private folder.
    pub fn stored(&self, value: &Value, id: &str, kind: &str) -> io::Result<Value> {
        let bytes = serde_json::to_vec(value).map_err(io::Error::other)?;
        if bytes.len() <= INLINE_MAX_BYTES {
            return Ok(value.clone());
        }
        let dir = self.blob_dir();
        crate::private_dir::ensure_private_dir(&dir)?;
        let name = format!("{id}.{kind}.json");
        crate::atomic::write(
            &dir.join(&name),
            &bytes,
            crate::atomic::Permissions::Private,
        )?;
        Ok(serde_json::json!({ BLOB_KEY: name, "bytes": bytes.len() }))
    }

    /// A value as recorded (ask `id`'s `kind`: `payload` or `result`), its blob read back when
    /// it is a reference to that ask's own blob.
    pub fn resolve(&self, value: &Value, id: &str, kind: &str) -> io::Result<Value> {
        let Some(name) = blob_name(value, id, kind) else {
            return Ok(value.clone());
        };
        let bytes = ReadRule::capped(bounded_read::DOCUMENT_CAP)
            .no_links()
            .read(&self.blob_dir().join(name))?;
        serde_json::from_slice(&bytes).map_err(io::Error::other)
    }

    /// Reads the history. A missing file is an empty history; a history in a folder others can
    /// write is refused (what it says could have been planted).
    pub fn read(&self) -> io::Result<History> {
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty())
            && dir.exists()
        {
            crate::private_dir::check_private_dir(dir)?;
        }
        match ReadRule::capped(bounded_read::HISTORY_CAP).read(&self.path) {
            Ok(bytes) => Ok(parse_history(&bytes)),
            Err(e) if e.is_missing() => Ok(History::default()),
            Err(e) => Err(e.into()),
        }
    }

    /// Keeps the newest [`KEEP_ASKS`] asks once the file holds more than a quarter more than
    /// that. Returns whether it rewrote the file (atomically: a temp file renamed over it).
    pub fn compact_if_large(&self) -> io::Result<bool> {
        let _lock = self.lock()?;
        if let Some(dir) = self.path.parent() {
            crate::atomic::remove_leftovers(dir);
        }
        let bytes = match ReadRule::capped(bounded_read::HISTORY_CAP).read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.is_missing() => return Ok(false),
            // Too large to read whole (a history grown while compaction failed, or planted):
            // its newest part is kept, so the bound holds again from the next start.
            Err(bounded_read::ReadRefused::TooLarge { .. }) => self.newest_part()?,
            Err(e) => return Err(e.into()),
        };
        let events = parse_events(&bytes).0;
        let opened = events
            .iter()
            .filter(|e| matches!(e, Event::Open(_)))
            .count();
        let drafts = events
            .iter()
            .filter(|e| matches!(e, Event::Progress { .. }))
            .count();
        if opened < COMPACT_AT
            && drafts < COMPACT_DRAFTS_AT
            && (bytes.len() as u64) < COMPACT_BYTES_AT
        {
            return Ok(false);
        }
        let kept = compacted(events, KEEP_ASKS);
        self.remove_unreferenced_blobs(&kept);
        let mut text = String::new();
        for event in &kept {
            text.push_str(&serde_json::to_string(event).map_err(io::Error::other)?);
            text.push('\n');
        }
        // A history that is a link is rewritten where it points, never replaced by a file.
        let target = std::fs::canonicalize(&self.path).unwrap_or_else(|_| self.path.clone());
        crate::atomic::write(
            &target,
            text.as_bytes(),
            crate::atomic::Permissions::Private,
        )?;
        Ok(true)
    }

    /// The newest half of [`bounded_read::HISTORY_CAP`] of the history, from its first whole
    /// line (what compaction keeps of a history too large to read).
    fn newest_part(&self) -> io::Result<Vec<u8>> {
        let mut file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(&self.path)?;
        if !file.metadata()?.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the history is not a regular file",
            ));
        }
        let keep = bounded_read::HISTORY_CAP / 2;
        file.seek(SeekFrom::End(-(keep as i64)))?;
        let mut bytes = bounded_read::read_stream(file, keep, keep)?;
        let first_line = bytes
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| i + 1);
        bytes.drain(..first_line);
        Ok(bytes)
    }

    /// Removes the blobs no kept event refers to (only names pi-ask writes there).
    fn remove_unreferenced_blobs(&self, kept: &[Event]) {
        let mut referenced: std::collections::HashSet<&str> = kept
            .iter()
            .flat_map(|e| match e {
                Event::Open(o) => blob_name(&o.payload, &o.id, "payload"),
                Event::End(e) => blob_name(&e.result, &e.id, "result"),
                _ => None,
            })
            .collect();
        let mut texts = Vec::new();
        for event in kept {
            if let Event::Progress { id, draft, .. } = event {
                super::draft_texts::referenced(draft, id, &mut texts);
            }
        }
        referenced.extend(texts);
        let Ok(entries) = std::fs::read_dir(self.blob_dir()) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let ours = name.ends_with(".payload.json")
                || name.ends_with(".result.json")
                || name
                    .split_once('.')
                    .is_some_and(|(id, _)| super::draft_texts::is_text_of(&name, id));
            if ours && !referenced.contains(name.as_str()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// The blob a recorded value of ask `id` (its `kind`) refers to, if it is a reference: exactly
/// `{"piAskBlob": "<id>.<kind>.json", "bytes": N}`, as [`HistoryStore::stored`] writes it. A
/// payload that merely holds a `piAskBlob` key (or names another ask's blob) is a value, never a
/// way to show another ask's form.
pub fn blob_name<'a>(value: &'a Value, id: &str, kind: &str) -> Option<&'a str> {
    let object = value.as_object()?;
    if object.len() != 2 || !object.get("bytes").is_some_and(Value::is_u64) {
        return None;
    }
    let name = object.get(BLOB_KEY)?.as_str()?;
    (crate::stores::queue::is_valid_id(id) && name == format!("{id}.{kind}.json")).then_some(name)
}

/// The events to keep: those of the newest `keep` asks, and the newest session dismissals.
pub(crate) fn compacted(events: Vec<Event>, keep: usize) -> Vec<Event> {
    let opened: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Open(o) => Some(o.id.as_str()),
            _ => None,
        })
        .collect();
    let kept_ids: std::collections::HashSet<String> = opened[opened.len().saturating_sub(keep)..]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let session_dismissals = events
        .iter()
        .filter(|e| matches!(e, Event::Dismiss(d) if d.session_id.is_some()))
        .count();
    let mut skip_session = session_dismissals.saturating_sub(KEEP_SESSION_DISMISSALS);
    // Only the newest draft of an ask is ever read; an ended ask needs none.
    let finished: std::collections::HashSet<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::End(e) if e.status != super::Status::Interrupted => Some(e.id.clone()),
            _ => None,
        })
        .collect();
    let mut newest_progress: std::collections::HashMap<String, usize> = Default::default();
    for (i, e) in events.iter().enumerate() {
        if let Event::Progress { id, .. } = e {
            newest_progress.insert(id.clone(), i);
        }
    }
    events
        .into_iter()
        .enumerate()
        .filter(|(i, e)| match e {
            Event::Progress { id, .. } => {
                newest_progress.get(id) == Some(i)
                    && kept_ids.contains(id)
                    && !finished.contains(id)
            }
            _ => true,
        })
        .map(|(_, e)| e)
        .filter(|e| match e {
            Event::Dismiss(d) if d.session_id.is_some() && d.id.is_none() => {
                if skip_session > 0 {
                    skip_session -= 1;
                    false
                } else {
                    true
                }
            }
            other => other.ask_id().is_some_and(|id| kept_ids.contains(id)),
        })
        .collect()
}

/// Events of a history file and how many lines were skipped. Only lines ended by `\n` count: a
/// last line without one was torn by a crash mid-write.
pub(crate) fn parse_events(bytes: &[u8]) -> (Vec<Event>, usize) {
    let complete = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) => &bytes[..end],
        None => &[][..],
    };
    let torn = usize::from(bytes.last().is_some_and(|&b| b != b'\n'));
    let mut skipped = torn;
    let mut events = Vec::new();
    for line in complete.split(|&b| b == b'\n') {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<Event>(line) {
            Ok(event) => events.push(event),
            Err(_) => skipped += 1,
        }
    }
    (events, skipped)
}

/// Parses a whole history file.
pub fn parse_history(bytes: &[u8]) -> History {
    let (events, skipped) = parse_events(bytes);
    let mut history = History::from_events(events);
    history.skipped_lines = skipped;
    history
}
