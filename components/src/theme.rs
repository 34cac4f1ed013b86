//! Colour tokens named as pi's theme names them, the built-in `dark` and `light` values, user
//! colour values, and the reduction of colours to what a terminal can show. This is the only file
//! of the project that names a colour: components draw through a [`Theme`]'s styles.

use ratatui::style::{Color, Modifier, Style};

/// A role a colour plays, with pi's token name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Token {
    /// `accent`: the rules, the cursor `❯`, the active tab, key names in hints.
    Accent,
    /// `border`: box borders.
    Border,
    /// `borderAccent`: the border of a focused box.
    BorderAccent,
    /// `borderMuted`: quiet borders (the preview pane).
    BorderMuted,
    /// `success`: chosen options, answered tabs, saved notices.
    Success,
    /// `error`: errors and refused input.
    Error,
    /// `warning`: `Note:` labels and pending confirmations.
    Warning,
    /// `muted`: descriptions and secondary text.
    Muted,
    /// `dim`: hints, placeholders and scroll markers.
    Dim,
    /// `text`: ordinary text.
    Text,
    /// `selectedBg`: the background of the highlighted row and of an open editor.
    SelectedBg,
    /// `mdHeading`: Markdown headings.
    MdHeading,
    /// `mdLink`: a link's text.
    MdLink,
    /// `mdLinkUrl`: a link's address, shown after its text.
    MdLinkUrl,
    /// `mdCode`: inline code.
    MdCode,
    /// `mdCodeBlock`: the text of a code block.
    MdCodeBlock,
    /// `mdCodeBlockBorder`: the box around a code block.
    MdCodeBlockBorder,
    /// `mdQuote`: quoted text.
    MdQuote,
    /// `mdQuoteBorder`: the `│` before quoted lines.
    MdQuoteBorder,
    /// `mdHr`: horizontal rules.
    MdHr,
    /// `mdListBullet`: list bullets and numbers.
    MdListBullet,
    /// `toolDiffAdded`: added lines of a diff.
    ToolDiffAdded,
    /// `toolDiffRemoved`: removed lines of a diff.
    ToolDiffRemoved,
    /// `toolDiffContext`: context lines and hunk headers of a diff.
    ToolDiffContext,
}

impl Token {
    /// Every token, in the order docs and config files list them.
    pub const ALL: [Token; 24] = [
        Token::Accent,
        Token::Border,
        Token::BorderAccent,
        Token::BorderMuted,
        Token::Success,
        Token::Error,
        Token::Warning,
        Token::Muted,
        Token::Dim,
        Token::Text,
        Token::SelectedBg,
        Token::MdHeading,
        Token::MdLink,
        Token::MdLinkUrl,
        Token::MdCode,
        Token::MdCodeBlock,
        Token::MdCodeBlockBorder,
        Token::MdQuote,
        Token::MdQuoteBorder,
        Token::MdHr,
        Token::MdListBullet,
        Token::ToolDiffAdded,
        Token::ToolDiffRemoved,
        Token::ToolDiffContext,
    ];

