//! `dashboard.*`: what needs the signed-in member of staff today.

pub mod summary;
