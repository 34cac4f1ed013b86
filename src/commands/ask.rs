//! `pi-ask ask`, `demo` and `validate`: a payload read and checked, then shown as a form on the
//! terminal, through pi's RPC dialogs, or not at all.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use super::{CommandError, Ended, HistoryChoice, Opening, SecondsOutOfRange};
use crate::drivers::run::RunOptions;
use crate::input::{self, InvalidInput, Issue};
use crate::report::{CommandOutcome, print_json, report};
use crate::result::{self, QuestionContext};
use crate::stores::history::{Origin, Source};

/// How `ask` talks to its caller (`--mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AskMode {
    /// The interactive form on the terminal.
    Tui,
    /// pi's extension UI dialogs as JSON lines on stdout/stdin (payload from a file).
    Rpc,
    /// No UI: return the pending questions at once (cancelled result, exit 1).
    Print,
    /// Same as print.
    Json,
}

/// What `pi-ask ask` was given.
#[derive(Debug, Clone)]
pub struct AskArgs {
    /// How it talks to its caller.
    pub mode: AskMode,
    /// The payload file, `-` for standard input.
    pub payload: PathBuf,
    /// `--dialog-timeout` seconds (rpc mode).
    pub dialog_timeout: Option<f64>,
    /// `--timeout` seconds: the form ends unanswered after them.
    pub timeout: Option<f64>,
}

/// `pi-ask ask`: refuses what cannot work before reading anything (a payload on the standard input
/// that rpc mode needs for the host's replies, a terminal where a piped payload is expected, a
/// result that could not be delivered), then opens the form.
pub fn run(args: AskArgs, mut options: RunOptions, history: &HistoryChoice) -> Ended {
    if args.mode == AskMode::Rpc && args.payload.as_os_str() == "-" {
        return Err(CommandError::RpcPayloadOnStdin);
    }
    let timeout = args
        .dialog_timeout
        .map(dialog_timeout_from_secs)
        .transpose()?;
    options.timeout = args.timeout.map(form_timeout_from_secs).transpose()?;
    if args.payload.as_os_str() == "-" && std::io::stdin().is_terminal() {
        return Err(CommandError::NoPayload);
    }
    crate::drivers::run::check_delivery(options.output.as_deref())?;
    ask(options, args.mode, &args.payload, timeout, history)
}

fn ask(
    run_options: RunOptions,
    mode: AskMode,
    payload: &std::path::Path,
    timeout: Option<Duration>,
    history: &HistoryChoice,
) -> Ended {
    let output = run_options.output.clone();
    let config = run_options.config.clone();
    let format = run_options.format;
    match read_payload(payload).and_then(|t| input::parse_command_payload(&t)) {
        Ok((value, form)) => {
            let opening = Opening {
                form,
                payload: &value,
                source: Source::Tool,
                origin: Origin::default(),
                restore: None,
            };
            let cwd = super::recorded_cwd(&run_options);
            match mode {
                AskMode::Tui => {
                    if crate::drivers::run::has_terminal() {
                        super::hint_interrupted(history, &cwd);
                    }
                    Ok(super::open_on_terminal(history, &opening, &run_options)?.outcome())
                }
                AskMode::Rpc => {
                    let done = super::recorded(history, &opening, cwd, |form, journal| {
                        // The dialogs are the form: it shows with the first one.
                        if let Some(journal) = &journal {
                            journal.shown();
                        }
                        crate::drivers::run::rpc_result(form, config.as_deref(), timeout)
                    })?;
                    crate::drivers::run::emit_rpc(&done.result, output.as_deref())?;
                    Ok(crate::drivers::run::outcome(&done.result))
                }
                AskMode::Print | AskMode::Json => {
                    let done = super::recorded(history, &opening, cwd, |f, _| {
                        report(crate::drivers::run::NO_UI_MODE);
                        Ok::<_, CommandError>(crate::drivers::run::Finished {
                            result: result::needs_input_result(&f),
                            interrupted: false,
                            timed_out: false,
                        })
                    })?;
                    crate::drivers::run::emit_as(&done.result, output.as_deref(), format)?;
                    Ok(CommandOutcome::Cancelled)
                }
            }
        }
        Err(invalid) => {
            // One line on stderr says why (stdout may be a file or a pipe, and `--format text`
            // writes nothing for a refusal).
            say_refused(&invalid);
            let refusal = result::invalid_input_result(&invalid);
            if mode == AskMode::Rpc {
                crate::drivers::run::emit_rpc(&refusal, output.as_deref())?;
            } else {
                crate::drivers::run::emit_as(&refusal, output.as_deref(), format)?;
            }
            Ok(CommandOutcome::Refused)
        }
    }
}

