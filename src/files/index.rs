//! The file index behind `@` suggestions: every file and folder under the flow's working
//! directory (up to a cap), walked once on background threads and streamed in, honouring
//! .gitignore, .ignore, git's global and per-repository excludes, and extra globs from the config.
//!
//! Entries are stored compactly in immutable chunks: each chunk holds its folders' paths once and
//! its entries' names in one string, and a 16-byte slot per entry (character bag, name offset and
//! length, folder, kind). A walker thread fills a chunk of its own and publishes it whole, so a
//! search works on a snapshot (a list of shared chunks) and never holds a lock while it runs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
#[cfg(feature = "cli")]
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[cfg(feature = "cli")]
use globset::{Glob, GlobSet, GlobSetBuilder};
#[cfg(feature = "cli")]
use ignore::{WalkBuilder, WalkState};

/// One indexed path, owned (for tests and embedding; the index itself stores entries compactly).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    /// Relative to the root, `/`-separated, without a trailing `/`.
    pub path: String,
    /// Whether it is a folder (suggested with a trailing `/`).
    pub is_dir: bool,
}

impl FileEntry {
    /// An entry for `path` (relative to the index's root).
    pub fn new(path: impl Into<String>, is_dir: bool) -> FileEntry {
        FileEntry {
            path: path.into(),
            is_dir,
        }
    }
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

/// How to walk.
#[derive(Debug, Clone)]
pub struct IndexOptions {
    /// Extra glob patterns to leave out (matched against the relative path and the name).
    pub exclude: Vec<String>,
    /// Honour the user's global git excludes file (off in tests for determinism).
    pub git_global: bool,
    /// Walker threads (0 picks from the machine).
    pub threads: usize,
    /// Most entries indexed; the walk stops there and the index says it is truncated.
    pub max_entries: usize,
}

/// The default cap on indexed entries (`[files] maxEntries`).
pub const DEFAULT_MAX_ENTRIES: usize = 200_000;

impl Default for IndexOptions {
    fn default() -> Self {
        IndexOptions {
            exclude: Vec::new(),
            git_global: true,
            threads: 0,
            max_entries: DEFAULT_MAX_ENTRIES,
        }
    }
}

/// Entries in one chunk (an entry id is `chunk << CHUNK_BITS | slot`).
const CHUNK_BITS: u32 = 10;
const CHUNK: usize = 1 << CHUNK_BITS;

// An entry's `meta` word: where its name ends in the chunk's names, its folder, its kind.
const NAME_END_BITS: u32 = 19;
const NAME_END_MASK: u32 = (1 << NAME_END_BITS) - 1;
const FOLDER_BITS: u32 = 11;
const FOLDER_MASK: u32 = (1 << FOLDER_BITS) - 1;
/// The folder number of an entry at the root (a chunk has at most [`CHUNK`] folders).
const ROOT_FOLDER: u32 = FOLDER_MASK;
const DIR_FLAG: u32 = 1 << (NAME_END_BITS + FOLDER_BITS);
/// The whole path is ASCII (it folds to itself, so searches need not build it).
const ASCII_FLAG: u32 = DIR_FLAG << 1;

/// Up to `CHUNK` entries, immutable once published: 12 bytes per entry plus its name, and each
/// folder's path once.
#[derive(Debug, Default)]
pub struct Chunk {
    /// Every entry's name, back to back (an entry's name ends where the next one starts).
    names: String,
    /// Folder paths, back to back, and where each ends.
    folder_text: String,
    folder_ends: Vec<u32>,
    /// Which characters occur in each entry's path (see [`char_bag`]).
    bags: Vec<u64>,
    /// Each entry's name end, folder and kind (see the `meta` constants).
    meta: Vec<u32>,
}

/// An entry as stored: its folder path (empty at the root) and name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryRef<'a> {
    /// Its folder, with a trailing `/` (empty at the root).
    pub folder: &'a str,
    /// Its name.
    pub name: &'a str,
    /// Whether it is a folder.
    pub is_dir: bool,
    /// Which characters its path has (a prefilter for searches).
    pub bag: u64,
    /// Folder and name are ASCII.
    pub ascii: bool,
}

impl<'a> EntryRef<'a> {
    /// Bytes of the path relative to the root.
    pub fn path_len(&self) -> usize {
        if self.folder.is_empty() {
            self.name.len()
        } else {
            self.folder.len() + 1 + self.name.len()
        }
    }

    /// Writes the path into `out` (cleared first).
    pub fn write_path(&self, out: &mut String) {
        out.clear();
        if !self.folder.is_empty() {
            out.push_str(self.folder);
            out.push('/');
        }
        out.push_str(self.name);
    }

    /// The whole path: folder and name.
    pub fn path(&self) -> String {
        let mut path = String::with_capacity(self.path_len());
        self.write_path(&mut path);
        path
    }
}

