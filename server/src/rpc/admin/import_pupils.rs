//! `admin.importPupils`: adds the pupils of a CSV file to the caller's school, all or
//! nothing. The whole file is checked first and every bad row is reported as
//! "Line N: <problem>" (line 1 is the header); only a clean file is written, in one
//! transaction. Year and form groups named in the file are created when missing.

use std::collections::{HashMap, HashSet};

use super::require_admin;
use crate::models::now;
use crate::models::school_admin::{self, ImportRow};
use crate::models::users::normalise_email;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};
use crate::transaction;

/// The largest file accepted.
pub const MAX_BYTES: usize = 1024 * 1024;
/// The most pupils one file may add.
pub const MAX_ROWS: usize = 5_000;
/// Problems listed before the rest are summed up in one line.
const MAX_REPORTED: usize = 200;
/// The columns a file may have, in the order the template lists them.
pub const COLUMNS: [&str; 7] = [
    "forename",
    "surname",
    "email",
    "parentEmail",
    "upn",
    "yearGroup",
    "formGroup",
];

rpc_type! {
    pub struct ImportPupils {
        /// The file's text (UTF-8).
        pub csv: String,
    }
}

rpc_type! {
    pub struct ImportResult {
        pub imported: i64,
    }
}

fn file_error(message: impl Into<String>) -> RpcError {
    RpcError::field("csv", message)
}

