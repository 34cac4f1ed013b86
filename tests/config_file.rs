//! The config file: locations, loading without writing, migrations, saving one value with
//! toml_edit, atomic writes, the legacy JSON fallback, and the store's subscribers.

use std::path::{Path, PathBuf};

use pi_ask::keymap::Action;
use pi_ask::keys::KeyId;
use pi_ask::settings::Setting;
use pi_ask::stores::config::{
    Channel, Config, ConfigPaths, ConfigSource, ConfigStore, default_snapshot, load,
};
use serde_json::json;

/// Paths as the program resolves them with HOME pointed at a temp dir.
fn paths_in(home: &Path) -> ConfigPaths {
    let home = home.to_string_lossy().into_owned();
    ConfigPaths::resolve(None, move |k| (k == "HOME").then(|| home.clone()))
}

fn toml_path(home: &Path) -> PathBuf {
    home.join(".pi/agent/extensions/pi-ask.toml")
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const USER_FILE: &str = r#"# My pi-ask settings
schemaVersion = 5   # do not touch

[behaviour]
# I like it fast
autoSubmitWhenAnsweredWithoutNotes = false # trailing comment
confirmDismissWhenDirty   =   true

[keymaps.main]
toggle = ["space", "x"]   # x toggles too
"#;

#[test]
fn default_location_is_under_the_agent_dir_and_precedence_is_flag_then_env() {
    let p = ConfigPaths::resolve(None, |k| (k == "HOME").then(|| "/home/u".to_owned()));
    assert_eq!(
        p.toml,
        PathBuf::from("/home/u/.pi/agent/extensions/pi-ask.toml")
    );
    assert_eq!(
        p.legacy_json[0],
        PathBuf::from("/home/u/.pi/agent/extensions/eko24ive-pi-ask.json")
    );
    let env = |k: &str| match k {
        "HOME" => Some("/home/u".to_owned()),
        "PI_ASK_CONFIG" => Some("/etc/ask.toml".to_owned()),
        _ => None,
    };
    assert_eq!(
        ConfigPaths::resolve(None, env).toml,
        PathBuf::from("/etc/ask.toml")
    );
    assert_eq!(
        ConfigPaths::resolve(Some(Path::new("/x/flag.toml")), env).toml,
        PathBuf::from("/x/flag.toml")
    );
    let json = ConfigPaths::resolve(Some(Path::new("/x/old.json")), env);
    assert_eq!(json.explicit_json, Some(PathBuf::from("/x/old.json")));
    let agent = ConfigPaths::resolve(None, |k| {
        (k == "PI_CODING_AGENT_DIR").then(|| "/agent".to_owned())
    });
    assert_eq!(agent.toml, PathBuf::from("/agent/extensions/pi-ask.toml"));
}

#[test]
fn a_missing_file_gets_one_commented_default_snapshot_that_loads_as_defaults() {
    let home = tempfile::tempdir().unwrap();
    let loaded = load(&paths_in(home.path()));
    assert_eq!(loaded.config, Config::default());
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    assert!(!toml_path(home.path()).exists(), "loading writes nothing");
    // The store writes it, once a form shows.
    let mut store = ConfigStore::open(paths_in(home.path()));
    assert_eq!(store.create_default(), None);
    let text = std::fs::read_to_string(toml_path(home.path())).unwrap();
    assert!(text.starts_with("# pi-ask configuration."));
    assert!(text.contains("# nextTab = [\"tab\", \"right\"]"));
    let again = load(&paths_in(home.path()));
    assert_eq!(again.config, Config::default());
    assert_eq!(again.source, ConfigSource::Toml(toml_path(home.path())));
    assert_eq!(
        std::fs::read_to_string(toml_path(home.path())).unwrap(),
        text,
        "loading never rewrites"
    );
}

#[test]
fn the_snapshot_carries_non_default_values() {
    let mut config = Config::default();
    config.behaviour.show_footer_hints = false;
    config.notifications.channels = vec![Channel::Osc9, Channel::Command("say \"hi\"".into())];
    let home = tempfile::tempdir().unwrap();
    write(&toml_path(home.path()), &default_snapshot(&config));
    assert_eq!(load(&paths_in(home.path())).config, config);
}

#[test]
fn user_values_are_read_and_the_file_is_never_written_on_load() {
    let home = tempfile::tempdir().unwrap();
    write(&toml_path(home.path()), USER_FILE);
    let loaded = load(&paths_in(home.path()));
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    assert_eq!(
        loaded.config.keymaps.keys(Action::MainToggle),
        &[KeyId::parse("space").unwrap(), KeyId::parse("x").unwrap()]
    );
    assert_eq!(
        std::fs::read_to_string(toml_path(home.path())).unwrap(),
        USER_FILE
    );
}

#[test]
fn a_saved_toggle_changes_only_that_value_in_a_commented_file() {
    let home = tempfile::tempdir().unwrap();
    let path = toml_path(home.path());
    write(&path, USER_FILE);
    let mut store = ConfigStore::open(paths_in(home.path()));
    store.set_setting(Setting::AutoSubmit, true).unwrap();
    let saved = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        saved,
        USER_FILE.replace(
            "autoSubmitWhenAnsweredWithoutNotes = false",
            "autoSubmitWhenAnsweredWithoutNotes = true"
        )
    );
    store.set_setting(Setting::Notifications, false).unwrap();
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(
        saved.starts_with(&USER_FILE.replace("= false #", "= true #")),
        "the original bytes stay: {saved}"
    );
    assert!(
        saved.ends_with("[notifications]\nenabled = false\n"),
        "{saved}"
    );
    assert!(
        store
            .config()
            .behaviour
            .auto_submit_when_answered_without_notes
    );
    assert!(!store.config().notifications.enabled);
    // No temp files are left behind.
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

#[test]
fn a_read_only_file_keeps_its_value_and_gives_the_manual_edit_message() {
    let home = tempfile::tempdir().unwrap();
    let path = toml_path(home.path());
    write(&path, USER_FILE);
    let mut perms = std::fs::metadata(&path).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&path, perms).unwrap();
    let mut store = ConfigStore::open(paths_in(home.path()));
    let err = store
        .set_setting(Setting::AutoSubmit, true)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with(&format!("Unable to save ask config at {}.", path.display())),
        "{err}"
    );
    assert!(err.contains("edit it manually"), "{err}");
    assert!(
        !store
            .config()
            .behaviour
            .auto_submit_when_answered_without_notes,
        "the toggle is not applied"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), USER_FILE);
}

