//! The inbox's list in line mode: the waiting asks as numbered lines, a line typed to open,
//! leave for later or decline one, or quit; a new ask is announced in a line of its own.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use pi_ask_components::Theme;

use crate::engine::{Ending, Engine, Input, Interruption, Medium, Screen, Session, Viewport};
use crate::inbox::{InboxList, ListEnding, WaitingAsk, view};
use crate::keymap::BindingTable;
use crate::model::{InboxAction, Msg};
use crate::printable::printable;
use crate::remote::protocol::unix_ms;
use crate::tui::InboxScreen;

const COMMANDS: &str = "Type a number to open that ask, l and a number to leave it for later, d and a number to decline it, q to quit, or an empty line to hear the list again.";

fn entry_line(n: usize, entry: &WaitingAsk, later: bool, now_ms: u64) -> String {
    let mut line = format!(
        "{n}. {} (from {}, in {}, {})",
        printable(&entry.first_prompt),
        printable(&entry.client),
        printable(&entry.cwd),
        view::age(entry.created_at, now_ms)
    );
    if later {
        line.push_str(", left for later");
    }
    if !entry.asker_alive {
        line.push_str(", its asker has gone: an answer is only kept in the history");
    }
    line
}

/// The list, said in full.
pub fn list_lines(list: &InboxList, now_ms: u64) -> Vec<String> {
    let n = list.entries().len();
    let mut lines = vec![if n == 1 {
        "1 ask waiting:".to_owned()
    } else {
        format!("{n} asks waiting:")
    }];
    lines.extend(
        list.entries()
            .iter()
            .enumerate()
            .map(|(i, e)| entry_line(i + 1, e, list.is_later(&e.id), now_ms)),
    );
    lines.push(COMMANDS.to_owned());
    lines
}

/// Why a typed line is not an inbox command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Refusal {
    /// What was typed for the number, made printable, and how many asks there are.
    #[error("There is no ask {0}; the asks are 1 to {1}.")]
    NoSuchAsk(String, usize),
    /// The line, made printable.
    #[error("\"{0}\" is not an inbox command. {COMMANDS}")]
    NotACommand(String),
}

/// What a typed line asks of the list: an action on a row (0-based), quit, or the list again.
fn parse(line: &str, rows: usize) -> Result<Option<(InboxAction, usize)>, Refusal> {
    let line = line.trim();
    let (word, rest) = line
        .split_once(' ')
        .map_or((line, ""), |(w, r)| (w, r.trim()));
    let row = |text: &str| match text.parse::<usize>() {
        Ok(n) if (1..=rows).contains(&n) => Ok(n - 1),
        _ => Err(Refusal::NoSuchAsk(printable(text), rows)),
    };
    match word {
        "" => Ok(None),
        "q" => Ok(Some((InboxAction::Quit, 0))),
        "l" => row(rest).map(|r| Some((InboxAction::Later, r))),
        "d" => row(rest).map(|r| Some((InboxAction::Decline, r))),
        _ if rest.is_empty() && word.chars().all(|c| c.is_ascii_digit()) => {
            row(word).map(|r| Some((InboxAction::Open, r)))
        }
        _ => Err(Refusal::NotACommand(printable(line))),
    }
}

/// Says the list and reads lines until the person opens, declines or quits. The list is a screen
/// of the one engine (headless): a typed line becomes its messages, and the engine's ticks look at
/// the queues, as on the terminal; what changed is said in lines.
pub fn run(
    list: &mut InboxList,
    waiting: impl FnMut() -> Vec<WaitingAsk> + 'static,
    lines: &Receiver<String>,
    out: &mut dyn Write,
    signals: &AtomicBool,
) -> io::Result<ListEnding> {
    let screen = InboxScreen::new(
        std::mem::take(list),
        Box::new(waiting),
        BindingTable::default(),
        Theme::default(),
    );
    let session = Session::new(Screen::Inbox(Box::new(screen)), None, Box::new(|_, _| {}));
    let mut engine = Engine::new(session, Viewport::Headless);
    let ended = said_list(&mut engine, lines, out, signals);
    *list = shown(&engine).clone();
    ended
}

fn shown(engine: &Engine) -> &InboxList {
    engine.session().inbox().expect("the inbox's screen").list()
}

