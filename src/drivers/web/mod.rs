//! `pi-ask serve`: the waiting asks as a web page, for a browser on this machine or (through an
//! SSH-forwarded port) on a phone or another computer. Another driver of the one engine: the
//! page sends what the person pressed, the desk steps it through the same session the terminal
//! form runs and draws the page from the model; results are built by the same code, so the same
//! choices give the same `details` as the terminal form.
//!
//! - [`auth`]: the one-time sign-in link, the session cookie, the `Host` and `Origin` rules;
//! - [`action`]: a posted form read into the messages every driver sends;
//! - [`page`]: the HTML, drawn from the model, every payload text escaped or sanitized;
//! - [`desk`]: the engines of the asks open in a browser, the queue, claims and answers;
//! - [`server`]: the HTTP routes, the event stream, the bounds on connections and bodies.

pub mod action;
pub mod auth;
pub mod desk;
pub mod page;
pub mod server;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use desk::{Changes, Desk};

/// The port `pi-ask serve` listens on unless told (`--listen`).
pub const DEFAULT_PORT: u16 = 7439;

/// How often the desk looks at the queues when no page asks anything (a new ask shows within
/// this time).
const LOOK: Duration = Duration::from_millis(40);

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address cannot be listened on (in use, not this machine's).
    #[error("cannot listen on {address}: {source}")]
    Listen {
        /// The address.
        address: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The system's random source failed (no sign-in token can be made).
    #[error("cannot make a sign-in token: {0}")]
    Random(getrandom::Error),
    /// The async runtime could not start.
    #[error("cannot start the server: {0}")]
    Runtime(#[source] std::io::Error),
}

/// What the server runs with.
pub struct Setup {
    /// The bound listener.
    pub listener: std::net::TcpListener,
    /// The `--allow-host` names.
    pub allow_hosts: Vec<String>,
    /// Makes the desk (on its own thread: the engines never cross threads).
    pub desk: Box<dyn FnOnce() -> Desk + Send>,
    /// Says each sign-in link (the first, and the next after each use).
    pub announce: server::LinkAnnouncer,
    /// Set to stop (a signal).
    pub stop: Arc<AtomicBool>,
}

/// Sets its flag when dropped.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Binds `address` (before anything else, so a port in use is said at once).
pub fn bind(address: SocketAddr) -> Result<std::net::TcpListener, ServeError> {
    let listener = std::net::TcpListener::bind(address)
        .map_err(|source| ServeError::Listen { address, source })?;
    listener
        .set_nonblocking(true)
        .map_err(|source| ServeError::Listen { address, source })?;
    Ok(listener)
}

/// The sign-in URL of a server on `address`, without its token.
pub fn link_base(address: SocketAddr) -> String {
    format!("http://{address}/signin?token=")
}

/// Serves until `setup.stop` is set: the desk on its own thread, the HTTP server on a
/// single-threaded runtime.
pub fn serve(setup: Setup) -> Result<(), ServeError> {
    let address = setup.listener.local_addr().map_err(ServeError::Runtime)?;
    let gate = auth::Gate::new(address, &setup.allow_hosts).map_err(ServeError::Random)?;
    (setup.announce)(&format!(
        "{}{}",
        link_base(address),
        gate.sign_in_token().as_str()
    ));
    let (calls, inbox) = std::sync::mpsc::channel::<server::DeskCall>();
    let (changes_tx, changes_rx) = tokio::sync::watch::channel(Changes::default());
    let stop = Arc::clone(&setup.stop);
    let make_desk = setup.desk;
    let desk_thread = std::thread::spawn(move || {
        // However the desk ends (a panic included), the server stops with it: a page that could
        // no longer be answered is not left serving.
        let _stop_with_me = StopOnDrop(Arc::clone(&stop));
        let mut desk = make_desk();
        // What changed goes to the pages at once, after a look as after a request.
        let publish = |desk: &Desk| {
            changes_tx.send_if_modified(|shown| {
                let changed = shown != desk.changes();
                if changed {
                    *shown = desk.changes().clone();
                }
                changed
            });
        };
        let mut looked = Instant::now();
        loop {
            if stop.load(Ordering::Relaxed) {
                desk.close_all(Instant::now());
                break;
            }
            // The queues are looked at on a schedule, however busy the pages keep the desk.
            if looked.elapsed() >= LOOK {
                desk.tick(Instant::now());
                looked = Instant::now();
                publish(&desk);
            }
            match inbox.recv_timeout(LOOK.saturating_sub(looked.elapsed())) {
                Ok((request, reply)) => {
                    let _ = reply.send(desk.handle(request, Instant::now()));
                    publish(&desk);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    desk.close_all(Instant::now());
                    break;
                }
            }
        }
        // Dropping the sender ends every page's event stream, so the server can stop.
        drop(changes_tx);
    });
    let shared = server::Shared::new(
        gate,
        calls,
        changes_rx,
        Arc::clone(&setup.announce),
        link_base(address),
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let stop = Arc::clone(&setup.stop);
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(setup.listener)?;
        let app = server::router(shared);
        let stopped = async move {
            while !stop.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        };
        crate::drivers::http_door::serve(listener, app, stopped).await
    });
    // The desk stops when told (it may be waiting for nothing but its next look).
    setup.stop.store(true, Ordering::Relaxed);
    let _ = desk_thread.join();
    served.map_err(ServeError::Runtime)
}
