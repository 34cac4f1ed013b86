//! The commands beyond one form: recording asks in the history, and reopening them (`replay`,
//! `resume`, `answer`, `history`). Each opens forms through the same runner and result builder as
//! `ask`; this module only decides which form, records it, and reports what happened.

pub mod answer;
mod arrivals;
pub mod ask;
pub mod doctor;
pub mod embed;
mod error;
pub mod history;
pub mod hook;
pub mod inbox;
pub mod mcp;
pub mod queues;
pub mod remote;
pub mod reopen;
pub mod serve;
pub mod setup;

use std::path::{Path, PathBuf};

use serde_json::Value;

pub use self::error::CommandError;
use crate::drivers::run::{Finished, RunOptions};
use crate::form::Form;
use crate::report::{CommandOutcome, report};
use crate::stores::config::{ConfigPaths, peek};
use crate::stores::history::{
    HistoryStore, JournalHandle, Origin, PendingAsk, Source, default_history_path, process_is_alive,
};

/// What every command returns: how it ended, or why it failed. The command line alone says a
/// failure and maps both to the exit status.
pub type Ended = Result<CommandOutcome, CommandError>;

/// Where the history is, and whether this run records into it.
#[derive(Debug, Clone)]
pub struct HistoryChoice {
    /// `None`: no home directory and no `--history`/`PI_ASK_HISTORY`, so there is no history.
    pub store: Option<HistoryStore>,
    /// `--no-history` or `[history] enabled = false` turn recording off (reading still works).
    pub record: bool,
}

impl HistoryChoice {
    /// `--history FILE`, else `PI_ASK_HISTORY`, else the default path; recording unless
    /// `--no-history` or the config says otherwise.
    pub fn resolve(explicit: Option<&Path>, no_history: bool, config: Option<&Path>) -> Self {
        let path = explicit
            .map(crate::paths::absolute)
            .or_else(|| default_history_path(|k| std::env::var(k).ok()));
        let enabled = !no_history && peek(&ConfigPaths::from_env(config)).history.enabled;
        HistoryChoice {
            store: path.map(HistoryStore::new),
            record: enabled,
        }
    }

    /// The store to read, or why there is none.
    pub fn readable(&self) -> Result<&HistoryStore, HistoryUnavailable> {
        self.store.as_ref().ok_or(HistoryUnavailable::NoHome)
    }

    /// The history as read, or why not (no history, unreadable).
    pub fn read(&self) -> Result<crate::stores::history::History, CommandError> {
        self.readable()?
            .read()
            .map_err(CommandError::HistoryUnreadable)
    }

    /// `ask` with its payload and result read back from their files when they were too big to
    /// keep in the history's lines.
    pub fn with_payload(
        &self,
        ask: &crate::stores::history::Ask,
    ) -> Result<crate::stores::history::Ask, HistoryUnavailable> {
        let mut ask = ask.clone();
        let store = self.readable()?;
        let unreadable = |source: std::io::Error| HistoryUnavailable::StoredPayload {
            id: ask.opened.id.clone(),
            source,
        };
        let id = ask.opened.id.clone();
        ask.opened.payload = store
            .resolve(&ask.opened.payload, &id, "payload")
            .map_err(unreadable)?;
        if let Some(ended) = &mut ask.ended {
            ended.result = store
                .resolve(&ended.result, &id, "result")
                .map_err(unreadable)?;
        }
        // A draft whose kept text is gone is no draft: the ask still shows, replays and
        // resumes from its payload (its end, if any, is what was answered).
        if let Some(draft) = &ask.draft {
            ask.draft = store.draft_resolved(draft, &id).ok();
        }
        Ok(ask)
    }

    /// A journal for a form (none when not recording); a history that cannot be written is
    /// reported and the form still opens (an answer matters more than its record).
    pub(crate) fn journal(&self, ask: PendingAsk) -> Option<JournalHandle> {
        if !self.record {
            return None;
        }
        let store = self.store.as_ref()?;
        Some(JournalHandle::new(store.clone(), ask, report))
    }
}

/// A form to open and where it came from.
#[derive(Debug, Clone)]
pub struct Opening<'a> {
    /// The form.
    pub form: Form,
    /// The payload as given or stored (what the history keeps).
    pub payload: &'a Value,
    /// Which command opened it (for the history).
    pub source: Source,
    /// What it came from (a replay, a resume, a session's tool call).
    pub origin: Origin,
    /// What was entered before, put back when the form opens (`pi-ask resume`).
    pub restore: Option<crate::model::Draft>,
}

/// The working directory a form is recorded with: `--cwd`, else the current one.
pub fn recorded_cwd(options: &RunOptions) -> String {
    let dir = options
        .cwd
        .clone()
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."));
    crate::paths::absolute(&dir).display().to_string()
}