#[test]
fn an_invalid_toml_file_loads_defaults_with_a_notice_and_stays_byte_for_byte_unchanged() {
    let home = tempfile::tempdir().unwrap();
    let path = toml_path(home.path());
    let broken = "schemaVersion = 5\n[behaviour\nshowFooterHints = false\n";
    write(&path, broken);
    let mut store = ConfigStore::open(paths_in(home.path()));
    assert_eq!(store.config(), &Config::default());
    let notice = store.notice().unwrap();
    assert!(
        notice.starts_with("Config was invalid or unsupported"),
        "{notice}"
    );
    assert!(notice.contains(&path.display().to_string()), "{notice}");
    assert!(store.set_setting(Setting::ShowFooterHints, false).is_err());
    assert!(store.reset().is_err());
    assert_eq!(std::fs::read(&path).unwrap(), broken.as_bytes());
}

#[test]
fn future_and_unversioned_files_are_rejected_and_left_alone() {
    for (text, detail) in [
        ("schemaVersion = 6\n", "newer than this pi-ask supports"),
        (
            "[behaviour]\nshowFooterHints = false\n",
            "must include an integer schemaVersion",
        ),
    ] {
        let home = tempfile::tempdir().unwrap();
        write(&toml_path(home.path()), text);
        let loaded = load(&paths_in(home.path()));
        assert_eq!(loaded.config, Config::default());
        assert!(loaded.notices[0].contains(detail), "{:?}", loaded.notices);
        assert_eq!(
            std::fs::read_to_string(toml_path(home.path())).unwrap(),
            text
        );
    }
}

