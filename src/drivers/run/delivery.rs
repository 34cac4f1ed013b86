//! Delivering a form's result: to standard output or `--output` (a file, a FIFO, a terminal),
//! as JSON or pi's RPC line, never lost (a result that cannot reach its file is printed instead
//! and still fails), and what the command's exit says of it.

use std::io::{IsTerminal, Write};
use std::path::Path;

use crate::report::CommandOutcome;
use crate::result::AskResult;

/// Why a result did not reach where it was to go (paths as shown).
#[derive(Debug, thiserror::Error)]
pub enum DeliveryFailed {
    /// Standard output cannot be written.
    #[error("cannot write the result to standard output: {0}")]
    Stdout(#[source] std::io::Error),
    /// `--output` cannot be written; the result went to standard output instead.
    #[error("cannot write the result to {path}: {source}; printed it on standard output instead")]
    OnStdoutInstead {
        /// The `--output` path.
        path: String,
        /// Why the file was not written.
        source: std::io::Error,
    },
    /// Neither `--output` nor standard output can be written.
    #[error("cannot write the result to {path}: {file}, nor to standard output: {stdout}")]
    Lost {
        /// The `--output` path.
        path: String,
        /// Why the file was not written.
        #[source]
        file: std::io::Error,
        /// Why standard output was not written.
        stdout: std::io::Error,
    },
}

/// Why a result could not be delivered, found before the form opens.
#[derive(Debug, thiserror::Error)]
pub enum Undeliverable {
    /// `--output` cannot take it.
    #[error(transparent)]
    Output(#[from] OutputRefused),
    /// Standard output is closed.
    #[error("standard output is closed, so the result could not be delivered; give --output FILE")]
    StdoutClosed,
}

/// Refuses, before any form opens, a result that could not be delivered: a closed standard
/// output, or an `--output` file that cannot be created.
pub fn check_delivery(output: Option<&Path>) -> Result<(), Undeliverable> {
    match output {
        Some(path) => Ok(check_output_file(path)?),
        None if stdout_is_closed() => Err(Undeliverable::StdoutClosed),
        None => Ok(()),
    }
}

/// How `ask` writes its result (`--format`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum ResultFormat {
    /// The result JSON (`{content, details}`).
    #[default]
    Json,
    /// The chosen labels (and own answers), one a line in question order, as `gum choose`
    /// prints; an elaboration's text; nothing for a cancelled, timed-out or refused form (its
    /// exit status and standard error say what happened).
    Text,
}

/// The result as [`ResultFormat::Text`] writes it (empty: nothing is written).
pub fn result_text(result: &AskResult) -> String {
    if result.details.cancelled {
        return String::new();
    }
    if result.details.mode == crate::result::Mode::Elaborate {
        return result.text().to_owned();
    }
    result
        .details
        .questions
        .iter()
        .filter_map(|q| result.details.answers.get(&q.id))
        .flat_map(|answer| answer.labels.iter().cloned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Writes the result in `format` to `output`, or to stdout; text written to a terminal is made
/// printable (the labels are the payload's), to a pipe or file as chosen.
pub fn emit_as(
    result: &AskResult,
    output: Option<&Path>,
    format: ResultFormat,
) -> Result<(), DeliveryFailed> {
    match format {
        ResultFormat::Json => emit(result, output),
        ResultFormat::Text => {
            let text = result_text(result);
            if text.is_empty() {
                return Ok(());
            }
            let to_terminal = output.is_none() && std::io::stdout().is_terminal();
            let text = if to_terminal {
                text.lines()
                    .map(crate::printable::printable)
                    .collect::<Vec<_>>()
                    .join("\n")
            } else {
                text
            };
            deliver(&text, output, &mut std::io::stdout().lock())
        }
    }
}

/// Writes the result JSON to `output` or standard output.
pub fn emit(result: &AskResult, output: Option<&Path>) -> Result<(), DeliveryFailed> {
    let json = result.to_json_pretty();
    // On a terminal, nothing in the answers' strings may act on it (a file gets serde's JSON).
    let json = match output {
        None => crate::printable::json_for_stdout(&json),
        Some(_) => std::borrow::Cow::Borrowed(json.as_str()),
    };
    deliver(&json, output, &mut std::io::stdout().lock())
}

/// Writes `text` and a newline to `output`, or to `stdout` without one. When the file cannot be
/// written (it was checked before the form opened, so this is rare), the result goes to `stdout`
/// instead, so the answers are not lost, and it is still a failure because the file is missing.
pub fn deliver(
    text: &str,
    output: Option<&Path>,
    stdout: &mut dyn Write,
) -> Result<(), DeliveryFailed> {
    let to_stdout =
        |stdout: &mut dyn Write| writeln!(stdout, "{text}").and_then(|_| stdout.flush());
    let Some(path) = output else {
        return to_stdout(stdout).map_err(DeliveryFailed::Stdout);
    };
    let Err(file) = write_output(path, &format!("{text}\n")) else {
        return Ok(());
    };
    let path = crate::paths::display(path);
    Err(match to_stdout(stdout) {
        Ok(()) => DeliveryFailed::OnStdoutInstead { path, source: file },
        Err(stdout) => DeliveryFailed::Lost { path, file, stdout },
    })
}

/// How `--output` is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OutputKind {
    /// A file: replaced atomically (a temp file renamed over the name, never written through a
    /// link at it, so a planted link cannot redirect the result onto another file).
    File,
    /// A pipe or a device (`/dev/stdout`, `>(jq …)`): written through, never created or replaced.
    Stream,
}

fn output_kind(path: &Path) -> OutputKind {
    use std::os::unix::fs::FileTypeExt;
    match std::fs::metadata(path) {
        Ok(meta) => {
            let t = meta.file_type();
            if t.is_fifo() || t.is_char_device() || t.is_socket() {
                OutputKind::Stream
            } else {
                OutputKind::File
            }
        }
        Err(_) => OutputKind::File,
    }
}

/// Writes the result to `--output`.
fn write_output(path: &Path, text: &str) -> std::io::Result<()> {
    match output_kind(path) {
        OutputKind::Stream => {
            let mut out = std::fs::OpenOptions::new().write(true).open(path)?;
            out.write_all(text.as_bytes())?;
            out.flush()
        }
        OutputKind::File => crate::atomic::write(
            path,
            text.as_bytes(),
            crate::atomic::Permissions::KeepExisting,
        ),
    }
}

/// Why the result could not go to an `--output` path (the path as shown, made printable).
#[derive(Debug, thiserror::Error)]
pub enum OutputRefused {
    /// The path is a directory.
    #[error("cannot write the result to {0}: it is a directory")]
    Directory(String),
    /// Its folder can be written by others and the path is not this user's own file.
    #[error(
        "cannot write the result to {0}: its folder can be written by others, who could plant a link or a file at that name; give a path in a folder of yours"
    )]
    SharedFolder(String),
    /// Opening or creating failed.
    #[error("cannot write the result to {path}: {source}")]
    Io {
        /// The path, as shown.
        path: String,
        /// What failed.
        source: std::io::Error,
    },
}

