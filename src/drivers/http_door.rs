//! The listener both network doors share (`pi-ask serve`'s page, `pi-ask mcp --http`'s agent):
//! who gets a connection, how long a connection may take to say what it wants, and how the door
//! closes. Each door is its own process with its own pool, so a flood at one never starves the
//! other.
//!
//! - A connection that has not sent a whole request head within [`HEAD_DEADLINE`] is closed, and
//!   so is one that waits that long between requests (hyper's header timer, which axum's own
//!   `serve` leaves off).
//! - At most [`MAX_CONNECTIONS`] connections at once. Under pressure (the door full, or one
//!   address holding [`MAX_PER_PEER`]), a connection that has not sent a whole request head
//!   within [`PRESSED_DEADLINE`] is closed, and one that spoke but has been quiet for a second or
//!   more. A full door accepts nothing more until a place frees: a newcomer waits in the kernel's
//!   backlog, its request already sent, and is never closed to make room. So silent or trickling
//!   sockets, however many and however fast they reconnect, live a quarter of a second each
//!   under pressure, and a client that speaks is served in turn. (Closing the oldest silent
//!   socket for each newcomer was tried first: a client reconnecting thousands of times a
//!   second closed a real client's connection before its request arrived, one run in five.)
//! - A connection with no traffic either way for [`IDLE`] is closed (an open page's event stream
//!   writes a keep-alive every 15 s).

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::sync::{Notify, watch};

/// The most connections open at once, of every peer together.
pub const MAX_CONNECTIONS: usize = 512;
/// One address holding this many connections puts the door under pressure for it (every local
/// user and every SSH-forwarded client is 127.0.0.1, so it is a soft bound: reaching it sweeps
/// that address's silent connections, it never turns a newcomer away).
pub const MAX_PER_PEER: usize = 128;
/// Under pressure, how long a connection has to send a whole request head.
pub const PRESSED_DEADLINE: Duration = Duration::from_millis(250);
/// How long a connection has to send a whole request head, first or next.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(5);
/// A connection with no traffic either way for this long is closed.
pub const IDLE: Duration = Duration::from_secs(60);
/// Under pressure, a connection that has sent a request is closed once quiet this long.
const QUIET_ENOUGH: Duration = Duration::from_secs(1);
/// How long a stop waits for the requests being answered.
const DRAIN: Duration = Duration::from_secs(2);

/// One open connection, as the door sees it.
struct Slot {
    peer: IpAddr,
    /// Accept order.
    order: u64,
    /// When it was accepted (milliseconds since the door opened).
    accepted: u64,
    /// Whether it has sent a whole request head.
    spoke: AtomicBool,
    /// When it last read or wrote (milliseconds since the door opened).
    last: AtomicU64,
    /// Told when the door closes the connection to make room.
    evicted: Notify,
}

/// Who holds a connection now.
struct Admission {
    opened: Instant,
    max_total: usize,
    max_per_peer: usize,
    next: u64,
    open: HashMap<u64, Arc<Slot>>,
}

