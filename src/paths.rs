//! Paths as people read them: absolute and normalized (`.` and `..` resolved lexically, without
//! touching the file system, so a path that does not exist yet shows the same way).

use std::path::{Component, Path, PathBuf};

/// `path` made absolute against the current directory and normalized.
pub fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .unwrap_or_else(|_| PathBuf::from("/"))
            .join(path)
    };
    normalize(&joined)
}

/// Resolves `.` and `..` lexically (`/a/./b/../c` → `/a/c`); `..` never climbs above the root.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            // `..` at the root stays at the root; a relative path keeps leading `..`s.
            Component::ParentDir => {
                let at_root = out.parent().is_none() && out.has_root();
                let climbable = out.file_name().is_some();
                if climbable {
                    out.pop();
                } else if !at_root {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// The absolute, normalized path as text for messages.
pub fn display(path: &Path) -> String {
    absolute(path).display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_are_resolved_and_the_root_is_never_left() {
        assert_eq!(normalize(Path::new("/a/./b/../c")), Path::new("/a/c"));
        assert_eq!(normalize(Path::new("/../x")), Path::new("/x"));
        assert_eq!(normalize(Path::new("a/../../b")), Path::new("../b"));
    }

    #[test]
    fn relative_paths_become_absolute() {
        let shown = absolute(Path::new("./.pi/agent/x.toml"));
        assert!(shown.is_absolute());
        assert!(shown.ends_with(".pi/agent/x.toml"));
        assert!(!shown.to_string_lossy().contains("/./"));
    }
}
