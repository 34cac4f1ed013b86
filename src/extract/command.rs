//! The model extractor: a command the user configures (`[answer] extractor`), given the request on
//! its standard input and read from its standard output, with a timeout and retries.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{Extracted, ExtractionRequest, Refused, candidate_from_output, check_candidate};
use super::{repair, request_text};
use crate::stores::pi_session::AssistantTurn;

/// Output beyond this is cut (a runaway command must not fill memory).
const MAX_OUTPUT: usize = 4 * 1024 * 1024;
/// How often the child is polled (and the progress redrawn).
const POLL: Duration = Duration::from_millis(80);

/// A configured extraction command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandExtractor {
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Attempts after the first (the original's `extractionRetries`, 0–3).
    pub retries: u8,
    /// How long one attempt may run before the command is killed.
    pub timeout: Duration,
}

/// Why extraction gave no form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExtractError {
    /// The command could not be started.
    #[error("{0}")]
    Spawn(String),
    /// An attempt ran past the timeout (the command was killed).
    #[error("Question extraction timed out. Try again or configure a faster extraction model.")]
    TimedOut,
    /// The person aborted (Esc or Ctrl+C); the command was killed.
    #[error("Question extraction cancelled.")]
    Cancelled,
    /// Every attempt was invalid and repair could not save the last one.
    #[error(
        "Question extraction did not return a valid ask_user tool call or JSON fallback after retries. Last problem: {0}"
    )]
    Invalid(String),
}

/// What the person sees while the command runs, and whether they want to stop it.
pub trait Progress {
    /// Attempt `attempt` of `of` starts (1-based); a retry also gets the original's notice.
    fn attempt(&mut self, attempt: u32, of: u32);
    /// Called while waiting; `true` aborts the extraction.
    fn tick(&mut self, elapsed: Duration) -> bool;
    /// The wait is over (clear the spinner).
    fn done(&mut self) {}
}

/// The original's notice before attempt `attempt` of `of` (`Retrying question extraction
/// (1/1)...`), or none for the first attempt.
pub fn retry_notice(attempt: u32, of: u32) -> Option<String> {
    (attempt > 1).then(|| {
        format!(
            "Retrying question extraction ({}/{})...",
            attempt - 1,
            of.saturating_sub(1)
        )
    })
}

/// No progress shown and never aborted (tests, embedders).
pub struct Silent;

impl Progress for Silent {
    fn attempt(&mut self, _: u32, _: u32) {}
    fn tick(&mut self, _: Duration) -> bool {
        false
    }
}

/// What one attempt gave: the model's output, or why it gave none (fed back to the next try).
pub enum Run {
    /// The model's output.
    Output(String),
    /// Why there is none (fed back to the next try).
    Failed(String),
}

fn capped_reader(mut from: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 {
                break;
            }
            if out.len() < MAX_OUTPUT {
                out.extend_from_slice(&buf[..n.min(MAX_OUTPUT - out.len())]);
            }
        }
        out
    })
}

