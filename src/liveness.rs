//! Telling a form that is still open in another terminal from one whose process is gone.
//!
//! A pid alone is not enough after a reboot or a long time (pids are reused), so the process's
//! start time (Linux: field 22 of `/proc/<pid>/stat`, in clock ticks since boot) is kept beside it
//! where the system offers it, together with the boot's id.

use serde::{Deserialize, Serialize};

/// A process as recorded in the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProcessId {
    /// The process id.
    pub pid: u32,
    /// The process's start time since boot, where the system tells it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<u64>,
    /// The boot it ran in (`/proc/sys/kernel/random/boot_id`), where the system tells it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boot: Option<String>,
}

impl ProcessId {
    /// This process.
    pub fn current() -> ProcessId {
        let pid = std::process::id();
        ProcessId {
            pid,
            start: start_time(pid),
            boot: boot_id(),
        }
    }
}

/// Whether the recorded process still runs: same boot, same pid, same start time.
pub fn process_is_alive(process: &ProcessId) -> bool {
    if process.boot.is_some() && process.boot != boot_id() {
        return false;
    }
    let Ok(pid) = libc::pid_t::try_from(process.pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let exists = unsafe { libc::kill(pid, 0) } == 0
        || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    if !exists {
        return false;
    }
    match (process.start, start_time(process.pid)) {
        (Some(recorded), Some(now)) => recorded == now,
        _ => true,
    }
}

/// Whether process `pid` is stopped (Ctrl+Z, SIGSTOP, or held by a debugger): it runs but does
/// nothing until continued. Linux tells it (`/proc/<pid>/stat`'s state `T` or `t`); elsewhere a
/// process is taken as running.
pub fn process_is_stopped(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // The state (field 3) is the first after the command name, which is in parentheses.
    stat.rfind(')')
        .and_then(|end| stat[end + 1..].split_whitespace().next())
        .is_some_and(|state| state == "T" || state == "t")
}

fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces or ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    // Field 3 is the first after the name; the start time is field 22.
    rest.split_whitespace().nth(19)?.parse().ok()
}

fn boot_id() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .ok()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_a_changed_start_time_is_not() {
        let me = ProcessId::current();
        assert!(process_is_alive(&me));
        if me.start.is_some() {
            let reused = ProcessId {
                start: me.start.map(|s| s + 1),
                ..me.clone()
            };
            assert!(
                !process_is_alive(&reused),
                "a reused pid is not the same process"
            );
        }
        if me.boot.is_some() {
            let other_boot = ProcessId {
                boot: Some("another-boot".into()),
                ..me
            };
            assert!(!process_is_alive(&other_boot));
        }
    }

    #[test]
    fn an_exited_child_is_not_alive() {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!process_is_alive(&ProcessId {
            pid,
            start: None,
            boot: None
        }));
    }
}
