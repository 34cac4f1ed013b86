//! The embed protocol's host messages: one JSON object per line, read strictly (an unknown type or
//! field is an error naming it, never guessed at). What the engine sends is built in
//! `super::messages`. The protocol is described, with a full exchange, in docs/embed.md.

use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;

use crate::stores::history::Source;

/// The protocol's version, sent in the `hello` line; a host refuses an engine older than the one
/// it was written for.
pub const PROTOCOL_VERSION: u32 = 1;

/// Widest and tallest frame drawn: a host may say more (the frame is then this size, which is
/// still never wider than the host's width).
pub const MAX_COLS: u16 = 1000;
/// See [`MAX_COLS`].
pub const MAX_ROWS: u16 = 500;

/// The longest host line read (an `open` carries the payload, or the session branch to look in).
/// The host is the program that started the engine, so this only bounds a mistake.
pub const MAX_HOST_LINE: usize = 64 * 1024 * 1024;

/// What the host opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FlowKind {
    /// The form, drawn as frames the host shows; keys come as raw terminal input.
    Ask,
    /// pi's portable dialogs as steps: a `select` or `input` card the host shows with its own
    /// dialogs, one at a time (pi's RPC mode).
    Dialogs,
    /// No UI at all (pi's print and JSON modes): the needs-input result at once.
    Fallback,
    /// The settings modal alone, drawn as frames.
    Settings,
}

/// A form to find on the session's branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Find {
    /// The newest `ask_user` form (`/ask:replay`): its stored payload, else the call's arguments.
    Replay,
    /// The newest `ask_user` call with neither a result nor a dismissal (recovery on start).
    Resume,
    /// The newest extracted form (`/answer:again`).
    AnswerAgain,
    /// The questions of the latest assistant message, extracted into a form (`/answer`).
    Answer,
}

/// Who runs the model that extracts questions for `find: "answer"`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Extractor {
    /// The engine: the config's `[answer] extractor` command, else the built-in extractor.
    #[default]
    Engine,
    /// The host, with its own model: the engine sends `extract` requests, the host answers
    /// each with `extracted`.
    Host,
}

/// The first message: what to open and how.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Open {
    /// Which flow to run.
    pub flow: FlowKind,
    /// The `ask_user` payload (every flow but `settings`), or `find` and `branch` instead.
    #[serde(default)]
    pub payload: Option<Value>,
    /// Which form to look for on `branch` instead of a payload (the original's rules).
    #[serde(default)]
    pub find: Option<Find>,
    /// The session's current branch, root first, as pi's `getBranch()` gives its entries.
    #[serde(default)]
    pub branch: Option<Vec<Value>>,
    /// Tool calls whose `execute` runs in the host right now: `find: "resume"` never reopens
    /// one (a live call gets its result from its own form, not from a recovered copy).
    #[serde(default)]
    pub running: Vec<String>,
    /// Who extracts questions for `find: "answer"`.
    #[serde(default)]
    pub extractor: Extractor,
    /// Columns the frames may use.
    #[serde(default = "default_width")]
    pub width: u16,
    /// Rows the host has (the terminal's): a frame is as tall as the form wants, at most this.
    #[serde(default = "default_height")]
    pub height: u16,
    /// Where `@` file suggestions come from (default: the engine's working directory).
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    /// The config file (default: as for `pi-ask ask`: `$PI_ASK_CONFIG`, else the standard one).
    #[serde(default)]
    pub config: Option<PathBuf>,
    /// The host's theme, as the config's `[theme]` section: `{"name":"light","colors":{...}}`.
    #[serde(default)]
    pub theme: Option<Value>,
    /// What opened the ask (`tool`, `answer`, `answer:again`, `ask:replay`, `ask:resume`).
    #[serde(default)]
    pub source: Option<String>,
    /// The tool call the ask answers (the remote events' `flowId` is `tool:<id>`).
    #[serde(default)]
    pub tool_call_id: Option<String>,
    /// A zero-width string the host wants at the cursor's place in the frame (pi's
    /// `CURSOR_MARKER`), inserted where an editor has focus.
    #[serde(default)]
    pub cursor_marker: Option<String>,
}

