//! `pi-ask replay` and `pi-ask resume`: reopening a real `ask_user` form from the history or from
//! the current branch of a pi session file (read-only).

use std::path::{Path, PathBuf};

use super::{
    CommandError, Ended, FormEnding, HistoryChoice, Opening, nothing, open_on_terminal,
    question_count,
};
use crate::drivers::run::RunOptions;
use crate::input::{self, InvalidInput};
use crate::report::report;
use crate::stores::history::{Ask, Origin, SessionCall, Source, process_is_alive};
use crate::stores::pi_session::{self, BranchForm, NoSession, SessionFile};
use crate::strings::reopening;

/// `--session FILE`, or `latest` for the newest session of the working directory (under pi's
/// agent directory, `PI_CODING_AGENT_DIR` honoured).
pub fn session_path(arg: &Path, cwd: &str) -> Result<PathBuf, NoSession> {
    if arg.as_os_str() != "latest" {
        return Ok(arg.to_path_buf());
    }
    let agent = crate::stores::config::agent_dir(
        |k| std::env::var(k).ok(),
        crate::stores::config::passwd_home,
    )
    .ok_or(NoSession::NoHome)?;
    pi_session::latest_session_in(&pi_session::sessions_dir(&agent, cwd))
}

/// Reads the session named by `--session`.
pub fn read_session_arg(arg: &Path, options: &RunOptions) -> Result<SessionFile, CommandError> {
    let path = session_path(arg, &super::recorded_cwd(options))?;
    Ok(pi_session::read_session(&path)?)
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
) -> Ended {
    super::require_terminal("replay")?;
    if let Some(arg) = session_arg {
        let file = read_session_arg(arg, options)?;
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
                Ok(open_on_terminal(history, &opening, options)?.outcome())
            }
            Err(missing) if missing.incompatible => Err(CommandError::IncompatibleOnBranch),
            Err(_) => nothing(reopening::NO_ASK_FORM),
        };
    }
    let read = history.read()?;
    let ask = match id {
        Some(id) => read.find(id)?,
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
    let ask = history.with_payload(ask)?;
    let opening = reopening(&ask, source)?;
    report(&format!(
        "Replaying ask_user form {}: {}.",
        ask.opened.id,
        question_count(&opening.form)
    ));
    Ok(open_on_terminal(history, &opening, options)?.outcome())
}

/// Opens a resumed form; its end (submit or cancel) records the dismissal.
fn open_resumed(opening: &Opening<'_>, options: &RunOptions, history: &HistoryChoice) -> Ended {
    report(&reopening::reopening_unanswered(&question_count(
        &opening.form,
    )));
    let ended = open_on_terminal(history, opening, options)?;
    if ended == FormEnding::Cancelled {
        report(&reopening::unanswered_dismissed("pi-ask replay"));
    }
    Ok(ended.outcome())
}

/// `pi-ask resume [ID] [--session FILE|latest]`.
pub fn resume(
    id: Option<&str>,
    session_arg: Option<&Path>,
    options: &RunOptions,
    history: &HistoryChoice,
) -> Ended {
    super::require_terminal("resume")?;
    let read = match history.store.as_ref().map(|s| s.read()) {
        Some(read) => read.map_err(CommandError::HistoryUnreadable)?,
        None => Default::default(),
    };
    if let Some(arg) = session_arg {
        let file = read_session_arg(arg, options)?;
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
    history.readable()?;
    let ask = match id {
        Some(id) => match read.find(id)? {
            ask if ask.is_finished() => {
                return Err(CommandError::AlreadyEnded {
                    id: ask.opened.id.clone(),
                    status: ask.status_label(&process_is_alive),
                });
            }
            ask if process_is_alive(&ask.opened.process) => {
                return Err(CommandError::StillOpen {
                    id: ask.opened.id.clone(),
                    pid: ask.opened.process.pid,
                });
            }
            ask => ask,
        },
        None => match read.resumable(&process_is_alive) {
            Some(ask) => ask,
            None => return nothing("No interrupted ask to resume."),
        },
    };
    let ask = history.with_payload(ask)?;
    open_resumed(&reopening(&ask, Source::Resume)?, options, history)
}
