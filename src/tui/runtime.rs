//! The event loop on a real terminal: events → binding table → `Msg` → `update` → effects → view.

use std::io;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyEventKind};

use super::session::{Screen, Session};
use super::terminal::{Placement, TerminalGuard, install_panic_hook};
use crate::keys::TerminalInput;

/// How often the loop wakes to check signals and timers when no input arrives.
const IDLE_POLL: Duration = Duration::from_millis(100);
/// How soon the loop looks again while the file worker owes an answer.
const FILES_POLL: Duration = Duration::from_millis(8);

/// Why the loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The session finished (result, or settings closed).
    Done,
    /// A termination signal arrived or the terminal went away.
    Interrupted(Interruption),
}

/// What ended a form before anyone answered it: never the person, so its result must not say they
/// cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interruption {
    /// A termination signal, by name (`SIGTERM`).
    Signal(&'static str),
    /// The terminal closed (its window or pty went away).
    TerminalClosed,
    /// Reading or writing the terminal failed (the error is reported on its own).
    TerminalError,
    /// The person gave the form back (Ctrl+C in the inbox, which puts the ask back).
    PutBack,
}

impl Interruption {
    /// The cause as the interrupted result names it.
    pub fn cause(self) -> &'static str {
        match self {
            Interruption::Signal(name) => name,
            Interruption::TerminalClosed => "the terminal closed",
            Interruption::TerminalError => "a terminal error",
            Interruption::PutBack => "put back",
        }
    }

    /// The signal that arrived last (any process-wide registration of [`signal_flag`] records it).
    pub fn from_last_signal() -> Interruption {
        let number = last_signal().load(Ordering::Relaxed);
        Interruption::Signal(match number as libc::c_int {
            libc::SIGINT => "SIGINT",
            libc::SIGHUP => "SIGHUP",
            libc::SIGQUIT => "SIGQUIT",
            _ => "SIGTERM",
        })
    }
}

/// The number of the termination signal that arrived last (0: none yet).
fn last_signal() -> &'static Arc<AtomicUsize> {
    static LAST: OnceLock<Arc<AtomicUsize>> = OnceLock::new();
    LAST.get_or_init(|| Arc::new(AtomicUsize::new(0)))
}

/// Termination signals, recorded by flag so the loop can restore the terminal and end cleanly.
pub fn signal_flag() -> io::Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    for signal in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGQUIT,
    ] {
        signal_hook::flag::register(signal, flag.clone())?;
        signal_hook::flag::register_usize(signal, Arc::clone(last_signal()), signal as usize)?;
    }
    Ok(flag)
}

/// SIGTSTP (a job-control stop), recorded by flag: the loop gives the terminal back, stops, and
/// takes it again when continued, like any full-screen program.
fn suspend_flag() -> io::Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register(signal_hook::consts::SIGTSTP, flag.clone())?;
    Ok(flag)
}

/// Suspends: the terminal restored, the process stopped (SIGSTOP, since SIGTSTP's own stop is
/// replaced by the flag), and on SIGCONT the terminal taken again and the form redrawn.
fn suspend(
    session: &mut Session,
    terminal: &mut super::terminal::Tty,
    guard: &mut TerminalGuard,
) -> io::Result<()> {
    let fullscreen = guard.is_fullscreen();
    guard.release();
    // SAFETY: raising a signal at ourselves; SIGSTOP cannot be caught, and raise returns once a
    // SIGCONT resumes the process.
    unsafe { libc::raise(libc::SIGSTOP) };
    *terminal = guard.retake(placement(session, fullscreen)?)?;
    draw(session, terminal, guard)
}

