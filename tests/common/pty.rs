//! The real binary in a pseudo-terminal, read through a terminal emulator (vt100), for the
//! end-to-end tests.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, MasterPty, PtySize, native_pty_system};

pub const COLS: u16 = 100;
pub const ROWS: u16 = 30;
pub const WAIT: Duration = Duration::from_secs(10);
/// The longest [`Session::send`] waits for the program to act on what was typed.
const SETTLE: Duration = Duration::from_millis(60);
/// Output that stopped this long is taken as drawn (line mode and other unframed output).
const QUIET: Duration = Duration::from_millis(10);

/// The binary running in a pty, with stdout redirected to a file (as a script would pipe it).
pub struct Session {
    pub master: Box<dyn MasterPty + Send>,
    pub writer: Arc<Mutex<Box<dyn Write + Send>>>,
    pub child: Box<dyn portable_pty::Child + Send + Sync>,
    pub screen: Arc<Mutex<vt100::Parser>>,
    /// Every byte the program wrote to the terminal.
    pub raw: Arc<Mutex<Vec<u8>>>,
    pub out: PathBuf,
    pub dir: tempfile::TempDir,
    /// Set once the reader has taken everything the program wrote (its side closed).
    drained: Arc<std::sync::atomic::AtomicBool>,
}

impl Session {
    /// Starts `pi-ask <args>` with HOME in a temp dir; `setup` may write files there first.
    pub fn start(args: &[&str], setup: impl FnOnce(&Path)) -> Session {
        Session::start_with_env(args, &[], setup)
    }

    /// [`Session::start`] with extra environment variables (the colour-related ones of the
    /// test's own environment are removed first, so runs do not depend on it).
    pub fn start_with_env(
        args: &[&str],
        env: &[(&str, &str)],
        setup: impl FnOnce(&Path),
    ) -> Session {
        Session::start_wrapped("", args, env, setup)
    }

    /// [`Session::start_with_env`] with the binary run under `wrapper` (a shell-quoted command
    /// prefix, such as `strace -o 'trace'`).
    pub fn start_wrapped(
        wrapper: &str,
        args: &[&str],
        env: &[(&str, &str)],
        setup: impl FnOnce(&Path),
    ) -> Session {
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        Session::start_script(
            |out| {
                format!(
                    "exec {wrapper} '{}' {} > '{}'",
                    env!("CARGO_BIN_EXE_pi-ask"),
                    quoted.join(" "),
                    out.display()
                )
            },
            env,
            setup,
        )
    }

