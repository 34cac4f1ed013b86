//! The per-user queue of pending asks (for `pi-ask mcp` and `pi-ask inbox`): one file per ask in a
//! private folder, written atomically, claimed by an atomic rename, answered by an atomic write.
//!
//! | file | meaning |
//! |---|---|
//! | `<id>.ask.json` | waiting for an inbox |
//! | `<id>.claim.<pid>.<start>.json` | shown by the inbox process `pid` (started at `start`) |
//! | `<id>.result.json` | answered: the whole result, for the asker to take |
//! | `<id>.withdrawn` | the asker gave up (cancelled, timed out) |
//! | `<id>.settled` | the ask's outcome is decided: created exclusively by whichever comes first, the inbox's answer or the asker's withdrawal, so exactly one of them happens |
//! | `inbox.<pid>.<start>.watching` | an inbox watches this queue |
//! | `inbox.<pid>.<start>.elsewhere` | (in the home's default queue) an inbox watches the queue this file names instead: `PI_ASK_QUEUE` was set in its shell, so a server started without it is told where the inbox is |
//! | `<id>.later` | an inbox's person left the ask for later (empty; its time orders the marks), so a restarted inbox lists it last again |
//!
//! Renames are atomic, so two inboxes never claim the same ask; a claim whose process is gone is
//! stale and goes back to the queue, so an inbox killed mid-form loses nothing.

pub mod listing;
mod store;
pub mod waiter;

pub use store::{AskQueue, SharedQueue};

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bounded_read::{ReadRefused, ReadRule};
use crate::liveness::{ProcessId, process_is_alive};

/// One pending ask.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueuedAsk {
    /// The ask's id (a UUID), its file name.
    pub id: String,
    /// Unix milliseconds.
    pub created_at: u64,
    /// Who asked: the MCP client's name (and version), or the program's.
    pub client: String,
    /// The asker's working directory (where `@` looks).
    pub cwd: String,
    /// The process waiting for the answer.
    pub asker: ProcessId,
    /// The `ask_user` payload.
    pub payload: Value,
}

/// What became of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// The asker gets it.
    Delivered,
    /// The asker had already stopped waiting (its time limit passed, or it was cancelled).
    TooLate,
}

/// An answer that could not be delivered (a full disk, an unwritable folder).
#[derive(Debug, thiserror::Error)]
#[error("{why}")]
pub struct NotDelivered {
    /// Why.
    #[source]
    pub why: io::Error,
    /// Whether the ask went back to the queue (else it is lost to every inbox and the asker's
    /// deadline ends it).
    pub released: bool,
}

/// What became of a withdrawal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Withdrawal {
    /// The ask was taken back before any inbox answered.
    Withdrawn,
    /// An inbox answered first: the answer is there (or arrives in a moment) to be taken.
    AlreadyAnswered,
}

/// Why an asker took its ask back (what `<id>.withdrawn` holds, so an inbox that had it open can
/// say which).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WithdrawnBecause {
    /// The call was cancelled, timed out, or its client went (the file is empty).
    CallEnded,
    /// The person answered in the agent host's own form first.
    AnsweredInHostForm,
}

/// The mark `<id>.withdrawn` holds when the host's form answered first.
const ANSWERED_IN_HOST_FORM: &[u8] = b"answered in the host's form\n";

/// How long an asker whose withdrawal lost the race waits for the answer file that won it.
pub const SETTLED_ANSWER_GRACE: Duration = Duration::from_secs(3);

