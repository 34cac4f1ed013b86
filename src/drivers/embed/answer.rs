//! `find: "answer"`: the questions of the latest assistant message on the branch, extracted into
//! a form by the engine's extractor (the config's command, else the built-in one) or by the
//! host's own model through `extract` requests, with the same retries and repair either way.

use std::io;
use std::time::Duration;

use serde_json::json;

use super::opening::{EmbedOpening, OpenOutcome, branch_entries, stored};
use super::protocol::{Extractor, HostMessage, Open};
use super::{Host, Next, messages};
use crate::extract::command::{ExtractError, Progress, Run, extract_with, retry_notice};
use crate::extract::{Extracted, ExtractionFailed};
use crate::stores::config::{ConfigPaths, peek};
use crate::stores::history::Source;
use crate::stores::pi_session::{self, AssistantTurn, SessionEntry};
use crate::strings::reopening;

/// The tool the host's model is asked to call, as the original describes it.
const EXTRACTION_TOOL: &str = "Submit the structured questions from the assistant message. Call once with an empty questions array when there are no actionable questions.";

/// Finds the latest assistant turn, extracts its questions, and says what to open.
pub fn resolve(host: &mut Host, open: &Open) -> io::Result<OpenOutcome> {
    let entries = branch_entries(open);
    let branch: Vec<&SessionEntry> = entries.iter().collect();
    let turn = match pi_session::latest_assistant_turn(&branch) {
        Ok(turn) => turn,
        Err(e @ pi_session::TurnError::NoAssistant) => {
            return Ok(OpenOutcome::Nothing(vec![messages::notice(
                "info",
                &e.to_string(),
            )]));
        }
        Err(pi_session::TurnError::Incomplete(reason)) => {
            return Ok(OpenOutcome::Nothing(vec![messages::notice(
                "error",
                &format!(
                    "Latest assistant message is incomplete ({reason}); wait for it to finish, then run /answer again."
                ),
            )]));
        }
    };
    let config = peek(&ConfigPaths::from_env(open.config.as_deref())).answer;
    let extracted = match open.extractor {
        Extractor::Host => {
            let timeout = Duration::from_millis(config.extraction_timeout_ms.max(1));
            let attempts = u32::from(config.extraction_retries.min(3)) + 1;
            let mut attempt = 0;
            extract_with(
                config.extraction_retries,
                &turn,
                &mut |prompt, _| {
                    attempt += 1;
                    if let Some(notice) = retry_notice(attempt, attempts) {
                        let _ = host.send(&messages::notice("info", &notice));
                    }
                    ask_host(host, attempt, prompt, timeout)
                },
                &mut Quiet,
            )
            .map_err(ExtractionFailed::Host)
        }
        // The engine's own extractor: the host draws the screen, the retries are named in notices.
        Extractor::Engine => crate::extract::extract_configured(
            &turn,
            &config,
            crate::extract::ExtractorChoice::Configured,
            |_| RetryNotices(host),
        ),
    };
    Ok(opening(extracted, &turn))
}

fn opening(extracted: Result<Extracted, ExtractionFailed>, turn: &AssistantTurn) -> OpenOutcome {
    match extracted {
        Ok(Extracted::Form { payload, form }) => OpenOutcome::Open(Box::new(EmbedOpening {
            form,
            source: Source::Answer,
            tool_call_id: None,
            before: vec![stored(
                "answer-extraction",
                &payload,
                turn.entry_id.as_deref(),
            )],
        })),
        Ok(Extracted::NoQuestions) => {
            OpenOutcome::Nothing(vec![messages::notice("info", reopening::NO_QUESTIONS)])
        }
        Err(e) if e.is_cancelled() => {
            OpenOutcome::Nothing(vec![messages::notice("info", &e.to_string())])
        }
        Err(e) => OpenOutcome::Nothing(vec![messages::notice("error", &e.to_string())]),
    }
}

/// The host shows its own wait; the retry notices are sent as the attempts start.
struct Quiet;

impl Progress for Quiet {
    fn attempt(&mut self, _attempt: u32, _of: u32) {}

    fn tick(&mut self, _elapsed: Duration) -> bool {
        false
    }
}

/// The configured extractor's progress for a host: each retry named in the original's notice.
struct RetryNotices<'a, 'h>(&'a mut Host<'h>);

impl Progress for RetryNotices<'_, '_> {
    fn attempt(&mut self, attempt: u32, of: u32) {
        if let Some(notice) = retry_notice(attempt, of) {
            let _ = self.0.send(&messages::notice("info", &notice));
        }
    }

    fn tick(&mut self, _elapsed: Duration) -> bool {
        false
    }
}

/// One attempt by the host's model: an `extract` request, and the `extracted` answer to it.
fn ask_host(
    host: &mut Host,
    attempt: u32,
    prompt: String,
    timeout: Duration,
) -> Result<Run, ExtractError> {
    let id = format!("extract-{attempt}");
    let request = json!({
        "type": "extract",
        "id": id,
        "prompt": prompt,
        "tool": {
            "name": "ask_user",
            "description": EXTRACTION_TOOL,
            "parameters": crate::schema::parameters(),
        },
    });
    host.send(&request)
        .map_err(|e| ExtractError::Spawn(format!("cannot ask the host: {e}")))?;
    let deadline = std::time::Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return Err(ExtractError::TimedOut);
        }
        match host.next(Some(left)) {
            Ok(Next::Message(HostMessage::Extracted(reply))) if reply.id == id => {
                return Ok(match (reply.output, reply.error) {
                    (Some(output), None) => Run::Output(output),
                    (_, Some(error)) => Run::Failed(error),
                    (None, None) => Run::Failed("the model returned no text content".into()),
                });
            }
            Ok(Next::Message(HostMessage::Abort)) | Ok(Next::Closed) | Err(_) => {
                return Err(ExtractError::Cancelled);
            }
            Ok(Next::Message(_)) => {
                let _ = host.error("an extraction is waiting: only extracted and abort apply");
            }
            Ok(Next::Quiet) => {}
        }
    }
}
