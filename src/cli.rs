//! Command-line interface: `ask`, `demo`, `settings`, `validate`, `schema`, and the history
//! commands `history`, `replay`, `resume`, `answer`.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::commands::{self, HistoryChoice, Opening};
use crate::config::ThemeSetting;
use crate::history::{Origin, Source};
use crate::input::{self, InvalidInput, Issue};
use crate::result::{self, QuestionContext};
use crate::tui::{Appearance, ColorMode};

use crate::report::{EXIT_CANCELLED, EXIT_ERROR, EXIT_OK, report};

/// The command line (clap). Its help texts are the `about` strings below.
#[derive(Debug, Parser)]
#[command(
    long_about = None,
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

/// Options shared by the commands that open a form.
#[derive(Debug, clap::Args)]
struct FormOptions {
    /// Config file: pi-ask's TOML or the original pi-ask's JSON (default: $PI_ASK_CONFIG, else
    /// ~/.pi/agent/extensions/pi-ask.toml).
    #[arg(long, value_name = "PATH")]
    config: Option<PathBuf>,
    /// Working directory for `@` file suggestions (default: the current directory).
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// Use the whole screen (alternate screen) instead of drawing inline at the bottom.
    #[arg(long)]
    fullscreen: bool,
    /// Write the result JSON to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Serve the form's remote events on a Unix socket at PATH (its folder must be private), so
    /// another program can follow it and answer it (`pi-ask events`, `pi-ask submit`).
    #[arg(long, value_name = "PATH")]
    listen: Option<PathBuf>,
    /// Line mode for screen readers and dumb terminals: the questions as plain numbered lines,
    /// answered by typing a line (also PI_ASK_ACCESSIBLE=1, ACCESSIBLE=1, [accessibility]
    /// lineMode, and TERM=dumb). See docs/accessibility.md.
    #[arg(long)]
    accessible: bool,
    #[command(flatten)]
    look: LookOptions,
}

/// Where asks are recorded.
#[derive(Debug, Clone, clap::Args)]
struct HistoryOptions {
    /// The history file (default: $PI_ASK_HISTORY, else ~/.pi/agent/pi-ask/history.jsonl).
    #[arg(long, value_name = "FILE")]
    history: Option<PathBuf>,
    /// Do not record this form in the history.
    #[arg(long)]
    no_history: bool,
}

impl HistoryOptions {
    fn choice(&self, config: Option<&std::path::Path>) -> HistoryChoice {
        HistoryChoice::resolve(self.history.as_deref(), self.no_history, config)
    }
}

/// Colours: the theme and whether to draw colours at all.
#[derive(Debug, Clone, Copy, clap::Args)]
struct LookOptions {
    /// Colour theme (over PI_ASK_THEME and the config's [theme] name; auto reads COLORFGBG).
    #[arg(long, value_enum, value_name = "NAME")]
    theme: Option<ThemeSetting>,
    /// Draw colours: auto (unless NO_COLOR is set or TERM=dumb), always, or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    color: ColorMode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ExtractorArg {
    Builtin,
    Command,
}

impl From<LookOptions> for Appearance {
    fn from(look: LookOptions) -> Appearance {
        Appearance::from_env(look.theme, look.color)
    }
}