/// Why a queue entry is not an ask (it is moved aside, and the reason said once).
#[derive(Debug, thiserror::Error)]
enum BadAsk {
    /// Not a regular file of this user, too large, or unreadable.
    #[error(transparent)]
    Unreadable(#[from] ReadRefused),
    /// Not an ask's JSON.
    #[error(transparent)]
    NotAnAsk(#[from] serde_json::Error),
    /// Its `id` is not the one its file name gives (`says` made printable).
    #[error("it says it is ask {says}, but its name says {name}")]
    WrongId { says: String, name: String },
}

/// A claimed ask: the inbox that holds it must answer or release it.
#[derive(Debug)]
pub struct Claim {
    /// The ask.
    pub ask: QueuedAsk,
    /// What the backend that made the claim knows it by (the folder: the claim file's name), so
    /// a claim carries nothing of one backend's shape to the drivers.
    held: String,
}

impl Claim {
    /// A claim a backend made, which it knows by `held` (another backend's claim means nothing
    /// to it).
    pub fn new(ask: QueuedAsk, held: impl Into<String>) -> Claim {
        Claim {
            ask,
            held: held.into(),
        }
    }

    /// What the backend that made the claim knows it by.
    pub fn held(&self) -> &str {
        &self.held
    }
}

pub use crate::stores::config::DEFAULT_MAX_ASK_BYTES;

/// How the queue's files are read: regular files of this user, never through a link (in a
/// private folder, anything else was planted). The cap is set per kind of entry.
const ENTRY: ReadRule = ReadRule::capped(0).no_links().mine_only();

/// The queue folder.
#[derive(Debug, Clone)]
pub struct Queue {
    dir: PathBuf,
    max_bytes: u64,
    /// Asks already read, by file name, with the size and time they had: an unchanged file is
    /// not read again on every look.
    seen: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, Seen>>>,
}

#[derive(Debug, Clone)]
struct Seen {
    len: u64,
    modified: Option<std::time::SystemTime>,
    ask: QueuedAsk,
}

impl PartialEq for Queue {
    fn eq(&self, other: &Queue) -> bool {
        self.dir == other.dir
    }
}

impl Eq for Queue {}

/// Whether `id` is an ask id pi-ask would write: 1 to 64 letters, digits, `-` or `_` (so it can
/// name no other folder, and no file of anyone else's).
pub fn is_valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Whether `id` has the form of the ids [`new_id`] makes (16 lowercase hex digits): the only
/// names housekeeping removes, so a file that merely looks like a queue file (`notes.result.json`
/// in a folder given as `--queue`) is never deleted.
pub fn is_generated_id(id: &str) -> bool {
    id.len() == 16
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Whether `name` is a leftover name pi-ask writes: `<id>.withdrawn`, `<id>.settled`,
/// `<id>.result.json`, or a set-aside `<id>.ask.json.bad` / `<id>.claim.<pid>.<start>.json.bad`.
fn is_swept_name(name: &str) -> bool {
    let Some((id, rest)) = name.split_once('.') else {
        return false;
    };
    if !is_generated_id(id) {
        return false;
    }
    let rest = format!(".{rest}");
    if [".withdrawn", ".settled", ".result.json", ".ask.json.bad"].contains(&rest.as_str()) {
        return true;
    }
    claimer(name.strip_suffix(".bad").unwrap_or_default()).is_some_and(|(claimed, _)| claimed == id)
}

/// The queue every pi-ask process of a user finds: `$PI_ASK_QUEUE` when set, else
/// `~/.pi/agent/pi-ask/queue` in the user's home (`$HOME`, else the passwd entry).
///
/// It deliberately depends on nothing an MCP host strips: the official MCP SDKs start a server
/// with only `HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM` and `USER`, so a queue under
/// `$XDG_RUNTIME_DIR` (or a moved `$PI_CODING_AGENT_DIR`) was a different folder for the server
/// than for an inbox started in a shell, and the ask was never seen.
pub fn default_queue_dir(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(dir) = env("PI_ASK_QUEUE").filter(|d| !d.is_empty()) {
        return Some(crate::paths::absolute(Path::new(&dir)));
    }
    let home = env("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(crate::stores::config::passwd_home)?;
    Some(crate::paths::absolute(
        &home.join(".pi").join("agent").join("pi-ask").join("queue"),
    ))
}

/// The home's default queue (`~/.pi/agent/pi-ask/queue`) whatever `PI_ASK_QUEUE` says: where a
/// server a host starts with a stripped environment queues its asks.
pub fn home_queue_dir(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    default_queue_dir(|k| if k == "PI_ASK_QUEUE" { None } else { env(k) })
}

/// Where earlier versions queued asks in this environment (`$XDG_RUNTIME_DIR/pi-ask/queue`, and
/// `$PI_CODING_AGENT_DIR/pi-ask/queue`), other than `primary`: an inbox watches them too, so
/// an ask an older server queued there is not stranded. Only folders that exist are named.
pub fn earlier_queue_dirs(env: impl Fn(&str) -> Option<String>, primary: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(run) = env("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        dirs.push(Path::new(&run).join("pi-ask").join("queue"));
    }
    if env("PI_CODING_AGENT_DIR").is_some_and(|d| !d.is_empty())
        && let Some(agent) =
            crate::stores::config::agent_dir(&env, crate::stores::config::passwd_home)
    {
        dirs.push(agent.join("pi-ask").join("queue"));
    }
    let mut seen = vec![crate::paths::absolute(primary)];
    dirs.into_iter()
        .map(|d| crate::paths::absolute(&d))
        .filter(|d| d.is_dir())
        .filter(|d| {
            let new = !seen.contains(d);
            seen.push(d.clone());
            new
        })
        .collect()
}

fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    crate::atomic::write(&dir.join(name), bytes, crate::atomic::Permissions::Private)
}

/// An inbox's announcement that it watches a queue: the file `inbox.<pid>.<start>.watching`,
/// removed when this is dropped (a killed inbox's file is recognised by its dead process).
#[derive(Debug)]
pub struct InboxPresence {
    path: PathBuf,
}

impl Drop for InboxPresence {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The inbox process a presence file's name names (`inbox.<pid>.<start>.watching`, or
/// `.elsewhere`).
fn inbox_process(name: &str) -> Option<ProcessId> {
    let rest = name.strip_prefix("inbox.")?;
    let rest = rest
        .strip_suffix(".watching")
        .or_else(|| rest.strip_suffix(".elsewhere"))?;
    let (pid, start) = rest.split_once('.')?;
    Some(ProcessId {
        pid: pid.parse().ok()?,
        start: start.parse().ok().filter(|s| *s != 0),
        boot: None,
    })
}

impl Queue {
    /// Announces that this process's inbox watches the queue, until the presence is dropped.
    pub fn announce_inbox(&self) -> io::Result<InboxPresence> {
        let me = ProcessId::current();
        let path = self.dir.join(format!(
            "inbox.{}.{}.watching",
            me.pid,
            me.start.unwrap_or(0)
        ));
        crate::atomic::write(&path, b"", crate::atomic::Permissions::Private)?;
        Ok(InboxPresence { path })
    }

    /// Announces that this process serves the queue's asks as a web page at `origin` (its
    /// address, never its sign-in token), until the presence is dropped. It counts as an inbox
    /// watching: an asker queues its asks for it as for a terminal inbox.
    pub fn announce_web(&self, origin: &str) -> io::Result<InboxPresence> {
        let me = ProcessId::current();
        let path = self.dir.join(format!(
            "inbox.{}.{}.watching",
            me.pid,
            me.start.unwrap_or(0)
        ));
        crate::atomic::write(
            &path,
            origin.as_bytes(),
            crate::atomic::Permissions::Private,
        )?;
        Ok(InboxPresence { path })
    }

    /// The web pages serving this queue now (`pi-ask serve`): each server's process and address.
    pub fn web_pages(&self) -> Vec<(ProcessId, String)> {
        let mut pages = Vec::new();
        for name in self.names() {
            if !name.ends_with(".watching") {
                continue;
            }
            let Some(process) = inbox_process(&name) else {
                continue;
            };
            if !process_is_alive(&process) {
                continue;
            }
            let Ok(bytes) = ENTRY.with_cap(512).read(&self.dir.join(&name)) else {
                continue;
            };
            let origin = String::from_utf8_lossy(&bytes).trim().to_owned();
            if origin.starts_with("http://") {
                pages.push((process, crate::printable::printable(&origin)));
            }
        }
        pages
    }

    /// The inboxes watching the queue now: their processes are alive and not stopped (an inbox
    /// suspended by Ctrl+Z shows nothing until continued).
    pub fn inboxes_watching(&self) -> Vec<ProcessId> {
        self.inboxes_alive()
            .into_iter()
            .filter(|p| !crate::liveness::process_is_stopped(p.pid))
            .collect()
    }

    /// The inboxes that announced themselves here and are stopped (Ctrl+Z): alive, but watching
    /// nothing until continued.
    pub fn inboxes_stopped(&self) -> Vec<ProcessId> {
        self.inboxes_alive()
            .into_iter()
            .filter(|p| crate::liveness::process_is_stopped(p.pid))
            .collect()
    }

    fn inboxes_alive(&self) -> Vec<ProcessId> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_str()
                    .is_some_and(|n| n.ends_with(".watching"))
            })
            .filter_map(|e| inbox_process(e.file_name().to_str()?))
            .filter(process_is_alive)
            .collect()
    }

    /// Says in this queue (the home's default) that this process's inbox watches `watched`
    /// instead, until the presence is dropped.
    pub fn announce_inbox_elsewhere(&self, watched: &Path) -> io::Result<InboxPresence> {
        let me = ProcessId::current();
        let path = self.dir.join(format!(
            "inbox.{}.{}.elsewhere",
            me.pid,
            me.start.unwrap_or(0)
        ));
        let folder = crate::paths::absolute(watched);
        crate::atomic::write(
            &path,
            folder.as_os_str().as_encoded_bytes(),
            crate::atomic::Permissions::Private,
        )?;
        Ok(InboxPresence { path })
    }

    /// The folders live inboxes watch instead of this one (their `.elsewhere` notes here), each
    /// once.
    pub fn inboxes_elsewhere(&self) -> Vec<PathBuf> {
        let mut folders: Vec<PathBuf> = Vec::new();
        for name in self.names() {
            if !name.ends_with(".elsewhere") {
                continue;
            }
            let Some(process) = inbox_process(&name) else {
                continue;
            };
            if !process_is_alive(&process) || crate::liveness::process_is_stopped(process.pid) {
                continue;
            }
            let Ok(bytes) = ENTRY.with_cap(4096).read(&self.dir.join(&name)) else {
                continue;
            };
            let folder = PathBuf::from(String::from_utf8_lossy(&bytes).into_owned());
            if folder.is_absolute() && !folders.contains(&folder) {
                folders.push(folder);
            }
        }
        folders
    }
}

/// The claimer of a claim file name (`<id>.claim.<pid>.<start>.json`).
fn claimer(name: &str) -> Option<(String, ProcessId)> {
    let stem = name.strip_suffix(".json")?;
    let (id, rest) = stem.split_once(".claim.")?;
    let (pid, start) = rest.split_once('.')?;
    Some((
        id.to_owned(),
        ProcessId {
            pid: pid.parse().ok()?,
            start: start.parse().ok().filter(|s| *s != 0),
            boot: None,
        },
    ))
}

impl Queue {
    /// Opens (creating, 0700) the queue folder. An existing one must be a real folder of this
    /// user that nobody else can write: anyone who could would forge answers and plant asks.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Queue, crate::private_dir::UnsafeFolder> {
        let dir = dir.into();
        crate::private_dir::ensure_private_dir(&dir)?;
        crate::atomic::remove_leftovers(&dir);
        Ok(Queue {
            dir,
            max_bytes: DEFAULT_MAX_ASK_BYTES,
            seen: Default::default(),
        })
    }

