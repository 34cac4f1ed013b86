//! The `pi-ask` command.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether file descriptor 1 was closed when the process started (`pi-ask ask >&-`).
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Runs before Rust's runtime starts, which reopens closed standard descriptors on /dev/null so
/// that a result written there would vanish without an error; this records the truth first.
#[cfg_attr(
    not(any(target_os = "linux", target_os = "android", target_os = "freebsd")),
    allow(dead_code)
)]
extern "C" fn record_closed_stdout() {
    // SAFETY: F_GETFD only queries a descriptor's flags.
    let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
    STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

// ELF constructors run before `main` and before Rust's runtime sanitizes the descriptors; elsewhere
// the check in `pi_ask::drivers::run::stdout_is_closed` sees only what the runtime left.
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
#[used]
#[unsafe(link_section = ".init_array")]
static RECORD_CLOSED_STDOUT: extern "C" fn() = record_closed_stdout;

fn main() -> ExitCode {
    pi_ask::drivers::run::set_stdout_closed(STDOUT_CLOSED_AT_START.load(Ordering::Relaxed));
    pi_ask::cli::main()
}
