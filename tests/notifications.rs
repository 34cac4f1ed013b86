//! Notification channels: bell, OSC 9, OSC 777 and a command, in order; failures never matter.

use pi_ask::model::Notification;
use pi_ask::stores::config::Channel;
use pi_ask::tui::notify::{send, terminal_sequence};

fn waiting() -> Notification {
    Notification {
        event: "question.waiting".into(),
        title: "pi ask".into(),
        message: "Question waiting: Scope; now".into(),
    }
}

#[test]
fn terminal_channels_write_their_sequences_in_order() {
    let mut tty = Vec::new();
    let attempts = send(
        &waiting(),
        &[Channel::Bell, Channel::Osc9, Channel::Osc777],
        &mut tty,
    );
    assert!(attempts.iter().all(|a| a.ok));
    assert_eq!(
        String::from_utf8(tty).unwrap(),
        "\x07\x1b]9;Question waiting: Scope: now\x07\x1b]777;notify;pi ask;Question waiting: Scope: now\x07"
    );
    assert_eq!(
        terminal_sequence(&Channel::Command("true".into()), &waiting()),
        None
    );
}

#[test]
fn the_command_channel_gets_the_notification_in_its_environment() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("seen");
    let command = format!(
        "printf '%s|%s|%s' \"$ASK_NOTIFY_EVENT\" \"$ASK_NOTIFY_TITLE\" \"$ASK_NOTIFY_MESSAGE\" > '{}'",
        out.display()
    );
    let attempts = send(&waiting(), &[Channel::Command(command)], &mut Vec::new());
    assert!(attempts[0].ok);
    let start = std::time::Instant::now();
    while !out.exists() && start.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert_eq!(
        std::fs::read_to_string(out).unwrap(),
        "question.waiting|pi ask|Question waiting: Scope; now"
    );
}

#[test]
fn a_failing_channel_does_not_stop_the_others() {
    struct Broken;
    impl std::io::Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("gone"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let attempts = send(
        &waiting(),
        &[Channel::Bell, Channel::Command("exit 3".into())],
        &mut Broken,
    );
    assert!(!attempts[0].ok);
    assert_eq!(attempts.len(), 2, "the command channel still ran");
}

#[test]
fn the_message_names_the_label_compacted_and_cut_at_120_characters() {
    let long = format!(
        "{{\"questions\":[{{\"id\":\"a\",\"label\":\"{}\",\"prompt\":\"P\",\"options\":[{{\"value\":\"x\"}}]}}]}}",
        "word ".repeat(40)
    );
    let h = pi_ask::testing::Harness::new(&long, 80, 20).unwrap();
    let message = &h.notifications()[0].message;
    assert_eq!(message.chars().count(), 120);
    assert!(message.ends_with('…'));
    let spaced = r#"{"questions":[{"id":"a","label":"What\nshould\twe   change?","prompt":"P","options":[{"value":"x"}]}]}"#;
    let h = pi_ask::testing::Harness::new(spaced, 80, 20).unwrap();
    assert_eq!(
        h.notifications()[0].message,
        "Question waiting: What should we change?"
    );
}
