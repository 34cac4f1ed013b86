//! The HTTP side of `pi-ask serve`: axum routes that check every request at the door (host,
//! origin, session), hand what the page asks to the desk's thread, and send back its HTML; the
//! event stream that tells open pages what changed; and the bounds that keep a flood of requests
//! from taking memory (connections, event streams, bodies).

use std::convert::Infallible;

use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, Request as HttpRequest, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tokio::sync::{oneshot, watch};

use super::auth::{COOKIE, Gate, Refused};
use super::desk::{Changes, Reply, Request};
use super::page;

/// The largest request body taken (a posted form with its notes).
const MAX_BODY: usize = 1024 * 1024;
/// The most event streams open at once (each open page holds one); a new one beyond it ends the
/// oldest (a closed tab's, most likely: a live page's script opens its stream again).
const MAX_STREAMS: usize = 32;

/// The header the page's script sends to get only a page's `<main>` back.
const FRAGMENT: &str = "x-pi-ask-fragment";

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// A request for the desk, with where its reply goes.
pub type DeskCall = (Request, oneshot::Sender<Reply>);

/// Says a new sign-in link (the one just used is spent): on the terminal, and in `--url-file`.
pub type LinkAnnouncer = Arc<dyn Fn(&str) + Send + Sync>;

/// What every handler shares.
#[derive(Clone)]
pub struct Shared {
    /// The sign-in state.
    pub gate: Arc<Mutex<Gate>>,
    /// The desk's thread.
    pub desk: Sender<DeskCall>,
    /// What changed, for the event streams.
    pub changes: watch::Receiver<Changes>,
    /// Says the next sign-in link.
    pub announce: LinkAnnouncer,
    /// The sign-in URL without its token (`http://127.0.0.1:7439/signin?token=`).
    pub link_base: String,
    streams: Arc<Mutex<Streams>>,
}

impl Shared {
    /// What the handlers share.
    pub fn new(
        gate: Gate,
        desk: Sender<DeskCall>,
        changes: watch::Receiver<Changes>,
        announce: LinkAnnouncer,
        link_base: String,
    ) -> Shared {
        Shared {
            gate: Arc::new(Mutex::new(gate)),
            desk,
            changes,
            announce,
            link_base,
            streams: Arc::default(),
        }
    }

    fn gate(&self) -> std::sync::MutexGuard<'_, Gate> {
        self.gate.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The routes, behind the door's checks.
pub fn router(shared: Shared) -> Router {
    Router::new()
        .route("/", get(list))
        .route("/signin", get(sign_in))
        .route("/ask/{id}", get(ask).post(act))
        .route("/ask/{id}/later", post(later))
        .route("/ask/{id}/decline", post(decline))
        .route("/ask/{id}/filter", get(filter))
        .route("/events", get(events))
        .route("/app.js", get(script))
        .route("/app.css", get(style))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(shared.clone(), door))
        .with_state(shared)
}

fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Every request passes here first: a foreign `Host` or `Origin` is refused whatever the path;
/// everything but the sign-in link and the page's own script and style needs a session.
async fn door(State(shared): State<Shared>, request: HttpRequest, next: Next) -> Response {
    let headers = request.headers();
    let checked = {
        let gate = shared.gate();
        gate.check_headers(
            header_text(headers, header::HOST),
            header_text(headers, header::ORIGIN),
        )
        .and_then(|()| match request.uri().path() {
            "/signin" | "/app.js" | "/app.css" => Ok(()),
            _ => gate.signed_in(header_text(headers, header::COOKIE)),
        })
    };
    let mut response = match checked {
        Ok(()) => next.run(request).await,
        Err(refused) => refusal(&refused),
    };
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        // `same-origin`, not `no-referrer`: under `no-referrer` a browser sends `Origin: null` with
        // a form's post, which the door refuses, so a page without its script could not post.
        (header::REFERRER_POLICY, "same-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::CACHE_CONTROL, "no-store"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

fn refusal(refused: &Refused) -> Response {
    let status = match refused {
        Refused::ForeignHost | Refused::ForeignOrigin => StatusCode::FORBIDDEN,
        Refused::NotSignedIn | Refused::StaleLink => StatusCode::UNAUTHORIZED,
    };
    let html = page::document("Not allowed", &page::refused_main(&refused.to_string()), 0);
    // Closed after the refusal: a connection without a session never holds a place at the door.
    (status, [(header::CONNECTION, "close")], html_type(), html).into_response()
}

fn html_type() -> [(header::HeaderName, &'static str); 1] {
    [(header::CONTENT_TYPE, "text/html; charset=utf-8")]
}

async fn sign_in(
    State(shared): State<Shared>,
    Query(query): Query<std::collections::HashMap<String, String>>,
) -> Response {
    let token = query.get("token").map(String::as_str).unwrap_or("");
    let exchanged = {
        let mut gate = shared.gate();
        gate.exchange(token)
            .map(|session| (session, gate.sign_in_token().as_str().to_owned()))
    };
    match exchanged {
        Ok((session, next)) => {
            (shared.announce)(&format!("{}{next}", shared.link_base));
            let cookie = format!(
                "{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/",
                session.as_str()
            );
            let mut response = see_other("/");
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                response.headers_mut().insert(header::SET_COOKIE, value);
            }
            response
        }
        Err(refused) => refusal(&refused),
    }
}

fn see_other(to: &str) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(value) = HeaderValue::from_str(to) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

/// Asks the desk's thread, and waits for its reply.
async fn call(shared: &Shared, request: Request) -> Reply {
    let (tx, rx) = oneshot::channel();
    if shared.desk.send((request, tx)).is_err() {
        return Reply::BadRequest("pi-ask serve is stopping".to_owned());
    }
    rx.await
        .unwrap_or_else(|_| Reply::BadRequest("pi-ask serve is stopping".to_owned()))
}

fn wants_fragment(headers: &HeaderMap) -> bool {
    headers.contains_key(FRAGMENT)
}

/// A reply as a whole page, or (for the page's script) its `<main>` alone.
fn page_response(reply: Reply, fragment: bool) -> Response {
    match reply {
        Reply::Page {
            title,
            main,
            waiting,
            ..
        } => {
            let body = if fragment {
                main
            } else {
                page::document(&title, &main, waiting)
            };
            (StatusCode::OK, html_type(), body).into_response()
        }
        Reply::Matches(shown) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            serde_json::json!({ "shown": shown }).to_string(),
        )
            .into_response(),
        Reply::BadRequest(why) => {
            let main = page::refused_main(&why);
            let body = if fragment {
                main
            } else {
                page::document("Not understood", &main, 0)
            };
            (StatusCode::BAD_REQUEST, html_type(), body).into_response()
        }
    }
}

async fn list(State(shared): State<Shared>, headers: HeaderMap) -> Response {
    page_response(call(&shared, Request::List).await, wants_fragment(&headers))
}

async fn ask(State(shared): State<Shared>, Path(id): Path<String>, headers: HeaderMap) -> Response {
    page_response(
        call(&shared, Request::Ask(id)).await,
        wants_fragment(&headers),
    )
}

async fn act(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let reply = call(&shared, Request::Act(id.clone(), body.to_vec())).await;
    // What became of an ended ask, or why a submit was refused, is said to this press itself: a
    // later look at the ask's page cannot tell whose press it was.
    let own_word = matches!(reply, Reply::Page { own_word: true, .. });
    if wants_fragment(&headers) || own_word || matches!(reply, Reply::BadRequest(_)) {
        return page_response(reply, wants_fragment(&headers));
    }
    // A page without its script: post, then get (the browser's back button stays harmless).
    // Only an id pi-ask writes goes back into a URL; anything else had no ask to show anyway.
    if crate::stores::queue::is_valid_id(&id) {
        see_other(&format!("/ask/{id}"))
    } else {
        see_other("/")
    }
}

async fn later(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let reply = call(&shared, Request::Later(id)).await;
    if wants_fragment(&headers) {
        return page_response(reply, true);
    }
    see_other("/")
}

async fn decline(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let reply = call(&shared, Request::Decline(id)).await;
    page_response(reply, wants_fragment(&headers))
}

/// `GET /ask/{id}/filter?tab=N&q=…`: the options the form's filter shows for what the person
/// typed, best first, as JSON (`{"shown":[3,0]}`); the page hides and orders its options by it.
async fn filter(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    Query(query): Query<std::collections::HashMap<String, String>>,
) -> Response {
    let Some(tab) = query.get("tab").and_then(|t| t.parse().ok()) else {
        return page_response(
            Reply::BadRequest("a filter names the question it filters (tab)".to_owned()),
            true,
        );
    };
    let text = query.get("q").cloned().unwrap_or_default();
    let reply = call(
        &shared,
        Request::Filter {
            id,
            tab,
            query: text,
        },
    )
    .await;
    page_response(reply, true)
}

async fn not_found() -> Response {
    let main =
        "<div data-page=\"missing\"><h1>Not here</h1><p><a href=\"/\">Waiting asks</a></p></div>";
    (
        StatusCode::NOT_FOUND,
        html_type(),
        page::document("Not here", main, 0),
    )
        .into_response()
}

/// One of the page's own files, whose content is part of the program.
fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

async fn script() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    )
}

