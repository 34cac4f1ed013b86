//! The history of asks: every form pi-ask opens, how it ended, and what was dismissed, as an
//! append-only JSON-lines file (see docs/history.md).
//!
//! The file is a log of [`Event`]s; [`History`] folds it into one [`Ask`] per opened form. Nothing
//! here touches a terminal, so a host can embed the store and the lookups as they are.

mod draft_texts;
mod journal;
mod recorder;
mod store;

pub use crate::liveness::{ProcessId, process_is_alive};
pub use journal::{JournalHandle, PendingAsk};
pub use recorder::{OpenAsk, Recorder};
pub use store::parse_history;
pub use store::{
    BLOB_KEY, HistoryStore, INLINE_MAX_BYTES, KEEP_ASKS, blob_name, default_history_path,
};

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::result::{AskResult, Mode};

/// What opened a form.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Source {
    /// A real `ask_user` call (`pi-ask ask`).
    #[serde(rename = "tool")]
    #[default]
    Tool,
    /// A form extracted from prose (`pi-ask answer`).
    #[serde(rename = "answer")]
    Answer,
    /// An extracted form reopened (`pi-ask answer --again`).
    #[serde(rename = "answer:again")]
    AnswerAgain,
    /// A real form reopened (`pi-ask replay`).
    #[serde(rename = "ask:replay")]
    Replay,
    /// An interrupted form reopened (`pi-ask resume`).
    #[serde(rename = "ask:resume")]
    Resume,
}

impl Source {
    /// The name written in the file and shown by `pi-ask history`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Tool => "tool",
            Source::Answer => "answer",
            Source::AnswerAgain => "answer:again",
            Source::Replay => "ask:replay",
            Source::Resume => "ask:resume",
        }
    }

    /// Every source, in the order the remote events' docs list them.
    pub const ALL: [Source; 5] = [
        Source::Tool,
        Source::Answer,
        Source::AnswerAgain,
        Source::Replay,
        Source::Resume,
    ];

    /// The source the remote events and the history call `name` (`ask:replay`), if any.
    pub fn from_name(name: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// Whether the form came from prose extraction, where `freeform` options are allowed.
    pub fn is_extracted(self) -> bool {
        matches!(self, Source::Answer | Source::AnswerAgain)
    }
}

/// How a form ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The answers were submitted.
    Submitted,
    /// The person asked the agent to elaborate.
    Elaborated,
    /// The form was cancelled.
    Cancelled,
    /// Ended from outside (SIGTERM, SIGHUP, SIGINT as a signal): the caller got the cancelled
    /// result of the answers so far, but the person never chose to cancel, so it can be resumed.
    Interrupted,
}

impl Status {
    /// The status a result stands for.
    pub fn of(result: &AskResult) -> Status {
        match (result.details.cancelled, result.details.mode) {
            (true, _) => Status::Cancelled,
            (false, Mode::Submit) => Status::Submitted,
            (false, Mode::Elaborate) => Status::Elaborated,
        }
    }

    /// The status as the history file spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Submitted => "submitted",
            Status::Elaborated => "elaborated",
            Status::Cancelled => "cancelled",
            Status::Interrupted => "interrupted",
        }
    }
}

/// A tool call in a pi session file that a form came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionCall {
    /// The session file, as given.
    pub file: String,
    /// The session's id (its header `id`).
    pub session_id: String,
    /// The `ask_user` tool call id, for forms from a tool call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// The entry the form came from (the assistant message for extracted forms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_id: Option<String>,
}

/// Where a reopened form came from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Origin {
    /// The history id of the ask it reopens (for a resume: the first ask of the chain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reopens: Option<String>,
    /// The pi session tool call or message it came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<SessionCall>,
    /// The queued ask (`pi-ask mcp`) an inbox showed. The queue, not `pi-ask resume`, gives such
    /// an ask back; answered by any inbox, it is answered in every record of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_id: Option<String>,
}

/// A form was opened (written before its UI opens).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Opened {
    /// The ask's id (a UUID), shared by every line about it.
    pub id: String,
    /// Which command opened it.
    pub source: Source,
    /// RFC 3339 UTC with milliseconds.
    pub at: String,
    /// The working directory it was opened in.
    pub cwd: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The form's title, if any.
    pub title: Option<String>,
    /// The payload exactly as given (revalidated whenever it is reopened).
    pub payload: Value,
    /// The process showing the form, to tell a running form from an interrupted one.
    pub process: ProcessId,
    #[serde(default, skip_serializing_if = "is_default")]
    /// What the ask came from (a replay, a resume, a session's tool call).
    pub origin: Origin,
}

fn is_default(origin: &Origin) -> bool {
    *origin == Origin::default()
}

/// A form ended (submitted, elaborated or cancelled) with its result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ended {
    /// The ask's id.
    pub id: String,
    /// When it ended (RFC 3339 UTC with milliseconds).
    pub at: String,
    /// How it ended.
    pub status: Status,
    /// The result as delivered (`{content, details}`).
    pub result: Value,
}

