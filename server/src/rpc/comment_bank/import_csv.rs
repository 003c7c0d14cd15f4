//! `commentBank.importCsv`: comments from a CSV file into the caller's personal bank, all
//! or nothing. Columns `text`, `sentiment`, `tags` (header on line 1, any order, only
//! `text` required; a blank sentiment is Neutral; tags separated by `;`). The whole file is
//! checked first and every bad row reported as "Line N: <problem>"; a clean file is written
//! in one transaction. Comments already in the bank (or repeated in the file) are skipped.
//! At most 1 MB and 2,000 rows.

use std::collections::HashSet;

use core_wasm::comment_bank::{MAX_IMPORT_BYTES, MAX_IMPORT_ROWS};

use crate::ids::new_id;
use crate::models::comment_bank::{self, BankComment, ACTIVE};
use crate::models::now;
use crate::rpc::comment_bank::{check_comment, check_room, group_thousands, Caller};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};
use crate::transaction;

/// Problems listed before the rest are summed up in one line.
const MAX_REPORTED: usize = 50;

rpc_type! {
    pub struct ImportBankInput {
        /// The file's text (UTF-8).
        pub csv: String,
    }
}

rpc_type! {
    pub struct ImportedBank {
        pub imported: i64,
        /// Rows left out because the bank (or an earlier row) already has the comment.
        pub skipped: i64,
    }
}

/// A checked row of the file.
struct Row {
    text: String,
    normalised: String,
    sentiment: core_wasm::FeedbackSentiment,
    tags: String,
}

fn file_error(message: impl Into<String>) -> RpcError {
    RpcError::field("csv", message)
}

/// A cell as written by the export: a leading `'` that guards a formula character is
/// dropped (see `export_csv::guard_formula`).
fn unguard(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@']) => rest,
        _ => cell,
    }
}

/// The clean rows of the file, or every problem found (by line; the header is line 1).
fn check_file(text: &str) -> Result<Vec<Row>, Vec<String>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(text.as_bytes());
    let header = match reader.headers() {
        Ok(header) => header.clone(),
        Err(err) => return Err(vec![format!("The file could not be read as CSV: {err}.")]),
    };
    if header.iter().all(|h| h.trim().is_empty()) {
        return Err(vec!["The file is empty.".into()]);
    }
    let mut problems = Vec::new();
    let (mut text_at, mut sentiment_at, mut tags_at) = (None, None, None);
    for (i, name) in header.iter().enumerate() {
        let slot = match name.trim().to_ascii_lowercase().as_str() {
            "text" => &mut text_at,
            "sentiment" => &mut sentiment_at,
            "tags" => &mut tags_at,
            other => {
                problems.push(format!(
                    "Line 1: unknown column \"{other}\". The columns are text,sentiment,tags."
                ));
                continue;
            }
        };
        if slot.replace(i).is_some() {
            problems.push(format!(
                "Line 1: the column \"{}\" appears twice.",
                name.trim()
            ));
        }
    }
    let Some(text_at) = text_at else {
        problems.push("Line 1: the column \"text\" is missing.".into());
        return Err(problems);
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut rows = Vec::new();
    let mut count = 0usize;
    for record in reader.records() {
        let record = match record {
            Ok(record) => record,
            Err(err) => {
                let line = err.position().map_or(0, |p| p.line());
                problems.push(format!("Line {line}: this row could not be read ({err})."));
                continue;
            }
        };
        let line = record.position().map_or(0, |p| p.line());
        if record.iter().all(|cell| cell.trim().is_empty()) {
            continue;
        }
        count += 1;
        if count > MAX_IMPORT_ROWS {
            continue;
        }
        if record.len() > header.len() {
            problems.push(format!(
                "Line {line}: {} values, but the header has {} columns.",
                record.len(),
                header.len()
            ));
            continue;
        }
        let cell = |at: Option<usize>| at.and_then(|i| record.get(i)).map(unguard).unwrap_or("");
        let sentiment = cell(sentiment_at).trim().to_ascii_uppercase();
        let sentiment = if sentiment.is_empty() {
            "NEUTRAL".to_owned()
        } else {
            sentiment
        };
        let tags: Vec<String> = vec![cell(tags_at).to_owned()];
        let mut errors = FieldErrors::default();
        match check_comment(&mut errors, cell(Some(text_at)), &sentiment, &tags) {
            Some(checked) => rows.push(Row {
                text: checked.text,
                normalised: checked.normalised,
                sentiment: checked.sentiment,
                tags: checked.tags,
            }),
            None => {
                for (field, messages) in &errors.field_errors {
                    for message in messages {
                        let message = match field.as_str() {
                            "text" if message == "Write the comment." => {
                                "the text is empty.".to_owned()
                            }
                            "sentiment" => format!(
                                "the sentiment \"{}\" is not NEUTRAL, POSITIVE or NEGATIVE.",
                                cell(sentiment_at).trim()
                            ),
                            "tags" => format!("the tags: {message}"),
                            _ => format!("the text: {message}"),
                        };
                        problems.push(format!("Line {line}: {message}"));
                    }
                }
            }
        }
    }
    if count > MAX_IMPORT_ROWS {
        return Err(vec![format!(
            "The file has {} comments; at most {} can be imported at once. Split it into smaller files.",
            group_thousands(count),
            group_thousands(MAX_IMPORT_ROWS)
        )]);
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    if rows.is_empty() {
        return Err(vec![
            "The file has no comments after its header line.".into()
        ]);
    }
    Ok(rows)
}

pub async fn handler(ctx: &Ctx, input: ImportBankInput) -> RpcResult<ImportedBank> {
    let caller = Caller::of(ctx)?;
    if input.csv.len() > MAX_IMPORT_BYTES {
        return Err(file_error(
            "The file is larger than 1 MB. Split it into smaller files.",
        ));
    }
    let rows = match check_file(&input.csv) {
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
    let at = now();
    let mut pooled = ctx.conn().await?;
    transaction!(&mut pooled.db(), |c| {
        let mut seen: HashSet<String> =
            comment_bank::normalised_texts(c, &caller.school_id, Some(&caller.user_id)).await?;
        let total = rows.len();
        let new_rows: Vec<BankComment> = rows
            .iter()
            .filter(|row| seen.insert(row.normalised.clone()))
            .map(|row| BankComment {
                id: new_id(),
                school_id: caller.school_id.clone(),
                user_id: Some(caller.user_id.clone()),
                proposed_by: None,
                text: row.text.clone(),
                normalised: row.normalised.clone(),
                sentiment: row.sentiment,
                tags: row.tags.clone(),
                status: ACTIVE.to_owned(),
                use_count: 0,
                last_used_at: None,
                created_at: at,
                updated_at: at,
            })
            .collect();
        let held = comment_bank::count_owned(c, &caller.school_id, Some(&caller.user_id)).await?;
        check_room(held, new_rows.len()).map_err(|e| file_error(e.message))?;
        let imported = new_rows.len();
        comment_bank::insert(c, new_rows).await?;
        Ok(ImportedBank {
            imported: imported as i64,
            skipped: (total - imported) as i64,
        })
    })
}
