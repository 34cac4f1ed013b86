//! Replacing a file atomically: the bytes go to a temp file in the same folder, which is synced and
//! renamed over the file, so a reader sees the old file or the new one, never half of one; a failed
//! write removes the temp file and leaves the old file as it was.
//!
//! The temp file has a random name and is created with `O_CREAT|O_EXCL` (which never follows a
//! link) and mode 0600 (the `tempfile` crate), so a name planted in advance by someone else can
//! neither redirect the write nor take it over. The rename replaces the name, never what a link
//! at the name points to. Temp files a killed process left behind are removed by
//! [`remove_leftovers`] at the next start.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

/// The prefix and suffix of every temp file pi-ask writes (what [`remove_leftovers`] removes).
pub const TEMP_PREFIX: &str = ".pi-ask-";
/// The suffix of every temp file pi-ask writes.
pub const TEMP_SUFFIX: &str = ".tmp";

/// A temp file older than this is a leftover of a killed process (a save takes milliseconds).
pub const LEFTOVER_AGE: Duration = Duration::from_secs(10 * 60);

/// Who may read the new file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permissions {
    /// 0600: pi-ask's own state (history, queue).
    Private,
    /// As the file being replaced had them (a user's config); 0600 for a new file.
    KeepExisting,
}

fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Writes `bytes` to `path` atomically.
pub fn write(path: &Path, bytes: &[u8], permissions: Permissions) -> io::Result<()> {
    put(path, bytes, permissions, Placing::Replace)
}

/// Creates `path` with `bytes` atomically (mode 0600), never replacing anything at the name:
/// a file someone made there since it was found missing stays as it is, and the call fails with
/// [`io::ErrorKind::AlreadyExists`].
pub fn create(path: &Path, bytes: &[u8]) -> io::Result<()> {
    put(path, bytes, Permissions::Private, Placing::New)
}

/// Whether the temp file takes the name over or only a free name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Placing {
    Replace,
    New,
}

fn put(path: &Path, bytes: &[u8], permissions: Permissions, placing: Placing) -> io::Result<()> {
    let prepared = prepare(folder_of(path), bytes)?;
    if permissions == Permissions::KeepExisting
        && let Ok(meta) = std::fs::symlink_metadata(path)
        && meta.is_file()
    {
        prepared.tmp.as_file().set_permissions(meta.permissions())?;
    }
    prepared.place(path, placing)
}

/// Bytes written and synced to a temp file (mode 0600) in a folder, not yet under their name:
/// what cannot fit on the disk fails here, before anything else is decided. Dropped without
/// [`Prepared::replace`], the temp file is removed.
#[derive(Debug)]
pub struct Prepared {
    tmp: tempfile::NamedTempFile,
}

/// Writes `bytes` to a new temp file in `dir` and syncs it.
pub fn prepare(dir: &Path, bytes: &[u8]) -> io::Result<Prepared> {
    // Removed on drop unless persisted: a failed write leaves nothing behind.
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    Ok(Prepared { tmp })
}

impl Prepared {
    /// Renames the temp file over `path` (in the folder it was prepared in).
    pub fn replace(self, path: &Path) -> io::Result<()> {
        self.place(path, Placing::Replace)
    }

    fn place(self, path: &Path, placing: Placing) -> io::Result<()> {
        match placing {
            Placing::Replace => self.tmp.persist(path).map_err(|e| e.error)?,
            Placing::New => self.tmp.persist_noclobber(path).map_err(|e| e.error)?,
        };
        // The rename itself is durable once the folder is synced.
        if let Ok(d) = File::open(folder_of(path)) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// Removes pi-ask's temp files older than [`LEFTOVER_AGE`] from `dir` (left by a process killed
/// mid-save); only regular files of this user with pi-ask's temp name, never through a link.
pub fn remove_leftovers(dir: &Path) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)) {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= LEFTOVER_AGE);
        if meta.is_file() && meta.uid() == me && old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn create_makes_a_private_file_and_never_takes_a_name_over() {
        let dir = tempfile::tempdir().unwrap();
        let fresh = dir.path().join("made.toml");
        create(&fresh, b"new").unwrap();
        assert_eq!(std::fs::read(&fresh).unwrap(), b"new");
        let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);

        let taken = dir.path().join("taken.toml");
        std::fs::write(&taken, "theirs").unwrap();
        let err = create(&taken, b"ours").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read_to_string(&taken).unwrap(), "theirs");

        // A link planted at the name is not followed, and what it points to is untouched.
        let target = dir.path().join("target");
        std::fs::write(&target, "elsewhere").unwrap();
        let link = dir.path().join("link.toml");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert_eq!(
            create(&link, b"ours").unwrap_err().kind(),
            io::ErrorKind::AlreadyExists
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "elsewhere");

        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(TEMP_PREFIX))
            .collect();
        assert!(left.is_empty(), "temp files left: {left:?}");
    }
}