    /// A shell script in the pty (`script` gets the path its standard output may go to), with
    /// HOME and the working directory in a temp dir as for [`Session::start`].
    pub fn start_script(
        script: impl FnOnce(&Path) -> String,
        env: &[(&str, &str)],
        setup: impl FnOnce(&Path),
    ) -> Session {
        let dir = tempfile::tempdir().unwrap();
        setup(dir.path());
        let out = dir.path().join("out.json");
        let script = script(&out);
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new("sh");
        cmd.args(["-c", &script]);
        cmd.env("HOME", dir.path());
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("PI_ASK_CONFIG");
        cmd.env_remove("PI_CODING_AGENT_DIR");
        cmd.env_remove("PI_ASK_HISTORY");
        for var in [
            "NO_COLOR",
            "COLORTERM",
            "COLORFGBG",
            "PI_ASK_THEME",
            "WT_SESSION",
        ] {
            cmd.env_remove(var);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.cwd(dir.path());
        let child = pty.slave.spawn_command(cmd).unwrap();
        drop(pty.slave);
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            std::num::NonZeroU16::new(ROWS).unwrap(),
            std::num::NonZeroU16::new(COLS).unwrap(),
            0,
        )));
        let mut reader = pty.master.try_clone_reader().unwrap();
        let writer = Arc::new(Mutex::new(pty.master.take_writer().unwrap()));
        let sink = screen.clone();
        let raw = Arc::new(Mutex::new(Vec::new()));
        let raw_sink = raw.clone();
        let answer = writer.clone();
        let drained = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let done = drained.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut parser = sink.lock().unwrap();
                // Answer cursor-position queries as a terminal does (vt100 only parses output).
                let mut rest = &buf[..n];
                while let Some(at) = rest.windows(4).position(|w| w == b"\x1b[6n") {
                    parser.process(&rest[..at + 4]);
                    let (row, col) = parser.screen().cursor_position();
                    let mut w = answer.lock().unwrap();
                    let _ = write!(w, "\x1b[{};{}R", row + 1, col + 1);
                    let _ = w.flush();
                    rest = &rest[at + 4..];
                }
                parser.process(rest);
                drop(parser);
                // Recorded once the screen shows it: output seen here is on the screen too.
                raw_sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
            // Every byte the program wrote is on the screen (its side of the pty is closed).
            done.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        Session {
            master: pty.master,
            writer,
            child,
            screen,
            raw,
            out,
            dir,
            drained,
        }
    }

    /// Waits (a moment at most) until the reader has taken the last output of a program that
    /// ended: what it drew last, such as leaving the alternate screen, is on the screen.
    fn drain(&self) {
        let start = Instant::now();
        while !self.drained.load(std::sync::atomic::Ordering::SeqCst)
            && start.elapsed() < Duration::from_secs(2)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn contents(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// Waits until the screen shows `text`.
    pub fn wait_for(&self, text: &str) {
        let start = Instant::now();
        while start.elapsed() < WAIT {
            if self.contents().contains(text) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("screen never showed {text:?}:\n{}", self.contents());
    }

    /// Waits up to 30 s until the screen shows `text` (another program's interface, slower to
    /// start and to act than pi-ask's).
    pub fn wait_long(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.contents().contains(text) {
            assert!(
                Instant::now() < deadline,
                "screen never showed {text:?}:\n{}",
                self.contents()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits up to 30 s until the screen no longer shows `text` (another program's interface).
    pub fn wait_long_gone(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.contents().contains(text) {
            assert!(
                Instant::now() < deadline,
                "screen kept showing {text:?}:\n{}",
                self.contents()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Resizes the terminal: the emulator's screen and the pty (which sends SIGWINCH).
    pub fn resize(&mut self, rows: u16, cols: u16) {
        self.screen.lock().unwrap().screen_mut().set_size(
            std::num::NonZeroU16::new(rows).unwrap(),
            std::num::NonZeroU16::new(cols).unwrap(),
        );
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
    }

    /// Writes raw bytes in one write (what a terminal delivers in one read when keys come fast),
    /// without waiting.
    pub fn write_raw(&mut self, bytes: &[u8]) {
        let mut writer = self.writer.lock().unwrap();
        writer.write_all(bytes).unwrap();
        writer.flush().unwrap();
    }

    /// The screen's rows, trailing spaces and trailing empty rows removed.
    pub fn rows(&self) -> Vec<String> {
        let mut rows: Vec<String> = self
            .contents()
            .lines()
            .map(|l| l.trim_end().to_owned())
            .collect();
        while rows.last().is_some_and(String::is_empty) {
            rows.pop();
        }
        rows
    }

    /// Waits until the screen's rows are `expected` (trailing empty rows aside); panics with
    /// both when they never are.
    pub fn wait_for_rows(&self, expected: &[String]) {
        let mut expected = expected.to_vec();
        while expected.last().is_some_and(String::is_empty) {
            expected.pop();
        }
        let start = Instant::now();
        while start.elapsed() < WAIT {
            if self.rows() == expected {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!(
            "the screen never became\n{}\n\nit is\n{}",
            expected.join("\n"),
            self.rows().join("\n")
        );
    }

    /// Types raw bytes, then waits until the program has acted on them (see [`Session::settle`]).
    pub fn send(&mut self, bytes: &str) {
        let before = self.raw.lock().unwrap().len();
        let mut writer = self.writer.lock().unwrap();
        writer.write_all(bytes.as_bytes()).unwrap();
        writer.flush().unwrap();
        drop(writer);
        self.settle(before);
    }

    /// Waits until the program has read what was typed (the terminal's input queue is empty)
    /// and drawn what it does about it (output after `before` bytes that ends a synchronized
    /// frame, or that stopped for a moment); at most [`SETTLE`] in all, since a key that means
    /// nothing draws nothing, and a program that is not reading yet reads later.
    fn settle(&self, before: usize) {
        let start = Instant::now();
        while self.pending_input().is_some_and(|n| n > 0) && start.elapsed() < SETTLE {
            std::thread::sleep(Duration::from_millis(1));
        }
        let (mut seen, mut changed) = (before, Instant::now());
        while start.elapsed() < SETTLE {
            let raw = self.raw.lock().unwrap();
            if raw.len() != seen {
                (seen, changed) = (raw.len(), Instant::now());
            }
            let drew = raw.len() > before;
            let frame_ended = raw.ends_with(b"\x1b[?2026l");
            drop(raw);
            if drew && (frame_ended || changed.elapsed() >= QUIET) {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// How many typed bytes the program has not read yet (`FIONREAD` on the terminal's own
    /// side, opened for the moment); `None` when it cannot be asked.
    fn pending_input(&self) -> Option<usize> {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::OpenOptionsExt;
        let name = self.master.tty_name()?;
        let tty = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOCTTY | libc::O_NONBLOCK)
            .open(name)
            .ok()?;
        let mut waiting: libc::c_int = 0;
        // SAFETY: FIONREAD writes one int through a valid pointer, on a descriptor this owns.
        let asked = unsafe { libc::ioctl(tty.as_raw_fd(), libc::FIONREAD, &mut waiting) };
        (asked == 0).then_some(waiting.max(0) as usize)
    }

    /// Waits for the process to end; returns its exit code.
    pub fn wait_exit(&mut self) -> u32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                self.drain();
                return status.exit_code();
            }
            assert!(
                start.elapsed() < WAIT,
                "the program did not exit:\n{}",
                self.contents()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The process's id.
    pub fn pid(&self) -> i32 {
        self.child.process_id().unwrap() as i32
    }

    /// Waits for the process to end; returns its exit code and the JSON it printed.
    pub fn finish(&mut self) -> (u32, serde_json::Value) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                self.drain();
                let text = std::fs::read_to_string(&self.out).unwrap_or_default();
                let json = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("no JSON ({e}): {text:?}"));
                return (status.exit_code(), json);
            }
            assert!(
                start.elapsed() < WAIT,
                "the program did not exit:\n{}",
                self.contents()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for the process to end; returns its exit code and what it printed on stdout.
    pub fn finish_text(&mut self) -> (u32, String) {
        let code = self.wait_exit();
        (code, std::fs::read_to_string(&self.out).unwrap_or_default())
    }

    /// `ICANON` and `ECHO` set: the terminal is back in cooked mode.
    pub fn cooked(&self) -> bool {
        let fd = self.master.as_raw_fd().unwrap();
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        assert_eq!(unsafe { libc::tcgetattr(fd, &mut t) }, 0);
        t.c_lflag & libc::ICANON != 0 && t.c_lflag & libc::ECHO != 0
    }
}

impl Drop for Session {
    /// A failed test must not leave the program running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // A host started here may have left a daemon running from its HOME (Codex's app-server).
        super::reap::kill_processes_under(self.dir.path());
    }
}