impl Admission {
    fn new(max_total: usize, max_per_peer: usize) -> Admission {
        Admission {
            opened: Instant::now(),
            max_total,
            max_per_peer,
            next: 0,
            open: HashMap::new(),
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Whether a new connection can be accepted (after sweeping, when the door is full).
    fn has_room(&mut self) -> bool {
        if self.open.len() >= self.max_total {
            self.sweep(None);
        }
        self.open.len() < self.max_total
    }

    /// A slot for a new connection from `peer` (the caller made sure there is room); an address
    /// at its bound has its silent and quiet connections swept first.
    fn admit(&mut self, peer: IpAddr) -> Arc<Slot> {
        if self.open.values().filter(|s| s.peer == peer).count() >= self.max_per_peer {
            self.sweep(Some(peer));
        }
        let order = self.next;
        self.next += 1;
        let now = self.now_ms();
        let slot = Arc::new(Slot {
            peer,
            order,
            accepted: now,
            spoke: AtomicBool::new(false),
            last: AtomicU64::new(now),
            evicted: Notify::new(),
        });
        self.open.insert(order, Arc::clone(&slot));
        slot
    }

    /// Under pressure: closes the connections (of `peer`, or of everyone) that have not sent a
    /// request head within [`PRESSED_DEADLINE`], and those that spoke but have been quiet for
    /// [`QUIET_ENOUGH`].
    fn sweep(&mut self, peer: Option<IpAddr>) {
        let now = self.now_ms();
        let deadline = millis(PRESSED_DEADLINE);
        let quiet = millis(QUIET_ENOUGH);
        let gone: Vec<u64> = self
            .open
            .values()
            .filter(|s| peer.is_none_or(|p| s.peer == p))
            .filter(|s| {
                if s.spoke.load(Ordering::Relaxed) {
                    now.saturating_sub(s.last.load(Ordering::Relaxed)) >= quiet
                } else {
                    now.saturating_sub(s.accepted) >= deadline
                }
            })
            .map(|s| s.order)
            .collect();
        for order in gone {
            if let Some(slot) = self.open.remove(&order) {
                slot.evicted.notify_one();
            }
        }
    }

    fn close(&mut self, order: u64) {
        self.open.remove(&order);
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Serves `router` on `listener` until `shutdown` resolves, then lets the requests being
/// answered finish for up to two seconds.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let admission = Arc::new(Mutex::new(Admission::new(MAX_CONNECTIONS, MAX_PER_PEER)));
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut tasks = tokio::task::JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        // A full door accepts nothing: newcomers wait in the kernel's backlog until a place
        // frees (a connection ends, or the next sweep closes a silent one).
        if !lock(&admission).has_room() {
            tokio::select! {
                () = &mut shutdown => break,
                Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
                () = tokio::time::sleep(Duration::from_millis(25)) => {}
            }
            continue;
        }
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
            // Finished connections' tasks are reaped as they end (the set stays small).
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
        };
        let (stream, address) = match accepted {
            Ok(accepted) => accepted,
            // Out of descriptors and the like: wait a moment rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let slot = lock(&admission).admit(address.ip());
        tasks.spawn(connection(
            stream,
            slot,
            Arc::clone(&admission),
            router.clone(),
            stop_rx.clone(),
        ));
    }
    let _ = stop_tx.send(true);
    let drained = async { while tasks.join_next().await.is_some() {} };
    let _ = tokio::time::timeout(DRAIN, drained).await;
    tasks.abort_all();
    Ok(())
}

fn lock(admission: &Mutex<Admission>) -> std::sync::MutexGuard<'_, Admission> {
    admission.lock().unwrap_or_else(|e| e.into_inner())
}

/// One connection, served until it ends, is evicted or the door closes.
async fn connection(
    stream: tokio::net::TcpStream,
    slot: Arc<Slot>,
    admission: Arc<Mutex<Admission>>,
    router: axum::Router,
    mut stop: watch::Receiver<bool>,
) {
    let opened = lock(&admission).opened;
    let io = hyper_util::rt::TokioIo::new(Watched {
        stream,
        slot: Arc::clone(&slot),
        opened,
        idle: Box::pin(tokio::time::sleep(IDLE)),
    });
    let speaking = Arc::clone(&slot);
    let service = hyper::service::service_fn(move |request: hyper::Request<_>| {
        speaking.spoke.store(true, Ordering::Relaxed);
        let mut router = router.clone();
        async move {
            tower_service::Service::call(&mut router, request.map(axum::body::Body::new)).await
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEAD_DEADLINE);
    let mut served = std::pin::pin!(builder.serve_connection(io, service));
    tokio::select! {
        _ = served.as_mut() => {}
        () = slot.evicted.notified() => {}
        _ = stop.changed() => {
            served.as_mut().graceful_shutdown();
            let _ = served.await;
        }
    }
    lock(&admission).close(slot.order);
}

/// A connection's stream, closed after [`IDLE`] without traffic either way; its traffic is
/// what the door reads as how quiet it is.
struct Watched {
    stream: tokio::net::TcpStream,
    slot: Arc<Slot>,
    opened: Instant,
    idle: Pin<Box<tokio::time::Sleep>>,
}

impl Watched {
    fn active(&mut self) {
        self.idle.as_mut().reset(tokio::time::Instant::now() + IDLE);
        let now = u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.slot.last.store(now, Ordering::Relaxed);
    }

    /// Whether the connection has been idle too long (and the task is woken when it will be).
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        self.idle.as_mut().poll(cx).is_ready()
    }
}

fn idle_error() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::TimedOut, "idle connection closed")
}

impl tokio::io::AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    self.active();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(idle_error())),
            other => other,
        }
    }
}

impl tokio::io::AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let written = Pin::new(&mut self.stream).poll_write(cx, buf);
        if matches!(written, Poll::Ready(Ok(n)) if n > 0) {
            self.active();
        }
        written
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn ip(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(10, 0, 0, last))
    }

    /// The door, `ms` milliseconds older.
    fn later(door: &mut Admission, ms: u64) {
        door.opened -= Duration::from_millis(ms);
    }

    #[test]
    fn under_pressure_silent_connections_past_the_deadline_go_and_a_newcomer_never_does() {
        let mut door = Admission::new(100, 3);
        let silent = door.admit(ip(1));
        let spoke = door.admit(ip(1));
        spoke.spoke.store(true, Ordering::Relaxed);
        spoke.last.store(door.now_ms(), Ordering::Relaxed);
        let other = door.admit(ip(2));
        later(&mut door, 300);
        let fresh = door.admit(ip(1));
        // Peer 1 at its bound: its fourth sweeps the one silent past 250 ms, not the one that
        // spoke a moment ago, not peer 2's, and the newcomer is in.
        let newest = door.admit(ip(1));
        for (slot, kept) in [
            (&silent, false),
            (&spoke, true),
            (&other, true),
            (&fresh, true),
            (&newest, true),
        ] {
            assert_eq!(
                door.open.contains_key(&slot.order),
                kept,
                "{:?}",
                slot.order
            );
        }
    }

    #[test]
    fn a_full_door_makes_room_only_from_silent_or_quiet_connections() {
        let mut door = Admission::new(2, 10);
        let a = door.admit(ip(1));
        let b = door.admit(ip(1));
        assert!(
            !door.has_room(),
            "both young: nothing gives way, nothing more is accepted"
        );
        a.spoke.store(true, Ordering::Relaxed);
        later(&mut door, 300);
        // b never spoke and is past the deadline; a spoke 300 ms ago (not quiet enough).
        assert!(door.has_room());
        assert!(door.open.contains_key(&a.order) && !door.open.contains_key(&b.order));
        door.admit(ip(1));
        later(&mut door, 1_000);
        assert!(door.has_room(), "a is quiet for a second now");
        assert!(!door.open.contains_key(&a.order));
    }
}
