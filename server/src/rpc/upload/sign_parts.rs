//! `upload.signParts {key, uploadId, partNumbers}` → `{parts: [{partNumber, url, headers,
//! expiresAt}]}`: URLs valid for 15 minutes to PUT each part, exactly its length (S3 signs
//! `content-length`; the local store checks it and the type). A part number past the
//! declared size is refused with the core's size message: no URL, nothing stored.

use std::collections::BTreeMap;

use chrono::Utc;
use core_wasm::limits::UPLOAD_TOO_LARGE_MESSAGE;

use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::upload::{declared_size, own_upload, part_size};
use crate::rpc::uploads::Headers;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::storage::multipart::part_length;

rpc_type! {
    pub struct SignPartsInput {
        pub key: String,
        pub upload_id: String,
        pub part_numbers: Vec<u32>,
    }
}

rpc_type! {
    /// PUT part `partNumber` to `url` with exactly `headers`, before `expiresAt`.
    pub struct SignedPartUrl {
        pub part_number: u32,
        pub url: String,
        pub headers: Headers,
        pub expires_at: JsDate,
    }
}

rpc_type! {
    pub struct SignedParts {
        pub parts: Vec<SignedPartUrl>,
    }
}

pub async fn handler(ctx: &Ctx, input: SignPartsInput) -> RpcResult<SignedParts> {
    let (upload, file) = own_upload(ctx, &input.key, &input.upload_id).await?;
    let size = declared_size(&file);
    let mut parts = Vec::new();
    let mut numbers = input.part_numbers.clone();
    numbers.sort_unstable();
    numbers.dedup();
    for number in numbers {
        let Some(length) = part_length(size, part_size(&upload), number) else {
            return Err(RpcError::bad_request(UPLOAD_TOO_LARGE_MESSAGE));
        };
        let signed = ctx.state.storage.sign_part(
            &file.key,
            &upload.store_upload_id,
            &file.content_type,
            number,
            length,
            Utc::now(),
        );
        parts.push(SignedPartUrl {
            part_number: number,
            url: signed.url,
            headers: Headers(BTreeMap::from_iter(signed.headers)),
            expires_at: JsDate(signed.expires_at),
        });
    }
    Ok(SignedParts { parts })
}