    /// The queue folder when it exists and is safe to read (private, this user's), creating
    /// nothing: for looking at another folder than one's own.
    pub fn open_existing(dir: &Path) -> Option<Queue> {
        crate::private_dir::check_private_dir(dir).ok()?;
        Some(Queue {
            dir: dir.to_path_buf(),
            max_bytes: DEFAULT_MAX_ASK_BYTES,
            seen: Default::default(),
        })
    }

    /// The most bytes an ask or an answer may have (`[mcp] maxAskBytes`).
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Queue {
        self.max_bytes = max_bytes.max(1);
        self
    }

    /// Reads `<id>.ask.json` (or a claim of it at `path`): the ask, if it is a regular file under
    /// the size limit whose `id` is the one its name gives.
    fn read_ask(&self, id: &str, path: &Path) -> Result<QueuedAsk, BadAsk> {
        let bytes = ENTRY.with_cap(self.max_bytes).read(path)?;
        let ask: QueuedAsk = serde_json::from_slice(&bytes)?;
        if ask.id != id {
            return Err(BadAsk::WrongId {
                says: crate::printable::printable(&ask.id),
                name: id.to_owned(),
            });
        }
        Ok(ask)
    }

    /// Moves a bad entry aside (`<name>.bad`, swept after a day) so it is never read again in a
    /// loop, and says so once.
    fn quarantine(&self, name: &str, why: &str) {
        let from = self.dir.join(name);
        let to = self.dir.join(format!("{name}.bad"));
        if std::fs::rename(&from, &to).is_ok() {
            crate::report::report(&format!(
                "set aside {} in the queue: {}",
                crate::printable::printable(name),
                crate::printable::printable(why)
            ));
        }
    }

