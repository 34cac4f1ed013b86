//! `pi-ask mcp`: an MCP server over stdio (the official `rmcp` SDK) exposing `ask_user`. A call is
//! validated, queued for `pi-ask inbox`, and answered with the inbox's result. Standard output
//! carries only the protocol; messages go to standard error.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData as McpError, ServerHandler, ServiceExt};
use serde_json::Value;

use crate::form::Form;
use crate::input;
use crate::result::{self, AskResult};
use crate::stores::history::ProcessId;
use crate::stores::queue::waiter::{Waiting, Watcher};
use crate::stores::queue::{QueuedAsk, SharedQueue, Waited};

mod client;
mod closed_forms;
mod elicit;
mod host_form;
pub mod http;
mod http_replies;
pub(crate) mod line_check;
mod line_guard;
mod stdio;

pub use crate::stores::config::ElicitMode;
pub use client::{Client, Dialect};
pub use elicit::{ElicitReply, Elicitation, elicitation};

pub use line_guard::{IdScanner, LineGuard, Piece};

/// How often a waiting call reports progress, when the client asked for it.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// The tool's description for a model calling it over MCP: what it does and where the answers
/// are, then the skill's guidance on when to ask. The skill is written for pi, whose tool
/// results carry `details`: over MCP the same object is the result's `structuredContent`, so the
/// guidance says so; its "Evaluation cases" section is for skill authors and is left out.
pub fn tool_description() -> String {
    let skill = include_str!("../../skills/ask-user/SKILL.md");
    let body = skill
        .strip_prefix("---")
        .and_then(|rest| rest.split_once("\n---"))
        .map_or(skill, |(_, body)| body)
        .trim();
    let guidance = body
        .split_once("\n## Evaluation cases")
        .map_or(body, |(before, _)| before)
        .trim()
        .replace("`details.", "`structuredContent.");
    format!(
        "Ask the person structured questions and wait for their answers. The questions are shown in `pi-ask inbox` (a terminal) or in this host's own form; the call returns when the person answers, declines, or the ask times out. The result's text summarizes the answers; its structuredContent holds them normalized: answers by question id with the chosen option values, labels and indices, the person's own words (customText) and notes, plus cancelled and mode.\n\n{guidance}"
    )
}

/// The tool's name unless told otherwise (`pi-ask mcp --tool-name`).
pub const TOOL_NAME: &str = "ask_user";

/// A name for the tool other than `ask_user` (Gemini CLI hides MCP tools named `ask_user` in
/// headless mode): 1 to 64 of `A-Z a-z 0-9 _ - .`, as MCP hosts accept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolName(String);

/// Why a tool name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a tool name is 1 to 64 of the letters A-Z and a-z, digits, '_', '-' and '.'")]
pub struct BadToolName;

impl std::str::FromStr for ToolName {
    type Err = BadToolName;

    fn from_str(name: &str) -> Result<ToolName, BadToolName> {
        let fits = (1..=64).contains(&name.len())
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
        fits.then(|| ToolName(name.to_owned())).ok_or(BadToolName)
    }
}

