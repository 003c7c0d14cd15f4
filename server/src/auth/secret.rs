//! The server secret that keys CSRF tokens: `VOICEMARK_SECRET`, or a random one made once
//! and kept in `{data_dir}/secret` (readable by the owner only) so it survives restarts.

use std::io::Write;
use std::path::Path;

use crate::config::Config;

/// The configured secret, or the one stored in the data folder (created when missing).
pub fn load_or_create(config: &Config) -> std::io::Result<String> {
    if let Some(secret) = &config.auth.secret {
        return Ok(secret.clone());
    }
    let path = config.data_dir.join("secret");
    match std::fs::read_to_string(&path) {
        Ok(existing) if !existing.trim().is_empty() => return Ok(existing.trim().to_owned()),
        Ok(_) => {}
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => return Err(err),
    }
    std::fs::create_dir_all(&config.data_dir)?;
    let secret = format!("{}{}", crate::ids::new_token(), crate::ids::new_token());
    write_private(&path, &secret)?;
    Ok(secret)
}

#[cfg(unix)]
fn write_private(path: &Path, secret: &str) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(secret.as_bytes())?;
    file.sync_all()
}

#[cfg(not(unix))]
fn write_private(path: &Path, secret: &str) -> std::io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(secret.as_bytes())?;
    file.sync_all()
}
