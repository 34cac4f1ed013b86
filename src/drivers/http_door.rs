//! The listener both network doors share (`pi-ask serve`'s page, `pi-ask mcp --http`'s agent):
//! who gets a connection, how long a connection may take to say what it wants, and how the door
//! closes. Each door is its own process with its own pool, so a flood at one never starves the
//! other.
//!
//! - A connection that has not sent a whole request head within [`HEAD_DEADLINE`] is closed, and
//!   so is one that waits that long between requests (hyper's header timer, which axum's own
//!   `serve` leaves off).
//! - At most [`MAX_PER_PEER`] connections of one address and [`MAX_CONNECTIONS`] in all. A new
//!   connection beyond either bound takes the place of the crowding peer's oldest connection
//!   that has not yet sent a request; failing that, of its connection quiet the longest (a
//!   second or more); failing that, it is closed at once. So silent or trickling sockets, however
//!   many, give way to a client that speaks, and never hold memory beyond the bound.
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
/// The most connections one address holds at once (every local user and every SSH-forwarded
/// client is 127.0.0.1: the eviction, not this bound, keeps them from locking each other out).
pub const MAX_PER_PEER: usize = 128;
/// How long a connection has to send a whole request head, first or next.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(5);
/// A connection with no traffic either way for this long is closed.
pub const IDLE: Duration = Duration::from_secs(60);
/// A connection that has sent a request gives way to a newcomer only once quiet this long.
const QUIET_ENOUGH: Duration = Duration::from_secs(1);
/// How long a stop waits for the requests being answered.
const DRAIN: Duration = Duration::from_secs(2);

/// One open connection, as the door sees it.
struct Slot {
    peer: IpAddr,
    /// Accept order (lower is older).
    order: u64,
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

    /// A slot for a new connection from `peer`, making room first when a bound is reached; none
    /// when nothing can give way.
    fn admit(&mut self, peer: IpAddr) -> Option<Arc<Slot>> {
        let of_peer = self.open.values().filter(|s| s.peer == peer).count();
        let crowding = if of_peer >= self.max_per_peer {
            Some(peer)
        } else if self.open.len() >= self.max_total {
            self.busiest_peer()
        } else {
            None
        };
        if let Some(crowding) = crowding {
            let victim = self.victim(crowding)?;
            if let Some(slot) = self.open.remove(&victim) {
                slot.evicted.notify_one();
            }
        }
        let order = self.next;
        self.next += 1;
        let slot = Arc::new(Slot {
            peer,
            order,
            spoke: AtomicBool::new(false),
            last: AtomicU64::new(self.now_ms()),
            evicted: Notify::new(),
        });
        self.open.insert(order, Arc::clone(&slot));
        Some(slot)
    }

    fn busiest_peer(&self) -> Option<IpAddr> {
        let mut counts: HashMap<IpAddr, usize> = HashMap::new();
        for slot in self.open.values() {
            *counts.entry(slot.peer).or_default() += 1;
        }
        counts.into_iter().max_by_key(|(_, n)| *n).map(|(p, _)| p)
    }

    /// The connection of `peer` that gives way: its oldest that has not spoken, else its one
    /// quiet the longest (if quiet long enough).
    fn victim(&self, peer: IpAddr) -> Option<u64> {
        let of_peer = || self.open.values().filter(move |s| s.peer == peer);
        if let Some(silent) = of_peer()
            .filter(|s| !s.spoke.load(Ordering::Relaxed))
            .min_by_key(|s| s.order)
        {
            return Some(silent.order);
        }
        let now = self.now_ms();
        let quiet_enough = u64::try_from(QUIET_ENOUGH.as_millis()).unwrap_or(u64::MAX);
        of_peer()
            .map(|s| (now.saturating_sub(s.last.load(Ordering::Relaxed)), s.order))
            .filter(|(quiet, _)| *quiet >= quiet_enough)
            .max()
            .map(|(_, order)| order)
    }

    fn close(&mut self, order: u64) {
        self.open.remove(&order);
    }
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
        let admitted = lock(&admission).admit(address.ip());
        let Some(slot) = admitted else {
            drop(stream);
            continue;
        };
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

    #[test]
    fn a_peer_at_its_bound_gives_up_its_oldest_silent_connection() {
        let mut door = Admission::new(100, 3);
        let first = door.admit(ip(1)).unwrap();
        let second = door.admit(ip(1)).unwrap();
        second.spoke.store(true, Ordering::Relaxed);
        door.admit(ip(1)).unwrap();
        let other = door.admit(ip(2)).unwrap();
        assert_eq!(door.open.len(), 4);
        // The fourth of peer 1: its oldest silent one goes, not the one that spoke, nor peer 2's.
        door.admit(ip(1)).unwrap();
        assert!(!door.open.contains_key(&first.order));
        assert!(door.open.contains_key(&second.order));
        assert!(door.open.contains_key(&other.order));
        assert_eq!(door.open.len(), 4);
    }

    #[test]
    fn when_everyone_spoke_lately_a_newcomer_is_turned_away_and_nothing_grows() {
        let mut door = Admission::new(2, 2);
        for slot in [door.admit(ip(1)).unwrap(), door.admit(ip(1)).unwrap()] {
            slot.spoke.store(true, Ordering::Relaxed);
        }
        assert!(door.admit(ip(1)).is_none());
        assert_eq!(door.open.len(), 2);
        // Quiet long enough, the quietest gives way.
        for slot in door.open.values() {
            slot.last.store(0, Ordering::Relaxed);
        }
        door.opened -= QUIET_ENOUGH * 2;
        assert!(door.admit(ip(1)).is_some());
        assert_eq!(door.open.len(), 2);
    }

    #[test]
    fn the_whole_bound_makes_the_busiest_peer_give_way() {
        let mut door = Admission::new(4, 10);
        let lone = door.admit(ip(9)).unwrap();
        for _ in 0..3 {
            door.admit(ip(1)).unwrap();
        }
        door.admit(ip(2)).unwrap();
        assert_eq!(door.open.len(), 4);
        assert!(door.open.contains_key(&lone.order));
        assert_eq!(door.open.values().filter(|s| s.peer == ip(1)).count(), 2);
    }
}