/// In pi-ask's TOML a bad keymap entry costs only itself: the valid entries apply, each bad one
/// is named and its action keeps its default keys, and the other settings apply.
#[test]
fn a_bad_keymap_entry_costs_only_itself_and_other_settings_apply() {
    let home = tempfile::tempdir().unwrap();
    write(
        &toml_path(home.path()),
        "schemaVersion = 5\n[behaviour]\nshowFooterHints = false\n[keymaps.main]\ncancel = \"?\"\nnextOption = \"j\"\ntoggle = \"ctrl+ctrl+x\"\n[keymaps.editor]\nsubmit = \"ctrl+s\"\n",
    );
    let loaded = load(&paths_in(home.path()));
    assert!(!loaded.config.behaviour.show_footer_hints);
    let keymaps = &loaded.config.keymaps;
    let defaults = pi_ask::keymap::Keymaps::default();
    let key = |id: &str| pi_ask::keys::KeyId::parse(id).unwrap();
    use pi_ask::keymap::Action;
    assert_eq!(
        keymaps.keys(Action::MainNextOption),
        [key("j")],
        "a valid entry applies"
    );
    assert_eq!(
        keymaps.keys(Action::EditorSubmit),
        [key("ctrl+s")],
        "in any context"
    );
    assert_eq!(
        keymaps.keys(Action::MainCancel),
        defaults.keys(Action::MainCancel)
    );
    assert_eq!(
        keymaps.keys(Action::MainToggle),
        defaults.keys(Action::MainToggle)
    );
    assert_eq!(
        loaded.notices,
        [
            "pi-ask.toml:5: Duplicate global keymap ? for global.settings and main.cancel; main.cancel keeps its default keys. · pi-ask.toml:7: Invalid keymap for main.toggle: \"ctrl+ctrl+x\": repeated modifier ctrl; main.toggle keeps its default keys. The rest of the config applies. Edit the config to fix these."
        ]
    );
}

/// One value of the wrong type costs only itself: the keymap next to it applies, the value's
/// default is used, and the problem names its line and what is used instead (the whole file
/// used to fall back to the defaults, `j` included).
#[test]
fn a_value_of_the_wrong_type_costs_only_itself() {
    let home = tempfile::tempdir().unwrap();
    write(
        &toml_path(home.path()),
        "schemaVersion = 5\n[behaviour]\ndoublePressReviewShortcuts = \"no\"\nshowFooterHints = false\n[keymaps.main]\nnextOption = [\"j\", \"down\"]\npreviousOption = [\"k\", \"up\"]\n[mcp]\ntimeoutSeconds = -5\nelicit = \"sometimes\"\n[history]\nenabled = 1\n",
    );
    let loaded = load(&paths_in(home.path()));
    assert!(matches!(loaded.source, ConfigSource::Toml(_)));
    let key = |id: &str| pi_ask::keys::KeyId::parse(id).unwrap();
    use pi_ask::keymap::Action;
    assert_eq!(
        loaded.config.keymaps.keys(Action::MainNextOption),
        [key("j"), key("down")]
    );
    assert!(
        !loaded.config.behaviour.show_footer_hints,
        "the good toggle applies"
    );
    let defaults = Config::default();
    assert_eq!(loaded.config.behaviour, {
        let mut b = defaults.behaviour;
        b.show_footer_hints = false;
        b
    });
    assert_eq!(loaded.config.mcp, defaults.mcp);
    assert_eq!(loaded.config.history, defaults.history);
    assert_eq!(
        loaded.problems,
        [
            "pi-ask.toml:3: behaviour.doublePressReviewShortcuts must be true or false (got \"no\"); using true.",
            "pi-ask.toml:9: mcp.timeoutSeconds must be a whole number (got -5); using 1800.",
            "pi-ask.toml:10: mcp.elicit must be \"never\", \"fallback\" or \"always\" (got \"sometimes\"); using fallback.",
            "pi-ask.toml:12: history.enabled must be true or false (got 1); using true.",
        ]
    );
    let notice = &loaded.notices[0];
    assert!(
        notice.contains("… and 1 more config problems (`pi-ask doctor` lists every one)."),
        "{notice}"
    );
    // A section of the wrong type costs only that section.
    write(
        &toml_path(home.path()),
        "schemaVersion = 5\nbehaviour = 3\n[keymaps.main]\nnextOption = \"j\"\n",
    );
    let loaded = load(&paths_in(home.path()));
    assert_eq!(
        loaded.config.keymaps.keys(Action::MainNextOption),
        [key("j")]
    );
    assert_eq!(
        loaded.problems,
        ["pi-ask.toml:2: behaviour must be a table (got 3); its defaults apply."]
    );
}

