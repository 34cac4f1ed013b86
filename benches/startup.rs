//! Time from starting `pi-ask demo` in a pseudo-terminal to its first frame on the screen.

use std::io::Read;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

fn binary() -> std::path::PathBuf {
    // The bench lives in target/<profile>/deps; the binary in target/<profile>.
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().join("pi-ask")
}

fn first_frame(home: &std::path::Path) -> Duration {
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 30,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(binary());
    cmd.arg("demo");
    cmd.env("HOME", home);
    cmd.env("TERM", "xterm-256color");
    let start = Instant::now();
    let mut child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let size = std::num::NonZeroU16::new;
    let mut screen = vt100::Parser::new(size(30).unwrap(), size(100).unwrap(), 0);
    let mut buf = [0u8; 4096];
    // The first frame is drawn when the demo's first prompt shows on the emulated screen.
    let elapsed = loop {
        let n = reader.read(&mut buf).unwrap();
        assert!(n > 0, "the program ended before drawing");
        screen.process(&buf[..n]);
        if screen.screen().contents().contains("Single-select demo") {
            break start.elapsed();
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no first frame within 10 s"
        );
    };
    child.kill().unwrap();
    let _ = child.wait();
    elapsed
}

fn startup(c: &mut Criterion) {
    let home = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("startup");
    group.sample_size(30);
    group.bench_function("demo_first_frame", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| first_frame(home.path())).sum())
    });
    group.finish();
}

criterion_group!(benches, startup);
criterion_main!(benches);
