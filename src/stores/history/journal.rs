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
    let mut written: Option<Value> = None;
    while let Ok(mut draft) = receiver.recv() {
        // Drafts that arrived meanwhile: only the newest matters.
        while let Ok(newer) = receiver.try_recv() {
            draft = newer;
        }
        // A move of the cursor or the tab alone is not written: each draft holds every saved
        // text, so forty moves beside a 4.6 MB note wrote 184 MB (issue 43). A resumed form
        // gets the cursor of the last change of what was entered.
        if written
            .as_ref()
            .is_some_and(|last| same_but_cursors(last, &draft))
        {
            continue;
        }
        // A failed write loses only this draft; the next one (or the end) says it all again.
        let appended = store.draft_stored(&draft, id).and_then(|stored| {
            store.append(&Event::Progress {
                id: id.to_owned(),
                at: now_timestamp(),
                draft: stored,
            })
        });
        if appended.is_ok() {
            written = Some(draft);
        }
    }
}

/// Whether two drafts differ at most in where the cursors are (`tab`, `cursors`).
fn same_but_cursors(a: &Value, b: &Value) -> bool {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return a == b;
    };
    let moves = |key: &String| key == "tab" || key == "cursors";
    a.iter()
        .filter(|(k, _)| !moves(k))
        .eq(b.iter().filter(|(k, _)| !moves(k)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_move_alone_is_not_a_change() {
        let draft = |tab: u64, cursor: u64, note: &str| serde_json::json!({"tab": tab, "cursors": [cursor], "answers": [{"note": note}]});
        assert!(same_but_cursors(&draft(0, 1, "n"), &draft(1, 3, "n")));
        assert!(!same_but_cursors(&draft(0, 1, "n"), &draft(0, 1, "m")));
    }

    #[test]
    fn cursor_moves_beside_a_big_note_add_nothing_to_the_history() {
        let dir = tempfile::tempdir().unwrap();
        let store = HistoryStore::new(dir.path().join("h.jsonl"));
        let (sender, receiver) = channel();
        let writer = {
            let store = store.clone();
            std::thread::spawn(move || write_drafts(&store, "0123456789abcdef", &receiver))
        };
        let note = "x".repeat(1 << 20);
        for cursor in 0..20u64 {
            let draft =
                serde_json::json!({"tab": 0, "cursors": [cursor], "answers": [{"note": note}]});
            sender.send(draft).unwrap();
            // Apart, as a person moves: each draft reaches the writer on its own.
            std::thread::sleep(std::time::Duration::from_millis(30));
        }
        drop(sender);
        writer.join().unwrap();
        let len = std::fs::metadata(dir.path().join("h.jsonl")).unwrap().len();
        assert!(len < 2 << 20, "one draft written, not twenty: {len} bytes");
    }
}
