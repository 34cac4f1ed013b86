//! What `pi-ask inbox` tells the person beyond its list: each ask that arrives, once, through the
//! configured notification channels (the bell by default; a tab in the background or a terminal
//! over SSH hears it), and how many asks wait, in the terminal's title. The title the terminal had
//! is pushed on its title stack first and popped when the inbox ends.

use std::collections::HashSet;
use std::fs::File;
use std::io::Write;

use crate::inbox::WaitingAsk;
use crate::model::Notification;
use crate::printable::printable;
use crate::stores::config::Notifications;

/// What has been told, and where to tell it.
pub struct Arrivals {
    told: HashSet<String>,
    notifications: Notifications,
    tty: Option<File>,
    titled: Option<usize>,
    /// Escape sequences may be written (not in line mode, which writes only text).
    escapes: bool,
}

impl Arrivals {
    /// Tells through `notifications` on the controlling terminal (none: nothing is written). In
    /// line mode (`line_mode`), which writes only text, there is no title and only command
    /// channels are used.
    pub fn new(mut notifications: Notifications, line_mode: bool) -> Arrivals {
        if line_mode {
            notifications
                .channels
                .retain(|c| matches!(c, crate::stores::config::Channel::Command(_)));
        }
        let mut tty = crate::drivers::tty::open_tty().ok();
        if let (Some(tty), false) = (&mut tty, line_mode) {
            // xterm's title stack: the title the terminal had comes back when the inbox ends.
            let _ = tty.write_all(b"\x1b[22;0t");
        }
        Arrivals {
            told: HashSet::new(),
            notifications,
            tty,
            titled: None,
            escapes: !line_mode,
        }
    }

    /// The asks waiting now: each one not seen before is told once, and the title follows the
    /// count.
    pub fn see(&mut self, waiting: &[WaitingAsk]) {
        let Some(tty) = self.tty.as_mut() else {
            return;
        };
        for ask in waiting {
            if self.told.insert(ask.id.clone()) && self.notifications.enabled {
                let n = Notification {
                    event: "question-waiting".into(),
                    title: "pi-ask inbox".into(),
                    message: printable(&format!(
                        "Question waiting from {}: {}",
                        ask.client, ask.first_prompt
                    )),
                };
                crate::tui::notify::send(&n, &self.notifications.channels, tty);
            }
        }
        if self.escapes && self.titled != Some(waiting.len()) {
            self.titled = Some(waiting.len());
            let title = match waiting.len() {
                0 => "pi-ask inbox".to_owned(),
                n => format!("pi-ask inbox: {n} waiting"),
            };
            let _ = write!(tty, "\x1b]0;{title}\x07");
            let _ = tty.flush();
        }
    }
}

impl Drop for Arrivals {
    fn drop(&mut self) {
        if let (Some(tty), true) = (&mut self.tty, self.escapes) {
            let _ = tty.write_all(b"\x1b[23;0t");
        }
    }
}
