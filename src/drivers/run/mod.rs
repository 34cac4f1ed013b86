//! Running a form or the settings on the real terminal (or in line mode, or over pi's RPC
//! dialogs): the options, the session a flow runs in, and the result it ends with. Delivering
//! that result is `delivery.rs`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::drivers::runtime::{self, Ending};
use crate::drivers::tty as terminal;
use crate::engine::{Engine, Input, Viewport};
use crate::engine::{Screen, Session};
use crate::files::{FileSource, IndexOptions};
use crate::form::Form;
use crate::keymap::BindingTable;
use crate::model::{External, Msg};
use crate::remote::{FlowInfo, RemoteServer};
use crate::report::CommandOutcome;
use crate::result::{self, AskResult};
use crate::stores::config::{ConfigPaths, ConfigStore};
use crate::tui::{App, Appearance, SettingsApp, notify};

mod delivery;

pub use delivery::*;

/// A form's result, and whether a signal ended it (rather than the person or the host).
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    /// The result delivered.
    pub result: AskResult,
    /// A signal ended the form (it is resumable).
    pub interrupted: bool,
    /// Nobody answered within its time limit (`ask --timeout`).
    pub timed_out: bool,
}

impl Finished {
    fn answered(result: AskResult) -> Finished {
        Finished {
            result,
            interrupted: false,
            timed_out: false,
        }
    }
}

