//! `editor.externalEditor` (Ctrl+G): the open editor's text edited in the person's own editor,
//! `$VISUAL`, else `$EDITOR`, else `vi`, as pi's own editor offers it. The text goes through a
//! file in a fresh private folder (0700, the file 0600), removed afterwards; the editor gets the
//! terminal (`/dev/tty`, never standard output, which may carry the result).

use crate::bounded_read::{self, ReadRule};
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::process::{Command, Stdio};

/// The editor's program and arguments: `$VISUAL`, else `$EDITOR` (split at whitespace, as pi and
/// git do), else `vi`.
pub fn command() -> Vec<String> {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .map(|value| {
            value
                .split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .find(|words| !words.is_empty())
        .unwrap_or_else(|| vec!["vi".to_owned()])
}

/// Edits `text` in the person's editor on `tty`. `Ok(None)` when the editor could not start or
/// ended with a failure (`:cq` in vi): the text in the form stays as it was.
pub fn edit(text: &str, tty: &File) -> io::Result<Option<String>> {
    let folder = tempfile::Builder::new().prefix("pi-ask-edit-").tempdir()?;
    let path = folder.path().join("answer.md");
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)?;
    file.write_all(text.as_bytes())?;
    drop(file);
    let command = command();
    let status = Command::new(&command[0])
        .args(&command[1..])
        .arg(&path)
        .stdin(Stdio::from(tty.try_clone()?))
        .stdout(Stdio::from(tty.try_clone()?))
        .stderr(Stdio::from(tty.try_clone()?))
        .status();
    match status {
        Ok(status) if status.success() => {
            // The file pi-ask made; the editor may have replaced it, so it is read as any other.
            let edited = ReadRule::capped(bounded_read::DOCUMENT_CAP)
                .no_links()
                .read_text(&path)?;
            // Editors end a file with a line break; the answer does not.
            Ok(Some(
                edited.strip_suffix('\n').unwrap_or(&edited).to_owned(),
            ))
        }
        _ => Ok(None),
    }
}
