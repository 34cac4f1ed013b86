//! The config file under faults: two processes saving at once, a symlinked config, a full disk,
//! a read-only file system, huge and deeply nested files. The user's file is byte-identical after
//! every failed save and no temp file is left.

mod common;

use std::path::{Path, PathBuf};

use pi_ask::settings::Setting;
use pi_ask::stores::config::{ConfigPaths, ConfigStore};

const USER_FILE: &str = "# my settings\nschemaVersion = 5\n\n[behaviour]\nautoSubmitWhenAnsweredWithoutNotes = false # keep\nshowFooterHints = true\n";

fn store(path: &Path) -> ConfigStore {
    ConfigStore::open(ConfigPaths::resolve(Some(path), |_| None))
}

fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// The child half of the concurrency test: toggles one setting many times, ending on `on`.
#[test]
fn config_saver_child() {
    let (Ok(path), Ok(which)) = (
        std::env::var("PI_ASK_TEST_CONFIG"),
        std::env::var("PI_ASK_TEST_SETTING"),
    ) else {
        return;
    };
    let setting = if which == "auto" {
        Setting::AutoSubmit
    } else {
        Setting::ShowFooterHints
    };
    let last = which == "auto";
    for i in 0..40 {
        let mut store = store(Path::new(&path));
        let on = if i == 39 { last } else { i % 2 == 0 };
        store.set_setting(setting, on).unwrap();
    }
}

#[test]
fn two_processes_saving_different_settings_at_once_both_keep_their_change() {
    for round in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pi-ask.toml");
        std::fs::write(&path, USER_FILE).unwrap();
        let spawn = |which: &str| {
            std::process::Command::new(std::env::current_exe().unwrap())
                .args(["--exact", "config_saver_child", "--test-threads=1"])
                .env("PI_ASK_TEST_CONFIG", &path)
                .env("PI_ASK_TEST_SETTING", which)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        };
        let (mut a, mut b) = (spawn("auto"), spawn("hints"));
        assert!(a.wait().unwrap().success());
        assert!(b.wait().unwrap().success());
        let config = store(&path).config().clone();
        assert!(
            config.behaviour.auto_submit_when_answered_without_notes,
            "round {round}: A's last save kept"
        );
        assert!(
            !config.behaviour.show_footer_hints,
            "round {round}: B's last save kept"
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("# my settings\n"),
            "comments kept:\n{text}"
        );
        assert!(text.contains("# keep"), "{text}");
        assert!(leftovers(dir.path()).is_empty());
    }
}

#[test]
fn a_symlinked_config_is_saved_through_the_link_which_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let dotfiles = dir.path().join("dotfiles");
    std::fs::create_dir_all(&dotfiles).unwrap();
    let real = dotfiles.join("pi-ask.toml");
    std::fs::write(&real, USER_FILE).unwrap();
    let link = dir.path().join("pi-ask.toml");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    store(&link).set_setting(Setting::AutoSubmit, true).unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "still a link"
    );
    let text = std::fs::read_to_string(&real).unwrap();
    assert!(
        text.contains("autoSubmitWhenAnsweredWithoutNotes = true # keep"),
        "{text}"
    );
    assert!(leftovers(&dotfiles).is_empty() && leftovers(dir.path()).is_empty());
}

/// A small tmpfs mounted for the test (root, as in CI); `None` where mounting is not allowed.
struct Mount(PathBuf);

impl Mount {
    fn tmpfs(dir: &Path, size: &str) -> Option<Mount> {
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Mount(dir.to_path_buf()))
    }

    fn remount_read_only(&self) -> bool {
        std::process::Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_fails_the_save_and_leaves_the_file_and_no_temp_file() {
    let dir = tempfile::tempdir().unwrap();
    let Some(mount) = Mount::tmpfs(dir.path(), "16k") else {
        common::not_run("cannot mount a tmpfs here (needs root)");
        return;
    };
    let path = mount.0.join("pi-ask.toml");
    std::fs::write(&path, USER_FILE).unwrap();
    // Fill the rest of the file system.
    let filler = mount.0.join("filler");
    let mut bytes = 0usize;
    let mut file = std::fs::File::create(&filler).unwrap();
    use std::io::Write;
    while file.write_all(&[b'x'; 512]).is_ok() {
        bytes += 512;
        if bytes > 1 << 20 {
            break;
        }
    }
    let _ = file.sync_all();
    let err = store(&path)
        .set_setting(Setting::AutoSubmit, true)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("Unable to save ask config at"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), USER_FILE);
    assert!(leftovers(&mount.0).is_empty(), "{:?}", leftovers(&mount.0));
}

