//! The frame plan: which of rule, title, tabs, body and footer fit a height, and the body's share.

/// Body lines a question gets before the footer and title are added back on a short terminal.
pub(super) const COMFORT_LIST_LINES: u16 = 9;

/// How tall the body of the current tab wants to be: the least that still shows its point (a
/// prompt line and the cursor row, or the review actions), a comfortable height, and everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BodyHeights {
    pub(super) min: u16,
    pub(super) comfort: u16,
    pub(super) natural: u16,
}

/// Which parts of the frame fit a height, and the body's share.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Plan {
    pub(super) rule: bool,
    pub(super) title: bool,
    pub(super) title_gap: bool,
    pub(super) tabs: bool,
    pub(super) tabs_gap: bool,
    pub(super) footer: bool,
    pub(super) body: u16,
}

/// Fits the frame into `height` rows, or `None` when not even the body's minimum fits. On a short
/// terminal the title goes first, then the footer, then the blank lines; the body keeps at least
/// its minimum.
pub(super) fn plan(height: u16, title: bool, footer: u16, body: BodyHeights) -> Option<Plan> {
    fn take(left: &mut u16, h: u16) -> bool {
        let fits = h <= *left;
        if fits {
            *left -= h;
        }
        fits
    }
    let mut left = height.checked_sub(body.min)?;
    let mut p = Plan {
        body: body.min,
        ..Plan::default()
    };
    p.tabs = take(&mut left, 1);
    p.rule = take(&mut left, 1);
    let comfort = body.comfort.saturating_sub(body.min);
    p.body += if take(&mut left, comfort) {
        comfort
    } else {
        std::mem::take(&mut left)
    };
    p.tabs_gap = take(&mut left, 1);
    p.footer = take(&mut left, footer);
    p.title = title && take(&mut left, 1);
    p.title_gap = p.title && take(&mut left, 1);
    // The rest goes to the body: up to its natural height, and beyond it on a taller screen
    // (full-screen mode) so the footer stays at the bottom.
    p.body += left;
    Some(p)
}
