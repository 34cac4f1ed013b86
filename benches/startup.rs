//! Time from starting a program in a pseudo-terminal to its first frame on the emulated screen:
//! this tree's `pi-ask demo`, side by side in the same run with
//! - another build's binary named by `PI_ASK_BENCH_BEFORE` (a before/after comparison), and
//! - fzf on three lines, when fzf is installed: the first frame a fast terminal picker sets, and
//! - `echo`, the floor: what starting any program and reading its first output costs here.
//!
//! `cargo bench --bench startup`; `PI_ASK_BENCH_BEFORE=/path/to/old/pi-ask cargo bench --bench
//! startup` adds the old build.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const ROWS: u16 = 30;
const COLS: u16 = 100;

fn binary() -> PathBuf {
    // The bench lives in target/<profile>/deps; the binary in target/<profile>.
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().join("pi-ask")
}

/// A program to start and the text its first frame shows.
struct Program {
    argv: Vec<String>,
    first_frame_shows: &'static str,
}

impl Program {
    fn demo(binary: &Path) -> Program {
        Program {
            argv: vec![binary.display().to_string(), "demo".into()],
            first_frame_shows: "Single-select demo",
        }
    }

    /// fzf over three lines, drawn inline like the form (its input comes through a pipe, as fzf
    /// is used).
    /// The floor every program pays in this harness: spawned in the pty, one line read back.
    fn echo() -> Program {
        Program {
            argv: vec!["echo".into(), "first output".into()],
            first_frame_shows: "first output",
        }
    }

    fn fzf() -> Program {
        Program {
            argv: vec![
                "sh".into(),
                "-c".into(),
                "printf 'Postgres\\nSQLite\\nMySQL\\n' | fzf --height=12".into(),
            ],
            first_frame_shows: "3/3",
        }
    }
}

fn first_frame(program: &Program, home: &Path) -> Duration {
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(&program.argv[0]);
    cmd.args(&program.argv[1..]);
    cmd.env("HOME", home);
    cmd.env("TERM", "xterm-256color");
    let start = Instant::now();
    let mut child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let mut writer = pty.master.take_writer().unwrap();
    let size = std::num::NonZeroU16::new;
    let mut screen = vt100::Parser::new(size(ROWS).unwrap(), size(COLS).unwrap(), 0);
    let mut buf = [0u8; 4096];
    let elapsed = loop {
        let n = reader.read(&mut buf).unwrap();
        assert!(n > 0, "{:?} ended before drawing", program.argv);
        screen.process(&buf[..n]);
        // Both programs ask where the cursor is; the emulator answers as a terminal would.
        if buf[..n].windows(4).any(|w| w == b"\x1b[6n") {
            let (row, col) = screen.screen().cursor_position();
            let _ = std::io::Write::write_all(
                &mut writer,
                format!("\x1b[{};{}R", row + 1, col + 1).as_bytes(),
            );
        }
        if screen
            .screen()
            .contents()
            .contains(program.first_frame_shows)
        {
            break start.elapsed();
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no first frame of {:?} within 10 s",
            program.argv
        );
    };
    child.kill().unwrap();
    let _ = child.wait();
    elapsed
}

fn startup(c: &mut Criterion) {
    let home = tempfile::tempdir().unwrap();
    let mut programs = vec![
        ("demo_first_frame", Program::demo(&binary())),
        ("echo_first_output", Program::echo()),
    ];
    if let Some(before) = std::env::var_os("PI_ASK_BENCH_BEFORE") {
        programs.push(("before_demo_first_frame", Program::demo(Path::new(&before))));
    }
    let fzf_installed = std::process::Command::new("fzf")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if fzf_installed {
        programs.push(("fzf_first_frame", Program::fzf()));
    }
    let mut group = c.benchmark_group("startup");
    group.sample_size(30);
    for (name, program) in &programs {
        group.bench_function(*name, |b| {
            b.iter_custom(|iters| (0..iters).map(|_| first_frame(program, home.path())).sum())
        });
    }
    group.finish();
}

criterion_group!(benches, startup);
criterion_main!(benches);
