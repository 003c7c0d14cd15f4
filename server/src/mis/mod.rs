//! Pupils, parents, classes, groups and staff kept in step with a school's MIS
//! (docs/mis-sync.md). A source (`wonde.rs`, `groupcall.rs` for Groupcall Xporter) only reads its
//! provider into a source-neutral [`Snapshot`]; [`apply`] is the one step that writes it,
//! inside the caller's single transaction (a run that fails part way changes nothing), with
//! the roster's rules for a valid pupil (`crate::roster::validate_pupils`). `sync.rs` runs a
//! whole sync: the per-school lock, the fetch, the apply, the run's record.
//!
//! `Option` in the snapshot means "the MIS did not say" (a scope the school did not approve,
//! an include not sent): the stored value is left as it is. `Some(None)` means "known to be
//! empty" and clears it.

pub mod groupcall;
mod staff;
pub mod sync;
pub mod wonde;

use std::collections::{HashMap, HashSet};

use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::db::DbConn;
use crate::ids::new_id;
use crate::models::mis::{self as store, NewSyncedPupil, PupilChange};
use crate::models::groups;
use crate::roster::{validate_pupils, PupilField, SourceRow};

/// Reports progress as the pages come in (the health view's "Reading pupils: 400").
pub trait Progress {
    fn report(&mut self, text: String) -> impl std::future::Future<Output = ()> + Send;
}

/// Where a school's MIS data comes from. Each source matches records by its own id column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Source {
    Wonde,
    Groupcall,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Wonde => "WONDE",
            Source::Groupcall => "GROUPCALL",
        }
    }

    /// The provider's name as the admin reads it.
    pub fn label(self) -> &'static str {
        match self {
            Source::Wonde => "Wonde",
            Source::Groupcall => "Groupcall Xporter",
        }
    }
}

/// A full sync (everything; what is missing is archived) or a delta (changes since the last
/// run, and the deletions list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SyncKind {
    Full,
    Delta,
}

impl SyncKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SyncKind::Full => "FULL",
            SyncKind::Delta => "DELTA",
        }
    }
}

/// A year or form group as the MIS names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupRef {
    pub source_id: String,
    pub name: String,
}

/// One pupil from the MIS.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MisPupil {
    pub source_id: String,
    pub forename: String,
    pub surname: String,
    pub upn: Option<Option<String>>,
    pub email: Option<Option<String>>,
    /// The highest-priority contact with parental responsibility and an e-mail.
    pub parent_email: Option<Option<String>>,
    /// The year group's name.
    pub year: Option<Option<String>>,
    pub form: Option<Option<GroupRef>>,
    /// The source ids of the pupil's classes.
    pub classes: Option<Vec<String>>,
}

/// One teaching class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MisClass {
    pub source_id: String,
    pub name: String,
    /// The source ids of its teachers.
    pub staff: Option<Vec<String>>,
}

/// One member of staff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MisStaff {
    pub source_id: String,
    pub forename: String,
    pub surname: String,
    pub title: Option<String>,
    pub email: Option<String>,
    pub staff_code: Option<String>,
    /// Employed now (leavers are not invited).
    pub current: bool,
}

/// What a source read for one school: everything (full) or what changed (delta).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Whose ids `source_id` holds (which id column records are matched by).
    pub source: Source,
    pub kind: SyncKind,
    pub pupils: Vec<MisPupil>,
    pub classes: Vec<MisClass>,
    pub forms: Vec<GroupRef>,
    pub years: Vec<String>,
    pub staff: Vec<MisStaff>,
    /// Source ids of pupils the MIS removed (a delta's deletions).
    pub deleted_pupils: Vec<String>,
}

impl Snapshot {
    pub fn new(source: Source, kind: SyncKind) -> Snapshot {
        Snapshot {
            source,
            kind,
            pupils: Vec::new(),
            classes: Vec::new(),
            forms: Vec::new(),
            years: Vec::new(),
            staff: Vec::new(),
            deleted_pupils: Vec::new(),
        }
    }
}

/// What [`apply`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    pub added: usize,
    pub updated: usize,
    pub archived: usize,
    pub staff_invited: usize,
    /// Records not taken, and why (shown with the run).
    pub problems: Vec<String>,
}