/// Runs a form with `run`, recorded: `run` gets the journal to say when the form is on the
/// screen (its opening is recorded then, not before: a form refused before it showed is no
/// interrupted ask) and to record drafts; the end is recorded with the result. A run that fails
/// without a result after the form showed leaves the ask open, so it can be resumed.
pub fn recorded<E>(
    history: &HistoryChoice,
    opening: &Opening<'_>,
    cwd: String,
    run: impl FnOnce(Form, Option<JournalHandle>) -> Result<Finished, E>,
) -> Result<Finished, E> {
    let journal = history.journal(PendingAsk {
        source: opening.source,
        cwd,
        title: opening.form.title.clone(),
        payload: opening.payload.clone(),
        origin: opening.origin.clone(),
    });
    let done = run(opening.form.clone(), journal.clone());
    if let Some(journal) = journal {
        match &done {
            Ok(done) => journal.finish(&done.result, done.interrupted),
            Err(_) => journal.abandon(),
        }
    }
    done
}

/// How a form opened on the terminal ended, its result delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormEnding {
    /// Submitted or elaborated.
    Answered,
    /// Cancelled by the person.
    Cancelled,
    /// Ended by a signal: still resumable.
    Interrupted,
    /// Nobody answered within its time limit (`ask --timeout`).
    TimedOut,
}

impl FormEnding {
    /// The command's outcome: done when answered, else cancelled (what the result says).
    pub fn outcome(self) -> CommandOutcome {
        match self {
            FormEnding::Answered => CommandOutcome::Done,
            FormEnding::TimedOut => CommandOutcome::TimedOut,
            FormEnding::Cancelled | FormEnding::Interrupted => CommandOutcome::Cancelled,
        }
    }

    fn of(done: &Finished) -> FormEnding {
        match (done.result.details.cancelled, done.interrupted) {
            (false, _) => FormEnding::Answered,
            (true, _) if done.timed_out => FormEnding::TimedOut,
            (true, true) => FormEnding::Interrupted,
            (true, false) => FormEnding::Cancelled,
        }
    }
}

/// Opens a form on the terminal, recorded, and delivers its result like `ask`. A form that ends
/// without a result stays open in the history (resumable); a result that could not be delivered
/// is still recorded there with the ask's end.
pub fn open_on_terminal(
    history: &HistoryChoice,
    opening: &Opening<'_>,
    options: &RunOptions,
) -> Result<FormEnding, CommandError> {
    let cwd = recorded_cwd(options);
    let options = RunOptions {
        source: opening.source,
        tool_call_id: opening
            .origin
            .session
            .as_ref()
            .and_then(|s| s.tool_call_id.clone()),
        ..options.clone()
    };
    let done = recorded(history, opening, cwd, |form, journal| {
        let options = RunOptions {
            journal,
            restore: opening.restore.clone(),
            ..options.clone()
        };
        crate::drivers::run::ask_result(form, &options)
    })?;
    crate::drivers::run::emit_as(&done.result, options.output.as_deref(), options.format)?;
    Ok(FormEnding::of(&done))
}

/// Says once on stderr that an earlier ask in this directory was interrupted and can be resumed.
pub fn hint_interrupted(history: &HistoryChoice, cwd: &str) {
    let Some(store) = history.store.as_ref() else {
        return;
    };
    let Ok(read) = store.read() else { return };
    let Some(ask) = read.unhinted_interrupted_in(cwd, &process_is_alive) else {
        return;
    };
    report(&format!(
        "an earlier ask in this directory was interrupted ({} \"{}\", {}); `pi-ask resume` reopens it",
        ask.opened.id,
        ask.headline(),
        ask.opened.at
    ));
    if history.record {
        let _ = store.append(&crate::stores::history::Event::Hinted {
            id: ask.opened.id.clone(),
            at: crate::stores::history::now_timestamp(),
        });
    }
}

/// Reopening needs a person at a terminal: without one the form would end at once as cancelled
/// (and a resume would be dismissed for nothing).
pub fn require_terminal(command: &'static str) -> Result<(), CommandError> {
    if crate::drivers::run::has_terminal() {
        Ok(())
    } else {
        Err(CommandError::NeedsTerminal(command))
    }
}

/// Nothing to open, for `why`.
pub fn nothing(why: impl std::fmt::Display) -> Ended {
    Ok(CommandOutcome::Nothing(why.to_string()))
}

/// A number of seconds given on the command line, out of its range.
#[derive(Debug, thiserror::Error)]
#[error("{flag} must be {range} (got {seconds})")]
pub struct SecondsOutOfRange {
    /// The flag, as typed (`--timeout`).
    pub flag: &'static str,
    /// What it must be, as said (`a positive number of seconds`).
    pub range: String,
    /// What was given.
    pub seconds: f64,
}

/// Why the history (or a stored part of an ask) cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum HistoryUnavailable {
    /// There is no history file to read.
    #[error("no history: there is no home directory; give --history FILE or set PI_ASK_HISTORY")]
    NoHome,
    /// A payload or result kept beside the history cannot be read.
    #[error("cannot read the stored payload of ask {id}: {source}")]
    StoredPayload {
        /// The ask.
        id: String,
        /// Why.
        source: std::io::Error,
    },
}

pub use crate::strings::question_count;
