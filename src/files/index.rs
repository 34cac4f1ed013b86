//! The file index behind `@` suggestions: every file and folder under the flow's working
//! directory, walked once on background threads and streamed in, honouring .gitignore, .ignore,
//! git's global and per-repository excludes, and extra globs from the config.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use globset::{Glob, GlobSet, GlobSetBuilder};
use ignore::{WalkBuilder, WalkState};

/// One indexed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Relative to the root, `/`-separated, without a trailing `/`.
    pub path: Box<str>,
    pub is_dir: bool,
    /// Which characters occur in the path (see [`char_bag`]): a one-instruction prefilter.
    pub bag: u64,
    /// Byte offset of the basename in `path`.
    name_start: u32,
}

/// A bit per ASCII letter (case folded), digit and common path punctuation; one bit for anything
/// else. A query can only match a path whose bag contains the query's bag.
pub fn char_bag(text: &str) -> u64 {
    text.bytes().fold(0u64, |bag, b| {
        let bit = match b.to_ascii_lowercase() {
            c @ b'a'..=b'z' => c - b'a',
            c @ b'0'..=b'9' => 26 + c - b'0',
            b'.' => 36,
            b'_' => 37,
            b'-' => 38,
            b'/' => 39,
            b' ' => 40,
            _ => 63,
        };
        bag | (1 << bit)
    })
}

/// Text with accents folded away as nucleo normalizes them (`café` → `cafe`), so the byte-wise
/// prefilter and tiers agree with nucleo's scoring; ASCII text is returned as it is, for free.
pub fn fold(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() {
        std::borrow::Cow::Borrowed(text)
    } else {
        std::borrow::Cow::Owned(text.chars().map(nucleo_matcher::chars::normalize).collect())
    }
}

impl Entry {
    pub fn new(path: impl Into<Box<str>>, is_dir: bool) -> Entry {
        let path = path.into();
        let bag = char_bag(&fold(&path));
        let name_start = path.rfind('/').map_or(0, |i| i + 1) as u32;
        Entry {
            path,
            is_dir,
            bag,
            name_start,
        }
    }

    /// The last path component.
    pub fn name(&self) -> &str {
        &self.path[self.name_start as usize..]
    }

    /// How many folders deep the entry is (0 at the root).
    pub fn depth(&self) -> usize {
        self.path.bytes().filter(|&b| b == b'/').count()
    }
}

/// How to walk.
#[derive(Debug, Clone)]
pub struct IndexOptions {
    /// Extra glob patterns to leave out (matched against the relative path and the name).
    pub exclude: Vec<String>,
    /// Honour the user's global git excludes file (off in tests for determinism).
    pub git_global: bool,
    /// Walker threads (0 picks from the machine).
    pub threads: usize,
}

impl Default for IndexOptions {
    fn default() -> Self {
        IndexOptions {
            exclude: Vec::new(),
            git_global: true,
            threads: 0,
        }
    }
}

#[derive(Debug, Default)]
struct Shared {
    entries: Mutex<Vec<Entry>>,
    complete: AtomicBool,
}

/// A file index that fills in on background threads. Cheap to clone (shared).
#[derive(Debug, Clone)]
pub struct FileIndex {
    root: PathBuf,
    shared: Arc<Shared>,
}

/// Entries flushed to the shared list at a time, so suggestions appear before the walk ends.
const BATCH: usize = 512;

impl FileIndex {
    /// Starts indexing `root` in the background and returns at once.
    pub fn build(root: &Path, options: IndexOptions) -> Result<FileIndex, globset::Error> {
        let exclude = exclude_set(&options.exclude)?;
        let index = FileIndex {
            root: root.to_path_buf(),
            shared: Arc::new(Shared::default()),
        };
        let shared = index.shared.clone();
        let root = root.to_path_buf();
        std::thread::spawn(move || {
            walk(&root, &options, &exclude, &shared);
            shared.complete.store(true, Ordering::Release);
        });
        Ok(index)
    }

    /// An index over fixed entries (for tests and embedding).
    pub fn from_entries(root: &Path, entries: Vec<Entry>) -> FileIndex {
        let shared = Arc::new(Shared {
            entries: Mutex::new(entries),
            complete: AtomicBool::new(true),
        });
        FileIndex {
            root: root.to_path_buf(),
            shared,
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether the walk has finished.
    pub fn is_complete(&self) -> bool {
        self.shared.complete.load(Ordering::Acquire)
    }

    /// Entries found so far.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries found so far (the walk appends while this is not held).
    pub fn entries(&self) -> MutexGuard<'_, Vec<Entry>> {
        self.shared
            .entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Bytes the index holds on the heap (entries and their paths).
    pub fn heap_bytes(&self) -> usize {
        let entries = self.entries();
        entries.capacity() * std::mem::size_of::<Entry>()
            + entries.iter().map(|e| e.path.len()).sum::<usize>()
    }

    /// Blocks until the walk is complete (benchmarks and tests).
    pub fn wait(&self) {
        while !self.is_complete() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

fn exclude_set(patterns: &[String]) -> Result<GlobSet, globset::Error> {
    let mut builder = GlobSetBuilder::new();
    for p in patterns {
        builder.add(Glob::new(p)?);
    }
    builder.build()
}

fn walk(root: &Path, options: &IndexOptions, exclude: &GlobSet, shared: &Arc<Shared>) {
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(options.git_global)
        .ignore(true)
        .parents(true)
        .require_git(false)
        .follow_links(false)
        .threads(options.threads)
        .filter_entry(|e| e.file_name() != ".git");
    builder.build_parallel().run(|| {
        let shared = shared.clone();
        let mut batch: Vec<Entry> = Vec::with_capacity(BATCH);
        let root = root.to_path_buf();
        // Flushes what the thread holds when it is dropped at the end of the walk.
        struct Flush {
            batch: Vec<Entry>,
            shared: Arc<Shared>,
        }
        impl Drop for Flush {
            fn drop(&mut self) {
                if !self.batch.is_empty() {
                    self.shared
                        .entries
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .append(&mut self.batch);
                }
            }
        }
        let mut flush = Flush {
            batch: std::mem::take(&mut batch),
            shared,
        };
        Box::new(move |result| {
            // Unreadable folders and broken entries are skipped without error.
            let Ok(entry) = result else {
                return WalkState::Continue;
            };
            let Ok(relative) = entry.path().strip_prefix(&root) else {
                return WalkState::Continue;
            };
            if relative.as_os_str().is_empty() {
                return WalkState::Continue;
            }
            let path = relative.to_string_lossy().replace('\\', "/");
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if exclude.is_match(&path) || exclude.is_match(entry.file_name()) {
                return if is_dir {
                    WalkState::Skip
                } else {
                    WalkState::Continue
                };
            }
            flush.batch.push(Entry::new(path, is_dir));
            if flush.batch.len() >= BATCH {
                flush
                    .shared
                    .entries
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .append(&mut flush.batch);
            }
            WalkState::Continue
        })
    });
}