/// Says on stderr why a payload was refused: its first issue, and how many more the result names.
fn say_refused(invalid: &InvalidInput) {
    let Some(first) = invalid.issues.first() else {
        return;
    };
    let more = match invalid.issues.len() - 1 {
        0 => String::new(),
        1 => " (and 1 more issue in the result)".to_owned(),
        n => format!(" (and {n} more issues in the result)"),
    };
    let what = if first.path == "payload" {
        first.message.clone()
    } else {
        format!("invalid payload: {}: {}", first.path, first.message)
    };
    report(&format!("{what}{more}"));
}

/// `pi-ask demo`: the showcase form.
pub fn demo(options: RunOptions) -> Ended {
    crate::drivers::run::check_delivery(options.output.as_deref())?;
    match input::parse_payload(crate::tui::DEMO_PAYLOAD) {
        Ok(form) => Ok(crate::drivers::run::ask(form, &options)?),
        Err(invalid) => {
            crate::drivers::run::emit(
                &result::invalid_input_result(&invalid),
                options.output.as_deref(),
            )?;
            Ok(CommandOutcome::Refused)
        }
    }
}

/// Most ignored fields named one by one; the rest are counted.
const IGNORED_SAID: usize = 20;

/// Names on standard error the fields of payload `text` that are ignored (a typo, another host's
/// field name), with the field meant.
fn report_ignored(text: &str) {
    let Ok(payload) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    // A payload of thousands of stray fields is said in a few lines, not thousands.
    let ignored = input::ignored_fields(&payload);
    for field in ignored.iter().take(IGNORED_SAID) {
        crate::report::report(&format!("ignored {field}"));
    }
    if ignored.len() > IGNORED_SAID {
        crate::report::report(&format!(
            "ignored {} more fields",
            ignored.len() - IGNORED_SAID
        ));
    }
}

/// Reads a payload from a file, or from standard input for `-` (and names its ignored fields).
pub fn read_payload(path: &std::path::Path) -> Result<String, InvalidInput> {
    let text = read_payload_text(path)?;
    report_ignored(&text);
    Ok(text)
}

fn read_payload_text(path: &std::path::Path) -> Result<String, InvalidInput> {
    use crate::bounded_read::{DOCUMENT_CAP, ReadRefused, ReadRule, read_stream};
    let read = if path.as_os_str() == "-" {
        read_stream(std::io::stdin(), DOCUMENT_CAP, 0)
            .and_then(|bytes| String::from_utf8(bytes).map_err(|_| ReadRefused::NotText))
    } else {
        ReadRule::capped(DOCUMENT_CAP).read_text(path)
    };
    read.map_err(|err| InvalidInput {
        raw_title: None,
        issues: vec![Issue {
            path: "payload".into(),
            message: format!("Cannot read {}: {err}", path.display()),
        }],
    })
}

/// `pi-ask validate`: the form a payload makes, or its issues.
pub fn validate(path: &std::path::Path) -> Ended {
    match read_payload(path).and_then(|text| input::parse_command_payload(&text)) {
        Ok((_, form)) => {
            for (i, _) in form
                .questions
                .iter()
                .enumerate()
                .filter(|(_, q)| q.freeform)
            {
                crate::report::report(&format!(
                    "questions[{i}] is open (a freeform option): pi-ask ask takes it; a tool call (MCP, pi) does not"
                ));
            }
            let questions: Vec<QuestionContext> =
                form.questions.iter().map(QuestionContext::from).collect();
            let mut out = serde_json::json!({ "questions": questions });
            if let Some(title) = &form.title {
                out["title"] = title.clone().into();
            }
            print_json(&out);
            Ok(CommandOutcome::Done)
        }
        Err(invalid) => {
            print_json(&result::invalid_input_result(&invalid));
            Ok(CommandOutcome::Refused)
        }
    }
}

/// Shortest and longest `--dialog-timeout` accepted: a millisecond (the wire unit) and a day.
const DIALOG_TIMEOUT_RANGE: (f64, f64) = (0.001, 86_400.0);

/// `--dialog-timeout` seconds as a duration, or why not.
/// The longest `--timeout`: a week (beyond it a script means no limit, which is the default).
const FORM_TIMEOUT_MAX: f64 = 7.0 * 24.0 * 3600.0;

fn form_timeout_from_secs(seconds: f64) -> Result<Duration, SecondsOutOfRange> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= FORM_TIMEOUT_MAX {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(SecondsOutOfRange {
            flag: "--timeout",
            range: format!("more than 0 and at most {FORM_TIMEOUT_MAX} seconds (a week)"),
            seconds,
        })
    }
}

fn dialog_timeout_from_secs(seconds: f64) -> Result<Duration, SecondsOutOfRange> {
    let (min, max) = DIALOG_TIMEOUT_RANGE;
    if seconds.is_finite() && (min..=max).contains(&seconds) {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(SecondsOutOfRange {
            flag: "--dialog-timeout",
            range: format!("between {min} and {max} seconds"),
            seconds,
        })
    }
}
