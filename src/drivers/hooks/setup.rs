//! `pi-ask setup <host>`: pi-ask's entries in an agent host's own config files, added or removed
//! without touching anything else in them (their other keys, entries and comments, their order):
//! the hook for the host's question tool (`hooks.<event>` in Claude Code's `settings.json`, in
//! Codex's `hooks.json`, in Gemini CLI's `settings.json`, which share one shape) and pi-ask's MCP
//! server (`mcpServers` in a JSON config, `[mcp_servers]` in Codex's `config.toml`). Pure: the
//! command reads and writes the files.

use serde_json::{Value, json};

/// What registering or removing did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The file changed.
    Changed,
    /// It was already so: nothing to write.
    AlreadySo,
}

/// Why a config cannot take the entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unfit {
    /// A part of the config the entry goes in is not what the host writes there.
    #[error("{0} in the file is not {1}; fix it by hand, pi-ask leaves the file as it is")]
    Shape(String, &'static str),
    /// A TOML config does not parse.
    #[error("the file is not TOML ({0}); fix it by hand, pi-ask leaves it as it is")]
    NotToml(String),
}

/// Where a host's hook goes: `hooks.<event>`, an entry matching `matcher`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookSlot {
    /// The hook event (`PreToolUse`, `BeforeTool`).
    pub event: &'static str,
    /// What the entry matches (the tool; empty: everything the event is for).
    pub matcher: &'static str,
    /// What pi-ask's command holds (`hook claude`): how its entry is told from others.
    pub marker: &'static str,
}

impl HookSlot {
    /// Whether a hook entry is pi-ask's (a command running `pi-ask … hook <host>`).
    fn is_ours(&self, hook: &Value) -> bool {
        hook.get("command")
            .and_then(Value::as_str)
            .is_some_and(|c| c.contains("pi-ask") && c.contains(self.marker))
    }
}

/// The entries list of `slot.event` in `settings`, made when missing.
fn event_entries<'a>(
    settings: &'a mut Value,
    slot: &HookSlot,
) -> Result<&'a mut Vec<Value>, Unfit> {
    let root = settings
        .as_object_mut()
        .ok_or(Unfit::Shape("the file".into(), "a JSON object"))?;
    let hooks = root
        .entry("hooks")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or(Unfit::Shape("\"hooks\"".into(), "an object"))?;
    hooks
        .entry(slot.event)
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .ok_or_else(|| Unfit::Shape(format!("\"hooks.{}\"", slot.event), "a list"))
}

/// `settings` with pi-ask's hook in `slot` running `command` (the host waiting up to `timeout`
/// in its own unit), unless one is there.
pub fn register(
    settings: &mut Value,
    slot: &HookSlot,
    command: &str,
    timeout: u64,
) -> Result<Change, Unfit> {
    let entries = event_entries(settings, slot)?;
    let present = entries.iter().any(|entry| {
        entry
            .get("hooks")
            .and_then(Value::as_array)
            .is_some_and(|hooks| hooks.iter().any(|h| slot.is_ours(h)))
    });
    if present {
        return Ok(Change::AlreadySo);
    }
    let mut entry = serde_json::Map::new();
    // An event without a matcher (Claude Code's `Elicitation`: every server) takes none.
    if !slot.matcher.is_empty() {
        entry.insert("matcher".into(), slot.matcher.into());
    }
    entry.insert(
        "hooks".into(),
        json!([{"type": "command", "command": command, "timeout": timeout}]),
    );
    entries.push(Value::Object(entry));
    Ok(Change::Changed)
}

/// `settings` without pi-ask's hook in `slot` (an entry left with no hooks goes too, and an
/// event list or `hooks` object left empty by that; everything else stays).
pub fn unregister(settings: &mut Value, slot: &HookSlot) -> Result<Change, Unfit> {
    let Some(entries) = settings
        .get_mut("hooks")
        .and_then(|h| h.get_mut(slot.event))
        .and_then(Value::as_array_mut)
    else {
        return Ok(Change::AlreadySo);
    };
    let mut changed = false;
    for entry in entries.iter_mut() {
        if let Some(hooks) = entry.get_mut("hooks").and_then(Value::as_array_mut) {
            let before = hooks.len();
            hooks.retain(|h| !slot.is_ours(h));
            changed |= hooks.len() != before;
        }
    }
    if !changed {
        return Ok(Change::AlreadySo);
    }
    entries.retain(|e| {
        e.get("hooks")
            .and_then(Value::as_array)
            .is_none_or(|h| !h.is_empty())
    });
    let emptied = entries.is_empty();
    if emptied && let Some(hooks) = settings.get_mut("hooks").and_then(Value::as_object_mut) {
        hooks.shift_remove(slot.event);
        if hooks.is_empty()
            && let Some(root) = settings.as_object_mut()
        {
            root.shift_remove("hooks");
        }
    }
    Ok(Change::Changed)
}