fn said_list(
    engine: &mut Engine,
    lines: &Receiver<String>,
    out: &mut dyn Write,
    signals: &AtomicBool,
) -> io::Result<ListEnding> {
    let mut medium = ListMedium {
        out,
        lines,
        signals,
        said: None,
        say_whole: false,
        closed: false,
    };
    let ending = engine.pump(&mut medium)?;
    Ok(match ending {
        Ending::Done => ending_of(engine).unwrap_or(ListEnding::Interrupted),
        Ending::Interrupted(_) => ListEnding::Interrupted,
    })
}

/// The list's medium: typed lines in, the list (or what changed in it) said.
struct ListMedium<'o, 'l> {
    out: &'o mut dyn Write,
    lines: &'l Receiver<String>,
    signals: &'l AtomicBool,
    /// The asks the person was last told of, in their numbers' order (none: nothing said yet).
    said: Option<Vec<String>>,
    /// The last line asks for the whole list again.
    say_whole: bool,
    /// The typed lines ended.
    closed: bool,
}

impl ListMedium<'_, '_> {
    fn say(&mut self, lines: Vec<String>) -> io::Result<()> {
        for line in lines {
            writeln!(self.out, "{line}")?;
        }
        self.out.flush()
    }
}

fn ids(list: &InboxList) -> Vec<String> {
    list.entries().iter().map(|e| e.id.clone()).collect()
}

impl Medium for ListMedium<'_, '_> {
    fn read(&mut self, engine: &mut Engine, wait: Duration) -> io::Result<Vec<Input>> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => match parse(&line, shown(engine).entries().len()) {
                Ok(None) => {
                    self.say_whole = true;
                    engine.request_frame();
                    Ok(Vec::new())
                }
                Ok(Some((action, row))) => {
                    self.say_whole = true;
                    engine.request_frame();
                    Ok([InboxAction::Highlight(row), action]
                        .map(|a| Input::Msg(Msg::Inbox(a)))
                        .into())
                }
                Err(problem) => {
                    self.say(vec![problem.to_string()])?;
                    Ok(Vec::new())
                }
            },
            Err(RecvTimeoutError::Timeout) => Ok(Vec::new()),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Ok(Vec::new())
            }
        }
    }

    /// The whole list when it is first shown or a line asked for it; otherwise what changed: an
    /// ask gone moves the numbers, so the list is said again before a number names the wrong
    /// ask; new asks are said as they come.
    fn present(&mut self, engine: &mut Engine) -> io::Result<()> {
        let list = shown(engine);
        let now = unix_ms();
        let ids = ids(list);
        let Some(before) = self.said.replace(ids.clone()) else {
            return self.say(list_lines(list, now));
        };
        if std::mem::take(&mut self.say_whole) {
            return self.say(list_lines(list, now));
        }
        if ids == before {
            return Ok(());
        }
        if before.iter().any(|id| !ids.contains(id)) {
            let mut lines = vec![
                "The list changed: an ask was answered elsewhere (another inbox, the web page) or withdrawn.".to_owned(),
            ];
            lines.extend(list_lines(list, now));
            return self.say(lines);
        }
        let new: Vec<String> = list
            .entries()
            .iter()
            .enumerate()
            .filter(|(_, e)| !before.contains(&e.id))
            .map(|(i, e)| format!("New ask: {}", entry_line(i + 1, e, false, now)))
            .collect();
        self.say(new)
    }

    fn interrupted(&mut self) -> Option<Interruption> {
        (self.closed || self.signals.load(Ordering::Relaxed))
            .then_some(Interruption::TerminalClosed)
    }
}

/// How the list ended, once it did.
fn ending_of(engine: &Engine) -> Option<ListEnding> {
    engine.session().inbox()?.ending().cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_name_an_ask_by_its_number() {
        assert_eq!(parse("2", 3), Ok(Some((InboxAction::Open, 1))));
        assert_eq!(parse("l 1", 3), Ok(Some((InboxAction::Later, 0))));
        assert_eq!(parse("d 3", 3), Ok(Some((InboxAction::Decline, 2))));
        assert_eq!(parse("q", 3), Ok(Some((InboxAction::Quit, 0))));
        assert_eq!(parse(" ", 3), Ok(None));
        assert!(parse("4", 3).unwrap_err().to_string().contains("no ask 4"));
        assert!(
            parse("open", 3)
                .unwrap_err()
                .to_string()
                .contains("not an inbox command")
        );
    }

    #[test]
    fn what_was_typed_is_said_back_printable() {
        for line in ["l \x1b]0;owned\x07", "d \x1b[2J"] {
            let said = parse(line, 3).unwrap_err().to_string();
            assert!(!said.contains('\x1b') && !said.contains('\x07'), "{said:?}");
        }
    }
}
