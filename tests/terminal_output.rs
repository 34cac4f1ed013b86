//! What pi-ask writes to a terminal outside its form carries nothing that acts on it: JSON on a
//! terminal has C1 controls, separators and bidi overrides as `\uXXXX` escapes (serde_json
//! escapes only C0), and clap's usage errors quote what was typed made printable.

mod common;

use common::pty::Session;

/// A title that retitles a VT window (`OSC` as C1: U+009D … U+009C) and reverses text.
const PAYLOAD: &str = "{\"title\":\"T\u{9d}0;owned\u{9c} \u{202e}gnp.exe\",\"questions\":[{\"id\":\"q\",\"prompt\":\"P\u{2028}Q\",\"options\":[{\"value\":\"a\",\"label\":\"A\"}]}]}";

fn raw(s: &Session) -> Vec<u8> {
    s.raw.lock().unwrap().clone()
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn json_printed_on_a_terminal_escapes_c1_separators_and_bidi() {
    let bin = env!("CARGO_BIN_EXE_pi-ask");
    for command in [
        "validate payload.json",
        "ask --mode print payload.json",
        "prepare < payload.json",
    ] {
        let s = Session::start_script(
            |_| format!("'{bin}' {command}; echo done-$?"),
            &[],
            |dir| std::fs::write(dir.join("payload.json"), PAYLOAD).unwrap(),
        );
        s.wait_for("done-");
        let bytes = raw(&s);
        for c in ['\u{9d}', '\u{9c}', '\u{202e}', '\u{2028}'] {
            let mut utf8 = [0u8; 4];
            assert!(
                !contains(&bytes, c.encode_utf8(&mut utf8).as_bytes()),
                "{command}: U+{:04X} reached the terminal raw",
                c as u32
            );
        }
        assert!(
            contains(&bytes, b"\\u009d0;owned\\u009c"),
            "{command}: {}",
            s.contents()
        );
        assert!(contains(&bytes, b"\\u202egnp.exe"), "{command}");
    }
}

#[test]
fn json_into_a_pipe_is_serdes_own() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("payload.json"), PAYLOAD).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["validate", "payload.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("T\u{9d}0;owned\u{9c}"), "{text}");
}

#[test]
fn a_usage_error_quotes_what_was_typed_printable() {
    let bin = env!("CARGO_BIN_EXE_pi-ask");
    let s = Session::start_script(
        |_| format!("'{bin}' ask \"--x$(printf '\\033]52;c;aGk=\\007y')\"; echo done-$?"),
        &[],
        |_| {},
    );
    s.wait_for("done-2");
    let bytes = raw(&s);
    assert!(!contains(&bytes, b"\x1b]52"), "{}", s.contents());
    assert!(!contains(&bytes, b"\x07"));
    assert!(
        s.contents().contains("unexpected argument '--x"),
        "{}",
        s.contents()
    );
}
