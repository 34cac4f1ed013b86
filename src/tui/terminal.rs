//! Taking over the controlling terminal (/dev/tty) and always giving it back: raw mode, bracketed
//! paste, the Kitty keyboard protocol, the alternate screen or an inline area at the bottom.
//! Restoration runs on drop, from the panic hook, and after termination signals.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::sync::Mutex;

use crossterm::event::{
    DisableBracketedPaste, EnableBracketedPaste, KeyboardEnhancementFlags,
    PopKeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{TerminalOptions, Viewport};

/// How the form takes the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The bottom `height` rows of the normal screen, scrolled up to make room.
    Inline { height: u16 },
    /// The alternate screen.
    Fullscreen,
}

/// What restoring needs to know; kept globally so the panic hook can restore too.
#[derive(Debug, Clone, Copy)]
struct Active {
    placement: Placement,
    /// First row of the inline area.
    top: u16,
}

static ACTIVE: Mutex<Option<Active>> = Mutex::new(None);

/// Opens the controlling terminal for writing (stdout stays free for the result).
pub fn open_tty() -> io::Result<File> {
    OpenOptions::new().read(true).write(true).open("/dev/tty")
}

/// Restores the terminal if it is taken over. Safe to call more than once.
pub fn restore() {
    let Some(active) = ACTIVE.lock().ok().and_then(|mut a| a.take()) else {
        return;
    };
    let Ok(mut tty) = open_tty() else {
        let _ = terminal::disable_raw_mode();
        return;
    };
    let _ = execute!(
        tty,
        PopKeyboardEnhancementFlags,
        DisableBracketedPaste,
        cursor::Show
    );
    match active.placement {
        Placement::Fullscreen => {
            let _ = execute!(tty, LeaveAlternateScreen);
        }
        Placement::Inline { .. } => {
            // Leave the screen as it was before the form: clear its rows, put the cursor at their top.
            let _ = execute!(
                tty,
                cursor::MoveTo(0, active.top),
                terminal::Clear(terminal::ClearType::FromCursorDown)
            );
        }
    }
    let _ = tty.flush();
    let _ = terminal::disable_raw_mode();
}

/// Installs a panic hook that restores the terminal before the panic message is printed.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

/// The terminal, drawn through /dev/tty.
pub type Tty = Terminal<CrosstermBackend<File>>;

/// Restores the terminal when dropped.
pub struct TerminalGuard {
    placement: Placement,
}

impl TerminalGuard {
    /// Takes the terminal over. `height` picks the inline height (clamped to the screen).
    pub fn enter(placement: Placement) -> io::Result<(Tty, TerminalGuard)> {
        let mut tty = open_tty()?;
        let (cols, rows) = terminal::size()?;
        terminal::enable_raw_mode()?;
        let flags = KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES;
        // Pushing the Kitty flags needs no reply; terminals without the protocol ignore it.
        let mut top = 0;
        let setup = (|| -> io::Result<Tty> {
            execute!(
                tty,
                EnableBracketedPaste,
                PushKeyboardEnhancementFlags(flags)
            )?;
            let viewport = match placement {
                Placement::Fullscreen => {
                    execute!(tty, EnterAlternateScreen)?;
                    Viewport::Fullscreen
                }
                Placement::Inline { height } => {
                    let height = height.clamp(1, rows.max(1));
                    // Scroll the screen up so the bottom rows are free, without asking where the cursor is.
                    write!(tty, "{}", "\n".repeat(height as usize))?;
                    top = rows - height;
                    Viewport::Fixed(Rect::new(0, top, cols, height))
                }
            };
            *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) = Some(Active { placement, top });
            new_terminal(viewport, cols, rows)
        })();
        match setup {
            Ok(terminal) => Ok((terminal, TerminalGuard { placement })),
            Err(e) => {
                *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) = Some(Active { placement, top });
                restore();
                Err(e)
            }
        }
    }

    /// Re-fits the drawing area after the terminal was resized (a fresh terminal over a cleared screen).
    pub fn resize(&mut self, terminal: &mut Tty, inline_height: u16) -> io::Result<()> {
        let (cols, rows) = terminal::size()?;
        let viewport = match self.placement {
            Placement::Fullscreen => Viewport::Fullscreen,
            Placement::Inline { .. } => {
                let height = inline_height.clamp(1, rows.max(1));
                let top = rows - height;
                if let Ok(mut active) = ACTIVE.lock()
                    && let Some(a) = active.as_mut()
                {
                    a.top = top;
                }
                self.placement = Placement::Inline { height };
                Viewport::Fixed(Rect::new(0, top, cols, height))
            }
        };
        execute!(open_tty()?, terminal::Clear(terminal::ClearType::All))?;
        *terminal = new_terminal(viewport, cols, rows)?;
        Ok(())
    }
}

/// A terminal over a viewport whose rows are cleared first. ratatui's own `clear` asks the terminal
/// for the cursor position (a blocking query written to stdout), so the rows are cleared here.
fn new_terminal(viewport: Viewport, cols: u16, rows: u16) -> io::Result<Tty> {
    let mut tty = open_tty()?;
    let area = match viewport {
        Viewport::Fixed(area) => area,
        _ => Rect::new(0, 0, cols, rows),
    };
    for y in area.top()..area.bottom() {
        execute!(
            tty,
            cursor::MoveTo(0, y),
            terminal::Clear(terminal::ClearType::UntilNewLine)
        )?;
    }
    Terminal::with_options(CrosstermBackend::new(tty), TerminalOptions { viewport })
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}
