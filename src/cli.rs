//! The command line: the clap types, one dispatch to `commands` (each command's work lives
//! there), and the one place a command's ending becomes an exit status and its failure a message.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::commands::{self, CommandError, Ended, HistoryChoice};
use crate::report::{CommandOutcome, EXIT_ERROR, print_json, report};
use crate::stores::config::ThemeSetting;
use crate::tui::{Appearance, ColorMode};

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

/// What `pi-ask hook <host>` is told.
#[derive(Debug, Clone, clap::Args)]
struct HookArgs {
    /// The queue folder (default: as `pi-ask inbox`).
    #[arg(long, value_name = "DIR")]
    queue: Option<PathBuf>,
    /// How long to wait for an answer before the host asks itself (keep it under the hook's
    /// own timeout in the host's config).
    #[arg(long, value_name = "SECONDS", default_value_t = 590.0)]
    wait: f64,
}

/// The hosts `pi-ask hook` answers for.
#[derive(Debug, Clone, clap::Subcommand)]
enum HookHost {
    /// Claude Code: a `PreToolUse` hook for `AskUserQuestion` and an `Elicitation` hook for MCP
    /// servers' forms of choices (its event on stdin, the answer on stdout).
    Claude(HookArgs),
    /// Codex: a `PreToolUse` hook for `request_user_input` (the answers go to the model as the
    /// hook's reason for denying the tool, the way Codex lets a hook answer).
    Codex(HookArgs),
    /// Gemini CLI: a `BeforeTool` hook for `ask_user` (denied with the answers as the reason,
    /// as for Codex; Gemini CLI offers `ask_user` in its interactive mode only).
    Gemini(HookArgs),
}

/// What `pi-ask setup <host>` is told.
#[derive(Debug, Clone, clap::Args)]
struct SetupArgs {
    /// The hooks file (default: the host's own: ~/.claude/settings.json,
    /// $CODEX_HOME/hooks.json, ~/.gemini/settings.json; a project's works too).
    #[arg(long, value_name = "FILE")]
    settings: Option<PathBuf>,
    /// The file the MCP server goes in (default: ~/.claude.json, $CODEX_HOME/config.toml,
    /// ~/.gemini/settings.json).
    #[arg(long, value_name = "FILE")]
    mcp_config: Option<PathBuf>,
    /// Register only the hook, not pi-ask's MCP server.
    #[arg(long)]
    no_mcp: bool,
    /// Show the files as they would be; write nothing.
    #[arg(long)]
    print: bool,
    /// Remove pi-ask's entries instead.
    #[arg(long)]
    remove: bool,
}

