//! The flow's one "question waiting" notification, sent through the configured channels in order.
//! A failing channel is reported in the attempts and never affects the flow.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::model::Notification;
use crate::stores::config::Channel;

/// How long a command channel may run before it is killed.
pub const COMMAND_TIMEOUT: Duration = Duration::from_millis(5000);

/// What happened on one channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// The channel (`bell`, `osc9`, `osc777`, `command`).
    pub channel: String,
    /// Whether it went out.
    pub ok: bool,
    /// Why not, if it failed.
    pub error: Option<String>,
}

/// Control characters removed and `;` (the OSC field separator) replaced.
fn osc_field(text: &str) -> String {
    // Control characters dropped, then what the control filter lets through (bidi overrides,
    // line separators) shown as `?`.
    let plain: String = text.chars().filter(|c| !c.is_control()).collect();
    crate::printable::printable(&plain).replace(';', ":")
}

/// The bytes a terminal channel writes, or `None` for a command channel.
pub fn terminal_sequence(channel: &Channel, n: &Notification) -> Option<String> {
    match channel {
        Channel::Bell => Some("\x07".to_owned()),
        Channel::Osc9 => Some(format!("\x1b]9;{}\x07", osc_field(&n.message))),
        Channel::Osc777 => Some(format!(
            "\x1b]777;notify;{};{}\x07",
            osc_field(&n.title),
            osc_field(&n.message)
        )),
        Channel::Command(_) => None,
    }
}

/// Sends the notification through every channel in order. Terminal channels write to `tty`;
/// commands run in the background (`sh -c`) so a slow one cannot hold up the form.
pub fn send(n: &Notification, channels: &[Channel], tty: &mut dyn Write) -> Vec<Attempt> {
    send_with(n, channels, tty, &[])
}

/// [`send`], with more variables in the commands' environment (`pi-ask serve` adds
/// `ASK_NOTIFY_URL`, the page of the ask).
pub fn send_with(
    n: &Notification,
    channels: &[Channel],
    tty: &mut dyn Write,
    env: &[(&str, String)],
) -> Vec<Attempt> {
    channels
        .iter()
        .map(|channel| match (channel, terminal_sequence(channel, n)) {
            (_, Some(bytes)) => {
                let name = match channel {
                    Channel::Bell => "bell",
                    Channel::Osc9 => "osc9",
                    _ => "osc777",
                };
                let result = tty.write_all(bytes.as_bytes()).and_then(|_| tty.flush());
                Attempt {
                    channel: name.into(),
                    ok: result.is_ok(),
                    error: result.err().map(|e| e.to_string()),
                }
            }
            (Channel::Command(command), None) => {
                let spawned = Command::new("sh")
                    .arg("-c")
                    .arg(command)
                    .env("ASK_NOTIFY_EVENT", &n.event)
                    .env("ASK_NOTIFY_TITLE", &n.title)
                    .env("ASK_NOTIFY_MESSAGE", &n.message)
                    .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn();
                match spawned {
                    Ok(mut child) => {
                        std::thread::spawn(move || {
                            let start = Instant::now();
                            while start.elapsed() < COMMAND_TIMEOUT {
                                if let Ok(Some(_)) = child.try_wait() {
                                    return;
                                }
                                std::thread::sleep(Duration::from_millis(20));
                            }
                            let _ = child.kill();
                            let _ = child.wait();
                        });
                        Attempt {
                            channel: "command".into(),
                            ok: true,
                            error: None,
                        }
                    }
                    Err(e) => Attempt {
                        channel: "command".into(),
                        ok: false,
                        error: Some(e.to_string()),
                    },
                }
            }
            (_, None) => Attempt {
                channel: "unknown".into(),
                ok: false,
                error: None,
            },
        })
        .collect()
}
