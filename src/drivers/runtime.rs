//! The event loop on a real terminal: events → binding table → `Msg` → `update` → effects → view.

use std::io;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyEventKind};

use super::tty::{Placement, TerminalGuard, install_panic_hook};
use crate::engine::{Engine, Input, Medium, Viewport};
use crate::keys::TerminalInput;

/// How long the loop looks for more input once some arrived, before drawing. Not zero: with
/// crossterm's `use-dev-tty` source, a zero-timeout poll never returns the events it already read
/// and parsed (several keys from one read of the terminal), so each key would get a frame of its
/// own. Any longer is a busy wait: crossterm polls the terminal without blocking (its poll takes
/// whole milliseconds) until the time is up, 144 `poll` calls after one key at 50 µs (strace).
/// One microsecond takes what is parsed or readable now with one `poll`; were the wait over
/// before crossterm looks, the batch only ends early (the engine makes that draw a frame more,
/// never act otherwise).
const BATCH_POLL: Duration = Duration::from_micros(1);
/// The most events taken into one step (a huge paste still draws now and then).
const MAX_BATCH: usize = 1024;

pub use crate::engine::{Ending, Interruption};

impl Interruption {
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
/// Registered once per process and shared: every form and inbox list ran through the loop takes
/// the same flag, instead of adding handlers at each (an inbox shows its list after every ask). A
/// signal ends the process's asking, so the flag never needs clearing.
pub fn signal_flag() -> io::Result<Arc<AtomicBool>> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    if let Some(flag) = FLAG.get() {
        return Ok(Arc::clone(flag));
    }
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
    Ok(Arc::clone(FLAG.get_or_init(|| flag)))
}

/// SIGTSTP (a job-control stop), recorded by flag: the loop gives the terminal back, stops, and
/// takes it again when continued, like any full-screen program. Registered once per process, as
/// [`signal_flag`]; each stop is taken (and the flag cleared) by the loop that suspends.
fn suspend_flag() -> io::Result<Arc<AtomicBool>> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    if let Some(flag) = FLAG.get() {
        return Ok(Arc::clone(flag));
    }
    let flag = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register(signal_hook::consts::SIGTSTP, flag.clone())?;
    Ok(Arc::clone(FLAG.get_or_init(|| flag)))
}

/// Suspends: the terminal restored, the process stopped (SIGSTOP, since SIGTSTP's own stop is
/// replaced by the flag), and on SIGCONT the terminal taken again and a frame asked for.
fn suspend(
    engine: &mut Engine,
    terminal: &mut super::tty::Tty,
    guard: &mut TerminalGuard,
) -> io::Result<()> {
    let fullscreen = guard.is_fullscreen();
    guard.release();
    // SAFETY: raising a signal at ourselves; SIGSTOP cannot be caught, and raise returns once a
    // SIGCONT resumes the process.
    unsafe { libc::raise(libc::SIGSTOP) };
    // The terminal may have changed size while stopped.
    engine.set_viewport(viewport(fullscreen)?);
    *terminal = guard.retake(placement(engine, fullscreen))?;
    engine.request_frame();
    Ok(())
}

/// Whether this process is in the background of a job-control shell: its process group is not
/// the terminal's foreground one. Raw mode there stops it (SIGTTOU) and so would a read
/// (SIGTTIN), before anything is drawn.
fn in_background(tty: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: tcgetpgrp on an open descriptor; getpgrp has no preconditions.
    let (foreground, ours) = unsafe { (libc::tcgetpgrp(tty.as_raw_fd()), libc::getpgrp()) };
    foreground > 0 && foreground != ours
}

/// How often a form waiting in the background looks whether it is in the foreground yet.
const BACKGROUND_POLL: Duration = Duration::from_millis(50);

