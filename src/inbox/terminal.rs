//! The inbox's list on the terminal: an inline area as tall as the list, redrawn when an ask
//! arrives or goes, once a second for the ages, and after a key; keys become
//! [`InboxAction`](crate::model::InboxAction)s only through the binding table's `inbox` context.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyEventKind};
use pi_ask_components::Theme;

pub use super::ListEnding;
use super::{InboxList, WaitingAsk, view};
use crate::drivers::tty::{Placement, TerminalGuard};
use crate::keymap::{BindingTable, Focus, Resolution};
use crate::keys::KeyId;

/// What has the list's keys: the filter line while it is open, else the list.
fn focus(list: &InboxList) -> Focus {
    match list.filter() {
        Some(f) => Focus::Filter {
            empty: f.query.is_empty(),
        },
        None => Focus::Inbox,
    }
}

/// How often the queues are looked at while the list shows.
const REFRESH: Duration = Duration::from_millis(250);
/// How often the ages are redrawn.
const AGES: Duration = Duration::from_secs(1);

/// Shows `list` until the person chooses, refreshing it from `waiting` (the queues' asks now).
pub fn run(
    list: &mut InboxList,
    mut waiting: impl FnMut() -> Vec<WaitingAsk>,
    table: &BindingTable,
    theme: &Theme,
    signals: &AtomicBool,
) -> io::Result<ListEnding> {
    crate::drivers::tty::install_panic_hook();
    let footers = (
        crate::tui::inbox_footer(table),
        crate::tui::inbox_filter_footer(table),
    );
    let (cols, rows) = crossterm::terminal::size()?;
    let height = |list: &InboxList, rows: u16| view::natural_height(list).clamp(1, rows.max(1));
    let (mut terminal, mut guard) = TerminalGuard::enter(Placement::Inline {
        height: height(list, rows),
    })?;
    let mut size = (cols, rows);
    let mut last_refresh = Instant::now();
    let mut last_draw = Instant::now() - AGES;
    let mut dirty = true;
    let ending = loop {
        if signals.load(Ordering::Relaxed) {
            break ListEnding::Interrupted;
        }
        if last_refresh.elapsed() >= REFRESH {
            last_refresh = Instant::now();
            dirty |= list.refresh(waiting());
            if list.entries().is_empty() {
                break ListEnding::Empty;
            }
        }
        if dirty || last_draw.elapsed() >= AGES {
            guard.set_height(&mut terminal, height(list, size.1))?;
            let now_ms = crate::remote::protocol::unix_ms();
            terminal.draw(|f| {
                let area = f.area();
                let footer = match list.filter() {
                    Some(_) => &footers.1,
                    None => &footers.0,
                };
                view::draw(list, now_ms, footer, theme, area, f.buffer_mut());
            })?;
            last_draw = Instant::now();
            dirty = false;
        }
        if !event::poll(REFRESH)? {
            continue;
        }
        match event::read()? {
            Event::Key(key) if key.kind != KeyEventKind::Release => {
                let Some(id) = KeyId::from_event(&key) else {
                    continue;
                };
                if let Resolution::Msg(msg) = table.resolve(focus(list), &id) {
                    dirty = true;
                    if let Some(cmd) = list.update_msg(msg) {
                        break ListEnding::Chose(cmd);
                    }
                }
            }
            Event::Resize(c, r) => {
                size = (c, r);
                guard.resize(&mut terminal, height(list, r))?;
                dirty = true;
            }
            _ => {}
        }
    };
    // The list's lines are left on the screen above what comes next, like a finished form's.
    drop(guard);
    Ok(ending)
}