    /// pi's name of the token (`selectedBg`), as written in `[theme.colors]`.
    pub fn name(self) -> &'static str {
        match self {
            Token::Accent => "accent",
            Token::Border => "border",
            Token::BorderAccent => "borderAccent",
            Token::BorderMuted => "borderMuted",
            Token::Success => "success",
            Token::Error => "error",
            Token::Warning => "warning",
            Token::Muted => "muted",
            Token::Dim => "dim",
            Token::Text => "text",
            Token::SelectedBg => "selectedBg",
            Token::MdHeading => "mdHeading",
            Token::MdLink => "mdLink",
            Token::MdLinkUrl => "mdLinkUrl",
            Token::MdCode => "mdCode",
            Token::MdCodeBlock => "mdCodeBlock",
            Token::MdCodeBlockBorder => "mdCodeBlockBorder",
            Token::MdQuote => "mdQuote",
            Token::MdQuoteBorder => "mdQuoteBorder",
            Token::MdHr => "mdHr",
            Token::MdListBullet => "mdListBullet",
            Token::ToolDiffAdded => "toolDiffAdded",
            Token::ToolDiffRemoved => "toolDiffRemoved",
            Token::ToolDiffContext => "toolDiffContext",
        }
    }

    /// The token pi's theme files call `name` (`accent`, `mdHeading`, …), if there is one.
    pub fn from_name(name: &str) -> Option<Token> {
        Token::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Where the form uses the token.
    pub fn used_for(self) -> &'static str {
        match self {
            Token::Accent => {
                "the rules, the title, the cursor row and its `❯`, the focused setting, the preview pane's border and heading, the selected suggestion"
            }
            Token::Border | Token::BorderAccent => {
                "not drawn by the form; accepted so colours shared with a pi theme stay valid"
            }
            Token::BorderMuted => "the settings modal's frame",
            Token::Success => {
                "chosen options, answered tabs and the review tab, answers on the review tab"
            }
            Token::Error => "a failed save in the settings modal",
            Token::Warning => {
                "`(recommended)`, `Note:`, notices in the footer and the settings modal, the too-small notice"
            }
            Token::Muted => "descriptions, notes, unanswered tabs, placeholders, suggestion paths",
            Token::Dim => {
                "key hints, the tab arrows, scroll markers, `unanswered`, the preview's line count"
            }
            Token::Text => "option labels and other plain text",
            Token::SelectedBg => "the active tab, the editors' field, the `@` popup",
            Token::MdHeading => "Markdown headings in prompts, descriptions, notes and previews",
            Token::MdLink => "a Markdown link's text",
            Token::MdLinkUrl => "a Markdown link's address, after its text",
            Token::MdCode => "Markdown `inline code`",
            Token::MdCodeBlock => "the text of a fenced code block",
            Token::MdCodeBlockBorder => "the box around a fenced code block",
            Token::MdQuote => "the text of a Markdown quote",
            Token::MdQuoteBorder => "the `│` before a quote's lines",
            Token::MdHr => "a Markdown rule (`---`)",
            Token::MdListBullet => "list bullets and numbers",
            Token::ToolDiffAdded => "added lines of a diff in a code block",
            Token::ToolDiffRemoved => "removed lines of a diff in a code block",
            Token::ToolDiffContext => "the unchanged lines and `@@` hunk headers of a diff",
        }
    }
}

/// A built-in theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeName {
    /// pi's dark theme (for dark terminal backgrounds).
    Dark,
    /// pi's light theme (for light terminal backgrounds).
    Light,
}

