//! `pi-ask embed` and the two small helpers a host calls synchronously (`prepare`, `transcript`):
//! each reads standard input and writes standard output; none prints anything else there.

use std::io::{Read, Write};
use std::process::ExitCode;

use serde_json::Value;

use crate::report::{EXIT_ERROR, EXIT_OK, report};
use crate::result::AskResult;

/// Serves one flow over standard input and output (docs/embed.md).
pub fn run() -> ExitCode {
    let lines = crate::rpc::spawn_line_reader_within(
        std::io::BufReader::new(std::io::stdin()),
        crate::embed::protocol::MAX_HOST_LINE,
    );
    let mut out = std::io::stdout().lock();
    match crate::embed::run(lines, &mut out) {
        Ok(()) => ExitCode::from(EXIT_OK),
        Err(e) => {
            report(&format!("embed: {e}"));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// Standard input as JSON, or the reported reason it is not.
fn read_json() -> Result<Value, ExitCode> {
    let mut text = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut text) {
        report(&format!("cannot read standard input: {e}"));
        return Err(ExitCode::from(EXIT_ERROR));
    }
    serde_json::from_str(&text).map_err(|e| {
        report(&format!("standard input is not JSON: {e}"));
        ExitCode::from(EXIT_ERROR)
    })
}

fn print(text: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}") {
        Ok(()) => ExitCode::from(EXIT_OK),
        Err(_) => ExitCode::from(EXIT_ERROR),
    }
}

/// `pi-ask prepare`: the payload with every missing option label derived from its value.
pub fn prepare() -> ExitCode {
    match read_json() {
        Ok(mut payload) => {
            crate::input::prepare_arguments(&mut payload);
            print(&payload.to_string())
        }
        Err(code) => code,
    }
}

/// `pi-ask transcript`: the transcript rendering of a result, safe to print.
pub fn transcript() -> ExitCode {
    let value = match read_json() {
        Ok(value) => value,
        Err(code) => return code,
    };
    match serde_json::from_value::<AskResult>(value) {
        Ok(result) => print(&crate::embed::transcript(&result)),
        Err(e) => {
            report(&format!("not an ask_user result: {e}"));
            ExitCode::from(EXIT_ERROR)
        }
    }
}
