//! Line mode: the form as plain appended lines, answered with typed commands, for screen
//! readers, dumb terminals (`TERM=dumb`, Emacs `shell-mode`, logs) and anyone who prefers it.
//! No cursor movement, no redraw, no alternate screen, no escape sequence.
//!
//! It is another driver of the one model: each command becomes the same [`Msg`]s the keys of the
//! full-screen form produce, stepped through the same [`Engine`] (so results, history,
//! drafts, remote answers and notifications are the form's own), and what the model holds
//! afterwards is said in words ([`say`]).

pub mod command;
pub mod inbox;
pub mod say;

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::engine::{Ending, Engine, Input, Interruption, Medium};
use crate::form::QuestionType;
use crate::model::{Direct, Intent, Model, Msg, Tab};
use command::{Command, Place};

/// The lines typed on the terminal, read by one thread for the whole process: forms asked one
/// after another (the inbox) share it, so no line is read by a reader nobody listens to.
pub fn tty_lines() -> io::Result<&'static std::sync::Mutex<Receiver<String>>> {
    static LINES: std::sync::OnceLock<std::sync::Mutex<Receiver<String>>> =
        std::sync::OnceLock::new();
    if let Some(lines) = LINES.get() {
        return Ok(lines);
    }
    let tty = crate::drivers::tty::open_tty()?;
    // A few lines of read-ahead (what is typed before a form is said is dropped anyway).
    let (tx, rx) = std::sync::mpsc::sync_channel(16);
    std::thread::spawn(move || {
        // The project's capped reader: a line over its cap is skipped, and bytes that are not
        // UTF-8 (a terminal in another encoding) are read as replacement characters, so a
        // stray byte never ends the input of every form after it.
        let mut input = std::io::BufReader::new(tty);
        while let Ok(Some(line)) = crate::lines::read_line(&mut input) {
            let crate::lines::Line::Text(bytes) = line else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            if tx.send(text.trim_end_matches('\r').to_owned()).is_err() {
                break;
            }
        }
    });
    Ok(LINES.get_or_init(|| std::sync::Mutex::new(rx)))
}

/// Drops the lines typed before a form or list was said: they answer nothing in it.
pub fn discard_typed_ahead(lines: &Receiver<String>) {
    while lines.try_recv().is_ok() {}
}

/// Why line mode is on, for the first line it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// `--accessible`.
    Flag,
    /// `PI_ASK_ACCESSIBLE` or `ACCESSIBLE`.
    Environment,
    /// `[accessibility] lineMode = true`.
    Config,
    /// `TERM=dumb`.
    DumbTerminal,
}

/// The first line: which mode is on, and how to change it.
pub fn intro(reason: Reason) -> String {
    let why = match reason {
        Reason::Flag => "--accessible",
        Reason::Environment => "PI_ASK_ACCESSIBLE or ACCESSIBLE is set",
        Reason::Config => "[accessibility] lineMode in the config",
        Reason::DumbTerminal => "TERM=dumb",
    };
    let off = match reason {
        Reason::DumbTerminal => "set PI_ASK_ACCESSIBLE=0 in a terminal that can draw it",
        Reason::Flag => "leave out --accessible",
        Reason::Environment => "unset PI_ASK_ACCESSIBLE and ACCESSIBLE",
        Reason::Config => "set lineMode = false",
    };
    format!(
        "pi-ask line mode ({why}): questions as numbered lines, answered by typing a line; ? lists every command. For the full-screen form, {off}."
    )
}

/// Whether line mode is on, and why: `--accessible`, else `PI_ASK_ACCESSIBLE` (`0`, `false`
/// or `off` turn it off, also for a dumb terminal), else `ACCESSIBLE`, else the config, else
/// `TERM=dumb`.
pub fn chosen(flag: bool, config: bool, env: impl Fn(&str) -> Option<String>) -> Option<Reason> {
    let set = |v: &str| {
        !matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "" | "0" | "false" | "off" | "no"
        )
    };
    if flag {
        return Some(Reason::Flag);
    }
    match env("PI_ASK_ACCESSIBLE") {
        Some(v) if set(&v) => return Some(Reason::Environment),
        Some(v) if !v.trim().is_empty() => return None,
        _ => {}
    }
    if env("ACCESSIBLE").is_some_and(|v| set(&v)) {
        return Some(Reason::Environment);
    }
    if config {
        return Some(Reason::Config);
    }
    env("TERM")
        .is_some_and(|t| t == "dumb")
        .then_some(Reason::DumbTerminal)
}

