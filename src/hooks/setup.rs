//! `pi-ask setup claude`: the hook entry in Claude Code's settings, added or removed without
//! touching anything else in the file (its other keys and hooks, their order). Pure: the command
//! reads and writes the file.

use serde_json::{Value, json};

/// What registering or removing did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The file changed.
    Changed,
    /// It was already so: nothing to write.
    AlreadySo,
}

/// Why the settings cannot take the entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unfit {
    /// A part of the settings the entry goes in is not what Claude Code writes there.
    #[error("{0} in the settings is not {1}; fix it by hand, pi-ask leaves the file as it is")]
    Shape(&'static str, &'static str),
}

/// Whether a hook entry is pi-ask's (a command running `pi-ask … hook claude`).
fn is_ours(hook: &Value) -> bool {
    hook.get("command")
        .and_then(Value::as_str)
        .is_some_and(|c| c.contains("pi-ask") && c.contains("hook claude"))
}

/// The `PreToolUse` list of `settings`, made when missing.
fn pre_tool_use(settings: &mut Value) -> Result<&mut Vec<Value>, Unfit> {
    let root = settings
        .as_object_mut()
        .ok_or(Unfit::Shape("the file", "a JSON object"))?;
    let hooks = root
        .entry("hooks")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or(Unfit::Shape("\"hooks\"", "an object"))?;
    hooks
        .entry("PreToolUse")
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .ok_or(Unfit::Shape("\"hooks.PreToolUse\"", "a list"))
}

/// `settings` with pi-ask's hook for `AskUserQuestion` running `command` (waiting up to
/// `timeout` seconds), unless one is there.
pub fn register(settings: &mut Value, command: &str, timeout: u64) -> Result<Change, Unfit> {
    let entries = pre_tool_use(settings)?;
    let present = entries.iter().any(|entry| {
        entry
            .get("hooks")
            .and_then(Value::as_array)
            .is_some_and(|hooks| hooks.iter().any(is_ours))
    });
    if present {
        return Ok(Change::AlreadySo);
    }
    entries.push(json!({
        "matcher": "AskUserQuestion",
        "hooks": [{"type": "command", "command": command, "timeout": timeout}],
    }));
    Ok(Change::Changed)
}

/// `settings` without pi-ask's hook (an entry left with no hooks goes too; others stay).
pub fn unregister(settings: &mut Value) -> Result<Change, Unfit> {
    let Some(entries) = settings
        .pointer_mut("/hooks/PreToolUse")
        .and_then(Value::as_array_mut)
    else {
        return Ok(Change::AlreadySo);
    };
    let mut changed = false;
    for entry in entries.iter_mut() {
        if let Some(hooks) = entry.get_mut("hooks").and_then(Value::as_array_mut) {
            let before = hooks.len();
            hooks.retain(|h| !is_ours(h));
            changed |= hooks.len() != before;
        }
    }
    entries.retain(|e| {
        e.get("hooks")
            .and_then(Value::as_array)
            .is_none_or(|h| !h.is_empty())
    });
    Ok(if changed {
        Change::Changed
    } else {
        Change::AlreadySo
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registering_keeps_everything_else_and_happens_once() {
        let mut settings = json!({
            "model": "opus",
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit"}]}],
                      "Stop": []},
            "permissions": {"allow": ["Read"]}
        });
        let before = settings.clone();
        assert_eq!(
            register(&mut settings, "pi-ask hook claude", 600),
            Ok(Change::Changed)
        );
        assert_eq!(
            register(&mut settings, "pi-ask hook claude", 600),
            Ok(Change::AlreadySo)
        );
        let entries = settings["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0], before["hooks"]["PreToolUse"][0]);
        assert_eq!(entries[1]["matcher"], "AskUserQuestion");
        let keys: Vec<&String> = settings.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["model", "hooks", "permissions"], "the order kept");
        assert_eq!(unregister(&mut settings), Ok(Change::Changed));
        assert_eq!(settings, before, "removed, the file is as it was");
        assert_eq!(unregister(&mut settings), Ok(Change::AlreadySo));
    }

    #[test]
    fn a_fresh_file_and_a_misshapen_one() {
        let mut fresh = json!({});
        register(&mut fresh, "pi-ask hook claude", 600).unwrap();
        assert_eq!(fresh["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 600);
        let mut odd = json!({"hooks": []});
        assert!(register(&mut odd, "x", 1).is_err());
        assert_eq!(odd, json!({"hooks": []}), "left as it was");
    }
}
