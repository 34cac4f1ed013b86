//! `pi-ask mcp`: the MCP server, configured from its flags and the config file.

use std::path::PathBuf;
use std::time::Duration;

use super::{Ended, SecondsOutOfRange};
use crate::report::{CommandOutcome, report};
use crate::stores::config::ElicitMode;

/// What `pi-ask mcp` was given (its command-line flags).
#[derive(Debug, Clone, clap::Args)]
pub struct McpArgs {
    /// The queue folder (as for `inbox`).
    #[arg(long, value_name = "DIR")]
    pub queue: Option<PathBuf>,
    /// Withdraw an ask nobody answered within this many seconds (default: the config's
    /// [mcp] timeoutSeconds, 1800 when the config says nothing; 0 there means no limit).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Config file (as for `ask`).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Seconds between progress notifications of a waiting call (for tests).
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0, hide = true)]
    pub progress_every: f64,
    /// Ask in the MCP host's own form (elicitation) when no inbox has taken an ask in time
    /// (default: the config's [mcp] elicit; fallback).
    #[arg(long, value_enum, value_name = "WHEN")]
    pub elicit: Option<ElicitMode>,
    /// Seconds an ask waits for an inbox before the host's form is used (default: the
    /// config's [mcp] elicitAfterSeconds; 5).
    #[arg(long, value_name = "SECONDS")]
    pub elicit_after: Option<f64>,
    /// Serve MCP's Streamable HTTP transport at http://ADDR:PORT/mcp instead of stdio, for an
    /// agent on another machine (through `ssh -R` or a tunnel). Agents send the bearer token
    /// kept in the queue folder's mcp-http.token. See docs/remote.md.
    #[arg(long, value_name = "ADDR:PORT")]
    pub http: Option<std::net::SocketAddr>,
    /// The tool's name (default ask_user). Gemini CLI hides MCP tools named ask_user in
    /// headless mode: `pi-ask setup gemini` registers the server with --tool-name ask_person.
    #[arg(long, value_name = "NAME")]
    pub tool_name: Option<crate::drivers::mcp::ToolName>,
    /// With --http: another name the Host header may carry (a tunnel's); may be repeated.
    #[arg(long = "allow-host", value_name = "NAME", requires = "http")]
    pub allow_hosts: Vec<String>,
}

/// Serves MCP on standard input and output until the client disconnects.
pub fn run(args: McpArgs) -> Ended {
    // The server has no form to show a config notice in: it goes to standard error (the host's
    // MCP log), so a config that did not apply is never silent.
    let loaded = crate::stores::config::load(&crate::stores::config::ConfigPaths::from_env(
        args.config.as_deref(),
    ));
    // Every problem, placed, when the file applied in part; else why it did not apply at all.
    let said = if loaded.problems.is_empty() {
        &loaded.notices
    } else {
        &loaded.problems
    };
    for notice in said {
        report(&format!("config: {notice}"));
    }
    let config = loaded.config;
    let mcp_config = config.mcp.clone();
    let queue = super::queues::open_queue(args.queue)?.with_max_bytes(mcp_config.max_ask_bytes);
    let timeout = match args.timeout {
        Some(s) if s.is_finite() && s > 0.0 => {
            Some(Duration::from_secs_f64(s.min(86_400.0 * 365.0)))
        }
        Some(0.0) => None,
        Some(seconds) => {
            return Err(SecondsOutOfRange {
                flag: "--timeout",
                range: "a positive number of seconds".into(),
                seconds,
            }
            .into());
        }
        None => mcp_config.timeout_seconds.map(Duration::from_secs),
    };
    let cwd = std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    let progress_every = if args.progress_every.is_finite() && args.progress_every > 0.0 {
        Duration::from_secs_f64(args.progress_every.min(3600.0))
    } else {
        crate::drivers::mcp::PROGRESS_EVERY
    };
    report(&format!(
        "mcp: asks go to {}; answer them with `pi-ask inbox` in a terminal",
        crate::paths::display(queue.dir())
    ));
    // The HTTP transport's token lives in the folder beside the asks it lets in.
    let folder = queue.dir().to_path_buf();
    let mut server = crate::drivers::mcp::AskServer::new(std::sync::Arc::new(queue), timeout, cwd);
    server.progress_every = progress_every;
    server.max_waiting = mcp_config.max_waiting_calls;
    server.notifications = config.notifications;
    server.elicit = args.elicit.unwrap_or(mcp_config.elicit);
    server.tool_name = args.tool_name.unwrap_or_default();
    server.elicit_after = match args.elicit_after {
        Some(s) if s.is_finite() && s >= 0.0 => Duration::from_secs_f64(s.min(86_400.0)),
        Some(seconds) => {
            return Err(SecondsOutOfRange {
                flag: "--elicit-after",
                range: "zero or a positive number of seconds".into(),
                seconds,
            }
            .into());
        }
        None => Duration::from_secs(mcp_config.elicit_after_seconds),
    };
    match args.http {
        Some(address) => serve_http(server, &folder, address, args.allow_hosts)?,
        None => crate::drivers::mcp::serve(server)?,
    }
    Ok(CommandOutcome::Done)
}

/// `pi-ask mcp --http`: binds, makes or reads the token, says where and how to connect, serves.
fn serve_http(
    server: crate::drivers::mcp::AskServer,
    folder: &std::path::Path,
    address: std::net::SocketAddr,
    allow_hosts: Vec<String>,
) -> Result<(), super::CommandError> {
    use crate::drivers::mcp::http;
    let listener = crate::drivers::web::bind(address).map_err(super::CommandError::Serve)?;
    let address = listener.local_addr().map_err(|source| {
        super::CommandError::Serve(crate::drivers::web::ServeError::Listen { address, source })
    })?;
    let token_file = http::token_path(folder);
    let token = http::token(&token_file).map_err(super::CommandError::McpToken)?;
    if !address.ip().is_loopback() {
        report(
            "listening on an address other machines can reach, over plain HTTP: the bearer token travels in clear. Safer: keep 127.0.0.1 and let the agent reach it through ssh -R (docs/remote.md)",
        );
    }
    report(&format!(
        "mcp: serving MCP over HTTP at {}; agents send Authorization: Bearer <the token in {}>",
        http::url(address),
        crate::paths::display(&token_file)
    ));
    http::serve_http(
        server,
        http::HttpSetup {
            listener,
            token,
            allow_hosts,
        },
    )
    .map_err(super::CommandError::Mcp)
}
