//! Pupils from a CSV file (the template's columns, any order, header on line 1) into
//! [`SourceRow`]s for [`validate_pupils`](super::validate_pupils), and the RFC 4180 reader
//! under it.

use std::collections::{HashMap, HashSet};

use super::{validate_pupils, Problem, PupilField, PupilRecord, SourceRow, MAX_ROWS};

/// The largest file accepted.
pub const MAX_BYTES: usize = 1024 * 1024;
/// The columns a file may have, in the order the template lists them.
pub const COLUMNS: [(&str, PupilField); 7] = [
    ("forename", PupilField::Forename),
    ("surname", PupilField::Surname),
    ("email", PupilField::Email),
    ("parentEmail", PupilField::ParentEmail),
    ("upn", PupilField::Upn),
    ("yearGroup", PupilField::YearGroup),
    ("formGroup", PupilField::FormGroup),
];

/// Refuses a file over [`MAX_BYTES`] before anything else is read.
pub fn check_size(text: &str) -> Result<(), String> {
    if text.len() > MAX_BYTES {
        return Err("The file is larger than 1 MB. Split it into smaller files.".into());
    }
    Ok(())
}

/// The clean pupils of a CSV file's `text`, or every problem found (by line: the header is
/// line 1). Nothing is written: see [`write_pupils`](super::write_pupils).
pub fn check_file(
    text: &str,
    existing_upns: &HashSet<String>,
) -> Result<Vec<PupilRecord>, Vec<String>> {
    check_size(text).map_err(|e| vec![e])?;
    let records = parse_csv(text).map_err(|e| vec![e])?;
    let Some(((_, header), rows)) = records.split_first() else {
        return Err(vec!["The file is empty.".into()]);
    };
    let mut problems = Vec::new();
    let mut index: HashMap<PupilField, usize> = HashMap::new();
    let names = COLUMNS.map(|(name, _)| name).join(",");
    for (i, name) in header.iter().enumerate() {
        let name = name.trim();
        match COLUMNS.iter().find(|(c, _)| c.eq_ignore_ascii_case(name)) {
            Some((column, field)) => {
                if index.insert(*field, i).is_some() {
                    problems.push(format!("Line 1: the column \"{column}\" appears twice."));
                }
            }
            None => problems.push(format!(
                "Line 1: unknown column \"{name}\". The columns are {names}."
            )),
        }
    }
    for (required, field) in [
        ("forename", PupilField::Forename),
        ("surname", PupilField::Surname),
    ] {
        if !index.contains_key(&field) {
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
    let mut shape_problems = Vec::new();
    let mut source = Vec::with_capacity(rows.len());
    for (line, values) in rows {
        if values.len() != header.len() {
            shape_problems.push(Problem::new(
                *line,
                format!("expected {} values, found {}.", header.len(), values.len()),
            ));
            continue;
        }
        source.push(SourceRow {
            line: *line,
            values: index
                .iter()
                .map(|(field, &i)| (*field, values[i].clone()))
                .collect(),
        });
    }
    match validate_pupils(&source, existing_upns) {
        Ok(clean) if shape_problems.is_empty() => Ok(clean),
        outcome => {
            let mut problems = shape_problems;
            problems.extend(outcome.err().unwrap_or_default());
            // In file order; a stable sort keeps one line's problems in the order found.
            problems.sort_by_key(|p| p.line);
            Err(problems.iter().map(ToString::to_string).collect())
        }
    }
}

/// The records of a CSV text (RFC 4180: commas, double-quoted fields with `""` for a quote,
/// CRLF or LF line ends), each with the line number it starts on (1 = the first line).
/// Empty lines are skipped. Errors name the line of an unterminated quote.
pub fn parse_csv(text: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut line = 1;
    let mut start_line = 1;
    let mut field = String::new();
    let mut record: Vec<String> = Vec::new();
    let mut in_quotes = false;
    let mut chars = text.chars().peekable();
    let mut record_has_content = false;
    while let Some(c) = chars.next() {
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => in_quotes = false,
                '\n' => {
                    line += 1;
                    field.push('\n');
                }
                other => field.push(other),
            }
            continue;
        }
        match c {
            '"' => {
                in_quotes = true;
                record_has_content = true;
            }
            ',' => {
                record.push(std::mem::take(&mut field));
                record_has_content = true;
            }
            '\r' => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                if record_has_content || record.iter().any(|f| !f.trim().is_empty()) {
                    records.push((start_line, std::mem::take(&mut record)));
                } else {
                    record.clear();
                }
                record_has_content = false;
                line += 1;
                start_line = line;
            }
            other => {
                field.push(other);
                record_has_content = true;
            }
        }
    }
    if in_quotes {
        return Err(format!("Line {start_line}: a quoted value is not closed."));
    }
    if record_has_content || !field.is_empty() {
        record.push(field);
        if record.iter().any(|f| !f.trim().is_empty()) || record.len() > 1 {
            records.push((start_line, record));
        }
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_records_know_their_line() {
        let text = "a,b\n\n\"x, y\",\"say \"\"hi\"\"\"\r\n\"multi\nline\",z\nlast,1";
        let records = parse_csv(text).expect("parses");
        assert_eq!(
            records,
            vec![
                (1, vec!["a".to_owned(), "b".to_owned()]),
                (3, vec!["x, y".to_owned(), "say \"hi\"".to_owned()]),
                (4, vec!["multi\nline".to_owned(), "z".to_owned()]),
                (6, vec!["last".to_owned(), "1".to_owned()]),
            ]
        );
        assert_eq!(
            parse_csv("a\n\"open").expect_err("unclosed"),
            "Line 2: a quoted value is not closed."
        );
    }

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
