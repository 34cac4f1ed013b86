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
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                raw_sink.lock().unwrap().extend_from_slice(&buf[..n]);
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
            }
        });
        Session {
            master: pty.master,
            writer,
            child,
            screen,
            raw,
            out,
            dir,
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

    /// Types raw bytes, then gives the program a moment to draw.
    pub fn send(&mut self, bytes: &str) {
        let mut writer = self.writer.lock().unwrap();
        writer.write_all(bytes.as_bytes()).unwrap();
        writer.flush().unwrap();
        drop(writer);
        std::thread::sleep(Duration::from_millis(60));
    }

    /// Waits for the process to end; returns its exit code.
    pub fn wait_exit(&mut self) -> u32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Let the reader thread take the last output.
                std::thread::sleep(Duration::from_millis(50));
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
    }
}