/// Keymap conflicts are settled in the file's order, as docs/keymaps.md says: the entry written
/// first keeps the key (TOML tables were read in alphabetical order, so `optionNote` always won).
#[test]
fn keymap_conflicts_are_settled_in_the_files_order() {
    let key = |id: &str| pi_ask::keys::KeyId::parse(id).unwrap();
    use pi_ask::keymap::Action;
    for (text, winner, loser) in [
        (
            "schemaVersion = 5\n[keymaps.main]\ntoggle = [\"space\", \"x\"]\noptionNote = [\"x\"]\n",
            Action::MainToggle,
            Action::MainOptionNote,
        ),
        (
            "schemaVersion = 5\n[keymaps.main]\noptionNote = [\"x\"]\ntoggle = [\"space\", \"x\"]\n",
            Action::MainOptionNote,
            Action::MainToggle,
        ),
    ] {
        let home = tempfile::tempdir().unwrap();
        write(&toml_path(home.path()), text);
        let loaded = load(&paths_in(home.path()));
        let defaults = pi_ask::keymap::Keymaps::default();
        assert!(
            loaded.config.keymaps.keys(winner).contains(&key("x")),
            "{text}"
        );
        assert_eq!(
            loaded.config.keymaps.keys(loser),
            defaults.keys(loser),
            "{text}"
        );
        assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
        assert!(
            loaded.problems[0].ends_with(&format!("{loser} keeps its default keys.")),
            "{:?}",
            loaded.problems
        );
    }
}

/// Every keymap problem is listed (not three), placed at its line, in the file's order, and an
/// unknown context or action is answered with the name meant.
#[test]
fn every_keymap_problem_is_listed_in_file_order_with_its_line() {
    let home = tempfile::tempdir().unwrap();
    write(
        &toml_path(home.path()),
        "schemaVersion = 5\n[keymaps.mian]\nnextOption = \"j\"\n[keymaps.main]\ntogle = \"x\"\ncancel = \"?\"\ntoggle = \"5\"\nnextTab = \"ctrl+ctrl+x\"\n[keymaps.editor]\nsubmit = 3\n",
    );
    let loaded = load(&paths_in(home.path()));
    assert_eq!(
        loaded.problems,
        [
            "pi-ask.toml:2: Unknown keymap context mian (did you mean main?).",
            "pi-ask.toml:5: Unknown keymap action main.togle (did you mean main.toggle?).",
            "pi-ask.toml:6: Duplicate global keymap ? for global.settings and main.cancel; main.cancel keeps its default keys.",
            "pi-ask.toml:7: Reserved keymap for main.toggle: 5; main.toggle keeps its default keys.",
            "pi-ask.toml:8: Invalid keymap for main.nextTab: \"ctrl+ctrl+x\": repeated modifier ctrl; main.nextTab keeps its default keys.",
            "pi-ask.toml:10: Invalid keymap for editor.submit: binding must be a string or array of strings.",
        ]
    );
    assert!(
        loaded.notices[0]
            .contains("… and 3 more config problems (`pi-ask doctor` lists every one)."),
        "{:?}",
        loaded.notices
    );
}

/// The original's JSON keeps the original's rule: any keymap problem, the default keymaps (with
/// the original's notice), the other settings applied.
#[test]
fn invalid_keymaps_in_the_original_json_fall_back_whole_and_keep_other_settings() {
    let home = tempfile::tempdir().unwrap();
    let mut config = legacy_v5();
    config["keymaps"]["main"]["cancel"] = json!("?");
    config["keymaps"]["main"]["nextOption"] = json!("j");
    write(&legacy(home.path()), &config.to_string());
    let loaded = load(&paths_in(home.path()));
    assert_eq!(loaded.config.keymaps, pi_ask::keymap::Keymaps::default());
    assert!(
        loaded
            .config
            .behaviour
            .auto_submit_when_answered_without_notes
    );
    assert_eq!(
        loaded.notices,
        [
            "Duplicate global keymap ? for global.settings and main.cancel. Using default ask keymaps for this session. Edit the config and start pi-ask again."
        ]
    );
}

