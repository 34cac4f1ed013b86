//! The local socket a form listens on (`--listen PATH`): JSON lines, `started` to every client
//! when it connects, `submit` requests validated against the open flow and answered with
//! `submit-result`, `completed` to everyone at the end. The socket is private (0600 in a 0700
//! folder of this user) and removed on every exit path.

use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use super::protocol::{
    self, FlowInfo, RemoteMode, RemoteResponse, SubmitError, ids_of, submit_result, validate_submit,
};
use crate::form::Question;
use crate::lines::{Line, MAX_LINE};
use crate::model::{External, Msg};
use crate::result::AskResult;

/// A client that does not take its events within this time is dropped, so it cannot stall the form.
const WRITE_TIMEOUT: Duration = Duration::from_millis(500);

/// Requests waiting for the form, from all clients together. Past this, a request is refused
/// with `busy` at once (a flooding client cannot grow the form's memory or delay its keys).
pub const MAX_WAITING_REQUESTS: usize = 32;
/// Lines waiting to be written to one client. A client that does not read its events fills this
/// and is disconnected; nobody else waits for it.
pub const MAX_CLIENT_BACKLOG: usize = 64;
/// Clients connected at once; the next one gets one refusal line and is closed (each client
/// holds two descriptors, so these stay far from the descriptor limit a form needs).
pub const MAX_CLIENTS: usize = 16;

type ClientId = u64;

/// A connected client: where its lines go (its own writer thread writes them).
struct Client {
    lines: SyncSender<String>,
    stream: UnixStream,
    writer: std::thread::JoinHandle<()>,
}

struct Shared {
    clients: Mutex<HashMap<ClientId, Client>>,
    started: Mutex<Option<String>>,
    stop: AtomicBool,
}

impl Shared {
    /// Queues a line for one client without waiting; a client whose backlog is full is dropped.
    fn send(&self, id: ClientId, line: &str) {
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(client) = clients.get(&id)
            && client.lines.try_send(line.to_owned()).is_err()
        {
            drop_client(&mut clients, id);
        }
    }

    fn broadcast(&self, line: &str) {
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        let slow: Vec<ClientId> = clients
            .iter()
            .filter(|(_, c)| c.lines.try_send(line.to_owned()).is_err())
            .map(|(id, _)| *id)
            .collect();
        for id in slow {
            drop_client(&mut clients, id);
        }
    }
}

fn drop_client(clients: &mut HashMap<ClientId, Client>, id: ClientId) {
    if let Some(client) = clients.remove(&id) {
        let _ = client.stream.shutdown(std::net::Shutdown::Both);
    }
}

