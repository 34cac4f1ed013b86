//! The inbox's list in line mode: the waiting asks as numbered lines, a line typed to open,
//! leave for later or decline one, or quit; a new ask is announced in a line of its own.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Instant;

use pi_ask_components::Theme;

use crate::engine::{Engine, Input, Viewport};
use crate::inbox::{InboxList, ListEnding, WaitingAsk, view};
use crate::keymap::BindingTable;
use crate::model::{InboxAction, Msg};
use crate::printable::printable;
use crate::tui::inbox_screen::REFRESH;
use crate::tui::{InboxScreen, Screen, Session};

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
    let now_ms = crate::remote::protocol::unix_ms;
    let say = |out: &mut dyn Write, lines: Vec<String>| -> io::Result<()> {
        for line in lines {
            writeln!(out, "{line}")?;
        }
        out.flush()
    };
    say(out, list_lines(shown(engine), now_ms()))?;
    loop {
        if signals.load(Ordering::Relaxed) {
            return Ok(ListEnding::Interrupted);
        }
        let wait = engine
            .session()
            .next_deadline()
            .map_or(REFRESH, |d| d.saturating_duration_since(Instant::now()));
        match lines.recv_timeout(wait.min(REFRESH)) {
            Ok(line) => match parse(&line, shown(engine).entries().len()) {
                Ok(None) => say(out, list_lines(shown(engine), now_ms()))?,
                Ok(Some((action, row))) => {
                    let inputs =
                        [InboxAction::Highlight(row), action].map(|a| Input::Msg(Msg::Inbox(a)));
                    engine.step(inputs, Instant::now());
                    if let Some(ending) = ending(engine) {
                        return Ok(ending);
                    }
                    say(out, list_lines(shown(engine), now_ms()))?;
                }
                Err(problem) => say(out, vec![problem.to_string()])?,
            },
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Ok(ListEnding::Interrupted),
        }
        let before: Vec<String> = shown(engine)
            .entries()
            .iter()
            .map(|e| e.id.clone())
            .collect();
        engine.tick(Instant::now());
        if let Some(ending) = ending(engine) {
            return Ok(ending);
        }
        let list = shown(engine);
        let ids: Vec<&str> = list.entries().iter().map(|e| e.id.as_str()).collect();
        if ids == before {
            continue;
        }
        if before.iter().any(|id| !ids.contains(&id.as_str())) {
            // An ask went away (answered elsewhere, withdrawn): the numbers moved, so the
            // whole list is said again before a number can name the wrong ask.
            let mut lines = vec![
                "The list changed: an ask was answered elsewhere (another inbox, the web page) or withdrawn.".to_owned(),
            ];
            lines.extend(list_lines(list, now_ms()));
            say(out, lines)?;
            continue;
        }
        let new: Vec<String> = list
            .entries()
            .iter()
            .enumerate()
            .filter(|(_, e)| !before.contains(&e.id))
            .map(|(i, e)| format!("New ask: {}", entry_line(i + 1, e, false, now_ms())))
            .collect();
        say(out, new)?;
    }
}

/// How the list ended, once it did.
fn ending(engine: &Engine) -> Option<ListEnding> {
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
