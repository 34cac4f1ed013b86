//! Saved texts of a draft kept once. A draft holds every saved note and own answer, and a draft
//! is written at every change: a 4.6 MB note was rewritten whole, fsynced, into each record
//! (issue 43). A text longer than any editor's live text is kept instead in a file of its own
//! beside the history, named by its content (`blobs/<id>.text.<hash>.txt`), written once and
//! referred to by every draft that holds it: `{"piAskText": "<name>", "bytes": N}`.

use std::io;

use serde_json::{Map, Value};

use super::HistoryStore;
use crate::bounded_read::{self, ReadRule};

/// A text up to this long stays in the draft (the live editor text is capped at this, so only
/// saved texts, which change rarely, go to files).
pub const TEXT_INLINE_MAX: usize = crate::model::MAX_DRAFT_EDITOR_BYTES;
/// The key of a reference to a kept text.
pub const TEXT_KEY: &str = "piAskText";

/// FNV-1a, 64 bits: a name for a text within one ask; a clash is caught when the file is there
/// with other bytes (the text then stays inline).
fn content_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Whether `name` is the name of a kept text of ask `id`.
pub fn is_text_of(name: &str, id: &str) -> bool {
    name.strip_prefix(id)
        .and_then(|rest| rest.strip_prefix(".text."))
        .and_then(|rest| rest.strip_suffix(".txt"))
        .is_some_and(|hash| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The kept texts a draft of ask `id` refers to.
pub fn referenced<'a>(draft: &'a Value, id: &str, out: &mut Vec<&'a str>) {
    match draft {
        Value::Object(map) => match reference(map, id) {
            Some(name) => out.push(name),
            None => map.values().for_each(|v| referenced(v, id, out)),
        },
        Value::Array(items) => items.iter().for_each(|v| referenced(v, id, out)),
        _ => {}
    }
}

fn reference<'a>(map: &'a Map<String, Value>, id: &str) -> Option<&'a str> {
    if map.len() != 2 || !map.get("bytes").is_some_and(Value::is_u64) {
        return None;
    }
    let name = map.get(TEXT_KEY)?.as_str()?;
    is_text_of(name, id).then_some(name)
}

impl HistoryStore {
    /// `draft` as the history keeps it: each text over 64 KiB kept once in a file
    /// of its own, with a reference in its place.
    pub fn draft_stored(&self, draft: &Value, id: &str) -> io::Result<Value> {
        Ok(match draft {
            Value::String(text) if text.len() > TEXT_INLINE_MAX => self.keep_text(text, id)?,
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|v| self.draft_stored(v, id))
                    .collect::<io::Result<_>>()?,
            ),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| Ok((k.clone(), self.draft_stored(v, id)?)))
                    .collect::<io::Result<_>>()?,
            ),
            other => other.clone(),
        })
    }

    fn keep_text(&self, text: &str, id: &str) -> io::Result<Value> {
        let name = format!("{id}.text.{:016x}.txt", content_hash(text.as_bytes()));
        let dir = self.blob_dir();
        crate::private_dir::ensure_private_dir(&dir)?;
        let path = dir.join(&name);
        match crate::atomic::create(&path, text.as_bytes()) {
            Ok(()) => {}
            // Kept already (the same text in an earlier draft): written once.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                let kept = TEXT_FILE.with_cap(text.len() as u64).read(&path);
                if !kept.is_ok_and(|bytes| bytes == text.as_bytes()) {
                    return Ok(Value::String(text.to_owned()));
                }
            }
            Err(e) => return Err(e),
        }
        Ok(serde_json::json!({ TEXT_KEY: name, "bytes": text.len() }))
    }

    /// A recorded draft of ask `id` with its kept texts read back.
    pub fn draft_resolved(&self, draft: &Value, id: &str) -> io::Result<Value> {
        Ok(match draft {
            Value::Object(map) => match reference(map, id) {
                Some(name) => Value::String(TEXT_FILE.read_text(&self.blob_dir().join(name))?),
                None => Value::Object(
                    map.iter()
                        .map(|(k, v)| Ok((k.clone(), self.draft_resolved(v, id)?)))
                        .collect::<io::Result<_>>()?,
                ),
            },
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|v| self.draft_resolved(v, id))
                    .collect::<io::Result<_>>()?,
            ),
            other => other.clone(),
        })
    }
}

/// Kept texts are the user's own regular files, never links.
const TEXT_FILE: ReadRule = ReadRule::capped(bounded_read::DOCUMENT_CAP)
    .no_links()
    .mine_only();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_kept_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let store = HistoryStore::new(dir.path().join("h.jsonl"));
        let id = "0123456789abcdef";
        let note = "n".repeat(TEXT_INLINE_MAX + 1);
        let draft =
            serde_json::json!({"tab": 0, "answers": [{"note": note, "customText": "short"}]});
        let stored = store.draft_stored(&draft, id).unwrap();
        assert!(serde_json::to_vec(&stored).unwrap().len() < 200);
        assert_eq!(store.draft_stored(&draft, id).unwrap(), stored, "same name");
        let files = std::fs::read_dir(dir.path().join("blobs")).unwrap().count();
        assert_eq!(files, 1, "written once");
        assert_eq!(store.draft_resolved(&stored, id).unwrap(), draft);
        let mut names = Vec::new();
        referenced(&stored, id, &mut names);
        assert_eq!(names.len(), 1);
        assert!(is_text_of(names[0], id));
        // Another ask's reference is a value, not a way to read its text.
        assert_eq!(
            store.draft_resolved(&stored, "fedcba9876543210").unwrap(),
            stored
        );
    }
}