async fn style() -> Response {
    asset("text/css; charset=utf-8", include_str!("assets/app.css"))
}

/// The open event streams, oldest first, each with what ends it.
#[derive(Default)]
struct Streams {
    next: u64,
    open: std::collections::VecDeque<(u64, Arc<tokio::sync::Notify>)>,
}

/// One open event stream, in [`Streams`] while it lasts.
struct StreamSlot {
    id: u64,
    streams: Arc<Mutex<Streams>>,
    ended: Arc<tokio::sync::Notify>,
}

impl StreamSlot {
    /// A place for a new stream, ending the oldest when all are taken.
    fn take(streams: &Arc<Mutex<Streams>>) -> StreamSlot {
        let mut open = streams.lock().unwrap_or_else(|e| e.into_inner());
        if open.open.len() >= MAX_STREAMS
            && let Some((_, oldest)) = open.open.pop_front()
        {
            oldest.notify_one();
        }
        let id = open.next;
        open.next += 1;
        let ended = Arc::new(tokio::sync::Notify::new());
        open.open.push_back((id, Arc::clone(&ended)));
        StreamSlot {
            id,
            streams: Arc::clone(streams),
            ended,
        }
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.streams.lock().unwrap_or_else(|e| e.into_inner());
        open.open.retain(|(id, _)| *id != self.id);
    }
}

fn changes_event(changes: &Changes) -> Event {
    let data = serde_json::json!({
        "list": changes.list,
        "asks": changes.asks,
        "waiting": changes.waiting,
        "newest": changes.newest,
    });
    Event::default().event("changes").data(data.to_string())
}

/// What changed, as server-sent events: the state at once, then each change.
async fn events(State(shared): State<Shared>) -> Response {
    let slot = StreamSlot::take(&shared.streams);
    let mut changes = shared.changes.clone();
    let first = changes_event(&changes.borrow_and_update());
    let stream = futures_util::stream::unfold(
        (Some(first), changes, slot),
        |(first, mut changes, slot)| async move {
            if let Some(first) = first {
                return Some((Ok::<Event, Infallible>(first), (None, changes, slot)));
            }
            tokio::select! {
                changed = changes.changed() => changed.ok()?,
                // A newer page took this stream's place.
                () = slot.ended.notified() => return None,
            }
            let event = changes_event(&changes.borrow_and_update());
            Some((Ok(event), (None, changes, slot)))
        },
    );
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}
