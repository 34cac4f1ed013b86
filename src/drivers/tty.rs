//! Taking over the controlling terminal (/dev/tty) and always giving it back: raw mode, bracketed
//! paste, the Kitty keyboard protocol, the alternate screen or an inline area.
//! Restoration runs on drop, from the panic hook, and after termination signals.
//!
//! The inline area starts on the cursor's row (asked of the terminal with a short timeout; a
//! terminal that does not answer gets the area at the bottom) and is as tall as the form's content:
//! growing scrolls the screen up only as far as needed, shrinking clears the rows given back.

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
    /// `height` rows of the normal screen from the cursor's row, scrolled up to make room.
    Inline {
        /// Rows.
        height: u16,
    },
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
    // Gathered, then written at once (one write, not one per escape fragment).
    let mut out = Vec::new();
    let _ = crossterm::queue!(
        out,
        PopKeyboardEnhancementFlags,
        DisableBracketedPaste,
        cursor::Show
    );
    match active.placement {
        Placement::Fullscreen => {
            let _ = crossterm::queue!(out, LeaveAlternateScreen);
        }
        Placement::Inline { .. } => {
            // Leave the screen as it was before the form: clear its rows, put the cursor at their top.
            let _ = crossterm::queue!(
                out,
                cursor::MoveTo(0, active.top),
                terminal::Clear(terminal::ClearType::FromCursorDown)
            );
        }
    }
    let _ = tty.write_all(&out);
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
///
/// Its writer is buffered (a frame of a 300-option form fits): ratatui flushes it once at the end
/// of each draw, so a frame reaches the terminal in one write instead of one per escape fragment.
pub type Tty = Terminal<CrosstermBackend<io::BufWriter<File>>>;

/// The buffer a frame is gathered in before its one write.
const FRAME_BUFFER_BYTES: usize = 256 * 1024;

/// Restores the terminal when dropped.
pub struct TerminalGuard {
    placement: Placement,
    /// First row of the inline area (kept in [`ACTIVE`] too, for restoring from a panic).
    top: u16,
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
        let placement = match placement {
            Placement::Inline { height } => Placement::Inline {
                height: height.clamp(1, rows.max(1)),
            },
            other => other,
        };
        let setup = (|| -> io::Result<Tty> {
            let mut modes = Vec::new();
            crossterm::queue!(
                modes,
                EnableBracketedPaste,
                PushKeyboardEnhancementFlags(flags)
            )?;
            tty.write_all(&modes)?;
            let viewport = match placement {
                Placement::Fullscreen => {
                    execute!(tty, EnterAlternateScreen)?;
                    Viewport::Fullscreen
                }
                Placement::Inline { height } => {
                    top = match cursor_row(&mut tty, CURSOR_QUERY_TIMEOUT) {
                        Some(row) => {
                            make_room(&mut tty, row.min(rows.saturating_sub(1)), height, rows)?
                        }
                        // No answer: scroll the screen up so the bottom rows are free.
                        None => make_room(&mut tty, rows.saturating_sub(1), height, rows)?,
                    };
                    Viewport::Fixed(Rect::new(0, top, cols, height))
                }
            };
            *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) = Some(Active { placement, top });
            new_terminal(viewport, cols, rows)
        })();
        match setup {
            Ok(terminal) => Ok((terminal, TerminalGuard { placement, top })),
            Err(e) => {
                *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) = Some(Active { placement, top });
                restore();
                Err(e)
            }
        }
    }

    /// Re-fits the drawing area after the terminal was resized: the terminal may have reflowed
    /// its lines, so the screen is cleared and the inline area starts again at the top.
    pub fn resize(&mut self, terminal: &mut Tty, inline_height: u16) -> io::Result<()> {
        let (cols, rows) = terminal::size()?;
        let viewport = match self.placement {
            Placement::Fullscreen => Viewport::Fullscreen,
            Placement::Inline { .. } => {
                let height = inline_height.clamp(1, rows.max(1));
                self.set_inline(0, height);
                Viewport::Fixed(Rect::new(0, 0, cols, height))
            }
        };
        execute!(open_tty()?, terminal::Clear(terminal::ClearType::All))?;
        *terminal = new_terminal(viewport, cols, rows)?;
        Ok(())
    }

    /// Whether [`set_height`](Self::set_height) with `height` would change the inline area, on
    /// a screen of `rows` rows.
    pub fn needs_height_change(&self, height: u16, rows: u16) -> bool {
        let Placement::Inline { height: current } = self.placement else {
            return false;
        };
        height.clamp(1, rows.max(1)) != current
    }

    /// Makes the inline area `height` rows tall (within the screen), keeping its top row unless
    /// the screen must scroll to make room. Rows given back are cleared. Nothing happens in
    /// full-screen mode or when the height is unchanged.
    pub fn set_height(&mut self, terminal: &mut Tty, height: u16) -> io::Result<()> {
        let Placement::Inline { height: current } = self.placement else {
            return Ok(());
        };
        let (cols, rows) = terminal::size()?;
        let height = height.clamp(1, rows.max(1));
        if height == current {
            return Ok(());
        }
        let mut tty = open_tty()?;
        let top = self.top;
        let top = if height > current {
            make_room(&mut tty, top, height, rows)?
        } else {
            // The rows given back, cleared in one write.
            let mut clear = Vec::new();
            for y in top.saturating_add(height)..top.saturating_add(current).min(rows) {
                crossterm::queue!(
                    clear,
                    cursor::MoveTo(0, y),
                    terminal::Clear(terminal::ClearType::CurrentLine)
                )?;
            }
            tty.write_all(&clear)?;
            top
        };
        self.set_inline(top, height);
        *terminal = new_terminal(Viewport::Fixed(Rect::new(0, top, cols, height)), cols, rows)?;
        Ok(())
    }

    fn set_inline(&mut self, top: u16, height: u16) {
        self.placement = Placement::Inline { height };
        self.top = top;
        if let Ok(mut active) = ACTIVE.lock()
            && let Some(a) = active.as_mut()
        {
            a.top = top;
            a.placement = self.placement;
        }
    }
}

