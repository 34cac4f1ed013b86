//! pi-ask: a keyboard-first terminal form through which an agent asks a person structured
//! questions and gets back normalized JSON answers.
//!
//! The crate is built around one pure model of an ask flow:
//! [`input`] turns a payload into a [`form::Form`], [`model`] holds the flow and its
//! [`model::update`] function, and [`result`] turns a finished flow into the tool result.
//!
//! The default feature `cli` is the `pi-ask` program (command line, terminal runtime, MCP, RPC,
//! the embed protocol, inbox, queue, history, pi session files). A test suite or a host that
//! draws forms itself depends on the lean core, `default-features = false`: the contract,
//! validation, the model, results, the view and [`testing::Harness`].

#![warn(missing_docs)]

pub(crate) mod answer_state;
pub mod atomic;
pub mod bounded_read;
#[cfg(feature = "cli")]
pub mod cli;
pub(crate) mod clock;
#[cfg(feature = "cli")]
pub(crate) mod commands;
pub(crate) mod did_you_mean;
#[cfg(feature = "cli")]
pub mod drivers;
pub mod engine;
#[cfg(feature = "cli")]
pub mod extract;
pub mod files;
pub mod form;
// The fuzz targets' checks: public for the fuzz crate and tests/fuzz_regressions.rs, not part of
// the documented library. (A `fuzzing` feature turned on by a dev-dependency of the crate on
// itself would unify into the lean core's own test build, so it stays under `cli`.)
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod fuzzing;
pub(crate) mod inbox;
pub mod input;
pub mod keymap;
pub mod keys;
pub mod lines;
#[cfg(feature = "cli")]
pub(crate) mod liveness;
pub mod model;
pub(crate) mod ownership;
pub(crate) mod paths;
pub(crate) mod printable;
#[cfg(feature = "cli")]
pub mod private_dir;
#[cfg(feature = "cli")]
pub mod remote;
#[cfg(feature = "cli")]
pub(crate) mod report;
pub mod result;
pub mod schema;
pub mod settings;
pub mod stores;
pub(crate) mod strings;
pub mod testing;
pub mod tui;

/// The Rust blocks of docs/testing.md, compiled and run as doctests (the README has none), so
/// the docs cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../docs/testing.md")]
pub struct TestingDocs;
