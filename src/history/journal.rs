//! Recording one form around its run: its opening once it is on the screen (a form that never
//! showed, such as one refused for a bad `--cwd`, is not an interrupted ask), what was entered as
//! it changes (written by a thread of its own, so the UI never waits for the disk), and its end.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use serde_json::Value;

use super::{Event, HistoryStore, OpenAsk, Origin, Recorder, Source, now_timestamp};
use crate::result::AskResult;

/// What a form is recorded with, owned until it shows.
#[derive(Debug, Clone)]
pub struct PendingAsk {
    /// Which command opened the form.
    pub source: Source,
    /// Its working directory.
    pub cwd: String,
    /// Its title, if any.
    pub title: Option<String>,
    /// The payload as given.
    pub payload: Value,
    /// What it came from.
    pub origin: Origin,
}

/// The history record of one form being run.
#[derive(Debug)]
pub struct Journal {
    store: HistoryStore,
    pending: Option<PendingAsk>,
    recorder: Option<Recorder>,
    drafts: Option<DraftWriter>,
    /// Said once when the history cannot be written.
    report: fn(&str),
}

/// A journal shared between the command that records and the runtime that shows the form.
#[derive(Clone)]
pub struct JournalHandle(Arc<Mutex<Journal>>);

impl std::fmt::Debug for JournalHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JournalHandle")
    }
}

impl JournalHandle {
    /// A journal for `ask` in `store`; `report` says what could not be written.
    pub fn new(store: HistoryStore, ask: PendingAsk, report: fn(&str)) -> JournalHandle {
        JournalHandle(Arc::new(Mutex::new(Journal {
            store,
            pending: Some(ask),
            recorder: None,
            drafts: None,
            report,
        })))
    }

    fn with<R>(&self, f: impl FnOnce(&mut Journal) -> R) -> R {
        let mut journal = self.0.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut journal)
    }

    /// The form is on the screen (or its first dialog is out): its opening is recorded now.
    pub fn shown(&self) {
        self.with(Journal::open_now);
    }

    /// What was entered so far (a [`crate::model::Draft`] as JSON), written off this thread;
    /// only the newest of several waiting drafts is written.
    pub fn draft(&self, draft: Value) {
        self.with(|j| {
            if let Some(writer) = &j.drafts {
                writer.send(draft);
            }
        });
    }

    /// The form ended with `result`. A form that never showed is recorded now, opening and end
    /// together (a fallback result such as the no-terminal one is still a recorded ask), unless
    /// it was interrupted before it showed (a terminal that failed at once): that is no ask.
    pub fn finish(&self, result: &AskResult, interrupted: bool) {
        self.with(|j| {
            if interrupted && j.pending.is_some() {
                j.pending = None;
                return;
            }
            j.open_now();
            j.stop_drafts();
            if let Some(recorder) = j.recorder.take()
                && let Err(e) = recorder.end(result, interrupted)
            {
                (j.report)(&format!("cannot record the end of the ask: {e}"));
            }
        });
    }

    /// The run failed without a result. A form that showed stays open in the history (so it can
    /// be resumed, with its last draft); one that never showed leaves no record.
    pub fn abandon(&self) {
        self.with(|j| {
            j.stop_drafts();
            j.pending = None;
            j.recorder = None;
        });
    }
}

impl Journal {
    fn open_now(&mut self) {
        let Some(ask) = self.pending.take() else {
            return;
        };
        let opened = Recorder::open(
            &self.store,
            OpenAsk {
                source: ask.source,
                cwd: ask.cwd,
                title: ask.title,
                payload: &ask.payload,
                origin: ask.origin,
            },
        );
        match opened {
            Ok(recorder) => {
                self.drafts = Some(DraftWriter::spawn(
                    self.store.clone(),
                    recorder.id().to_owned(),
                ));
                self.recorder = Some(recorder);
            }
            Err(e) => (self.report)(&format!(
                "cannot record the ask in {}: {e}; the form opens anyway",
                crate::paths::display(self.store.path())
            )),
        }
    }

    /// Writes what is waiting and stops the writer (so every draft precedes the end).
    fn stop_drafts(&mut self) {
        if let Some(writer) = self.drafts.take() {
            writer.finish();
        }
    }
}

/// The thread that appends drafts to the history (each append is synced to disk).
#[derive(Debug)]
struct DraftWriter {
    sender: Sender<Value>,
    thread: JoinHandle<()>,
}

impl DraftWriter {
    fn spawn(store: HistoryStore, id: String) -> DraftWriter {
        let (sender, receiver) = channel::<Value>();
        let thread = std::thread::spawn(move || write_drafts(&store, &id, &receiver));
        DraftWriter { sender, thread }
    }

    fn send(&self, draft: Value) {
        let _ = self.sender.send(draft);
    }

    fn finish(self) {
        drop(self.sender);
        let _ = self.thread.join();
    }
}

fn write_drafts(store: &HistoryStore, id: &str, receiver: &Receiver<Value>) {
    while let Ok(mut draft) = receiver.recv() {
        // Drafts that arrived meanwhile: only the newest matters.
        while let Ok(newer) = receiver.try_recv() {
            draft = newer;
        }
        // A failed write loses only this draft; the next one (or the end) says it all again.
        let _ = store.append(&Event::Progress {
            id: id.to_owned(),
            at: now_timestamp(),
            draft,
        });
    }
}
