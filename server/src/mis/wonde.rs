//! Wonde as a MIS source: reads one school through `providers::wonde` into a
//! [`Snapshot`], page by page (each page mapped and dropped before the next is fetched).
//!
//! | snapshot | Wonde |
//! |---|---|
//! | pupils | `/students?include=year,registration,classes,education_details,contact_details,contacts.contact_details` |
//! | parent e-mail | the pupil's contacts: the highest `priority` with `parental_responsibility` and an e-mail |
//! | forms, years | `/groups` of type `REGISTRATION` / `YEAR` (and each pupil's own) |
//! | classes | `/classes?include=employees` |
//! | staff | `/employees?include=employment_details,contact_details` |
//! | deletions | `/deletions?updated_after=…` (delta) |
//!
//! A delta adds `updated_after` (the start of the last good run) to every list.

use chrono::NaiveDateTime;

use super::{GroupRef, MisClass, MisPupil, MisStaff, Snapshot, Source, SyncKind};
use crate::providers::wonde::{self, WondeClient, WondeError};

pub use super::Progress;

/// Reads the school `wonde_school_id` with `token`: everything (`since` None) or what
/// changed since `since`.
pub async fn read_school(
    client: &WondeClient,
    token: &str,
    wonde_school_id: &str,
    since: Option<NaiveDateTime>,
    progress: &mut (impl Progress + Send),
) -> Result<Snapshot, WondeError> {
    let school = client.school(token, wonde_school_id).await?;
    let base = client.school_base(&school);
    let kind = if since.is_some() {
        SyncKind::Delta
    } else {
        SyncKind::Full
    };
    let after = since.map(wonde::updated_after);
    let with_after = |query: &[(&'static str, &'static str)]| -> Vec<(String, String)> {
        let mut q: Vec<(String, String)> = query
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        if let Some(after) = &after {
            q.push(("updated_after".into(), after.clone()));
        }
        q
    };
    let mut snapshot = Snapshot::new(Source::Wonde, kind);

    // Groups: year and registration (form) groups, whatever else the MIS has is skipped.
    progress.report("Reading year and form groups".into()).await;
    let query = with_after(&[]);
    let mut pages = client.pages::<wonde::Group>(token, &base, &school.id, "groups", &pairs(&query))?;
    while let Some(page) = pages.next_page().await? {
        for group in page {
            let Some(name) = group_name(&group) else { continue };
            match group.kind.as_deref().map(str::to_ascii_uppercase).as_deref() {
                Some("YEAR") => snapshot.years.push(name),
                Some("REGISTRATION") => snapshot.forms.push(GroupRef {
                    source_id: group.id,
                    name,
                }),
                _ => {}
            }
        }
    }

    progress.report("Reading classes".into()).await;
    let query = with_after(&[("include", "employees")]);
    let mut pages = client.pages::<wonde::Class>(token, &base, &school.id, "classes", &pairs(&query))?;
    while let Some(page) = pages.next_page().await? {
        for class in page {
            let name = class
                .name
                .clone()
                .or(class.code.clone())
                .unwrap_or_default()
                .trim()
                .to_owned();
            snapshot.classes.push(MisClass {
                source_id: class.id,
                name,
                staff: class
                    .employees
                    .map(|e| e.data.into_iter().map(|r| r.id).collect()),
            });
        }
    }

    let query = with_after(&[(
        "include",
        "year,registration,classes,education_details,contact_details,contacts.contact_details",
    )]);
    let mut pages =
        client.pages::<wonde::Student>(token, &base, &school.id, "students", &pairs(&query))?;
    progress.report("Reading pupils".into()).await;
    while let Some(page) = pages.next_page().await? {
        snapshot.pupils.extend(page.into_iter().map(map_student));
        progress
            .report(format!("Reading pupils: {} so far", snapshot.pupils.len()))
            .await;
    }

    progress.report("Reading staff".into()).await;
    let query = with_after(&[("include", "employment_details,contact_details")]);
    let mut pages =
        client.pages::<wonde::Employee>(token, &base, &school.id, "employees", &pairs(&query))?;
    while let Some(page) = pages.next_page().await? {
        snapshot.staff.extend(page.into_iter().map(map_employee));
    }

    if let Some(after) = &after {
        progress.report("Reading deletions".into()).await;
        let query = vec![("updated_after".to_owned(), after.clone())];
        let mut pages =
            client.pages::<wonde::Deletion>(token, &base, &school.id, "deletions", &pairs(&query))?;
        while let Some(page) = pages.next_page().await? {
            for deletion in page {
                if deletion.restored_at.is_none() && deletion.kind.eq_ignore_ascii_case("student") {
                    snapshot.deleted_pupils.push(deletion.id);
                }
            }
        }
    }
    Ok(snapshot)
}

