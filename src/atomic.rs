//! Replacing a file atomically: the bytes go to a temp file in the same folder, which is synced and
//! renamed over the file, so a reader sees the old file or the new one, never half of one; a failed
//! write removes the temp file and leaves the old file as it was.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Who may read the new file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permissions {
    /// 0600: pi-ask's own state (history, queue).
    Private,
    /// As the file being replaced had them (a user's config); 0600 for a new file.
    KeepExisting,
}

/// Writes `bytes` to `path` atomically.
pub fn write(path: &Path, bytes: &[u8], permissions: Permissions) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        if permissions == Permissions::KeepExisting
            && let Ok(meta) = std::fs::metadata(path)
        {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)?;
        // The rename itself is durable once the folder is synced.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
