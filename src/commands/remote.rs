//! `pi-ask events` and `pi-ask submit`: a form's remote events followed, and a request sent to it.

use std::time::Duration;

use super::{CommandError, Ended};
use crate::report::{CommandOutcome, print_json};

/// `pi-ask events`: prints a form's remote events as they come, until it ends.
pub fn events(socket: &std::path::Path) -> Ended {
    crate::remote::socket::print_events(socket, &mut std::io::stdout().lock()).map_err(
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
