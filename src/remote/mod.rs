//! Answering a form from another program: the original's remote event protocol on a local
//! socket. See docs/remote.md.

pub mod protocol;
pub mod socket;

pub use protocol::{FlowInfo, RemoteMode, RemoteResponse, Submit, SubmitError, validate_submit};
pub use socket::RemoteServer;
