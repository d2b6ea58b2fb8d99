import Glibc

/// Work started on a thread of its own: a large file's hash for the history, made while the
/// file is read (README: Performance).
enum SecondThread {
    /// Starts `work` on a new thread and returns what waits for it to end; where no thread
    /// can be made, runs it here first. The thread takes no signal: they stay the main
    /// thread's, as in a process of one thread.
    private static func start(_ work: @escaping @Sendable () -> Void) -> () -> Void {
        let box = Unmanaged.passRetained(Work(work)).toOpaque()
        var thread = pthread_t()
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let made = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, box)
        guard made == 0 else {
            Unmanaged<Work>.fromOpaque(box).takeRetainedValue().run()
            return {}
        }
        return { pthread_join(thread, nil) }
    }

    /// The size of work, in bytes to go through, below which a thread costs about what it
    /// saves.
    static let worthIt = 256 << 10

    /// A value computed on a thread of its own from when it is made.
    final class Result<Value: Sendable>: @unchecked Sendable {
        private var computed: Value?
        private var wait: (() -> Void)?

        init(_ compute: @escaping @Sendable () -> Value) {
            wait = SecondThread.start { [self] in computed = compute() }
        }

        /// The value, once the thread has ended. Only the thread that made it asks.
        var value: Value {
            wait?()
            wait = nil
            return computed!
        }
    }

    private final class Work: Sendable {
        let run: @Sendable () -> Void

        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