impl Chunk {
    fn len(&self) -> usize {
        self.meta.len()
    }

    fn get(&self, slot: usize) -> EntryRef<'_> {
        let meta = self.meta[slot];
        let name_start = match slot {
            0 => 0,
            _ => (self.meta[slot - 1] & NAME_END_MASK) as usize,
        };
        let name = &self.names[name_start..(meta & NAME_END_MASK) as usize];
        let folder = match (meta >> NAME_END_BITS) & FOLDER_MASK {
            ROOT_FOLDER => "",
            f => {
                let f = f as usize;
                let start = match f {
                    0 => 0,
                    _ => self.folder_ends[f - 1] as usize,
                };
                &self.folder_text[start..self.folder_ends[f] as usize]
            }
        };
        EntryRef {
            folder,
            name,
            is_dir: meta & DIR_FLAG != 0,
            bag: self.bags[slot],
            ascii: meta & ASCII_FLAG != 0,
        }
    }

    fn heap_bytes(&self) -> usize {
        self.names.capacity()
            + self.folder_text.capacity()
            + self.folder_ends.capacity() * std::mem::size_of::<u32>()
            + self.bags.capacity() * std::mem::size_of::<u64>()
            + self.meta.capacity() * std::mem::size_of::<u32>()
    }
}

/// Why an entry did not go into a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refused {
    /// The chunk is full: publish it and add the entry to a new one.
    Full,
    /// A name no chunk can hold (longer than any file system allows).
    TooLong,
}

/// A chunk being filled by one walker thread.
#[derive(Debug, Default)]
struct ChunkBuilder {
    chunk: Chunk,
    folders: HashMap<String, u32>,
}

impl ChunkBuilder {
    fn push(&mut self, path: &str, is_dir: bool) -> Result<(), Refused> {
        let (folder, name) = match path.rfind('/') {
            Some(i) => (&path[..i], &path[i + 1..]),
            None => ("", path),
        };
        if name.len() > NAME_END_MASK as usize {
            return Err(Refused::TooLong);
        }
        let chunk = &mut self.chunk;
        let known = self.folders.get(folder).copied();
        let new_folder = !folder.is_empty() && known.is_none();
        if chunk.len() >= CHUNK
            || chunk.names.len() + name.len() > NAME_END_MASK as usize
            || chunk.folder_text.len() + folder.len() > u32::MAX as usize
            || (new_folder && chunk.folder_ends.len() >= ROOT_FOLDER as usize)
        {
            return Err(Refused::Full);
        }
        let folder_number = match known {
            _ if folder.is_empty() => ROOT_FOLDER,
            Some(n) => n,
            None => {
                let n = chunk.folder_ends.len() as u32;
                chunk.folder_text.push_str(folder);
                chunk.folder_ends.push(chunk.folder_text.len() as u32);
                self.folders.insert(folder.to_owned(), n);
                n
            }
        };
        chunk.names.push_str(name);
        chunk.bags.push(char_bag(&fold(path)));
        chunk.meta.push(
            chunk.names.len() as u32
                | folder_number << NAME_END_BITS
                | if is_dir { DIR_FLAG } else { 0 }
                | if path.is_ascii() { ASCII_FLAG } else { 0 },
        );
        Ok(())
    }

    /// Adds an entry, publishing the chunk through `publish` first when it is full.
    fn add(&mut self, path: &str, is_dir: bool, publish: impl FnOnce(Chunk)) {
        if self.push(path, is_dir) == Err(Refused::Full) {
            publish(self.take());
            // An empty chunk takes any entry a file system can name.
            let _ = self.push(path, is_dir);
        }
    }

    /// The chunk, trimmed to what it holds, leaving this builder empty.
    fn take(&mut self) -> Chunk {
        self.folders.clear();
        let mut chunk = std::mem::take(&mut self.chunk);
        chunk.names.shrink_to_fit();
        chunk.folder_text.shrink_to_fit();
        chunk.folder_ends.shrink_to_fit();
        chunk.bags.shrink_to_fit();
        chunk.meta.shrink_to_fit();
        chunk
    }
}

/// The entries found so far, as of one moment: shared chunks, cheap to take and to keep.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    chunks: Vec<Arc<Chunk>>,
}

impl Snapshot {
    /// Chunks in it (entries only ever come in new chunks).
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// Entries in the snapshot.
    pub fn len(&self) -> usize {
        self.chunks.iter().map(|c| c.len()).sum()
    }

