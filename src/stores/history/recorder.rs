//! Recording one form: its opening before the UI shows, its end with the result, and for a
//! resumed form the dismissal that keeps it from being offered again.

use std::io;

use serde_json::Value;

use super::{Dismissal, Ended, Event, HistoryStore, Opened, Origin, ProcessId, Source, Status};
use super::{new_ask_id, now_timestamp};
use crate::result::AskResult;

/// The history entry of one open form.
#[derive(Debug)]
pub struct Recorder {
    store: HistoryStore,
    id: String,
    dismisses: Option<Dismissal>,
}

/// What a form is recorded with.
#[derive(Debug, Clone)]
pub struct OpenAsk<'a> {
    /// Which command opened the form.
    pub source: Source,
    /// Its working directory.
    pub cwd: String,
    /// Its title, if any.
    pub title: Option<String>,
    /// The payload as given.
    pub payload: &'a Value,
    /// What it came from.
    pub origin: Origin,
}

impl Recorder {
    /// Records that a form opens, with this process as the one showing it.
    pub fn open(store: &HistoryStore, ask: OpenAsk<'_>) -> io::Result<Recorder> {
        let id = new_ask_id();
        let dismisses = (ask.source == Source::Resume).then(|| dismissal_for(&ask.origin));
        store.append(&Event::Open(Box::new(Opened {
            id: id.clone(),
            source: ask.source,
            at: now_timestamp(),
            cwd: ask.cwd,
            title: ask.title,
            // A big payload goes to a file of its own; the history keeps a reference.
            payload: store.stored(ask.payload, &id, "payload")?,
            process: ProcessId::current(),
            origin: ask.origin,
        })))?;
        Ok(Recorder {
            store: store.clone(),
            id,
            dismisses,
        })
    }

    /// The ask's history id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Records the end and, for a resumed form, its dismissal (submit and cancel both dismiss).
    /// An `interrupted` form (ended by a signal) keeps its result but stays resumable.
    pub fn end(self, result: &AskResult, interrupted: bool) -> io::Result<()> {
        let status = if interrupted {
            Status::Interrupted
        } else {
            Status::of(result)
        };
        self.store.append(&Event::End(Ended {
            id: self.id.clone(),
            at: now_timestamp(),
            status,
            result: self.store.stored(
                &serde_json::to_value(result).map_err(io::Error::other)?,
                &self.id,
                "result",
            )?,
        }))?;
        if let Some(d) = self.dismisses.filter(|_| !interrupted) {
            self.store.append(&Event::Dismiss(Dismissal {
                at: now_timestamp(),
                ..d
            }))?;
        }
        // Compaction is housekeeping, done after the form rather than before it opens; a failure
        // never loses the answer.
        let _ = self.store.compact_if_large();
        Ok(())
    }
}

fn dismissal_for(origin: &Origin) -> Dismissal {
    let call = origin.session.as_ref();
    Dismissal {
        at: String::new(),
        id: origin.reopens.clone(),
        session_id: call.map(|c| c.session_id.clone()),
        tool_call_id: call.and_then(|c| c.tool_call_id.clone()),
    }
}
