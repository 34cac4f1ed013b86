//! Processes a host leaves behind: Codex starts an app-server daemon in a session of its own
//! (reparented to init, so it is nobody's child to wait for) from a binary it installs under
//! the test's HOME. Every test home is swept of them before it is removed.

use std::path::Path;
use std::time::{Duration, Instant};

/// The processes whose program lies under `dir` (by `/proc/PID/exe`, or the first word of its
/// command line when the link cannot be read).
pub fn processes_under(dir: &Path) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| *pid != std::process::id() as i32)
        .filter(|pid| {
            let proc = Path::new("/proc").join(pid.to_string());
            let exe = std::fs::read_link(proc.join("exe")).ok().or_else(|| {
                let cmdline = std::fs::read(proc.join("cmdline")).ok()?;
                let first = cmdline.split(|b| *b == 0).next()?;
                Some(std::path::PathBuf::from(
                    String::from_utf8_lossy(first).into_owned(),
                ))
            });
            exe.is_some_and(|exe| exe.starts_with(&dir))
        })
        .collect()
}

/// Kills every process running a program under `dir`, and waits (up to 5 s) until they are gone.
pub fn kill_processes_under(dir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = processes_under(dir);
        if left.is_empty() || Instant::now() > deadline {
            return;
        }
        for pid in left {
            // SAFETY: kill only sends a signal.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A test's HOME, swept of the processes a host left running from it before it is removed.
pub struct SweptHome(pub tempfile::TempDir);

impl SweptHome {
    pub fn new() -> SweptHome {
        SweptHome(tempfile::tempdir().unwrap())
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Drop for SweptHome {
    fn drop(&mut self) {
        kill_processes_under(self.0.path());
    }
}