fn default_width() -> u16 {
    80
}

fn default_height() -> u16 {
    24
}

/// A reply to a dialog step: the value chosen or typed, or dismissed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StepReply {
    /// The step's id.
    pub id: String,
    #[serde(default)]
    /// The option chosen or the text typed.
    pub value: Option<String>,
    #[serde(default)]
    /// The person dismissed the step.
    pub cancelled: bool,
}

/// One line from the host.
#[derive(Debug, Clone)]
pub enum HostMessage {
    /// Start a flow (the first message).
    Open(Box<Open>),
    /// Raw terminal input, exactly as the terminal delivered it (`"\u001b[B"` is Down).
    Input(String),
    /// The host's area changed size.
    Resize {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// The host gave up on the ask (pi's tool abort): it ends cancelled with what was entered.
    Abort,
    /// What the host's terminal reports: `shiftEnter` when it tells Shift+Enter from Enter (the
    /// kitty keyboard protocol); the footer then names Shift+Enter for a new line.
    Keyboard {
        /// Shift+Enter arrives as itself.
        shift_enter: bool,
    },
    /// A remote submit (the `@geoqiao/pi-ask:submit` event), validated by the engine.
    Submit(Value),
    /// The answer to a dialog step.
    Reply(StepReply),
    /// What the host's model said to an `extract` request.
    Extracted(ExtractReply),
    /// The text the person saved in their own editor for an `edit` request (none: the editor
    /// failed or was quit without saving; the form's text stays).
    Edited {
        /// The `edit` request's id.
        id: String,
        /// The saved text.
        text: Option<String>,
    },
}

/// The host's answer to an `extract` request: the model's output (a tool call's arguments as
/// JSON, or its text), or why there is none.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExtractReply {
    /// The `extract` request's id.
    pub id: String,
    #[serde(default)]
    /// The model's output.
    pub output: Option<String>,
    #[serde(default)]
    /// Why there is no output.
    pub error: Option<String>,
}

/// The host messages other than `open` and `submit`, as serde reads them.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
enum Plain {
    Input {
        data: String,
    },
    Resize {
        width: u16,
        height: u16,
    },
    Abort {},
    #[serde(rename_all = "camelCase")]
    Keyboard {
        shift_enter: bool,
    },
    Reply(StepReply),
    Extracted(ExtractReply),
    Edited {
        id: String,
        #[serde(default)]
        text: Option<String>,
    },
}

/// Why a host line was refused (the engine says so in an `error` line and goes on).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    #[error("not a JSON object: {0}")]
    /// The line is not JSON, or not an object.
    NotJson(String),
    #[error(
        "a message needs a \"type\" (open, input, resize, abort, keyboard, submit, reply, extracted or edited)"
    )]
    /// The object has no `type`.
    NoType,
    #[error(
        "unknown message type {0:?} (open, input, resize, abort, keyboard, submit, reply, extracted or edited)"
    )]
    /// The `type` is none the engine knows.
    UnknownType(String),
    /// A message of a known type that does not read (a missing or unknown field, a bad value).
    #[error("invalid {kind} message: {why}")]
    Invalid {
        /// The message's type.
        kind: String,
        /// What is wrong with it.
        why: String,
    },
}

