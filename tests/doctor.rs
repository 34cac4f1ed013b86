//! `pi-ask doctor`: one line per thing pi-ask uses here, a problem marked and exit 1 for it;
//! it reads only and creates nothing.

mod common;

use std::path::Path;
use std::process::Command;

use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::Queue;

fn doctor(home: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .arg("doctor")
        .args(args)
        .env("HOME", home)
        .env_remove("PI_ASK_QUEUE")
        .env_remove("PI_ASK_HISTORY")
        .env_remove("PI_ASK_CONFIG")
        .env_remove("PI_CODING_AGENT_DIR")
        .env_remove("CODEX_HOME")
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn line<'a>(text: &'a str, topic: &str) -> &'a str {
    text.lines()
        .find(|l| l[3..].starts_with(&format!("{topic}:")))
        .unwrap_or_else(|| panic!("no {topic} line in:\n{text}"))
}

#[test]
fn a_fresh_home_is_fine_and_nothing_is_created() {
    let home = tempfile::tempdir().unwrap();
    let (code, text) = doctor(home.path(), &[]);
    assert_eq!(code, 0, "{text}");
    assert!(line(&text, "config").contains("defaults apply"), "{text}");
    assert!(
        line(&text, "history").contains("(empty; recording)"),
        "{text}"
    );
    let queue = home.path().join(".pi/agent/pi-ask/queue");
    assert!(
        line(&text, "queue").contains(&queue.display().to_string()),
        "{text}"
    );
    assert!(line(&text, "inbox").contains("none is watching"), "{text}");
    line(&text, "terminal");
    assert_eq!(
        std::fs::read_dir(home.path()).unwrap().count(),
        0,
        "doctor creates nothing"
    );
}

/// Every problem of a config that applied in part is listed, one a line, placed at its line of
/// the file and in the file's order (the form's notice shows three and points here).
#[test]
fn doctor_lists_every_config_problem_with_its_line() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("pi-ask.toml");
    std::fs::write(
        &config,
        "schemaVersion = 5\n[behaviour]\nshowFooterHints = \"no\"\n[keymaps.mian]\nnextOption = \"j\"\n[keymaps.main]\ntoggle = \"5\"\ncancel = \"?\"\n[files]\nmaxEntries = 0\n",
    )
    .unwrap();
    let (code, text) = doctor(home.path(), &["--config", config.to_str().unwrap()]);
    assert_eq!(code, 1, "{text}");
    let config_line = line(&text, "config");
    assert!(
        config_line.starts_with("!!") && config_line.ends_with("5 problems; the rest applies:"),
        "{text}"
    );
    let listed: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("config:"))
        .skip(1)
        .take_while(|l| l.starts_with("   "))
        .map(str::trim)
        .collect();
    assert_eq!(
        listed,
        [
            "pi-ask.toml:3: behaviour.showFooterHints must be true or false (got \"no\"); using true.",
            "pi-ask.toml:4: Unknown keymap context mian (did you mean main?).",
            "pi-ask.toml:7: Reserved keymap for main.toggle: 5; main.toggle keeps its default keys.",
            "pi-ask.toml:8: Duplicate global keymap ? for global.settings and main.cancel; main.cancel keeps its default keys.",
            "pi-ask.toml:10: files.maxEntries must be a positive whole number (got 0); using 200000.",
        ],
        "{text}"
    );
}

