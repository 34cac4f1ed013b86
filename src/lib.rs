//! pi-ask: a keyboard-first terminal form through which an agent asks a person structured
//! questions and gets back normalized JSON answers.
//!
//! The crate is built around one pure model of an ask flow:
//! [`input`] turns a payload into a [`form::Form`], [`model`] holds the flow and its
//! [`model::update`] function, and [`result`] turns a finished flow into the tool result.

#![warn(missing_docs)]

pub mod atomic;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod commands;
pub mod config;
#[cfg(feature = "cli")]
pub mod embed;
#[cfg(feature = "cli")]
pub mod extract;
pub mod files;
pub mod form;
#[cfg(feature = "cli")]
pub mod fuzzing;
#[cfg(feature = "cli")]
pub mod history;
#[cfg(feature = "cli")]
pub mod inbox;
pub mod input;
pub mod keymap;
pub mod keys;
#[cfg(feature = "cli")]
pub mod line;
pub mod lines;
#[cfg(feature = "cli")]
pub mod mcp;
pub mod model;
pub mod paths;
#[cfg(feature = "cli")]
pub mod pi_session;
pub mod printable;
#[cfg(feature = "cli")]
pub mod private_dir;
#[cfg(feature = "cli")]
pub mod queue;
#[cfg(feature = "cli")]
pub mod remote;
pub mod result;
#[cfg(feature = "cli")]
pub mod rpc;
#[cfg(feature = "cli")]
pub mod run;
pub mod schema;
pub mod settings;
pub mod strings;
pub mod testing;
pub mod tui;