/// How `ask` talks to its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Mode {
    /// The interactive form on the terminal.
    Tui,
    /// pi's extension UI dialogs as JSON lines on stdout/stdin (payload from a file).
    Rpc,
    /// No UI: return the pending questions at once (cancelled result, exit 1).
    Print,
    /// Same as print.
    Json,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Ask the questions of a payload in the terminal and print the result JSON.
    Ask {
        #[command(flatten)]
        options: FormOptions,
        /// tui (default, the form on the terminal), rpc (pi's dialogs as JSON lines on
        /// stdout/stdin, payload from --payload FILE), or print/json (no UI: the pending questions).
        #[arg(long, value_enum, default_value = "tui")]
        mode: Mode,
        /// Payload file (for rpc mode, whose standard input carries the host's responses).
        #[arg(long = "payload", value_name = "FILE")]
        payload_file: Option<PathBuf>,
        /// rpc mode: a dialog unanswered for this many seconds counts as dismissed.
        #[arg(long, value_name = "SECONDS")]
        dialog_timeout: Option<f64>,
        /// Payload file, or `-` (the default) for standard input.
        #[arg(default_value = "-")]
        payload: PathBuf,
        #[command(flatten)]
        history: HistoryOptions,
    },
    /// Reopen the latest real ask_user form (or the one named) from the history, or from a pi
    /// session's current branch.
    Replay {
        /// A history id (or its first characters); default: the latest `ask` form.
        id: Option<String>,
        /// Read a pi session file (read-only) instead of the history; `latest` picks the newest
        /// session of this directory.
        #[arg(long, value_name = "FILE|latest")]
        session: Option<PathBuf>,
        #[command(flatten)]
        options: FormOptions,
        #[command(flatten)]
        history: HistoryOptions,
    },
    /// Reopen the newest ask that never ended (killed, terminal closed, crash) and was not
    /// dismissed; its submit or cancel dismisses it.
    Resume {
        /// A history id (or its first characters); default: the newest interrupted ask.
        id: Option<String>,
        /// The newest unanswered ask_user call on a pi session's current branch instead.
        #[arg(long, value_name = "FILE|latest")]
        session: Option<PathBuf>,
        #[command(flatten)]
        options: FormOptions,
        #[command(flatten)]
        history: HistoryOptions,
    },
    /// Turn an assistant message's questions into a form and open it: from FILE, standard input,
    /// or a pi session's latest assistant message.
    Answer {
        /// The message: a file, or `-` (the default) for standard input.
        message: Option<PathBuf>,
        /// Take the latest assistant message on a pi session's current branch (read-only).
        #[arg(long, value_name = "FILE|latest", conflicts_with = "message")]
        session: Option<PathBuf>,
        /// Reopen the latest extracted form instead (from the history, or on the session's branch).
        #[arg(long)]
        again: bool,
        /// Print the extracted payload as JSON and open no form (to see and fix what the
        /// extractor made, then pass it to `pi-ask ask`).
        #[arg(long, conflicts_with = "again")]
        print: bool,
        /// builtin (offline) or command ([answer] extractor in the config); default: the
        /// command when one is configured.
        #[arg(long, value_enum, value_name = "WHICH")]
        extractor: Option<ExtractorArg>,
        #[command(flatten)]
        options: FormOptions,
        #[command(flatten)]
        history: HistoryOptions,
    },
    /// List recent asks, newest first, or show one.
    History {
        #[command(subcommand)]
        action: Option<HistoryAction>,
        /// The history file (default: $PI_ASK_HISTORY, else ~/.pi/agent/pi-ask/history.jsonl).
        #[arg(long, value_name = "FILE", global = true)]
        history: Option<PathBuf>,
        /// How many asks to list.
        #[arg(long, default_value_t = 20)]
        limit: usize,
    },
    /// Answer the asks waiting in the queue (from `pi-ask mcp`), oldest first, in this terminal.
    Inbox {
        /// The queue folder (default: $PI_ASK_QUEUE, else ~/.pi/agent/pi-ask/queue; without
        /// either, the folders earlier versions used are watched too).
        #[arg(long, value_name = "DIR")]
        queue: Option<PathBuf>,
        /// Stop after one ask.
        #[arg(long)]
        once: bool,
        /// Print where asks go, how many wait, and whether an inbox is watching; then exit.
        #[arg(long)]
        status: bool,
        #[command(flatten)]
        options: FormOptions,
        #[command(flatten)]
        history: HistoryOptions,
    },
    /// Serve the ask_user tool to an MCP client over stdio; its asks are answered in `pi-ask inbox`.
    Mcp {
        /// The queue folder (as for `inbox`).
        #[arg(long, value_name = "DIR")]
        queue: Option<PathBuf>,
        /// Withdraw an ask nobody answered within this many seconds (default: the config's
        /// [mcp] timeoutSeconds; none).
        #[arg(long, value_name = "SECONDS")]
        timeout: Option<f64>,
        /// Config file (as for `ask`).
        #[arg(long, value_name = "PATH")]
        config: Option<PathBuf>,
        /// Seconds between progress notifications of a waiting call (for tests).
        #[arg(long, value_name = "SECONDS", default_value_t = 5.0, hide = true)]
        progress_every: f64,
        /// Ask in the MCP host's own form (elicitation) when no inbox has taken an ask in time
        /// (default: the config's [mcp] elicit; fallback).
        #[arg(long, value_enum, value_name = "WHEN")]
        elicit: Option<crate::mcp::ElicitMode>,
        /// Seconds an ask waits for an inbox before the host's form is used (default: the
        /// config's [mcp] elicitAfterSeconds; 5).
        #[arg(long, value_name = "SECONDS")]
        elicit_after: Option<f64>,
    },
    /// Print the events of a form served with --listen, one JSON line each, until it closes.
    Events {
        /// The form's socket.
        #[arg(long, value_name = "PATH")]
        socket: PathBuf,
    },
    /// Answer (or cancel) a form served with --listen; prints the submit-result.
    Submit {
        /// The form's socket.
        #[arg(long, value_name = "PATH")]
        socket: PathBuf,
        /// How long to wait for the form's reply.
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
        timeout: f64,
        /// The submit request, or just its response: '{"kind":"answer","answers":{…}}' or
        /// '{"kind":"cancel"}' (version, requestId and flowId are filled in).
        request: String,
    },
    /// Open the built-in showcase form (a single, a multi and a preview question).
    Demo {
        #[command(flatten)]
        options: FormOptions,
    },
    /// Open the settings alone.
    Settings {
        /// Config file (as for `ask`).
        #[arg(long, value_name = "PATH")]
        config: Option<PathBuf>,
        /// Use the whole screen.
        #[arg(long)]
        fullscreen: bool,
        #[command(flatten)]
        look: LookOptions,
    },
    /// Validate a payload and print its normalized questions (or the invalid_input result).
    Validate {
        /// Payload file, or `-` (the default) for standard input.
        #[arg(default_value = "-")]
        payload: PathBuf,
    },
    /// Print the JSON Schema of the ask_user input.
    Schema {
        /// The whole tool as pi registers it (name, description, prompt snippet and guidelines,
        /// parameters), as the pi extension ships it.
        #[arg(long)]
        pi: bool,
    },
    /// Serve one form to a host that draws it inside its own screen: JSON lines on standard
    /// input and output (pi's extension uses this; the protocol is in docs/embed.md).
    Embed,
    /// Read an ask_user payload on standard input and print it with a label derived for every
    /// option that has none (what a host runs before checking the schema).
    #[command(hide = true)]
    Prepare,
    /// Read a result ({content, details}) on standard input and print its transcript rendering.
    #[command(hide = true)]
    Transcript,
    /// Check what pi-ask would use here: the config, the history, where MCP asks go and whether
    /// an inbox watches them, and the terminal. Exit 1 when something needs fixing.
    Doctor {
        /// Config file (as for `ask`).
        #[arg(long, value_name = "PATH")]
        config: Option<PathBuf>,
        /// The history file (as for `history`).
        #[arg(long, value_name = "FILE")]
        history: Option<PathBuf>,
        /// The queue folder (as for `inbox`).
        #[arg(long, value_name = "DIR")]
        queue: Option<PathBuf>,
    },
    /// Print the key events the terminal sends, one per line, until F12 (for checking a
    /// terminal's keys and the test harness's decoder against the real one).
    #[command(hide = true)]
    Keys,
}

