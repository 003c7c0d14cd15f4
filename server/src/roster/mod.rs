//! Roster import: pupils arrive as rows from some source (a CSV file today, the MIS sync
//! next), are checked here into clean [`PupilRecord`]s or line-numbered problems, and
//! are written to one school by [`write_pupils`]. The source only turns its format into
//! [`SourceRow`]s (`csv.rs` for files); the rules for a valid pupil live once, here.

pub mod csv;
pub mod staff;

use std::collections::{HashMap, HashSet};

use chrono::NaiveDateTime;
use diesel::result::QueryResult;

use crate::addresses::normalise_email;
use crate::db::DbConn;
use crate::ids::new_id;
use crate::models::{groups, students};

/// The most pupils one import may add.
pub const MAX_ROWS: usize = 5_000;
/// The longest name of a pupil accepted, in characters (the core's rule, as `admin.savePupil`).
const MAX_NAME_CHARS: usize = core_wasm::limits::MAX_PERSON_NAME_CHARS;
/// The longest year or form group name accepted, in characters.
const MAX_GROUP_NAME_CHARS: usize = core_wasm::limits::MAX_GROUP_NAME_CHARS;

/// The fields of a pupil a roster source can give, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PupilField {
    Forename,
    Surname,
    Email,
    ParentEmail,
    Upn,
    YearGroup,
    FormGroup,
}

/// One pupil as a source gives it: where it came from (a line number: 1 is a CSV file's
/// header, so pupils start at 2) and its raw values, untrimmed, absent when not given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceRow {
    pub line: usize,
    pub values: HashMap<PupilField, String>,
}

impl SourceRow {
    /// The trimmed value of `field`, if not blank.
    fn get(&self, field: PupilField) -> Option<String> {
        self.values
            .get(&field)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    }
}

/// One clean pupil, ready to write: names trimmed, addresses normalised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PupilRecord {
    pub forename: String,
    pub surname: String,
    pub email: Option<String>,
    pub parent_email: Option<String>,
    pub upn: Option<String>,
    pub year_group: Option<String>,
    pub form_group: Option<String>,
}

/// A problem with one row of an import, shown as "Line N: <problem>".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub text: String,
}

impl Problem {
    pub fn new(line: usize, text: impl Into<String>) -> Problem {
        Problem {
            line,
            text: text.into(),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Line {}: {}", self.line, self.text)
    }
}

/// The clean records of `rows`, or every problem found, in the rows' order.
/// A UPN may appear once in the rows and must not be one of `existing_upns`.
pub fn validate_pupils(
    rows: &[SourceRow],
    existing_upns: &HashSet<String>,
) -> Result<Vec<PupilRecord>, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut upn_lines: HashMap<String, usize> = HashMap::new();
    let mut clean = Vec::with_capacity(rows.len());
    for row in rows {
        let line = row.line;
        let forename = row.get(PupilField::Forename);
        let surname = row.get(PupilField::Surname);
        let mut bad = false;
        for (value, what) in [(&forename, "forename"), (&surname, "surname")] {
            match value {
                None => {
                    problems.push(Problem::new(line, format!("the {what} is missing.")));
                    bad = true;
                }
                Some(v) if v.chars().count() > MAX_NAME_CHARS => {
                    problems.push(Problem::new(
                        line,
                        format!("the {what} is longer than {MAX_NAME_CHARS} characters."),
                    ));
                    bad = true;
                }
                Some(_) => {}
            }
        }
        let email = row.get(PupilField::Email).map(|e| normalise_email(&e));
        if let Some(e) = email
            .as_deref()
            .filter(|e| !core_wasm::email::is_valid_email(e))
        {
            problems.push(Problem::new(
                line,
                format!("\"{e}\" is not a valid e-mail address."),
            ));
            bad = true;
        }
        let parent_email = row
            .get(PupilField::ParentEmail)
            .map(|e| normalise_email(&e));
        if let Some(e) = parent_email
            .as_deref()
            .filter(|e| !core_wasm::email::is_valid_email(e))
        {
            problems.push(Problem::new(
                line,
                format!("\"{e}\" is not a valid parent e-mail address."),
            ));
            bad = true;
        }
        let upn = row.get(PupilField::Upn);
        let max_upn = core_wasm::limits::MAX_UPN_CHARS;
        if let Some(upn) = upn.as_ref().filter(|u| u.chars().count() > max_upn) {
            let shown: String = upn.chars().take(max_upn).collect();
            problems.push(Problem::new(
                line,
                format!("the UPN {shown}… is longer than {max_upn} characters."),
            ));
            bad = true;
        } else if let Some(upn) = &upn {
            if let Some(first) = upn_lines.get(upn) {
                problems.push(Problem::new(
                    line,
                    format!("the UPN {upn} is also on line {first}."),
                ));
                bad = true;
            } else {
                upn_lines.insert(upn.clone(), line);
                if existing_upns.contains(upn) {
                    problems.push(Problem::new(
                        line,
                        format!("a pupil with the UPN {upn} already exists."),
                    ));
                    bad = true;
                }
            }
        }
        let year_group = row.get(PupilField::YearGroup);
        let form_group = row.get(PupilField::FormGroup);
        for (value, what) in [(&year_group, "year group"), (&form_group, "form group")] {
            if value
                .as_ref()
                .is_some_and(|v| v.chars().count() > MAX_GROUP_NAME_CHARS)
            {
                problems.push(Problem::new(
                    line,
                    format!("the {what} is longer than {MAX_GROUP_NAME_CHARS} characters."),
                ));
                bad = true;
            }
        }
        if !bad {
            clean.push(PupilRecord {
                forename: forename.unwrap_or_default(),
                surname: surname.unwrap_or_default(),
                email,
                parent_email,
                upn,
                year_group,
                form_group,
            });
        }
    }
    if problems.is_empty() {
        Ok(clean)
    } else {
        Err(problems)
    }
}

