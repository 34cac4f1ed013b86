//! How the program speaks besides its result: diagnostics on standard error, how a command
//! ended ([`CommandOutcome`]) and the exit statuses. A leaf module, so every command reports the same
//! way without depending on the command line.

use std::io::Write;

/// Exit status for submit and elaborate.
pub const EXIT_OK: u8 = 0;
/// Exit status for a cancelled flow.
pub const EXIT_CANCELLED: u8 = 1;
/// Exit status for invalid input or an error.
pub const EXIT_ERROR: u8 = 2;
/// Exit status of a form nobody answered within `ask --timeout` (as `timeout(1)` ends).
pub const EXIT_TIMED_OUT: u8 = 124;

/// How a command ended when it did not fail (a failure is the command's error type). Only the
/// command line turns it into an exit status and says what it carries, so a command never exits
/// or prints its own ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandOutcome {
    /// Done: a form answered, a listing printed, a check passed (exit 0).
    Done,
    /// A form ended cancelled and its result was delivered (exit 1).
    Cancelled,
    /// There was nothing to do, for the reason said on standard error (exit 1).
    Nothing(String),
    /// What was checked is not ready: `doctor` found a problem, no inbox watches the queue. The
    /// output says what (exit 1).
    NotReady,
    /// What was given was refused and the output says why: an invalid payload's result, a
    /// request the form refused (exit 2).
    Refused,
    /// Nobody answered within `ask --timeout`; the result says so (exit 124, as `timeout(1)`
    /// and gum's `--timeout` end).
    TimedOut,
}

impl CommandOutcome {
    /// The exit status: 0 done; 1 cancelled, nothing to do or not ready; 2 refused.
    pub fn exit_status(&self) -> u8 {
        match self {
            CommandOutcome::Done => EXIT_OK,
            CommandOutcome::Cancelled | CommandOutcome::Nothing(_) | CommandOutcome::NotReady => {
                EXIT_CANCELLED
            }
            CommandOutcome::Refused => EXIT_ERROR,
            CommandOutcome::TimedOut => EXIT_TIMED_OUT,
        }
    }

    /// `Done` when `ok`, else `other` (a check's answer as an outcome).
    pub fn done_if(ok: bool, other: CommandOutcome) -> CommandOutcome {
        if ok { CommandOutcome::Done } else { other }
    }
}

/// Says `message` on standard error, one `pi-ask: ` line per line of it (a closed or hung-up
/// stderr is ignored: reporting must never be the thing that fails). Messages carry text
/// from payloads, peers and files (titles, client names, request ids, paths): every line goes
/// through [`crate::printable::printable`], so none of it reaches the terminal raw.
pub fn report(message: &str) {
    let message = message.strip_prefix("pi-ask: ").unwrap_or(message);
    let mut err = std::io::stderr().lock();
    for line in message.lines() {
        let _ = writeln!(err, "pi-ask: {}", crate::printable::printable(line));
    }
}

/// Writes `line` and a line break on standard output. A closed pipe (`pi-ask doctor | head -1`)
/// ends nothing and panics nothing: what the reader did not want is not written. `line` is the
/// caller's to make printable.
pub fn print_line(line: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// Writes `value` as pretty JSON on standard output (a closed pipe is not an error).
pub fn print_json<T: serde::Serialize>(value: &T) {
    let text = serde_json::to_string_pretty(value).expect("serializable");
    let text = crate::printable::json_for_stdout(&text);
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (e.g. `| head`) is not an error worth a panic.
    let _ = writeln!(stdout, "{text}");
}
