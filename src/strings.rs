//! Texts the form shows that are not a key hint (hint verbs live in the action table,
//! `src/keymap/action.rs`), kept in one place so wording is reviewed and changed together.

/// The `@` popup with nothing to offer.
pub const NO_MATCHING_FILES: &str = "no matching files";

/// After the popup's count (or `no matching files`) when the file index stopped at its cap.
pub const INDEX_TRUNCATED: &str = " (index truncated)";