/// Why a form (or the settings) ran without a result to deliver, or its result was not
/// delivered. What a command turns into its exit status 2.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// `--cwd` is not a folder.
    #[error(transparent)]
    NotAFolder(#[from] NotAFolder),
    /// `--listen` cannot be served.
    #[error(transparent)]
    Listen(#[from] crate::remote::socket::ListenError),
    /// The form ended without a result (nothing to deliver).
    #[error("the form ended without a result")]
    NoResult,
    /// The terminal failed where there are no answers to keep (the settings, `pi-ask keys`); a
    /// form's failing terminal ends it as interrupted instead, its answers delivered.
    #[error("terminal error: {0}")]
    Terminal(#[source] std::io::Error),
    /// The signal handlers cannot be installed.
    #[error("cannot watch for signals: {0}")]
    Signals(#[source] std::io::Error),
    /// The RPC host's dialogs failed.
    #[error("cannot talk to the host: {0}")]
    Host(#[source] std::io::Error),
    /// `pi-ask settings` without a terminal.
    #[error("settings need an interactive terminal")]
    SettingsNeedTerminal,
    /// `pi-ask settings` in line mode, which cannot draw the modal (the config file's path, as
    /// shown).
    #[error(
        "the settings are drawn on the full screen, which line mode does not use: edit {0} (every setting is described in it and in docs/configuration.md)"
    )]
    SettingsInLineMode(String),
    /// The result could not be delivered.
    #[error(transparent)]
    Delivery(#[from] DeliveryFailed),
}

/// Options of `ask` and `demo`.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// `--config`: the config file.
    pub config: Option<PathBuf>,
    /// `--cwd`: where `@` looks.
    pub cwd: Option<PathBuf>,
    /// `--fullscreen`: the alternate screen instead of an inline area.
    pub fullscreen: bool,
    /// `--output`: the result goes to this file, not stdout.
    pub output: Option<PathBuf>,
    /// The theme and colour depth.
    pub appearance: Appearance,
    /// `--listen PATH`: serve the remote events of the form on a local socket.
    pub listen: Option<PathBuf>,
    /// What opened the form (remote events name it).
    pub source: crate::stores::history::Source,
    /// The tool call the form answers, when known (remote events carry it).
    pub tool_call_id: Option<String>,
    /// Finish as soon as every question is answered (a picker, not a form to review).
    pub submit_when_answered: bool,
    /// Records the form in the history: its opening once drawn, its drafts as they change.
    pub journal: Option<crate::stores::history::JournalHandle>,
    /// What was entered before (`pi-ask resume`), put back before the first frame.
    pub restore: Option<crate::model::Draft>,
    /// `global.dismiss` (Ctrl+C) ends the form as interrupted (nothing delivered), for a caller
    /// that gives the ask back (the inbox) instead of cancelling it.
    pub dismiss_puts_back: bool,
    /// `--accessible`: line mode (also chosen by the environment, the config or `TERM=dumb`).
    pub accessible: bool,
    /// `ask --timeout`: how long the form waits for its answer once shown.
    pub timeout: Option<std::time::Duration>,
    /// `ask --format`: the result JSON, or the chosen labels as lines.
    pub format: ResultFormat,
}

/// The remote socket as the session's outside source of messages.
struct RemoteOutside(std::sync::Arc<RemoteServer>);

impl crate::engine::Outside for RemoteOutside {
    fn poll(&mut self, questions: &[crate::form::Question]) -> Vec<Msg> {
        self.0.poll(questions)
    }
}

/// Who a form's remote events name: its flow id, tool call and source.
pub fn flow_info(form: &Form, options: &RunOptions) -> FlowInfo {
    let source = options.source.as_str().to_owned();
    FlowInfo {
        flow_id: crate::remote::protocol::flow_id(options.tool_call_id.as_deref()),
        tool_call_id: options.tool_call_id.clone(),
        source,
        title: form.title.clone(),
    }
}

/// Binds `--listen`, before anything is drawn (a socket that cannot be served is an error).
fn listen(
    form: &Form,
    options: &RunOptions,
) -> Result<Option<std::sync::Arc<RemoteServer>>, RunError> {
    let Some(path) = &options.listen else {
        return Ok(None);
    };
    let server = RemoteServer::bind(path, flow_info(form, options))?;
    Ok(Some(std::sync::Arc::new(server)))
}

/// `--cwd` is not a folder (as given).
#[derive(Debug, thiserror::Error)]
#[error("--cwd {0} is not a directory")]
pub struct NotAFolder(pub String);

/// Line mode's notifications: the command channels only (the bell and OSC channels would put
/// control bytes among the lines a screen reader reads).
fn line_notifier() -> crate::engine::Notifier {
    Box::new(|n, channels| {
        let commands: Vec<crate::stores::config::Channel> = channels
            .iter()
            .filter(|c| matches!(c, crate::stores::config::Channel::Command(_)))
            .cloned()
            .collect();
        let _ = notify::send(n, &commands, &mut std::io::sink());
    })
}

/// Whether line mode is on for these options and config, and why.
pub fn line_mode(
    options: &RunOptions,
    config: &crate::stores::config::Config,
) -> Option<crate::drivers::line::Reason> {
    crate::drivers::line::chosen(options.accessible, config.accessibility.line_mode, |k| {
        std::env::var(k).ok()
    })
}

/// Runs a session in line mode on the terminal: lines read from `/dev/tty` (by the process's one
/// reader, [`crate::drivers::line::tty_lines`]), lines written to it.
fn run_lines(engine: &mut Engine, reason: crate::drivers::line::Reason) -> std::io::Result<Ending> {
    let signals = runtime::signal_flag()?;
    let mut out = terminal::open_tty()?;
    let lines = crate::drivers::line::tty_lines()?;
    let lines = lines.lock().unwrap_or_else(|e| e.into_inner());
    crate::drivers::line::discard_typed_ahead(&lines);
    let options = crate::drivers::line::LineOptions {
        intro: Some(crate::drivers::line::intro(reason)),
        echo: false,
    };
    crate::drivers::line::run(engine, &lines, &mut out, &options, &signals)
}

fn notifier() -> crate::engine::Notifier {
    Box::new(|n, channels| {
        if let Ok(mut tty) = terminal::open_tty() {
            let _ = notify::send(n, channels, &mut tty);
        }
    })
}

/// Asks a form on the terminal and delivers the result. Without a terminal, delivers the
/// pending questions (exit 1).
pub fn ask(form: Form, options: &RunOptions) -> Result<CommandOutcome, RunError> {
    let done = ask_result(form, options)?;
    Ok(deliver_result(&done.result, options.output.as_deref())?)
}

/// Said on stderr when a form cannot open: the exit status alone (1) would read as a cancel.
pub const NO_TERMINAL: &str = "no terminal to ask on (/dev/tty cannot be opened): the pending questions are on stdout as a cancelled result";

/// Said on stderr by `--mode print` and `--mode json`, which never open a form.
pub const NO_UI_MODE: &str =
    "this mode opens no form: the pending questions are on stdout as a cancelled result";

/// Whether a terminal can show a form (`/dev/tty` opens).
pub fn has_terminal() -> bool {
    terminal::open_tty().is_ok()
}

/// Asks a form on the terminal and returns its result; without a terminal, the pending
/// questions. `Err` when the form has no result: a bad `--cwd` or `--listen`, or it ended without
/// one.
pub fn ask_result(form: Form, options: &RunOptions) -> Result<Finished, RunError> {
    ask_result_with(form, options, Vec::new())
}

/// [`ask_result`] with more sources of messages from outside the terminal (a withdrawal watch).
pub fn ask_result_with(
    form: Form,
    options: &RunOptions,
    outside: Vec<Box<dyn crate::engine::Outside>>,
) -> Result<Finished, RunError> {
    if terminal::open_tty().is_err() {
        crate::report::report(NO_TERMINAL);
        return Ok(Finished::answered(result::needs_input_result(&form)));
    }
    // Refused before the socket is bound (flow_session would refuse it too, later).
    root_folder(options.cwd.as_deref())?;
    let remote = listen(&form, options)?;
    let (mut session, lines) = flow_session(form, options, |lines| {
        if lines { line_notifier() } else { notifier() }
    })?;
    if let Some(server) = &remote {
        if let Some(app) = session.app() {
            server.announce(app.model().questions());
        }
        session = session.with_outside(Box::new(RemoteOutside(std::sync::Arc::clone(server))));
    }
    for source in outside {
        session = session.with_outside(source);
    }
    let mut engine = Engine::new(session, Viewport::Headless);
    let ran = match lines {
        Some(reason) => run_lines(&mut engine, reason),
        None => runtime::run(&mut engine, options.fullscreen),
    };
    let ending = ran.unwrap_or_else(|e| {
        // A failing terminal (descriptors run out, the device errs) loses no answer: the flow
        // ends as if interrupted and the answers so far are delivered.
        crate::report::report(&format!("terminal error: {e}"));
        Ending::Interrupted(runtime::Interruption::TerminalError)
    });
    let interruption = match ending {
        Ending::Done => None,
        Ending::Interrupted(why) => {
            // Everything entered is recorded first, so a resume finds it; then the interruption
            // ends the flow, and the caller still gets a result.
            engine.session_mut().record_draft();
            let interrupted = Input::Msg(Msg::External(External::Interrupted));
            engine.step([interrupted], Instant::now());
            Some(why)
        }
    };
    let session = engine.session();
    if let (Some(server), Some(result)) = (&remote, session.result()) {
        server.complete(result);
        if let Some(request) = server.accepted_request() {
            crate::report::report(&format!("answered remotely (request {request})"));
        }
    }
    match session.result() {
        Some(result) => {
            let mut result = result.clone();
            let timed_out = interruption == Some(runtime::Interruption::TimedOut);
            match (interruption, options.timeout) {
                (Some(runtime::Interruption::TimedOut), Some(limit)) => {
                    result::mark_timed_out(&mut result, limit)
                }
                (Some(why), _) => result::mark_interrupted(&mut result, why.cause()),
                (None, _) => {}
            }
            // A form nobody answered in time is over (the script went on), not resumable.
            Ok(Finished {
                result,
                interrupted: interruption.is_some() && !timed_out,
                timed_out,
            })
        }
        None => Err(RunError::NoResult),
    }
}

/// The session of a flow as every driver opens it (the terminal, line mode, the embed protocol):
/// the config, the keymaps, `@` suggestions under `--cwd`, the theme, a draft put back, the
/// history journal. Returns it with the line mode the environment or config chose, or the
/// message refusing `--cwd`. `notifier` is given whether line mode was chosen.
pub fn flow_session(
    form: Form,
    options: &RunOptions,
    notifier: impl FnOnce(bool) -> crate::engine::Notifier,
) -> Result<(Session, Option<crate::drivers::line::Reason>), NotAFolder> {
    let root = root_folder(options.cwd.as_deref())?;
    let store = ConfigStore::open(ConfigPaths::from_env(options.config.as_deref()));
    let config = store.config().clone();
    let lines = line_mode(options, &config);
    // The file index walks only when the first `@` or Tab completion asks for it; a bad glob is
    // reported now and the walk then goes without the globs.
    let mut files = IndexOptions {
        exclude: config.files.exclude.clone(),
        max_entries: config.files.max_entries,
        ..IndexOptions::default()
    };
    let glob_notice = match crate::files::check_globs(&files.exclude) {
        Ok(()) => None,
        Err(e) => {
            files.exclude.clear();
            Some(format!("Ignored files.exclude in the config: {e}"))
        }
    };
    let notice: Vec<String> = [store.notice(), glob_notice]
        .into_iter()
        .flatten()
        .chain(options.appearance.notices().iter().cloned())
        .collect();
    let notice = (!notice.is_empty()).then(|| notice.join(" "));
    let mut settings = config.settings();
    if options.submit_when_answered {
        settings.behaviour.auto_submit_when_answered_without_notes = true;
    }
    let mut app = App::new(
        form,
        settings,
        BindingTable::new(config.keymaps),
        store.display_path(),
        notice,
    )
    .with_files(FileSource::Walk {
        root: root.clone(),
        options: files,
    })
    .with_dismiss_puts_back(options.dismiss_puts_back);
    if let Some(draft) = &options.restore
        && !app.restore(draft)
    {
        crate::report::report(
            "what was entered before does not fit this form any more; it opens without it",
        );
    }
    let session = Session::new(
        Screen::Flow(Box::new(app)),
        Some(store),
        notifier(lines.is_some()),
    )
    .with_appearance(options.appearance.clone())
    .with_journal(options.journal.clone())
    .with_time_limit(options.timeout);
    Ok((session, lines))
}

/// Where `@` suggestions list files: `--cwd`, which must be a folder, else the current directory.
pub fn root_folder(cwd: Option<&Path>) -> Result<PathBuf, NotAFolder> {
    match cwd {
        Some(dir) if dir.is_dir() => Ok(dir.to_path_buf()),
        Some(dir) => Err(NotAFolder(dir.display().to_string())),
        None => Ok(std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))),
    }
}