/// How long the terminal gets to say where the cursor is before the form opens at the bottom.
const CURSOR_QUERY_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(150);

/// Asks the terminal for the cursor's row (`CSI 6n`, answered `CSI row ; col R`), waiting at most
/// `timeout`. Written and read on /dev/tty: standard output carries the result. Input typed
/// before the answer arrives is lost; input after it stays for the event reader.
fn cursor_row(tty: &mut File, timeout: std::time::Duration) -> Option<u16> {
    use std::io::Read;
    use std::os::fd::AsRawFd;
    write!(tty, "\x1b[6n").ok()?;
    tty.flush().ok()?;
    let deadline = std::time::Instant::now() + timeout;
    let mut reply = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return None;
        }
        let mut fd = libc::pollfd {
            fd: tty.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for an open descriptor.
        let ready = unsafe { libc::poll(&mut fd, 1, left.as_millis().max(1) as libc::c_int) };
        if ready <= 0 || fd.revents & libc::POLLIN == 0 {
            return None;
        }
        // One byte at a time, so nothing after the answer is taken from the event reader.
        let mut byte = [0u8; 1];
        if tty.read(&mut byte).ok()? == 0 {
            return None;
        }
        reply.push(byte[0]);
        if byte[0] == b'R'
            && let Some(row) = parse_cursor_reply(&reply)
        {
            return Some(row);
        }
        if reply.len() > 64 {
            reply.drain(..32);
        }
    }
}

/// The 0-based row of the last `ESC [ row ; col R` in `bytes`.
fn parse_cursor_reply(bytes: &[u8]) -> Option<u16> {
    let start = bytes.windows(2).rposition(|w| w == b"\x1b[")?;
    let body = std::str::from_utf8(&bytes[start + 2..]).ok()?;
    let (row, rest) = body.strip_suffix('R')?.split_once(';')?;
    rest.parse::<u16>().ok()?;
    row.parse::<u16>().ok()?.checked_sub(1)
}

/// Scrolls the screen up just enough for `height` rows from row `top`; returns the new top row.
fn make_room(tty: &mut File, top: u16, height: u16, rows: u16) -> io::Result<u16> {
    let overflow = top.saturating_add(height).saturating_sub(rows);
    if overflow > 0 {
        let mut room = Vec::new();
        crossterm::queue!(room, cursor::MoveTo(0, rows.saturating_sub(1)))?;
        room.extend(std::iter::repeat_n(b'\n', overflow as usize));
        tty.write_all(&room)?;
    }
    Ok(top.saturating_sub(overflow))
}

/// A terminal over a viewport whose rows are cleared first. ratatui's own `clear` asks the terminal
/// for the cursor position (a blocking query written to stdout), so the rows are cleared here.
fn new_terminal(viewport: Viewport, cols: u16, rows: u16) -> io::Result<Tty> {
    let mut tty = io::BufWriter::with_capacity(FRAME_BUFFER_BYTES, open_tty()?);
    let area = match viewport {
        Viewport::Fixed(area) => area,
        _ => Rect::new(0, 0, cols, rows),
    };
    // Queued, not executed: the clearing goes out with the first frame's write.
    for y in area.top()..area.bottom() {
        crossterm::queue!(
            tty,
            cursor::MoveTo(0, y),
            terminal::Clear(terminal::ClearType::UntilNewLine)
        )?;
    }
    Terminal::with_options(CrosstermBackend::new(tty), TerminalOptions { viewport })
}

impl TerminalGuard {
    /// Whether the form is on the alternate screen.
    pub fn is_fullscreen(&self) -> bool {
        self.placement == Placement::Fullscreen
    }

    /// Gives the terminal back for a suspend (SIGTSTP): the same restoration as on exit. Until
    /// [`TerminalGuard::retake`], dropping the guard restores nothing more.
    pub fn release(&mut self) {
        restore();
    }

    /// Takes the terminal again after [`TerminalGuard::release`], as `placement`.
    pub fn retake(&mut self, placement: Placement) -> io::Result<Tty> {
        let (terminal, fresh) = TerminalGuard::enter(placement)?;
        (self.placement, self.top) = (fresh.placement, fresh.top);
        // `self` now guards the terminal `fresh` took; `fresh` must not restore it.
        std::mem::forget(fresh);
        Ok(terminal)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

#[cfg(test)]
mod tests {
    use super::parse_cursor_reply;

    #[test]
    fn cursor_replies_are_read_after_any_typeahead() {
        assert_eq!(parse_cursor_reply(b"\x1b[12;1R"), Some(11));
        assert_eq!(parse_cursor_reply(b"ab\x1b[1;80R"), Some(0));
        assert_eq!(parse_cursor_reply(b"\x1b[A\x1b[3;4R"), Some(2));
        assert_eq!(parse_cursor_reply(b"\x1b[0;4R"), None);
        assert_eq!(parse_cursor_reply(b"\x1b[x;4R"), None);
        assert_eq!(parse_cursor_reply(b"\x1b[5R"), None);
    }

    proptest::proptest! {
        #[test]
        fn any_reply_bytes_parse_without_panicking(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..80)) {
            let _ = parse_cursor_reply(&bytes);
        }
    }
}
