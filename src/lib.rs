//! pi-ask: a keyboard-first terminal form through which an agent asks a person structured
//! questions and gets back normalized JSON answers.
//!
//! The crate is built around one pure model of an ask flow:
//! [`input`] turns a payload into a [`form::Form`], [`model`] holds the flow and its
//! [`model::update`] function, and [`result`] turns a finished flow into the tool result.

pub mod atomic;
pub mod cli;
pub mod commands;
pub mod config;
pub mod embed;
pub mod extract;
pub mod files;
pub mod form;
pub mod fuzzing;
pub mod history;
pub mod inbox;
pub mod input;
pub mod keymap;
pub mod keys;
pub mod line;
pub mod lines;
pub mod mcp;
pub mod model;
pub mod paths;
pub mod printable;
pub mod private_dir;
pub mod queue;
pub mod remote;
pub mod result;
pub mod rpc;
pub mod run;
pub mod schema;
pub mod session;
pub mod settings;
pub mod strings;
pub mod testing;
pub mod tui;
