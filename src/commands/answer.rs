//! `pi-ask answer`: turning prose (a file, stdin, or a pi session's latest assistant message) into
//! a form with the configured model command or the built-in extractor, and `--again`.

use crate::bounded_read::{self, ReadRefused, ReadRule};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::reopen::{origin_of, read_session_arg, reopening, session_origin};
use super::{
    CommandError, Ended, FormEnding, HistoryChoice, Opening, nothing, open_on_terminal,
    question_count,
};
use crate::drivers::run::RunOptions;
use crate::extract::command::Progress;
use crate::extract::{Extracted, ExtractionFailed};
use crate::report::{CommandOutcome, report};
use crate::stores::config::{AnswerExtraction, ConfigPaths, peek};
use crate::stores::history::{Origin, Source};
use crate::stores::pi_session::{self, AssistantTurn};
use crate::strings::reopening;

pub use crate::extract::ExtractorChoice;

/// What `pi-ask answer` was asked to do.
#[derive(Debug, Clone)]
pub struct AnswerArgs {
    /// A file with the message, `-` for standard input; `None` with `--session`.
    pub message: Option<PathBuf>,
    /// `--session`: the pi session file to read the assistant turn from.
    pub session: Option<PathBuf>,
    /// `--again`: reopen the last extracted form.
    pub again: bool,
    /// Which extractor to run.
    pub extractor: ExtractorChoice,
    /// `--print`: the extracted payload as JSON on stdout, no form.
    pub print: bool,
}

/// `pi-ask answer [FILE|-] [--session FILE|latest] [--again] [--extractor …]`.
pub fn answer(args: &AnswerArgs, options: &RunOptions, history: &HistoryChoice) -> Ended {
    if !args.print {
        super::require_terminal("answer")?;
    }
    if args.again {
        return again(args, options, history);
    }
    let (turn, origin) = match args.session.as_deref() {
        Some(arg) => {
            let file = read_session_arg(arg, options)?;
            match pi_session::latest_assistant_turn(&file.branch()) {
                Ok(turn) => {
                    let origin = session_origin(&file, None, turn.entry_id.clone());
                    (turn, origin)
                }
                Err(e @ pi_session::TurnError::NoAssistant) => return nothing(e),
                Err(e) => return Err(e.into()),
            }
        }
        None => {
            let text = read_message(args.message.as_deref().unwrap_or(Path::new("-")))?;
            let turn = AssistantTurn {
                entry_id: None,
                text,
                previous_user: None,
            };
            (turn, Origin::default())
        }
    };
    let whole = peek(&ConfigPaths::from_env(options.config.as_deref()));
    let plain = crate::drivers::run::line_mode(options, &whole).is_some();
    let config = whole.answer;
    let extracted = match extract(&turn, &config, args.extractor, plain) {
        Ok(found) => found,
        Err(e) if e.is_cancelled() => return nothing(e),
        Err(e) => return Err(e.into()),
    };
    let (payload, form) = match extracted {
        Extracted::NoQuestions => {
            if args.print {
                crate::report::print_line(&serde_json::json!({ "questions": [] }).to_string());
            }
            return nothing(reopening::NO_QUESTIONS);
        }
        Extracted::Form { payload, form } => (payload, form),
    };
    if args.print {
        // What the extractor made, to read, fix and pass to `pi-ask ask`.
        let text = serde_json::to_string_pretty(&payload).expect("a JSON value serializes");
        let text = crate::printable::json_for_stdout(&text);
        crate::drivers::run::deliver(&text, None, &mut std::io::stdout().lock())?;
        return Ok(CommandOutcome::Done);
    }
    let opening = Opening {
        form,
        payload: &payload,
        source: Source::Answer,
        origin,
        restore: None,
    };
    finish(open_on_terminal(history, &opening, options)?)
}

/// Says that a cancelled extracted form was cancelled, as the original notifies.
fn finish(ended: FormEnding) -> Ended {
    if ended == FormEnding::Cancelled {
        report(reopening::CANCELLED);
    }
    Ok(ended.outcome())
}

/// Why `pi-ask answer` has no message to read.
#[derive(Debug, thiserror::Error)]
pub enum NoMessage {
    /// Standard input is the terminal.
    #[error(
        "no message: pipe one in (`pi-ask answer < reply.md`), name a file, or use --session FILE|latest"
    )]
    Terminal,
    /// Standard input cannot be read.
    #[error("cannot read standard input: {0}")]
    Stdin(#[source] ReadRefused),
    /// The message file cannot be read.
    #[error("cannot read {path}: {source}")]
    File {
        /// The file, as shown.
        path: String,
        /// Why.
        source: ReadRefused,
    },
}

fn read_message(path: &Path) -> Result<String, NoMessage> {
    if path.as_os_str() == "-" {
        if std::io::stdin().is_terminal() {
            return Err(NoMessage::Terminal);
        }
        let bytes = bounded_read::read_stream(std::io::stdin(), bounded_read::DOCUMENT_CAP, 0)
            .map_err(NoMessage::Stdin)?;
        return String::from_utf8(bytes).map_err(|_| NoMessage::Stdin(ReadRefused::NotText));
    }
    ReadRule::capped(bounded_read::DOCUMENT_CAP)
        .read_text(path)
        .map_err(|source| NoMessage::File {
            path: crate::paths::display(path),
            source,
        })
}