/// Whether the terminal hung up (its window or pty closed).
fn hung_up(tty: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    let mut fd = libc::pollfd {
        fd: tty.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd for an open descriptor, zero timeout.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}

/// The inline height the form wants at a terminal size: tight to the current tab's content,
/// never taller than the screen.
pub fn preferred_height(session: &mut Session, cols: u16, rows: u16) -> u16 {
    let rows = rows.max(1);
    match &mut session.screen {
        Screen::Flow(app) => app.natural_height(cols).clamp(1, rows),
        Screen::Settings(_) => rows.min(30),
    }
}

/// How the form takes the screen now: the alternate screen, or an inline area as tall as the form
/// wants at the terminal's size.
fn placement(session: &mut Session, fullscreen: bool) -> io::Result<Placement> {
    if fullscreen {
        return Ok(Placement::Fullscreen);
    }
    let (cols, rows) = crossterm::terminal::size()?;
    Ok(Placement::Inline {
        height: preferred_height(session, cols, rows),
    })
}

/// Runs a session on the controlling terminal until it is done or a signal arrives.
/// The terminal is restored before this returns, whatever happened.
pub fn run(session: &mut Session, fullscreen: bool) -> io::Result<Ending> {
    install_panic_hook();
    let signals = signal_flag()?;
    let stops = suspend_flag()?;
    let (terminal, mut guard) = TerminalGuard::enter(placement(session, fullscreen)?)?;
    // ratatui's Terminal prints to stderr from its destructor when it cannot show the cursor
    // (a closed terminal); the guard restores the cursor itself, so the Terminal the loop ends
    // with is never dropped. (Those replaced on a resize or a resume are dropped while the
    // terminal is there.)
    let mut terminal = std::mem::ManuallyDrop::new(terminal);
    // Watched for a hangup (the terminal closed): then the flow ends as if aborted.
    let tty = super::terminal::open_tty()?;
    let result = event_loop(session, &mut terminal, &mut guard, &signals, &stops, &tty);
    drop(guard);
    match result {
        Ok(ending) => Ok(ending),
        // I/O on a terminal that went away is a hangup, not an error.
        Err(_) if hung_up(&tty) => Ok(Ending::Interrupted(Interruption::TerminalClosed)),
        Err(e) => Err(e),
    }
}

fn event_loop(
    session: &mut Session,
    terminal: &mut super::terminal::Tty,
    guard: &mut TerminalGuard,
    signals: &AtomicBool,
    stops: &AtomicBool,
    tty: &std::fs::File,
) -> io::Result<Ending> {
    draw(session, terminal, guard)?;
    session.opened(Instant::now());
    loop {
        if session.is_done() {
            return Ok(Ending::Done);
        }
        if session.put_back() {
            return Ok(Ending::Interrupted(Interruption::PutBack));
        }
        if signals.load(Ordering::Relaxed) {
            return Ok(Ending::Interrupted(Interruption::from_last_signal()));
        }
        if hung_up(tty) {
            return Ok(Ending::Interrupted(Interruption::TerminalClosed));
        }
        if stops.swap(false, Ordering::Relaxed) {
            suspend(session, terminal, guard)?;
        }
        let timeout = wait_for_input(session, Instant::now());
        // Quiet frames: draw only after input or a timer, not on every idle wake-up.
        let mut changed = false;
        if event::poll(timeout)? {
            // Take everything that is already waiting, then draw once (if any of it mattered).
            loop {
                match event::read()? {
                    Event::Key(k) if k.kind == KeyEventKind::Release => {}
                    Event::Resize(c, r) => {
                        let height = preferred_height(session, c, r);
                        guard.resize(terminal, height)?;
                        changed = true;
                    }
                    other => {
                        if let Some(input) = TerminalInput::from_event(&other) {
                            changed |= session.handle_input(&input, Instant::now());
                        }
                    }
                }
                if session.is_done() || session.put_back() || !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
        changed |= session.tick(Instant::now());
        if changed && !session.is_done() {
            draw(session, terminal, guard)?;
        }
    }
}

/// How long a driver may wait for input before the session needs it again: until its next timer,
/// and at most a moment while the file worker owes an answer, else a tenth of a second (signals
/// and config reloads are looked at on every wake-up).
pub fn wait_for_input(session: &Session, now: Instant) -> Duration {
    let idle = if session.awaits_files() {
        FILES_POLL
    } else {
        IDLE_POLL
    };
    session
        .next_deadline()
        .map_or(idle, |d| d.saturating_duration_since(now).min(idle))
}

/// Fits the inline area to the form's content, then draws, as one synchronized update so a
/// terminal that supports it never shows a half-changed frame.
fn draw(
    session: &mut Session,
    terminal: &mut super::terminal::Tty,
    guard: &mut TerminalGuard,
) -> io::Result<()> {
    use crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};
    let (cols, rows) = crossterm::terminal::size()?;
    // Both go to /dev/tty through the terminal's own writer (a resize replaces the terminal, not
    // the device).
    // The begin marker is only queued: it goes out with the frame, in ratatui's one flush at the
    // end of `draw`; the end marker follows in a second write. When the inline area changes
    // height first, the marker goes out at once, so the resizing is inside the update too.
    let height = preferred_height(session, cols, rows);
    crossterm::queue!(terminal.backend_mut(), BeginSynchronizedUpdate)?;
    if guard.needs_height_change(height, rows) {
        std::io::Write::flush(terminal.backend_mut())?;
    }
    let drawn = guard
        .set_height(terminal, height)
        .and_then(|()| terminal.draw(|f| session.draw(f)).map(drop));
    crossterm::execute!(terminal.backend_mut(), EndSynchronizedUpdate)?;
    drawn
}

/// `pi-ask keys`: prints what the form receives for each terminal event crossterm reads (the
/// `Debug` form of its [`TerminalInput`]), one per line on standard
/// output, until F12. Raw mode only, no keyboard protocol, so legacy encodings show.
pub fn print_keys() -> io::Result<()> {
    use std::io::Write;
    crossterm::terminal::enable_raw_mode()?;
    let mut out = io::stdout().lock();
    let result = (|| -> io::Result<()> {
        loop {
            let event = event::read()?;
            if let Event::Key(k) = &event
                && k.code == crossterm::event::KeyCode::F(12)
            {
                return Ok(());
            }
            // What the form receives (the harness's decoder is checked against these lines).
            if let Some(input) = crate::keys::TerminalInput::from_event(&event) {
                writeln!(out, "{input:?}")?;
            }
            out.flush()?;
        }
    })();
    crossterm::terminal::disable_raw_mode()?;
    result
}