#[derive(Debug, Subcommand)]
enum HistoryAction {
    /// Print one ask: where it came from, its payload and its result.
    Show {
        /// A history id (or its first characters).
        id: String,
    },
}

/// Runs the CLI with the process arguments.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Ask {
            options,
            mode,
            payload,
            payload_file,
            dialog_timeout,
            history,
        } => {
            let payload = payload_file.unwrap_or(payload);
            if mode == Mode::Rpc && payload.as_os_str() == "-" {
                crate::cli::report(
                    "in rpc mode standard input carries the host's responses; give the payload as a file (--payload FILE)",
                );
                return ExitCode::from(EXIT_ERROR);
            }
            let timeout = match dialog_timeout.map(dialog_timeout_from_secs).transpose() {
                Ok(timeout) => timeout,
                Err(refused) => {
                    report(&refused.to_string());
                    return ExitCode::from(EXIT_ERROR);
                }
            };
            if payload.as_os_str() == "-" && std::io::stdin().is_terminal() {
                crate::cli::report(
                    "no payload: pipe one in (`pi-ask ask < payload.json`) or name a file (`pi-ask ask payload.json`); `pi-ask schema` shows its shape",
                );
                return ExitCode::from(EXIT_ERROR);
            }
            if let Err(code) = check_delivery(options.output.as_deref()) {
                return code;
            }
            let history = history.choice(options.config.as_deref());
            ask(options, mode, &payload, timeout, &history)
        }
        Command::Replay {
            id,
            session,
            options,
            history,
        } => match prepare(&options, &history) {
            Ok(history) => commands::reopen::replay(
                id.as_deref(),
                session.as_deref(),
                &options.into(),
                &history,
            ),
            Err(code) => code,
        },
        Command::Resume {
            id,
            session,
            options,
            history,
        } => match prepare(&options, &history) {
            Ok(history) => commands::reopen::resume(
                id.as_deref(),
                session.as_deref(),
                &options.into(),
                &history,
            ),
            Err(code) => code,
        },
        Command::Answer {
            message,
            session,
            again,
            print,
            extractor,
            options,
            history,
        } => {
            let history = match prepare(&options, &history) {
                Ok(history) => history,
                Err(code) => return code,
            };
            let args = commands::answer::AnswerArgs {
                message,
                session,
                again,
                print,
                extractor: match extractor {
                    None => commands::answer::ExtractorChoice::Configured,
                    Some(ExtractorArg::Builtin) => commands::answer::ExtractorChoice::Builtin,
                    Some(ExtractorArg::Command) => commands::answer::ExtractorChoice::Command,
                },
            };
            commands::answer::answer(&args, &options.into(), &history)
        }
        Command::Inbox {
            queue,
            once,
            status,
            options,
            history,
        } => {
            let history = history.choice(options.config.as_deref());
            let max_bytes = crate::config::peek(&crate::config::ConfigPaths::from_env(
                options.config.as_deref(),
            ))
            .mcp
            .max_ask_bytes;
            let explicit = queue.is_some() || std::env::var_os("PI_ASK_QUEUE").is_some();
            let primary = match open_queue(queue) {
                Ok(queue) => queue.with_max_bytes(max_bytes),
                Err(code) => return code,
            };
            let mut queues = vec![primary];
            if !explicit {
                queues.extend(earlier_queues(queues[0].dir(), max_bytes));
            }
            if status {
                return commands::inbox::status(&queues);
            }
            commands::inbox::inbox(&queues, &options.into(), &history, once)
        }
        Command::Mcp {
            queue,
            timeout,
            config,
            progress_every,
            elicit,
            elicit_after,
        } => {
            // The server has no form to show a config notice in: it goes to standard error (the
            // host's MCP log), so a config that did not apply is never silent.
            let loaded = crate::config::peek_loaded(&crate::config::ConfigPaths::from_env(
                config.as_deref(),
            ));
            for notice in &loaded.notices {
                report(&format!("config: {notice}"));
            }
            let config = loaded.config;
            let mcp_config = config.mcp.clone();
            let queue = match open_queue(queue) {
                Ok(queue) => queue.with_max_bytes(mcp_config.max_ask_bytes),
                Err(code) => return code,
            };
            let configured = mcp_config.timeout_seconds;
            let timeout = match timeout {
                Some(s) if s.is_finite() && s > 0.0 => {
                    Some(Duration::from_secs_f64(s.min(86_400.0 * 365.0)))
                }
                Some(0.0) => None,
                Some(s) => {
                    report(&format!(
                        "--timeout must be a positive number of seconds (got {s})"
                    ));
                    return ExitCode::from(EXIT_ERROR);
                }
                None => configured.map(Duration::from_secs),
            };
            let cwd = std::env::current_dir()
                .map(|d| d.display().to_string())
                .unwrap_or_default();
            let progress_every = if progress_every.is_finite() && progress_every > 0.0 {
                Duration::from_secs_f64(progress_every.min(3600.0))
            } else {
                crate::mcp::PROGRESS_EVERY
            };
            report(&format!(
                "mcp: asks go to {}; answer them with `pi-ask inbox` in a terminal",
                crate::paths::display(queue.dir())
            ));
            let mut server = crate::mcp::AskServer::new(queue, timeout, cwd);
            server.progress_every = progress_every;
            server.max_waiting = mcp_config.max_waiting_calls;
            server.notifications = config.notifications;
            server.elicit = elicit.unwrap_or(mcp_config.elicit);
            server.elicit_after = match elicit_after {
                Some(s) if s.is_finite() && s >= 0.0 => Duration::from_secs_f64(s.min(86_400.0)),
                Some(s) => {
                    report(&format!(
                        "--elicit-after must be zero or a positive number of seconds (got {s})"
                    ));
                    return ExitCode::from(EXIT_ERROR);
                }
                None => Duration::from_secs(mcp_config.elicit_after_seconds),
            };
            match crate::mcp::serve(server) {
                Ok(()) => ExitCode::from(EXIT_OK),
                Err(error) => {
                    report(&error.to_string());
                    ExitCode::from(EXIT_ERROR)
                }
            }
        }
        Command::Events { socket } => {
            match crate::remote::socket::print_events(&socket, &mut std::io::stdout().lock()) {
                Ok(()) => ExitCode::from(EXIT_OK),
                Err(e) => {
                    report(&format!(
                        "cannot follow {}: {e}",
                        crate::paths::display(&socket)
                    ));
                    ExitCode::from(EXIT_ERROR)
                }
            }
        }
        Command::Submit {
            socket,
            timeout,
            request,
        } => submit(&socket, timeout, &request),
        Command::History {
            action,
            history,
            limit,
        } => {
            let history = HistoryChoice::resolve(history.as_deref(), true, None);
            match action {
                None => commands::history::list(&history, limit),
                Some(HistoryAction::Show { id }) => commands::history::show(&history, &id),
            }
        }
        Command::Demo { options } => match check_delivery(options.output.as_deref()) {
            Err(code) => code,
            Ok(()) => demo(options),
        },
        Command::Settings {
            config,
            fullscreen,
            look,
        } => crate::run::settings(config.as_deref(), fullscreen, look.into()),
        Command::Validate { payload } => validate(&payload),
        Command::Keys => match crate::tui::runtime::print_keys() {
            Ok(()) => ExitCode::from(EXIT_OK),
            Err(e) => {
                report(&format!("terminal error: {e}"));
                ExitCode::from(EXIT_ERROR)
            }
        },
        Command::Schema { pi } => {
            print_json(&if pi {
                crate::schema::pi_tool()
            } else {
                crate::schema::input_schema()
            });
            ExitCode::from(EXIT_OK)
        }
        Command::Embed => crate::commands::embed::run(),
        Command::Prepare => crate::commands::embed::prepare(),
        Command::Transcript => crate::commands::embed::transcript(),
        Command::Doctor {
            config,
            history,
            queue,
        } => {
            let choice = HistoryChoice::resolve(history.as_deref(), false, config.as_deref());
            let queue = queue
                .map(|q| crate::paths::absolute(&q))
                .or_else(|| crate::queue::default_queue_dir(|k| std::env::var(k).ok()));
            commands::doctor::doctor(config.as_deref(), &choice, queue.as_deref())
        }
    }
}

