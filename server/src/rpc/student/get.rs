//! `student.get`: a pupil's details, year and form group and classes (audited as a read).

use crate::models::audit::{self, AuditAction};
use crate::models::students;
use crate::rpc::student::{student_not_found, StudentIdInput};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct ClassName {
        pub id: String,
        pub name: String,
    }
}

rpc_type! {
    pub struct StudentProfile {
        pub id: String,
        pub forename: String,
        pub surname: String,
        pub email: Option<String>,
        pub parent_email: Option<String>,
        pub upn: Option<String>,
        pub year_group: Option<String>,
        pub form_group: Option<String>,
        pub classes: Vec<ClassName>,
        /// The pupil's or parent's address a mail server refused (docs/bounces.md).
        pub refused_addresses: Vec<crate::rpc::admin::refused_addresses::RefusedAddress>,
    }
}

pub async fn handler(ctx: &Ctx, input: StudentIdInput) -> RpcResult<StudentProfile> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let student = students::find_in_school(&mut conn, school_id, &input.id)
        .await?
        .ok_or_else(student_not_found)?;
    let classes = students::classes_of(&mut conn, &student.id).await?;
    let refused = crate::models::bounces::refusals_of_pupil(&mut conn, school_id, &student.id).await?;
    audit::record(
        &mut conn,
        &user.id,
        Some(school_id),
        AuditAction::Read,
        "student",
        &student.id,
    )
    .await?;
    Ok(StudentProfile {
        id: student.id,
        forename: student.forename,
        surname: student.surname,
        email: student.email,
        parent_email: student.parent_email,
        upn: student.upn,
        year_group: student.year_group,
        form_group: student.form_group,
        classes: classes
            .into_iter()
            .map(|(id, name)| ClassName { id, name })
            .collect(),
        refused_addresses: refused.into_iter().map(Into::into).collect(),
    })
}
