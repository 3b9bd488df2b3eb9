//! The memory the system can still give. Linux lets an allocation larger than that
//! succeed and ends the process once it touches the pages, so a `Hash` above it is
//! refused with an `info string` instead of taken, and so are more `Threads` than it can
//! hold.

/// What the system can give without swapping, in MB (`MemAvailable` in /proc/meminfo);
/// `None` where that cannot be read (systems other than Linux).
pub fn available_mb() -> Option<usize> {
    proc_mb("/proc/meminfo", "MemAvailable:")
}

/// The most memory this process has held at once, in MB (`VmHWM` in /proc/self/status);
/// `None` where that cannot be read.
pub fn peak_resident_mb() -> Option<usize> {
    proc_mb("/proc/self/status", "VmHWM:")
}

/// The figure after `key` in the `/proc` file at `path`, given there in kB, in MB.
fn proc_mb(path: &str, key: &str) -> Option<usize> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|line| line.starts_with(key))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Whether a table of `wanted` MB may replace one of `current` MB (freed first) when the
/// system has `available` MB free; the error says why not.
pub fn check_hash(wanted: usize, current: usize, available: Option<usize>) -> Result<(), String> {
    match available.map(|free| free + current) {
        Some(limit) if wanted > limit => {
            Err(format!("Hash {wanted} MB is more than the {limit} MB of memory this system can give"))
        }
        _ => Ok(()),
    }
}

/// The most a search thread holds beside the shared tables, in MB: its histories, its
/// evaluation caches and the part of its stack a search touches (about 1 MB measured at
/// 1,024 threads, rounded up for deep searches and the network's accumulators).
pub const THREAD_MEMORY_MB: usize = 3;

/// Whether `wanted` search threads may replace `current` ones when the system has
/// `available` MB free; the error says why not.
pub fn check_threads(wanted: usize, current: usize, available: Option<usize>) -> Result<(), String> {
    let needed = wanted.saturating_sub(current) * THREAD_MEMORY_MB;
    match available {
        Some(free) if needed > free => {
            Err(format!("Threads {wanted} needs about {needed} MB more, and this system can give {free} MB"))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_larger_than_the_free_memory_and_the_old_table_is_refused() {
        assert!(check_hash(1024, 16, Some(2048)).is_ok());
        assert!(check_hash(2064, 16, Some(2048)).is_ok(), "the old table is freed first");
        let refusal = check_hash(4096, 16, Some(2048)).unwrap_err();
        assert_eq!(refusal, "Hash 4096 MB is more than the 2064 MB of memory this system can give");
        assert!(check_hash(32_768, 16, None).is_ok(), "where nothing is known, nothing is refused");
    }

    #[test]
    fn more_threads_than_the_free_memory_can_hold_are_refused() {
        assert!(check_threads(8, 1, Some(64)).is_ok());
        assert!(check_threads(1, 1024, Some(0)).is_ok(), "fewer threads need nothing");
        let refusal = check_threads(1024, 1, Some(1000)).unwrap_err();
        assert_eq!(refusal, "Threads 1024 needs about 3069 MB more, and this system can give 1000 MB");
        assert!(check_threads(1024, 1, None).is_ok(), "where nothing is known, nothing is refused");
    }

    #[test]
    fn this_system_says_what_it_has() {
        if cfg!(target_os = "linux") {
            assert!(available_mb().is_some_and(|mb| mb > 0));
            assert!(peak_resident_mb().is_some_and(|mb| mb > 0));
        }
    }
}
