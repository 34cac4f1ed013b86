//! The one way pi-ask reads a file: opened without blocking (a FIFO planted at a config path
//! must not hang a form, an MCP server or `doctor`), a regular file only (a link to `/dev/zero`
//! must not read until memory runs out), and at most a cap that depends on what the file is.
//! What is over its cap is named in the error, never loaded.
//!
//! Every file pi-ask reads goes through [`ReadRule::read`]: the config and its legacy JSON,
//! the history and its blobs, pi session files, payload and message files, queue entries, the
//! text an external editor leaves. Standard input, which is not a file, is capped by
//! [`read_stream`].

use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::Path;

const MIB: u64 = 1024 * 1024;
/// A config file (TOML or the legacy JSON): a long keymap is a few kilobytes.
pub const CONFIG_CAP: u64 = 4 * MIB;
/// The history: compaction keeps it near 16 MiB; four times that leaves room for the drafts a
/// long session writes before the next compaction.
pub const HISTORY_CAP: u64 = 64 * MIB;
/// A payload (file or standard input), a blob of the history, a pi session file, the text an
/// external editor leaves: a 100 MB prompt is answerable, a runaway file is not.
pub const DOCUMENT_CAP: u64 = 256 * MIB;

/// Whether the last path component may be a symbolic link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    /// Follow it (a user may link their config or history elsewhere).
    Follow,
    /// Refuse it (`O_NOFOLLOW`: queue entries and blobs are never links).
    Refuse,
}

/// Whose file is accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// Anyone's (a payload file the user names).
    Anyone,
    /// This user's only (queue entries and answers: another user's file there is planted).
    Me,
}

