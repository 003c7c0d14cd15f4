//! Staff from a CSV file (Manage Users' bulk invite): columns `forename`, `surname`,
//! `email` and an optional `role`, in any order, header on line 1, read with the roster's
//! RFC 4180 reader. Checks the file's shape and each row's fields; the caller decides the
//! roles it may give and whether the addresses are free.

use std::collections::{HashMap, HashSet};

use core_wasm::limits::{text_error, MAX_PERSON_NAME_CHARS};

use super::csv::{check_size, parse_csv};
use crate::addresses::normalise_email;

/// The most people one file may invite.
pub const MAX_STAFF_ROWS: usize = 500;
/// The columns a file may have.
pub const STAFF_COLUMNS: [&str; 4] = ["forename", "surname", "email", "role"];

/// One clean row of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffRow {
    /// Its line in the file (the header is line 1).
    pub line: usize,
    pub forename: String,
    pub surname: String,
    /// Normalised.
    pub email: String,
    /// As written (empty when the column is absent or blank).
    pub role: String,
}

/// The rows of a staff CSV file, or every problem found as "Line N: ...".
pub fn read_staff(text: &str) -> Result<Vec<StaffRow>, Vec<String>> {
    check_size(text).map_err(|e| vec![e])?;
    let records = parse_csv(text).map_err(|e| vec![e])?;
    let Some(((_, header), rows)) = records.split_first() else {
        return Err(vec!["The file is empty.".into()]);
    };
    let mut problems = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, name) in header.iter().enumerate() {
        let name = name.trim();
        match STAFF_COLUMNS.iter().find(|c| c.eq_ignore_ascii_case(name)) {
            Some(column) => {
                if index.insert(column, i).is_some() {
                    problems.push(format!("Line 1: the column \"{column}\" appears twice."));
                }
            }
            None => problems.push(format!(
                "Line 1: unknown column \"{name}\". The columns are forename,surname,email,role (role optional)."
            )),
        }
    }
    for required in ["forename", "surname", "email"] {
        if !index.contains_key(required) {
            problems.push(format!("Line 1: the column \"{required}\" is missing."));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    if rows.is_empty() {
        return Err(vec!["The file has no people after its header line.".into()]);
    }
    if rows.len() > MAX_STAFF_ROWS {
        return Err(vec![format!(
            "The file has {} people; at most {MAX_STAFF_ROWS} can be invited at once. Split it into smaller files.",
            rows.len()
        )]);
    }
    let mut seen: HashSet<String> = HashSet::new();
    let mut clean = Vec::with_capacity(rows.len());
    for (line, values) in rows {
        if values.len() != header.len() {
            problems.push(format!(
                "Line {line}: expected {} values, found {}.",
                header.len(),
                values.len()
            ));
            continue;
        }
        let get = |column: &str| {
            index
                .get(column)
                .map(|&i| values[i].trim().to_owned())
                .unwrap_or_default()
        };
        let (forename, surname, email, role) =
            (get("forename"), get("surname"), get("email"), get("role"));
        let before = problems.len();
        for (label, value) in [("forename", &forename), ("surname", &surname)] {
            if value.is_empty() {
                problems.push(format!("Line {line}: the {label} is missing."));
            } else if let Some(message) = text_error(value, MAX_PERSON_NAME_CHARS) {
                problems.push(format!("Line {line}: {label}: {message}"));
            }
        }
        let email = normalise_email(&email);
        if let Some(message) = core_wasm::email::email_error(&email) {
            problems.push(format!("Line {line}: {message}"));
        } else if !seen.insert(email.clone()) {
            problems.push(format!(
                "Line {line}: {email} appears more than once in the file."
            ));
        }
        if problems.len() == before {
            clean.push(StaffRow {
                line: *line,
                forename,
                surname,
                email,
                role,
            });
        }
    }
    if problems.is_empty() {
        Ok(clean)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_columns_in_any_order_with_an_optional_role() {
        let rows = read_staff("email,surname,forename\nA@x.org,Lovelace,Ada\n").unwrap();
        assert_eq!(rows[0].email, "a@x.org");
        assert_eq!(rows[0].role, "");
        assert_eq!(rows[0].line, 2);
    }

    #[test]
    fn lists_every_bad_line() {
        let problems =
            read_staff("forename,surname,email,role\n,Lovelace,a@x.org,\nAda,L,nope,\nB,C,a@x.org,ADMIN\n")
                .unwrap_err();
        assert_eq!(
            problems,
            vec![
                "Line 2: the forename is missing.".to_owned(),
                format!("Line 3: {}", core_wasm::email::email_error("nope").unwrap()),
                "Line 4: a@x.org appears more than once in the file.".to_owned(),
            ]
        );
    }
}
