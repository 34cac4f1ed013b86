//! Why a command failed. Each command returns `Result<CommandOutcome, CommandError>`; only the command
//! line says the error (its `Display`, on standard error) and turns it into exit status 2, so no
//! command prints its own failure or picks an exit status.

use crate::strings::reopening;

/// Why a command failed (exit status 2). The messages name what failed and, where there is one,
/// the fix; the module errors keep their own text and stay reachable as the source.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// `ask --mode rpc` with the payload on standard input, which carries the host's replies.
    #[error(
        "in rpc mode standard input carries the host's responses; give the payload as a file (--payload FILE)"
    )]
    RpcPayloadOnStdin,
    /// `ask` with no payload piped in nor named.
    #[error(
        "no payload: pipe one in (`pi-ask ask < payload.json`) or name a file (`pi-ask ask payload.json`); `pi-ask schema` shows its shape"
    )]
    NoPayload,
    /// A number of seconds out of its range.
    #[error(transparent)]
    Seconds(#[from] super::SecondsOutOfRange),
    /// A command that opens a form (or the inbox) without a terminal (the command's name).
    #[error("{0} needs an interactive terminal")]
    NeedsTerminal(&'static str),
    /// The result could not be delivered, found before the form opened.
    #[error(transparent)]
    Undeliverable(#[from] crate::drivers::run::Undeliverable),
    /// The form ran without a result to deliver, or it was not delivered; also the terminal or
    /// the signal handlers failing for a command that opens no form.
    #[error(transparent)]
    Run(#[from] crate::drivers::run::RunError),
    /// There is no history to read, or a stored payload of it is unreadable.
    #[error(transparent)]
    History(#[from] super::HistoryUnavailable),
    /// The history file cannot be read.
    #[error("cannot read the history: {0}")]
    HistoryUnreadable(#[source] std::io::Error),
    /// No ask with the id given.
    #[error(transparent)]
    NoSuchAsk(#[from] crate::stores::history::LookupError),
    /// A recorded form no longer validates.
    #[error(transparent)]
    Incompatible(#[from] super::reopen::Incompatible),
    /// The newest form on a session's branch no longer validates.
    #[error("{}", reopening::INCOMPATIBLE)]
    IncompatibleOnBranch,
    /// `resume ID` of an ask that ended (its id, and how it ended).
    #[error("ask {id} already ended ({status}); `pi-ask replay {id}` reopens it")]
    AlreadyEnded {
        /// The ask.
        id: String,
        /// How it ended, as the history lists it.
        status: &'static str,
    },
    /// `resume ID` of an ask another live process shows.
    #[error("ask {id} is still open in another terminal (process {pid})")]
    StillOpen {
        /// The ask.
        id: String,
        /// The process showing it.
        pid: u32,
    },
    /// `--session latest` finds no session.
    #[error(transparent)]
    NoSession(#[from] crate::stores::pi_session::NoSession),
    /// The session file cannot be read.
    #[error(transparent)]
    Session(#[from] crate::stores::pi_session::SessionError),
    /// The session's assistant turn cannot be read.
    #[error(transparent)]
    Turn(#[from] crate::stores::pi_session::TurnError),
    /// `answer` has no message to read.
    #[error(transparent)]
    NoMessage(#[from] super::answer::NoMessage),
    /// The extractor failed.
    #[error(transparent)]
    Extraction(#[from] crate::extract::ExtractionFailed),
    /// `--queue` unset and no home directory to find the default queue in.
    #[error("no queue folder: there is no home directory; give --queue DIR or set PI_ASK_QUEUE")]
    NoQueueFolder,
    /// The queue folder is not safe to use (the folder as shown).
    #[error("cannot open the queue {folder}: {source}")]
    Queue {
        /// The folder.
        folder: String,
        /// Why.
        source: crate::private_dir::UnsafeFolder,
    },
    /// The inbox's list cannot be drawn.
    #[error("cannot show the inbox: {0}")]
    InboxTerminal(#[source] std::io::Error),
    /// A queued ask cannot be claimed.
    #[error("cannot claim the ask: {0}")]
    Claim(#[source] std::io::Error),
    /// The MCP server stopped with an error.
    #[error(transparent)]
    Mcp(#[from] crate::drivers::mcp::ServeError),
    /// `pi-ask mcp --http` has no token.
    #[error(transparent)]
    McpToken(#[from] crate::drivers::mcp::http::TokenError),
    /// `pi-ask setup` left the host's settings alone.
    #[error(transparent)]
    Setup(#[from] super::setup::SetupError),
    /// `pi-ask serve` could not serve.
    #[error(transparent)]
    Serve(#[from] crate::drivers::web::ServeError),
    /// The embed protocol failed.
    #[error("embed: {0}")]
    Embed(#[source] std::io::Error),
    /// Standard input cannot be read.
    #[error("cannot read standard input: {0}")]
    Stdin(#[source] std::io::Error),
    /// Standard input is not JSON.
    #[error("standard input is not JSON: {0}")]
    StdinNotJson(#[source] serde_json::Error),
    /// Standard input is JSON but not an `ask_user` result.
    #[error("not an ask_user result: {0}")]
    NotAResult(#[source] serde_json::Error),
    /// Standard output cannot be written.
    #[error("cannot write standard output: {0}")]
    Stdout(#[source] std::io::Error),
    /// `submit`'s request is not JSON.
    #[error("the request is not JSON: {0}")]
    RequestNotJson(#[source] serde_json::Error),
    /// A form's socket cannot be followed or submitted to (what, and the socket as shown).
    #[error("cannot {action} {socket}: {source}")]
    Socket {
        /// `follow` or `submit to`.
        action: &'static str,
        /// The socket.
        socket: String,
        /// Why.
        source: std::io::Error,
    },
}

impl From<crate::drivers::run::DeliveryFailed> for CommandError {
    fn from(failed: crate::drivers::run::DeliveryFailed) -> Self {
        CommandError::Run(failed.into())
    }
}