fn demo(options: FormOptions) -> ExitCode {
    match input::parse_payload(crate::tui::DEMO_PAYLOAD) {
        Ok(form) => crate::run::ask(form, &options.into()),
        Err(invalid) => crate::run::emit(
            &result::invalid_input_result(&invalid),
            options.output.as_deref(),
            EXIT_ERROR,
        ),
    }
}

/// The folders earlier versions queued asks in that exist here and are safe to read (an unsafe
/// one is named and skipped).
fn earlier_queues(primary: &std::path::Path, max_bytes: u64) -> Vec<crate::queue::Queue> {
    crate::queue::earlier_queue_dirs(|k| std::env::var(k).ok(), primary)
        .into_iter()
        .filter_map(|dir| match crate::queue::Queue::open(&dir) {
            Ok(queue) => Some(queue.with_max_bytes(max_bytes)),
            Err(e) => {
                report(&format!(
                    "not watching {}, where earlier versions queued asks: {e}",
                    crate::paths::display(&dir)
                ));
                None
            }
        })
        .collect()
}

/// The queue folder: `--queue`, else the default one.
fn open_queue(dir: Option<PathBuf>) -> Result<crate::queue::Queue, ExitCode> {
    let Some(dir) = dir.or_else(|| crate::queue::default_queue_dir(|k| std::env::var(k).ok()))
    else {
        report("no queue folder: there is no home directory; give --queue DIR or set PI_ASK_QUEUE");
        return Err(ExitCode::from(EXIT_ERROR));
    };
    crate::queue::Queue::open(&dir).map_err(|e| {
        report(&format!(
            "cannot open the queue {}: {e}",
            crate::paths::display(&dir)
        ));
        ExitCode::from(EXIT_ERROR)
    })
}

