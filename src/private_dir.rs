//! Folders pi-ask trusts with answers (the queue, the history, a form's socket): created 0700
//! when missing; when they exist, they must be real folders (not links), owned by this user and
//! writable by nobody else. Anyone who can write such a folder could plant an ask, forge an
//! answer, or redirect a write, so such a folder is refused with an error that names the fix.

use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

use crate::ownership::OthersCan;

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
    /// A folder above it belongs to another user, who could swap it for a folder of their own.
    #[error(
        "{} belongs to another user (uid {owner}), who could swap {} for a folder of their own; use a folder elsewhere",
        display(.ancestor),
        display(.folder)
    )]
    ForeignAncestor {
        /// The folder above.
        ancestor: PathBuf,
        /// The folder pi-ask would use.
        folder: PathBuf,
        /// Its owner's uid.
        owner: u32,
    },
    /// A folder above it can be written by others and is not sticky: another user could rename
    /// the folder away and put one of their own in its place.
    #[error(
        "{} can be written by others (mode {mode:o}), who could swap {} for a folder of their own; run `chmod go-w {}` or use a folder elsewhere",
        display(.ancestor),
        display(.folder),
        display(.ancestor)
    )]
    SwappableAncestor {
        /// The folder above.
        ancestor: PathBuf,
        /// The folder pi-ask would use.
        folder: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// pi-ask runs as root in a folder of another user.
    #[error("{}", crate::ownership::root_creates_nothing(.folder, *.owner))]
    RootInUsersFolder {
        /// The user's folder.
        folder: PathBuf,
        /// Its owner.
        owner: u32,
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
            // Root creates nothing in a user's folder, and nothing is created below a folder
            // another user could swap.
            if let Some((folder, owner)) = crate::ownership::users_folder_under_root(dir) {
                return Err(UnsafeFolder::RootInUsersFolder { folder, owner });
            }
            check_ancestors(dir)?;
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
    check_ancestors(dir)
}

/// Checks every folder above `dir`, as OpenSSH checks the folders above `authorized_keys`:
/// each must belong to root or this user, and others may not write it unless it is sticky (in
/// `/tmp`, only an entry's owner can rename it). Otherwise its owner, or anyone who can write
/// it, could rename `dir` away and put a folder of their own in its place after it was checked.
/// Links above `dir` are resolved first: what is checked is where the path really leads.
pub fn check_ancestors(dir: &Path) -> Result<(), UnsafeFolder> {
    let absolute = crate::paths::absolute(dir);
    // The folders that exist above it (the rest is yet to be created, 0700, by pi-ask).
    let mut parent = absolute.parent().unwrap_or(Path::new("/"));
    while !parent.exists()
        && let Some(up) = parent.parent()
    {
        parent = up;
    }
    let real = std::fs::canonicalize(parent).map_err(|source| UnsafeFolder::Io {
        path: parent.to_path_buf(),
        source,
    })?;
    for ancestor in real.ancestors() {
        let meta = std::fs::metadata(ancestor).map_err(|source| UnsafeFolder::Io {
            path: ancestor.to_path_buf(),
            source,
        })?;
        let (ancestor, folder) = (ancestor.to_path_buf(), dir.to_path_buf());
        match crate::ownership::others_can_change(&meta, true) {
            None => {}
            Some(OthersCan::Own(owner)) => {
                return Err(UnsafeFolder::ForeignAncestor {
                    ancestor,
                    folder,
                    owner,
                });
            }
            Some(OthersCan::Write(mode)) => {
                return Err(UnsafeFolder::SwappableAncestor {
                    ancestor,
                    folder,
                    mode,
                });
            }
        }
    }
    Ok(())
}

/// Whether others can write `dir` (a shared folder such as /tmp), following links.
pub fn writable_by_others(dir: &Path) -> bool {
    std::fs::metadata(dir).is_ok_and(|m| m.mode() & 0o022 != 0)
}