impl ThemeName {
    /// The theme's name as configs and `--theme` spell it (`dark`, `light`).
    pub fn name(self) -> &'static str {
        match self {
            ThemeName::Dark => "dark",
            ThemeName::Light => "light",
        }
    }

    /// pi's values for the tokens (its `dark.json` and `light.json`).
    fn truecolor(self, token: Token) -> Color {
        let rgb = |v: u32| Color::Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8);
        match (self, token) {
            (_, Token::Text) => Color::Reset,
            (ThemeName::Dark, Token::Accent) => rgb(0x8abeb7),
            (ThemeName::Dark, Token::Border) => rgb(0x5f87ff),
            (ThemeName::Dark, Token::BorderAccent) => rgb(0x00d7ff),
            (ThemeName::Dark, Token::BorderMuted) => rgb(0x505050),
            (ThemeName::Dark, Token::Success) => rgb(0xb5bd68),
            (ThemeName::Dark, Token::Error) => rgb(0xcc6666),
            (ThemeName::Dark, Token::Warning) => rgb(0xffff00),
            (ThemeName::Dark, Token::Muted) => rgb(0x808080),
            (ThemeName::Dark, Token::Dim) => rgb(0x666666),
            (ThemeName::Dark, Token::SelectedBg) => rgb(0x3a3a4a),
            (ThemeName::Light, Token::Accent) => rgb(0x5a8080),
            (ThemeName::Light, Token::Border) => rgb(0x547da7),
            (ThemeName::Light, Token::BorderAccent) => rgb(0x5a8080),
            (ThemeName::Light, Token::BorderMuted) => rgb(0xb0b0b0),
            (ThemeName::Light, Token::Success) => rgb(0x588458),
            (ThemeName::Light, Token::Error) => rgb(0xaa5555),
            (ThemeName::Light, Token::Warning) => rgb(0x9a7326),
            (ThemeName::Light, Token::Muted) => rgb(0x6c6c6c),
            (ThemeName::Light, Token::Dim) => rgb(0x767676),
            (ThemeName::Light, Token::SelectedBg) => rgb(0xd0d0e0),
            (ThemeName::Dark, Token::MdHeading) => rgb(0xf0c674),
            (ThemeName::Dark, Token::MdLink) => rgb(0x81a2be),
            (ThemeName::Dark, Token::MdLinkUrl) => rgb(0x666666),
            (ThemeName::Dark, Token::MdCode | Token::MdListBullet) => rgb(0x8abeb7),
            (ThemeName::Dark, Token::MdCodeBlock | Token::ToolDiffAdded) => rgb(0xb5bd68),
            (ThemeName::Dark, Token::ToolDiffRemoved) => rgb(0xcc6666),
            (
                ThemeName::Dark,
                Token::MdCodeBlockBorder
                | Token::MdQuote
                | Token::MdQuoteBorder
                | Token::MdHr
                | Token::ToolDiffContext,
            ) => rgb(0x808080),
            (ThemeName::Light, Token::MdHeading) => rgb(0x9a7326),
            (ThemeName::Light, Token::MdLink) => rgb(0x547da7),
            (ThemeName::Light, Token::MdLinkUrl) => rgb(0x767676),
            (ThemeName::Light, Token::MdCode) => rgb(0x5a8080),
            (ThemeName::Light, Token::MdCodeBlock | Token::MdListBullet | Token::ToolDiffAdded) => {
                rgb(0x588458)
            }
            (ThemeName::Light, Token::ToolDiffRemoved) => rgb(0xaa5555),
            (
                ThemeName::Light,
                Token::MdCodeBlockBorder
                | Token::MdQuote
                | Token::MdQuoteBorder
                | Token::MdHr
                | Token::ToolDiffContext,
            ) => rgb(0x6c6c6c),
        }
    }

    /// Hand-picked ANSI colours for 16-colour terminals, where the nearest colour by distance
    /// turns pi's soft teal into grey (the selection is reverse video there; see [`Theme::new`]).
    fn sixteen(self, token: Token) -> Color {
        match (self, token) {
            (_, Token::Text | Token::SelectedBg) => Color::Reset,
            (_, Token::Accent) => Color::Cyan,
            (_, Token::Border) => Color::Blue,
            (_, Token::Success) => Color::Green,
            (_, Token::Error) => Color::Red,
            (_, Token::Muted | Token::Dim) => Color::DarkGray,
            (ThemeName::Dark, Token::BorderAccent) => Color::LightCyan,
            (ThemeName::Dark, Token::BorderMuted) => Color::DarkGray,
            (ThemeName::Dark, Token::Warning) => Color::LightYellow,
            (ThemeName::Light, Token::BorderAccent) => Color::Cyan,
            (ThemeName::Light, Token::BorderMuted) => Color::Gray,
            (ThemeName::Light, Token::Warning) => Color::Yellow,
            (ThemeName::Dark, Token::MdHeading) => Color::LightYellow,
            (ThemeName::Light, Token::MdHeading) => Color::Yellow,
            (_, Token::MdLink) => Color::Blue,
            (_, Token::MdCode) => Color::Cyan,
            (ThemeName::Dark, Token::MdListBullet) => Color::Cyan,
            (ThemeName::Light, Token::MdListBullet) => Color::Green,
            (_, Token::MdCodeBlock | Token::ToolDiffAdded) => Color::Green,
            (_, Token::ToolDiffRemoved) => Color::Red,
            (
                _,
                Token::MdLinkUrl
                | Token::MdCodeBlockBorder
                | Token::MdQuote
                | Token::MdQuoteBorder
                | Token::MdHr
                | Token::ToolDiffContext,
            ) => Color::DarkGray,
        }
    }
}

/// How many colours the terminal shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorDepth {
    /// 24-bit RGB.
    TrueColor,
    /// The xterm 256-colour palette.
    Ansi256,
    /// The 16 ANSI colours.
    Ansi16,
    /// No colour at all (`NO_COLOR`, `--color never`): modifiers only.
    None,
}

