//! `@` file references in editors: the background file index, fuzzy ranking, and the text a
//! completion inserts.

pub mod complete;
pub mod index;
pub mod search;
pub mod worker;

pub use complete::{
    AtToken, PathWord, at_token, complete_word, insertion, path_word, word_insertion,
};
#[cfg(feature = "cli")]
pub use index::check_globs;
pub use index::{DEFAULT_MAX_ENTRIES, EntryRef, FileEntry, FileIndex, IndexOptions, Snapshot};
pub use search::{Matches, Searcher, Suggestion};
pub use worker::{FileSource, FileWorker, Request, SearchReply};

/// Suggestions shown at once (pi shows 20).
pub const SHOWN: usize = 20;
