//! What the engine sends the host, one JSON object per line.

use serde_json::{Value, json};

use super::protocol::PROTOCOL_VERSION;
use crate::result::AskResult;

/// The first line: the engine is ready and speaks this protocol.
pub fn hello() -> Value {
    json!({
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "version": env!("CARGO_PKG_VERSION"),
    })
}

/// A frame: the lines to show (none wider than `width`), and where the cursor is when an editor
/// has focus.
pub fn frame(width: u16, lines: &[String], cursor: Option<(u16, u16)>) -> Value {
    json!({
        "type": "frame",
        "width": width,
        "lines": lines,
        "cursor": cursor.map(|(row, col)| json!({"row": row, "col": col})),
    })
}

/// The flow's "question waiting" notification: `terminal` holds the bytes its terminal channels
/// write (bell, OSC 9/777), for the host to write to the terminal it owns; command channels the
/// engine has run itself.
pub fn notify(title: &str, message: &str, terminal: &str) -> Value {
    json!({
        "type": "notify",
        "title": title,
        "message": message,
        "terminal": terminal,
    })
}

/// A dialog step: a `select` card (`options`) or an `input` card (`placeholder`).
pub fn step(id: &str, dialog: &str, mut fields: Value) -> Value {
    let mut out = json!({"type": "step", "id": id, "dialog": dialog});
    if let (Some(out), Some(fields)) = (out.as_object_mut(), fields.as_object_mut()) {
        out.append(fields);
    }
    out
}

/// The last line of a flow: its result, and the transcript rendering of it (what a host shows
/// under the tool call), already safe to print.
pub fn result(result: &AskResult) -> Value {
    json!({
        "type": "result",
        "result": result,
        "transcript": transcript(result),
    })
}

/// The transcript rendering of a result, each line made printable (labels and notes come from
/// the payload and the person).
pub fn transcript(result: &AskResult) -> String {
    crate::result::render_transcript(&result.details)
        .lines()
        .map(crate::printable::printable)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The settings modal closed.
pub fn closed() -> Value {
    json!({"type": "closed"})
}

/// A host line the engine refused, or a problem it reports; the flow goes on. Made printable
/// here, once: messages quote host lines, payload text and paths, and hosts show them.
pub fn error(message: &str) -> Value {
    json!({"type": "error", "message": crate::printable::printable(message)})
}

/// Something for the host to tell the person (`info`, `warning` or `error`), as pi's `notify`.
pub fn notice(level: &str, message: &str) -> Value {
    json!({"type": "notice", "level": level, "message": crate::printable::printable(message)})
}

/// A session entry for the host to append (`ask:payload` before a form opens,
/// `ask:pending-dismissed` when a recovered form ends).
pub fn store(custom_type: &str, data: Value) -> Value {
    json!({"type": "store", "customType": custom_type, "data": data})
}

/// Text for the host to send on as the person's message (an answered replay, recovery or
/// `/answer` form, whose tool call is gone or never was).
pub fn deliver(text: &str) -> Value {
    json!({"type": "deliver", "text": text})
}
