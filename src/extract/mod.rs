//! Turning prose (an assistant message) into an ask form: the request a model command gets,
//! reading its answer (a tool call, raw JSON or fenced JSON), the original's business rules and
//! repair, and a built-in offline extractor. No terminal here; `commands::answer` drives it.

pub mod builtin;
mod candidate;
pub mod command;
mod request;
mod rules;

pub use candidate::{NoCandidate, candidate_from_output};
pub use request::{ExtractionRequest, request_text};
pub use rules::{business_issues, repair};

use serde_json::Value;

use std::time::Duration;

use crate::form::Form;
use crate::input;
use crate::stores::config::AnswerExtraction;
use crate::stores::pi_session::AssistantTurn;

/// What an extraction found.
#[derive(Debug, Clone, PartialEq)]
pub enum Extracted {
    /// A valid form (freeform questions allowed) and the payload it came from.
    Form {
        /// The payload as the model gave it.
        payload: Value,
        /// The form it validates to.
        form: Form,
    },
    /// `{"questions": []}`: the message asks nothing.
    NoQuestions,
}

/// Why a candidate was refused, with what is known of it for a retry or a repair.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    /// One issue per line, fed back to the model on a retry.
    pub issues: Vec<String>,
    /// The candidate when it had the right shape (an object with a `questions` array), so
    /// repair may still save it.
    pub shaped: Option<Value>,
}

impl Refused {
    fn shape(message: impl Into<String>) -> Refused {
        Refused {
            issues: vec![message.into()],
            shaped: None,
        }
    }
}

/// Validates an extraction candidate: its shape, the payload rules (freeform allowed), no
/// `recommended` metadata, and the business rules.
pub fn check_candidate(candidate: &Value) -> Result<Extracted, Refused> {
    let Some(root) = candidate.as_object() else {
        return Err(Refused::shape("root must be an object"));
    };
    let Some(questions) = root.get("questions").and_then(Value::as_array) else {
        return Err(Refused::shape("root must have a questions array"));
    };
    if questions.is_empty() {
        return Ok(Extracted::NoQuestions);
    }
    let mut issues = Vec::new();
    for (i, q) in questions.iter().enumerate() {
        let options = q.get("options").and_then(Value::as_array);
        for (j, o) in options.into_iter().flatten().enumerate() {
            if o.get("recommended").is_some() {
                issues.push(format!(
                    "questions[{i}].options[{j}].recommended: extracted forms never carry recommendation metadata"
                ));
            }
        }
    }
    let validated = input::validate_extracted_payload(candidate);
    if let Err(invalid) = &validated {
        issues.extend(
            invalid
                .issues
                .iter()
                .map(|i| format!("{}: {}", i.path, i.message)),
        );
    }
    issues.extend(business_issues(candidate));
    match validated {
        Ok(form) if issues.is_empty() => Ok(Extracted::Form {
            payload: candidate.clone(),
            form,
        }),
        _ => Err(Refused {
            issues,
            shaped: Some(candidate.clone()),
        }),
    }
}

/// Which extractor runs (`--extractor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtractorChoice {
    /// The configured model command, else the built-in one.
    Configured,
    /// The built-in offline extractor.
    Builtin,
    /// The configured command (an error when none is configured).
    Command,
}

/// Why an extraction found no form.
#[derive(Debug, thiserror::Error)]
pub enum ExtractionFailed {
    /// `--extractor command` without a configured command.
    #[error(
        "--extractor command needs [answer] extractor in the config, e.g. extractor = [\"llm\", \"-m\", \"gpt-4o-mini\"]"
    )]
    NoCommand,
    /// The built-in extractor made a form that does not validate (its issues).
    #[error("Question extraction returned an invalid ask form: {}", .0.join("; "))]
    InvalidBuiltin(Vec<String>),
    /// The model command failed, was cancelled or timed out.
    #[error("{}", command_message(.0))]
    Command(#[source] command::ExtractError),
    /// The host's model failed, was cancelled or timed out.
    #[error("{0}")]
    Host(#[source] command::ExtractError),
}

impl ExtractionFailed {
    /// The person (or the host) cancelled it: not an error to shout about.
    pub fn is_cancelled(&self) -> bool {
        matches!(
            self,
            ExtractionFailed::Command(command::ExtractError::Cancelled)
                | ExtractionFailed::Host(command::ExtractError::Cancelled)
        )
    }
}

/// A cancel or a timeout says itself; any other failure of the command is an `Error: …`.
fn command_message(error: &command::ExtractError) -> String {
    match error {
        command::ExtractError::Cancelled | command::ExtractError::TimedOut => error.to_string(),
        other => format!("Error: {other}"),
    }
}

/// Runs the chosen extractor on `turn`: the built-in one, or the configured model command with
/// its retries and timeout, its progress reported to what `progress` makes for the command's
/// program (made only when the command runs).
pub fn extract_configured<P: command::Progress>(
    turn: &AssistantTurn,
    config: &AnswerExtraction,
    choice: ExtractorChoice,
    progress: impl FnOnce(&str) -> P,
) -> Result<Extracted, ExtractionFailed> {
    let use_command = match choice {
        ExtractorChoice::Builtin => false,
        ExtractorChoice::Command if config.extractor.is_empty() => {
            return Err(ExtractionFailed::NoCommand);
        }
        ExtractorChoice::Command => true,
        ExtractorChoice::Configured => !config.extractor.is_empty(),
    };
    if !use_command {
        let payload = builtin::extract(&turn.text);
        return check_candidate(&payload)
            .map_err(|refused| ExtractionFailed::InvalidBuiltin(refused.issues));
    }
    let extractor = command::CommandExtractor {
        argv: config.extractor.clone(),
        retries: config.extraction_retries,
        timeout: Duration::from_millis(config.extraction_timeout_ms.max(1)),
    };
    let mut progress = progress(&config.extractor[0]);
    extractor
        .extract(turn, &mut progress)
        .map_err(ExtractionFailed::Command)
}