fn pairs(query: &[(String, String)]) -> Vec<(&str, &str)> {
    query.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

fn group_name(group: &wonde::Group) -> Option<String> {
    group
        .name
        .as_deref()
        .or(group.code.as_deref())
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
}

/// The preferred name, else the legal one.
fn name(preferred: &Option<String>, legal: &Option<String>) -> String {
    preferred
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .or(legal.as_deref().map(str::trim))
        .unwrap_or_default()
        .to_owned()
}

/// One Wonde pupil as the snapshot holds it; `None` wherever Wonde sent `null`.
pub fn map_student(student: wonde::Student) -> MisPupil {
    let upn = student.education_details.map(|d| {
        d.data
            .and_then(|d| d.upn)
            .map(|u| u.trim().to_owned())
            .filter(|u| !u.is_empty())
    });
    let email = student.contact_details.map(|d| {
        d.data
            .and_then(|d| d.emails)
            .and_then(|e| e.best(false))
    });
    let parent_email = student.contacts.map(|contacts| {
        let mut best: Option<(i64, String)> = None;
        for contact in contacts.data {
            let Some(relationship) = &contact.relationship else { continue };
            if !relationship.has_responsibility() {
                continue;
            }
            let Some(email) = contact
                .contact_details
                .and_then(|d| d.data)
                .and_then(|d| d.emails)
                .and_then(|e| e.best(false))
            else {
                continue;
            };
            let priority = relationship.priority();
            if best.as_ref().is_none_or(|(p, _)| priority < *p) {
                best = Some((priority, email));
            }
        }
        best.map(|(_, email)| email)
    });
    MisPupil {
        forename: name(&student.forename, &student.legal_forename),
        surname: name(&student.surname, &student.legal_surname),
        upn,
        email,
        parent_email,
        year: student.year.map(|y| y.data.as_ref().and_then(group_name)),
        form: student.registration.map(|r| {
            r.data.and_then(|g| {
                Some(GroupRef {
                    name: group_name(&g)?,
                    source_id: g.id,
                })
            })
        }),
        classes: student
            .classes
            .map(|c| c.data.into_iter().map(|r| r.id).collect()),
        source_id: student.id,
    }
}

/// One Wonde employee; current unless the MIS says otherwise.
pub fn map_employee(employee: wonde::Employee) -> MisStaff {
    let details = employee.employment_details.and_then(|d| d.data);
    MisStaff {
        forename: name(&employee.forename, &employee.legal_forename),
        surname: name(&employee.surname, &employee.legal_surname),
        title: employee.title.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty()),
        email: employee
            .contact_details
            .and_then(|d| d.data)
            .and_then(|d| d.emails)
            .and_then(|e| e.best(true)),
        staff_code: details.as_ref().and_then(|d| d.staff_code.clone()),
        current: details.as_ref().and_then(|d| d.current).unwrap_or(true),
        source_id: employee.id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_is_the_first_responsible_contact_with_an_address() {
        let student: wonde::Student = serde_json::from_value(serde_json::json!({
            "id": "A1", "forename": "Ada", "surname": null, "legal_surname": "Lovelace",
            "contact_details": null,
            "contacts": {"data": [
                {"id": "C1", "relationship": {"parental_responsibility": false, "priority": 1},
                 "contact_details": {"data": {"emails": {"email": "gran@x.org"}}}},
                {"id": "C2", "relationship": {"parental_responsibility": true, "priority": 3},
                 "contact_details": {"data": {"emails": {"email": "dad@x.org"}}}},
                {"id": "C3", "relationship": {"parental_responsibility": true, "priority": 2},
                 "contact_details": {"data": {"emails": {"email": null}}}},
                {"id": "C4", "relationship": {"parental_responsibility": true, "priority": 2},
                 "contact_details": {"data": {"emails": {"home": "mum@x.org"}}}}
            ]}
        }))
        .unwrap();
        let pupil = map_student(student);
        assert_eq!(pupil.surname, "Lovelace");
        assert_eq!(pupil.parent_email, Some(Some("mum@x.org".into())));
        assert_eq!(pupil.email, None, "no scope: unknown, not empty");
        assert_eq!(pupil.classes, None);
    }
}