    /// Whether the snapshot has no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entry with id `id` (from [`Snapshot::iter`]).
    pub fn get(&self, id: u32) -> EntryRef<'_> {
        self.chunks[(id >> CHUNK_BITS) as usize].get((id as usize) & (CHUNK - 1))
    }

    /// Every entry with its id.
    pub fn iter(&self) -> impl Iterator<Item = (u32, EntryRef<'_>)> {
        self.iter_with_bag(0, 0)
    }

    /// The entries from chunk `from_chunk` on whose character bag holds all of `bag`; the bags
    /// are checked in a tight loop before an entry is looked at.
    pub fn iter_with_bag(
        &self,
        from_chunk: usize,
        bag: u64,
    ) -> impl Iterator<Item = (u32, EntryRef<'_>)> {
        self.chunks
            .iter()
            .enumerate()
            .skip(from_chunk)
            .flat_map(move |(c, chunk)| {
                chunk
                    .bags
                    .iter()
                    .enumerate()
                    .filter(move |(_, b)| **b & bag == bag)
                    .map(move |(s, _)| (((c as u32) << CHUNK_BITS) | s as u32, chunk.get(s)))
            })
    }
}

#[derive(Debug, Default)]
struct Shared {
    chunks: Mutex<Vec<Arc<Chunk>>>,
    /// Entries taken so far (published or not), to stop at the cap.
    #[cfg(feature = "cli")]
    taken: AtomicUsize,
    complete: AtomicBool,
    truncated: AtomicBool,
}

impl Shared {
    fn publish(&self, chunk: Chunk) {
        if chunk.len() > 0 {
            self.chunks
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(Arc::new(chunk));
        }
    }
}

/// A file index that fills in on background threads. Cheap to clone (shared).
#[derive(Debug, Clone)]
pub struct FileIndex {
    root: PathBuf,
    shared: Arc<Shared>,
}

impl FileIndex {
    /// Starts indexing `root` in the background and returns at once.
    #[cfg(feature = "cli")]
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
    pub fn from_entries(root: &Path, entries: Vec<FileEntry>) -> FileIndex {
        let shared = Shared::default();
        let mut builder = ChunkBuilder::default();
        for e in entries {
            builder.add(&e.path, e.is_dir, |chunk| shared.publish(chunk));
        }
        shared.publish(builder.take());
        shared.complete.store(true, Ordering::Release);
        FileIndex {
            root: root.to_path_buf(),
            shared: Arc::new(shared),
        }
    }

    /// The folder indexed.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether the walk has finished.
    pub fn is_complete(&self) -> bool {
        self.shared.complete.load(Ordering::Acquire)
    }

    /// Whether the walk stopped at the entry cap.
    pub fn is_truncated(&self) -> bool {
        self.shared.truncated.load(Ordering::Acquire)
    }

    /// The entries found so far; the walk goes on publishing while it is held.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            chunks: self
                .shared
                .chunks
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone(),
        }
    }

    /// Entries found so far.
    pub fn len(&self) -> usize {
        self.snapshot().len()
    }

    /// Whether nothing is indexed (yet).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries found so far, as owned values (tests and embedding).
    pub fn entries(&self) -> Vec<FileEntry> {
        self.snapshot()
            .iter()
            .map(|(_, e)| FileEntry::new(e.path(), e.is_dir))
            .collect()
    }

    /// Bytes the index holds on the heap (chunks: names, folder paths, slots).
    pub fn heap_bytes(&self) -> usize {
        let snapshot = self.snapshot();
        snapshot.chunks.capacity() * std::mem::size_of::<Arc<Chunk>>()
            + snapshot
                .chunks
                .iter()
                .map(|c| std::mem::size_of::<Chunk>() + c.heap_bytes())
                .sum::<usize>()
    }

    /// Blocks until the walk is complete (benchmarks and tests).
    pub fn wait(&self) {
        while !self.is_complete() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// Whether every exclude glob parses.
#[cfg(feature = "cli")]
pub fn check_globs(patterns: &[String]) -> Result<(), globset::Error> {
    exclude_set(patterns).map(drop)
}

#[cfg(feature = "cli")]
fn exclude_set(patterns: &[String]) -> Result<GlobSet, globset::Error> {
    let mut builder = GlobSetBuilder::new();
    for p in patterns {
        builder.add(Glob::new(p)?);
    }
    builder.build()
}

#[cfg(feature = "cli")]
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
    let max = options.max_entries;
    builder.build_parallel().run(|| {
        let root = root.to_path_buf();
        // Publishes what the thread holds when it is dropped at the end of the walk.
        struct Flush {
            builder: ChunkBuilder,
            shared: Arc<Shared>,
        }
        impl Drop for Flush {
            fn drop(&mut self) {
                self.shared.publish(self.builder.take());
            }
        }
        let mut flush = Flush {
            builder: ChunkBuilder::default(),
            shared: shared.clone(),
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
            if flush.shared.taken.fetch_add(1, Ordering::Relaxed) >= max {
                flush.shared.truncated.store(true, Ordering::Release);
                return WalkState::Quit;
            }
            let shared = &flush.shared;
            flush
                .builder
                .add(&path, is_dir, |chunk| shared.publish(chunk));
            WalkState::Continue
        })
    });
}