    /// The queue's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The claim file a claim of this folder is. A claim is a public type (another backend makes
    /// its own), so one this folder did not make, a claim name for another ask or a name with a
    /// path in it, is refused: answering or releasing it touches no file.
    fn held(&self, claim: &Claim) -> io::Result<PathBuf> {
        match claimer(&claim.held) {
            Some((id, _)) if id == claim.ask.id && is_valid_id(&id) => {
                Ok(self.dir.join(&claim.held))
            }
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a claim this queue folder made",
            )),
        }
    }

    fn path(&self, id: &str, suffix: &str) -> PathBuf {
        self.dir.join(format!("{id}{suffix}"))
    }

    /// Claims that go back to the queue because their inbox is gone; whether there were any.
    fn release_stale(&self, names: &[String]) -> bool {
        let mut released = false;
        for name in names {
            let Some((id, process)) = claimer(name) else {
                continue;
            };
            if process_is_alive(&process) {
                continue;
            }
            let from = self.dir.join(name);
            released = true;
            if self.is_withdrawn(&id) {
                let _ = std::fs::remove_file(&from);
            } else {
                // Atomic: if two inboxes release it at once, one rename wins.
                let _ = std::fs::rename(&from, self.path(&id, ".ask.json"));
            }
        }
        released
    }

    fn names(&self) -> Vec<String> {
        std::fs::read_dir(&self.dir)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Decides the ask's outcome if nobody has: creates `<id>.settled` exclusively (never
    /// through a link). Returns whether this call decided it.
    fn settle(&self, id: &str) -> io::Result<bool> {
        use std::os::unix::fs::OpenOptionsExt;
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(self.path(id, ".settled"))
        {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(e),
        }
    }
}