impl ColorDepth {
    /// The depth in words, for `pi-ask doctor` and the settings (`256 colours`).
    pub fn describe(self) -> &'static str {
        match self {
            ColorDepth::TrueColor => "24-bit colour",
            ColorDepth::Ansi256 => "256 colours",
            ColorDepth::Ansi16 => "16 colours",
            ColorDepth::None => "no colour",
        }
    }

    /// The colour as this depth shows it.
    pub fn reduce(self, color: Color) -> Color {
        match (self, color) {
            (ColorDepth::None, _) => Color::Reset,
            (ColorDepth::TrueColor, c) => c,
            (ColorDepth::Ansi256, Color::Rgb(r, g, b)) => Color::Indexed(nearest_256(r, g, b)),
            (ColorDepth::Ansi16, Color::Rgb(r, g, b)) => nearest_16(r, g, b),
            (ColorDepth::Ansi16, Color::Indexed(i)) if i < 16 => ANSI16[i as usize].1,
            (ColorDepth::Ansi16, Color::Indexed(i)) => {
                let (r, g, b) = index_rgb(i);
                nearest_16(r, g, b)
            }
            (_, c) => c,
        }
    }
}

/// The 16 ANSI colours: their names in `[theme.colors]`, ratatui's colour, xterm's RGB values.
const ANSI16: [(&str, Color, (u8, u8, u8)); 16] = [
    ("black", Color::Black, (0, 0, 0)),
    ("red", Color::Red, (205, 0, 0)),
    ("green", Color::Green, (0, 205, 0)),
    ("yellow", Color::Yellow, (205, 205, 0)),
    ("blue", Color::Blue, (0, 0, 238)),
    ("magenta", Color::Magenta, (205, 0, 205)),
    ("cyan", Color::Cyan, (0, 205, 205)),
    ("white", Color::Gray, (229, 229, 229)),
    ("bright-black", Color::DarkGray, (127, 127, 127)),
    ("bright-red", Color::LightRed, (255, 0, 0)),
    ("bright-green", Color::LightGreen, (0, 255, 0)),
    ("bright-yellow", Color::LightYellow, (255, 255, 0)),
    ("bright-blue", Color::LightBlue, (92, 92, 255)),
    ("bright-magenta", Color::LightMagenta, (255, 0, 255)),
    ("bright-cyan", Color::LightCyan, (0, 255, 255)),
    ("bright-white", Color::White, (255, 255, 255)),
];

const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];

fn distance((r1, g1, b1): (u8, u8, u8), (r2, g2, b2): (u8, u8, u8)) -> u32 {
    let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2) as u32;
    d(r1, r2) + d(g1, g2) + d(b1, b2)
}

/// The RGB value of a 256-palette index (xterm's defaults).
fn index_rgb(i: u8) -> (u8, u8, u8) {
    match i {
        0..=15 => ANSI16[i as usize].2,
        16..=231 => {
            let n = i - 16;
            (
                CUBE[(n / 36) as usize],
                CUBE[(n / 6 % 6) as usize],
                CUBE[(n % 6) as usize],
            )
        }
        _ => {
            let v = 8 + (i - 232) * 10;
            (v, v, v)
        }
    }
}

/// The closest index among the colour cube and the grey ramp (16–255; the first 16 differ from
/// terminal to terminal, so they are never picked for an RGB value).
fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    let level = |v: u8| {
        (0..6)
            .min_by_key(|&k| (i32::from(CUBE[k]) - i32::from(v)).abs())
            .unwrap_or(0) as u8
    };
    let cube = 16 + 36 * level(r) + 6 * level(g) + level(b);
    let mean = ((u16::from(r) + u16::from(g) + u16::from(b)) / 3) as u8;
    let grey = 232 + ((i32::from(mean) - 8).clamp(0, 230) as u8 + 5) / 10;
    let target = (r, g, b);
    if distance(index_rgb(grey), target) < distance(index_rgb(cube), target) {
        grey
    } else {
        cube
    }
}