/// A resumed form ended, so the interrupted ask (or session tool call) is not offered again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Dismissal {
    /// When (RFC 3339 UTC with milliseconds).
    pub at: String,
    /// The history ask dismissed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// A pi session tool call dismissed (pi's own files are never written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The dismissed tool call's id in that session.
    pub tool_call_id: Option<String>,
}

/// One line of the history file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "camelCase")]
pub enum Event {
    /// A form was opened.
    Open(Box<Opened>),
    /// A form ended.
    End(Ended),
    /// A resumed form ended, so its interrupted ask is not offered again.
    Dismiss(Dismissal),
    /// `pi-ask ask` told the person this interrupted ask can be resumed (said once).
    Hinted {
        /// The ask's id.
        id: String,
        /// When.
        at: String,
    },
    /// What was entered so far in an open form (a [`crate::model::Draft`]), written a moment
    /// after it changes; the newest one is what `pi-ask resume` restores.
    Progress {
        /// The ask's id.
        id: String,
        /// When.
        at: String,
        /// The draft as JSON.
        draft: Value,
    },
}

impl Event {
    /// The ask the event belongs to, if it belongs to one.
    pub fn ask_id(&self) -> Option<&str> {
        match self {
            Event::Open(o) => Some(&o.id),
            Event::End(e) => Some(&e.id),
            Event::Dismiss(d) => d.id.as_deref(),
            Event::Hinted { id, .. } | Event::Progress { id, .. } => Some(id),
        }
    }
}

/// One opened form and what happened to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    /// How it was opened.
    pub opened: Opened,
    /// How it ended, if it did.
    pub ended: Option<Ended>,
    /// A later resume ended, or this ask was dismissed directly.
    pub dismissed: bool,
    /// A later resume of the same ask exists, so this one is not offered by itself.
    pub superseded: bool,
    /// The person was already told it can be resumed.
    pub hinted: bool,
    /// The newest draft recorded while it was open.
    pub draft: Option<Value>,
    /// Its queued ask was answered by another form (another inbox), so it is not interrupted.
    pub answered_elsewhere: bool,
}

impl Ask {
    /// The first ask of a resume chain: what a resume of this ask dismisses.
    pub fn root(&self) -> &str {
        match (self.opened.source, &self.opened.origin.reopens) {
            (Source::Resume, Some(root)) => root,
            _ => &self.opened.id,
        }
    }

    /// Whether the form never ended (or was ended by a signal) and its process is gone.
    pub fn is_interrupted(&self, alive: &dyn Fn(&ProcessId) -> bool) -> bool {
        if self.answered_elsewhere {
            return false;
        }
        match &self.ended {
            None => !alive(&self.opened.process),
            Some(e) => e.status == Status::Interrupted,
        }
    }

    /// Whether the form ended by a person's choice (submit, elaborate or cancel).
    pub fn is_finished(&self) -> bool {
        self.ended
            .as_ref()
            .is_some_and(|e| e.status != Status::Interrupted)
    }

    /// The title, else the first question's prompt, else the id.
    pub fn headline(&self) -> String {
        if let Some(title) = &self.opened.title {
            return title.clone();
        }
        self.opened
            .payload
            .get("questions")
            .and_then(|q| q.get(0))
            .and_then(|q| q.get("prompt"))
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_else(|| self.opened.id.clone())
    }

    /// `submitted`, `elaborated`, `cancelled`, `running`, `interrupted`, or `answered elsewhere`.
    pub fn status_label(&self, alive: &dyn Fn(&ProcessId) -> bool) -> &'static str {
        if self.answered_elsewhere {
            return "answered elsewhere";
        }
        match &self.ended {
            Some(e) => e.status.as_str(),
            None if alive(&self.opened.process) => "running",
            None => "interrupted",
        }
    }
}

/// Why an ask could not be looked up by id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    #[error("no ask {0} in the history")]
    /// No ask's id starts with the given text.
    NotFound(String),
    #[error("{1} asks in the history start with {0}; give more characters")]
    /// Several asks' ids start with the given text (it, and how many).
    Ambiguous(String, usize),
}

/// The history folded into asks, oldest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    /// Every ask, oldest first.
    pub asks: Vec<Ask>,
    /// Dismissed pi session tool calls: (session id, tool call id).
    pub session_dismissals: HashSet<(String, String)>,
    /// Lines that did not parse (a torn last line after a crash, or a newer version's event).
    pub skipped_lines: usize,
}

