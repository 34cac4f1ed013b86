//! The frame plan: which of rule, title, tabs, body and footer fit a height, and the body's share.

/// Body lines a question gets before the footer and title are added back on a short terminal.
pub(super) const COMFORT_LIST_LINES: u16 = 9;

/// Review lines (the actions and the first answers) before the footer and title are added back.
pub(super) const COMFORT_REVIEW_LINES: u16 = 12;

/// How tall the body of the current tab wants to be: the least that still shows its point (a
/// prompt line and the cursor row, or the review actions), a comfortable height, and everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BodyHeights {
    pub(super) min: u16,
    pub(super) comfort: u16,
    pub(super) natural: u16,
}

/// The footer's heights (its rule included): with every hint, and with the essential ones only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FooterHeights {
    pub(super) full: u16,
    pub(super) essential: u16,
}

/// Which footer the frame shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum FooterShown {
    /// None fits.
    #[default]
    None,
    /// The notice and the essential hints (moving, choosing, cancelling, settings).
    Essential,
    /// The notice and every hint.
    Full,
}

/// Which parts of the frame fit a height, and the body's share.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Plan {
    pub(super) rule: bool,
    pub(super) title: bool,
    pub(super) title_gap: bool,
    pub(super) tabs: bool,
    pub(super) tabs_gap: bool,
    pub(super) footer: FooterShown,
    pub(super) body: u16,
}

/// Fits the frame into `height` rows, or `None` when not even the body's minimum fits. On a short
/// terminal the title goes first, then the footer, then the blank lines; the body keeps at least
/// its minimum. The content comes before the hints: the footer shows its essential hints, and
/// every hint only once the body has its natural height (or two thirds of the screen, for a
/// body taller than the screen).
pub(super) fn plan(
    height: u16,
    title: bool,
    footer: FooterHeights,
    body: BodyHeights,
) -> Option<Plan> {
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
    let essential = footer.essential.min(footer.full);
    if take(&mut left, essential) {
        p.footer = FooterShown::Essential;
    }
    p.title = title && take(&mut left, 1);
    p.title_gap = p.title && take(&mut left, 1);
    // The body up to what it wants, then the rest of the hints if they still fit.
    let wanted = body.natural.min(height - height / 3);
    let more = wanted.saturating_sub(p.body).min(left);
    p.body += more;
    left -= more;
    if p.footer == FooterShown::Essential && take(&mut left, footer.full - essential) {
        p.footer = FooterShown::Full;
    }
    // The rest goes to the body: up to its natural height, and beyond it on a taller screen
    // (full-screen mode) so the footer stays at the bottom.
    p.body += left;
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: BodyHeights = BodyHeights {
        min: 3,
        comfort: 9,
        natural: 30,
    };

    #[test]
    fn the_content_gets_its_rows_before_the_rest_of_the_hints() {
        let footer = FooterHeights {
            full: 5,
            essential: 3,
        };
        // 60x20: the essential hints, the body the rest.
        let p = plan(20, true, footer, BODY).unwrap();
        assert_eq!(p.footer, FooterShown::Essential);
        assert_eq!(p.body, 20 - 3 - 3 - 2);
        // A tall screen: every hint, the body still two thirds of it.
        let p = plan(50, true, footer, BODY).unwrap();
        assert_eq!(p.footer, FooterShown::Full);
        assert!(p.body >= 33, "{p:?}");
        // A short body: every hint on a small screen too.
        let short = BodyHeights { natural: 6, ..BODY };
        let p = plan(20, true, footer, short).unwrap();
        assert_eq!(p.footer, FooterShown::Full);
        // Not even the essential hints: none.
        let p = plan(7, false, footer, BODY).unwrap();
        assert_eq!(p.footer, FooterShown::None);
    }
}
