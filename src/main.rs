//! The `pi-ask` command.

use std::process::ExitCode;

fn main() -> ExitCode {
    pi_ask::cli::main()
}