impl ToolName {
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for ToolName {
    fn default() -> ToolName {
        ToolName(TOOL_NAME.to_owned())
    }
}

/// The `ask_user` tool as listed (under `name`).
pub fn ask_user_tool(name: &ToolName) -> Tool {
    let schema = match crate::schema::input_schema() {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    Tool::new(
        name.as_str().to_owned(),
        tool_description(),
        Arc::new(schema),
    )
}

/// How long an ask waits for an inbox before the host's own form is used, by default.
pub const DEFAULT_ELICIT_AFTER: Duration =
    Duration::from_secs(crate::stores::config::DEFAULT_ELICIT_AFTER_SECONDS);

/// What the person and the agent are told while no inbox runs.
pub const NO_INBOX: &str = "no inbox is running: start `pi-ask inbox` in a terminal";
/// Asks queued within this of the last notice about a missing inbox are not notified again.
const NOTICE_GAP: Duration = Duration::from_secs(10);

/// The progress message of a waiting call: where it can be answered, and for how long it waited.
pub fn progress_message(watched: bool, in_host_form: bool, waited: Duration) -> String {
    let secs = waited.as_secs();
    match (watched, in_host_form) {
        (true, true) => {
            format!("waiting for an answer in pi-ask inbox or this host's form ({secs} s)")
        }
        (true, false) => format!("waiting for an answer in pi-ask inbox ({secs} s)"),
        (false, true) => format!(
            "waiting for an answer in this host's form; no pi-ask inbox is watching ({secs} s)"
        ),
        (false, false) => format!("{NO_INBOX} ({secs} s)"),
    }
}

/// The notification sent when an ask is queued and no inbox runs: the form's first prompt, and
/// what to do.
pub fn unwatched_notification(form: &Form) -> crate::model::Notification {
    // The prompt, not the short label: it is all the person sees of the ask until they open it.
    let subject = &form.questions[0].prompt;
    let title = form.title.clone().unwrap_or_else(|| "pi ask".into());
    crate::model::Notification {
        event: "question.waiting".into(),
        title,
        message: format!("{} ({NO_INBOX})", crate::model::waiting_message(subject)),
    }
}

pub use crate::stores::config::DEFAULT_MAX_WAITING_CALLS;

/// The server: one queue, an optional timeout for waiting calls.
#[derive(Debug, Clone)]
pub struct AskServer {
    /// Where calls are queued for an inbox.
    pub queue: SharedQueue,
    /// How long a call waits for an answer; `None`: for good.
    pub timeout: Option<Duration>,
    /// The working directory asks carry (where `@` looks).
    pub cwd: String,
    /// How often a waiting call reports progress ([`PROGRESS_EVERY`]).
    pub progress_every: Duration,
    /// Most calls waiting at once ([`DEFAULT_MAX_WAITING_CALLS`]).
    pub max_waiting: usize,
    /// The one task that looks for every waiting call's answer.
    pub watcher: Arc<Watcher>,
    /// The channels that tell the person an ask waits while no inbox is running.
    pub notifications: crate::stores::config::Notifications,
    /// When to ask through the host's own form (MCP elicitation).
    pub elicit: ElicitMode,
    /// The tool's name as listed (`ask_user` unless told otherwise).
    pub tool_name: ToolName,
    /// How long an ask waits for an inbox to take it before the host's form is used (fallback).
    pub elicit_after: Duration,
    /// When the person was last told so (asks queued close together are told once).
    last_unwatched_notice: Arc<std::sync::Mutex<Option<Instant>>>,
    /// Set when the client is gone (its input ended, or a termination signal): every waiting
    /// call gives up and takes its ask back, as a cancelled call does.
    gone: Arc<tokio::sync::watch::Sender<bool>>,
    /// The host's forms closed before the person answered there (a reply that comes anyway is
    /// said).
    closed_forms: closed_forms::ClosedForms,
    /// The client declined a form at once (it has nobody to show forms to): no more are sent.
    forms_declined: Arc<std::sync::atomic::AtomicBool>,
    /// The asks open in the client's form (progress says they can be answered there too).
    form_open: Arc<std::sync::Mutex<std::collections::HashSet<String>>>,
    /// Asks whose form a 2026-07-28 client shows, until it calls again.
    suspended: host_form::Suspensions,
}

impl AskServer {
    /// A server queueing calls in `queue`, each waiting up to `timeout`.
    pub fn new(queue: SharedQueue, timeout: Option<Duration>, cwd: String) -> AskServer {
        AskServer {
            queue,
            timeout,
            cwd,
            progress_every: PROGRESS_EVERY,
            max_waiting: DEFAULT_MAX_WAITING_CALLS,
            watcher: Arc::new(Watcher::default()),
            notifications: crate::stores::config::Notifications::default(),
            elicit: ElicitMode::default(),
            tool_name: ToolName::default(),
            elicit_after: DEFAULT_ELICIT_AFTER,
            last_unwatched_notice: Arc::default(),
            gone: Arc::new(tokio::sync::watch::Sender::new(false)),
            closed_forms: closed_forms::ClosedForms::default(),
            forms_declined: Arc::default(),
            form_open: Arc::default(),
            suspended: Arc::default(),
        }
    }

    /// A server for another client of the same queue and settings (the HTTP transport's next
    /// session): its own record of the host forms it opened and closed; the same watcher, notices and "gone"
    /// signal (the server stopping is every session's client going).
    pub fn for_another_client(&self) -> AskServer {
        AskServer {
            closed_forms: closed_forms::ClosedForms::default(),
            forms_declined: Arc::default(),
            form_open: Arc::default(),
            suspended: Arc::default(),
            ..self.clone()
        }
    }

    /// The client is gone: every waiting call takes its ask back at once, so no inbox keeps
    /// showing an ask nobody waits for.
    pub fn client_gone(&self) {
        self.gone.send_replace(true);
    }

    /// Resolves once the client is gone ([`AskServer::client_gone`]).
    async fn until_gone(&self) {
        let mut gone = self.gone.subscribe();
        let _ = gone.wait_for(|gone| *gone).await;
    }
}

/// The call's result: `result` with what happened said in it ([`result::state_outcome`]); an
/// error result when the payload was refused.
fn text_result(mut result: AskResult, happened: Option<result::Resolution>) -> CallToolResult {
    result::state_outcome(&mut result, happened);
    let mut call = if result.details.error.is_some() {
        CallToolResult::error(vec![ContentBlock::text(result.text())])
    } else {
        CallToolResult::success(vec![ContentBlock::text(result.text())])
    };
    call.structured_content = serde_json::to_value(&result.details).ok();
    call
}

/// The cancelled result of a call nobody answered in time, naming the questions to ask again.
pub fn timed_out_result(form: &Form, timeout: Duration) -> AskResult {
    let mut result = result::needs_input_result(form);
    let pending = result.text().lines().skip(2).collect::<Vec<_>>().join("\n");
    let text = format!(
        "No answer from pi-ask inbox within {} s; the ask was withdrawn. Ask these questions later or another way:\n{pending}",
        timeout.as_secs()
    );
    if let Some(first) = result.content.first_mut() {
        first.text = text;
    }
    result
}

impl AskServer {
    /// An ask was queued and no inbox watches: the person is told, through stderr (the host's
    /// log) and the notification channels, at most once for asks queued close together.
    fn tell_nobody_watches(&self, id: &str, form: &Form) {
        crate::report::report(&format!(
            "{NO_INBOX} to answer ask {id} (asks go to {}){}",
            self.queue.location(),
            self.queue.unwatched_hint()
        ));
        let mut last = self
            .last_unwatched_notice
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| t.elapsed() < NOTICE_GAP) || !self.notifications.enabled {
            return;
        }
        *last = Some(Instant::now());
        let notification = unwatched_notification(form);
        // The server's stdout is the protocol: terminal channels go to the controlling terminal
        // (the host's) when there is one, and are skipped otherwise; commands always run.
        let channels: Vec<crate::stores::config::Channel> = self.notifications.channels.clone();
        let mut tty: Box<dyn std::io::Write> =
            match std::fs::OpenOptions::new().write(true).open("/dev/tty") {
                Ok(file) => Box::new(file),
                Err(_) => Box::new(std::io::sink()),
            };
        for attempt in crate::tui::notify::send(&notification, &channels, &mut tty) {
            if let Some(error) = attempt.error {
                crate::report::report(&format!("notification {}: {error}", attempt.channel));
            }
        }
    }

    /// Why a call cannot be queued (its payload's size, or too many calls waiting), naming the
    /// limit; `None` when it can.
    fn over_a_limit(&self, payload: &Value) -> Option<String> {
        let size = serde_json::to_vec(payload).map_or(0, |b| b.len() as u64);
        if size > self.queue.max_bytes() {
            return Some(format!(
                "The ask_user payload is {size} bytes, over pi-ask's limit of {} bytes ([mcp] maxAskBytes); ask fewer or shorter questions.",
                self.queue.max_bytes()
            ));
        }
        let waiting = self.calls_in_flight();
        (waiting >= self.max_waiting).then(|| {
            format!(
                "{waiting} asks are already waiting for pi-ask inbox, its limit ([mcp] maxWaitingCalls); wait for answers before asking more."
            )
        })
    }

    /// Waits for the answer to ask `id` (the one [`crate::stores::queue::waiter`]) for the server's
    /// timeout, reporting progress while it waits when the client asked for it; the call's
    /// cancellation withdraws the ask.
    async fn wait(&self, id: &str, context: &RequestContext<RoleServer>) -> Waited {
        let mut waiting = self.watcher.wait_for(&self.queue, id, self.timeout);
        self.wait_on(&mut waiting, id, context, None)
            .await
            .unwrap_or(Waited::TimedOut)
    }

    /// Waits on `waiting` as [`AskServer::wait`] does, until `pause_at` if given (then `None`:
    /// the ask is still waiting, and `waiting` with it).
    async fn wait_on(
        &self,
        waiting: &mut Waiting,
        id: &str,
        context: &RequestContext<RoleServer>,
        pause_at: Option<Instant>,
    ) -> Option<Waited> {
        let start = Instant::now();
        let progress = context.meta.get_progress_token();
        let mut next_progress = start + self.progress_every;
        loop {
            if pause_at.is_some_and(|at| Instant::now() >= at) {
                return None;
            }
            let wake = [progress.is_some().then_some(next_progress), pause_at]
                .into_iter()
                .flatten()
                .min();
            let give_up = async {
                tokio::select! {
                    _ = context.ct.cancelled() => {}
                    _ = self.until_gone() => {}
                }
            };
            if let Some(waited) = waiting.until(wake, give_up).await {
                return Some(waited);
            }
            if let Some(token) = &progress
                && Instant::now() >= next_progress
            {
                next_progress += self.progress_every;
                let mut p =
                    ProgressNotificationParam::new(token.clone(), start.elapsed().as_secs_f64());
                p.message = Some(progress_message(
                    self.queue.is_watched(),
                    self.is_in_host_form(id),
                    start.elapsed(),
                ));
                let _ = context.peer.notify_progress(p).await;
            }
        }
    }

    /// The call's result for what its waiting came to.
    fn finish(&self, id: &str, form: &Form, outcome: Waited) -> Result<CallToolResult, McpError> {
        Ok(match outcome {
            Waited::Answered(value) => match serde_json::from_value::<AskResult>(value) {
                Ok(result) => text_result(result, None),
                Err(e) => {
                    return Err(McpError::internal_error(
                        format!("the inbox's answer is not a result: {e}"),
                        None,
                    ));
                }
            },
            Waited::TimedOut => text_result(
                timed_out_result(form, self.timeout.unwrap_or_default()),
                Some(result::Resolution::TimedOut),
            ),
            Waited::Withdrawn => {
                let why = if *self.gone.borrow() {
                    "the client is gone"
                } else {
                    "the call was cancelled"
                };
                crate::report::report(&format!("ask {id} withdrawn: {why}"));
                text_result(
                    result::needs_input_result(form),
                    Some(result::Resolution::Withdrawn),
                )
            }
        })
    }
}

impl ServerHandler for AskServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        info.server_info = Implementation::new("pi-ask", env!("CARGO_PKG_VERSION"));
        info.instructions = Some(
            "ask_user shows its questions to the person in `pi-ask inbox` (another terminal) and returns their answers."
                .into(),
        );
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult {
            tools: vec![ask_user_tool(&self.tool_name)],
            ..Default::default()
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if request.name != self.tool_name.as_str() {
            return Err(McpError::invalid_params(
                format!("unknown tool {}", request.name),
                None,
            ));
        }
        if let Some(state) = request.request_state.as_deref() {
            // The call again, with the host's form's reply (2026-07-28's round trips).
            return self
                .resume(state, request.input_responses.as_ref(), &context)
                .await;
        }
        let payload = Value::Object(request.arguments.unwrap_or_default());
        if let Some(refused) = self.over_a_limit(&payload) {
            crate::report::report(&refused);
            return Ok(CallToolResult::error(vec![ContentBlock::text(refused)]).into());
        }
        let form = match input::validate_payload(&payload) {
            Ok(form) => form,
            Err(invalid) => {
                return Ok(text_result(result::invalid_input_result(&invalid), None).into());
            }
        };
        let client = client::Client::of(&context);
        let ask = QueuedAsk {
            id: crate::stores::queue::new_id(),
            created_at: crate::remote::protocol::unix_ms(),
            client: client.name.clone(),
            cwd: self.cwd.clone(),
            asker: ProcessId::current(),
            payload,
        };
        if let Err(e) = self.queue.submit(&ask) {
            return Err(McpError::internal_error(
                format!("cannot queue the ask in {}: {e}", self.queue.location()),
                None,
            ));
        }
        crate::report::report(&format!("queued ask {} from {}", ask.id, ask.client));
        if !self.queue.is_watched() {
            self.tell_nobody_watches(&ask.id, &form);
        }
        let outcome = if !self.can_elicit(&client) {
            self.wait(&ask.id, &context).await
        } else if client.round_trips() {
            match self
                .wait_or_suspend(&ask.id, &form, &client, &context)
                .await
            {
                Ok(outcome) => outcome,
                Err(input_required) => return Ok(input_required.into()),
            }
        } else {
            tokio::select! {
                outcome = self.wait(&ask.id, &context) => outcome,
                Some(value) = self.elicit(&ask.id, &form, &client, &context) => {
                    // Answered in the host's form, through the queue like an inbox's answer.
                    self.watcher.unregister(&ask.id);
                    let _ = self.queue.take_result(&ask.id);
                    Waited::Answered(value)
                }
            }
        };
        Ok(self.finish(&ask.id, &form, outcome)?.into())
    }
}

