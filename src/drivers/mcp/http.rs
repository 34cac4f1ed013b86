//! `pi-ask mcp --http ADDR:PORT`: the same `ask_user` tool over MCP's Streamable HTTP transport
//! (rmcp's server for it), for an agent on another machine or in a container that reaches this
//! one through `ssh -R` or a tunnel. Its asks land in the same queue as the stdio server's and
//! are answered in `pi-ask inbox` or on the web page (`pi-ask serve`).
//!
//! At the door: a bearer token (256 random bits, kept in the private queue folder, compared in
//! constant time), the transport's own `Host` check (loopback names, plus `--allow-host`), and
//! its `Origin` check enforced (an agent sends no `Origin`; a web page always does, and is
//! refused). Connections are capped as the web page's are.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

use super::{AskServer, ServeError};

/// The token file's name in the queue folder.
pub const TOKEN_FILE: &str = "mcp-http.token";

/// The path MCP is served at.
pub const PATH: &str = "/mcp";

/// Why the token cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    /// The file exists but is not a token pi-ask wrote (another user's, a link, not text).
    #[error("cannot read the token {path}: {why}")]
    Unreadable {
        /// The file.
        path: String,
        /// Why.
        why: String,
    },
    /// A new one cannot be written.
    #[error("cannot write a new token to {path}: {source}")]
    Unwritable {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// The bearer token in `file`: read when it is there (a regular file of this user, no link),
/// else made (256 random bits as hex) and written 0600, never through a link.
pub fn token(file: &Path) -> Result<String, TokenError> {
    let shown = crate::paths::display(file);
    let rule = crate::bounded_read::ReadRule::capped(4096)
        .no_links()
        .mine_only();
    match rule.read_text(file) {
        Ok(text) if text.trim().len() >= 32 => return Ok(text.trim().to_owned()),
        Ok(_) => {
            return Err(TokenError::Unreadable {
                path: shown,
                why: "it is too short to be a token; remove it to have a new one made".to_owned(),
            });
        }
        Err(refused) if refused.is_missing() => {}
        Err(refused) => {
            return Err(TokenError::Unreadable {
                path: shown,
                why: refused.to_string(),
            });
        }
    }
    let secret = crate::drivers::web::auth::Secret::new().map_err(|e| TokenError::Unwritable {
        path: shown.clone(),
        source: std::io::Error::other(e.to_string()),
    })?;
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(file)
        .and_then(|mut f| f.write_all(format!("{}\n", secret.as_str()).as_bytes()));
    written.map_err(|source| TokenError::Unwritable {
        path: shown,
        source,
    })?;
    Ok(secret.as_str().to_owned())
}

/// Where the token of a server on `queue_dir` is kept.
pub fn token_path(queue_dir: &Path) -> PathBuf {
    queue_dir.join(TOKEN_FILE)
}

/// What the HTTP server runs with.
pub struct HttpSetup {
    /// The bound listener.
    pub listener: std::net::TcpListener,
    /// The bearer token agents must send.
    pub token: String,
    /// More names the `Host` header may carry (a tunnel's).
    pub allow_hosts: Vec<String>,
}

fn bearer_matches(header: Option<&HeaderValue>, token: &str) -> bool {
    let Some(given) = header
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    else {
        return false;
    };
    crate::drivers::web::auth::same_secret(given.trim(), token)
}

/// Serves `base`'s tool over Streamable HTTP until a termination signal: each client session
/// gets its own server ([`AskServer::for_another_client`]), all on the same queue; stopping is
/// every session's client going, so every waiting call takes its ask back.
pub fn serve_http(base: AskServer, setup: HttpSetup) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let stopping = base.clone();
    let served = runtime.block_on(async move {
        let cancel = tokio_util::sync::CancellationToken::new();
        let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"]
            .into_iter()
            .map(str::to_owned)
            .collect();
        hosts.extend(setup.allow_hosts.iter().cloned());
        let mut config = StreamableHttpServerConfig::default().enforce_origin_validation();
        config.allowed_hosts = hosts;
        config.cancellation_token = cancel.clone();
        let limit = super::stdio::line_limit(base.queue.max_bytes());
        let service = StreamableHttpService::new(
            move || Ok(base.for_another_client()),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        let token = Arc::new(setup.token);
        let app = axum::Router::new()
            .nest_service(PATH, service)
            // Inside the token check: only a signed-in client's bodies are read.
            .layer(axum::middleware::from_fn(
                move |request: axum::extract::Request, next: axum::middleware::Next| {
                    super::http_replies::guard(limit, request, next)
                },
            ))
            .layer(axum::middleware::from_fn(
                move |request: axum::extract::Request, next: axum::middleware::Next| {
                    let token = Arc::clone(&token);
                    async move {
                        if bearer_matches(request.headers().get(header::AUTHORIZATION), &token) {
                            return next.run(request).await;
                        }
                        let mut refused: Response = (
                            StatusCode::UNAUTHORIZED,
                            "pi-ask: send the token of the server's token file as Authorization: Bearer TOKEN",
                        )
                            .into_response();
                        refused.headers_mut().insert(
                            header::WWW_AUTHENTICATE,
                            HeaderValue::from_static("Bearer realm=\"pi-ask\""),
                        );
                        // Closed after the refusal: a connection without the token never holds
                        // a place at the door (http_door lets quiet ones that spoke stay).
                        refused
                            .headers_mut()
                            .insert(header::CONNECTION, HeaderValue::from_static("close"));
                        refused
                    }
                },
            ));
        let listener = tokio::net::TcpListener::from_std(setup.listener)?;
        let shutdown = async move {
            let _ = until_signal().await;
            // Every waiting call takes its ask back, as when a stdio client goes.
            stopping.client_gone();
            tokio::time::sleep(Duration::from_millis(200)).await;
            cancel.cancel();
        };
        crate::drivers::http_door::serve(listener, app, shutdown).await
    });
    runtime.shutdown_timeout(Duration::from_secs(2));
    served.map_err(ServeError::Runtime)
}

/// Resolves on SIGTERM, SIGINT or SIGHUP.
async fn until_signal() -> std::io::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    let mut hup = signal(SignalKind::hangup())?;
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
        _ = hup.recv() => {}
    }
    Ok(())
}

/// The address MCP is served at, for the person to give the agent.
pub fn url(address: SocketAddr) -> String {
    format!("http://{address}{PATH}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_bearer_token_passes() {
        let token = "a".repeat(64);
        let ok = HeaderValue::from_str(&format!("Bearer {token}")).unwrap();
        assert!(bearer_matches(Some(&ok), &token));
        for bad in [
            "",
            "Bearer ",
            "bearer aaaa",
            "Basic abc",
            &format!("Bearer {token}x"),
        ] {
            let value = HeaderValue::from_str(bad).unwrap();
            assert!(!bearer_matches(Some(&value), &token), "{bad}");
        }
        assert!(!bearer_matches(None, &token));
    }

    #[test]
    fn a_token_is_made_once_private_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(TOKEN_FILE);
        let made = token(&file).unwrap();
        assert_eq!(made.len(), 64);
        assert_eq!(token(&file).unwrap(), made, "the same token next time");
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(&file).unwrap().permissions(),
        );
        assert_eq!(mode & 0o777, 0o600);
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(token(&link).is_err(), "never through a link");
    }
}