#[test]
fn a_read_only_file_system_fails_the_save_and_leaves_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let Some(mount) = Mount::tmpfs(dir.path(), "64k") else {
        common::not_run("cannot mount a tmpfs here (needs root)");
        return;
    };
    let path = mount.0.join("pi-ask.toml");
    std::fs::write(&path, USER_FILE).unwrap();
    assert!(mount.remount_read_only());
    let mut s = store(&path);
    let err = s
        .set_setting(Setting::ShowFooterHints, false)
        .unwrap_err()
        .to_string();
    assert!(err.contains("edit it manually"), "{err}");
    assert!(
        s.config().behaviour.show_footer_hints,
        "the toggle reverted"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), USER_FILE);
    assert!(s.reset().is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), USER_FILE);
}

#[test]
fn huge_and_deeply_nested_files_load_defaults_with_a_notice_and_stay_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let deep_json = dir.path().join("deep.json");
    let nested = format!(
        "{{\"schemaVersion\":5,\"x\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    std::fs::write(&deep_json, &nested).unwrap();
    let s = store(&deep_json);
    assert!(
        s.notice().is_some_and(|n| n.contains("invalid")),
        "{:?}",
        s.notice()
    );
    assert_eq!(std::fs::read_to_string(&deep_json).unwrap(), nested);

    let deep_toml = dir.path().join("deep.toml");
    let nested = format!(
        "schemaVersion = 5\nx = {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    std::fs::write(&deep_toml, &nested).unwrap();
    let s = store(&deep_toml);
    assert!(s.notice().is_some(), "a notice, not a crash");
    assert_eq!(std::fs::read_to_string(&deep_toml).unwrap(), nested);

    // A big but valid file within the config cap applies; one past it is named, not read.
    let cap = pi_ask::bounded_read::CONFIG_CAP as usize;
    let padded = |pad: usize| {
        format!(
            "{{\"schemaVersion\":5,\"behaviour\":{{\"showFooterHints\":false}},\"pad\":\"{}\"}}",
            "x".repeat(pad)
        )
    };
    let big = dir.path().join("big.json");
    std::fs::write(&big, padded(cap - 1024)).unwrap();
    assert!(
        !store(&big).config().behaviour.show_footer_hints,
        "a big but valid file still applies"
    );
    let huge = dir.path().join("huge.json");
    let text = padded(cap);
    std::fs::write(&huge, &text).unwrap();
    let s = store(&huge);
    assert!(s.config().behaviour.show_footer_hints, "defaults apply");
    assert!(
        s.notice()
            .is_some_and(|n| n.contains("over pi-ask's limit")),
        "{:?}",
        s.notice()
    );
    assert_eq!(std::fs::read_to_string(&huge).unwrap(), text);
}

#[test]
fn a_toggle_saved_after_the_user_edited_the_file_keeps_the_users_edit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pi-ask.toml");
    std::fs::write(&path, USER_FILE).unwrap();
    let mut s = store(&path);
    // The user edits the file in another editor while the form is open (not yet noticed).
    let edited = USER_FILE.replace("showFooterHints = true", "showFooterHints = false # mine");
    std::fs::write(&path, &edited).unwrap();
    s.set_setting(Setting::AutoSubmit, true).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("showFooterHints = false # mine"), "{text}");
    assert!(
        text.contains("autoSubmitWhenAnsweredWithoutNotes = true # keep"),
        "{text}"
    );
}
