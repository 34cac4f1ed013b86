//! Reading what a model command printed: one `ask_user` tool call in any of the common shapes,
//! else the arguments as raw JSON, else JSON in a fenced block.

use serde_json::Value;

/// The tool-call arguments found anywhere in a reply value, in order.
fn tool_calls(value: &Value, found: &mut Vec<Value>) {
    match value {
        Value::Object(map) => {
            let name = map
                .get("name")
                .or_else(|| map.get("function").and_then(|f| f.get("name")))
                .and_then(Value::as_str);
            if name == Some("ask_user") {
                let args = map
                    .get("arguments")
                    .or_else(|| map.get("input"))
                    .or_else(|| map.get("parameters"))
                    .or_else(|| map.get("function").and_then(|f| f.get("arguments")));
                if let Some(args) = args {
                    // OpenAI-style arguments are a JSON string.
                    let args = match args {
                        Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
                        other => other.clone(),
                    };
                    found.push(args);
                    return;
                }
            }
            for v in map.values() {
                tool_calls(v, found);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| tool_calls(v, found)),
        _ => {}
    }
}

/// Why a model's output holds no extraction candidate (fed back to the model on a retry).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoCandidate {
    /// The output is blank.
    #[error("model returned no text content")]
    Empty,
    /// JSON without an `ask_user` call or `questions`.
    #[error("the reply has no ask_user tool call and no questions")]
    NoCall,
    /// Several `ask_user` calls (how many).
    #[error("Expected exactly one ask_user tool call; received {0}.")]
    SeveralCalls(usize),
    /// Neither a tool call nor JSON anywhere in it.
    #[error("the reply is neither an ask_user tool call nor JSON")]
    NotJson,
}

/// A reply value as a candidate: exactly one `ask_user` call's arguments, or the value itself
/// when it already has `questions`.
fn from_value(value: Value) -> Result<Value, NoCandidate> {
    let mut calls = Vec::new();
    tool_calls(&value, &mut calls);
    match calls.len() {
        1 => Ok(calls.remove(0)),
        0 if value.get("questions").is_some() => Ok(value),
        0 => Err(NoCandidate::NoCall),
        n => Err(NoCandidate::SeveralCalls(n)),
    }
}

/// The JSON inside a fenced block (```json … ``` or ``` … ```), the first one that parses.
fn fenced(text: &str) -> Option<Value> {
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let body_start = after.find('\n').map_or(after.len(), |n| n + 1);
        let body = &after[body_start..];
        let end = body.find("```")?;
        if let Ok(value) = serde_json::from_str::<Value>(body[..end].trim()) {
            return Some(value);
        }
        rest = &body[end + 3..];
    }
    None
}

/// The outermost `{…}` of the text, when the model wrapped JSON in prose.
fn embedded_object(text: &str) -> Option<Value> {
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    (end > start)
        .then(|| serde_json::from_str(&text[start..=end]).ok())
        .flatten()
}

/// The extraction candidate in a command's output.
pub fn candidate_from_output(output: &str) -> Result<Value, NoCandidate> {
    let text = output.trim();
    if text.is_empty() {
        return Err(NoCandidate::Empty);
    }
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return from_value(value);
    }
    // JSON lines (a streaming CLI): the last line that holds a tool call or questions.
    let lines: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l.trim()).ok())
        .collect();
    if lines.len() > 1
        && let Some(found) = lines.into_iter().rev().find_map(|v| from_value(v).ok())
    {
        return Ok(found);
    }
    if let Some(value) = fenced(text).or_else(|| embedded_object(text)) {
        return from_value(value);
    }
    Err(NoCandidate::NotJson)
}
