//! `school.*`: the caller's own school's data (always scoped by `ctx.school_id()`).

pub mod admins;
pub mod list_students;