/// The ANSI colour of the same hue: greys by lightness, other colours by hue sector, bright when
/// light. (The nearest by distance would turn most soft colours grey.)
fn nearest_16(r: u8, g: u8, b: u8) -> Color {
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let chroma = f32::from(max - min);
    let value = f32::from(max) / 255.0;
    if max == 0 || chroma / f32::from(max) < 0.2 {
        return match max {
            0..=63 => Color::Black,
            64..=159 => Color::DarkGray,
            160..=223 => Color::Gray,
            _ => Color::White,
        };
    }
    let (r, g, b) = (f32::from(r), f32::from(g), f32::from(b));
    let hue = if max as f32 == r {
        60.0 * ((g - b) / chroma).rem_euclid(6.0)
    } else if max as f32 == g {
        60.0 * ((b - r) / chroma + 2.0)
    } else {
        60.0 * ((r - g) / chroma + 4.0)
    };
    let bright = value > 0.85;
    let pick = |normal, light| if bright { light } else { normal };
    match hue {
        h if !(30.0..330.0).contains(&h) => pick(Color::Red, Color::LightRed),
        h if h < 90.0 => pick(Color::Yellow, Color::LightYellow),
        h if h < 150.0 => pick(Color::Green, Color::LightGreen),
        h if h < 210.0 => pick(Color::Cyan, Color::LightCyan),
        h if h < 270.0 => pick(Color::Blue, Color::LightBlue),
        _ => pick(Color::Magenta, Color::LightMagenta),
    }
}

/// Why a colour value was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadColor(pub String);

/// What `[theme.colors]` values may be, for messages.
pub const COLOR_VALUE_HELP: &str = "use \"#rrggbb\", a 256-colour index 0-255, an ANSI colour name such as \"cyan\" or \"bright-blue\", or \"\" for the terminal default";

/// A colour written as text: `"#rrggbb"`, an index `"0"`–`"255"`, an ANSI name (`"cyan"`,
/// `"bright-blue"`; `_`, spaces or nothing also separate `bright`), or `""`/`"default"` for the
/// terminal's own colour.
pub fn parse_color(text: &str) -> Result<Color, BadColor> {
    let t = text.trim().to_ascii_lowercase();
    if t.is_empty() || t == "default" {
        return Ok(Color::Reset);
    }
    if let Some(hex) = t.strip_prefix('#') {
        if hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            let v = u32::from_str_radix(hex, 16).map_err(|e| BadColor(e.to_string()))?;
            return Ok(Color::Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8));
        }
        return Err(BadColor(format!("{text:?} is not a #rrggbb colour")));
    }
    if t.bytes().all(|b| b.is_ascii_digit()) {
        return t
            .parse::<u8>()
            .map(Color::Indexed)
            .map_err(|_| BadColor(format!("{text} is not a colour index 0-255")));
    }
    let name: String = t.replace(['_', ' '], "-");
    let name = match name.strip_prefix("bright") {
        Some(rest) if !rest.starts_with('-') => format!("bright-{rest}"),
        _ => name,
    };
    ANSI16
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, c, _)| *c)
        .ok_or_else(|| BadColor(format!("{text:?} is not a colour")))
}

/// A colour given as a 256-colour index.
pub fn indexed_color(index: i64) -> Result<Color, BadColor> {
    u8::try_from(index)
        .map(Color::Indexed)
        .map_err(|_| BadColor(format!("{index} is not a colour index 0-255")))
}

/// How many of [`Token::ALL`] are the Markdown and diff tokens (the last ones).
pub const MARKDOWN_TOKENS: usize = 13;

/// The colours every component draws with, already reduced to the terminal's colour depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// The `accent` token's colour.
    pub accent: Color,
    /// The `border` token's colour.
    pub border: Color,
    /// The `borderAccent` token's colour.
    pub border_accent: Color,
    /// The `borderMuted` token's colour.
    pub border_muted: Color,
    /// The `success` token's colour.
    pub success: Color,
    /// The `warning` token's colour.
    pub warning: Color,
    /// The `error` token's colour.
    pub error: Color,
    /// The `muted` token's colour.
    pub muted: Color,
    /// The `dim` token's colour.
    pub dim: Color,
    /// The `text` token's colour.
    pub text: Color,
    /// The `selectedBg` token's colour (a background).
    pub selected_bg: Color,
    /// The Markdown and diff tokens (`mdHeading` … `toolDiffContext`), in [`Token::ALL`]'s order.
    pub markdown: [Color; MARKDOWN_TOKENS],
    /// Markdown in prompts, descriptions, notes and previews is rendered (`theme.markdown` in the
    /// config; off, every text is drawn as written).
    pub render_markdown: bool,
    /// No colours at all: the cursor row is bold, chosen options underlined, and focus
    /// (active tab, editors, popup selection) in reverse video.
    pub monochrome: bool,
    /// The selection is reverse video instead of `selected_bg` (no colour, or 16 colours, where
    /// no background keeps every text colour readable).
    pub reverse_selection: bool,
}