#[test]
fn invalid_notification_channels_are_skipped_and_none_valid_means_bell() {
    let home = tempfile::tempdir().unwrap();
    write(
        &toml_path(home.path()),
        "schemaVersion = 5\n[notifications]\nchannels = [\"pager\", { type = \"command\" }]\n",
    );
    let loaded = load(&paths_in(home.path()));
    assert_eq!(loaded.config.notifications.channels, [Channel::Bell]);
    assert_eq!(loaded.problems.len(), 2, "{:?}", loaded.problems);
    assert_eq!(loaded.notices.len(), 1, "one notice: {:?}", loaded.notices);
    write(
        &toml_path(home.path()),
        "schemaVersion = 5\n[notifications]\nchannels = [\"osc777\", \"pager\", \"bell\"]\n",
    );
    assert_eq!(
        load(&paths_in(home.path())).config.notifications.channels,
        [Channel::Osc777, Channel::Bell]
    );
}

fn legacy(home: &Path) -> PathBuf {
    home.join(".pi/agent/extensions/eko24ive-pi-ask.json")
}

fn legacy_v5() -> serde_json::Value {
    let keymaps: serde_json::Map<String, serde_json::Value> =
        ["global", "main", "editor", "noteEditor", "settingsModal"]
            .iter()
            .map(|ctx| {
                let context = pi_ask::keymap::Context::from_name(ctx).unwrap();
                let actions: serde_json::Map<String, serde_json::Value> = context
                    .actions()
                    .map(|a| (a.name().to_owned(), json!(a.default_keys())))
                    .collect();
                (ctx.to_string(), serde_json::Value::Object(actions))
            })
            .collect();
    json!({
        "schemaVersion": 5,
        "answer": { "extractionModels": ["openai/gpt-5-mini"], "extractionRetries": 2, "extractionTimeoutMs": 10000 },
        "behaviour": { "autoSubmitWhenAnsweredWithoutNotes": true, "confirmDismissWhenDirty": true, "doublePressReviewShortcuts": true, "presentSingleAsMulti": false, "showFooterHints": true },
        "keymaps": keymaps,
        "notifications": { "channels": ["osc9"], "enabled": true }
    })
}

#[test]
fn the_original_json_config_is_read_when_the_toml_file_is_absent_and_never_written() {
    let home = tempfile::tempdir().unwrap();
    let text = serde_json::to_string_pretty(&legacy_v5()).unwrap();
    write(&legacy(home.path()), &text);
    let mut store = ConfigStore::open(paths_in(home.path()));
    assert_eq!(
        store.source(),
        &ConfigSource::LegacyJson(legacy(home.path()))
    );
    let c = store.config().clone();
    assert!(
        c.behaviour.auto_submit_when_answered_without_notes
            && c.behaviour.double_press_review_shortcuts
    );
    assert_eq!(c.notifications.channels, [Channel::Osc9]);
    assert_eq!(c.answer.extraction_retries, 2);
    assert!(
        !toml_path(home.path()).exists(),
        "no TOML snapshot while the JSON file is the source"
    );
    let err = store
        .set_setting(Setting::ShowFooterHints, false)
        .unwrap_err()
        .to_string();
    assert!(err.contains("never writes"), "{err}");
    assert_eq!(std::fs::read_to_string(legacy(home.path())).unwrap(), text);
    assert!(!toml_path(home.path()).exists());
}

#[test]
fn the_toml_file_wins_over_the_original_json_config() {
    let home = tempfile::tempdir().unwrap();
    write(&legacy(home.path()), &legacy_v5().to_string());
    write(&toml_path(home.path()), "schemaVersion = 5\n");
    let loaded = load(&paths_in(home.path()));
    assert_eq!(loaded.config, Config::default());
}

#[test]
fn an_explicit_json_config_is_read_in_its_own_format() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.json");
    write(&path, &legacy_v5().to_string());
    let paths = ConfigPaths::resolve(Some(&path), |_| None);
    let loaded = load(&paths);
    assert!(loaded.config.behaviour.double_press_review_shortcuts);
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
}

