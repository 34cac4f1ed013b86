//! Driving `pi-ask embed` in process: the host's lines in, the engine's lines out, and frames
//! read as plain text.

use std::sync::mpsc;

use pi_ask::drivers::embed;
use pi_ask::lines::Line;
use serde_json::Value;

/// Runs one embed session on `input` (the host's lines, then the end of its input) and returns
/// every line the engine sent.
pub fn exchange(input: &[Value]) -> Vec<Value> {
    let (tx, rx) = mpsc::channel();
    for value in input {
        tx.send(Line::Text(value.to_string().into_bytes())).unwrap();
    }
    drop(tx);
    let mut out = Vec::new();
    embed::run(rx, &mut out).expect("the engine writes to memory");
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every engine line is JSON"))
        .collect()
}

pub fn of_type<'a>(out: &'a [Value], kind: &str) -> Vec<&'a Value> {
    out.iter().filter(|v| v["type"] == kind).collect()
}

pub fn last_frame(out: &[Value]) -> &Value {
    of_type(out, "frame").pop().expect("a frame was sent")
}

/// A frame's lines without their styles, as the harness reads a screen.
pub fn plain(frame: &Value) -> Vec<String> {
    frame["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| strip(l.as_str().unwrap()).trim_end().to_owned())
        .collect()
}

pub fn strip(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            match chars.next() {
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                }
                _ => {
                    for c in chars.by_ref() {
                        if c == '\x07' {
                            break;
                        }
                    }
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
