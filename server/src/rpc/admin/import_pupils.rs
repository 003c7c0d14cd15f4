//! `admin.importPupils`: adds the pupils of a CSV file to the caller's school, all or
//! nothing. The whole file is checked first and every bad row is reported as
//! "Line N: <problem>" (line 1 is the header); only a clean file is written, in one
//! transaction. Year and form groups named in the file are created when missing.

use std::collections::HashSet;

use super::require_admin;
use crate::models::{now, students};
use crate::roster::csv::{check_file, check_size};
use crate::roster::write_pupils;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};
use crate::transaction;

/// Problems listed before the rest are summed up in one line.
const MAX_REPORTED: usize = 200;

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

pub async fn handler(ctx: &Ctx, input: ImportPupils) -> RpcResult<ImportResult> {
    let school_id = require_admin(ctx)?;
    check_size(&input.csv).map_err(file_error)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let csv = input.csv;
    transaction!(&mut conn, |c| {
        // Checked inside the transaction so that the UPNs cannot change under the check.
        let existing: HashSet<String> = students::school_upns(c, school_id)
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
        let imported = write_pupils(c, school_id, &rows, now()).await?;
        Ok(ImportResult {
            imported: imported as i64,
        })
    })
}