/// While the process is in the background: takes what arrives from elsewhere (a remote answer),
/// and ends with the flow (answered remotely, timed out, a signal, the terminal closed). `None`
/// once it is in the foreground (or never was in the background): the form is drawn.
fn wait_in_background(engine: &mut Engine, signals: &AtomicBool) -> io::Result<Option<Ending>> {
    let tty = super::tty::open_tty()?;
    if !in_background(&tty) {
        return Ok(None);
    }
    engine.session_mut().start_time_limit(Instant::now());
    loop {
        if engine.session().is_done() {
            return Ok(Some(Ending::Done));
        }
        if signals.load(Ordering::Relaxed) {
            return Ok(Some(Ending::Interrupted(Interruption::from_last_signal())));
        }
        if engine.session().timed_out(Instant::now()) {
            return Ok(Some(Ending::Interrupted(Interruption::TimedOut)));
        }
        if hung_up(&tty) {
            return Ok(Some(Ending::Interrupted(Interruption::TerminalClosed)));
        }
        if !in_background(&tty) {
            return Ok(None);
        }
        engine.tick(Instant::now());
        std::thread::sleep(engine.wait_for_input(Instant::now()).min(BACKGROUND_POLL));
    }
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

/// What the form's frames fill at the terminal's current size: the whole alternate screen, or an
/// inline area as wide as the terminal and as tall as the form wants.
fn viewport(fullscreen: bool) -> io::Result<Viewport> {
    let (width, height) = crossterm::terminal::size()?;
    Ok(if fullscreen {
        Viewport::Fixed { width, height }
    } else {
        Viewport::Inline { width, height }
    })
}

/// How the form takes the screen now: the alternate screen, or an inline area as tall as the form
/// wants at the terminal's size.
fn placement(engine: &mut Engine, fullscreen: bool) -> Placement {
    if fullscreen {
        return Placement::Fullscreen;
    }
    let area = engine.frame_area().unwrap_or_default();
    Placement::Inline {
        height: area.height.max(1),
    }
}

/// Runs a session on the controlling terminal until it is done or a signal arrives.
/// The terminal is restored before this returns, whatever happened.
pub fn run(engine: &mut Engine, fullscreen: bool) -> io::Result<Ending> {
    install_panic_hook();
    let signals = signal_flag()?;
    let stops = suspend_flag()?;
    // Started in the background of a shell (`pi-ask ask --listen … &`): the form waits, touching
    // nothing of the terminal, until it is brought to the foreground; meanwhile it can still be
    // answered (remote events) or time out.
    if let Some(ending) = wait_in_background(engine, &signals)? {
        return Ok(ending);
    }
    // crossterm starts watching for resizes (SIGWINCH) at its first poll, which the loop makes
    // only after the first frame: started now, a resize just after the form shows is never lost.
    event::poll(Duration::ZERO)?;
    engine.set_viewport(viewport(fullscreen)?);
    let (terminal, mut guard) = TerminalGuard::enter(placement(engine, fullscreen))?;
    // ratatui's Terminal prints to stderr from its destructor when it cannot show the cursor
    // (a closed terminal); the guard restores the cursor itself, so the Terminal the loop ends
    // with is never dropped. (Those replaced on a resize or a resume are dropped while the
    // terminal is there.)
    let mut terminal = std::mem::ManuallyDrop::new(terminal);
    // Watched for a hangup (the terminal closed): then the flow ends as if aborted.
    let tty = super::tty::open_tty()?;
    let mut medium = TerminalMedium {
        terminal: &mut terminal,
        guard: &mut guard,
        signals: &signals,
        stops: &stops,
        tty: &tty,
        resized: false,
    };
    let result = engine.pump(&mut medium);
    drop(guard);
    match result {
        Ok(ending) => Ok(ending),
        // I/O on a terminal that went away is a hangup, not an error.
        Err(_) if hung_up(&tty) => Ok(Ending::Interrupted(Interruption::TerminalClosed)),
        Err(e) => Err(e),
    }
}

/// The controlling terminal as the engine's medium: its events read as one batch, frames drawn
/// inline or on the alternate screen, signals, job-control stops and a hangup watched.
struct TerminalMedium<'a> {
    terminal: &'a mut super::tty::Tty,
    guard: &'a mut TerminalGuard,
    signals: &'a AtomicBool,
    stops: &'a AtomicBool,
    tty: &'a std::fs::File,
    /// The last read held a resize: the terminal is rebuilt at the new size before the frame.
    resized: bool,
}

