//! `commentBank.exportCsv`: one part of the bank (the caller's own, or the school's) as a
//! CSV file with the columns `text`, `sentiment`, `tags` — the columns the import reads,
//! so an exported file imports again as it was. Most used first.

use core_wasm::comment_bank::MAX_BANK_COMMENTS;

use crate::models::comment_bank::{self, Order};
use crate::rpc::comment_bank::{Caller, ShelfName};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};

rpc_type! {
    pub struct ExportBankInput {
        pub shelf: ShelfName,
    }
}

rpc_type! {
    pub struct ExportedBank {
        pub filename: String,
        pub csv: String,
        pub rows: i64,
    }
}

/// A cell that a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) gets a
/// leading `'`; the import drops it again.
pub fn guard_formula(cell: &str) -> String {
    if cell.starts_with(['=', '+', '-', '@']) {
        format!("'{cell}")
    } else {
        cell.to_owned()
    }
}

pub async fn handler(ctx: &Ctx, input: ExportBankInput) -> RpcResult<ExportedBank> {
    let caller = Caller::of(ctx)?;
    if input.shelf == ShelfName::Proposed {
        caller.require_curator()?;
    }
    let mut pooled = ctx.conn().await?;
    let (rows, _) = comment_bank::list(
        &mut pooled.db(),
        caller.owner(),
        input.shelf.into(),
        None,
        Order::Use,
        MAX_BANK_COMMENTS as i64,
    )
    .await?;
    let mut writer = csv::Writer::from_writer(Vec::new());
    let write = |writer: &mut csv::Writer<Vec<u8>>, record: [&str; 3]| {
        writer
            .write_record(record)
            .map_err(|e| RpcError::internal(format!("csv: {e}")))
    };
    write(&mut writer, ["text", "sentiment", "tags"])?;
    for row in &rows {
        write(
            &mut writer,
            [
                &guard_formula(&row.text),
                row.sentiment.as_str(),
                &guard_formula(&row.tags),
            ],
        )?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| RpcError::internal(format!("csv: {e}")))?;
    let csv = String::from_utf8(bytes).map_err(|e| RpcError::internal(format!("csv: {e}")))?;
    let filename = match input.shelf {
        ShelfName::Mine => "comment-bank.csv",
        ShelfName::School => "school-comment-bank.csv",
        ShelfName::Proposed => "proposed-comments.csv",
    };
    Ok(ExportedBank {
        filename: filename.to_owned(),
        csv,
        rows: rows.len() as i64,
    })
}