/// Writes the default config file where there was none, for a command with no screen of its own
/// to say a failure on (it is said on standard error).
pub fn create_default_config(store: &mut ConfigStore) {
    if let Some(notice) = store.create_default() {
        crate::report::report(&notice);
    }
}

/// Opens the settings modal alone.
pub fn settings(
    config: Option<&Path>,
    fullscreen: bool,
    appearance: Appearance,
) -> Result<CommandOutcome, RunError> {
    if terminal::open_tty().is_err() {
        return Err(RunError::SettingsNeedTerminal);
    }
    let mut store = ConfigStore::open(ConfigPaths::from_env(config));
    let c = store.config().clone();
    // The settings modal is drawn on the full screen only; in line mode (a dumb terminal, a
    // screen reader) it would be escape codes, so the file is named instead (and made, so there
    // is one to edit).
    if crate::drivers::line::chosen(false, c.accessibility.line_mode, |k| std::env::var(k).ok())
        .is_some()
    {
        create_default_config(&mut store);
        return Err(RunError::SettingsInLineMode(store.display_path()));
    }
    let notices: Vec<String> = store
        .notice()
        .into_iter()
        .chain(appearance.notices().iter().cloned())
        .collect();
    let app = SettingsApp::new(
        c.settings(),
        BindingTable::new(c.keymaps),
        store.display_path(),
        (!notices.is_empty()).then(|| notices.join(" ")),
    );
    let session = Session::new(Screen::Settings(Box::new(app)), Some(store), notifier())
        .with_appearance(appearance);
    let mut engine = Engine::new(session, Viewport::Headless);
    runtime::run(&mut engine, fullscreen).map_err(RunError::Terminal)?;
    Ok(CommandOutcome::Done)
}