/// On SIGTERM, SIGINT or SIGHUP: every waiting call takes its ask back (given a moment to do so),
/// then the process ends as the signal would have ended it.
async fn end_on_signal(server: AskServer) {
    use tokio::signal::unix::{SignalKind, signal};
    let kinds = [
        SignalKind::terminate(),
        SignalKind::interrupt(),
        SignalKind::hangup(),
    ];
    let Ok(mut streams) = kinds
        .iter()
        .map(|kind| signal(*kind))
        .collect::<Result<Vec<_>, _>>()
    else {
        return;
    };
    let [term, int, hup] = &mut streams[..] else {
        return;
    };
    let signo = tokio::select! {
        _ = term.recv() => libc::SIGTERM,
        _ = int.recv() => libc::SIGINT,
        _ = hup.recv() => libc::SIGHUP,
    };
    server.client_gone();
    let deadline = Instant::now() + Duration::from_secs(2);
    while server.calls_in_flight() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // SAFETY: the default action restored, then the same signal raised at this process: it ends
    // as it would have without a handler (the exit status a shell reads says which signal).
    unsafe {
        libc::signal(signo, libc::SIG_DFL);
        libc::raise(signo);
    }
}

/// Why `pi-ask mcp` stopped serving.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The async runtime could not start.
    #[error("cannot start: {0}")]
    Runtime(#[source] std::io::Error),
    /// The MCP session could not start (the client's first messages).
    #[error("cannot start the MCP session: {0}")]
    Start(String),
    /// The session ended with an error.
    #[error("the MCP session ended with an error: {0}")]
    Ended(String),
}