/// Writes one client's lines, each within [`WRITE_TIMEOUT`]; stops at the first failure (the
/// client is gone or does not read) and at the end of its queue, then closes the connection.
fn write_client(mut stream: UnixStream, lines: Receiver<String>) {
    for line in lines {
        if writeln!(stream, "{line}").is_err() {
            break;
        }
    }
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

/// What a client sent: a line, or a line that was too long.
enum Incoming {
    Line(ClientId, Vec<u8>),
    TooLong(ClientId),
}

/// A form's socket while it is open.
pub struct RemoteServer {
    path: PathBuf,
    /// The socket's inode, so only our own socket is ever removed.
    inode: u64,
    flow: FlowInfo,
    shared: Arc<Shared>,
    incoming: Mutex<Receiver<Incoming>>,
    accepted: Mutex<Option<String>>,
}

/// Why a form cannot listen on a socket path.
#[derive(Debug, thiserror::Error)]
#[error("cannot listen on {path}: {why}")]
pub struct ListenError {
    /// The path, as shown to people.
    pub path: String,
    /// Why.
    #[source]
    pub why: ListenRefusal,
}

/// What is wrong with a socket path.
#[derive(Debug, thiserror::Error)]
pub enum ListenRefusal {
    /// Its folder is missing and cannot be created.
    #[error("cannot create its folder: {0}")]
    CreateFolder(#[source] io::Error),
    /// Its folder cannot be checked.
    #[error("{0}")]
    Folder(#[source] io::Error),
    /// Its folder is another user's, or others can write in it.
    #[error(
        "its folder {folder} must be yours and private (0700), so no one else can answer the form; it is {mode:o}"
    )]
    NotPrivate {
        /// The folder, as shown to people.
        folder: String,
        /// Its permission bits.
        mode: u32,
    },
    /// A folder above it could be swapped by another user.
    #[error("{0}")]
    Ancestor(#[source] crate::private_dir::UnsafeFolder),
    /// Something that is not a stale socket of this user is there.
    #[error("something else is already there")]
    Occupied,
    /// A live form listens there.
    #[error("another form is listening there")]
    Listening,
    /// The stale socket cannot be removed.
    #[error("cannot remove the stale socket: {0}")]
    RemoveStale(#[source] io::Error),
    /// Binding failed.
    #[error("{0}")]
    Bind(#[source] io::Error),
}

fn refuse(path: &Path, why: ListenRefusal) -> ListenError {
    ListenError {
        path: crate::paths::display(path),
        why,
    }
}

/// The socket's folder: created 0700 if missing, else it must be this user's and private; no
/// folder above it may be one another user could swap (nothing is created below such a one).
pub fn check_socket_folder(path: &Path) -> Result<(), ListenError> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let ancestors = || {
        crate::private_dir::check_ancestors(dir)
            .map_err(|e| refuse(path, ListenRefusal::Ancestor(e)))
    };
    if !dir.exists() {
        ancestors()?;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| refuse(path, ListenRefusal::CreateFolder(e)))?;
        return ancestors();
    }
    let meta = std::fs::metadata(dir).map_err(|e| refuse(path, ListenRefusal::Folder(e)))?;
    // SAFETY: getuid has no preconditions.
    let me = unsafe { libc::getuid() };
    if meta.uid() != me || meta.mode() & 0o077 != 0 {
        return Err(refuse(
            path,
            ListenRefusal::NotPrivate {
                folder: crate::paths::display(dir),
                mode: meta.mode() & 0o7777,
            },
        ));
    }
    ancestors()
}

/// Removes a socket left by a pi-ask that died, refusing anything else at the path.
fn clear_stale(path: &Path) -> Result<(), ListenError> {
    use std::os::unix::fs::FileTypeExt;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    // SAFETY: getuid has no preconditions.
    let me = unsafe { libc::getuid() };
    if !meta.file_type().is_socket() || meta.uid() != me {
        return Err(refuse(path, ListenRefusal::Occupied));
    }
    if UnixStream::connect(path).is_ok() {
        return Err(refuse(path, ListenRefusal::Listening));
    }
    std::fs::remove_file(path).map_err(|e| refuse(path, ListenRefusal::RemoveStale(e)))
}

fn read_client(
    id: ClientId,
    stream: UnixStream,
    to_form: SyncSender<Incoming>,
    shared: Arc<Shared>,
) {
    let mut reader = io::BufReader::new(stream);
    while let Ok(Some(line)) = crate::lines::read_line(&mut reader) {
        let incoming = match line {
            Line::Text(bytes) => Incoming::Line(id, bytes),
            Line::TooLong => Incoming::TooLong(id),
        };
        match to_form.try_send(incoming) {
            Ok(()) => {}
            Err(TrySendError::Full(Incoming::Line(_, bytes))) => {
                let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                let (request_id, flow_id) = ids_of(&value);
                shared.send(id, &busy(request_id.as_deref(), flow_id.as_deref()));
            }
            Err(TrySendError::Full(Incoming::TooLong(_))) => shared.send(id, &busy(None, None)),
            Err(TrySendError::Disconnected(_)) => break,
        }
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
    }
    let mut clients = shared.clients.lock().unwrap_or_else(|e| e.into_inner());
    drop_client(&mut clients, id);
}

/// The reply to a request that found [`MAX_WAITING_REQUESTS`] waiting.
fn busy(request_id: Option<&str>, flow_id: Option<&str>) -> String {
    let mut reply = submit_result(request_id, flow_id, &Ok(()));
    reply["ok"] = false.into();
    reply["error"] = "busy".into();
    reply["message"] = format!(
        "Too many requests are waiting ({MAX_WAITING_REQUESTS}); send again once answered."
    )
    .into();
    reply.to_string()
}

/// The one line a client over [`MAX_CLIENTS`] gets before it is closed.
fn too_many_clients() -> String {
    serde_json::json!({
        "type": "error",
        "version": protocol::VERSION,
        "error": "busy",
        "message": format!("Too many clients are connected ({MAX_CLIENTS}); try again later."),
    })
    .to_string()
}

/// Accepts clients until `close` (which connects once to wake this blocking `accept`).
fn accept_loop(listener: UnixListener, to_form: SyncSender<Incoming>, shared: Arc<Shared>) {
    let mut next: ClientId = 0;
    while !shared.stop.load(Ordering::Relaxed) {
        match listener.accept() {
            Ok(_) if shared.stop.load(Ordering::Relaxed) => break,
            Ok((mut stream, _)) => {
                next += 1;
                let id = next;
                let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
                let full = shared
                    .clients
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .len()
                    >= MAX_CLIENTS;
                if full {
                    let _ = writeln!(stream, "{}", too_many_clients());
                    continue;
                }
                let (Ok(writer), Ok(handle)) = (stream.try_clone(), stream.try_clone()) else {
                    continue;
                };
                let (lines, backlog) = sync_channel(MAX_CLIENT_BACKLOG);
                let writer = std::thread::spawn(move || write_client(writer, backlog));
                // Registered and sent `started` under the lock `announce` holds: a client that
                // connects as the form opens gets `started` once, from here or from the broadcast.
                let started = shared.started.lock().unwrap_or_else(|e| e.into_inner());
                {
                    let mut clients = shared.clients.lock().unwrap_or_else(|e| e.into_inner());
                    clients.insert(
                        id,
                        Client {
                            lines,
                            stream: handle,
                            writer,
                        },
                    );
                }
                if let Some(line) = started.as_deref() {
                    shared.send(id, line);
                }
                drop(started);
                let (tx, sh) = (to_form.clone(), Arc::clone(&shared));
                std::thread::spawn(move || read_client(id, stream, tx, sh));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

impl RemoteServer {
    /// Listens on `path` for the flow `flow`. Refuses a path that exists and is not a stale
    /// socket of this user, or whose folder is not private.
    pub fn bind(path: &Path, flow: FlowInfo) -> Result<RemoteServer, ListenError> {
        let path = crate::paths::absolute(path);
        check_socket_folder(&path)?;
        clear_stale(&path)?;
        let listener =
            UnixListener::bind(&path).map_err(|e| refuse(&path, ListenRefusal::Bind(e)))?;
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600));
        let inode = std::fs::metadata(&path).map(|m| m.ino()).unwrap_or(0);
        let shared = Arc::new(Shared {
            clients: Mutex::new(HashMap::new()),
            started: Mutex::new(None),
            stop: AtomicBool::new(false),
        });
        let (tx, rx) = sync_channel(MAX_WAITING_REQUESTS);
        let sh = Arc::clone(&shared);
        std::thread::spawn(move || accept_loop(listener, tx, sh));
        Ok(RemoteServer {
            path,
            inode,
            flow,
            shared,
            incoming: Mutex::new(rx),
            accepted: Mutex::new(None),
        })
    }

    /// The form opened: `started` to every client now and to each one that connects later.
    pub fn announce(&self, questions: &[Question]) {
        let line = protocol::started(&self.flow, questions, protocol::unix_ms()).to_string();
        // Held while broadcasting: a client being accepted meanwhile waits, then finds it set.
        let mut started = self
            .shared
            .started
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        *started = Some(line.clone());
        self.shared.broadcast(&line);
    }

    /// Takes the waiting requests, answers each, and returns the message of the first accepted
    /// one (later ones find the flow finishing: `flow_not_found`).
    pub fn poll(&self, questions: &[Question]) -> Vec<Msg> {
        let incoming = self.incoming.lock().unwrap_or_else(|e| e.into_inner());
        let mut msgs = Vec::new();
        while let Ok(item) = incoming.try_recv() {
            let (client, line) = match item {
                Incoming::Line(client, line) => (client, line),
                Incoming::TooLong(client) => {
                    let refused = Err(SubmitError::InvalidRequest(format!(
                        "Submit event is longer than {MAX_LINE} bytes."
                    )));
                    self.shared
                        .send(client, &submit_result(None, None, &refused).to_string());
                    continue;
                }
            };
            let value: Value = serde_json::from_slice(&line).unwrap_or(Value::Null);
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let (request_id, flow_id) = ids_of(&value);
            let finishing = !msgs.is_empty() || self.accepted_request().is_some();
            let outcome = match value.get("type").and_then(Value::as_str) {
                Some(t) if t != "submit" => Err(SubmitError::InvalidRequest(
                    r#"Submit event type must be "submit"."#.into(),
                )),
                _ if finishing && value.is_object() => Err(SubmitError::FlowNotFound),
                _ => validate_submit(&value, &self.flow.flow_id, questions).map(|submit| {
                    *self.accepted.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some(submit.request_id.clone());
                    msgs.push(match submit.response {
                        RemoteResponse::Cancel => Msg::External(External::RemoteCancel),
                        RemoteResponse::Answer { mode, answers } => {
                            Msg::External(External::RemoteAnswer {
                                answers,
                                elaborate: mode == RemoteMode::Elaborate,
                            })
                        }
                    });
                }),
            };
            let reply = submit_result(request_id.as_deref(), flow_id.as_deref(), &outcome);
            self.shared.send(client, &reply.to_string());
        }
        msgs
    }

    /// The request id of the submit that answered the form, if one did.
    pub fn accepted_request(&self) -> Option<String> {
        self.accepted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The form ended: `completed` to every client, then the socket closes.
    pub fn complete(&self, result: &AskResult) {
        let line = protocol::completed(&self.flow, result, protocol::unix_ms()).to_string();
        self.shared.broadcast(&line);
        self.close();
    }

    fn close(&self) {
        if self.shared.stop.swap(true, Ordering::Relaxed) {
            return;
        }
        // Wakes the accept loop, which then sees `stop`.
        let _ = UnixStream::connect(&self.path);
        let mut clients = self
            .shared
            .clients
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        // Each writer sends what it still holds (`completed`), finds its queue closed and closes
        // the connection; waited for, so the process never exits before they are written (at
        // most one write timeout: a client that does not read fails its first write).
        let writers: Vec<_> = clients
            .drain()
            .map(|(_, client)| {
                drop(client.lines);
                client.writer
            })
            .collect();
        drop(clients);
        for writer in writers {
            let _ = writer.join();
        }
        // Only our own socket: a later pi-ask may have bound the same path meanwhile.
        if std::fs::metadata(&self.path).is_ok_and(|m| m.ino() == self.inode) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl Drop for RemoteServer {
    fn drop(&mut self) {
        self.close();
    }
}

/// Connects to a form's socket, waiting up to `wait` for it to be there: a script that starts
/// the form in the background and then follows or answers it races the form's start.
pub fn connect_waiting(path: &Path, wait: Duration) -> io::Result<UnixStream> {
    let deadline = std::time::Instant::now() + wait;
    loop {
        match UnixStream::connect(path) {
            Ok(stream) => return Ok(stream),
            // Not there yet, or bound but not yet listening.
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused
                ) && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(25));
            }
            Err(e) => return Err(e),
        }
    }
}

/// `pi-ask events`: prints every event line of a form until it closes (the socket waited for up
/// to `wait`).
pub fn print_events(path: &Path, wait: Duration, out: &mut dyn Write) -> io::Result<()> {
    use std::io::IsTerminal;
    let to_terminal = io::stdout().is_terminal();
    let stream = connect_waiting(path, wait)?;
    for line in io::BufReader::new(stream).split(b'\n') {
        let line = line?;
        // The form's events are JSON; on a terminal, nothing in their strings may act on it.
        let line = match (to_terminal, std::str::from_utf8(&line)) {
            (true, Ok(text)) => crate::printable::json_for_terminal(text)
                .into_owned()
                .into_bytes(),
            (true, Err(_)) => {
                crate::printable::printable(&String::from_utf8_lossy(&line)).into_bytes()
            }
            (false, _) => line,
        };
        out.write_all(&line)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    Ok(())
}

/// `pi-ask submit`: sends one request and returns the `submit-result` for it. A bare response
/// (`{"kind": …}`) is wrapped, and a missing `version`, `requestId` or `flowId` filled in from the
/// form's `started` event, so scripts can send just the answer.
pub fn submit(path: &Path, request: &Value, timeout: Duration) -> io::Result<Value> {
    // The reply's time also bounds the wait for the socket to be there.
    let stream = connect_waiting(path, timeout)?;
    stream.set_read_timeout(Some(timeout))?;
    let mut writer = stream.try_clone()?;
    let mut reader = io::BufReader::new(stream);
    let mut first = String::new();
    reader.read_line(&mut first)?;
    let started: Value = serde_json::from_str(&first).unwrap_or(Value::Null);
    let mut request = if request.get("kind").is_some() {
        serde_json::json!({ "response": request })
    } else {
        request.clone()
    };
    if let Some(obj) = request.as_object_mut() {
        obj.entry("type").or_insert("submit".into());
        obj.entry("version").or_insert(protocol::VERSION.into());
        obj.entry("requestId")
            .or_insert_with(|| format!("cli-{}", protocol::unix_ms()).into());
        if let Some(flow) = started.get("flowId") {
            obj.entry("flowId").or_insert(flow.clone());
        }
    }
    let request_id = request.get("requestId").cloned();
    writeln!(writer, "{request}")?;
    for line in reader.split(b'\n') {
        let value: Value = serde_json::from_slice(&line?).unwrap_or(Value::Null);
        if value.get("type").and_then(Value::as_str) == Some("submit-result")
            && (value.get("requestId") == request_id.as_ref()
                || value.get("requestId") == Some(&Value::Null))
        {
            return Ok(value);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "the form closed before answering",
    ))
}
