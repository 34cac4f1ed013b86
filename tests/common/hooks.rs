//! `pi-ask hook <host>` run as an agent host runs it: HOME a test's folder, the hook event on
//! standard input (then closed), standard output and error kept.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The hook for `host` (`claude`, `codex`, `gemini`) with `extra` arguments, started with `event`
/// on its standard input.
pub fn start(host: &str, home: &Path, extra: &[&str], event: &Value) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["hook", host])
        .args(extra)
        .env("HOME", home)
        .env_remove("PI_ASK_QUEUE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(event.to_string().as_bytes())
        .unwrap();
    child
}

/// Asserts the hook fails open at once with nothing watching: exit 0, nothing on standard output
/// (the host then asks its own way), `said` on standard error, within 5 s.
pub fn assert_silent(host: &str, home: &Path, extra: &[&str], event: &Value, said: &str) {
    let started = Instant::now();
    let out = start(host, home, extra, event).wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(said), "{stderr}");
    assert!(started.elapsed() < Duration::from_secs(5));
}
