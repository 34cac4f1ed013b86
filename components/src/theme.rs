//! Colour tokens, named as pi's theme names them, with pi's dark theme values.

use ratatui::style::{Color, Modifier, Style};

/// The colours every component draws with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub accent: Color,
    pub success: Color,
    pub warning: Color,
    pub error: Color,
    pub muted: Color,
    pub dim: Color,
    pub text: Color,
    pub selected_bg: Color,
    pub border: Color,
}

impl Default for Theme {
    /// pi's built-in dark theme.
    fn default() -> Self {
        Theme {
            accent: Color::Rgb(0x8a, 0xbe, 0xb7),
            success: Color::Rgb(0xb5, 0xbd, 0x68),
            warning: Color::Rgb(0xff, 0xff, 0x00),
            error: Color::Rgb(0xcc, 0x66, 0x66),
            muted: Color::Rgb(0x80, 0x80, 0x80),
            dim: Color::Rgb(0x66, 0x66, 0x66),
            text: Color::Reset,
            selected_bg: Color::Rgb(0x3a, 0x3a, 0x4a),
            border: Color::Rgb(0x50, 0x50, 0x50),
        }
    }
}

impl Theme {
    pub fn fg(&self, color: Color) -> Style {
        Style::default().fg(color)
    }

    pub fn accent(&self) -> Style {
        self.fg(self.accent)
    }

    pub fn success(&self) -> Style {
        self.fg(self.success)
    }

    pub fn warning(&self) -> Style {
        self.fg(self.warning)
    }

    pub fn error(&self) -> Style {
        self.fg(self.error)
    }

    pub fn muted(&self) -> Style {
        self.fg(self.muted)
    }

    pub fn dim(&self) -> Style {
        self.fg(self.dim)
    }

    pub fn text(&self) -> Style {
        self.fg(self.text)
    }

    pub fn bold_accent(&self) -> Style {
        self.accent().add_modifier(Modifier::BOLD)
    }

    pub fn selected(&self) -> Style {
        Style::default().bg(self.selected_bg).fg(self.text)
    }
}