/// `settings` (Claude Code's) with `tool` allowed without a prompt (`permissions.allow`), unless
/// it is: asking the person whether they may be asked a question would be asking twice.
pub fn allow_tool(settings: &mut Value, tool: &str) -> Result<Change, Unfit> {
    let allow = settings
        .as_object_mut()
        .ok_or(Unfit::Shape("the file".into(), "a JSON object"))?
        .entry("permissions")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or(Unfit::Shape("\"permissions\"".into(), "an object"))?
        .entry("allow")
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .ok_or(Unfit::Shape("\"permissions.allow\"".into(), "a list"))?;
    if allow.iter().any(|t| t == tool) {
        return Ok(Change::AlreadySo);
    }
    allow.push(tool.into());
    Ok(Change::Changed)
}

/// `settings` without the rule [`allow_tool`] adds (a list or object left empty by that goes).
pub fn disallow_tool(settings: &mut Value, tool: &str) -> Change {
    let Some(allow) = settings
        .pointer_mut("/permissions/allow")
        .and_then(Value::as_array_mut)
    else {
        return Change::AlreadySo;
    };
    let before = allow.len();
    allow.retain(|t| t != tool);
    if allow.len() == before {
        return Change::AlreadySo;
    }
    if allow.is_empty()
        && let Some(permissions) = settings
            .get_mut("permissions")
            .and_then(Value::as_object_mut)
    {
        permissions.shift_remove("allow");
        if permissions.is_empty()
            && let Some(root) = settings.as_object_mut()
        {
            root.shift_remove("permissions");
        }
    }
    Change::Changed
}

/// The name pi-ask's MCP server is registered under.
pub const MCP_NAME: &str = "pi-ask";

/// `config` (a JSON config with `mcpServers`: Claude Code's `~/.claude.json`, Gemini CLI's
/// `settings.json`) with `entry` as pi-ask's MCP server, unless a server of that name is there
/// (a person's own entry is never replaced).
pub fn register_mcp_json(config: &mut Value, entry: Value) -> Result<Change, Unfit> {
    let servers = config
        .as_object_mut()
        .ok_or(Unfit::Shape("the file".into(), "a JSON object"))?
        .entry("mcpServers")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or(Unfit::Shape("\"mcpServers\"".into(), "an object"))?;
    if servers.contains_key(MCP_NAME) {
        return Ok(Change::AlreadySo);
    }
    servers.insert(MCP_NAME.into(), entry);
    Ok(Change::Changed)
}

/// `config` without pi-ask's MCP server (only when it runs pi-ask's `mcp`: an entry of that name
/// the person wrote for something else stays).
pub fn unregister_mcp_json(config: &mut Value) -> Result<Change, Unfit> {
    let Some(servers) = config.get_mut("mcpServers").and_then(Value::as_object_mut) else {
        return Ok(Change::AlreadySo);
    };
    if !servers.get(MCP_NAME).is_some_and(runs_mcp_json) {
        return Ok(Change::AlreadySo);
    }
    servers.shift_remove(MCP_NAME);
    if servers.is_empty()
        && let Some(root) = config.as_object_mut()
    {
        root.shift_remove("mcpServers");
    }
    Ok(Change::Changed)
}

/// Whether an `mcpServers` entry runs pi-ask's `mcp` (its first argument): how pi-ask's entry
/// is told from one of that name the person wrote for something else.
fn runs_mcp_json(server: &Value) -> bool {
    server
        .get("args")
        .and_then(Value::as_array)
        .is_some_and(|a| a.first().and_then(Value::as_str) == Some("mcp"))
}

/// [`runs_mcp_json`] for a `[mcp_servers]` entry of Codex's `config.toml`.
fn runs_mcp_toml(server: &toml_edit::Item) -> bool {
    server
        .get("args")
        .and_then(|a| a.as_array())
        .is_some_and(|a| a.get(0).and_then(|v| v.as_str()) == Some("mcp"))
}

