//! Running a form or the settings on the real terminal, and delivering the result.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use crate::cli::{EXIT_CANCELLED, EXIT_ERROR, EXIT_OK};
use crate::config::{ConfigPaths, ConfigStore};
use crate::files::{FileIndex, IndexOptions};
use crate::form::Form;
use crate::keymap::BindingTable;
use crate::model::{Msg, ReviewAction};
use crate::result::{self, AskResult};
use crate::tui::runtime::{self, Ending};
use crate::tui::{App, Screen, Session, SettingsApp, notify, terminal};

/// Options of `ask` and `demo`.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub config: Option<PathBuf>,
    pub cwd: Option<PathBuf>,
    pub fullscreen: bool,
    pub output: Option<PathBuf>,
}

/// Writes the result JSON (stdout or a file) and returns `code`; a failed write is exit 2.
pub fn emit(result: &AskResult, output: Option<&Path>, code: u8) -> ExitCode {
    let json = result.to_json_pretty();
    let written = match output {
        Some(path) => std::fs::write(path, format!("{json}\n")),
        None => {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{json}").and_then(|_| out.flush())
        }
    };
    match written {
        Ok(()) => ExitCode::from(code),
        Err(e) => {
            crate::cli::report(&format!("cannot write the result: {e}"));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn exit_code(result: &AskResult) -> u8 {
    if result.details.cancelled {
        EXIT_CANCELLED
    } else {
        EXIT_OK
    }
}

fn notifier() -> crate::tui::Notifier {
    Box::new(|n, channels| {
        if let Ok(mut tty) = terminal::open_tty() {
            let _ = notify::send(n, channels, &mut tty);
        }
    })
}

/// Asks a form on the terminal. Without a terminal, returns the pending questions (exit 1).
pub fn ask(form: Form, options: &RunOptions) -> ExitCode {
    if terminal::open_tty().is_err() {
        return emit(
            &result::needs_input_result(&form),
            options.output.as_deref(),
            EXIT_CANCELLED,
        );
    }
    // `@` suggestions list files under --cwd (default: the current directory).
    let root = match &options.cwd {
        Some(dir) if dir.is_dir() => dir.clone(),
        Some(dir) => {
            crate::cli::report(&format!("--cwd {} is not a directory", dir.display()));
            return ExitCode::from(EXIT_ERROR);
        }
        None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
    };
    let store = ConfigStore::open(ConfigPaths::from_env(options.config.as_deref()));
    let config = store.config().clone();
    // The file index starts walking now, in the background; the UI never waits for it.
    let exclude = IndexOptions {
        exclude: config.files.exclude.clone(),
        ..IndexOptions::default()
    };
    let (index, glob_notice) = match FileIndex::build(&root, exclude) {
        Ok(index) => (index, None),
        Err(e) => (
            FileIndex::build(&root, IndexOptions::default()).expect("no globs, no glob errors"),
            Some(format!("Ignored files.exclude in the config: {e}")),
        ),
    };
    let notice: Vec<String> = [store.notice(), glob_notice]
        .into_iter()
        .flatten()
        .collect();
    let notice = (!notice.is_empty()).then(|| notice.join(" "));
    let app = App::new(
        form,
        config.settings(),
        BindingTable::new(config.keymaps),
        store.display_path(),
        notice,
    )
    .with_files(index);
    let mut session = Session::new(Screen::Flow(Box::new(app)), Some(store), notifier());
    match runtime::run(&mut session, options.fullscreen) {
        Ok(Ending::Done) => {}
        Ok(Ending::Signalled) => {
            // An abort from outside cancels the flow; the caller still gets a result.
            session.dispatch(Msg::CloseSettings, Instant::now());
            session.dispatch(Msg::Review(ReviewAction::Cancel), Instant::now());
        }
        Err(e) => {
            crate::cli::report(&format!("terminal error: {e}"));
            return ExitCode::from(EXIT_ERROR);
        }
    }
    match session.result() {
        Some(result) => emit(result, options.output.as_deref(), exit_code(result)),
        None => {
            crate::cli::report("the form ended without a result");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// Opens the settings modal alone.
pub fn settings(config: Option<&Path>, fullscreen: bool) -> ExitCode {
    if terminal::open_tty().is_err() {
        crate::cli::report("settings need an interactive terminal");
        return ExitCode::from(EXIT_ERROR);
    }
    let store = ConfigStore::open(ConfigPaths::from_env(config));
    let c = store.config().clone();
    let app = SettingsApp::new(
        c.settings(),
        BindingTable::new(c.keymaps),
        store.display_path(),
        store.notice(),
    );
    let mut session = Session::new(Screen::Settings(app), Some(store), notifier());
    match runtime::run(&mut session, fullscreen) {
        Ok(_) => ExitCode::from(EXIT_OK),
        Err(e) => {
            crate::cli::report(&format!("terminal error: {e}"));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// Writes the final RPC line (`{"type":"ask_result","result":…}`) and returns `code`.
pub fn emit_rpc(result: &AskResult, code: u8) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{}", crate::rpc::result_line(result)).and_then(|_| out.flush()) {
        Ok(()) => ExitCode::from(code),
        Err(e) => {
            crate::cli::report(&format!("cannot write the result: {e}"));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// Asks a form as pi's portable dialogs over JSON lines (stdout requests, stdin responses).
pub fn rpc(form: Form, config: Option<&Path>, timeout: Option<std::time::Duration>) -> ExitCode {
    let store = ConfigStore::open(ConfigPaths::from_env(config));
    // present-single-as-multi applies to every new flow, the RPC one included.
    let form = if store.config().behaviour.present_single_as_multi {
        form.with_single_presented_as_multi()
    } else {
        form
    };
    let lines = crate::rpc::spawn_line_reader(std::io::BufReader::new(std::io::stdin()));
    let errors = Box::new(crate::cli::report);
    let mut channel = crate::rpc::Channel::new(std::io::stdout(), lines, timeout, errors);
    match crate::rpc::run(&form, &mut channel) {
        Ok(result) => emit_rpc(&result, exit_code(&result)),
        Err(e) => {
            crate::cli::report(&format!("cannot talk to the host: {e}"));
            ExitCode::from(EXIT_ERROR)
        }
    }
}