/// Reads one host line.
pub fn parse(line: &str) -> Result<HostMessage, ProtocolError> {
    let value: Value =
        serde_json::from_str(line).map_err(|e| ProtocolError::NotJson(e.to_string()))?;
    let Some(object) = value.as_object() else {
        return Err(ProtocolError::NotJson(format!(
            "a JSON {}",
            kind_of(&value)
        )));
    };
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind.clone(),
        _ => return Err(ProtocolError::NoType),
    };
    let invalid = |why: serde_json::Error| ProtocolError::Invalid {
        kind: kind.clone(),
        why: why.to_string(),
    };
    match kind.as_str() {
        "open" => {
            let mut fields = object.clone();
            fields.remove("type");
            let open: Open = serde_json::from_value(Value::Object(fields)).map_err(invalid)?;
            if open.payload.is_some() && open.find.is_some() {
                return Err(ProtocolError::Invalid {
                    kind,
                    why: "give a payload or find, not both".into(),
                });
            }
            if let Some(source) = &open.source
                && Source::from_name(source).is_none()
            {
                let names: Vec<&str> = Source::ALL.iter().map(|s| s.as_str()).collect();
                return Err(ProtocolError::Invalid {
                    kind,
                    why: format!("source {source:?} is not one of {}", names.join(", ")),
                });
            }
            Ok(HostMessage::Open(Box::new(open)))
        }
        "submit" => Ok(HostMessage::Submit(value)),
        "input" | "resize" | "abort" | "keyboard" | "reply" | "extracted" | "edited" => Ok(
            match serde_json::from_value::<Plain>(value).map_err(invalid)? {
                Plain::Input { data } => HostMessage::Input(data),
                Plain::Resize { width, height } => HostMessage::Resize { width, height },
                Plain::Abort {} => HostMessage::Abort,
                Plain::Keyboard { shift_enter } => HostMessage::Keyboard { shift_enter },
                Plain::Reply(reply) => HostMessage::Reply(reply),
                Plain::Extracted(reply) => HostMessage::Extracted(reply),
                Plain::Edited { id, text } => HostMessage::Edited { id, text },
            },
        ),
        _ => Err(ProtocolError::UnknownType(kind)),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_message_kind_reads() {
        assert!(matches!(
            parse(r#"{"type":"open","flow":"ask","payload":{},"width":40,"height":10}"#),
            Ok(HostMessage::Open(o)) if o.flow == FlowKind::Ask && o.width == 40
        ));
        assert!(matches!(
            parse(r#"{"type":"input","data":"\u001b[B"}"#),
            Ok(HostMessage::Input(d)) if d == "\x1b[B"
        ));
        assert!(matches!(
            parse(r#"{"type":"resize","width":1,"height":1}"#),
            Ok(HostMessage::Resize {
                width: 1,
                height: 1
            })
        ));
        assert!(matches!(
            parse(r#"{"type":"abort"}"#),
            Ok(HostMessage::Abort)
        ));
        assert!(matches!(
            parse(r#"{"type":"keyboard","shiftEnter":true}"#),
            Ok(HostMessage::Keyboard { shift_enter: true })
        ));
        assert!(matches!(
            parse(r#"{"type":"reply","id":"s1","cancelled":true}"#),
            Ok(HostMessage::Reply(StepReply {
                cancelled: true,
                ..
            }))
        ));
        assert!(matches!(
            parse(r#"{"type":"submit","version":1}"#),
            Ok(HostMessage::Submit(_))
        ));
    }

    #[test]
    fn bad_lines_are_named() {
        assert!(matches!(parse("nope"), Err(ProtocolError::NotJson(_))));
        assert_eq!(
            parse("[1]").unwrap_err().to_string(),
            "not a JSON object: a JSON array"
        );
        assert_eq!(parse("{}").unwrap_err(), ProtocolError::NoType);
        assert_eq!(
            parse(r#"{"type":"dance"}"#).unwrap_err(),
            ProtocolError::UnknownType("dance".into())
        );
        let unknown = parse(r#"{"type":"input","data":"x","extra":1}"#).unwrap_err();
        assert!(
            unknown.to_string().contains("unknown field `extra`"),
            "{unknown}"
        );
        let wide = parse(r#"{"type":"resize","width":70000,"height":1}"#).unwrap_err();
        assert!(
            wide.to_string().starts_with("invalid resize message"),
            "{wide}"
        );
        let source = parse(r#"{"type":"open","flow":"ask","source":"elsewhere"}"#).unwrap_err();
        assert!(source.to_string().contains("tool, answer"), "{source}");
        let flow = parse(r#"{"type":"open","flow":"dance"}"#).unwrap_err();
        assert!(
            flow.to_string().contains("unknown variant `dance`"),
            "{flow}"
        );
    }
}
