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
use crate::history::ProcessId;
use crate::input;
use crate::queue::{Queue, QueuedAsk};
use crate::result::{self, AskResult};

/// How often a waiting call looks for its answer.
const POLL: Duration = Duration::from_millis(20);
/// How often a waiting call reports progress, when the client asked for it.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// The tool's description: what it does, then the skill's guidance on when to ask.
pub fn tool_description() -> String {
    let skill = include_str!("../skills/ask-user/SKILL.md");
    let body = skill
        .strip_prefix("---")
        .and_then(|rest| rest.split_once("\n---"))
        .map_or(skill, |(_, body)| body)
        .trim();
    format!(
        "Ask the person structured questions in a terminal form (answered in `pi-ask inbox`) and wait for normalized answers: details.answers by question id, with the chosen option values, labels and indices, free-form text and notes.\n\n{body}"
    )
}

/// The `ask_user` tool as listed.
pub fn ask_user_tool() -> Tool {
    let schema = match crate::schema::input_schema() {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    Tool::new("ask_user", tool_description(), Arc::new(schema))
}

/// The server: one queue, an optional timeout for waiting calls.
#[derive(Debug, Clone)]
pub struct AskServer {
    pub queue: Queue,
    pub timeout: Option<Duration>,
    pub cwd: String,
    /// How often a waiting call reports progress ([`PROGRESS_EVERY`]).
    pub progress_every: Duration,
}

fn text_result(result: &AskResult, is_error: bool) -> CallToolResult {
    let mut call = if is_error {
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

/// What a waiting call ended with.
enum Outcome {
    Answered(Value),
    TimedOut,
    Cancelled,
}

impl AskServer {
    /// Withdraws the ask, or takes the answer that was settled first (waiting a moment for its
    /// file, without blocking the server's other calls).
    async fn withdraw_or_take(&self, id: &str) -> Option<Value> {
        match self.queue.withdraw(id) {
            Ok(crate::queue::Withdrawal::AlreadyAnswered) => {}
            _ => return None,
        }
        let start = Instant::now();
        while start.elapsed() < crate::queue::SETTLED_ANSWER_GRACE {
            if let Some(result) = self.queue.take_result(id) {
                return Some(result);
            }
            tokio::time::sleep(POLL).await;
        }
        None
    }

    async fn wait(&self, id: &str, context: &RequestContext<RoleServer>) -> Outcome {
        let start = Instant::now();
        let progress = context.meta.get_progress_token();
        let mut next_progress = start + self.progress_every;
        loop {
            if let Some(result) = self.queue.take_result(id) {
                return Outcome::Answered(result);
            }
            // The deadline and an answer may cross: exactly one wins, and both sides agree.
            if self.timeout.is_some_and(|t| start.elapsed() >= t) {
                return match self.withdraw_or_take(id).await {
                    Some(result) => Outcome::Answered(result),
                    None => Outcome::TimedOut,
                };
            }
            if let Some(token) = &progress
                && Instant::now() >= next_progress
            {
                next_progress += self.progress_every;
                let mut p =
                    ProgressNotificationParam::new(token.clone(), start.elapsed().as_secs_f64());
                p.message = Some(format!(
                    "waiting for an answer in pi-ask inbox ({} s)",
                    start.elapsed().as_secs()
                ));
                let _ = context.peer.notify_progress(p).await;
            }
            tokio::select! {
                _ = context.ct.cancelled() => {
                    return match self.withdraw_or_take(id).await {
                        Some(result) => Outcome::Answered(result),
                        None => Outcome::Cancelled,
                    };
                }
                _ = tokio::time::sleep(POLL) => {}
            }
        }
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
            tools: vec![ask_user_tool()],
            ..Default::default()
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if request.name != "ask_user" {
            return Err(McpError::invalid_params(
                format!("unknown tool {}", request.name),
                None,
            ));
        }
        let payload = Value::Object(request.arguments.unwrap_or_default());
        let form = match input::validate_payload(&payload) {
            Ok(form) => form,
            Err(invalid) => {
                return Ok(text_result(&result::invalid_input_result(&invalid), true).into());
            }
        };
        let client = context
            .peer
            .peer_info()
            .map(|info| {
                let c = &info.client_info;
                format!("{} {}", c.name, c.version).trim().to_owned()
            })
            .unwrap_or_else(|| "an MCP client".into());
        let ask = QueuedAsk {
            id: crate::queue::new_id(),
            created_at: crate::remote::protocol::unix_ms(),
            client,
            cwd: self.cwd.clone(),
            asker: ProcessId::current(),
            payload,
        };
        if let Err(e) = self.queue.submit(&ask) {
            return Err(McpError::internal_error(
                format!(
                    "cannot queue the ask in {}: {e}",
                    self.queue.dir().display()
                ),
                None,
            ));
        }
        crate::cli::report(&format!("queued ask {} from {}", ask.id, ask.client));
        let call = match self.wait(&ask.id, &context).await {
            Outcome::Answered(value) => match serde_json::from_value::<AskResult>(value) {
                Ok(result) => text_result(&result, result.details.error.is_some()),
                Err(e) => {
                    return Err(McpError::internal_error(
                        format!("the inbox's answer is not a result: {e}"),
                        None,
                    ));
                }
            },
            Outcome::TimedOut => text_result(
                &timed_out_result(&form, self.timeout.unwrap_or_default()),
                false,
            ),
            Outcome::Cancelled => {
                crate::cli::report(&format!("ask {} withdrawn: the call was cancelled", ask.id));
                text_result(&result::needs_input_result(&form), false)
            }
        };
        Ok(call.into())
    }
}

/// Serves MCP on standard input and output until the client disconnects.
pub fn serve(server: AskServer) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start: {e}"))?;
    runtime.block_on(async move {
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| format!("cannot start the MCP session: {e}"))?;
        running
            .waiting()
            .await
            .map(drop)
            .map_err(|e| format!("the MCP session ended with an error: {e}"))
    })
}
