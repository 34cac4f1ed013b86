//! Searching and listing files off the UI thread. The UI sends requests tagged with a generation
//! and never waits; the worker answers only the newest request it has (older ones are stale), and
//! while the index walk streams in it searches again so the popup fills as files are found.

use std::path::Path;
#[cfg(feature = "cli")]
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

#[cfg(feature = "cli")]
use super::IndexOptions;
use super::{FileIndex, Matches, SHOWN, Searcher, complete_word};

/// Where `@` suggestions come from.
#[derive(Debug, Clone)]
pub enum FileSource {
    /// An index that already exists (tests, embedding).
    Index(FileIndex),
    /// A folder to walk, at the first search only.
    #[cfg(feature = "cli")]
    Walk {
        /// The folder.
        root: PathBuf,
        /// How to walk it (excludes, caps, gitignore).
        options: IndexOptions,
    },
}

impl From<FileIndex> for FileSource {
    fn from(index: FileIndex) -> FileSource {
        FileSource::Index(index)
    }
}

impl FileSource {
    /// The folder suggestions are relative to.
    pub fn root(&self) -> &Path {
        match self {
            FileSource::Index(index) => index.root(),
            #[cfg(feature = "cli")]
            FileSource::Walk { root, .. } => root,
        }
    }

    fn open(self) -> FileIndex {
        match self {
            FileSource::Index(index) => index,
            #[cfg(feature = "cli")]
            FileSource::Walk { root, options } => FileIndex::build(&root, options.clone())
                .unwrap_or_else(|_| {
                    // The globs were checked when the flow started; without them the walk still works.
                    FileIndex::build(
                        &root,
                        IndexOptions {
                            exclude: Vec::new(),
                            ..options
                        },
                    )
                    .expect("no globs, no glob errors")
                }),
        }
    }
}

/// A request to the worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Files matching an `@` query.
    Search {
        /// The text after `@`.
        query: String,
        /// The request's number, which the reply carries.
        generation: u64,
    },
    /// The folder of a path word, for Tab completion.
    ListDir {
        /// The path word.
        word: String,
        /// The request's number, which the reply carries.
        generation: u64,
    },
}

impl Request {
    fn generation(&self) -> u64 {
        match self {
            Request::Search { generation, .. } | Request::ListDir { generation, .. } => *generation,
        }
    }
}

/// An answer, for the request of that generation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchReply {
    /// The request this answers.
    pub generation: u64,
    /// The suggestions, best first.
    pub matches: Matches,
    /// The index stopped at its entry cap.
    pub truncated: bool,
    /// The index is still being walked: a fuller answer to the same request follows.
    pub more: bool,
}

/// The UI side of the worker thread.
pub struct FileWorker {
    requests: Sender<Request>,
    replies: Receiver<SearchReply>,
    /// The newest generation asked for, and the newest answered.
    asked: u64,
    answered: u64,
    /// The last search ran on an index still being walked (more answers will come).
    streaming: bool,
}

/// How often a search over an index that is still being walked is run again.
const STREAM_REFRESH: Duration = Duration::from_millis(50);

impl FileWorker {
    /// Starts the worker thread; the index is opened at the first search.
    pub fn spawn(source: FileSource) -> FileWorker {
        let (requests, inbox) = mpsc::channel::<Request>();
        let (outbox, replies) = mpsc::channel::<SearchReply>();
        std::thread::Builder::new()
            .name("pi-ask-files".into())
            .spawn(move || serve(source, &inbox, &outbox))
            .expect("spawning the file search thread");
        FileWorker {
            requests,
            replies,
            asked: 0,
            answered: 0,
            streaming: false,
        }
    }

    /// Sends a request; never blocks.
    pub fn request(&mut self, request: Request) {
        self.asked = self.asked.max(request.generation());
        self.streaming = false;
        // A worker that has gone (it cannot) just never answers; the popup stays as it is.
        let _ = self.requests.send(request);
    }

    /// Whether an answer is still expected (the loop should wake up soon to take it).
    pub fn is_busy(&self) -> bool {
        self.answered < self.asked || self.streaming
    }

    /// Answers that have arrived, without waiting.
    pub fn take_replies(&mut self) -> Vec<SearchReply> {
        let replies: Vec<SearchReply> = self.replies.try_iter().collect();
        self.note(&replies);
        replies
    }

    /// Waits up to `timeout` for the answer to the newest request (tests and the harness).
    pub fn wait_replies(&mut self, timeout: Duration) -> Vec<SearchReply> {
        let mut replies = Vec::new();
        let deadline = std::time::Instant::now() + timeout;
        while self.answered < self.asked {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.replies.recv_timeout(left) {
                Ok(reply) => {
                    self.note(std::slice::from_ref(&reply));
                    replies.push(reply);
                }
                Err(_) => break,
            }
        }
        replies.extend(self.take_replies());
        replies
    }

    fn note(&mut self, replies: &[SearchReply]) {
        for reply in replies {
            self.answered = self.answered.max(reply.generation);
            if reply.generation == self.asked {
                self.streaming = reply.more;
            }
        }
    }
}

/// The worker thread: the index, the searcher, and the newest request.
fn serve(source: FileSource, inbox: &Receiver<Request>, outbox: &Sender<SearchReply>) {
    let root = source.root().to_path_buf();
    let mut source = Some(source);
    let mut index: Option<FileIndex> = None;
    let mut searcher = Searcher::default();
    // The last search, to run again while the walk streams in: query, generation, entries seen.
    let mut last: Option<(String, u64, usize)> = None;
    loop {
        // `last` is kept only while the walk was still running: wake up to search again, and once
        // more after the walk ends, so the final answer says no more will follow.
        let next = if last.is_some() {
            inbox.recv_timeout(STREAM_REFRESH)
        } else {
            inbox.recv().map_err(|_| RecvTimeoutError::Disconnected)
        };
        let request = match next {
            Ok(first) => inbox.try_iter().last().unwrap_or(first),
            Err(RecvTimeoutError::Timeout) => {
                let Some((query, generation, seen)) = last.clone() else {
                    continue;
                };
                let index = index.as_ref().expect("a search opened the index");
                if index.len() == seen && !index.is_complete() {
                    continue;
                }
                Request::Search { query, generation }
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        let reply = match request {
            Request::Search { query, generation } => {
                let index = index.get_or_insert_with(|| {
                    source.take().expect("the source is opened once").open()
                });
                let seen = index.len();
                let matches = searcher.search(index, &query, SHOWN);
                let more = !index.is_complete();
                last = more.then_some((query, generation, seen));
                SearchReply {
                    generation,
                    matches,
                    truncated: index.is_truncated(),
                    more,
                }
            }
            Request::ListDir { word, generation } => {
                last = None;
                let mut items = complete_word(&root, &word);
                let total = items.len();
                items.truncate(SHOWN);
                SearchReply {
                    generation,
                    matches: Matches { items, total },
                    truncated: false,
                    more: false,
                }
            }
        };
        if outbox.send(reply).is_err() {
            return;
        }
    }
}