/// Codex's `config.toml` text with `[mcp_servers.pi-ask]` running `program` with `args` (tool
/// calls allowed `tool_timeout` seconds: a person takes longer than Codex's default minute;
/// `ask_user` approved without a prompt),
/// unless a server of that name is there; comments and layout kept.
pub fn register_mcp_toml(
    text: &str,
    program: &str,
    args: &[&str],
    tool_timeout: u64,
) -> Result<(String, Change), Unfit> {
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| Unfit::NotToml(e.to_string()))?;
    let servers = doc
        .entry("mcp_servers")
        .or_insert_with(|| {
            let mut table = toml_edit::Table::new();
            table.set_implicit(true);
            toml_edit::Item::Table(table)
        })
        .as_table_like_mut()
        .ok_or(Unfit::Shape("mcp_servers".into(), "a table"))?;
    if servers.contains_key(MCP_NAME) {
        return Ok((text.to_owned(), Change::AlreadySo));
    }
    let mut server = toml_edit::Table::new();
    server["command"] = toml_edit::value(program);
    server["args"] = toml_edit::value(args.iter().copied().collect::<toml_edit::Array>());
    server["tool_timeout_sec"] = toml_edit::value(i64::try_from(tool_timeout).unwrap_or(i64::MAX));
    // Codex asks the person to approve each MCP call (and refuses it where it cannot ask):
    // approving a call that only asks the person a question would be asking twice.
    let mut ask_user = toml_edit::Table::new();
    ask_user["approval_mode"] = toml_edit::value("approve");
    let mut tools = toml_edit::Table::new();
    tools.set_implicit(true);
    tools.insert("ask_user", toml_edit::Item::Table(ask_user));
    server.insert("tools", toml_edit::Item::Table(tools));
    servers.insert(MCP_NAME, toml_edit::Item::Table(server));
    Ok((doc.to_string(), Change::Changed))
}

/// Codex's `config.toml` text without pi-ask's MCP server (only when it runs pi-ask's `mcp`).
pub fn unregister_mcp_toml(text: &str) -> Result<(String, Change), Unfit> {
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| Unfit::NotToml(e.to_string()))?;
    let Some(servers) = doc
        .get_mut("mcp_servers")
        .and_then(|s| s.as_table_like_mut())
    else {
        return Ok((text.to_owned(), Change::AlreadySo));
    };
    if !servers.get(MCP_NAME).is_some_and(runs_mcp_toml) {
        return Ok((text.to_owned(), Change::AlreadySo));
    }
    servers.remove(MCP_NAME);
    if servers.is_empty() {
        doc.remove("mcp_servers");
    }
    Ok((doc.to_string(), Change::Changed))
}

/// The programs pi-ask's hooks in `slot` of `settings` run, as the file has them (for `doctor`,
/// which checks that nobody else can change them).
pub fn hook_programs(settings: &Value, slot: &HookSlot) -> Vec<String> {
    settings
        .get("hooks")
        .and_then(|hooks| hooks.get(slot.event))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.get("hooks").and_then(Value::as_array))
        .flatten()
        .filter(|hook| slot.is_ours(hook))
        .filter_map(|hook| hook.get("command").and_then(Value::as_str))
        .filter_map(command_program)
        .collect()
}

/// The program a hook's shell command runs: its first word, with the shell's quoting undone
/// (single quotes as `setup` writes them, `'\''` inside; double quotes; backslashes). `None` for
/// a command with no word or an unclosed quote.
pub fn command_program(command: &str) -> Option<String> {
    let mut word = String::new();
    let mut chars = command.trim_start().chars();
    let mut started = false;
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => break,
            '\'' => loop {
                match chars.next()? {
                    '\'' => break,
                    c => word.push(c),
                }
            },
            '"' => loop {
                match chars.next()? {
                    '"' => break,
                    '\\' => word.push(chars.next()?),
                    c => word.push(c),
                }
            },
            '\\' => word.push(chars.next()?),
            c => word.push(c),
        }
        started = true;
    }
    started.then_some(word)
}

/// The program pi-ask's MCP server entry in a JSON config runs (only an entry running `mcp`).
pub fn mcp_program_json(config: &Value) -> Option<String> {
    let server = config.get("mcpServers")?.get(MCP_NAME)?;
    let program = server.get("command").and_then(Value::as_str)?;
    runs_mcp_json(server).then(|| program.to_owned())
}

