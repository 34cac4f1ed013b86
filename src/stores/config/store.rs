//! The config store: the one owner of a session's configuration and its saves. Whoever changes
//! it (a toggle, a reset, a reload) reads the new [`ConfigStore::config`] right after; nothing
//! keeps a copy of its own.

use super::{
    Config, ConfigPaths, ConfigSource, Loaded, SaveError, ThemeSetting, load, reset_file,
    save_setting, save_theme,
};
use crate::settings::Setting;

/// Holds the loaded configuration and saves changes to the TOML file.
pub struct ConfigStore {
    paths: ConfigPaths,
    loaded: Loaded,
    /// The config file as last read or written (modification time and length), to notice edits
    /// made on disk while a form is open.
    stamp: Option<FileStamp>,
    /// There was no config file: the commented default is written by
    /// [`ConfigStore::create_default`], once the form is on the screen.
    default_pending: bool,
}

type FileStamp = (std::time::SystemTime, u64);

/// The file that decides the configuration: the TOML file, or the JSON file it came from.
fn stamp_of(path: &std::path::Path) -> Option<FileStamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

impl std::fmt::Debug for ConfigStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConfigStore")
            .field("paths", &self.paths)
            .field("loaded", &self.loaded)
            .finish_non_exhaustive()
    }
}

impl ConfigStore {
    /// Loads the configuration from `paths`, writing nothing: where there is no file, the
    /// defaults apply and [`ConfigStore::create_default`] writes the commented file later, off
    /// the path to the first frame.
    pub fn open(paths: ConfigPaths) -> ConfigStore {
        let loaded = super::load(&paths);
        let default_pending = matches!(loaded.source, ConfigSource::Defaults(_));
        // Temp files of a save killed midway (one small folder listing).
        if let Some(dir) = loaded.source.path().parent() {
            crate::atomic::remove_leftovers(dir);
        }
        let stamp = stamp_of(loaded.source.path());
        ConfigStore {
            paths,
            loaded,
            stamp,
            default_pending,
        }
    }

    /// Writes the commented default config file where [`ConfigStore::open`] found none (and
    /// nothing wrote one since: a save or reset already did, and a file that appeared meanwhile
    /// is left as it is). Once per store; returns the notice when the file cannot be created.
    pub fn create_default(&mut self) -> Option<String> {
        if !std::mem::take(&mut self.default_pending)
            || !matches!(self.loaded.source, ConfigSource::Defaults(_))
        {
            return None;
        }
        match super::toml_file::write_snapshot(&self.paths.toml, &Config::default()) {
            Ok(()) => {
                // Written by this store: not an edit made on disk to reload.
                self.stamp = stamp_of(&self.paths.toml);
                None
            }
            Err(err) => {
                let notice = not_created_notice(&self.paths.toml, &err);
                self.loaded.notices.push(notice.clone());
                Some(notice)
            }
        }
    }

    /// The configuration in effect.
    pub fn config(&self) -> &Config {
        &self.loaded.config
    }

    /// Which file it came from.
    pub fn source(&self) -> &ConfigSource {
        &self.loaded.source
    }

    /// The notices of the last load, joined into one line (none when everything was fine).
    pub fn notice(&self) -> Option<String> {
        (!self.loaded.notices.is_empty()).then(|| self.loaded.notices.join(" "))
    }

    /// The absolute path shown in the settings modal.
    pub fn display_path(&self) -> String {
        crate::paths::display(self.loaded.source.path())
    }

    /// Where toggles can be saved, or why they cannot.
    fn writable_path(&self) -> Result<std::path::PathBuf, SaveError> {
        match &self.loaded.source {
            ConfigSource::Toml(p) | ConfigSource::Defaults(p) => Ok(p.clone()),
            ConfigSource::LegacyJson(p) => Err(SaveError::LegacyJson {
                legacy: p.clone(),
                toml: self.paths.toml.clone(),
            }),
            ConfigSource::NoHome(_) => Err(SaveError::NoHome),
            ConfigSource::Invalid(p) => Err(SaveError::Unreadable(p.clone())),
        }
    }

    /// Saves one toggle. On success [`ConfigStore::config`] holds it; on failure nothing changes
    /// and the manual-edit message is returned.
    pub fn set_setting(&mut self, setting: Setting, on: bool) -> Result<(), SaveError> {
        let path = self.writable_path()?;
        save_setting(&path, setting, on, &self.loaded.config)?;
        let mut settings = self.loaded.config.settings();
        settings.set(setting, on);
        self.loaded.config.set_settings(settings);
        self.loaded.source = ConfigSource::Toml(path);
        self.loaded.notices.clear();
        self.stamp = stamp_of(self.loaded.source.path());
        Ok(())
    }

    /// Saves the theme's name (`[theme] name`). On success [`ConfigStore::config`] holds it; on
    /// failure nothing changes and the manual-edit message is returned.
    pub fn set_theme(&mut self, name: ThemeSetting) -> Result<(), SaveError> {
        let path = self.writable_path()?;
        save_theme(&path, name, &self.loaded.config)?;
        self.loaded.config.theme.name = name;
        self.loaded.source = ConfigSource::Toml(path);
        self.loaded.notices.clear();
        self.stamp = stamp_of(self.loaded.source.path());
        Ok(())
    }

    /// Resets the file and the session to defaults.
    pub fn reset(&mut self) -> Result<(), SaveError> {
        let path = self.writable_path()?;
        reset_file(&path)?;
        self.loaded = Loaded {
            config: Config::default(),
            source: ConfigSource::Toml(path),
            notices: Vec::new(),
            problems: Vec::new(),
        };
        self.stamp = stamp_of(self.loaded.source.path());
        Ok(())
    }

    /// Reads the file again.
    pub fn reload(&mut self) {
        self.loaded = load(&self.paths);
        self.stamp = stamp_of(self.loaded.source.path());
    }

    /// Reloads when the config file changed on disk since it was last read or saved (an edit in
    /// another editor while a form is open). Returns whether it reloaded.
    pub fn reload_if_changed(&mut self) -> bool {
        if matches!(self.loaded.source, ConfigSource::NoHome(_)) {
            return false;
        }
        let now = stamp_of(self.loaded.source.path()).or_else(|| stamp_of(&self.paths.toml));
        if now == self.stamp {
            return false;
        }
        self.reload();
        true
    }
}

/// Why the default config file could not be created at `path`.
fn not_created_notice(path: &std::path::Path, err: &std::io::Error) -> String {
    format!(
        "Could not create the default config at {}: {err}",
        path.display()
    )
}