/// `pi-ask submit`: exit 0 when the form accepted the request, 2 when it refused it.
fn submit(socket: &std::path::Path, timeout: f64, request: &str) -> ExitCode {
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

/// Before a reopening command: the result must be deliverable, and the history is chosen.
fn prepare(options: &FormOptions, history: &HistoryOptions) -> Result<HistoryChoice, ExitCode> {
    check_delivery(options.output.as_deref())?;
    Ok(history.choice(options.config.as_deref()))
}

/// Shortest and longest `--dialog-timeout` accepted: a millisecond (the wire unit) and a day.
const DIALOG_TIMEOUT_RANGE: (f64, f64) = (0.001, 86_400.0);

/// A `--dialog-timeout` out of range (the seconds given).
#[derive(Debug, thiserror::Error)]
#[error(
    "--dialog-timeout must be between {min} and {max} seconds (got {seconds})",
    min = DIALOG_TIMEOUT_RANGE.0,
    max = DIALOG_TIMEOUT_RANGE.1
)]
struct DialogTimeoutOutOfRange {
    seconds: f64,
}

/// `--dialog-timeout` seconds as a duration, or why not.
fn dialog_timeout_from_secs(seconds: f64) -> Result<Duration, DialogTimeoutOutOfRange> {
    let (min, max) = DIALOG_TIMEOUT_RANGE;
    if seconds.is_finite() && (min..=max).contains(&seconds) {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(DialogTimeoutOutOfRange { seconds })
    }
}

