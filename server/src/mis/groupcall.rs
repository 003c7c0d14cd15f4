//! Groupcall Xporter as a MIS source: reads one school through `providers::xporter`
//! (OneRoster v1.1) into the same [`Snapshot`] Wonde fills, so the one apply step writes
//! both (docs/mis-sync.md, "Groupcall Xporter").
//!
//! | snapshot | OneRoster |
//! |---|---|
//! | forms | `/classes` with `classType` `homeroom` |
//! | classes | `/classes` with `classType` `scheduled` |
//! | a pupil's form and classes, a class's teachers | `/enrollments` (`role` student / teacher) |
//! | pupils | `/users` with `role` student; `grades[0]` the year, the UPN from `userIds` (type UPN), `metadata.upn` or a UPN-shaped `identifier` |
//! | parent e-mail | the first of the pupil's `agents` who is a parent or guardian with an e-mail |
//! | staff | `/users` with `role` teacher or administrator |
//! | gone | `status: tobedeleted` |
//!
//! A delta asks `/users` for `filter=dateLastModified>'…'` (the start of the last good run);
//! classes and enrollments are read whole (each is small, and a pupil's form and classes
//! must be complete to be replaced). Pupils whose enrollments changed, and the children of
//! parents who changed, are fetched one by one (`/users/{id}`), as are parents a changed
//! pupil names but the delta did not bring.

use std::collections::{HashMap, HashSet};

use chrono::NaiveDateTime;

use super::{GroupRef, MisClass, MisPupil, MisStaff, Progress, Snapshot, Source, SyncKind};
use crate::providers::xporter::{
    self, to_be_deleted, Class, Enrollment, User, XporterClient, XporterError,
};

/// Reads the school whose Xporter id is `client_id` with its `secret`: everything (`since`
/// None) or what changed since `since`.
pub async fn read_school(
    client: &XporterClient,
    client_id: &str,
    secret: &str,
    since: Option<NaiveDateTime>,
    progress: &mut (impl Progress + Send),
) -> Result<Snapshot, XporterError> {
    let token = client.token(client_id, secret).await?.access_token;
    let kind = if since.is_some() {
        SyncKind::Delta
    } else {
        SyncKind::Full
    };
    let mut snapshot = Snapshot::new(Source::Groupcall, kind);

    progress
        .report("Reading form groups and classes".into())
        .await;
    let mut homerooms: HashSet<String> = HashSet::new();
    let mut class_index: HashMap<String, usize> = HashMap::new();
    let mut pages = client.pages::<Class>(&token, "classes", None)?;
    while let Some(page) = pages.next_page().await? {
        for class in page {
            if to_be_deleted(&class.status) {
                continue;
            }
            let name = class
                .title
                .as_deref()
                .or(class.class_code.as_deref())
                .unwrap_or_default()
                .trim()
                .to_owned();
            match class
                .class_type
                .as_deref()
                .map(str::to_ascii_lowercase)
                .as_deref()
            {
                Some("homeroom") => {
                    homerooms.insert(class.sourced_id.clone());
                    snapshot.forms.push(GroupRef {
                        source_id: class.sourced_id,
                        name,
                    });
                }
                _ => {
                    class_index.insert(class.sourced_id.clone(), snapshot.classes.len());
                    snapshot.classes.push(MisClass {
                        source_id: class.sourced_id,
                        name,
                        staff: Some(Vec::new()),
                    });
                }
            }
        }
    }

    progress.report("Reading enrollments".into()).await;
    let mut form_of: HashMap<String, String> = HashMap::new();
    let mut classes_of: HashMap<String, Vec<String>> = HashMap::new();
    let mut enrollment_changed: HashSet<String> = HashSet::new();
    let mut pages = client.pages::<Enrollment>(&token, "enrollments", None)?;
    while let Some(page) = pages.next_page().await? {
        for enrollment in page {
            if since.is_some_and(|since| modified_after(&enrollment.date_last_modified, since)) {
                enrollment_changed.insert(enrollment.user.sourced_id.clone());
            }
            if to_be_deleted(&enrollment.status) {
                continue;
            }
            let role = enrollment
                .role
                .as_deref()
                .unwrap_or("student")
                .to_ascii_lowercase();
            let (user, class) = (enrollment.user.sourced_id, enrollment.class.sourced_id);
            if role == "student" {
                if homerooms.contains(&class) {
                    form_of.entry(user).or_insert(class);
                } else if class_index.contains_key(&class) {
                    classes_of.entry(user).or_default().push(class);
                }
            } else if role == "teacher" || role == "administrator" {
                if let Some(&i) = class_index.get(&class) {
                    if let Some(staff) = snapshot.classes[i].staff.as_mut() {
                        staff.push(user);
                    }
                }
            }
        }
    }

    progress
        .report("Reading pupils, parents and staff".into())
        .await;
    let filter = since.map(xporter::modified_since);
    let mut pupils: Vec<User> = Vec::new();
    let mut parents: HashMap<String, Option<String>> = HashMap::new();
    let mut changed_parents: Vec<User> = Vec::new();
    let mut pages = client.pages::<User>(&token, "users", filter.as_deref())?;
    while let Some(page) = pages.next_page().await? {
        for user in page {
            sort_user(
                user,
                &mut pupils,
                &mut parents,
                &mut changed_parents,
                &mut snapshot,
            );
        }
        progress
            .report(format!("Reading pupils: {} so far", pupils.len()))
            .await;
    }

    if since.is_some() {
        // Pupils a delta must re-read although their own record did not change.
        let mut wanted: Vec<String> = enrollment_changed.into_iter().collect();
        for parent in &changed_parents {
            wanted.extend(parent.agents.iter().flatten().map(|a| a.sourced_id.clone()));
        }
        wanted.sort();
        wanted.dedup();
        let have: HashSet<String> = pupils.iter().map(|p| p.sourced_id.clone()).collect();
        for id in wanted.into_iter().filter(|id| !have.contains(id)) {
            if let Some(user) = client.user(&token, &id).await? {
                if role_of(&user) == "student" {
                    sort_user(
                        user,
                        &mut pupils,
                        &mut parents,
                        &mut changed_parents,
                        &mut snapshot,
                    );
                }
            }
        }
        // Parents named by these pupils that the delta did not bring.
        let mut missing: Vec<String> = pupils
            .iter()
            .flat_map(|p| p.agents.iter().flatten())
            .map(|a| a.sourced_id.clone())
            .filter(|id| !parents.contains_key(id))
            .collect();
        missing.sort();
        missing.dedup();
        for id in missing {
            let email = match client.user(&token, &id).await? {
                Some(user) if is_parent(&user) && !to_be_deleted(&user.status) => {
                    clean(&user.email)
                }
                _ => None,
            };
            parents.insert(id, email);
        }
    }

    for user in pupils {
        let form = form_of.get(&user.sourced_id).cloned();
        let classes = classes_of.remove(&user.sourced_id).unwrap_or_default();
        snapshot
            .pupils
            .push(map_pupil(user, &parents, form, classes, &snapshot.forms));
    }
    Ok(snapshot)
}