impl AskQueue for Queue {
    /// The folder, as a person reads it (`~` for the home).
    fn location(&self) -> String {
        crate::paths::display(&self.dir)
    }

    fn being_answered(&self) -> usize {
        self.names()
            .iter()
            .filter(|n| claimer(n).is_some_and(|(_, p)| process_is_alive(&p)))
            .count()
    }

    fn is_watched(&self) -> bool {
        !self.inboxes_watching().is_empty()
    }

    fn unwatched_hint(&self) -> String {
        split_queue_hint(self, |k| std::env::var(k).ok())
    }

    fn read_waiting(&self, id: &str) -> Option<QueuedAsk> {
        self.read_waiting_ask(id)
    }

    fn whereabouts(&self, id: &str) -> listing::Whereabouts {
        self.whereabouts_of(id)
    }

    fn answered(&self) -> Vec<String> {
        self.names()
            .into_iter()
            .filter_map(|n| n.strip_suffix(".result.json").map(str::to_owned))
            .filter(|id| is_valid_id(id))
            .collect()
    }

    /// The largest ask or answer file read.
    fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// Queues an ask (atomically: an inbox never sees half a file).
    fn submit(&self, ask: &QueuedAsk) -> io::Result<()> {
        let bytes = serde_json::to_vec(ask).map_err(io::Error::other)?;
        write_atomically(&self.dir, &format!("{}.ask.json", ask.id), &bytes)
    }

