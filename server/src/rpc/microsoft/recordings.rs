//! `microsoft.recordings` → the recordings of Teams meetings the caller organised in the
//! last 30 days, newest first, each with whether Teams made a transcript of it (the
//! transcript with the same `contentCorrelationId`), for the content step's picker.

use chrono::{Duration, SecondsFormat, Utc};

use super::{graph_failure, staff, token_for};
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// How far back the picker looks.
pub const RECORDINGS_DAYS: i64 = 30;

rpc_type! {
    pub struct MeetingRecording {
        pub recording_id: String,
        pub meeting_id: String,
        /// The organiser's Graph user id (the caller's).
        pub organiser_id: String,
        /// ISO 8601.
        pub created_at: Option<String>,
        pub ended_at: Option<String>,
        /// Teams' own transcript of the meeting, when there is one.
        pub transcript_id: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<MeetingRecording>> {
    let user = staff(ctx)?;
    let (graph, token) = token_for(ctx, &user.id).await?;
    let me = graph.me(&token).await.map_err(graph_failure)?;
    let to = Utc::now();
    let from = to - Duration::days(RECORDINGS_DAYS);
    let (from, to) = (
        from.to_rfc3339_opts(SecondsFormat::Secs, true),
        to.to_rfc3339_opts(SecondsFormat::Secs, true),
    );
    let recordings = graph
        .recordings(&token, &me, &from, &to)
        .await
        .map_err(graph_failure)?;
    let transcripts = graph
        .transcripts(&token, &me, &from, &to)
        .await
        .map_err(graph_failure)?;
    let mut answer: Vec<MeetingRecording> = recordings
        .into_iter()
        .map(|r| {
            let transcript_id = transcripts
                .iter()
                .find(|t| {
                    t.meeting_id == r.meeting_id
                        && t.content_correlation_id.is_some()
                        && t.content_correlation_id == r.content_correlation_id
                })
                .map(|t| t.id.clone());
            MeetingRecording {
                recording_id: r.id,
                meeting_id: r.meeting_id,
                organiser_id: me.clone(),
                created_at: r.created_date_time,
                ended_at: r.end_date_time,
                transcript_id,
            }
        })
        .collect();
    answer.sort_by(|a, b| b.created_at.cmp(&a.created_at));
    Ok(answer)
}
