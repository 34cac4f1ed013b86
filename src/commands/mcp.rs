//! `pi-ask mcp`: the MCP server, configured from its flags and the config file.

use std::path::PathBuf;
use std::time::Duration;

use super::{Ended, SecondsOutOfRange};
use crate::config::ElicitMode;
use crate::report::{CommandOutcome, report};

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
}

/// Serves MCP on standard input and output until the client disconnects.
pub fn run(args: McpArgs) -> Ended {
    // The server has no form to show a config notice in: it goes to standard error (the host's
    // MCP log), so a config that did not apply is never silent.
    let loaded = crate::config::load(&crate::config::ConfigPaths::from_env(
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
        crate::mcp::PROGRESS_EVERY
    };
    report(&format!(
        "mcp: asks go to {}; answer them with `pi-ask inbox` in a terminal",
        crate::paths::display(queue.dir())
    ));
    let mut server = crate::mcp::AskServer::new(queue, timeout, cwd);
    server.progress_every = progress_every;
    server.max_waiting = mcp_config.max_waiting_calls;
    server.notifications = config.notifications;
    server.elicit = args.elicit.unwrap_or(mcp_config.elicit);
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
    crate::mcp::serve(server)?;
    Ok(CommandOutcome::Done)
}