    /// Waiting asks whose asker still waits, oldest first. An ask whose asker process is gone
    /// (its MCP server died without withdrawing it) is nobody's to answer: it is not offered,
    /// and [`Queue::sweep`] removes it after a day.
    fn pending(&self) -> Vec<QueuedAsk> {
        let mut asks = self.waiting();
        asks.retain(|a| process_is_alive(&a.asker));
        asks
    }

    /// Every waiting ask, oldest first, live asker or not (stale claims are released first;
    /// withdrawn files are skipped, bad ones set aside).
    fn waiting(&self) -> Vec<QueuedAsk> {
        let mut names = self.names();
        if self.release_stale(&names) {
            names = self.names();
        }
        let mut asks = Vec::new();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.retain(|name, _| names.contains(name));
        for name in &names {
            let Some(id) = name.strip_suffix(".ask.json") else {
                continue;
            };
            // Not a name pi-ask writes: never read, never offered, never touched.
            if !is_valid_id(id) {
                continue;
            }
            if self.is_withdrawn(id) {
                continue;
            }
            let path = self.dir.join(name);
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            let modified = meta.modified().ok();
            if let Some(s) = seen.get(name)
                && s.len == meta.len()
                && s.modified == modified
            {
                asks.push(s.ask.clone());
                continue;
            }
            match self.read_ask(id, &path) {
                Ok(ask) => {
                    seen.insert(
                        name.clone(),
                        Seen {
                            len: meta.len(),
                            modified,
                            ask: ask.clone(),
                        },
                    );
                    asks.push(ask);
                }
                // Not there any more (claimed meanwhile): nothing to say.
                Err(_) if !path.exists() => {}
                Err(why) => self.quarantine(name, &why.to_string()),
            }
        }
        asks.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        asks
    }