impl Default for Theme {
    /// pi's built-in dark theme in 24-bit colour.
    fn default() -> Self {
        Theme::new(ThemeName::Dark, &[], ColorDepth::TrueColor)
    }
}

impl Theme {
    /// A built-in theme with user colours laid over it, as the terminal can show it.
    pub fn new(name: ThemeName, overrides: &[(Token, Color)], depth: ColorDepth) -> Theme {
        let color = |token: Token| {
            let base = match depth {
                ColorDepth::Ansi16 => name.sixteen(token),
                _ => name.truecolor(token),
            };
            let chosen = overrides
                .iter()
                .rev()
                .find(|(t, _)| *t == token)
                .map_or(base, |(_, c)| *c);
            depth.reduce(chosen)
        };
        let selected_bg_given = overrides.iter().any(|(t, _)| *t == Token::SelectedBg);
        Theme {
            accent: color(Token::Accent),
            border: color(Token::Border),
            border_accent: color(Token::BorderAccent),
            border_muted: color(Token::BorderMuted),
            success: color(Token::Success),
            warning: color(Token::Warning),
            error: color(Token::Error),
            muted: color(Token::Muted),
            dim: color(Token::Dim),
            text: color(Token::Text),
            selected_bg: color(Token::SelectedBg),
            markdown: std::array::from_fn(|i| {
                color(Token::ALL[Token::ALL.len() - MARKDOWN_TOKENS + i])
            }),
            render_markdown: true,
            monochrome: depth == ColorDepth::None,
            reverse_selection: depth == ColorDepth::None
                || (depth == ColorDepth::Ansi16 && !selected_bg_given),
        }
    }

    /// The colour of a token.
    pub fn color(&self, token: Token) -> Color {
        match token {
            Token::Accent => self.accent,
            Token::Border => self.border,
            Token::BorderAccent => self.border_accent,
            Token::BorderMuted => self.border_muted,
            Token::Success => self.success,
            Token::Error => self.error,
            Token::Warning => self.warning,
            Token::Muted => self.muted,
            Token::Dim => self.dim,
            Token::Text => self.text,
            Token::SelectedBg => self.selected_bg,
            markdown => {
                let first = Token::ALL.len() - MARKDOWN_TOKENS;
                let at = Token::ALL
                    .iter()
                    .position(|t| *t == markdown)
                    .unwrap_or(first);
                self.markdown[at - first]
            }
        }
    }

    /// A Markdown or diff token's style over `base`: its colour, or without colours the
    /// modifier that carries its meaning (headings bold, code and links underlined).
    pub fn md(&self, token: Token, base: Style) -> Style {
        let monochrome = match token {
            Token::MdHeading => Modifier::BOLD,
            Token::MdLink | Token::MdCode => Modifier::UNDERLINED,
            Token::MdLinkUrl | Token::MdQuote | Token::ToolDiffContext => Modifier::DIM,
            _ => Modifier::empty(),
        };
        base.patch(self.fg(self.color(token), monochrome))
    }

    /// A token's foreground; without colours, the modifier that carries its meaning instead.
    fn fg(&self, color: Color, monochrome: Modifier) -> Style {
        if self.monochrome {
            Style::default().add_modifier(monochrome)
        } else {
            Style::default().fg(color)
        }
    }

    /// Text in the `accent` colour.
    pub fn accent(&self) -> Style {
        self.fg(self.accent, Modifier::BOLD)
    }

    /// Text in the `success` colour.
    pub fn success(&self) -> Style {
        self.fg(self.success, Modifier::UNDERLINED)
    }

    /// Text in the `warning` colour.
    pub fn warning(&self) -> Style {
        self.fg(self.warning, Modifier::BOLD)
    }

    /// Text in the `error` colour.
    pub fn error(&self) -> Style {
        self.fg(self.error, Modifier::BOLD)
    }

    /// Text in the `muted` colour.
    pub fn muted(&self) -> Style {
        self.fg(self.muted, Modifier::empty())
    }

    /// Text in the `dim` colour.
    pub fn dim(&self) -> Style {
        self.fg(self.dim, Modifier::DIM)
    }