/// How one kind of file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadRule {
    /// The most bytes read.
    pub cap: u64,
    /// Whether a link is followed.
    pub links: Links,
    /// Whose file is accepted.
    pub owner: Owner,
}

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadRefused {
    /// Opening or reading failed (a missing file is `NotFound`).
    #[error("{0}")]
    Io(#[from] io::Error),
    /// It is a FIFO, a device, a socket or a folder.
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    /// It is larger than its cap.
    #[error("it is {size} bytes, over pi-ask's limit of {cap} bytes for it, so it was not read")]
    TooLarge {
        /// Its size.
        size: u64,
        /// The cap.
        cap: u64,
    },
    /// It belongs to another user where only the user's own files are trusted.
    #[error("it belongs to another user (uid {0})")]
    NotMine(u32),
    /// It is not UTF-8 text (from [`ReadRule::read_text`]).
    #[error("it is not UTF-8 text")]
    NotText,
}

impl ReadRefused {
    /// Whether the file is simply not there (or a folder above it is a file).
    pub fn is_missing(&self) -> bool {
        matches!(self, ReadRefused::Io(e)
            if matches!(e.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory))
    }
}

impl From<ReadRefused> for io::Error {
    fn from(refused: ReadRefused) -> io::Error {
        match refused {
            ReadRefused::Io(e) => e,
            ReadRefused::NotMine(_) => io::Error::new(io::ErrorKind::PermissionDenied, refused),
            other => io::Error::new(io::ErrorKind::InvalidData, other),
        }
    }
}

impl ReadRule {
    /// Any regular file of at most `cap` bytes, through a link too.
    pub const fn capped(cap: u64) -> ReadRule {
        ReadRule {
            cap,
            links: Links::Follow,
            owner: Owner::Anyone,
        }
    }

    /// The same rule with another cap.
    pub const fn with_cap(self, cap: u64) -> ReadRule {
        ReadRule { cap, ..self }
    }

    /// The same, refusing a link at the last component.
    pub const fn no_links(self) -> ReadRule {
        ReadRule {
            links: Links::Refuse,
            ..self
        }
    }

    /// The same, refusing another user's file.
    pub const fn mine_only(self) -> ReadRule {
        ReadRule {
            owner: Owner::Me,
            ..self
        }
    }

    /// Reads the file at `path` by this rule.
    pub fn read(&self, path: &Path) -> Result<Vec<u8>, ReadRefused> {
        let mut flags = libc::O_NONBLOCK | libc::O_NOCTTY;
        if self.links == Links::Refuse {
            flags |= libc::O_NOFOLLOW;
        }
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(flags)
            .open(path)?;
        let meta = file.metadata()?;
        let kind = meta.file_type();
        if !kind.is_file() {
            return Err(ReadRefused::NotRegular(if kind.is_fifo() {
                "a named pipe (FIFO)"
            } else if kind.is_char_device() || kind.is_block_device() {
                "a device"
            } else if kind.is_socket() {
                "a socket"
            } else if kind.is_dir() {
                "a folder"
            } else {
                "a special file"
            }));
        }
        // SAFETY: geteuid has no preconditions.
        if self.owner == Owner::Me && meta.uid() != unsafe { libc::geteuid() } {
            return Err(ReadRefused::NotMine(meta.uid()));
        }
        if meta.len() > self.cap {
            return Err(ReadRefused::TooLarge {
                size: meta.len(),
                cap: self.cap,
            });
        }
        // The size can change between the stat and the read (a file still growing): the read
        // stops one byte past the cap either way.
        read_stream(file, self.cap, meta.len())
    }

    /// [`ReadRule::read`] as UTF-8 text.
    pub fn read_text(&self, path: &Path) -> Result<String, ReadRefused> {
        String::from_utf8(self.read(path)?).map_err(|_| ReadRefused::NotText)
    }
}

/// Reads at most `cap` bytes from `stream` (standard input, an opened file), refusing more.
/// `expected` sizes the buffer (0 when unknown).
pub fn read_stream(stream: impl Read, cap: u64, expected: u64) -> Result<Vec<u8>, ReadRefused> {
    let mut bytes = Vec::with_capacity(expected.min(cap) as usize);
    stream.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(ReadRefused::TooLarge {
            size: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_regular_file_within_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"hello").unwrap();
        assert_eq!(ReadRule::capped(5).read(&path).unwrap(), b"hello");
        assert!(matches!(
            ReadRule::capped(4).read(&path),
            Err(ReadRefused::TooLarge { size: 5, cap: 4 })
        ));
    }

    #[test]
    fn a_fifo_is_refused_at_once_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fifo");
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let refused = ReadRule::capped(CONFIG_CAP).read(&path).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "it is a named pipe (FIFO), not a regular file"
        );
    }

    #[test]
    fn a_device_or_folder_is_refused() {
        assert!(matches!(
            ReadRule::capped(CONFIG_CAP).read(Path::new("/dev/zero")),
            Err(ReadRefused::NotRegular("a device"))
        ));
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            ReadRule::capped(CONFIG_CAP).read(dir.path()),
            Err(ReadRefused::NotRegular("a folder"))
        ));
    }

    #[test]
    fn a_link_is_followed_or_refused_by_the_rule() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        std::fs::write(&target, b"x").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert_eq!(ReadRule::capped(9).read(&link).unwrap(), b"x");
        assert!(ReadRule::capped(9).no_links().read(&link).is_err());
        let zero = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert!(matches!(
            ReadRule::capped(u64::MAX).read(&zero),
            Err(ReadRefused::NotRegular(_))
        ));
    }

    #[test]
    fn a_missing_file_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            ReadRule::capped(9)
                .read(&dir.path().join("none"))
                .unwrap_err()
                .is_missing()
        );
    }

    #[test]
    fn a_stream_is_cut_past_its_cap() {
        assert_eq!(read_stream(&b"abc"[..], 3, 0).unwrap(), b"abc");
        assert!(matches!(
            read_stream(io::repeat(0), 1024, 0),
            Err(ReadRefused::TooLarge { cap: 1024, .. })
        ));
    }
}
