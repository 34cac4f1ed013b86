//! `pi-ask events` and `pi-ask submit`: a form's remote events followed, and a request sent to it.

use std::process::ExitCode;
use std::time::Duration;

use crate::report::{EXIT_ERROR, EXIT_OK, print_json, report};

/// `pi-ask events`: prints a form's remote events as they come, until it ends.
pub fn events(socket: &std::path::Path) -> ExitCode {
    match crate::remote::socket::print_events(socket, &mut std::io::stdout().lock()) {
        Ok(()) => ExitCode::from(EXIT_OK),
        Err(e) => {
            report(&format!(
                "cannot follow {}: {e}",
                crate::paths::display(socket)
            ));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// `pi-ask submit`: exit 0 when the form accepted the request, 2 when it refused it.
pub fn submit(socket: &std::path::Path, timeout: f64, request: &str) -> ExitCode {
    let request: serde_json::Value = match serde_json::from_str(request) {
        Ok(value) => value,
        Err(e) => {
            report(&format!("the request is not JSON: {e}"));
            return ExitCode::from(EXIT_ERROR);
        }
    };
    let seconds = if timeout.is_finite() {
        timeout.clamp(0.001, 86_400.0)
    } else {
        10.0
    };
    let timeout = Duration::from_secs_f64(seconds);
    match crate::remote::socket::submit(socket, &request, timeout) {
        Ok(reply) => {
            print_json(&reply);
            if reply.get("ok") == Some(&serde_json::Value::Bool(true)) {
                ExitCode::from(EXIT_OK)
            } else {
                ExitCode::from(EXIT_ERROR)
            }
        }
        Err(e) => {
            report(&format!(
                "cannot submit to {}: {e}",
                crate::paths::display(socket)
            ));
            ExitCode::from(EXIT_ERROR)
        }
    }
}