/// Writes `snapshot` to the school; run it inside one transaction.
pub async fn apply(
    conn: &mut DbConn<'_>,
    config: &Config,
    school_id: &str,
    snapshot: &Snapshot,
    at: NaiveDateTime,
) -> diesel::result::QueryResult<Applied> {
    let mut applied = Applied::default();
    let source = snapshot.source;

    // Year groups (matched by name, like the roster import).
    let mut year_ids: HashMap<String, String> = HashMap::new();
    let year_names = snapshot
        .years
        .iter()
        .chain(snapshot.pupils.iter().filter_map(|p| p.year.as_ref()?.as_ref()));
    for name in year_names {
        let key = name.to_lowercase();
        if !year_ids.contains_key(&key) {
            let id = groups::year_group_id(conn, school_id, name).await?;
            year_ids.insert(key, id);
        }
    }

    // Form groups: matched by MIS id, else a manual group of the same name is linked.
    let mut form_groups: Vec<GroupRef> = snapshot.forms.clone();
    for pupil in &snapshot.pupils {
        if let Some(Some(form)) = &pupil.form {
            form_groups.push(form.clone());
        }
    }
    let existing = store::school_form_groups(conn, school_id, source).await?;
    let form_ids = match_groups(conn, school_id, source, &existing, &form_groups, GroupTable::Form, &mut applied).await?;

    // Classes, the same way.
    let class_refs: Vec<GroupRef> = snapshot
        .classes
        .iter()
        .map(|c| GroupRef {
            source_id: c.source_id.clone(),
            name: c.name.clone(),
        })
        .collect();
    let existing = store::school_classes(conn, school_id, source).await?;
    let class_ids = match_groups(conn, school_id, source, &existing, &class_refs, GroupTable::Class, &mut applied).await?;
    // Every synced class of the school (a delta's pupils name classes it did not re-read).
    let mut class_of_source: HashMap<String, String> = HashMap::new();
    for (id, source, _) in store::school_classes(conn, school_id, source).await? {
        if let Some(source) = source {
            class_of_source.insert(source, id);
        }
    }
    let synced_class_ids: Vec<String> = class_of_source.values().cloned().collect();

    // Pupils.
    let existing = store::school_pupils(conn, school_id).await?;
    let mut by_source: HashMap<&str, usize> = HashMap::new();
    let mut by_upn: HashMap<String, usize> = HashMap::new();
    for (i, pupil) in existing.iter().enumerate() {
        if let Some(id) = pupil.source_id(source) {
            by_source.insert(id, i);
        }
        if let Some(upn) = &pupil.upn {
            by_upn.insert(upn.clone(), i);
        }
    }
    let mut upn_owner: HashMap<String, String> = existing
        .iter()
        .filter_map(|p| Some((p.upn.clone()?, p.id.clone())))
        .collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut inserts: Vec<NewSyncedPupil> = Vec::new();
    let mut local_id_of: HashMap<String, String> = HashMap::new();
    for (n, pupil) in snapshot.pupils.iter().enumerate() {
        if local_id_of.contains_key(&pupil.source_id) {
            continue; // the same pupil twice in one read (a page boundary moved)
        }
        let row = source_row(n + 1, pupil);
        let clean = match validate_pupils(&[row], &HashSet::new()) {
            Ok(mut clean) => clean.remove(0),
            Err(problems) => {
                for problem in problems {
                    applied.problems.push(format!(
                        "Pupil {} {} ({}): {}",
                        pupil.forename, pupil.surname, pupil.source_id, problem.text
                    ));
                }
                continue;
            }
        };
        let known_upn = pupil.upn.as_ref().map(|_| clean.upn.clone());
        let found = by_source.get(pupil.source_id.as_str()).copied().or_else(|| {
            // A pupil entered by hand (or from a CSV file) with the same UPN is linked.
            let upn = clean.upn.as_ref()?;
            by_upn
                .get(upn)
                .copied()
                .filter(|&i| existing[i].source_id(source).is_none())
        });
        let local_id = found.map(|i| existing[i].id.clone());
        if let Some(Some(upn)) = &known_upn {
            if let Some(owner) = upn_owner.get(upn) {
                if Some(owner) != local_id.as_ref() {
                    applied.problems.push(format!(
                        "Pupil {} {} ({}): the UPN {upn} belongs to another pupil.",
                        pupil.forename, pupil.surname, pupil.source_id
                    ));
                    continue;
                }
            }
        }
        let year_group_id = pupil
            .year
            .as_ref()
            .map(|y| y.as_ref().and_then(|name| year_ids.get(&name.to_lowercase()).cloned()));
        let form_group_id = pupil
            .form
            .as_ref()
            .map(|f| f.as_ref().and_then(|g| form_ids.get(&g.source_id).cloned()));
        let known_email = pupil.email.as_ref().map(|_| clean.email.clone());
        let known_parent = pupil.parent_email.as_ref().map(|_| clean.parent_email.clone());
        match found {
            Some(i) => {
                let old = &existing[i];
                seen.insert(old.id.clone());
                let mut change = PupilChange::default();
                if old.source_id(source) != Some(pupil.source_id.as_str()) {
                    let id = Some(Some(pupil.source_id.clone()));
                    match source {
                        Source::Wonde => change.wonde_id = id,
                        Source::Groupcall => change.groupcall_id = id,
                    }
                }
                if old.forename != clean.forename {
                    change.forename = Some(clean.forename.clone());
                }
                if old.surname != clean.surname {
                    change.surname = Some(clean.surname.clone());
                }
                change.email = known_email.filter(|e| *e != old.email);
                change.parent_email = known_parent.filter(|e| *e != old.parent_email);
                change.upn = known_upn.clone().filter(|u| *u != old.upn);
                change.year_group_id = year_group_id.filter(|y| *y != old.year_group_id);
                change.form_group_id = form_group_id.filter(|f| *f != old.form_group_id);
                if old.archived_at.is_some() {
                    change.archived_at = Some(None);
                }
                if !change.is_empty() {
                    store::update_pupil(conn, school_id, &old.id, &change).await?;
                    applied.updated += 1;
                }
                if let Some(Some(upn)) = &known_upn {
                    upn_owner.insert(upn.clone(), old.id.clone());
                }
                local_id_of.insert(pupil.source_id.clone(), old.id.clone());
            }
            None => {
                let id = new_id();
                if let Some(Some(upn)) = &known_upn {
                    upn_owner.insert(upn.clone(), id.clone());
                }
                local_id_of.insert(pupil.source_id.clone(), id.clone());
                inserts.push(NewSyncedPupil {
                    id,
                    wonde_id: (source == Source::Wonde).then(|| pupil.source_id.clone()),
                    groupcall_id: (source == Source::Groupcall).then(|| pupil.source_id.clone()),
                    created_at: at,
                    updated_at: at,
                    forename: clean.forename,
                    surname: clean.surname,
                    email: clean.email,
                    parent_email: clean.parent_email,
                    upn: clean.upn,
                    school_id: school_id.to_owned(),
                    year_group_id: year_group_id.flatten(),
                    form_group_id: form_group_id.flatten(),
                });
            }
        }
    }
    applied.added = store::insert_pupils(conn, inserts).await?;

    // Class memberships of the pupils whose classes the MIS gave, among synced classes
    // (a manual class keeps its pupils).
    let links = store::class_links(conn, &synced_class_ids).await?;
    let mut current: HashMap<String, HashSet<String>> = HashMap::new();
    for (class_id, student_id) in links {
        current.entry(student_id).or_default().insert(class_id);
    }
    let mut to_add = Vec::new();
    for pupil in &snapshot.pupils {
        let (Some(classes), Some(local)) = (&pupil.classes, local_id_of.get(&pupil.source_id))
        else {
            continue;
        };
        let wanted: HashSet<String> = classes
            .iter()
            .filter_map(|source| class_of_source.get(source).cloned())
            .collect();
        let have = current.remove(local).unwrap_or_default();
        for class_id in have.difference(&wanted) {
            store::remove_class_link(conn, class_id, local).await?;
        }
        for class_id in wanted.difference(&have) {
            to_add.push((class_id.clone(), local.clone()));
        }
    }
    store::add_class_links(conn, &to_add).await?;

    // Pupils who left the MIS are archived (never deleted): on a full sync every synced
    // pupil not seen; on a delta the ones in the deletions list.
    let leavers: Vec<String> = match snapshot.kind {
        SyncKind::Full => existing
            .iter()
            .filter(|p| p.source_id(source).is_some() && p.archived_at.is_none() && !seen.contains(&p.id))
            .map(|p| p.id.clone())
            .collect(),
        SyncKind::Delta => snapshot
            .deleted_pupils
            .iter()
            .filter_map(|source| by_source.get(source.as_str()))
            .map(|&i| &existing[i])
            .filter(|p| p.archived_at.is_none() && !seen.contains(&p.id))
            .map(|p| p.id.clone())
            .collect(),
    };
    applied.archived = store::archive_pupils(conn, school_id, &leavers, at).await?;

    staff::apply_staff(conn, config, school_id, snapshot, &class_ids, &mut applied).await?;
    Ok(applied)
}

