//! The wall clock, where what is shown or sent carries a date (remote events, the ages in the
//! inbox's list). A leaf: the model never reads it (timers reach `update` as messages).

/// Unix milliseconds now (0 on a clock set before 1970).
pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