    /// Text in the `text` colour.
    pub fn text(&self) -> Style {
        self.fg(self.text, Modifier::empty())
    }

    /// Lines in the `borderMuted` colour.
    pub fn border_muted(&self) -> Style {
        self.fg(self.border_muted, Modifier::empty())
    }

    /// Bold text in the `accent` colour (titles, the highlighted label).
    pub fn bold_accent(&self) -> Style {
        self.accent().add_modifier(Modifier::BOLD)
    }

    /// The characters a filter matched in a label: accent, bold and underlined (the underline
    /// still marks them on the cursor row, which is accent already, and without colours).
    pub fn matched(&self) -> Style {
        self.accent()
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }

    /// The selection: the active tab, an editor's field.
    pub fn selected(&self) -> Style {
        self.on_selected(self.text())
    }

    /// `style` on the selection's background.
    pub fn on_selected(&self, style: Style) -> Style {
        if self.reverse_selection {
            style.add_modifier(Modifier::REVERSED)
        } else {
            style.bg(self.selected_bg)
        }
    }

    /// `style` on a raised panel (the `@` popup): the selection's background in colour; plain
    /// where the selection is reverse video, so the selected row inside stands out.
    pub fn panel(&self, style: Style) -> Style {
        if self.reverse_selection {
            style
        } else {
            style.bg(self.selected_bg)
        }
    }

    /// The editor's caret cell: reverse video, or underlined where the field itself is reversed.
    pub fn caret(&self) -> Style {
        if self.reverse_selection {
            Style::default()
                .add_modifier(Modifier::UNDERLINED)
                .remove_modifier(Modifier::REVERSED)
        } else {
            Style::default().add_modifier(Modifier::REVERSED)
        }
    }
}

/// Whether a colour is the terminal's own (no colour set).
pub fn is_default(color: Color) -> bool {
    color == Color::Reset
}

