//! Folders pi-ask trusts with answers (the queue, the history, a form's socket): created 0700
//! when missing; when they exist, they must be real folders (not links), owned by this user and
//! writable by nobody else. Anyone who can write such a folder could plant an ask, forge an
//! answer, or redirect a write, so such a folder is refused with an error that names the fix.

use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

/// Why a folder is not trusted.
#[derive(Debug, thiserror::Error)]
pub enum UnsafeFolder {
    /// It is a symbolic link.
    #[error("{} is a symbolic link; give the real folder instead", display(.0))]
    Link(PathBuf),
    /// It is not a folder.
    #[error("{} is not a folder", display(.0))]
    NotAFolder(PathBuf),
    /// It belongs to another user.
    #[error(
        "{} belongs to another user (uid {owner}); use a folder of your own",
        display(.path)
    )]
    NotOwned {
        /// The folder.
        path: PathBuf,
        /// Its owner's uid.
        owner: u32,
    },
    /// Others can write in it.
    #[error(
        "{} can be written by others (mode {mode:o}), who could plant asks or forge answers there; run `chmod 700 {}` or use a private folder",
        display(.path),
        display(.path)
    )]
    Shared {
        /// The folder.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// It could not be checked or created.
    #[error("cannot use {}: {source}", display(.path))]
    Io {
        /// The folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
}

impl From<UnsafeFolder> for io::Error {
    /// As an I/O error (permission denied, with the message and its fix).
    fn from(e: UnsafeFolder) -> io::Error {
        match e {
            UnsafeFolder::Io { source, .. } => source,
            unsafe_folder => {
                io::Error::new(io::ErrorKind::PermissionDenied, unsafe_folder.to_string())
            }
        }
    }
}

fn display(path: &Path) -> String {
    crate::printable::printable(&crate::paths::display(path))
}

/// Creates `dir` (and its parents) 0700 if missing, then checks it as described above.
pub fn ensure_private_dir(dir: &Path) -> Result<(), UnsafeFolder> {
    let io_error = |source| UnsafeFolder::Io {
        path: dir.to_path_buf(),
        source,
    };
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)
                .map_err(io_error)?;
        }
        Err(e) => return Err(io_error(e)),
        Ok(_) => {}
    }
    check_private_dir(dir)
}

/// Checks an existing folder: a real folder, this user's, writable by nobody else.
pub fn check_private_dir(dir: &Path) -> Result<(), UnsafeFolder> {
    let meta = std::fs::symlink_metadata(dir).map_err(|source| UnsafeFolder::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    if meta.file_type().is_symlink() {
        return Err(UnsafeFolder::Link(dir.to_path_buf()));
    }
    if !meta.is_dir() {
        return Err(UnsafeFolder::NotAFolder(dir.to_path_buf()));
    }
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(UnsafeFolder::NotOwned {
            path: dir.to_path_buf(),
            owner: meta.uid(),
        });
    }
    if meta.mode() & 0o022 != 0 {
        return Err(UnsafeFolder::Shared {
            path: dir.to_path_buf(),
            mode: meta.mode() & 0o7777,
        });
    }
    Ok(())
}

/// Whether others can write `dir` (a shared folder such as /tmp), following links.
pub fn writable_by_others(dir: &Path) -> bool {
    std::fs::metadata(dir).is_ok_and(|m| m.mode() & 0o022 != 0)
}

/// Reads a file pi-ask keeps (a queued ask, an answer, the history): a regular file only, never
/// blocking on a FIFO planted at its name, at most `cap` bytes; through a link only when
/// `follow_links` (a user may link their history elsewhere; queue files are never links).
pub fn read_regular(path: &Path, cap: u64, follow_links: bool) -> io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let flags = libc::O_NONBLOCK | if follow_links { 0 } else { libc::O_NOFOLLOW };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "not a regular file",
        ));
    }
    if meta.len() > cap {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} bytes, over the limit of {cap}", meta.len()),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("over the limit of {cap} bytes"),
        ));
    }
    Ok(bytes)
}
