//! Who besides the user can change a file or folder pi-ask trusts, and where root must create
//! nothing. One rule for every place that asks: the folders that keep answers
//! ([`crate::private_dir`], cli only), the config that may run commands ([`crate::stores::config::trust`]).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// How someone other than the user (or root) could change a file or folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OthersCan {
    /// It belongs to them (uid).
    Own(u32),
    /// Group or others can write it (its permission bits).
    Write(u32),
}

/// Whether someone other than this user or root could change what `meta` describes: its owner,
/// or anyone who can write it. In a sticky folder (`/tmp`) only an entry's owner can rename or
/// remove it, so writing there changes nothing already in it: `sticky_protects` says whether
/// that counts (it does for a folder above one pi-ask keeps, not for a file's own bits).
pub(crate) fn others_can_change(
    meta: &std::fs::Metadata,
    sticky_protects: bool,
) -> Option<OthersCan> {
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me && meta.uid() != 0 {
        return Some(OthersCan::Own(meta.uid()));
    }
    let sticky = sticky_protects && meta.mode() & libc::S_ISVTX != 0;
    (meta.mode() & 0o022 != 0 && !sticky).then_some(OthersCan::Write(meta.mode() & 0o7777))
}

/// When pi-ask runs as root and the nearest existing folder of `path` (or `path` itself)
/// belongs to another user, that folder and its owner: root would leave files there the user
/// can no longer use (`sudo -E pi-ask …` with the user's HOME), so nothing is created there.
pub(crate) fn users_folder_under_root(path: &Path) -> Option<(PathBuf, u32)> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    let absolute = crate::paths::absolute(path);
    let existing = absolute.ancestors().find(|p| p.exists())?;
    let owner = std::fs::metadata(existing).ok()?.uid();
    (owner != 0).then(|| (existing.to_path_buf(), owner))
}

/// The sentence saying that root creates nothing in `folder` of user `owner`.
pub(crate) fn root_creates_nothing(folder: &Path, owner: u32) -> String {
    format!(
        "pi-ask runs as root, and {} belongs to user {owner}: it creates nothing there, so the user's files stay theirs. Run pi-ask as that user, or give root a HOME of its own",
        crate::printable::printable(&crate::paths::display(folder))
    )
}

/// Why someone other than this user (or root) could change the program at `path`, which a host
/// will run as the user: the file itself, or any folder above where it really is (a sticky
/// folder protects what is in it). `None` when nobody else can.
#[cfg(feature = "cli")]
pub(crate) fn program_changeable_because(path: &Path) -> Option<String> {
    let shown = |p: &Path| crate::printable::printable(&crate::paths::display(p));
    let real = match std::fs::canonicalize(path) {
        Ok(real) => real,
        Err(e) => return Some(format!("{} cannot be looked at ({e})", shown(path))),
    };
    for (n, at) in real.ancestors().enumerate() {
        let meta = match std::fs::metadata(at) {
            Ok(meta) => meta,
            Err(e) => return Some(format!("{} cannot be looked at ({e})", shown(at))),
        };
        let what = if n == 0 {
            shown(at)
        } else {
            format!("its folder {}", shown(at))
        };
        match others_can_change(&meta, n > 0) {
            None => {}
            Some(OthersCan::Own(owner)) => {
                return Some(format!("{what} belongs to another user (uid {owner})"));
            }
            Some(OthersCan::Write(mode)) => {
                return Some(format!("{what} can be written by others (mode {mode:o})"));
            }
        }
    }
    None
}
