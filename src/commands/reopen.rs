//! `pi-ask replay` and `pi-ask resume`: reopening a real `ask_user` form from the history or from
//! the current branch of a pi session file (read-only).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{
    FormEnding, HistoryChoice, Opening, failure, nothing, open_on_terminal, question_count,
};
use crate::history::{Ask, Origin, SessionCall, Source, process_is_alive};
use crate::input::{self, InvalidInput};
use crate::pi_session::{self, BranchForm, NoSession, SessionFile};
use crate::report::report;
use crate::run::RunOptions;
use crate::strings::reopening;

/// `--session FILE`, or `latest` for the newest session of the working directory (under pi's
/// agent directory, `PI_CODING_AGENT_DIR` honoured).
pub fn session_path(arg: &Path, cwd: &str) -> Result<PathBuf, NoSession> {
    if arg.as_os_str() != "latest" {
        return Ok(arg.to_path_buf());
    }
    let agent = crate::config::agent_dir(|k| std::env::var(k).ok(), crate::config::passwd_home)
        .ok_or(NoSession::NoHome)?;
    pi_session::latest_session_in(&pi_session::sessions_dir(&agent, cwd))
}

/// Reads the session named by `--session`.
pub fn read_session_arg(arg: &Path, options: &RunOptions) -> Result<SessionFile, ExitCode> {
    let path = session_path(arg, &super::recorded_cwd(options)).map_err(failure)?;
    pi_session::read_session(&path).map_err(failure)
}

/// Where a session form came from, for the history: the file, and the tool call or entry.
pub fn session_origin(
    file: &SessionFile,
    tool_call_id: Option<String>,
    entry_id: Option<String>,
) -> Origin {
    Origin {
        reopens: None,
        session: Some(SessionCall {
            file: file.path.display().to_string(),
            session_id: file.id.clone(),
            tool_call_id,
            entry_id,
        }),
        queue_id: None,
    }
}

/// The origin of a form found on a session branch.
pub fn origin_of(file: &SessionFile, found: &BranchForm) -> Origin {
    session_origin(file, found.tool_call_id.clone(), found.entry_id.clone())
}

fn issues_text(invalid: &InvalidInput) -> String {
    invalid
        .issues
        .iter()
        .map(|i| format!("{}: {}", i.path, i.message))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A recorded form no longer validates (the rules changed since it was recorded).
#[derive(Debug, thiserror::Error)]
#[error("Previous form {id} exists but is no longer compatible: {issues}")]
pub struct Incompatible {
    /// The ask.
    pub id: String,
    /// What no longer validates.
    pub issues: String,
}

/// A recorded ask opened again as `source`: its payload validated again (the rules may have
/// changed since it was recorded), and an origin naming what it reopens (a resume names the first
/// ask of its chain, which its end dismisses).
pub fn reopening(ask: &Ask, source: Source) -> Result<Opening<'_>, Incompatible> {
    let validated = if ask.opened.source.is_extracted() {
        input::validate_extracted_payload(&ask.opened.payload)
    } else {
        input::validate_payload(&ask.opened.payload)
    };
    let form = validated.map_err(|invalid| Incompatible {
        id: ask.opened.id.clone(),
        issues: issues_text(&invalid),
    })?;
    let reopens = if source == Source::Resume {
        ask.root()
    } else {
        &ask.opened.id
    };
    Ok(Opening {
        form,
        payload: &ask.opened.payload,
        source,
        origin: Origin {
            reopens: Some(reopens.to_owned()),
            session: ask.opened.origin.session.clone(),
            queue_id: None,
        },
        // A resume puts back what was entered; a replay starts fresh.
        restore: (source == Source::Resume)
            .then(|| ask.draft.clone())
            .flatten()
            .and_then(|d| serde_json::from_value(d).ok()),
    })
}

