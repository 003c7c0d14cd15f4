//! Date display: dd/MM/yyyy, optionally with ', HH:mm' (spec section 9).

use chrono::{Datelike, NaiveDateTime, Timelike};

/// Formats a date as `dd/MM/yyyy`.
pub fn format_date(at: NaiveDateTime) -> String {
    format!("{:02}/{:02}/{:04}", at.day(), at.month(), at.year())
}

/// Formats a date and time as `dd/MM/yyyy, HH:mm`.
pub fn format_date_time(at: NaiveDateTime) -> String {
    format!("{}, {:02}:{:02}", format_date(at), at.hour(), at.minute())
}

/// Formats a Unix time in milliseconds (what JavaScript's `Date` holds), already shifted
/// to the viewer's local time by the caller. `None` when it is out of range.
pub fn format_millis(millis: i64, with_time: bool) -> Option<String> {
    let at = chrono::DateTime::from_timestamp_millis(millis)?.naive_utc();
    Some(if with_time {
        format_date_time(at)
    } else {
        format_date(at)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn pads_day_month_hour_and_minute() {
        let at = NaiveDate::from_ymd_opt(2026, 3, 7).and_then(|d| d.and_hms_opt(9, 5, 0));
        let at = at.expect("valid date");
        assert_eq!(format_date(at), "07/03/2026");
        assert_eq!(format_date_time(at), "07/03/2026, 09:05");
    }

    #[test]
    fn millis_round_trip() {
        // 2026-11-21T23:55:00Z
        assert_eq!(
            format_millis(1_795_305_300_000, true).as_deref(),
            Some("21/11/2026, 23:55")
        );
        assert_eq!(format_millis(i64::MAX, false), None);
    }
}
