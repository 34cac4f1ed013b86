//! The known name closest to one that is not known, when it is close enough to be a typo
//! (`behavior` → `behaviour`, `lable` → `label`): config keys and payload fields are named back
//! with it instead of being ignored in silence.

/// The known name closest to `name` (case aside), when at most a quarter of it (at least one
/// character) differs.
pub fn nearest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_ascii_lowercase();
    known
        .map(|k| {
            (
                strsim::damerau_levenshtein(&lower, &k.to_ascii_lowercase()),
                k,
            )
        })
        .filter(|(d, k)| *d <= (k.len() / 4).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}
