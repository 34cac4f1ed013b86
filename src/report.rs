//! How the program speaks besides its result: diagnostics on standard error and exit statuses.
//! A leaf module, so every command reports the same way without depending on the command line.

use std::io::Write;

/// Exit status for submit and elaborate.
pub const EXIT_OK: u8 = 0;
/// Exit status for a cancelled flow.
pub const EXIT_CANCELLED: u8 = 1;
/// Exit status for invalid input or an error.
pub const EXIT_ERROR: u8 = 2;

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

/// Writes `value` as pretty JSON on standard output (a closed pipe is not an error).
pub fn print_json<T: serde::Serialize>(value: &T) {
    let text = serde_json::to_string_pretty(value).expect("serializable");
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (e.g. `| head`) is not an error worth a panic.
    let _ = writeln!(stdout, "{text}");
}
