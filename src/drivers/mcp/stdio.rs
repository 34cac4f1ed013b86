//! Standard input and output for the MCP server, with every message the client sends either
//! handed to rmcp or, when too long to read, answered with an error naming the limit.
//!
//! rmcp reads its messages from one end of an in-memory pipe and writes its replies to it; this
//! module feeds that pipe from standard input through a [`LineGuard`], and writes rmcp's replies
//! and its own error replies to standard output one whole line at a time, so they never mix.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use super::line_guard::{LineGuard, Piece};

/// The smallest limit on one message: rmcp's own default.
pub const MIN_LINE_BYTES: usize = 16 * 1024 * 1024;
/// Room a `tools/call` needs around its payload.
const ENVELOPE_BYTES: usize = 1024 * 1024;
/// The in-memory pipe's buffer each way.
const PIPE_BYTES: usize = 256 * 1024;
/// Reply lines queued for standard output before their producers wait.
const PENDING_REPLIES: usize = 64;

/// The longest message read: rmcp's 16 MiB, or more when `[mcp] maxAskBytes` allows larger asks
/// (a payload within that limit always gets its answer, not a dropped line).
pub fn line_limit(max_ask_bytes: u64) -> usize {
    let ask = usize::try_from(max_ask_bytes).unwrap_or(usize::MAX);
    MIN_LINE_BYTES.max(ask.saturating_add(ENVELOPE_BYTES))
}

/// The JSON-RPC error line answering request `id`, whose message of `bytes` bytes was over
/// `limit` and was not read.
pub fn oversized_reply(id: &Value, bytes: u64, limit: usize, max_ask_bytes: u64) -> Vec<u8> {
    let message = format!(
        "The message is {bytes} bytes, over the {limit} bytes pi-ask mcp reads in one message, so it was not read; an ask_user payload may be at most {max_ask_bytes} bytes ([mcp] maxAskBytes)."
    );
    let reply = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": message}});
    let mut line = reply.to_string().into_bytes();
    line.push(b'\n');
    line
}

/// How much one message may hold: the line read, and the ask it may carry (named in the reply).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The longest message read.
    pub line: usize,
    /// `[mcp] maxAskBytes`.
    pub max_ask_bytes: u64,
}

/// Copies the client's messages from `input` to rmcp's end of the pipe, answering those over
/// the limit through `replies` (and on standard error), and saying a reply to a host's form
/// that was closed (rmcp would drop it unseen). Closes the pipe when the input ends.
pub async fn pump_input(
    mut input: impl AsyncRead + Unpin,
    mut to_server: impl AsyncWrite + Unpin,
    limits: Limits,
    replies: mpsc::Sender<Vec<u8>>,
    closed_forms: super::closed_forms::ClosedForms,
) {
    let Limits {
        line: limit,
        max_ask_bytes,
    } = limits;
    let mut guard = LineGuard::new(limit);
    let mut chunk = vec![0u8; 64 * 1024];
    let mut pieces = Vec::new();
    loop {
        let n = match input.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        guard.feed(&chunk[..n], &mut pieces);
        for piece in pieces.drain(..) {
            use super::line_check::{Checked, check, oversized_reply_instead};
            let to_rmcp = match piece {
                Piece::Line(line) => match check(line) {
                    Checked::Pass(line) => line,
                    Checked::Refuse { reply, why, .. } => {
                        crate::report::report(&format!(
                            "a message could not be read ({why}); answered with an error"
                        ));
                        if replies.send(reply).await.is_err() {
                            return;
                        }
                        continue;
                    }
                    Checked::Unanswerable { instead, why } => {
                        crate::report::report(&format!(
                            "a reply from the client could not be read ({why}); the request it answers ends with an error"
                        ));
                        instead
                    }
                },
                Piece::Oversized {
                    bytes,
                    request,
                    response,
                } => {
                    let whose = match (&request, &response) {
                        (Some(id), _) => format!("request {id} was answered with an error"),
                        (None, Some(id)) => {
                            format!("the request {id} it answers ends with an error")
                        }
                        (None, None) => "it named no request to answer".to_owned(),
                    };
                    crate::report::report(&format!(
                        "a message of {bytes} bytes was over the limit of {limit} bytes and was not read; {whose}"
                    ));
                    if let Some(id) = request {
                        let line = oversized_reply(&id, bytes, limit, max_ask_bytes);
                        if replies.send(line).await.is_err() {
                            return;
                        }
                    }
                    match response {
                        Some(id) => oversized_reply_instead(&id, bytes, limit),
                        None => continue,
                    }
                }
            };
            if !closed_forms.is_empty()
                && let Some(ask) = closed_forms.reply_to(&to_rmcp)
            {
                crate::report::report(&format!(
                    "ask {ask}: the host's form answered after the ask had ended; that answer was not used"
                ));
                continue;
            }
            if to_server.write_all(&to_rmcp).await.is_err() {
                return;
            }
        }
    }
    let _ = to_server.shutdown().await;
}

/// Passes rmcp's replies, line by line, to the writer of standard output.
pub async fn pump_output(from_server: impl AsyncRead + Unpin, replies: mpsc::Sender<Vec<u8>>) {
    let mut reader = BufReader::new(from_server);
    loop {
        let mut line = Vec::new();
        match reader.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if replies.send(line).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// Writes each reply line to `output` as it comes, until every sender is gone.
pub async fn write_replies(
    mut output: impl AsyncWrite + Unpin,
    mut replies: mpsc::Receiver<Vec<u8>>,
) {
    while let Some(line) = replies.recv().await {
        if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
            return;
        }
    }
}

/// A channel for reply lines, bounded so a client that stops reading slows the server down
/// instead of growing it.
pub fn reply_channel() -> (mpsc::Sender<Vec<u8>>, mpsc::Receiver<Vec<u8>>) {
    mpsc::channel(PENDING_REPLIES)
}

/// The in-memory pipe between these pumps and rmcp.
pub fn pipe() -> (tokio::io::DuplexStream, tokio::io::DuplexStream) {
    tokio::io::duplex(PIPE_BYTES)
}