#[test]
fn a_broken_config_and_asks_nobody_watches_are_problems() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("pi-ask.toml");
    std::fs::write(&config, "schemaVersion = 5\n[behaviour\n").unwrap();
    let queue = Queue::open(home.path().join("q")).unwrap();
    queue
        .submit(&common::queued_ask("0123456789abcdef", "A?", 1))
        .unwrap();
    let (code, text) = doctor(
        home.path(),
        &[
            "--config",
            config.to_str().unwrap(),
            "--queue",
            queue.dir().to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{text}");
    assert!(line(&text, "config").starts_with("!!"), "{text}");
    assert!(line(&text, "config").contains("pi-ask.toml:2:"), "{text}");
    assert!(line(&text, "queue").contains("(1 waiting)"), "{text}");
    assert!(line(&text, "inbox").starts_with("!! inbox:"), "{text}");
    // An inbox watching: that line is fine again.
    let presence = queue.announce_inbox().unwrap();
    let (_, text) = doctor(home.path(), &["--queue", queue.dir().to_str().unwrap()]);
    assert!(
        line(&text, "inbox").starts_with("ok inbox:    watching"),
        "{text}"
    );
    drop(presence);
}

/// PI_ASK_QUEUE here, asks waiting in the home's default where a host's server (started without
/// it) puts them: doctor names both folders and marks it.
#[test]
fn doctor_names_both_folders_when_pi_ask_queue_splits_the_queue() {
    let home = tempfile::tempdir().unwrap();
    let mine = home.path().join("mine");
    let default = Queue::open(home.path().join(".pi/agent/pi-ask/queue")).unwrap();
    default
        .submit(&common::queued_ask("0123456789abcdef", "A?", 1))
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .arg("doctor")
        .env("HOME", home.path())
        .env("PI_ASK_QUEUE", &mine)
        .env_remove("PI_ASK_HISTORY")
        .env_remove("PI_ASK_CONFIG")
        .env_remove("PI_CODING_AGENT_DIR")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    let line = line(&text, "servers");
    assert!(line.starts_with("!!"), "{text}");
    assert!(line.contains(&mine.display().to_string()), "{text}");
    assert!(
        line.contains(&default.dir().display().to_string()),
        "{text}"
    );
    assert!(line.contains("1 waiting that no inbox sees"), "{text}");
}

/// The programs `pi-ask setup` wrote into the hosts' files are checked as the running one is:
/// a hook whose program sits in a folder others can write (what mallory replaces) is a problem
/// named with its file; one only its owner can change is fine; a home with no host set up says so.
#[test]
fn a_hook_whose_program_others_can_change_is_a_problem() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    let (code, text) = doctor(home.path(), &[]);
    assert_eq!(code, 0, "{text}");
    assert!(
        line(&text, "hooks").contains("no host runs pi-ask"),
        "{text}"
    );

    let shared = tempfile::tempdir().unwrap();
    std::fs::set_permissions(shared.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let planted = shared.path().join("pi-ask");
    std::fs::copy(env!("CARGO_BIN_EXE_pi-ask"), &planted).unwrap();
    let claude = home.path().join(".claude");
    std::fs::create_dir_all(&claude).unwrap();
    let command = format!("'{}' hook claude", planted.display());
    std::fs::write(
        claude.join("settings.json"),
        serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "AskUserQuestion",
            "hooks": [{"type": "command", "command": command}]}]}})
        .to_string(),
    )
    .unwrap();
    let codex = home.path().join(".codex");
    std::fs::create_dir_all(&codex).unwrap();
    std::fs::write(
        codex.join("config.toml"),
        format!(
            "[mcp_servers.pi-ask]\ncommand = \"{}\"\nargs = [\"mcp\"]\n",
            env!("CARGO_BIN_EXE_pi-ask")
        ),
    )
    .unwrap();
    // Gemini CLI's one settings file holds its hook and its MCP entry, both this program: one line.
    let gemini = home.path().join(".gemini");
    std::fs::create_dir_all(&gemini).unwrap();
    let own = env!("CARGO_BIN_EXE_pi-ask");
    std::fs::write(
        gemini.join("settings.json"),
        serde_json::json!({"hooks": {"BeforeTool": [{"matcher": "ask_user",
            "hooks": [{"type": "command", "command": format!("'{own}' hook gemini")}]}]},
            "mcpServers": {"pi-ask": {"command": own, "args": ["mcp"]}}})
        .to_string(),
    )
    .unwrap();
    let before: Vec<_> = [claude.join("settings.json"), codex.join("config.toml")]
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let (code, text) = doctor(home.path(), &[]);
    assert_eq!(code, 1, "{text}");
    let claudes = text
        .lines()
        .find(|l| l.contains("Claude Code runs"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        claudes.starts_with("!!")
            && claudes.contains("can be written by others (mode 777)")
            && claudes.contains("settings.json")
            && claudes.contains("pi-ask setup claude"),
        "{text}"
    );
    let codexs = text
        .lines()
        .find(|l| l.contains("Codex runs"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(codexs.starts_with("ok"), "{text}");
    let geminis: Vec<_> = text
        .lines()
        .filter(|l| l.contains("Gemini CLI runs"))
        .collect();
    assert!(
        geminis.len() == 1 && geminis[0].starts_with("ok") && geminis[0].contains(own),
        "{text}"
    );
    let after: Vec<_> = [claude.join("settings.json"), codex.join("config.toml")]
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert_eq!(before, after, "doctor changes no host file");

    // Taken out of others' reach, the same hook is fine.
    std::fs::set_permissions(shared.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let (code, text) = doctor(home.path(), &[]);
    assert_eq!(code, 0, "{text}");
}