/// Writes every record to the school (creating year and form groups that do not exist
/// yet, matched by name without case); run it inside one transaction so that a failure
/// imports nothing. Returns how many pupils were added.
pub async fn write_pupils(
    conn: &mut DbConn<'_>,
    school_id: &str,
    records: &[PupilRecord],
    at: NaiveDateTime,
) -> QueryResult<usize> {
    let mut year_ids: HashMap<String, String> = HashMap::new();
    let mut form_ids: HashMap<String, String> = HashMap::new();
    for record in records {
        let year_group_id = match &record.year_group {
            Some(name) => {
                let key = name.to_lowercase();
                if let Some(id) = year_ids.get(&key) {
                    Some(id.clone())
                } else {
                    let id = groups::year_group_id(conn, school_id, name).await?;
                    year_ids.insert(key, id.clone());
                    Some(id)
                }
            }
            None => None,
        };
        let form_group_id = match &record.form_group {
            Some(name) => {
                let key = name.to_lowercase();
                if let Some(id) = form_ids.get(&key) {
                    Some(id.clone())
                } else {
                    let id = match groups::form_group_named(conn, school_id, name).await? {
                        Some(id) => id,
                        None => groups::save_form_group(conn, school_id, None, name)
                            .await?
                            .unwrap_or_default(),
                    };
                    form_ids.insert(key, id.clone());
                    Some(id)
                }
            }
            None => None,
        };
        students::insert(
            conn,
            &students::NewStudent {
                id: new_id(),
                created_at: at,
                updated_at: at,
                forename: record.forename.clone(),
                surname: record.surname.clone(),
                email: record.email.clone(),
                parent_email: record.parent_email.clone(),
                upn: record.upn.clone(),
                school_id: school_id.to_owned(),
                year_group_id,
                form_group_id,
            },
        )
        .await?;
    }
    Ok(records.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(line: usize, values: &[(PupilField, &str)]) -> SourceRow {
        SourceRow {
            line,
            values: values.iter().map(|(f, v)| (*f, (*v).to_owned())).collect(),
        }
    }

    #[test]
    fn records_are_checked_whatever_their_source() {
        use PupilField::*;
        let rows = [
            row(
                7,
                &[
                    (Forename, " Ada "),
                    (Surname, "Lovelace"),
                    (Email, " ADA@School.test"),
                ],
            ),
            row(8, &[(Surname, "Babbage"), (Upn, "U1")]),
            row(9, &[(Forename, "Grace"), (Surname, "Hopper"), (Upn, "U1")]),
        ];
        let problems = validate_pupils(&rows, &HashSet::new()).expect_err("bad rows");
        let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            vec![
                "Line 8: the forename is missing.",
                "Line 9: the UPN U1 is also on line 8.",
            ]
        );
        let clean = validate_pupils(&rows[..1], &HashSet::new()).expect("clean");
        assert_eq!(clean[0].forename, "Ada");
        assert_eq!(clean[0].email.as_deref(), Some("ada@school.test"));
    }
}