/// The SGR parameters that set `color` as the foreground (or, with `background`, the background):
/// `38;2;r;g;b`, `38;5;n`, or a named colour's `3x`/`9x`; `None` for the terminal's own colour.
/// For hosts that take styled text rather than a terminal (the embed protocol's frames).
pub fn sgr_colour(color: Color, background: bool) -> Option<String> {
    let base = if background { 40 } else { 30 };
    let named = |n: u8| Some((base + n).to_string());
    let bright = |n: u8| Some((base + 60 + n).to_string());
    match color {
        Color::Reset => None,
        Color::Black => named(0),
        Color::Red => named(1),
        Color::Green => named(2),
        Color::Yellow => named(3),
        Color::Blue => named(4),
        Color::Magenta => named(5),
        Color::Cyan => named(6),
        Color::Gray => named(7),
        Color::DarkGray => bright(0),
        Color::LightRed => bright(1),
        Color::LightGreen => bright(2),
        Color::LightYellow => bright(3),
        Color::LightBlue => bright(4),
        Color::LightMagenta => bright(5),
        Color::LightCyan => bright(6),
        Color::White => bright(7),
        Color::Indexed(i) => Some(format!("{};5;{i}", base + 8)),
        Color::Rgb(r, g, b) => Some(format!("{};2;{r};{g};{b}", base + 8)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_values_parse_in_every_documented_form() {
        assert_eq!(parse_color("#5F87ff"), Ok(Color::Rgb(0x5f, 0x87, 0xff)));
        assert_eq!(parse_color("33"), Ok(Color::Indexed(33)));
        assert_eq!(parse_color(""), Ok(Color::Reset));
        assert_eq!(parse_color("default"), Ok(Color::Reset));
        assert_eq!(parse_color("cyan"), Ok(Color::Cyan));
        assert_eq!(parse_color("white"), Ok(Color::Gray));
        for spelling in ["bright-blue", "bright_blue", "BrightBlue", "bright blue"] {
            assert_eq!(parse_color(spelling), Ok(Color::LightBlue), "{spelling}");
        }
        for bad in [
            "#12345",
            "#gggggg",
            "256",
            "teal",
            "brightest-red",
            "rgb(1,2,3)",
        ] {
            assert!(parse_color(bad).is_err(), "{bad}");
        }
        assert_eq!(indexed_color(255), Ok(Color::Indexed(255)));
        assert!(indexed_color(-1).is_err() && indexed_color(256).is_err());
    }

    #[test]
    fn the_256_palette_reduction_picks_the_closest_cube_or_grey_entry() {
        // pi's dark accent #8abeb7 is #87afaf in the cube; its selection grey is on the ramp.
        assert_eq!(nearest_256(0x8a, 0xbe, 0xb7), 109);
        assert_eq!(nearest_256(0x3a, 0x3a, 0x4a), 238);
        assert_eq!(nearest_256(0xff, 0xff, 0x00), 226);
        assert_eq!(nearest_256(0, 0, 0), 16);
        assert_eq!(nearest_256(255, 255, 255), 231);
        // Every index maps back to itself, from its own RGB value.
        for i in 16..=255u8 {
            let (r, g, b) = index_rgb(i);
            assert_eq!(index_rgb(nearest_256(r, g, b)), (r, g, b), "index {i}");
        }
    }

    #[test]
    fn the_16_colour_reduction_keeps_the_hue() {
        assert_eq!(nearest_16(0x8a, 0xbe, 0xb7), Color::Cyan);
        assert_eq!(nearest_16(0xcc, 0x66, 0x66), Color::Red);
        assert_eq!(nearest_16(0x58, 0x84, 0x58), Color::Green);
        assert_eq!(nearest_16(0x5f, 0x87, 0xff), Color::LightBlue);
        assert_eq!(nearest_16(0x80, 0x80, 0x80), Color::DarkGray);
        assert_eq!(nearest_16(0xff, 0xff, 0xff), Color::White);
        assert_eq!(
            ColorDepth::Ansi16.reduce(Color::Indexed(9)),
            Color::LightRed
        );
        assert_eq!(
            ColorDepth::Ansi16.reduce(Color::Indexed(196)),
            Color::LightRed
        );
    }

    #[test]
    fn overrides_apply_at_the_terminals_depth_and_no_colour_means_modifiers() {
        let blue = Color::Rgb(0x5f, 0x87, 0xff);
        let t = Theme::new(
            ThemeName::Light,
            &[(Token::Accent, blue)],
            ColorDepth::Ansi256,
        );
        assert_eq!(t.accent, Color::Indexed(69));
        assert_eq!(
            t.selected_bg,
            ColorDepth::Ansi256.reduce(Color::Rgb(0xd0, 0xd0, 0xe0))
        );
        assert_eq!(
            t.selected(),
            Style::default().fg(Color::Reset).bg(t.selected_bg)
        );

        let mono = Theme::new(ThemeName::Dark, &[(Token::Accent, blue)], ColorDepth::None);
        for token in Token::ALL {
            assert_eq!(mono.color(token), Color::Reset, "{}", token.name());
        }
        assert!(mono.selected().add_modifier.contains(Modifier::REVERSED));
        assert!(mono.accent().add_modifier.contains(Modifier::BOLD));
        assert!(mono.success().add_modifier.contains(Modifier::UNDERLINED));
        assert_eq!(mono.accent().fg, None);

        let sixteen = Theme::new(ThemeName::Dark, &[], ColorDepth::Ansi16);
        assert_eq!(sixteen.accent, Color::Cyan);
        assert!(sixteen.reverse_selection);
        let chosen_bg = Theme::new(
            ThemeName::Dark,
            &[(Token::SelectedBg, Color::Blue)],
            ColorDepth::Ansi16,
        );
        assert!(!chosen_bg.reverse_selection);
        assert_eq!(chosen_bg.selected().bg, Some(Color::Blue));
    }

    #[test]
    fn token_names_are_pis() {
        let names: Vec<&str> = Token::ALL.iter().map(|t| t.name()).collect();
        assert_eq!(
            names,
            [
                "accent",
                "border",
                "borderAccent",
                "borderMuted",
                "success",
                "error",
                "warning",
                "muted",
                "dim",
                "text",
                "selectedBg",
                "mdHeading",
                "mdLink",
                "mdLinkUrl",
                "mdCode",
                "mdCodeBlock",
                "mdCodeBlockBorder",
                "mdQuote",
                "mdQuoteBorder",
                "mdHr",
                "mdListBullet",
                "toolDiffAdded",
                "toolDiffRemoved",
                "toolDiffContext"
            ]
        );
        for t in Token::ALL {
            assert_eq!(Token::from_name(t.name()), Some(t));
        }
    }
}