/// The roster's view of a MIS pupil: only what the MIS said.
fn source_row(line: usize, pupil: &MisPupil) -> SourceRow {
    let mut values = HashMap::new();
    values.insert(PupilField::Forename, pupil.forename.clone());
    values.insert(PupilField::Surname, pupil.surname.clone());
    let mut put = |field, value: &Option<Option<String>>| {
        if let Some(Some(v)) = value {
            values.insert(field, v.clone());
        }
    };
    put(PupilField::Email, &pupil.email);
    put(PupilField::ParentEmail, &pupil.parent_email);
    put(PupilField::Upn, &pupil.upn);
    put(PupilField::YearGroup, &pupil.year);
    let form = pupil.form.as_ref().map(|f| f.as_ref().map(|g| g.name.clone()));
    put(PupilField::FormGroup, &form);
    SourceRow { line, values }
}

#[derive(Clone, Copy)]
enum GroupTable {
    Form,
    Class,
}

/// Matches the MIS's groups to the school's (by MIS id, else a manual one of the same
/// name), creating or renaming as needed; returns MIS id → local id.
async fn match_groups(
    conn: &mut DbConn<'_>,
    school_id: &str,
    source: Source,
    existing: &[store::GroupRow],
    wanted: &[GroupRef],
    table: GroupTable,
    applied: &mut Applied,
) -> diesel::result::QueryResult<HashMap<String, String>> {
    let max = core_wasm::limits::MAX_GROUP_NAME_CHARS;
    let mut by_source: HashMap<String, (String, String)> = HashMap::new();
    let mut by_name: HashMap<String, (String, Option<String>)> = HashMap::new();
    for (id, source, name) in existing {
        if let Some(source) = source {
            by_source.insert(source.clone(), (id.clone(), name.clone()));
        }
        by_name.insert(name.to_lowercase(), (id.clone(), source.clone()));
    }
    let mut ids = HashMap::new();
    for group in wanted {
        if ids.contains_key(&group.source_id) {
            continue;
        }
        let name = group.name.trim();
        if name.is_empty() || name.chars().count() > max {
            applied.problems.push(format!(
                "Group {} has no usable name (empty or longer than {max} characters).",
                group.source_id
            ));
            continue;
        }
        let key = name.to_lowercase();
        let same_name = by_name.get(&key).cloned();
        let id = match by_source.get(&group.source_id).cloned() {
            Some((id, old_name)) => {
                if old_name != name {
                    match &same_name {
                        Some((other, _)) if *other != id => applied.problems.push(format!(
                            "Group \"{name}\" ({}) could not be renamed: another group has that name.",
                            group.source_id
                        )),
                        _ => {
                            update_group(conn, table, &id, source, &group.source_id, name).await?;
                            by_name.insert(key, (id.clone(), Some(group.source_id.clone())));
                        }
                    }
                }
                id
            }
            None => match same_name {
                Some((id, None)) => {
                    update_group(conn, table, &id, source, &group.source_id, name).await?;
                    by_name.insert(key, (id.clone(), Some(group.source_id.clone())));
                    id
                }
                Some((_, Some(other))) => {
                    applied.problems.push(format!(
                        "Group \"{name}\" ({}) has the same name as group {other}.",
                        group.source_id
                    ));
                    continue;
                }
                None => {
                    let id = match table {
                        GroupTable::Form => {
                            store::insert_form_group(conn, school_id, source, &group.source_id, name).await?
                        }
                        GroupTable::Class => {
                            store::insert_class(conn, school_id, source, &group.source_id, name).await?
                        }
                    };
                    by_name.insert(key, (id.clone(), Some(group.source_id.clone())));
                    id
                }
            },
        };
        ids.insert(group.source_id.clone(), id);
    }
    Ok(ids)
}

async fn update_group(
    conn: &mut DbConn<'_>,
    table: GroupTable,
    id: &str,
    source: Source,
    source_id: &str,
    name: &str,
) -> diesel::result::QueryResult<()> {
    match table {
        GroupTable::Form => store::update_form_group(conn, id, source, source_id, name).await,
        GroupTable::Class => store::update_class(conn, id, source, source_id, name).await,
    }
}