#[test]
fn legacy_flat_keymaps_from_old_versions_are_migrated_in_memory() {
    for version in [1, 2, 3] {
        let home = tempfile::tempdir().unwrap();
        let text = json!({ "schemaVersion": version, "behaviour": { "showFooterHints": false },
            "keymaps": { "cancel": "q", "confirm": "ctrl+k", "dismiss": "ctrl+d", "optionNote": "x", "questionNote": "shift+x", "toggle": "ctrl+t" } })
        .to_string();
        write(&legacy(home.path()), &text);
        let loaded = load(&paths_in(home.path()));
        assert!(
            loaded.notices.is_empty(),
            "v{version}: {:?}",
            loaded.notices
        );
        let k = &loaded.config.keymaps;
        let ids = |a| k.keys(a).iter().map(|k| k.to_string()).collect::<Vec<_>>();
        assert_eq!(ids(Action::GlobalDismiss), ["ctrl+d"]);
        assert_eq!(ids(Action::MainCancel), ["q"]);
        assert_eq!(ids(Action::MainConfirm), ["ctrl+k"]);
        assert_eq!(ids(Action::MainToggle), ["ctrl+t"]);
        assert_eq!(ids(Action::EditorSubmit), ["ctrl+k"]);
        assert_eq!(ids(Action::EditorClose), ["q"]);
        assert_eq!(ids(Action::NoteEditorSave), ["ctrl+k"]);
        assert_eq!(ids(Action::NoteEditorClose), ["q"]);
        assert_eq!(ids(Action::MainChangeQuestionType), ["t"]);
        assert_eq!(ids(Action::SettingsModalClose), ["esc", "ctrl+c", "?"]);
        assert!(
            !loaded.config.behaviour.show_footer_hints,
            "user values survive migration"
        );
        assert!(loaded.config.notifications.enabled);
        assert_eq!(
            std::fs::read_to_string(legacy(home.path())).unwrap(),
            text,
            "migration never writes"
        );
    }
}

#[test]
fn v4_configs_get_the_v5_defaults_only_where_absent() {
    let home = tempfile::tempdir().unwrap();
    let mut v4 = legacy_v5();
    v4["schemaVersion"] = json!(4);
    v4["behaviour"]
        .as_object_mut()
        .unwrap()
        .remove("presentSingleAsMulti");
    v4["behaviour"]["showFooterHints"] = json!(false);
    v4["keymaps"]["main"]
        .as_object_mut()
        .unwrap()
        .remove("changeQuestionType");
    write(&legacy(home.path()), &v4.to_string());
    let loaded = load(&paths_in(home.path()));
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    assert!(!loaded.config.behaviour.present_single_as_multi);
    assert!(!loaded.config.behaviour.show_footer_hints);
    assert_eq!(
        loaded.config.keymaps.keys(Action::MainChangeQuestionType),
        &[KeyId::parse("t").unwrap()]
    );
}

#[test]
fn the_store_holds_every_saved_change_and_reset() {
    let home = tempfile::tempdir().unwrap();
    write(&toml_path(home.path()), USER_FILE);
    let mut store = ConfigStore::open(paths_in(home.path()));
    store
        .set_setting(Setting::DoublePressReviewShortcuts, false)
        .unwrap();
    assert!(!store.config().behaviour.double_press_review_shortcuts);
    store.reset().unwrap();
    assert!(
        store.config().behaviour.double_press_review_shortcuts,
        "the default is on, as in the original"
    );
    let text = std::fs::read_to_string(toml_path(home.path())).unwrap();
    assert!(
        text.contains("# I like it fast"),
        "reset keeps comments: {text}"
    );
    assert!(
        !text.contains("[keymaps.main]"),
        "reset drops keymap overrides: {text}"
    );
    assert_eq!(load(&paths_in(home.path())).config, Config::default());
}

#[test]
fn a_toggle_with_no_file_creates_the_snapshot_with_that_value() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/cfg.toml");
    let paths = ConfigPaths::resolve(Some(&path), |_| None);
    let mut store = ConfigStore::open(paths.clone());
    assert!(!path.exists(), "opening writes nothing");
    store.set_setting(Setting::ShowFooterHints, false).unwrap();
    let loaded = load(&paths);
    assert!(!loaded.config.behaviour.show_footer_hints);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .starts_with("# pi-ask configuration.")
    );
}