/// Kills the command and everything it started (it runs in its own process group, so a
/// `sh -c` wrapper's children do not outlive it holding the output pipe open).
fn stop(child: &mut Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: signalling the process group the child leads.
        unsafe { libc::kill(-pid, libc::SIGKILL) };
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// How often, and how long apart, starting a busy extractor is tried again.
const SPAWN_BUSY_RETRIES: usize = 50;
const SPAWN_BUSY_WAIT: std::time::Duration = std::time::Duration::from_millis(10);

impl CommandExtractor {
    fn run_once(&self, input: String, progress: &mut dyn Progress) -> Result<Run, ExtractError> {
        let (program, args) = self
            .argv
            .split_first()
            .ok_or_else(|| ExtractError::Spawn("answer.extractor is empty".into()))?;
        use std::os::unix::process::CommandExt;
        let spawn = || {
            Command::new(program)
                .args(args)
                .process_group(0)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
        };
        let mut spawned = spawn();
        // A script written a moment ago is "busy" (ETXTBSY) while any process being started
        // elsewhere still holds it open for writing, between its fork and its exec: a moment.
        for _ in 0..SPAWN_BUSY_RETRIES {
            match &spawned {
                Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) => {
                    std::thread::sleep(SPAWN_BUSY_WAIT);
                    spawned = spawn();
                }
                _ => break,
            }
        }
        let mut child = spawned
            .map_err(|e| ExtractError::Spawn(format!("cannot run the extractor {program}: {e}")))?;
        let mut stdin = child.stdin.take().expect("piped");
        // A command that never reads its input must not block us: write from a thread.
        std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let stdout = capped_reader(child.stdout.take().expect("piped"));
        let stderr = capped_reader(child.stderr.take().expect("piped"));
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) => {}
                Err(e) => {
                    stop(&mut child);
                    return Err(ExtractError::Spawn(format!(
                        "cannot wait for {program}: {e}"
                    )));
                }
            }
            if start.elapsed() >= self.timeout {
                stop(&mut child);
                return Err(ExtractError::TimedOut);
            }
            if progress.tick(start.elapsed()) {
                stop(&mut child);
                return Err(ExtractError::Cancelled);
            }
            std::thread::sleep(POLL);
        };
        let out = String::from_utf8_lossy(&stdout.join().unwrap_or_default()).into_owned();
        if status.success() {
            return Ok(Run::Output(out));
        }
        let err = String::from_utf8_lossy(&stderr.join().unwrap_or_default()).into_owned();
        let tail: String = err
            .trim()
            .chars()
            .rev()
            .take(300)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        Ok(Run::Failed(format!(
            "the extractor {program} failed ({status}): {tail}"
        )))
    }

    /// Extracts the questions of `turn`, retrying invalid answers with the problem fed back,
    /// then repairing the last answer that had the right shape.
    pub fn extract(
        &self,
        turn: &AssistantTurn,
        progress: &mut dyn Progress,
    ) -> Result<Extracted, ExtractError> {
        extract_with(
            self.retries,
            turn,
            &mut |input, progress| self.run_once(input, progress),
            progress,
        )
    }
}

/// The extraction loop over any model: `run` gets each attempt's request text (and the progress
/// to report its wait to) and returns what the model said. Invalid answers are retried with the problem fed
/// back (`retries` more times, at most 3); after the last, the last answer that had the right
/// shape is repaired, as the original does.
pub fn extract_with(
    retries: u8,
    turn: &AssistantTurn,
    run: &mut dyn FnMut(String, &mut dyn Progress) -> Result<Run, ExtractError>,
    progress: &mut dyn Progress,
) -> Result<Extracted, ExtractError> {
    let attempts = u32::from(retries.min(3)) + 1;
    let mut last_error = String::new();
    let mut last_response = String::new();
    let mut last_shaped = None;
    for attempt in 1..=attempts {
        progress.attempt(attempt, attempts);
        let retry = (attempt > 1).then_some((last_error.as_str(), last_response.as_str()));
        let input = request_text(&ExtractionRequest { turn, retry });
        let output = match run(input, progress) {
            Ok(Run::Output(out)) => out,
            Ok(Run::Failed(message)) => {
                last_error = message;
                last_response.clear();
                continue;
            }
            Err(e) => {
                progress.done();
                return Err(e);
            }
        };
        let checked = candidate_from_output(&output)
            .map_err(|e| Refused::shape(e.to_string()))
            .and_then(|c| check_candidate(&c));
        match checked {
            Ok(found) => {
                progress.done();
                return Ok(found);
            }
            Err(refused) => {
                last_error = refused.issues.join("\n");
                last_response = output;
                if refused.shaped.is_some() {
                    last_shaped = refused.shaped;
                }
            }
        }
    }
    progress.done();
    // The original's last resort: the last shape-valid candidate, repaired.
    if let Some(shaped) = last_shaped
        && let Ok(found) = check_candidate(&repair(&shaped))
    {
        return Ok(found);
    }
    Err(ExtractError::Invalid(last_error))
}
