//! The drivers that own a medium themselves: the terminal runtime ([`runtime`], over the
//! controlling terminal that [`tty`] takes and gives back). Each only translates its medium into
//! the engine's inputs and draws the engine's frames ([`crate::engine`]); none decides anything
//! about a form.

pub mod embed;
pub mod external_editor;
pub mod hooks;
pub(crate) mod http_door;
pub(crate) mod line;
pub mod mcp;
pub mod rpc;
pub mod run;
pub mod runtime;
pub mod tty;
pub mod web;
