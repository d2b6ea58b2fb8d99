import Glibc

/// Hooks that let the crash tests stop a writer at an exact instant. Debug builds only:
/// the release build does not contain them.
enum TestHooks {
    /// With `KANBAN_TEST_STOP_BEFORE_COMMIT` set, the process stops itself (SIGSTOP) after
    /// the temporary file is flushed and before it is renamed into place, so a test can
    /// kill it inside the write window.
    static func pauseBeforeCommit() {
        #if DEBUG
            if getenv("KANBAN_TEST_STOP_BEFORE_COMMIT") != nil {
                raise(SIGSTOP)
            }
        #endif
    }

    /// With `KANBAN_TEST_STOP_AFTER_RECORD` set, the process stops itself after its history
    /// record is written and before the new file is renamed into place.
    static func pauseAfterRecord() {
        #if DEBUG
            if getenv("KANBAN_TEST_STOP_AFTER_RECORD") != nil {
                raise(SIGSTOP)
            }
        #endif
    }
}