/// `pi-ask replay [ID] [--session FILE|latest]`.
pub fn replay(
    id: Option<&str>,
    session_arg: Option<&Path>,
    options: &RunOptions,
    history: &HistoryChoice,
) -> ExitCode {
    if let Err(code) = super::require_terminal("replay") {
        return code;
    }
    if let Some(arg) = session_arg {
        let file = match read_session_arg(arg, options) {
            Ok(file) => file,
            Err(code) => return code,
        };
        return match pi_session::latest_tool_form(&file.branch()) {
            Ok(found) => {
                report(&reopening::replaying(&question_count(&found.form)));
                let opening = Opening {
                    form: found.form.clone(),
                    payload: &found.payload,
                    source: Source::Replay,
                    origin: origin_of(&file, &found),
                    restore: None,
                };
                open_on_terminal(history, &opening, options).0
            }
            Err(missing) if missing.incompatible => failure(reopening::INCOMPATIBLE),
            Err(_) => nothing(reopening::NO_ASK_FORM),
        };
    }
    let read = match history.read() {
        Ok(read) => read,
        Err(code) => return code,
    };
    let ask = match id {
        Some(id) => match read.find(id) {
            Ok(ask) => ask,
            Err(e) => return failure(e),
        },
        None => match read.latest(&[Source::Tool]) {
            Some(ask) => ask,
            None => return nothing("No previous ask_user form found in the history."),
        },
    };
    let source = if ask.opened.source.is_extracted() {
        Source::AnswerAgain
    } else {
        Source::Replay
    };
    let ask = match history.with_payload(ask) {
        Ok(ask) => ask,
        Err(m) => return failure(&m),
    };
    let opening = match reopening(&ask, source) {
        Ok(opening) => opening,
        Err(m) => return failure(&m),
    };
    report(&format!(
        "Replaying ask_user form {}: {}.",
        ask.opened.id,
        question_count(&opening.form)
    ));
    open_on_terminal(history, &opening, options).0
}

/// Opens a resumed form; its end (submit or cancel) records the dismissal.
fn open_resumed(opening: &Opening<'_>, options: &RunOptions, history: &HistoryChoice) -> ExitCode {
    report(&reopening::reopening_unanswered(&question_count(
        &opening.form,
    )));
    let (code, ended) = open_on_terminal(history, opening, options);
    if ended == FormEnding::Cancelled {
        report(&reopening::unanswered_dismissed("pi-ask replay"));
    }
    code
}

/// `pi-ask resume [ID] [--session FILE|latest]`.
pub fn resume(
    id: Option<&str>,
    session_arg: Option<&Path>,
    options: &RunOptions,
    history: &HistoryChoice,
) -> ExitCode {
    if let Err(code) = super::require_terminal("resume") {
        return code;
    }
    let read = match history.store.as_ref().map(|s| s.read()) {
        Some(Ok(read)) => read,
        Some(Err(e)) => return failure(format!("cannot read the history: {e}")),
        None => Default::default(),
    };
    if let Some(arg) = session_arg {
        let file = match read_session_arg(arg, options) {
            Ok(file) => file,
            Err(code) => return code,
        };
        let dismissed = |call: &str| read.session_call_dismissed(&file.id, call);
        return match pi_session::pending_call(&file.branch(), &dismissed) {
            Some(pending) => {
                let opening = Opening {
                    form: pending.form.form.clone(),
                    payload: &pending.form.payload,
                    source: Source::Resume,
                    origin: origin_of(&file, &pending.form),
                    restore: None,
                };
                open_resumed(&opening, options, history)
            }
            None => nothing("No unanswered ask_user form on this branch."),
        };
    }
    if history.store.is_none() {
        return failure(history.readable().unwrap_err());
    }
    let ask = match id {
        Some(id) => match read.find(id) {
            Ok(ask) if ask.is_finished() => {
                return failure(format!(
                    "ask {} already ended ({}); `pi-ask replay {}` reopens it",
                    ask.opened.id,
                    ask.status_label(&process_is_alive),
                    ask.opened.id
                ));
            }
            Ok(ask) if process_is_alive(&ask.opened.process) => {
                return failure(format!(
                    "ask {} is still open in another terminal (process {})",
                    ask.opened.id, ask.opened.process.pid
                ));
            }
            Ok(ask) => ask,
            Err(e) => return failure(e),
        },
        None => match read.resumable(&process_is_alive) {
            Some(ask) => ask,
            None => return nothing("No interrupted ask to resume."),
        },
    };
    let ask = match history.with_payload(ask) {
        Ok(ask) => ask,
        Err(m) => return failure(&m),
    };
    match reopening(&ask, Source::Resume) {
        Ok(opening) => open_resumed(&opening, options, history),
        Err(m) => failure(&m),
    }
}