/// The hosts `pi-ask setup` registers pi-ask with.
#[derive(Debug, Clone, clap::Subcommand)]
enum SetupHost {
    /// Claude Code: `pi-ask hook claude` as the `PreToolUse` hook of `AskUserQuestion` and the
    /// `Elicitation` hook in ~/.claude/settings.json, and pi-ask's MCP server in ~/.claude.json.
    Claude(SetupArgs),
    /// Codex: `pi-ask hook codex` as the `PreToolUse` hook of `request_user_input` in
    /// $CODEX_HOME/hooks.json (~/.codex), and pi-ask's MCP server in its config.toml.
    Codex(SetupArgs),
    /// Gemini CLI: `pi-ask hook gemini` as the `BeforeTool` hook of `ask_user`, and pi-ask's MCP
    /// server (its tool named ask_person), in ~/.gemini/settings.json.
    Gemini(SetupArgs),
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

#[derive(Debug, Subcommand)]
enum Command {
    /// Ask the questions of a payload in the terminal and print the result JSON.
    Ask {
        #[command(flatten)]
        options: FormOptions,
        /// tui (default, the form on the terminal), rpc (pi's dialogs as JSON lines on
        /// stdout/stdin, payload from --payload FILE), or print/json (no UI: the pending questions).
        #[arg(long, value_enum, default_value = "tui")]
        mode: commands::ask::AskMode,
        /// Payload file (for rpc mode, whose standard input carries the host's responses).
        #[arg(long = "payload", value_name = "FILE")]
        payload_file: Option<PathBuf>,
        /// rpc mode: a dialog unanswered for this many seconds counts as dismissed.
        #[arg(long, value_name = "SECONDS")]
        dialog_timeout: Option<f64>,
        /// End the form unanswered after this many seconds from when it shows: the result says
        /// nobody answered in time, exit status 124.
        #[arg(long, value_name = "SECONDS")]
        timeout: Option<f64>,
        /// Submit as soon as every question is answered, without the review tab (a one-question
        /// single-select form ends on the choice; the config's autoSubmitWhenAnsweredWithoutNotes
        /// does the same for every form).
        #[arg(long)]
        quick: bool,
        /// How the result is written: json (the result JSON), or text (the chosen labels, one a
        /// line; nothing when cancelled, timed out or refused).
        #[arg(long, value_enum, value_name = "FORMAT", default_value = "json")]
        format: crate::drivers::run::ResultFormat,
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
    /// Serve the waiting asks as a web page (for a browser here, or a phone through an SSH
    /// forwarded port): prints a one-time sign-in link and its QR code. See docs/web.md.
    Serve {
        /// The address to listen on (default 127.0.0.1:7439; port 0 takes a free one). An
        /// address other machines can reach is allowed, with a warning: SSH port forwarding is
        /// the safer way.
        #[arg(long, value_name = "ADDR:PORT")]
        listen: Option<std::net::SocketAddr>,
        /// Write the sign-in link (and each next one) to FILE, mode 0600, for scripts and tests.
        #[arg(long, value_name = "FILE")]
        url_file: Option<PathBuf>,
        /// Another name the page may be reached by (a tunnel's or this machine's host name);
        /// requests naming any other host are refused. May be given more than once.
        #[arg(long = "allow-host", value_name = "NAME")]
        allow_hosts: Vec<String>,
        /// The queue folder (default: as `pi-ask inbox`).
        #[arg(long, value_name = "DIR")]
        queue: Option<PathBuf>,
        /// The address your devices reach the page at (a forwarded port, a tunnel), for the
        /// links in notifications (ASK_NOTIFY_URL); default: the listen address.
        #[arg(long, value_name = "URL")]
        public_url: Option<String>,
        /// Config file (default: as `pi-ask ask`).
        #[arg(long, value_name = "PATH")]
        config: Option<PathBuf>,
        #[command(flatten)]
        history: HistoryOptions,
    },
    /// Answer an agent host's own question tool in pi-ask, as the host's hook (no terminal:
    /// the ask is answered in `pi-ask inbox` or the web page; without one watching, the host
    /// asks itself). See docs/hosts.md.
    Hook {
        #[command(subcommand)]
        host: HookHost,
    },
    /// Register pi-ask's hook in an agent host's settings (or remove it), changing nothing else
    /// there. See docs/hosts.md.
    Setup {
        #[command(subcommand)]
        host: SetupHost,
    },
    /// Serve the ask_user tool to an MCP client over stdio; its asks are answered in `pi-ask inbox`.
    Mcp(commands::mcp::McpArgs),
    /// Print the events of a form served with --listen, one JSON line each, until it closes.
    Events {
        /// The form's socket.
        #[arg(long, value_name = "PATH")]
        socket: PathBuf,
        /// How long to wait for the socket to be there (a form started just before).
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
        wait: f64,
    },
    /// Answer (or cancel) a form served with --listen; prints the submit-result.
    Submit {
        /// The form's socket.
        #[arg(long, value_name = "PATH")]
        socket: PathBuf,
        /// How long to wait for the form's socket to be there and for its reply.
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
    match Cli::try_parse() {
        Ok(cli) => exit(dispatch(cli.command)),
        Err(error) => usage_error(&error),
    }
}

/// A command line clap refused (or `--help`, `--version`): clap's message, with every line made
/// printable, since it quotes what was typed (an argument holding ESC, OSC 52 or a bell would
/// otherwise reach the terminal raw). Help and version go to stdout with exit 0, errors to stderr
/// with clap's status.
fn usage_error(error: &clap::Error) -> ExitCode {
    use std::io::Write;
    let text = error.render().to_string();
    let safe: Vec<String> = text.lines().map(crate::printable::printable).collect();
    let safe = safe.join("\n");
    if error.use_stderr() {
        let _ = writeln!(std::io::stderr().lock(), "{safe}");
    } else {
        let _ = writeln!(std::io::stdout().lock(), "{safe}");
    }
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}

/// How a command ended as the exit status, said on standard error where there is something to
/// say: 0 done; 1 cancelled, nothing to do (why) or not ready; 2 refused or failed (why).
pub fn exit(ended: Ended) -> ExitCode {
    match ended {
        Ok(outcome) => {
            if let CommandOutcome::Nothing(why) = &outcome {
                report(why);
            }
            ExitCode::from(outcome.exit_status())
        }
        Err(failed) => {
            report(&failed.to_string());
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// Runs one command.
fn dispatch(command: Command) -> Ended {
    match command {
        Command::Ask {
            options,
            mode,
            payload,
            payload_file,
            dialog_timeout,
            timeout,
            quick,
            format,
            history,
        } => {
            let history = history.choice(options.config.as_deref());
            let args = commands::ask::AskArgs {
                mode,
                payload: payload_file.unwrap_or(payload),
                dialog_timeout,
                timeout,
            };
            let run = crate::drivers::run::RunOptions {
                submit_when_answered: quick,
                format,
                ..options.into()
            };
            commands::ask::run(args, run, &history)
        }
        Command::Replay {
            id,
            session,
            options,
            history,
        } => {
            let history = prepare(&options, &history)?;
            commands::reopen::replay(id.as_deref(), session.as_deref(), &options.into(), &history)
        }
        Command::Resume {
            id,
            session,
            options,
            history,
        } => {
            let history = prepare(&options, &history)?;
            commands::reopen::resume(id.as_deref(), session.as_deref(), &options.into(), &history)
        }
        Command::Answer {
            message,
            session,
            again,
            print,
            extractor,
            options,
            history,
        } => {
            let history = prepare(&options, &history)?;
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
            commands::inbox::run(queue, once, status, &options.into(), &history)
        }
        Command::Serve {
            listen,
            url_file,
            allow_hosts,
            queue,
            public_url,
            config,
            history,
        } => {
            let history = history.choice(config.as_deref());
            let options = crate::drivers::run::RunOptions {
                config,
                ..crate::drivers::run::RunOptions::default()
            };
            let args = commands::serve::ServeArgs {
                listen,
                url_file,
                allow_hosts,
                queue,
                public_url,
            };
            commands::serve::run(args, &options, history)
        }
        Command::Hook { host } => {
            let (host, HookArgs { queue, wait }) = match host {
                HookHost::Claude(args) => (crate::drivers::hooks::Host::Claude, args),
                HookHost::Codex(args) => (crate::drivers::hooks::Host::Codex, args),
                HookHost::Gemini(args) => (crate::drivers::hooks::Host::Gemini, args),
            };
            let wait = std::time::Duration::from_secs_f64(if wait.is_finite() {
                wait.clamp(0.0, 86_400.0)
            } else {
                0.0
            });
            commands::hook::run(host, queue, wait)
        }
        Command::Setup { host } => {
            let (host, args) = match host {
                SetupHost::Claude(args) => (crate::drivers::hooks::Host::Claude, args),
                SetupHost::Codex(args) => (crate::drivers::hooks::Host::Codex, args),
                SetupHost::Gemini(args) => (crate::drivers::hooks::Host::Gemini, args),
            };
            let options = commands::setup::SetupOptions {
                hooks_file: args.settings,
                mcp_file: args.mcp_config,
                no_mcp: args.no_mcp,
                print: args.print,
                remove: args.remove,
            };
            commands::setup::run(host, &options)
        }
        Command::Mcp(args) => commands::mcp::run(args),
        Command::Events { socket, wait } => commands::remote::events(&socket, wait),
        Command::Submit {
            socket,
            timeout,
            request,
        } => commands::remote::submit(&socket, timeout, &request),
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
        Command::Demo { options } => commands::ask::demo(options.into()),
        Command::Settings {
            config,
            fullscreen,
            look,
        } => Ok(crate::drivers::run::settings(
            config.as_deref(),
            fullscreen,
            look.into(),
        )?),
        Command::Validate { payload } => commands::ask::validate(&payload),
        Command::Keys => {
            crate::drivers::runtime::print_keys()
                .map_err(crate::drivers::run::RunError::Terminal)?;
            Ok(CommandOutcome::Done)
        }
        Command::Schema { pi } => {
            print_json(&if pi {
                crate::schema::pi_tool()
            } else {
                crate::schema::input_schema()
            });
            Ok(CommandOutcome::Done)
        }
        Command::Embed => commands::embed::run(),
        Command::Prepare => commands::embed::prepare(),
        Command::Transcript => commands::embed::transcript(),
        Command::Doctor {
            config,
            history,
            queue,
        } => {
            let choice = HistoryChoice::resolve(history.as_deref(), false, config.as_deref());
            let queue = queue
                .map(|q| crate::paths::absolute(&q))
                .or_else(|| crate::stores::queue::default_queue_dir(|k| std::env::var(k).ok()));
            Ok(commands::doctor::doctor(
                config.as_deref(),
                &choice,
                queue.as_deref(),
            ))
        }
    }
}

/// Before a reopening command: the result must be deliverable, and the history is chosen.
fn prepare(options: &FormOptions, history: &HistoryOptions) -> Result<HistoryChoice, CommandError> {
    crate::drivers::run::check_delivery(options.output.as_deref())?;
    Ok(history.choice(options.config.as_deref()))
}

impl From<FormOptions> for crate::drivers::run::RunOptions {
    fn from(o: FormOptions) -> Self {
        crate::drivers::run::RunOptions {
            config: o.config,
            cwd: o.cwd,
            fullscreen: o.fullscreen,
            output: o.output,
            appearance: o.look.into(),
            listen: o.listen,
            source: crate::stores::history::Source::Tool,
            tool_call_id: None,
            submit_when_answered: false,
            journal: None,
            restore: None,
            dismiss_puts_back: false,
            accessible: o.accessible,
            timeout: None,
            format: crate::drivers::run::ResultFormat::Json,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_ending_has_its_exit_status() {
        let cases: [(Ended, u8); 6] = [
            (Ok(CommandOutcome::Done), 0),
            (Ok(CommandOutcome::Cancelled), 1),
            (
                Ok(CommandOutcome::Nothing(
                    "No interrupted ask to resume.".into(),
                )),
                1,
            ),
            (Ok(CommandOutcome::NotReady), 1),
            (Ok(CommandOutcome::Refused), 2),
            (Err(CommandError::NeedsTerminal("resume")), 2),
        ];
        for (ended, status) in cases {
            let shown = format!("{ended:?}");
            assert_eq!(exit(ended), ExitCode::from(status), "{shown}");
        }
    }

    #[test]
    fn a_failure_keeps_the_module_error_as_its_source() {
        use std::error::Error as _;
        let io = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "denied");
        let failed = CommandError::from(crate::drivers::run::RunError::Host(io));
        assert_eq!(failed.to_string(), "cannot talk to the host: denied");
        // `Run` is transparent: its source is the run error's, the I/O error itself.
        let source = failed.source().expect("the I/O error");
        assert_eq!(source.to_string(), "denied");
    }
}