/// A note being typed over several lines, ended by a line with a single dot.
struct NoteDraft {
    /// The option (0-based) it is on, or `None` for the question's note.
    option: Option<usize>,
    lines: Vec<String>,
}

/// What is said once a typed line's inputs were applied: each answer is read off the model as it
/// is afterwards.
enum Reply {
    /// Nothing more (the note and notice rules still apply).
    Nothing,
    /// These lines.
    Lines(Vec<String>),
    /// These lines, then where the person is.
    ThenPrompt(Vec<String>),
    /// Question `q`'s answer as it is now, then wherever the person is.
    Answered(usize),
    /// The notice (what changed, or the confirmation asked for), then the question unless a
    /// confirmation waits.
    TypeChanged,
    /// The current tab said again.
    Current,
    /// A review action was pressed: the double-press setting may have armed it first.
    ReviewPressed,
}

/// Line mode's medium: typed lines in (from a reader thread, so outside messages are looked at
/// while nobody types), lines out.
struct Driver<'o, 'l> {
    out: &'o mut dyn Write,
    lines: &'l Receiver<String>,
    options: &'l LineOptions,
    signals: &'l AtomicBool,
    note: Option<NoteDraft>,
    /// The last notice said, so a notice is said once.
    said_notice: Option<String>,
    /// What the last line asks to be said once applied.
    reply: Option<Reply>,
    /// The form has been said (the first presentation says it whole).
    introduced: bool,
    /// The typed lines ended.
    closed: bool,
}

impl Driver<'_, '_> {
    fn say(&mut self, lines: impl IntoIterator<Item = String>) -> io::Result<()> {
        for line in lines {
            writeln!(self.out, "{line}")?;
        }
        self.out.flush()
    }

    fn say_notice(&mut self, model: &Model) -> io::Result<()> {
        let notice = model.notice().map(crate::printable::printable);
        if notice.is_some() && notice != self.said_notice {
            let text = notice.clone().unwrap_or_default();
            self.say([format!("Notice: {text}")])?;
        }
        self.said_notice = notice;
        Ok(())
    }
}

fn model(engine: &Engine) -> &Model {
    engine
        .session()
        .app()
        .expect("line mode drives a form")
        .model()
}

fn place(model: &Model) -> Place {
    match model.tab() {
        Tab::Question(q) => {
            let question = &model.questions()[q];
            Place {
                options: Some(question.options.len()),
                multi: question.presented_type == QuestionType::Multi,
                freeform: question.freeform,
            }
        }
        Tab::Review => Place {
            options: None,
            multi: false,
            freeform: false,
        },
    }
}

