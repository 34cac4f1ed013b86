//! `pi-ask embed` and the two small helpers a host calls synchronously (`prepare`, `transcript`):
//! each reads standard input and writes standard output; none prints anything else there.

use std::io::{Read, Write};

use serde_json::Value;

use super::{CommandError, Ended};
use crate::report::CommandOutcome;
use crate::result::AskResult;

/// Serves one flow over standard input and output (docs/embed.md).
pub fn run() -> Ended {
    let lines = crate::drivers::rpc::spawn_line_reader_within(
        std::io::BufReader::new(std::io::stdin()),
        crate::drivers::embed::protocol::MAX_HOST_LINE,
    );
    let mut out = std::io::stdout().lock();
    crate::drivers::embed::run(lines, &mut out).map_err(CommandError::Embed)?;
    Ok(CommandOutcome::Done)
}

/// Standard input as JSON, or why it is not.
fn read_json() -> Result<Value, CommandError> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(CommandError::Stdin)?;
    serde_json::from_str(&text).map_err(CommandError::StdinNotJson)
}

fn print(text: &str) -> Ended {
    writeln!(std::io::stdout().lock(), "{text}").map_err(CommandError::Stdout)?;
    Ok(CommandOutcome::Done)
}

/// `pi-ask prepare`: the payload with every missing option label derived from its value.
pub fn prepare() -> Ended {
    let mut payload = read_json()?;
    crate::input::prepare_arguments(&mut payload);
    // On a terminal, C1 controls and bidi overrides from the payload go out as `\uXXXX` escapes.
    print(&crate::printable::json_for_stdout(&payload.to_string()))
}

/// `pi-ask transcript`: the transcript rendering of a result, safe to print.
pub fn transcript() -> Ended {
    let result: AskResult =
        serde_json::from_value(read_json()?).map_err(CommandError::NotAResult)?;
    print(&crate::drivers::embed::transcript(&result))
}