fn role_of(user: &User) -> String {
    user.role
        .as_deref()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

fn is_parent(user: &User) -> bool {
    matches!(role_of(user).as_str(), "parent" | "guardian")
}

/// Puts one user where it belongs: a pupil, a parent's address, a member of staff, a leaver.
fn sort_user(
    user: User,
    pupils: &mut Vec<User>,
    parents: &mut HashMap<String, Option<String>>,
    changed_parents: &mut Vec<User>,
    snapshot: &mut Snapshot,
) {
    let gone = to_be_deleted(&user.status);
    match role_of(&user).as_str() {
        "student" => {
            if gone {
                snapshot.deleted_pupils.push(user.sourced_id);
            } else {
                pupils.push(user);
            }
        }
        "parent" | "guardian" => {
            let email = if gone { None } else { clean(&user.email) };
            parents.insert(user.sourced_id.clone(), email);
            changed_parents.push(user);
        }
        "teacher" | "administrator" => snapshot.staff.push(map_staff(user)),
        _ => {}
    }
}

/// Whether a OneRoster `dateLastModified` (ISO 8601) is later than `since`.
fn modified_after(value: &Option<String>, since: NaiveDateTime) -> bool {
    let Some(value) = value.as_deref() else {
        return false;
    };
    chrono::DateTime::parse_from_rfc3339(value.trim())
        .map(|d| d.naive_utc() > since)
        .unwrap_or(false)
}

fn clean(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
}

/// The year group's name from OneRoster `grades`: a number is "Year n" (`07` → Year 7),
/// anything else is taken as written (`Reception`).
pub fn year_name(grade: &str) -> Option<String> {
    let grade = grade.trim();
    if grade.is_empty() {
        return None;
    }
    match grade.parse::<u32>() {
        Ok(n) => Some(format!("Year {n}")),
        Err(_) => Some(grade.to_owned()),
    }
}

/// A UK UPN's shape: a letter and 12 characters of digits (the last may be a letter).
fn looks_like_upn(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes.len() == 13
        && bytes[0].is_ascii_alphabetic()
        && bytes[1..12].iter().all(u8::is_ascii_digit)
        && bytes[12].is_ascii_alphanumeric()
}

/// The pupil's UPN, when Xporter says it: a `userIds` entry of type UPN, `metadata.upn`, or
/// an `identifier` shaped like one. `None`: not said (the stored UPN stays).
fn upn_of(user: &User) -> Option<Option<String>> {
    let from_ids = user.user_ids.iter().flatten().find_map(|id| {
        id.kind
            .as_deref()
            .filter(|k| k.trim().eq_ignore_ascii_case("upn"))
            .and(clean(&id.identifier))
    });
    let from_metadata = user.metadata.as_ref().and_then(|m| {
        m.iter()
            .find(|(k, _)| {
                k.eq_ignore_ascii_case("upn") || k.to_ascii_lowercase().ends_with(".upn")
            })
            .and_then(|(_, v)| {
                v.as_str()
                    .map(str::trim)
                    .filter(|v| !v.is_empty())
                    .map(str::to_owned)
            })
    });
    let from_identifier = clean(&user.identifier).filter(|i| looks_like_upn(i));
    from_ids.or(from_metadata).or(from_identifier).map(Some)
}

/// One OneRoster pupil as the snapshot holds it.
pub fn map_pupil(
    user: User,
    parents: &HashMap<String, Option<String>>,
    form: Option<String>,
    classes: Vec<String>,
    forms: &[GroupRef],
) -> MisPupil {
    // The first parent or guardian (in the order Xporter lists the agents) with an
    // address; unknown when an agent before it was not read.
    let parent_email = user.agents.as_ref().map(|agents| {
        for agent in agents {
            match parents.get(&agent.sourced_id) {
                Some(Some(email)) => return Some(Some(email.clone())),
                Some(None) => {}
                None => return None,
            }
        }
        Some(None)
    });
    let parent_email = parent_email.flatten();
    MisPupil {
        forename: clean(&user.given_name).unwrap_or_default(),
        surname: clean(&user.family_name).unwrap_or_default(),
        upn: upn_of(&user),
        email: user.email.as_ref().map(|_| clean(&user.email)),
        parent_email,
        year: user
            .grades
            .as_ref()
            .map(|g| g.iter().find_map(|grade| year_name(grade))),
        form: Some(form.and_then(|id| forms.iter().find(|f| f.source_id == id).cloned())),
        classes: Some(classes),
        source_id: user.sourced_id,
    }
}

/// One OneRoster teacher or administrator; current unless disabled or to be deleted.
pub fn map_staff(user: User) -> MisStaff {
    let enabled = match &user.enabled_user {
        Some(serde_json::Value::Bool(b)) => *b,
        Some(serde_json::Value::String(s)) => !s.trim().eq_ignore_ascii_case("false"),
        _ => true,
    };
    let staff_code = user.metadata.as_ref().and_then(|m| {
        m.iter()
            .find(|(k, _)| k.to_ascii_lowercase().ends_with("staffcode"))
            .and_then(|(_, v)| {
                v.as_str()
                    .map(str::trim)
                    .filter(|v| !v.is_empty())
                    .map(str::to_owned)
            })
    });
    MisStaff {
        forename: clean(&user.given_name).unwrap_or_default(),
        surname: clean(&user.family_name).unwrap_or_default(),
        title: None,
        email: clean(&user.email),
        staff_code,
        current: enabled && !to_be_deleted(&user.status),
        source_id: user.sourced_id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(json: serde_json::Value) -> User {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn the_parent_is_the_first_agent_with_an_address() {
        let mut parents = HashMap::new();
        parents.insert("G1".to_owned(), None);
        parents.insert("G2".to_owned(), Some("dad@x.org".to_owned()));
        parents.insert("G3".to_owned(), Some("mum@x.org".to_owned()));
        let pupil = map_pupil(
            user(
                serde_json::json!({"sourcedId": "S1", "role": "student", "givenName": "Ada",
                "familyName": "Lovelace", "grades": ["07"], "identifier": "A123456789012",
                "agents": [{"sourcedId": "G1", "type": "user"}, {"sourcedId": "G2", "type": "user"},
                           {"sourcedId": "G3", "type": "user"}]}),
            ),
            &parents,
            None,
            vec![],
            &[],
        );
        assert_eq!(pupil.parent_email, Some(Some("dad@x.org".into())));
        assert_eq!(pupil.year, Some(Some("Year 7".into())));
        assert_eq!(pupil.upn, Some(Some("A123456789012".into())));
        assert_eq!(pupil.email, None, "not sent: unknown");
        // An agent not read yet makes the address unknown, never empty.
        let pupil = map_pupil(
            user(
                serde_json::json!({"sourcedId": "S2", "role": "student", "givenName": "B",
                "familyName": "C", "agents": [{"sourcedId": "G9", "type": "user"}]}),
            ),
            &parents,
            None,
            vec![],
            &[],
        );
        assert_eq!(pupil.parent_email, None);
        assert_eq!(pupil.upn, None);
    }
}
