//! Command-line interface: `pi-ask validate`, `pi-ask schema`.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::input::{self, InvalidInput, Issue};
use crate::result::{self, QuestionContext};

/// Exit status for submit and elaborate.
pub const EXIT_OK: u8 = 0;
/// Exit status for a cancelled flow.
pub const EXIT_CANCELLED: u8 = 1;
/// Exit status for invalid input or an error.
pub const EXIT_ERROR: u8 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "pi-ask",
    version,
    about = "Ask a person structured questions in the terminal and print normalized JSON answers."
)]
#[command(
    after_help = "Exit status: 0 submitted or elaborated, 1 cancelled, 2 invalid input or error."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate a payload and print its normalized questions (or the invalid_input result).
    Validate {
        /// Payload file, or `-` (the default) for standard input.
        #[arg(default_value = "-")]
        payload: PathBuf,
    },
    /// Print the JSON Schema of the ask_user input.
    Schema,
}

/// Runs the CLI with the process arguments.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate { payload } => validate(&payload),
        Command::Schema => {
            print_json(&crate::schema::input_schema());
            ExitCode::from(EXIT_OK)
        }
    }
}

/// Reads a payload from a file, or from standard input for `-`.
pub fn read_payload(path: &PathBuf) -> Result<String, InvalidInput> {
    let read = if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map(|_| text)
    } else {
        std::fs::read_to_string(path)
    };
    read.map_err(|err| InvalidInput {
        raw_title: None,
        issues: vec![Issue {
            path: "payload".into(),
            message: format!("Cannot read {}: {err}", path.display()),
        }],
    })
}

fn validate(path: &PathBuf) -> ExitCode {
    match read_payload(path).and_then(|text| input::parse_payload(&text)) {
        Ok(form) => {
            let questions: Vec<QuestionContext> =
                form.questions.iter().map(QuestionContext::from).collect();
            let mut out = serde_json::json!({ "questions": questions });
            if let Some(title) = &form.title {
                out["title"] = title.clone().into();
            }
            print_json(&out);
            ExitCode::from(EXIT_OK)
        }
        Err(invalid) => {
            print_json(&result::invalid_input_result(&invalid));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn print_json<T: serde::Serialize>(value: &T) {
    let text = serde_json::to_string_pretty(value).expect("serializable");
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (e.g. `| head`) is not an error worth a panic.
    let _ = writeln!(stdout, "{text}");
}
