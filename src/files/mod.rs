//! `@` file references in editors: the background file index, fuzzy ranking, and the text a
//! completion inserts.

pub mod complete;
pub mod index;
pub mod search;

pub use complete::{
    AtToken, PathWord, at_token, complete_word, insertion, path_word, word_insertion,
};
pub use index::{Entry, FileIndex, IndexOptions};
pub use search::{Matches, Searcher, Suggestion};

/// Suggestions shown at once (pi shows 20).
pub const SHOWN: usize = 20;
