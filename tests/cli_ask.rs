//! `pi-ask ask` run as a script would: bad options are refused before any form opens, and a
//! result is never silently lost.

use std::process::{Command, Stdio};

const PAYLOAD: &str = r#"{"questions":[{"id":"a","prompt":"P","options":[{"value":"x"}]}]}"#;

fn fixture(name: &str) -> String {
    format!("{}/fixtures/payloads/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary with HOME in a fresh temp dir, no terminal needed.
fn run(args: &[&str]) -> (i32, String, String) {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(args)
        .env("HOME", home.path())
        .stdin(Stdio::null())
        .output()
        .expect("binary starts");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn dialog_timeouts_outside_one_millisecond_to_one_day_are_refused_clearly() {
    let payload = fixture("planning.json");
    for bad in ["0", "NaN", "1e300", "0.0001", "-1", "86401", "inf"] {
        let (code, out, err) = run(&[
            "ask",
            "--mode",
            "rpc",
            "--payload",
            &payload,
            &format!("--dialog-timeout={bad}"),
        ]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(out.is_empty(), "{bad}: nothing is asked: {out}");
        assert!(
            err.contains("--dialog-timeout must be between 0.001 and 86400 seconds"),
            "{bad}: {err}"
        );
    }
}

#[test]
fn an_output_file_that_cannot_be_created_is_refused_before_the_form_opens() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("missing-dir/answers.json");
    let payload = dir.path().join("p.json");
    std::fs::write(&payload, PAYLOAD).unwrap();
    for mode in ["tui", "print", "rpc"] {
        let (code, out, err) = run(&[
            "ask",
            "--mode",
            mode,
            "--output",
            target.to_str().unwrap(),
            "--payload",
            payload.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{mode}: {err}");
        assert!(out.is_empty(), "{mode}: no result, no dialog: {out}");
        assert!(err.contains(target.to_str().unwrap()), "{mode}: {err}");
        assert!(err.contains("cannot write the result to"), "{mode}: {err}");
    }
    assert!(!target.exists());
}

#[test]
fn a_checked_output_file_still_receives_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("answers.json");
    let (code, out, _) = run(&[
        "ask",
        "--mode",
        "print",
        "--output",
        target.to_str().unwrap(),
        &fixture("planning.json"),
    ]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    assert_eq!(v["details"]["cancelled"], true);
    assert!(
        v["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Needs user input")
    );
}

#[test]
fn a_closed_stdout_is_an_error_not_a_silent_success() {
    let home = tempfile::tempdir().unwrap();
    let script = format!(
        "exec {} ask --mode print {} >&-",
        env!("CARGO_BIN_EXE_pi-ask"),
        fixture("planning.json")
    );
    let out = Command::new("sh")
        .args(["-c", &script])
        .env("HOME", home.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("standard output is closed"), "{err}");
}

#[test]
fn ask_help_lists_every_mode() {
    let (code, out, _) = run(&["ask", "--help"]);
    assert_eq!(code, 0);
    for mode in ["tui", "rpc", "print", "json"] {
        assert!(out.contains(mode), "{mode} missing from:\n{out}");
    }
    assert!(out.contains("rpc (pi's dialogs"), "{out}");
}

/// `--output` at a planted link: the result replaces the link (a rename over the name), never
/// the file it points to.
#[test]
fn an_output_path_that_is_a_link_is_replaced_not_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let target = dir.path().join("answers.json");
    std::os::unix::fs::symlink(&victim, &target).unwrap();
    let (code, _, err) = run(&[
        "ask",
        "--mode",
        "print",
        "--output",
        target.to_str().unwrap(),
        &fixture("planning.json"),
    ]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    let meta = std::fs::symlink_metadata(&target).unwrap();
    assert!(meta.is_file(), "the link itself was replaced by the result");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    assert_eq!(v["details"]["cancelled"], true);
}

/// In a folder others can write (a sticky /tmp), `--output` must name the user's own file;
/// a new name there is refused before anything is asked. A pipe still works.
#[test]
fn an_output_in_a_folder_others_can_write_must_be_the_users_own_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let shared = dir.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let new_name = shared.join("answers.json");
    let (code, out, err) = run(&[
        "ask",
        "--mode",
        "print",
        "--output",
        new_name.to_str().unwrap(),
        &fixture("planning.json"),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("its folder can be written by others"), "{err}");
    assert!(!new_name.exists());

    let own = shared.join("mine.json");
    std::fs::write(&own, "").unwrap();
    let (code, _, err) = run(&[
        "ask",
        "--mode",
        "print",
        "--output",
        own.to_str().unwrap(),
        &fixture("planning.json"),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        std::fs::read_to_string(&own)
            .unwrap()
            .contains("Needs user input")
    );

    let (code, out, err) = run(&[
        "ask",
        "--mode",
        "print",
        "--output",
        "/dev/null",
        &fixture("planning.json"),
    ]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device(),
        "a device is written through, never replaced"
    );
}