/// The program pi-ask's MCP server in Codex's `config.toml` runs (only an entry running `mcp`).
pub fn mcp_program_toml(text: &str) -> Option<String> {
    let doc: toml_edit::DocumentMut = text.parse().ok()?;
    let server = doc.get("mcp_servers")?.get(MCP_NAME)?;
    let program = server.get("command").and_then(|c| c.as_str())?;
    runs_mcp_toml(server).then(|| program.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAUDE: HookSlot = HookSlot {
        event: "PreToolUse",
        matcher: "AskUserQuestion",
        marker: "hook claude",
    };

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
            register(&mut settings, &CLAUDE, "pi-ask hook claude", 600),
            Ok(Change::Changed)
        );
        assert_eq!(
            register(&mut settings, &CLAUDE, "pi-ask hook claude", 600),
            Ok(Change::AlreadySo)
        );
        let entries = settings["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0], before["hooks"]["PreToolUse"][0]);
        assert_eq!(entries[1]["matcher"], "AskUserQuestion");
        let keys: Vec<&String> = settings.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["model", "hooks", "permissions"], "the order kept");
        assert_eq!(unregister(&mut settings, &CLAUDE), Ok(Change::Changed));
        assert_eq!(settings, before, "removed, the file is as it was");
        assert_eq!(unregister(&mut settings, &CLAUDE), Ok(Change::AlreadySo));
    }

    #[test]
    fn every_slot_of_a_host_goes_in_and_out_and_a_slot_for_every_server_has_no_matcher() {
        let mut settings = json!({"hooks": {"Elicitation": [{"matcher": "github",
            "hooks": [{"type": "command", "command": "approve-github"}]}]}});
        let before = settings.clone();
        let slots = crate::drivers::hooks::Host::Claude.slots();
        assert_eq!(slots.len(), 2);
        for slot in &slots {
            assert_eq!(
                register(&mut settings, slot, "pi-ask hook claude", 600),
                Ok(Change::Changed)
            );
        }
        let ours = &settings["hooks"]["Elicitation"][1];
        assert!(ours.get("matcher").is_none(), "{ours}");
        assert_eq!(ours["hooks"][0]["command"], "pi-ask hook claude");
        assert_eq!(
            settings["hooks"]["PreToolUse"][0]["matcher"],
            "AskUserQuestion"
        );
        for slot in &slots {
            assert_eq!(unregister(&mut settings, slot), Ok(Change::Changed));
        }
        assert_eq!(settings, before);
    }

    #[test]
    fn a_fresh_file_comes_back_empty_and_a_misshapen_one_is_left_alone() {
        let mut fresh = json!({});
        register(&mut fresh, &CLAUDE, "pi-ask hook claude", 600).unwrap();
        assert_eq!(fresh["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 600);
        unregister(&mut fresh, &CLAUDE).unwrap();
        assert_eq!(fresh, json!({}));
        let mut odd = json!({"hooks": []});
        assert!(register(&mut odd, &CLAUDE, "x", 1).is_err());
        assert_eq!(odd, json!({"hooks": []}), "left as it was");
    }

    #[test]
    fn the_tool_is_allowed_once_and_the_rule_goes_cleanly() {
        let mut settings = json!({"permissions": {"allow": ["Read"], "deny": []}});
        let before = settings.clone();
        assert_eq!(
            allow_tool(&mut settings, "mcp__pi-ask__ask_user"),
            Ok(Change::Changed)
        );
        assert_eq!(
            allow_tool(&mut settings, "mcp__pi-ask__ask_user"),
            Ok(Change::AlreadySo)
        );
        assert_eq!(
            settings["permissions"]["allow"],
            json!(["Read", "mcp__pi-ask__ask_user"])
        );
        assert_eq!(
            disallow_tool(&mut settings, "mcp__pi-ask__ask_user"),
            Change::Changed
        );
        assert_eq!(settings, before);
        let mut fresh = json!({});
        allow_tool(&mut fresh, "t").unwrap();
        disallow_tool(&mut fresh, "t");
        assert_eq!(fresh, json!({}));
        assert!(allow_tool(&mut json!({"permissions": []}), "t").is_err());
    }

    #[test]
    fn the_mcp_server_in_json_never_replaces_a_persons_own_entry() {
        let mut config = json!({"numStartups": 3, "mcpServers": {"other": {"command": "x"}}});
        let before = config.clone();
        assert_eq!(
            register_mcp_json(
                &mut config,
                json!({"command": "/bin/pi-ask", "args": ["mcp"]})
            ),
            Ok(Change::Changed)
        );
        assert_eq!(config["mcpServers"]["pi-ask"]["args"], json!(["mcp"]));
        assert_eq!(
            register_mcp_json(
                &mut config,
                json!({"command": "/bin/pi-ask", "args": ["mcp"]})
            ),
            Ok(Change::AlreadySo)
        );
        assert_eq!(unregister_mcp_json(&mut config), Ok(Change::Changed));
        assert_eq!(config, before);
        let mut theirs = json!({"mcpServers": {"pi-ask": {"command": "their-own"}}});
        assert_eq!(unregister_mcp_json(&mut theirs), Ok(Change::AlreadySo));
        assert_eq!(
            register_mcp_json(
                &mut theirs,
                json!({"command": "/bin/pi-ask", "args": ["mcp"]})
            ),
            Ok(Change::AlreadySo)
        );
    }

    #[test]
    fn the_mcp_server_in_toml_keeps_comments_and_goes_away_cleanly() {
        let text =
            "# my settings\nmodel = \"o4\" # the model\n\n[mcp_servers.other]\ncommand = \"x\"\n";
        let (added, change) = register_mcp_toml(text, "/bin/pi-ask", &["mcp"], 1800).unwrap();
        assert_eq!(change, Change::Changed);
        assert!(
            added.starts_with(text),
            "what was there is kept as it was:\n{added}"
        );
        let parsed: toml::Table = toml::from_str(&added).unwrap();
        assert_eq!(
            parsed["mcp_servers"]["pi-ask"]["args"][0].as_str(),
            Some("mcp")
        );
        assert_eq!(
            parsed["mcp_servers"]["pi-ask"]["tool_timeout_sec"].as_integer(),
            Some(1800)
        );
        assert_eq!(
            parsed["mcp_servers"]["pi-ask"]["tools"]["ask_user"]["approval_mode"].as_str(),
            Some("approve")
        );
        let (again, change) = register_mcp_toml(&added, "/bin/pi-ask", &["mcp"], 1800).unwrap();
        assert_eq!(
            (again.as_str(), change),
            (added.as_str(), Change::AlreadySo)
        );
        let (removed, change) = unregister_mcp_toml(&added).unwrap();
        assert_eq!((removed.as_str(), change), (text, Change::Changed));
        let (fresh, _) = register_mcp_toml("", "/bin/pi-ask", &["mcp"], 1800).unwrap();
        assert_eq!(unregister_mcp_toml(&fresh).unwrap().0.trim(), "");
        assert!(matches!(
            register_mcp_toml("x = [", "p", &[], 1),
            Err(Unfit::NotToml(_))
        ));
        assert!(register_mcp_toml("mcp_servers = 3", "p", &[], 1).is_err());
    }

    #[test]
    fn a_hook_commands_program_is_its_first_word_unquoted() {
        assert_eq!(
            command_program("'/opt/pi ask/bin/pi-ask' hook claude").as_deref(),
            Some("/opt/pi ask/bin/pi-ask")
        );
        assert_eq!(
            command_program(r"'/home/o'\''brien/pi-ask' hook codex").as_deref(),
            Some("/home/o'brien/pi-ask")
        );
        assert_eq!(
            command_program(r#"  "/a \"b\"/pi-ask" hook x"#).as_deref(),
            Some(r#"/a "b"/pi-ask"#)
        );
        assert_eq!(
            command_program(r"/usr/bin/pi\ ask hook").as_deref(),
            Some("/usr/bin/pi ask")
        );
        assert_eq!(command_program("   "), None);
        assert_eq!(command_program("'/never closed hook"), None);
    }

    #[test]
    fn the_programs_of_pi_asks_entries_are_found_and_no_others() {
        let slot = HookSlot {
            event: "PreToolUse",
            matcher: "AskUserQuestion",
            marker: "hook claude",
        };
        let settings = json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit hook claude"}]},
            {"matcher": "AskUserQuestion", "hooks": [
                {"type": "command", "command": "'/tmp/x/pi-ask' hook claude"}]},
        ]}});
        assert_eq!(hook_programs(&settings, &slot), vec!["/tmp/x/pi-ask"]);
        assert!(hook_programs(&json!({"hooks": 3}), &slot).is_empty());
        let config = json!({"mcpServers": {"pi-ask": {"command": "/b/pi-ask", "args": ["mcp"]}}});
        assert_eq!(mcp_program_json(&config).as_deref(), Some("/b/pi-ask"));
        let other = json!({"mcpServers": {"pi-ask": {"command": "/b/other", "args": ["serve"]}}});
        assert_eq!(mcp_program_json(&other), None);
        let toml = "[mcp_servers.pi-ask]\ncommand = \"/c/pi-ask\"\nargs = [\"mcp\"]\n";
        assert_eq!(mcp_program_toml(toml).as_deref(), Some("/c/pi-ask"));
        assert_eq!(mcp_program_toml("model = ["), None);
    }
}
