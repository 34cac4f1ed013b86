//! A host's JSON settings file changed in its text, not rewritten: what pi-ask changes (its hook
//! entries, its allow rule, its MCP server) is found by comparing the file's value before and
//! after, and only those members and elements are edited in the file's syntax tree. Everything
//! else keeps its bytes: numbers as written (`1.10`, `-0`, integers past 2^53), a duplicate key,
//! compact or indented layout.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstRootNode};
use serde_json::Value;

/// Why a file's text could not be edited in place.
#[derive(Debug, thiserror::Error)]
pub enum NotEditable {
    /// The text does not parse as JSON (comments allowed).
    #[error("it does not parse ({0})")]
    Parse(String),
    /// The edit would not give the value meant (a key the file has twice, say).
    #[error("an edit in place would not give the settings meant; fix the file by hand")]
    Mismatch,
}

/// `text` (whose value is `old`) changed so that its value is `new`, editing only what differs.
pub fn edited(text: &str, old: &Value, new: &Value) -> Result<String, NotEditable> {
    if old == new {
        return Ok(text.to_owned());
    }
    if text.trim().is_empty() {
        return Ok(serde_json::to_string_pretty(new).unwrap_or_default() + "\n");
    }
    let root = CstRootNode::parse(text, &ParseOptions::default())
        .map_err(|e| NotEditable::Parse(e.to_string()))?;
    match root.value() {
        Some(node) => patch(&node, old, new, &|value| root.set_value(value)),
        None => root.set_value(input(new)),
    }
    let out = root.to_string();
    // What was written must read back as what was meant.
    match serde_json::from_str::<Value>(&out) {
        Ok(back) if back == *new => Ok(out),
        _ => Err(NotEditable::Mismatch),
    }
}

fn patch(node: &CstNode, old: &Value, new: &Value, replace: &dyn Fn(CstInputValue)) {
    if old == new {
        return;
    }
    match (old, new, node.as_object(), node.as_array()) {
        (Value::Object(o), Value::Object(n), Some(object), _) => patch_object(&object, o, n),
        (Value::Array(o), Value::Array(n), _, Some(array)) => patch_array(&array, o, n, replace),
        _ => replace(input(new)),
    }
}

fn patch_object(
    object: &CstObject,
    old: &serde_json::Map<String, Value>,
    new: &serde_json::Map<String, Value>,
) {
    for key in old.keys().filter(|k| !new.contains_key(*k)) {
        if let Some(prop) = object.get(key) {
            prop.remove();
        }
    }
    for (key, value) in new {
        match (old.get(key), object.get(key)) {
            (Some(before), Some(prop)) if before != value => match prop.value() {
                Some(node) => patch(&node, before, value, &|v| prop.set_value(v)),
                None => prop.set_value(input(value)),
            },
            (Some(_), Some(_)) => {}
            _ => {
                object.append(key, input(value));
            }
        }
    }
}

fn patch_array(array: &CstArray, old: &[Value], new: &[Value], replace: &dyn Fn(CstInputValue)) {
    let elements = array.elements();
    if elements.len() != old.len() {
        return replace(input(&Value::Array(new.to_vec())));
    }
    // Appended at the end (a hook entry, an allow rule).
    if new.len() >= old.len() && new[..old.len()] == *old {
        for value in &new[old.len()..] {
            array.append(input(value));
        }
        return;
    }
    // Some taken out, the rest in order (pi-ask's entries removed).
    if let Some(kept) = kept_in_order(old, new) {
        for (element, keep) in elements.into_iter().zip(kept).rev() {
            if !keep {
                element.remove();
            }
        }
        return;
    }
    // As many, some changed (an entry of pi-ask's edited in place).
    if old.len() == new.len() {
        for (n, (element, (before, after))) in
            elements.into_iter().zip(old.iter().zip(new)).enumerate()
        {
            let at = n;
            patch(&element, before, after, &|v| {
                if let Some(element) = array.elements().get(at).cloned() {
                    element.remove();
                }
                array.insert(at, v);
            });
        }
        return;
    }
    replace(input(&Value::Array(new.to_vec())));
}

/// Which of `old` stay when `new` is `old` with some taken out (`None` when it is not).
fn kept_in_order(old: &[Value], new: &[Value]) -> Option<Vec<bool>> {
    let mut kept = vec![false; old.len()];
    let mut next = new.iter().peekable();
    for (n, value) in old.iter().enumerate() {
        if next.peek() == Some(&value) {
            kept[n] = true;
            next.next();
        }
    }
    next.peek().is_none().then_some(kept)
}

fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn edit(text: &str, change: impl FnOnce(&mut Value)) -> String {
        let old: Value = serde_json::from_str(text).unwrap();
        let mut new = old.clone();
        change(&mut new);
        edited(text, &old, &new).unwrap()
    }

    #[test]
    fn what_pi_ask_does_not_own_keeps_its_bytes() {
        let text =
            "{\"big\":12345678901234567890,\"v\":1.10,\"z\":-0,\"d\":1,\"d\":2,\"hooks\":{}}";
        let added = edit(text, |v| {
            v["hooks"]["PreToolUse"] = json!([{"matcher": "AskUserQuestion"}]);
        });
        assert!(
            added.starts_with("{\"big\":12345678901234567890,\"v\":1.10,\"z\":-0,\"d\":1,\"d\":2,"),
            "{added}"
        );
        let old: Value = serde_json::from_str(&added).unwrap();
        let mut back = old.clone();
        back["hooks"].as_object_mut().unwrap().remove("PreToolUse");
        let removed = edited(&added, &old, &back).unwrap();
        assert!(
            removed.contains("12345678901234567890") && removed.contains("1.10"),
            "{removed}"
        );
        assert!(!removed.contains("PreToolUse"), "{removed}");
    }

    #[test]
    fn an_element_is_appended_and_taken_out_in_place() {
        let text = "{\n  \"permissions\": {\n    \"allow\": [\"Bash(ls)\", \"Read\"]\n  }\n}\n";
        let added = edit(text, |v| {
            v["permissions"]["allow"]
                .as_array_mut()
                .unwrap()
                .push(json!("mcp__pi-ask__ask_user"));
        });
        assert!(added.contains("\"Bash(ls)\", \"Read\""), "{added}");
        let old: Value = serde_json::from_str(&added).unwrap();
        let mut back = old.clone();
        back["permissions"]["allow"].as_array_mut().unwrap().pop();
        assert_eq!(edited(&added, &old, &back).unwrap(), text);
    }

    #[test]
    fn an_empty_file_gets_the_value_and_a_new_key_goes_at_the_end() {
        assert_eq!(
            edited("", &json!({}), &json!({"a": 1})).unwrap(),
            "{\n  \"a\": 1\n}\n"
        );
        let out = edit("{\"keep\": true}", |v| {
            v["mcpServers"] = json!({"pi-ask": {"command": "x"}})
        });
        // An object put in makes its parent span lines; the member before keeps its text.
        assert!(out.contains("\"keep\": true,"), "{out}");
        assert_eq!(
            serde_json::from_str::<Value>(&out).unwrap()["mcpServers"]["pi-ask"]["command"],
            "x"
        );
    }
}