/// Refuses, before any form opens, a result that could not be delivered: a closed standard
/// output, or an `--output` file that cannot be created.
fn check_delivery(output: Option<&std::path::Path>) -> Result<(), ExitCode> {
    let problem = match output {
        Some(path) => crate::run::check_output_file(path)
            .err()
            .map(|refused| refused.to_string()),
        None => crate::run::stdout_is_closed().then(|| {
            "standard output is closed, so the result could not be delivered; give --output FILE"
                .to_owned()
        }),
    };
    match problem {
        Some(message) => {
            report(&message);
            Err(ExitCode::from(EXIT_ERROR))
        }
        None => Ok(()),
    }
}

fn ask(
    options: FormOptions,
    mode: Mode,
    payload: &PathBuf,
    timeout: Option<Duration>,
    history: &HistoryChoice,
) -> ExitCode {
    let output = options.output.clone();
    let config = options.config.clone();
    match read_payload(payload).and_then(|t| input::parse_payload_value(&t)) {
        Ok((value, form)) => {
            let run_options: crate::run::RunOptions = options.into();
            let opening = Opening {
                form,
                payload: &value,
                source: Source::Tool,
                origin: Origin::default(),
                restore: None,
            };
            let cwd = commands::recorded_cwd(&run_options);
            match mode {
                Mode::Tui => {
                    if crate::run::has_terminal() {
                        commands::hint_interrupted(history, &cwd);
                    }
                    commands::open_on_terminal(history, &opening, &run_options).0
                }
                Mode::Rpc => match commands::recorded(history, &opening, cwd, |form, journal| {
                    // The dialogs are the form: it shows with the first one.
                    if let Some(journal) = &journal {
                        journal.shown();
                    }
                    crate::run::rpc_result(form, config.as_deref(), timeout)
                }) {
                    Ok(done) => crate::run::emit_rpc(
                        &done.result,
                        output.as_deref(),
                        crate::run::exit_code(&done.result),
                    ),
                    Err(code) => code,
                },
                Mode::Print | Mode::Json => {
                    match commands::recorded(history, &opening, cwd, |f, _| {
                        report(crate::run::NO_UI_MODE);
                        Ok(crate::run::Finished {
                            result: result::needs_input_result(&f),
                            interrupted: false,
                        })
                    }) {
                        Ok(done) => {
                            crate::run::emit(&done.result, output.as_deref(), EXIT_CANCELLED)
                        }
                        Err(code) => code,
                    }
                }
            }
        }
        Err(invalid) if mode == Mode::Rpc => crate::run::emit_rpc(
            &result::invalid_input_result(&invalid),
            output.as_deref(),
            EXIT_ERROR,
        ),
        Err(invalid) => crate::run::emit(
            &result::invalid_input_result(&invalid),
            output.as_deref(),
            EXIT_ERROR,
        ),
    }
}

impl From<FormOptions> for crate::run::RunOptions {
    fn from(o: FormOptions) -> Self {
        crate::run::RunOptions {
            config: o.config,
            cwd: o.cwd,
            fullscreen: o.fullscreen,
            output: o.output,
            appearance: o.look.into(),
            listen: o.listen,
            source: String::new(),
            tool_call_id: None,
            submit_when_answered: false,
            journal: None,
            restore: None,
            dismiss_puts_back: false,
            accessible: o.accessible,
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
