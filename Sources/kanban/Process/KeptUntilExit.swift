/// The kanbans a command read or wrote, kept rather than freed when its process is about
/// to exit anyway: freeing a kanban card by card costs as much as a tenth of reading it,
/// and the exit gives the memory back at once.
///
/// Only `main.swift` turns this on, for a process that runs one command; `kanban ui`, which
/// reads and writes the file for as long as it runs, turns it off again. Tests that run
/// commands inside their own process never have it on.
enum KeptUntilExit {
    nonisolated(unsafe) static var isEnabled = false
    nonisolated(unsafe) private static var kept: [Any] = []

    static func keep(_ value: Any) {
        if isEnabled { kept.append(value) }
    }
}
