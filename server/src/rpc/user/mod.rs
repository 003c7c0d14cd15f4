//! `user.*`: the signed-in user's own account, settings and counters.

pub mod create_billing_portal_session;
pub mod feedback_hub_count;
pub mod list_files;
pub mod mark_tutorial_complete;
pub mod settings;
pub mod update_email_preferences;
pub mod update_profile;
pub mod upload_file;
