//! `pi-ask events` and `pi-ask submit`: a form's remote events followed, and a request sent to it.

use std::time::Duration;

use super::{CommandError, Ended};
use crate::report::{CommandOutcome, print_json};

/// `pi-ask events`: prints a form's remote events as they come, until it ends; waits up to
/// `wait` seconds for the form's socket to be there.
pub fn events(socket: &std::path::Path, wait: f64) -> Ended {
    let wait = Duration::from_secs_f64(if wait.is_finite() {
        wait.clamp(0.0, 86_400.0)
    } else {
        10.0
    });
    crate::remote::socket::print_events(socket, wait, &mut std::io::stdout().lock()).map_err(
        |source| CommandError::Socket {
            action: "follow",
            socket: crate::paths::display(socket),
            source,
        },
    )?;
    Ok(CommandOutcome::Done)
}

/// `pi-ask submit`: done when the form accepted the request, refused when it refused it (its
/// reply, printed, says why).
pub fn submit(socket: &std::path::Path, timeout: f64, request: &str) -> Ended {
    let request: serde_json::Value =
        serde_json::from_str(request).map_err(CommandError::RequestNotJson)?;
    let seconds = if timeout.is_finite() {
        timeout.clamp(0.001, 86_400.0)
    } else {
        10.0
    };
    let timeout = Duration::from_secs_f64(seconds);
    let reply = crate::remote::socket::submit(socket, &request, timeout).map_err(|source| {
        CommandError::Socket {
            action: "submit to",
            socket: crate::paths::display(socket),
            source,
        }
    })?;
    print_json(&reply);
    let accepted = reply.get("ok") == Some(&serde_json::Value::Bool(true));
    Ok(CommandOutcome::done_if(accepted, CommandOutcome::Refused))
}