/// Whether `path` can take the result, checked before the form opens so an answer is never
/// given for nothing: a pipe or device that opens for writing, or a file whose folder takes a
/// new file (a temp file, removed at once: the name itself is not touched). In a folder others
/// can write (`/tmp`), only a regular file of this user is accepted: anyone there could plant a
/// link or a file at the name. The error names the path and the fix.
pub fn check_output_file(path: &Path) -> Result<(), OutputRefused> {
    use std::os::unix::fs::MetadataExt;
    let shown = crate::printable::printable(&crate::paths::display(path));
    let fail = |source: std::io::Error| OutputRefused::Io {
        path: shown.clone(),
        source,
    };
    if path.is_dir() {
        return Err(OutputRefused::Directory(shown));
    }
    if output_kind(path) == OutputKind::Stream {
        return std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map(drop)
            .map_err(fail);
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if crate::private_dir::writable_by_others(dir) {
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        let own_file = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.uid() == me);
        if !own_file {
            return Err(OutputRefused::SharedFolder(shown));
        }
    }
    tempfile::Builder::new()
        .prefix(crate::atomic::TEMP_PREFIX)
        .suffix(crate::atomic::TEMP_SUFFIX)
        .tempfile_in(dir)
        .map(drop)
        .map_err(fail)
}

/// Whether standard output was closed at start (recorded by the binary before Rust's runtime
/// reopens it on /dev/null, where the result would vanish without an error).
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Records whether standard output was closed when the process started.
pub fn set_stdout_closed(closed: bool) {
    STDOUT_CLOSED.store(closed, std::sync::atomic::Ordering::Relaxed);
}

/// Whether standard output is closed (`>&-`), so a result written there would be lost.
pub fn stdout_is_closed() -> bool {
    STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
        // SAFETY: F_GETFD only queries the descriptor's flags.
        || unsafe { libc::fcntl(1, libc::F_GETFD) == -1 }
}

/// How a command that delivered `result` ended: done when submitted or elaborated, cancelled
/// otherwise.
pub fn outcome(result: &AskResult) -> CommandOutcome {
    CommandOutcome::done_if(!result.details.cancelled, CommandOutcome::Cancelled)
}

/// Writes a finished form's result; how it ended (answered or cancelled) is the outcome.
pub fn deliver_result(
    result: &AskResult,
    output: Option<&Path>,
) -> Result<CommandOutcome, DeliveryFailed> {
    emit(result, output)?;
    Ok(outcome(result))
}

/// Writes the final RPC line (`{"type":"ask_result","result":…}`), or with `--output` the result
/// JSON to that file.
pub fn emit_rpc(result: &AskResult, output: Option<&Path>) -> Result<(), DeliveryFailed> {
    match output {
        Some(_) => emit(result, output),
        None => deliver(
            &crate::printable::json_for_stdout(&crate::drivers::rpc::result_line(result)),
            None,
            &mut std::io::stdout().lock(),
        ),
    }
}
