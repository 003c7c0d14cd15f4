//! Staff from the MIS (docs/mis-sync.md, "Staff"): matched, named, invited within the
//! seats, and set as their classes' teachers. Part of [`super::apply`]'s transaction.

use std::collections::HashMap;

use super::{Applied, MisStaff, Snapshot};
use crate::config::Config;
use crate::db::DbConn;
use crate::models::mis as store;
use crate::staffing::{self, InviteError, Invitee};

/// Staff: known ones (by MIS id, else by e-mail within the school) take the MIS's names;
/// new current staff with an address are invited through `staffing` as pending teachers,
/// all or none (never beyond the seats: then a problem says so). Nobody is activated or
/// disabled by the sync. Class teachers follow the MIS among synced staff.
pub(super) async fn apply_staff(
    conn: &mut DbConn<'_>,
    config: &Config,
    school_id: &str,
    snapshot: &Snapshot,
    class_ids: &HashMap<String, String>,
    applied: &mut Applied,
) -> diesel::result::QueryResult<()> {
    let users = store::school_users(conn, school_id).await?;
    let mut user_of_source: HashMap<String, String> = users
        .iter()
        .filter_map(|u| Some((u.source_id(snapshot.source)?.to_owned(), u.id.clone())))
        .collect();
    let by_email: HashMap<&str, &store::SyncedUser> =
        users.iter().map(|u| (u.email.as_str(), u)).collect();
    let mut invitees: Vec<(Invitee, &MisStaff)> = Vec::new();
    for staff in snapshot.staff.iter().filter(|s| s.current) {
        let email = staff
            .email
            .as_deref()
            .map(crate::addresses::normalise_email)
            .filter(|e| core_wasm::email::is_valid_email(e));
        let known = user_of_source
            .get(&staff.source_id)
            .and_then(|id| users.iter().find(|u| &u.id == id))
            .or_else(|| email.as_deref().and_then(|e| by_email.get(e).copied()));
        match known {
            Some(user) => {
                let unchanged = user.source_id(snapshot.source) == Some(staff.source_id.as_str())
                    && user.forename == staff.forename
                    && user.surname == staff.surname
                    && user.title == staff.title
                    && user.staff_code == staff.staff_code;
                if !unchanged {
                    store::update_synced_user(
                        conn,
                        school_id,
                        &user.id,
                        snapshot.source,
                        &staff.source_id,
                        (&staff.forename, &staff.surname, staff.title.as_deref()),
                        staff.staff_code.as_deref(),
                    )
                    .await?;
                }
                user_of_source.insert(staff.source_id.clone(), user.id.clone());
            }
            None => match email {
                Some(email) if !staff.forename.trim().is_empty() && !staff.surname.trim().is_empty() => {
                    invitees.push((
                        Invitee {
                            forename: staff.forename.trim().to_owned(),
                            surname: staff.surname.trim().to_owned(),
                            email,
                            role: core_wasm::UserRole::Teacher,
                        },
                        staff,
                    ));
                }
                _ => applied.problems.push(format!(
                    "Staff member {} {} ({}) has no usable e-mail address and was not invited.",
                    staff.forename, staff.surname, staff.source_id
                )),
            },
        }
    }
    if !invitees.is_empty() {
        let people: Vec<Invitee> = invitees.iter().map(|(i, _)| i.clone()).collect();
        match staffing::invite(conn, config, None, school_id, &people).await {
            Ok(ids) => {
                applied.staff_invited = ids.len();
                for (id, (invitee, staff)) in ids.iter().zip(&invitees) {
                    store::update_synced_user(
                        conn,
                        school_id,
                        id,
                        snapshot.source,
                        &staff.source_id,
                        (&invitee.forename, &invitee.surname, staff.title.as_deref()),
                        staff.staff_code.as_deref(),
                    )
                    .await?;
                    user_of_source.insert(staff.source_id.clone(), id.clone());
                }
            }
            Err(InviteError::SeatsFull(message)) => applied.problems.push(format!(
                "{} staff from the MIS were not invited. {message}",
                people.len()
            )),
            Err(InviteError::EmailTaken(indexes)) => {
                let taken: Vec<&str> = indexes.iter().map(|&i| people[i].email.as_str()).collect();
                applied.problems.push(format!(
                    "{} staff from the MIS were not invited: these addresses belong to accounts in another organisation: {}.",
                    people.len(),
                    taken.join(", ")
                ));
            }
            Err(InviteError::Db(err)) => return Err(err),
        }
    }
    let synced_users: Vec<String> = user_of_source.values().cloned().collect();
    for class in &snapshot.classes {
        let (Some(staff), Some(class_id)) = (&class.staff, class_ids.get(&class.source_id)) else {
            continue;
        };
        let teachers: Vec<String> = staff
            .iter()
            .filter_map(|s| user_of_source.get(s).cloned())
            .collect();
        store::set_class_staff(conn, class_id, &synced_users, &teachers).await?;
    }
    Ok(())
}