impl History {
    /// Folds events in file order. Events for an ask that was never opened are ignored.
    pub fn from_events(events: impl IntoIterator<Item = Event>) -> History {
        let mut history = History::default();
        let mut dismissed_ids = HashSet::new();
        for event in events {
            match event {
                Event::Open(opened) => history.asks.push(Ask {
                    opened: *opened,
                    ended: None,
                    dismissed: false,
                    superseded: false,
                    hinted: false,
                    draft: None,
                    answered_elsewhere: false,
                }),
                Event::End(ended) => {
                    if let Some(ask) = history.find_mut(&ended.id) {
                        ask.ended.get_or_insert(ended);
                    }
                }
                Event::Dismiss(d) => {
                    if let Some(id) = d.id {
                        dismissed_ids.insert(id);
                    }
                    if let (Some(s), Some(t)) = (d.session_id, d.tool_call_id) {
                        history.session_dismissals.insert((s, t));
                    }
                }
                Event::Hinted { id, .. } => {
                    if let Some(ask) = history.find_mut(&id) {
                        ask.hinted = true;
                    }
                }
                Event::Progress { id, draft, .. } => {
                    if let Some(ask) = history.find_mut(&id) {
                        ask.draft = Some(draft);
                    }
                }
            }
        }
        // A queued ask answered by one inbox is answered for every inbox that showed it.
        let answered_queue_ids: HashSet<String> = history
            .asks
            .iter()
            .filter(|a| a.is_finished())
            .filter_map(|a| a.opened.origin.queue_id.clone())
            .collect();
        for ask in &mut history.asks {
            ask.answered_elsewhere = !ask.is_finished()
                && ask
                    .opened
                    .origin
                    .queue_id
                    .as_ref()
                    .is_some_and(|q| answered_queue_ids.contains(q));
        }
        // A resume covers every earlier ask of its chain: only the newest link is offered.
        let mut newest_resume_of: std::collections::HashMap<String, usize> = Default::default();
        for (i, ask) in history.asks.iter().enumerate() {
            if ask.opened.source == Source::Resume {
                newest_resume_of.insert(ask.root().to_owned(), i);
            }
        }
        for (i, ask) in history.asks.iter_mut().enumerate() {
            let root = ask.root().to_owned();
            ask.dismissed = dismissed_ids.contains(&root) || dismissed_ids.contains(&ask.opened.id);
            ask.superseded = newest_resume_of.get(&root).is_some_and(|&r| r > i);
        }
        history
    }

    fn find_mut(&mut self, id: &str) -> Option<&mut Ask> {
        self.asks.iter_mut().rev().find(|a| a.opened.id == id)
    }

    /// The ask with this id, or the only one whose id starts with it.
    pub fn find(&self, id: &str) -> Result<&Ask, LookupError> {
        if let Some(ask) = self.asks.iter().find(|a| a.opened.id == id) {
            return Ok(ask);
        }
        let matches: Vec<&Ask> = self
            .asks
            .iter()
            .filter(|a| !id.is_empty() && a.opened.id.starts_with(id))
            .collect();
        match matches.as_slice() {
            [one] => Ok(one),
            [] => Err(LookupError::NotFound(id.to_owned())),
            many => Err(LookupError::Ambiguous(id.to_owned(), many.len())),
        }
    }

    /// The newest ask opened from one of `sources`.
    pub fn latest(&self, sources: &[Source]) -> Option<&Ask> {
        self.asks
            .iter()
            .rev()
            .find(|a| sources.contains(&a.opened.source))
    }

    /// The newest ask that never ended, whose process is gone, and that no resume has covered
    /// or dismissed: what `pi-ask resume` reopens. An ask an inbox showed is not among them: its
    /// queue gives it back to the next inbox, and its answer belongs to the agent that asked.
    pub fn resumable(&self, alive: &dyn Fn(&ProcessId) -> bool) -> Option<&Ask> {
        self.asks.iter().rev().find(|a| {
            a.is_interrupted(alive)
                && !a.dismissed
                && !a.superseded
                && a.opened.origin.queue_id.is_none()
        })
    }

    /// An interrupted, resumable ask from `cwd` that nobody was told about yet.
    pub fn unhinted_interrupted_in(
        &self,
        cwd: &str,
        alive: &dyn Fn(&ProcessId) -> bool,
    ) -> Option<&Ask> {
        self.resumable(alive)
            .filter(|a| a.opened.cwd == cwd && !a.hinted && !self.chain_hinted(a))
    }

    fn chain_hinted(&self, ask: &Ask) -> bool {
        self.asks.iter().any(|a| a.root() == ask.root() && a.hinted)
    }

    /// Whether a pi session tool call was dismissed by an earlier resume.
    pub fn session_call_dismissed(&self, session_id: &str, tool_call_id: &str) -> bool {
        self.session_dismissals
            .contains(&(session_id.to_owned(), tool_call_id.to_owned()))
    }
}

/// Now, as pi writes timestamps: RFC 3339 UTC with milliseconds.
pub fn now_timestamp() -> String {
    humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string()
}

/// A new ask id: 8 lowercase hex characters, like pi's entry ids.
pub fn new_ask_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..8].to_owned()
}
