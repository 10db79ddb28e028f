//! mimalloc, the allocator of the service's own allocations (the `pitboss`
//! binary makes it the global allocator; SQLite's and the other C
//! libraries' allocations stay with the C library's `malloc`): its one
//! setting and its figure for `/metrics`.
//!
//! Why mimalloc, and why that setting: docs/benchmarks.md, "The allocator".

/// mimalloc's `mi_option_purge_delay` (mimalloc.h; the -sys crate names no
/// constant for it): how long memory it no longer uses waits before it is
/// given back to the system, in milliseconds.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Memory mimalloc no longer uses goes back to the system at once (a purge
/// delay of 0, where its default waits a second): under load this kept the
/// service's RSS flat at about 175 MB, where mimalloc's defaults held about
/// 225, at the same rate of hands (docs/benchmarks.md, "The allocator").
/// `MIMALLOC_PURGE_DELAY` in the environment still decides when set (as do
/// mimalloc's other `MIMALLOC_…` options). Call first thing in `main`.
pub fn configure() {
    // SAFETY: sets one of mimalloc's options, an integer it reads each time
    // it purges, unless the environment set it (mimalloc read that before
    // `main`); any value is allowed.
    unsafe { libmimalloc_sys::mi_option_set_default(PURGE_DELAY, 0) };
}

/// The bytes mimalloc has committed from the operating system: the memory
/// behind the service's own allocations (in use, and free pages not yet
/// given back). In a program that links the library without making
/// mimalloc its allocator (the tests) this counts only what mimalloc was
/// asked for directly.
pub fn committed_bytes() -> i64 {
    let (mut elapsed, mut user, mut system, mut rss, mut peak_rss) = (0, 0, 0, 0, 0);
    let (mut committed, mut peak_committed, mut faults) = (0, 0, 0);
    // SAFETY: each argument points to a `usize` of this frame, which
    // `mi_process_info` writes and does not keep.
    unsafe {
        libmimalloc_sys::mi_process_info(
            &mut elapsed,
            &mut user,
            &mut system,
            &mut rss,
            &mut peak_rss,
            &mut committed,
            &mut peak_committed,
            &mut faults,
        );
    }
    i64::try_from(committed).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The option set is the purge delay (its default in the mimalloc this
    /// crate builds, v3, is 1000 ms, which no neighbouring option has), and
    /// `configure` sets it to 0.
    #[test]
    fn configure_sets_the_purge_delay() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
            return;
        }
        // SAFETY: reads an option.
        assert_eq!(unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) }, 1000);
        configure();
        // SAFETY: as above.
        assert_eq!(unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) }, 0);
    }
}