/// Runs the chosen extractor; `plain`: its progress as plain lines (line mode), not a spinner.
pub fn extract(
    turn: &AssistantTurn,
    config: &AnswerExtraction,
    choice: ExtractorChoice,
    plain: bool,
) -> Result<Extracted, ExtractionFailed> {
    crate::extract::extract_configured(turn, config, choice, |program| Spinner::new(program, plain))
}

/// `--again`: the latest extracted form from the history, or on a session's branch.
fn again(args: &AnswerArgs, options: &RunOptions, history: &HistoryChoice) -> Ended {
    if let Some(arg) = args.session.as_deref() {
        let file = read_session_arg(arg, options)?;
        return match pi_session::latest_extracted_form(&file.branch()) {
            Ok(found) => {
                report(&reopening::reopening_answer(&question_count(&found.form)));
                let opening = Opening {
                    form: found.form.clone(),
                    payload: &found.payload,
                    source: Source::AnswerAgain,
                    origin: origin_of(&file, &found),
                    restore: None,
                };
                finish(open_on_terminal(history, &opening, options)?)
            }
            Err(m) if m.incompatible => Err(CommandError::IncompatibleOnBranch),
            Err(_) => nothing(reopening::NO_ANSWER_FORM),
        };
    }
    let read = history.read()?;
    let Some(ask) = read.latest(&[Source::Answer, Source::AnswerAgain]) else {
        return nothing("No previous /answer form found in the history; use pi-ask answer first.");
    };
    let ask = history.with_payload(ask)?;
    let opening = reopening(&ask, Source::AnswerAgain)?;
    report(&format!(
        "Reopening previous /answer form: {}.",
        question_count(&opening.form)
    ));
    finish(open_on_terminal(history, &opening, options)?)
}

/// Progress on the terminal while a model command runs: a spinner with the attempt and the
/// elapsed time, one line, redrawn in place; Esc or Ctrl+C abort (the terminal is in raw mode
/// meanwhile, so the keys are read rather than signalled). In line mode (`plain`), one plain
/// line when it starts and one per retry, nothing redrawn, and Ctrl+C is the usual signal.
struct Spinner {
    program: String,
    tty: Option<std::fs::File>,
    raw: bool,
    plain: bool,
    attempt: (u32, u32),
    frame: usize,
}

const FRAMES: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

impl Spinner {
    fn new(program: &str, plain: bool) -> Spinner {
        let tty = crate::drivers::tty::open_tty().ok();
        let raw = !plain && tty.is_some() && crossterm::terminal::enable_raw_mode().is_ok();
        let program = Path::new(program)
            .file_name()
            .map_or(program.to_owned(), |n| n.to_string_lossy().into_owned());
        let mut spinner = Spinner {
            program,
            tty,
            raw,
            plain,
            attempt: (1, 1),
            frame: 0,
        };
        if plain {
            let line = format!(
                "Extracting the questions using {}; this can take a while. Ctrl+C cancels.\n",
                crate::printable::printable(&spinner.program)
            );
            spinner.write(&line);
        }
        spinner
    }

    fn write(&mut self, text: &str) {
        if let Some(tty) = self.tty.as_mut() {
            let _ = tty.write_all(text.as_bytes());
            let _ = tty.flush();
        }
    }

    /// Whether Esc or Ctrl+C was pressed since the last look. The bytes are read straight from
    /// the terminal (no keyboard protocol is on here): Ctrl+C is 0x03, and Esc a lone 0x1b (an
    /// arrow key's sequence also starts with it, but arrives whole in one read).
    fn abort_pressed(&mut self) -> bool {
        use std::os::fd::AsRawFd;
        let Some(tty) = self.tty.as_mut().filter(|_| self.raw) else {
            return false;
        };
        let mut pressed = false;
        loop {
            let mut fd = libc::pollfd {
                fd: tty.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd for an open descriptor, zero timeout.
            if unsafe { libc::poll(&mut fd, 1, 0) } <= 0 || fd.revents & libc::POLLIN == 0 {
                return pressed;
            }
            let mut buf = [0u8; 64];
            match tty.read(&mut buf) {
                Ok(0) | Err(_) => return pressed,
                Ok(n) => pressed |= buf[..n].contains(&0x03) || &buf[..n] == b"\x1b",
            }
        }
    }
}

impl Progress for Spinner {
    fn attempt(&mut self, attempt: u32, of: u32) {
        self.attempt = (attempt, of);
        if let Some(notice) = crate::extract::command::retry_notice(attempt, of) {
            let line = if self.plain {
                format!("{notice}\n")
            } else {
                format!("\r\x1b[2K{notice}\r\n")
            };
            self.write(&line);
        }
    }

    fn tick(&mut self, elapsed: Duration) -> bool {
        if self.plain {
            return false;
        }
        self.frame = (self.frame + 1) % FRAMES.len();
        let line = format!(
            "\r\x1b[2K{} Extracting questions using {} (attempt {}/{}, {:.1} s) · Esc cancels",
            FRAMES[self.frame],
            self.program,
            self.attempt.0,
            self.attempt.1,
            elapsed.as_secs_f64()
        );
        self.write(&line);
        self.abort_pressed()
    }

    fn done(&mut self) {
        if !self.plain {
            self.write("\r\x1b[2K");
        }
        if self.raw {
            let _ = crossterm::terminal::disable_raw_mode();
            self.raw = false;
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.done();
    }
}