/// The clean rows of `text`, or every problem found (by line).
pub fn check_file(
    text: &str,
    existing_upns: &HashSet<String>,
) -> Result<Vec<ImportRow>, Vec<String>> {
    if text.len() > MAX_BYTES {
        return Err(vec![
            "The file is larger than 1 MB. Split it into smaller files.".into(),
        ]);
    }
    let records = school_admin::parse_csv(text).map_err(|e| vec![e])?;
    let Some(((_, header), rows)) = records.split_first() else {
        return Err(vec!["The file is empty.".into()]);
    };
    let mut problems = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, name) in header.iter().enumerate() {
        let name = name.trim();
        match COLUMNS.iter().find(|c| c.eq_ignore_ascii_case(name)) {
            Some(column) => {
                if index.insert(column, i).is_some() {
                    problems.push(format!("Line 1: the column \"{column}\" appears twice."));
                }
            }
            None => problems.push(format!(
                "Line 1: unknown column \"{name}\". The columns are {}.",
                COLUMNS.join(",")
            )),
        }
    }
    for required in ["forename", "surname"] {
        if !index.contains_key(required) {
            problems.push(format!("Line 1: the column \"{required}\" is missing."));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    if rows.is_empty() {
        return Err(vec!["The file has no pupils after its header line.".into()]);
    }
    if rows.len() > MAX_ROWS {
        return Err(vec![format!(
            "The file has {} pupils; at most 5,000 can be imported at once. Split it into smaller files.",
            rows.len()
        )]);
    }
    let mut upn_lines: HashMap<String, usize> = HashMap::new();
    let mut clean = Vec::with_capacity(rows.len());
    for (line, values) in rows {
        let line = *line;
        if values.len() != header.len() {
            problems.push(format!(
                "Line {line}: expected {} values, found {}.",
                header.len(),
                values.len()
            ));
            continue;
        }
        let get = |column: &str| -> Option<String> {
            index
                .get(column)
                .map(|&i| values[i].trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let forename = get("forename");
        let surname = get("surname");
        let mut bad = false;
        for (value, what) in [(&forename, "forename"), (&surname, "surname")] {
            match value {
                None => {
                    problems.push(format!("Line {line}: the {what} is missing."));
                    bad = true;
                }
                Some(v) if v.chars().count() > 100 => {
                    problems.push(format!(
                        "Line {line}: the {what} is longer than 100 characters."
                    ));
                    bad = true;
                }
                Some(_) => {}
            }
        }
        let email = get("email").map(|e| normalise_email(&e));
        if let Some(e) = email
            .as_deref()
            .filter(|e| !core_wasm::email::is_valid_email(e))
        {
            problems.push(format!(
                "Line {line}: \"{e}\" is not a valid e-mail address."
            ));
            bad = true;
        }
        let parent_email = get("parentEmail").map(|e| normalise_email(&e));
        if let Some(e) = parent_email
            .as_deref()
            .filter(|e| !core_wasm::email::is_valid_email(e))
        {
            problems.push(format!(
                "Line {line}: \"{e}\" is not a valid parent e-mail address."
            ));
            bad = true;
        }
        let upn = get("upn");
        if let Some(upn) = &upn {
            if let Some(first) = upn_lines.get(upn) {
                problems.push(format!(
                    "Line {line}: the UPN {upn} is also on line {first}."
                ));
                bad = true;
            } else {
                upn_lines.insert(upn.clone(), line);
                if existing_upns.contains(upn) {
                    problems.push(format!(
                        "Line {line}: a pupil with the UPN {upn} already exists."
                    ));
                    bad = true;
                }
            }
        }
        let year_group = get("yearGroup");
        let form_group = get("formGroup");
        for (value, what) in [(&year_group, "year group"), (&form_group, "form group")] {
            if value.as_ref().is_some_and(|v| v.chars().count() > 100) {
                problems.push(format!(
                    "Line {line}: the {what} is longer than 100 characters."
                ));
                bad = true;
            }
        }
        if !bad {
            clean.push(ImportRow {
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

pub async fn handler(ctx: &Ctx, input: ImportPupils) -> RpcResult<ImportResult> {
    let school_id = require_admin(ctx)?;
    if input.csv.len() > MAX_BYTES {
        return Err(file_error(
            "The file is larger than 1 MB. Split it into smaller files.",
        ));
    }
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let csv = input.csv;
    transaction!(&mut conn, |c| {
        // Checked inside the transaction so that the UPNs cannot change under the check.
        let existing: HashSet<String> = school_admin::school_upns(c, school_id)
            .await?
            .into_iter()
            .collect();
        let rows = match check_file(&csv, &existing) {
            Ok(rows) => rows,
            Err(problems) => {
                let mut errors = FieldErrors::default();
                let total = problems.len();
                for problem in problems.into_iter().take(MAX_REPORTED) {
                    errors.add("csv", problem);
                }
                if total > MAX_REPORTED {
                    errors.add(
                        "csv",
                        format!("…and {} more problems.", total - MAX_REPORTED),
                    );
                }
                errors.into_result()?;
                return Err(file_error("The file could not be read."));
            }
        };
        let imported = school_admin::import_pupils(c, school_id, &rows, now()).await?;
        Ok(ImportResult {
            imported: imported as i64,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bad_row_is_reported_by_line() {
        let text = "forename,surname,email,parentEmail,upn,yearGroup,formGroup\n\
                    Ada,Lovelace,ada@school.test,,U1,Year 7,7A\n\
                    ,Babbage,not-an-email,,U1,Year 7,7A\n\
                    Grace,Hopper,,,U2,,\n\
                    Alan,Turing,,,U3\n";
        let existing: HashSet<String> = ["U2".to_owned()].into();
        let problems = check_file(text, &existing).expect_err("bad rows");
        assert_eq!(
            problems,
            vec![
                "Line 3: the forename is missing.",
                "Line 3: \"not-an-email\" is not a valid e-mail address.",
                "Line 3: the UPN U1 is also on line 2.",
                "Line 4: a pupil with the UPN U2 already exists.",
                "Line 5: expected 7 values, found 5.",
            ]
        );
        let clean = check_file("surname,forename\nHopper,Grace\n", &HashSet::new()).expect("clean");
        assert_eq!(clean[0].forename, "Grace");
        assert_eq!(
            check_file("name\nx\n", &HashSet::new()).expect_err("header")[0],
            "Line 1: unknown column \"name\". The columns are forename,surname,email,parentEmail,upn,yearGroup,formGroup."
        );
    }
}