/// The rpc command (pi's dialogs over JSON lines) without delivering: the result, or why there
/// is none.
pub fn rpc_result(
    form: Form,
    config: Option<&Path>,
    timeout: Option<std::time::Duration>,
) -> Result<Finished, RunError> {
    let mut store = ConfigStore::open(ConfigPaths::from_env(config));
    // present-single-as-multi applies to every new flow, the RPC one included.
    let form = if store.config().behaviour.present_single_as_multi {
        form.with_single_presented_as_multi()
    } else {
        form
    };
    let interrupted = runtime::signal_flag().map_err(RunError::Signals)?;
    let lines = crate::drivers::rpc::spawn_line_reader(std::io::BufReader::new(std::io::stdin()));
    let errors = Box::new(crate::report::report);
    let mut channel =
        crate::drivers::rpc::DialogChannel::new(std::io::stdout(), lines, timeout, errors)
            .interrupted_by(interrupted.clone());
    let mut result = crate::drivers::rpc::run(&form, &mut channel).map_err(RunError::Host)?;
    create_default_config(&mut store);
    let interrupted = interrupted.load(std::sync::atomic::Ordering::Relaxed);
    if interrupted {
        // A host's abort keeps the original's cancel text; a signal says what happened.
        result::mark_interrupted(
            &mut result,
            runtime::Interruption::from_last_signal().cause(),
        );
    }
    Ok(Finished {
        result,
        interrupted,
        timed_out: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_that_cannot_reach_its_file_goes_to_stdout_and_still_fails() {
        let dir = tempfile::tempdir().unwrap();
        let mut stdout = Vec::new();
        // A directory cannot be written as a file.
        let failed = deliver("{\"ok\":1}", Some(dir.path()), &mut stdout).unwrap_err();
        assert!(
            matches!(failed, DeliveryFailed::OnStdoutInstead { .. }),
            "{failed:?}"
        );
        assert!(
            failed
                .to_string()
                .contains("printed it on standard output instead"),
            "{failed}"
        );
        // Only the command line maps it to exit 2, as every failure.
        assert_eq!(String::from_utf8(stdout).unwrap(), "{\"ok\":1}\n");
    }

    #[test]
    fn a_written_file_gets_the_result_and_stdout_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        let mut stdout = Vec::new();
        deliver("{}", Some(&path), &mut stdout).unwrap();
        assert!(stdout.is_empty());
        assert_eq!(std::fs::read_to_string(path).unwrap(), "{}\n");
    }

    #[test]
    fn the_output_check_names_the_path_and_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let fresh = dir.path().join("new.json");
        assert!(check_output_file(&fresh).is_ok());
        assert!(!fresh.exists(), "the check must not leave an empty file");
        let missing = dir.path().join("no/such/dir/x.json");
        let err = check_output_file(&missing).unwrap_err().to_string();
        assert!(err.contains(&missing.display().to_string()), "{err}");
        let err = check_output_file(dir.path()).unwrap_err().to_string();
        assert!(err.contains("is a directory"), "{err}");
    }
}