impl Medium for TerminalMedium<'_> {
    fn read(&mut self, engine: &mut Engine, wait: Duration) -> io::Result<Vec<Input>> {
        if self.stops.swap(false, Ordering::Relaxed) {
            // Back from a stop: the frame is drawn at once, before any wait.
            suspend(engine, self.terminal, self.guard)?;
            return Ok(Vec::new());
        }
        // Everything already waiting is one step (the engine makes a batch act as keys one at a
        // time), then at most one frame.
        let inputs = read_waiting(wait)?;
        self.resized |= inputs.iter().any(|i| matches!(i, Input::Resize { .. }));
        Ok(inputs)
    }

    fn present(&mut self, engine: &mut Engine) -> io::Result<()> {
        if std::mem::take(&mut self.resized) && !engine.is_done() {
            // The screen is cleared and the terminal rebuilt at the new size (an inline area as
            // tall as the form now wants; the alternate screen whole).
            let height = engine.frame_area().unwrap_or_default().height;
            self.guard.resize(self.terminal, height)?;
        }
        draw(engine, self.terminal, self.guard)
    }

    fn interrupted(&mut self) -> Option<Interruption> {
        if self.signals.load(Ordering::Relaxed) {
            Some(Interruption::from_last_signal())
        } else if hung_up(self.tty) {
            Some(Interruption::TerminalClosed)
        } else {
            None
        }
    }

    /// The terminal given back to the person's editor as for a suspend, taken again when it
    /// ends, and redrawn whatever the editor did.
    fn edit_externally(&mut self, engine: &mut Engine, text: &str) -> io::Result<Option<String>> {
        let fullscreen = self.guard.is_fullscreen();
        self.guard.release();
        let edited = super::external_editor::edit(text, self.tty);
        engine.set_viewport(viewport(fullscreen)?);
        *self.terminal = self.guard.retake(placement(engine, fullscreen))?;
        engine.request_frame();
        Ok(edited.ok().flatten())
    }
}

/// The terminal's events that are waiting (after waiting up to `timeout` for the first), as the
/// engine's inputs: keys and pastes, and sizes.
fn read_waiting(timeout: Duration) -> io::Result<Vec<Input>> {
    let mut inputs = Vec::new();
    if !event::poll(timeout)? {
        return Ok(inputs);
    }
    loop {
        match event::read()? {
            Event::Key(k) if k.kind == KeyEventKind::Release => {}
            Event::Resize(width, height) => inputs.push(Input::Resize { width, height }),
            other => inputs.extend(TerminalInput::from_event(&other).map(Input::Terminal)),
        }
        if inputs.len() >= MAX_BATCH || !event::poll(BATCH_POLL)? {
            return Ok(inputs);
        }
    }
}

/// Fits the inline area to the form's content, then draws, as one synchronized update so a
/// terminal that supports it never shows a half-changed frame.
fn draw(
    engine: &mut Engine,
    terminal: &mut super::tty::Tty,
    guard: &mut TerminalGuard,
) -> io::Result<()> {
    use crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};
    // The terminal's rows as the engine knows them (from the last resize), not asked again.
    let rows = match engine.viewport() {
        Viewport::Fixed { height, .. } | Viewport::Inline { height, .. } => height,
        Viewport::Headless => 1,
    };
    // Both go to /dev/tty through the terminal's own writer (a resize replaces the terminal, not
    // the device).
    // The begin marker is only queued: it goes out with the frame, in ratatui's one flush at the
    // end of `draw`; the end marker follows in a second write. When the inline area changes
    // height first, the marker goes out at once, so the resizing is inside the update too.
    let height = engine.frame_area().unwrap_or_default().height.max(1);
    crossterm::queue!(terminal.backend_mut(), BeginSynchronizedUpdate)?;
    if guard.needs_height_change(height, rows) {
        std::io::Write::flush(terminal.backend_mut())?;
    }
    let drawn = guard
        .set_height(terminal, height)
        .and_then(|()| terminal.draw(|f| engine.draw(f)).map(drop));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signal_flags_are_registered_once_and_shared() {
        let (first, second) = (signal_flag().unwrap(), signal_flag().unwrap());
        assert!(Arc::ptr_eq(&first, &second));
        let (first, second) = (suspend_flag().unwrap(), suspend_flag().unwrap());
        assert!(Arc::ptr_eq(&first, &second));
    }
}