impl Driver<'_, '_> {
    /// One typed line: the messages it means, and what to say once they applied (none: nothing
    /// is said, not even a notice).
    fn meaning(&mut self, model: &Model, line: &str) -> (Vec<Msg>, Option<Reply>) {
        if let Some(note) = &mut self.note {
            if line.trim() != "." {
                note.lines.push(line.to_owned());
                return (Vec::new(), None);
            }
            let note = self.note.take().expect("a note is being typed");
            if let Tab::Question(_) = model.tab() {
                let text = note.lines.join("\n");
                let msg = Msg::Direct(Direct::Note {
                    option: note.option,
                    text,
                });
                return (
                    vec![msg],
                    Some(Reply::ThenPrompt(vec!["Note saved.".to_owned()])),
                );
            }
            return (Vec::new(), Some(Reply::ThenPrompt(Vec::new())));
        }
        let command = match command::parse(line, place(model)) {
            Ok(command) => command,
            Err(problem) => {
                return (
                    Vec::new(),
                    Some(Reply::ThenPrompt(vec![problem.to_string()])),
                );
            }
        };
        let tab_before = model.tab();
        let question = match tab_before {
            Tab::Question(q) => Some(q),
            Tab::Review => None,
        };
        let (msgs, reply) = match command {
            Command::Choose(numbers) => {
                let Some(q) = question else {
                    return (Vec::new(), None);
                };
                let options = numbers.iter().map(|n| n - 1).collect();
                (
                    vec![Msg::Direct(Direct::Choose(options))],
                    Reply::Answered(q),
                )
            }
            Command::Own(text) => {
                let Some(q) = question else {
                    return (Vec::new(), None);
                };
                (vec![Msg::Direct(Direct::Own(text))], Reply::Answered(q))
            }
            Command::OptionNote(n, Some(text)) => match question {
                Some(_) => (
                    vec![Msg::Direct(Direct::Note {
                        option: Some(n - 1),
                        text,
                    })],
                    Reply::ThenPrompt(vec![format!("Note on option {n} saved.")]),
                ),
                None => (Vec::new(), Reply::ThenPrompt(Vec::new())),
            },
            Command::QuestionNote(Some(text)) => match question {
                Some(_) => (
                    vec![Msg::Direct(Direct::Note { option: None, text })],
                    Reply::ThenPrompt(vec!["Note on the question saved.".to_owned()]),
                ),
                None => (Vec::new(), Reply::ThenPrompt(Vec::new())),
            },
            Command::OptionNote(n, None) => {
                self.note = Some(NoteDraft {
                    option: Some(n - 1),
                    lines: Vec::new(),
                });
                (
                    Vec::new(),
                    Reply::Lines(vec![format!(
                        "Type the note on option {n}, on as many lines as you like; end it with a line holding a single dot."
                    )]),
                )
            }
            Command::QuestionNote(None) => {
                self.note = Some(NoteDraft {
                    option: None,
                    lines: Vec::new(),
                });
                (
                    Vec::new(),
                    Reply::Lines(vec!["Type the note on the question, on as many lines as you like; end it with a line holding a single dot.".to_owned()]),
                )
            }
            Command::Preview(n) => {
                let lines = question
                    .map(|q| say::preview(&model.questions()[q], n))
                    .unwrap_or_default();
                (Vec::new(), Reply::ThenPrompt(lines))
            }
            Command::ChangeType => (
                vec![Msg::Intent(Intent::ChangeQuestionType)],
                Reply::TypeChanged,
            ),
            Command::Back => (vec![Msg::Intent(Intent::PreviousTab)], Reply::Current),
            Command::Forward => (vec![Msg::Intent(Intent::NextTab)], Reply::Current),
            Command::Review => (vec![Msg::Direct(Direct::Review)], Reply::Current),
            Command::Help => (Vec::new(), Reply::Lines(say::help())),
            Command::Repeat => (Vec::new(), Reply::Current),
            Command::Submit | Command::Elaborate | Command::Cancel if tab_before == Tab::Review => {
                let n = match command {
                    Command::Submit => 1,
                    Command::Elaborate => 2,
                    _ => 3,
                };
                (vec![Msg::Intent(Intent::Number(n))], Reply::ReviewPressed)
            }
            Command::Cancel => (vec![Msg::Intent(Intent::Cancel)], Reply::Nothing),
            Command::Submit | Command::Elaborate => (Vec::new(), Reply::Nothing),
        };
        (msgs, Some(reply))
    }

    /// Says what the last line asked for, read off the model as it is now, then a new notice.
    fn answer(&mut self, model: &Model, reply: Reply) -> io::Result<()> {
        match reply {
            Reply::Nothing => {}
            Reply::Lines(lines) => self.say(lines)?,
            Reply::ThenPrompt(mut lines) => {
                lines.push(say::prompt_line_at(model));
                self.say(lines)?
            }
            Reply::Answered(q) => self.said(model, q)?,
            Reply::TypeChanged => {
                self.say_notice(model)?;
                if model.pending_type_change().is_none() {
                    self.say(say::current(model))?;
                }
            }
            Reply::Current => self.say(say::current(model))?,
            Reply::ReviewPressed => {
                if let Some(action) = model
                    .pending_review_shortcut()
                    .filter(|_| !model.is_finished())
                {
                    let (letter, verb) = match action {
                        crate::model::ReviewAction::Submit => ("s", "submit"),
                        crate::model::ReviewAction::Elaborate => ("e", "elaborate"),
                        crate::model::ReviewAction::Cancel => ("c", "cancel"),
                    };
                    self.say([format!("Type {letter} again to {verb}.")])?;
                }
            }
        }
        self.say_notice(model)
    }

    /// After an answer to question `q`: what it is now, then wherever the person is.
    fn said(&mut self, model: &Model, q: usize) -> io::Result<()> {
        if model.is_finished() {
            return Ok(());
        }
        let question = &model.questions()[q];
        let answer = model.answer(q).to_answer(question);
        if let Some(words) = say::answer_words(question, &answer) {
            self.say([format!("Question {} answered: {words}.", q + 1)])?;
        }
        self.say(say::current(model))
    }
}

