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
use std::time::{Duration, Instant};

use crate::drivers::runtime::{Ending, Interruption};
use crate::engine::{Engine, Input};
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

/// How often outside messages (remote answers, a withdrawal) are looked for between lines.
const POLL: Duration = Duration::from_millis(40);

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

/// The driver's state between lines.
struct Driver<'o> {
    out: &'o mut dyn Write,
    note: Option<NoteDraft>,
    /// The last notice said, so a notice is said once.
    said_notice: Option<String>,
}

impl Driver<'_> {
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

/// What the person meant, through the engine as every driver's input goes.
fn send(engine: &mut Engine, msg: Msg, now: Instant) {
    engine.step([Input::Msg(msg)], now);
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

impl Driver<'_> {
    /// One typed line.
    fn line(&mut self, engine: &mut Engine, line: &str, now: Instant) -> io::Result<()> {
        if let Some(note) = &mut self.note {
            if line.trim() != "." {
                note.lines.push(line.to_owned());
                return Ok(());
            }
            let note = self.note.take().expect("a note is being typed");
            if let Tab::Question(_) = model(engine).tab() {
                let text = note.lines.join("\n");
                send(
                    engine,
                    Msg::Direct(Direct::Note {
                        option: note.option,
                        text,
                    }),
                    now,
                );
                self.say(["Note saved.".to_owned()])?;
            }
            return self.say([say::prompt_line_at(model(engine))]);
        }
        let command = match command::parse(line, place(model(engine))) {
            Ok(command) => command,
            Err(problem) => {
                return self.say([problem.to_string(), say::prompt_line_at(model(engine))]);
            }
        };
        let tab_before = model(engine).tab();
        match command {
            Command::Choose(numbers) => {
                let Tab::Question(q) = tab_before else {
                    return Ok(());
                };
                let options = numbers.iter().map(|n| n - 1).collect();
                send(engine, Msg::Direct(Direct::Choose(options)), now);
                self.said(engine, q)?;
            }
            Command::Own(text) => {
                let Tab::Question(q) = tab_before else {
                    return Ok(());
                };
                send(engine, Msg::Direct(Direct::Own(text)), now);
                self.said(engine, q)?;
            }
            Command::OptionNote(n, Some(text)) => {
                if let Tab::Question(_) = tab_before {
                    let option = Some(n - 1);
                    send(engine, Msg::Direct(Direct::Note { option, text }), now);
                    self.say([format!("Note on option {n} saved.")])?;
                }
                self.say([say::prompt_line_at(model(engine))])?;
            }
            Command::QuestionNote(Some(text)) => {
                if let Tab::Question(_) = tab_before {
                    let option = None;
                    send(engine, Msg::Direct(Direct::Note { option, text }), now);
                    self.say(["Note on the question saved.".to_owned()])?;
                }
                self.say([say::prompt_line_at(model(engine))])?;
            }
            Command::OptionNote(n, None) => {
                self.note = Some(NoteDraft {
                    option: Some(n - 1),
                    lines: Vec::new(),
                });
                self.say([format!(
                    "Type the note on option {n}, on as many lines as you like; end it with a line holding a single dot."
                )])?;
            }
            Command::QuestionNote(None) => {
                self.note = Some(NoteDraft {
                    option: None,
                    lines: Vec::new(),
                });
                self.say(["Type the note on the question, on as many lines as you like; end it with a line holding a single dot.".to_owned()])?;
            }
            Command::Preview(n) => {
                if let Tab::Question(q) = tab_before {
                    let lines = say::preview(&model(engine).questions()[q], n);
                    self.say(lines)?;
                }
                self.say([say::prompt_line_at(model(engine))])?;
            }
            Command::ChangeType => {
                send(engine, Msg::Intent(Intent::ChangeQuestionType), now);
                // What changed (or the confirmation asked for) first, then the question.
                self.say_notice(model(engine))?;
                if model(engine).pending_type_change().is_none() {
                    self.say(say::current(model(engine)))?;
                }
            }
            Command::Back => {
                send(engine, Msg::Intent(Intent::PreviousTab), now);
                self.say(say::current(model(engine)))?;
            }
            Command::Forward => {
                send(engine, Msg::Intent(Intent::NextTab), now);
                self.say(say::current(model(engine)))?;
            }
            Command::Review => {
                send(engine, Msg::Direct(Direct::Review), now);
                self.say(say::current(model(engine)))?;
            }
            Command::Help => self.say(say::help())?,
            Command::Repeat => self.say(say::current(model(engine)))?,
            Command::Submit | Command::Elaborate | Command::Cancel if tab_before == Tab::Review => {
                let n = match command {
                    Command::Submit => 1,
                    Command::Elaborate => 2,
                    _ => 3,
                };
                send(engine, Msg::Intent(Intent::Number(n)), now);
                // The double-press setting arms the action first: said with this mode's letter.
                if let Some(action) = model(engine)
                    .pending_review_shortcut()
                    .filter(|_| !model(engine).is_finished())
                {
                    let (letter, verb) = match action {
                        crate::model::ReviewAction::Submit => ("s", "submit"),
                        crate::model::ReviewAction::Elaborate => ("e", "elaborate"),
                        crate::model::ReviewAction::Cancel => ("c", "cancel"),
                    };
                    self.say([format!("Type {letter} again to {verb}.")])?;
                }
            }
            Command::Cancel => send(engine, Msg::Intent(Intent::Cancel), now),
            Command::Submit | Command::Elaborate => {}
        }
        self.say_notice(model(engine))
    }

    /// After an answer to question `q`: what it is now, then wherever the person is.
    fn said(&mut self, engine: &Engine, q: usize) -> io::Result<()> {
        let model = model(engine);
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
        note: None,
        said_notice: None,
    };
    let intro_line = options.intro.as_deref();
    if let Some(intro_line) = intro_line {
        driver.say([intro_line.to_owned()])?;
    }
    if let Some(title) = model(engine).title() {
        driver.say([format!("{}.", crate::printable::printable(title))])?;
    }
    driver.say(say::current(model(engine)))?;
    // Opening writes what waited for the form to show (the default config, whose failure is a
    // notice): the notice is said after it.
    engine.session_mut().opened(Instant::now());
    driver.say_notice(model(engine))?;
    loop {
        if engine.session().is_done() {
            let said = match engine.session().result() {
                Some(r) if r.details.cancelled => "The form was cancelled.",
                Some(r) if r.details.mode == crate::result::Mode::Elaborate => {
                    "Sent: the agent will elaborate on the options."
                }
                _ => "Submitted.",
            };
            driver.say([said.to_owned()])?;
            return Ok(Ending::Done);
        }
        if signals.load(Ordering::Relaxed) {
            return Ok(Ending::Interrupted(Interruption::from_last_signal()));
        }
        let now = Instant::now();
        if engine.session().timed_out(now) {
            driver.say(["No answer in time: the form ended.".to_owned()])?;
            return Ok(Ending::Interrupted(Interruption::TimedOut));
        }
        let timeout = engine
            .session()
            .next_deadline()
            .map_or(POLL, |d| d.saturating_duration_since(now).min(POLL));
        match lines.recv_timeout(timeout) {
            Ok(line) => {
                if options.echo {
                    driver.say([format!("> {line}")])?;
                }
                driver.line(engine, &line, Instant::now())?
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Ok(Ending::Interrupted(Interruption::TerminalClosed));
            }
        }
        let revision = model(engine).revision();
        if engine.tick(Instant::now()) && model(engine).revision() != revision {
            // Something from outside changed the form (a remote answer, a withdrawal).
            driver.say_notice(model(engine))?;
        }
    }
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