/// The TOML blocks that follow each `## Example:` heading of docs/keymaps.md.
fn doc_examples() -> Vec<(String, String)> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/keymaps.md"))
            .unwrap();
    let mut examples = Vec::new();
    for section in doc.split("## Example: ").skip(1) {
        let name = section.lines().next().unwrap().to_owned();
        let body = section
            .split("```toml\n")
            .nth(1)
            .unwrap()
            .split("```")
            .next()
            .unwrap()
            .to_owned();
        examples.push((name, body));
    }
    examples
}

#[test]
fn both_keymap_examples_in_the_docs_pass_validation() {
    let examples = doc_examples();
    assert_eq!(
        examples.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["vim-style", "emacs-style"]
    );
    for (name, body) in examples {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pi-ask.toml");
        std::fs::write(&path, &body).unwrap();
        let loaded = load(&ConfigPaths::resolve(Some(&path), |_| None));
        assert!(loaded.notices.is_empty(), "{name}: {:?}", loaded.notices);
        assert_ne!(
            loaded.config.keymaps,
            pi_ask::keymap::Keymaps::default(),
            "{name} changes something"
        );
        let bound = |a: Action| {
            loaded
                .config
                .keymaps
                .keys(a)
                .iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
        };
        match name.as_str() {
            "vim-style" => assert_eq!(bound(Action::MainNextOption), ["j", "down"]),
            _ => assert_eq!(bound(Action::GlobalDismiss), ["ctrl+g"]),
        }
    }
}

#[test]
fn without_home_the_passwd_home_is_used_and_without_either_nothing_is_written() {
    fn fake_home() -> Option<PathBuf> {
        Some(PathBuf::from("/nonexistent-home/user/./x/.."))
    }
    let paths = ConfigPaths::resolve_with(None, |_| None, fake_home);
    assert_eq!(
        paths.toml,
        PathBuf::from("/nonexistent-home/user/.pi/agent/extensions/pi-ask.toml"),
        "normalized and absolute"
    );
    assert!(!paths.no_home);

    let cwd_before: Vec<_> = std::fs::read_dir(".")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let paths = ConfigPaths::resolve_with(None, |_| None, || None);
    assert!(paths.no_home);
    let loaded = pi_ask::stores::config::load(&paths);
    assert_eq!(loaded.config, pi_ask::stores::config::Config::default());
    assert_eq!(loaded.notices.len(), 1, "one notice");
    assert!(
        loaded.notices[0].contains("No home directory"),
        "{:?}",
        loaded.notices
    );
    let cwd_after: Vec<_> = std::fs::read_dir(".")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(cwd_before, cwd_after, "no ./.pi was created");
    let mut store = ConfigStore::open(paths);
    let err = store
        .set_setting(Setting::AutoSubmit, true)
        .unwrap_err()
        .to_string();
    assert!(err.contains("No home directory"), "{err}");
}

#[test]
fn a_regular_file_in_place_of_the_config_folder_gets_the_could_not_create_notice() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join(".pi"), "not a folder").unwrap();
    let loaded = pi_ask::stores::config::load(&paths_in(home.path()));
    assert!(loaded.notices.is_empty(), "loading tries to write nothing");
    let mut store = ConfigStore::open(paths_in(home.path()));
    let notice = store.create_default().expect("the notice");
    let expected = format!(
        "Could not create the default config at {}: ",
        toml_path(home.path()).display()
    );
    assert!(notice.starts_with(&expected), "{notice}");
    assert_eq!(
        std::fs::read_to_string(home.path().join(".pi")).unwrap(),
        "not a folder",
        "the file is untouched"
    );
}

#[test]
fn the_settings_docs_table_is_generated_from_the_settings_table() {
    let doc = include_str!("../docs/configuration.md");
    let begin = "<!-- settings table: generated from src/settings.rs -->";
    let end = "<!-- end of settings table -->";
    let start = doc.find(begin).expect("the begin marker") + begin.len();
    let stop = doc[start..].find(end).expect("the end marker") + start;
    assert_eq!(
        doc[start..stop].trim_matches('\n'),
        pi_ask::settings::Setting::docs_table().trim_end(),
        "regenerate the table in docs/configuration.md from Setting::docs_table()"
    );
}

