//! `school.listStudents`: every pupil of the caller's school with year and form group. The
//! answer is encoded once per school and sent from memory until a pupil or group changes
//! (`models::roster::ROSTERS`, docs/performance.md): requests that miss it together share
//! one read, a browser that has it gets 304, and it is gzip-compressed once.

use crate::models::roster;
use crate::rpc::registry::NoInput;
use crate::rpc::encoded::Cached;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    /// A year or form group, by name.
    pub struct GroupName {
        /// Shared by the group's pupils: one string per group, not per pupil.
        pub name: std::sync::Arc<str>,
    }
}

rpc_type! {
    pub struct StudentSummary {
        pub id: String,
        pub forename: String,
        pub surname: String,
        pub year_group: Option<GroupName>,
        pub form_group: Option<GroupName>,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Cached<Vec<StudentSummary>>> {
    let school_id = ctx.school_id()?;
    let shared = roster::ROSTERS
        .get_or_fill(school_id, || async { read(ctx, school_id).await.map(|roster| roster.shared()) })
        .await?;
    Ok(Cached::from_shared(shared))
}

/// The roster from the database, encoded.
async fn read(ctx: &Ctx, school_id: &str) -> RpcResult<Cached<Vec<StudentSummary>>> {
    let mut pooled = ctx.conn().await?;
    let rows = roster::list_for_school(&mut pooled.db(), school_id).await?;
    drop(pooled);
    // Not kept while the roster's cache is off (`VOICEMARK_READ_CACHES`).
    Ok(Cached::from_superjson(superjson_text(&rows), roster::ROSTERS.keeps()))
}

/// The roster as superjson text: what `superjson::encode` writes for the same pupils as
/// `Vec<StudentSummary>` (the test below holds them equal), written straight from the rows.
/// Issue 15: serde wrote each of the 10,000 object keys through its escaping loop and grew
/// the buffer a dozen times; here the keys are fixed text, a name is copied whole when it
/// needs no escaping, and the buffer is sized once.
fn superjson_text(roster: &roster::Roster) -> String {
    const FIXED: usize = r#"{"id":"","forename":"","surname":"","yearGroup":{"name":""},"formGroup":{"name":""}},"#.len();
    let group_len = |group: Option<&str>| group.map_or(0, str::len);
    let size = FIXED * roster.len()
        + roster.text_len()
        + roster.iter().map(|row| group_len(row.year_group) + group_len(row.form_group)).sum::<usize>();
    let mut out = Vec::with_capacity(size + 16);
    out.extend_from_slice(b"{\"json\":[");
    for (i, row) in roster.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"id\":");
        json_string(&mut out, row.id);
        out.extend_from_slice(b",\"forename\":");
        json_string(&mut out, row.forename);
        out.extend_from_slice(b",\"surname\":");
        json_string(&mut out, row.surname);
        out.extend_from_slice(b",\"yearGroup\":");
        group(&mut out, row.year_group);
        out.extend_from_slice(b",\"formGroup\":");
        group(&mut out, row.form_group);
        out.push(b'}');
    }
    out.extend_from_slice(b"]}");
    // Only whole UTF-8 texts and ASCII were written.
    String::from_utf8(out).unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
}

fn group(out: &mut Vec<u8>, name: Option<&str>) {
    match name {
        Some(name) => {
            out.extend_from_slice(b"{\"name\":");
            json_string(out, name);
            out.push(b'}');
        }
        None => out.extend_from_slice(b"null"),
    }
}

/// `text` as a JSON string, escaped as serde_json escapes it (quote, backslash and control
/// characters); copied whole when none is there, which is nearly always.
fn json_string(out: &mut Vec<u8>, text: &str) {
    let plain = !text.bytes().fold(false, |escape, b| escape | (b < 0x20) | (b == b'"') | (b == b'\\'));
    if plain {
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    } else {
        // Writing into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_roster_text_is_what_serde_writes() {
        let names = ["Ada", "", "Zoë \"Zed\" O'Neil", "back\\slash", "tab\there\u{1}\u{1f}", "ünïcode ✓", "\u{7f}\u{2028}"];
        let rows: Vec<roster::PupilRow> = names
            .iter()
            .enumerate()
            .map(|(i, forename)| {
                (
                    format!("0195f3b2-7c1e-7a43-9d2b-5f6e8a9b0c{i:02}"),
                    forename.to_string(),
                    names[names.len() - 1 - i].to_string(),
                    (i % 2 == 0).then(|| "y".to_string()),
                    (i % 3 != 1).then(|| "f".to_string()),
                )
            })
            .collect();
        let groups = |name: &str| vec![(name.chars().next().unwrap().to_lowercase().to_string(), name.to_string())];
        let roster = roster::Roster::from_rows(rows, groups("Year 7 \"A\""), groups("F7A"));
        let summaries: Vec<StudentSummary> = roster
            .iter()
            .map(|row| StudentSummary {
                id: row.id.to_string(),
                forename: row.forename.to_string(),
                surname: row.surname.to_string(),
                year_group: row.year_group.map(|name| GroupName { name: name.into() }),
                form_group: row.form_group.map(|name| GroupName { name: name.into() }),
            })
            .collect();
        assert!(summaries.iter().any(|s| s.year_group.is_some()) && summaries.iter().any(|s| s.form_group.is_none()));
        let expected = crate::rpc::superjson::encode(&summaries).expect("encodes");
        assert_eq!(superjson_text(&roster), expected);
        let empty = roster::Roster::default();
        assert_eq!(superjson_text(&empty), crate::rpc::superjson::encode(&Vec::<StudentSummary>::new()).expect("encodes"));
    }
}