    /// Claims an ask for this process; `None` when another inbox was faster (or it was withdrawn).
    fn claim(&self, id: &str) -> io::Result<Option<Claim>> {
        if !is_valid_id(id) {
            return Ok(None);
        }
        let me = ProcessId::current();
        let held = format!("{id}.claim.{}.{}.json", me.pid, me.start.unwrap_or(0));
        let path = self.dir.join(&held);
        match std::fs::rename(self.path(id, ".ask.json"), &path) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        }
        match self.read_ask(id, &path) {
            Ok(ask) => Ok(Some(Claim { ask, held })),
            Err(why) => {
                self.quarantine(&held, &why.to_string());
                Ok(None)
            }
        }
    }

    /// Delivers the answer (the result JSON) and drops the claim; [`Delivery::TooLate`] when
    /// the asker withdrew first (the answer then goes nowhere, and the caller says so).
    ///
    /// The answer is written in full first (a temp file, synced), the outcome settled next, and
    /// the answer renamed into place last. A disk too full for the answer fails before anything
    /// is decided: the claim is released, so the ask waits in the queue again for another inbox,
    /// a retry, or the asker's deadline (which then says truthfully that nobody answered).
    fn answer(&self, claim: Claim, result: &Value) -> Result<Delivery, NotDelivered> {
        let held = self.held(&claim).map_err(|why| NotDelivered {
            why,
            released: false,
        })?;
        let id = claim.ask.id.clone();
        let give_back = |claim: Claim, why: io::Error| {
            let released = self.release(claim).is_ok();
            NotDelivered { why, released }
        };
        let bytes = match serde_json::to_vec(result) {
            Ok(bytes) => bytes,
            Err(e) => return Err(give_back(claim, io::Error::other(e))),
        };
        let prepared = match crate::atomic::prepare(&self.dir, &bytes) {
            Ok(prepared) => prepared,
            Err(why) => return Err(give_back(claim, why)),
        };
        match self.settle(&id) {
            Ok(true) => {}
            Ok(false) => {
                let _ = std::fs::remove_file(&held);
                return Ok(Delivery::TooLate);
            }
            Err(why) => return Err(give_back(claim, why)),
        }
        if let Err(why) = prepared.replace(&self.path(&id, ".result.json")) {
            // Undecided again: the asker's withdrawal or deadline settles it.
            let _ = std::fs::remove_file(self.path(&id, ".settled"));
            return Err(give_back(claim, why));
        }
        let _ = std::fs::remove_file(&held);
        Ok(Delivery::Delivered)
    }

    /// Puts a claimed ask back in the queue (the inbox stops without an answer).
    fn release(&self, claim: Claim) -> io::Result<()> {
        let held = self.held(&claim)?;
        if self.is_withdrawn(&claim.ask.id) {
            return std::fs::remove_file(held);
        }
        std::fs::rename(held, self.path(&claim.ask.id, ".ask.json"))
    }

    /// Drops a claim without an answer (the asker withdrew).
    fn drop_claim(&self, claim: Claim) -> io::Result<()> {
        std::fs::remove_file(self.held(&claim)?)
    }

    /// [`Queue::withdraw`], saying why (an inbox that has the ask open tells the person).
    fn withdraw_because(&self, id: &str, why: WithdrawnBecause) -> io::Result<Withdrawal> {
        if self.is_withdrawn(id) {
            return Ok(Withdrawal::Withdrawn);
        }
        if !self.settle(id)? {
            return Ok(Withdrawal::AlreadyAnswered);
        }
        let mark = match why {
            WithdrawnBecause::CallEnded => &b""[..],
            WithdrawnBecause::AnsweredInHostForm => ANSWERED_IN_HOST_FORM,
        };
        write_atomically(&self.dir, &format!("{id}.withdrawn"), mark)?;
        let _ = std::fs::remove_file(self.path(id, ".ask.json"));
        Ok(Withdrawal::Withdrawn)
    }

    /// Removes ask `id` whose answer was settled but never written (the inbox that settled it
    /// died first): nobody will answer it.
    fn forget_unanswered(&self, id: &str) {
        let _ = std::fs::remove_file(self.path(id, ".ask.json"));
    }

    /// Whether the asker took ask `id` back.
    fn is_withdrawn(&self, id: &str) -> bool {
        self.path(id, ".withdrawn").exists()
    }

    /// Why the asker took ask `id` back, when it did. (The mark is read capped: it is a few
    /// bytes, and anything else in the file is read as the call having ended.)
    fn withdrawn_because(&self, id: &str) -> Option<WithdrawnBecause> {
        if !is_valid_id(id) {
            return None;
        }
        let path = self.path(id, ".withdrawn");
        let rule = crate::bounded_read::ReadRule::capped(64);
        match rule.read_text(&path) {
            Ok(text) if text.as_bytes() == ANSWERED_IN_HOST_FORM => {
                Some(WithdrawnBecause::AnsweredInHostForm)
            }
            Ok(_) => Some(WithdrawnBecause::CallEnded),
            Err(_) => path.exists().then_some(WithdrawnBecause::CallEnded),
        }
    }

    /// The asks left for later in an inbox (`<id>.later`), each with when it was left.
    fn later_marks(&self) -> Vec<(std::time::SystemTime, String)> {
        self.names()
            .into_iter()
            .filter_map(|name| {
                let id = name.strip_suffix(".later")?;
                if !is_generated_id(id) {
                    return None;
                }
                let meta = std::fs::symlink_metadata(self.dir.join(&name)).ok()?;
                if !meta.is_file() {
                    return None;
                }
                Some((meta.modified().ok()?, id.to_owned()))
            })
            .collect()
    }

    /// Keeps `<id>.later` marks for exactly `ids` among this queue's asks: a new one is made
    /// (private, never through a link), one no longer meant is removed; an existing one keeps
    /// its time. Only marks pi-ask makes are touched.
    fn keep_later_marks(&self, ids: &[&str]) {
        for (_, id) in self.later_marks() {
            if !ids.contains(&id.as_str()) {
                let _ = std::fs::remove_file(self.path(&id, ".later"));
            }
        }
        for id in ids.iter().filter(|id| is_generated_id(id)) {
            use std::os::unix::fs::OpenOptionsExt;
            let _ = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW)
                .open(self.path(id, ".later"));
        }
    }

    /// The answer, once there is one (taken: the file is removed, with any withdrawal mark).
    fn take_result(&self, id: &str) -> Option<Value> {
        let path = self.path(id, ".result.json");
        // Answers are a form's result: larger than its ask only by what was typed.
        let bytes = ENTRY
            .with_cap(self.max_bytes.saturating_mul(4))
            .read(&path)
            .ok()?;
        let value = serde_json::from_slice(&bytes).ok()?;
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(self.path(id, ".settled"));
        let _ = std::fs::remove_file(self.path(id, ".later"));
        Some(value)
    }

    /// Removes withdrawal marks, settled marks, set-aside entries and untaken answers (their
    /// asker is gone; the inbox kept them in the history) older than `age` (housekeeping). Only
    /// names pi-ask writes (an ask id and one of its suffixes), only regular files, and only in a
    /// folder that is still a private folder of this user: a file pi-ask did not make is never
    /// touched.
    fn sweep(&self, age: Duration) {
        if crate::private_dir::check_private_dir(&self.dir).is_err() {
            return;
        }
        crate::atomic::remove_leftovers(&self.dir);
        let orphans: std::collections::HashSet<String> = self
            .waiting()
            .into_iter()
            .filter(|a| is_generated_id(&a.id) && !process_is_alive(&a.asker))
            .map(|a| format!("{}.ask.json", a.id))
            .collect();
        let names = self.names();
        // The asks an inbox holds claimed: their later marks stay.
        let claimed: std::collections::HashSet<String> = names
            .iter()
            .filter_map(|n| claimer(n).map(|(id, _)| id))
            .collect();
        for name in names {
            if orphans.contains(&name) {
                let path = self.dir.join(&name);
                let old = std::fs::symlink_metadata(&path)
                    .ok()
                    .and_then(|m| m.modified().ok())
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|e| e >= age);
                if old {
                    let _ = std::fs::remove_file(path);
                }
                continue;
            }
            // A killed inbox's presence: gone at once, whatever its age (it says nobody watches).
            if inbox_process(&name).is_some_and(|p| !process_is_alive(&p)) {
                let _ = std::fs::remove_file(self.dir.join(&name));
                continue;
            }
            // A later mark goes once its ask is no longer waiting (answered, withdrawn, gone).
            if let Some(id) = name.strip_suffix(".later")
                && is_generated_id(id)
            {
                let still_waiting = self.path(id, ".ask.json").exists() || claimed.contains(id);
                if !still_waiting {
                    let _ = std::fs::remove_file(self.dir.join(&name));
                }
                continue;
            }
            if !is_swept_name(&name) {
                continue;
            }
            let path = self.dir.join(&name);
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            let old = meta
                .modified()
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|e| e >= age);
            if old && meta.is_file() {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

/// When no inbox watches `queue` but one watches another folder this server could have used (the
/// home's default, or the one an inbox started with `PI_ASK_QUEUE` names): `; an inbox watches
/// <folder> instead: …`, naming the fix. Empty otherwise.
pub fn split_queue_hint(queue: &Queue, env: impl Fn(&str) -> Option<String>) -> String {
    let Some(home) = home_queue_dir(env) else {
        return String::new();
    };
    let ours = crate::paths::absolute(queue.dir());
    let elsewhere: Vec<std::path::PathBuf> = if ours == home {
        queue
            .inboxes_elsewhere()
            .into_iter()
            .filter(|f| *f != ours)
            .collect()
    } else {
        // This server has PI_ASK_QUEUE; an inbox started without it watches the home's default.
        match Queue::open_existing(&home) {
            Some(q) if !q.inboxes_watching().is_empty() => vec![home],
            _ => Vec::new(),
        }
    };
    match elsewhere.first() {
        Some(folder) => format!(
            "; an inbox watches {} instead: PI_ASK_QUEUE differs between the inbox's shell and this server (set the same PI_ASK_QUEUE in the host's server config and the shell, or in neither)",
            crate::paths::display(folder)
        ),
        None => String::new(),
    }
}

/// How waiting for an answer ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Waited {
    /// An inbox answered (the result as JSON).
    Answered(Value),
    /// The asker took the ask back.
    Withdrawn,
    /// Nobody answered in time.
    TimedOut,
}

/// A new ask id (unique enough among the asks of one user: 16 hex characters).
pub fn new_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..16].to_owned()
}