/// Serves MCP on standard input and output until the client disconnects. Every message the client
/// sends is read or, when over the limit (`stdio::line_limit`), answered with an error.
pub fn serve(server: AskServer) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let max_ask_bytes = server.queue.max_bytes();
    let limit = stdio::line_limit(max_ask_bytes);
    let served = runtime.block_on(async move {
        let (ours, theirs) = stdio::pipe();
        let (from_server, to_server) = tokio::io::split(ours);
        let (read, write) = tokio::io::split(theirs);
        // The guard already holds lines to `limit`; rmcp's own cap must not be the smaller.
        let transport =
            rmcp::transport::async_rw::AsyncRwTransport::<RoleServer, _, _>::new(read, write)
                .with_max_line_length(limit.saturating_add(2));
        let (replies, pending) = stdio::reply_channel();
        let writer = tokio::spawn(stdio::write_replies(tokio::io::stdout(), pending));
        tokio::spawn(stdio::pump_output(from_server, replies.clone()));
        let input = tokio::spawn(stdio::pump_input(
            tokio::io::stdin(),
            to_server,
            stdio::Limits {
                line: limit,
                max_ask_bytes,
            },
            replies,
            server.closed_forms.clone(),
        ));
        // The official SDKs end a server by closing its input, then SIGTERM: either way the
        // client is gone and its asks are taken back at once.
        let on_input_end = server.clone();
        tokio::spawn(async move {
            let _ = input.await;
            on_input_end.client_gone();
        });
        tokio::spawn(end_on_signal(server.clone()));
        let running = server
            .serve(transport)
            .await
            .map_err(|e| ServeError::Start(e.to_string()))?;
        let ended = running
            .waiting()
            .await
            .map(drop)
            .map_err(|e| ServeError::Ended(e.to_string()));
        // rmcp's end of the pipe is gone: the last replies are written before the process ends.
        let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
        ended
    });
    // Standard input may still be open (the session ended another way): its reader is not
    // waited for.
    runtime.shutdown_background();
    served
}