#[test]
fn every_toggle_of_the_settings_table_is_in_the_commented_default_file() {
    let text = pi_ask::stores::config::default_snapshot(&pi_ask::stores::config::Config::default());
    for setting in pi_ask::settings::Setting::ALL {
        let spec = setting.spec();
        assert!(
            text.contains(&format!(
                "# {}\n{} = {}",
                spec.comment, spec.key, spec.default
            )),
            "{} is missing from:\n{text}",
            spec.key
        );
    }
    let parsed: toml::Table = text.parse().expect("the default file is TOML");
    assert_eq!(parsed["files"]["maxEntries"].as_integer(), Some(200_000));
}

/// A syntax error used to say only `unclosed table, expected ]`; it names the file, line and
/// column, and quotes the line.
#[test]
fn a_toml_syntax_error_names_its_line_and_column_and_quotes_the_line() {
    let home = tempfile::tempdir().unwrap();
    let path = toml_path(home.path());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        "schemaVersion = 5\n\n[keymaps.main\nnextOption = \"j\"\n",
    )
    .unwrap();
    let loaded = pi_ask::stores::config::load(&paths_in(home.path()));
    assert_eq!(loaded.notices.len(), 1, "{:?}", loaded.notices);
    let notice = &loaded.notices[0];
    assert!(
        notice.contains("(pi-ask.toml:3:14: ") && notice.contains("; line 3: [keymaps.main)"),
        "{notice}"
    );
    // A control character in the offending line is not quoted raw.
    std::fs::write(&path, "schemaVersion = 5\n[x\u{1b}]2;t\u{7}\n").unwrap();
    let notice = pi_ask::stores::config::load(&paths_in(home.path()))
        .notices
        .remove(0);
    assert!(
        !notice.contains('\u{1b}') && notice.contains("pi-ask.toml:2:"),
        "{notice}"
    );
}

/// The store writes nothing when it opens: the commented default is created by
/// `create_default`, which a session calls once its first frame is on the screen, once.
#[test]
fn the_default_config_is_created_after_opening_once() {
    let home = tempfile::tempdir().unwrap();
    let path = toml_path(home.path());
    let mut store = ConfigStore::open(paths_in(home.path()));
    assert!(!path.exists(), "opening writes nothing");
    assert_eq!(store.create_default(), None);
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        written,
        pi_ask::stores::config::default_snapshot(&Config::default())
    );
    assert!(
        !store.reload_if_changed(),
        "the store's own write is not an edit made on disk"
    );
    std::fs::write(&path, "# mine\n").unwrap();
    assert_eq!(store.create_default(), None);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "# mine\n",
        "once only"
    );
}

/// A file that appeared since the store found none (another pi-ask, an editor), or one a save
/// already wrote, is left as it is.
#[test]
fn creating_the_default_config_never_replaces_a_file() {
    let home = tempfile::tempdir().unwrap();
    let path = toml_path(home.path());
    let mut store = ConfigStore::open(paths_in(home.path()));
    write(&path, "# someone else's\n");
    assert_eq!(store.create_default(), None);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "# someone else's\n"
    );

    let home = tempfile::tempdir().unwrap();
    let path = toml_path(home.path());
    let mut store = ConfigStore::open(paths_in(home.path()));
    store.set_setting(Setting::AutoSubmit, true).unwrap();
    let saved = std::fs::read_to_string(&path).unwrap();
    assert_eq!(store.create_default(), None);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), saved);
}

/// A default config that cannot be created is said on the form, after it opened.
#[test]
fn a_default_config_that_cannot_be_created_is_said_on_the_form() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join(".pi"), "not a folder").unwrap();
    let config = home.path().join(".pi/agent/extensions/pi-ask.toml");
    let mut h = pi_ask::testing::Harness::with_config(
        include_str!("../fixtures/payloads/showcase.json"),
        &config,
        120,
        30,
    )
    .unwrap();
    let screen = h.screen_text();
    assert!(
        screen.contains("Could not create the default config"),
        "{screen}"
    );
    let mut settings = pi_ask::testing::Harness::settings(&config, 120, 30);
    let screen = settings.screen_text();
    assert!(
        screen.contains("Could not create the default config"),
        "{screen}"
    );
}
