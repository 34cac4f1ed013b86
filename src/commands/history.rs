//! `pi-ask history` (recent asks, newest first) and `pi-ask history show ID` (one ask whole).

use std::io::Write;

use serde_json::{Value, json};

use super::{Ended, HistoryChoice};
use crate::report::CommandOutcome;
use crate::stores::history::{Ask, History, process_is_alive};

/// The listing's rows: id, when, source, status, title or first prompt.
pub fn list_lines(history: &History, limit: usize) -> Vec<String> {
    let mut lines = vec![format!(
        "{:<8}  {:<24}  {:<12}  {:<11}  TITLE",
        "ID", "OPENED", "SOURCE", "STATUS"
    )];
    for ask in history.asks.iter().rev().take(limit) {
        let headline: String = ask.headline().chars().take(60).collect();
        // Everything in a row came from a payload or the file: nothing reaches the terminal raw.
        let clean = |text: &str| crate::printable::printable(&text.replace(['\n', '\r'], " "));
        lines.push(format!(
            "{:<8}  {:<24}  {:<12}  {:<11}  {}",
            clean(&ask.opened.id),
            clean(&ask.opened.at),
            ask.opened.source.as_str(),
            ask.status_label(&process_is_alive),
            clean(&headline)
        ));
    }
    lines
}

/// One ask as `history show` prints it.
pub fn show_json(ask: &Ask) -> Value {
    let mut out = json!({
        "id": ask.opened.id,
        "source": ask.opened.source.as_str(),
        "status": ask.status_label(&process_is_alive),
        "openedAt": ask.opened.at,
        "cwd": ask.opened.cwd,
    });
    if let Some(title) = &ask.opened.title {
        out["title"] = title.clone().into();
    }
    if let Some(ended) = &ask.ended {
        out["endedAt"] = ended.at.clone().into();
    }
    if ask.dismissed {
        out["dismissed"] = true.into();
    }
    if ask.opened.origin != Default::default() {
        out["origin"] = serde_json::to_value(&ask.opened.origin).unwrap_or(Value::Null);
    }
    out["payload"] = ask.opened.payload.clone();
    if let Some(ended) = &ask.ended {
        out["result"] = ended.result.clone();
    }
    out
}

/// `pi-ask history [--limit N]`.
pub fn list(history: &HistoryChoice, limit: usize) -> Ended {
    let read = history.read()?;
    let mut out = std::io::stdout().lock();
    if read.asks.is_empty() {
        let _ = writeln!(out, "No asks recorded yet.");
    } else {
        for line in list_lines(&read, limit) {
            let _ = writeln!(out, "{line}");
        }
    }
    if read.skipped_lines > 0 {
        crate::report::report(&format!(
            "skipped {} unreadable line(s) in the history",
            read.skipped_lines
        ));
    }
    Ok(CommandOutcome::Done)
}

/// `pi-ask history show ID`.
pub fn show(history: &HistoryChoice, id: &str) -> Ended {
    let read = history.read()?;
    let ask = history.with_payload(read.find(id)?)?;
    let text = serde_json::to_string_pretty(&show_json(&ask)).unwrap_or_default();
    let text = crate::printable::json_for_stdout(&text);
    let _ = writeln!(std::io::stdout().lock(), "{text}");
    Ok(CommandOutcome::Done)
}
