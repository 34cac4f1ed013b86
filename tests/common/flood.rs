//! A connection flood, as any local user (or anything that reaches an SSH-forwarded port) can
//! make: sockets that connect and send nothing, and sockets that send a request head a byte at
//! a time and never finish it. Each socket the server closes is opened again at once, so the
//! pressure stays on for as long as the flood runs.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A running flood; stopped (every socket closed) when dropped.
pub struct Flood {
    stop: Arc<AtomicBool>,
    open: Arc<AtomicUsize>,
    reopened: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl Flood {
    /// `idle` silent and `trickling` slow sockets to `address`, kept open.
    pub fn start(address: SocketAddr, idle: usize, trickling: usize) -> Flood {
        let stop = Arc::new(AtomicBool::new(false));
        let open = Arc::new(AtomicUsize::new(0));
        let reopened = Arc::new(AtomicUsize::new(0));
        let thread = {
            let (stop, open, reopened) = (stop.clone(), open.clone(), reopened.clone());
            std::thread::spawn(move || run(address, idle, trickling, &stop, &open, &reopened))
        };
        Flood {
            stop,
            open,
            reopened,
            thread: Some(thread),
        }
    }

    /// Waits until every socket has been opened once (a panic after 60 s).
    pub fn wait_all_open(&self, total: usize) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.open.load(Ordering::Relaxed) < total {
            assert!(
                Instant::now() < deadline,
                "the flood could not open its sockets"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// How many sockets the server closed and the flood opened again.
    pub fn reopened(&self) -> usize {
        self.reopened.load(Ordering::Relaxed)
    }
}

impl Drop for Flood {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

struct Socket {
    stream: Option<TcpStream>,
    trickles: bool,
    sent: usize,
}

fn connect(address: SocketAddr) -> Option<TcpStream> {
    let stream = TcpStream::connect_timeout(&address, Duration::from_secs(2)).ok()?;
    stream.set_nonblocking(true).ok()?;
    Some(stream)
}

/// Whether the server has closed (or answered, which it does only before closing) the socket.
fn closed(stream: &TcpStream) -> bool {
    let mut byte = [0u8; 1];
    match stream.peek(&mut byte) {
        Ok(_) => true,
        Err(e) => e.kind() != ErrorKind::WouldBlock,
    }
}

fn run(
    address: SocketAddr,
    idle: usize,
    trickling: usize,
    stop: &AtomicBool,
    open: &AtomicUsize,
    reopened: &AtomicUsize,
) {
    const HEAD: &[u8] = b"GET / HTTP/1.1\r\nX-Slow: ";
    let mut sockets: Vec<Socket> = (0..idle + trickling)
        .map(|n| Socket {
            stream: None,
            trickles: n >= idle,
            sent: 0,
        })
        .collect();
    while !stop.load(Ordering::Relaxed) {
        for socket in &mut sockets {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let alive = match &mut socket.stream {
                None => false,
                Some(stream) if closed(stream) => false,
                Some(stream) if socket.trickles => {
                    // The request line and a header that never ends, one byte a round.
                    let byte = HEAD.get(socket.sent).copied().unwrap_or(b'a');
                    match (&*stream).write(&[byte]) {
                        Ok(n) => {
                            socket.sent += n;
                            true
                        }
                        Err(e) => e.kind() == ErrorKind::WouldBlock,
                    }
                }
                Some(_) => true,
            };
            if !alive {
                if socket.stream.take().is_some() {
                    reopened.fetch_add(1, Ordering::Relaxed);
                } else {
                    open.fetch_add(1, Ordering::Relaxed);
                }
                socket.stream = connect(address);
                socket.sent = 0;
            }
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    // Drain what a closed socket may hold, then close them all.
    for socket in &mut sockets {
        if let Some(stream) = &mut socket.stream {
            let _ = stream.read(&mut [0u8; 64]);
        }
    }
}

/// Raises this process's open-file limit to its hard limit (the flood needs thousands).
pub fn raise_open_files() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
    limit.rlim_cur
}

/// The resident memory of process `pid`, in KiB (0 when it cannot be read).
pub fn resident_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}