impl Medium for Driver<'_, '_> {
    fn read(&mut self, engine: &mut Engine, wait: Duration) -> io::Result<Vec<Input>> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                if self.options.echo {
                    self.say([format!("> {line}")])?;
                }
                let (msgs, reply) = self.meaning(model(engine), &line);
                self.reply = reply;
                if self.reply.is_some() {
                    // Said even when nothing changed (help, a refusal, a repeat).
                    engine.request_frame();
                }
                Ok(msgs.into_iter().map(Input::Msg).collect())
            }
            Err(RecvTimeoutError::Timeout) => Ok(Vec::new()),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Ok(Vec::new())
            }
        }
    }

    /// The whole form the first time; then what the last line asked for, or (a change from
    /// outside: a remote answer, a withdrawal) the notice it brought.
    fn present(&mut self, engine: &mut Engine) -> io::Result<()> {
        let model = model(engine);
        if !self.introduced {
            self.introduced = true;
            if let Some(intro_line) = self.options.intro.clone() {
                self.say([intro_line])?;
            }
            if let Some(title) = model.title() {
                self.say([format!("{}.", crate::printable::printable(title))])?;
            }
            self.say(say::current(model))?;
            return self.say_notice(model);
        }
        match self.reply.take() {
            Some(reply) => self.answer(model, reply),
            None => self.say_notice(model),
        }
    }

    fn interrupted(&mut self) -> Option<Interruption> {
        if self.signals.load(Ordering::Relaxed) {
            Some(Interruption::from_last_signal())
        } else if self.closed {
            Some(Interruption::TerminalClosed)
        } else {
            None
        }
    }

    fn ended(&mut self, engine: &Engine, ending: Ending) -> io::Result<()> {
        let said = match ending {
            Ending::Done => match engine.session().result() {
                Some(r) if r.details.cancelled => "The form was cancelled.",
                Some(r) if r.details.mode == crate::result::Mode::Elaborate => {
                    "Sent: the agent will elaborate on the options."
                }
                _ => "Submitted.",
            },
            Ending::Interrupted(Interruption::TimedOut) => "No answer in time: the form ended.",
            Ending::Interrupted(_) => return Ok(()),
        };
        self.say([said.to_owned()])
    }
}

/// How a line-mode run talks.
#[derive(Debug, Clone, Default)]
pub struct LineOptions {
    /// Said first (which mode is on and how to change it).
    pub intro: Option<String>,
    /// Write each typed line back as `> line` (for transcripts; a terminal echoes by itself).
    pub echo: bool,
}

/// Runs the session in line mode: says the form, reads `lines` (typed lines, from a reader
/// thread, so outside messages are looked at while nobody types), writes to `out`, until the
/// form ends, a signal arrives or the input ends.
pub fn run(
    engine: &mut Engine,
    lines: &Receiver<String>,
    out: &mut dyn Write,
    options: &LineOptions,
    signals: &AtomicBool,
) -> io::Result<Ending> {
    let mut driver = Driver {
        out,
        lines,
        options,
        signals,
        note: None,
        said_notice: None,
        reply: None,
        introduced: false,
        closed: false,
    };
    engine.pump(&mut driver)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn line_mode_is_chosen_by_flag_environment_config_or_a_dumb_terminal() {
        assert_eq!(chosen(true, false, env(&[])), Some(Reason::Flag));
        assert_eq!(
            chosen(false, false, env(&[("PI_ASK_ACCESSIBLE", "1")])),
            Some(Reason::Environment)
        );
        assert_eq!(
            chosen(false, false, env(&[("ACCESSIBLE", "yes")])),
            Some(Reason::Environment)
        );
        assert_eq!(chosen(false, false, env(&[("ACCESSIBLE", "0")])), None);
        assert_eq!(chosen(false, true, env(&[])), Some(Reason::Config));
        assert_eq!(
            chosen(false, false, env(&[("TERM", "dumb")])),
            Some(Reason::DumbTerminal)
        );
        assert_eq!(chosen(false, false, env(&[("TERM", "xterm")])), None);
        // PI_ASK_ACCESSIBLE=0 turns it off, even for a dumb terminal or the config.
        assert_eq!(
            chosen(
                false,
                true,
                env(&[("PI_ASK_ACCESSIBLE", "0"), ("TERM", "dumb")])
            ),
            None
        );
        assert_eq!(
            chosen(true, false, env(&[("PI_ASK_ACCESSIBLE", "off")])),
            Some(Reason::Flag)
        );
    }
}
