//! `pi-ask hook <host>`: pi-ask answering an agent host's own question tool through the host's
//! hooks. The hook reads the host's event on standard input, queues the questions as an ask where
//! `pi-ask inbox` and the web page answer it, waits, and prints the answer in the host's format.
//!
//! Hooks run with no terminal, so the hook never draws. It fails open: when nothing watches the
//! queue, when the event is not one it answers, or when nobody answers within its time, it exits
//! 0 with no output at once, and the host asks in its own way. A signal (the host giving up on
//! the hook) takes the ask back.

pub mod claude;
pub mod codex;
pub mod elicitation;
pub mod gemini;
pub(crate) mod json_text;
pub mod questions;
pub mod setup;

use std::time::Duration;

use serde_json::Value;

use crate::result::AskResult;
use crate::stores::queue::{QueuedAsk, SharedQueue, Waited};

/// An agent host whose own question tool pi-ask answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    /// Claude Code's `AskUserQuestion`.
    Claude,
    /// Codex's `request_user_input`.
    Codex,
    /// Gemini CLI's `ask_user`.
    Gemini,
}

impl Host {
    /// The host's name, as the inbox shows who asks.
    pub fn name(self) -> &'static str {
        match self {
            Host::Claude => "Claude Code",
            Host::Codex => "Codex",
            Host::Gemini => "Gemini CLI",
        }
    }

    /// The word naming it on pi-ask's command line (`pi-ask hook <word>`).
    pub fn word(self) -> &'static str {
        match self {
            Host::Claude => "claude",
            Host::Codex => "codex",
            Host::Gemini => "gemini",
        }
    }

    /// The host's question tool.
    pub fn tool(self) -> &'static str {
        self.slot().matcher
    }

    /// Where pi-ask's hook goes in the host's hooks config.
    pub fn slot(self) -> setup::HookSlot {
        match self {
            Host::Claude => setup::HookSlot {
                event: "PreToolUse",
                matcher: "AskUserQuestion",
                marker: "hook claude",
            },
            Host::Codex => setup::HookSlot {
                event: "PreToolUse",
                matcher: "request_user_input",
                marker: "hook codex",
            },
            Host::Gemini => setup::HookSlot {
                event: "BeforeTool",
                matcher: "ask_user",
                marker: "hook gemini",
            },
        }
    }

    /// Every place pi-ask's hook goes in the host's hooks config: the question tool's, and for
    /// Claude Code its `Elicitation` event (an MCP server's form; every server: no matcher).
    pub fn slots(self) -> Vec<setup::HookSlot> {
        let mut slots = vec![self.slot()];
        if self == Host::Claude {
            slots.push(setup::HookSlot {
                event: elicitation::EVENT,
                matcher: "",
                marker: "hook claude",
            });
        }
        slots
    }

    /// Whether `event` is an MCP server's form rather than the host's question tool (Claude Code's
    /// `Elicitation` event; the other hosts have no hook for forms).
    pub fn is_server_form(self, event: &Value) -> bool {
        self == Host::Claude && elicitation::is_elicitation(event)
    }

    /// Who asks, as the inbox shows it: the host, or the MCP server whose form Claude Code would
    /// show (its name kept to a line's worth).
    pub fn asker(self, event: &Value) -> String {
        if self.is_server_form(event) {
            let server: String = elicitation::server(event).chars().take(60).collect();
            return format!("{} (MCP server {server})", self.name());
        }
        self.name().to_owned()
    }

    /// The `ask_user` payload for the host's hook `event` (its event for its question tool, or
    /// Claude Code's for an MCP server's form), or why there is none.
    pub fn payload(self, event: &Value) -> Result<Value, questions::NotOurs> {
        if self.is_server_form(event) {
            return elicitation::payload(event);
        }
        let slot = self.slot();
        if event.get("hook_event_name").and_then(Value::as_str) != Some(slot.event)
            || event.get("tool_name").and_then(Value::as_str) != Some(slot.matcher)
        {
            return Err(questions::NotOurs::OtherEvent);
        }
        match self {
            Host::Gemini => questions::payload(Some(&gemini::questions_of(event)?)),
            Host::Claude | Host::Codex => {
                questions::payload(event.pointer("/tool_input/questions"))
            }
        }
    }

    /// The hook's output for `result`, the answer to the ask made from `event`.
    pub fn output(self, event: &Value, result: &AskResult) -> Value {
        if self.is_server_form(event) {
            return elicitation::output(event, result);
        }
        match self {
            Host::Claude => claude::output(event, result),
            Host::Codex => codex::output(event, result),
            Host::Gemini => gemini::output(event, result),
        }
    }
}

/// Why an ask made by a hook has no answer (the hook then stays silent and the host asks).
#[derive(Debug, thiserror::Error)]
pub enum NotAnswered {
    /// Neither a terminal inbox nor a web page watches the queue.
    #[error("no pi-ask inbox or web page is watching the queue")]
    Unwatched,
    /// The ask could not be queued.
    #[error("cannot queue the ask: {0}")]
    Queue(#[source] std::io::Error),
    /// A signal (the host gave up on the hook); the ask was taken back.
    #[error("stopped by a signal; the ask was taken back")]
    Stopped,
    /// Nobody answered in time; the ask was taken back.
    #[error("nobody answered within {0} s; the ask was taken back")]
    TimedOut(u64),
    /// The wait could not start (no timer for it); the ask stays queued until its asker is seen
    /// gone.
    #[error("cannot wait for the answer: {0}")]
    Wait(#[source] std::io::Error),
}

/// Asks `payload` in `queue` for `client` in `cwd`, waiting up to `wait` (or until `stop` is
/// set); the answer as JSON, or why there is none (the ask is then taken back).
pub fn ask(
    queue: &SharedQueue,
    payload: Value,
    client: &str,
    cwd: &str,
    wait: Duration,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Value, NotAnswered> {
    if !queue.is_watched() {
        return Err(NotAnswered::Unwatched);
    }
    let ask = QueuedAsk {
        id: crate::stores::queue::new_id(),
        created_at: crate::remote::protocol::unix_ms(),
        client: client.to_owned(),
        cwd: cwd.to_owned(),
        asker: crate::liveness::ProcessId::current(),
        payload,
    };
    queue.submit(&ask).map_err(NotAnswered::Queue)?;
    // The one waiter: the answer, the deadline (or the signal) and an answer crossing the
    // withdrawal settle one outcome, as for an MCP call.
    let waited = crate::stores::queue::waiter::wait_blocking_while(
        std::sync::Arc::clone(queue),
        &ask.id,
        Some(wait),
        stop,
    )
    .map_err(NotAnswered::Wait)?;
    match waited {
        Waited::Answered(answer) => Ok(answer),
        Waited::Withdrawn => Err(NotAnswered::Stopped),
        Waited::TimedOut => Err(NotAnswered::TimedOut(wait.as_secs())),
    }
}
