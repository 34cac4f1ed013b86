//! What pi-ask keeps between runs, each behind its own types: the configuration ([`config`]),
//! the history of asks ([`history`]), the queue the inbox, the web page and the hosts share
//! ([`queue`]), and pi's session files, read only ([`pi_session`]). The engine and the drivers
//! use them; none of them uses a driver.

pub mod config;
#[cfg(feature = "cli")]
pub mod history;
#[cfg(feature = "cli")]
pub mod pi_session;
#[cfg(feature = "cli")]
pub mod queue;
