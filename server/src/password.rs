//! Password hashing with argon2id (the argon2 crate's defaults follow OWASP's advice), and the
//! one process-wide pool every hash and verify goes through.
//!
//! Each argon2 run holds about 19 MiB and a core for tens of milliseconds. Unbounded, 96
//! concurrent sign-ups took the server from 13 MiB to 2.1 GiB (issue 10). [`hash`] and
//! [`verify`] therefore run on at most [`pool_size`] blocking threads at once (the available
//! parallelism, between 1 and 4); at most [`MAX_WAITING`] callers queue for a turn, each for at
//! most [`MAX_WAIT`]. Anyone beyond that gets [`PoolError::Busy`] at once, which callers
//! answer as "too many attempts" (429): memory stays bounded whatever arrives.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::LazyLock;
use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use tokio::sync::Semaphore;

/// Callers allowed to wait for a turn at once; the next one is refused.
pub const MAX_WAITING: usize = 32;
/// The longest a caller waits for a turn before it is refused.
pub const MAX_WAIT: Duration = Duration::from_secs(5);

/// Why a pooled hash or verify did not run.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// Too many hashes are running or waiting: try again later (answered as 429).
    #[error("the password hashing pool is busy")]
    Busy,
    /// The hash could not be made (never expected; the detail is for the log).
    #[error("password hashing failed: {0}")]
    Failed(String),
}

struct HashingPool {
    permits: Semaphore,
    waiting: AtomicUsize,
}

static POOL: LazyLock<HashingPool> = LazyLock::new(|| HashingPool {
    permits: Semaphore::new(pool_size()),
    waiting: AtomicUsize::new(0),
});

/// How many argon2 runs may proceed at once: the available parallelism, 1 to 4.
pub fn pool_size() -> usize {
    std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(1)
        .clamp(1, 4)
}

/// Runs `work` on a blocking thread once the pool gives it a turn; the turn is held until
/// the work has finished (also when the caller gave up waiting for the answer).
async fn run_pooled<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, PoolError> {
    let pool = &*POOL;
    let permit = match pool.permits.try_acquire() {
        Ok(permit) => permit,
        Err(_) => {
            // Count ourselves in the queue first, so the bound holds under a burst.
            if pool.waiting.fetch_add(1, Ordering::SeqCst) >= MAX_WAITING {
                pool.waiting.fetch_sub(1, Ordering::SeqCst);
                return Err(PoolError::Busy);
            }
            let turn = tokio::time::timeout(MAX_WAIT, pool.permits.acquire()).await;
            pool.waiting.fetch_sub(1, Ordering::SeqCst);
            match turn {
                Ok(Ok(permit)) => permit,
                Ok(Err(_)) | Err(_) => return Err(PoolError::Busy),
            }
        }
    };
    tokio::task::spawn_blocking(move || {
        let _turn = permit;
        work()
    })
    .await
    .map_err(|e| PoolError::Failed(e.to_string()))
}

/// Hashes `password` through the pool.
pub async fn hash(password: String) -> Result<String, PoolError> {
    run_pooled(move || hash_password(&password))
        .await?
        .map_err(|e| PoolError::Failed(e.to_string()))
}

/// Checks `password` against `hash` through the pool.
pub async fn verify(password: String, hash: String) -> Result<bool, PoolError> {
    run_pooled(move || verify_password(&password, &hash)).await
}

/// Hashes `password` into a PHC string that records its own parameters. Blocking and
/// unbounded: call [`hash`] from the server.
pub fn hash_password(password: &str) -> Result<String, argon2::password_hash::Error> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

/// Whether `password` matches `hash`; a malformed hash never matches. Blocking and
/// unbounded: call [`verify`] from the server.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_are_argon2id() {
        let hash = hash_password("Voicemark1").expect("hash");
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("Voicemark1", &hash));
        assert!(!verify_password("voicemark1", &hash));
        assert!(!verify_password("Voicemark1", "not a hash"));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_pool_refuses_what_it_cannot_queue() {
        // More callers than turns plus queue places: some are refused, none fails otherwise,
        // and the ones let through hash correctly.
        let callers = pool_size() + MAX_WAITING + 40;
        let runs: Vec<_> = (0..callers)
            .map(|_| tokio::spawn(hash("Voicemark1".to_owned())))
            .collect();
        let (mut hashed, mut busy) = (0, 0);
        for run in runs {
            match run.await.expect("join") {
                Ok(h) => {
                    assert!(verify("Voicemark1".into(), h).await.expect("verify"));
                    hashed += 1;
                }
                Err(PoolError::Busy) => busy += 1,
                Err(other) => panic!("{other}"),
            }
        }
        eprintln!("pool {}: {hashed} hashed, {busy} refused", pool_size());
        assert!(busy >= 1, "{callers} callers, none refused");
        assert!(hashed >= pool_size(), "only {hashed} hashed");
    }
}
