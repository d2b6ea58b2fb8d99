import Glibc
import Testing

@testable import kanban

/// Runs `kanban` inside the test process (README: Development): ``App/main(_:invalidArgument:surroundings:)``
/// with an environment, a directory and standard files of the test's own, so that a test
/// pays no process start. The result has the shape a spawned run's has; the exit status is
/// what the process would exit with. Many runs may go on at once on the test threads: a run
/// changes neither the process's directory nor its environment.
///
/// What needs a process stays spawned (``KanbanSandbox/start``): signals, a terminal, a
/// pipe or FIFO on stdin, `ulimit`s, another user, crashes, and arguments that are not UTF-8.
enum InProcessKanban {
    static func run(
        _ arguments: [String], environment: [String: String], directory: String, stdin: [UInt8]? = nil
    ) throws -> ProcessResult {
        // A stop point would stop the test process itself.
        let stopPoints = ["KANBAN_TEST_STOP_AT", "KANBAN_TEST_STOP_BEFORE_COMMIT"]
        if let stop = stopPoints.first(where: { environment[$0] != nil }) {
            throw SpawnError("\(stop) stops the process it runs in; spawn kanban for it")
        }
        if let zone = environment["TZ"], Surroundings.fixedOffset(timeZone: zone) == nil {
            throw SpawnError("TZ=\(zone) is not a fixed offset, which a run in-process needs; spawn kanban for it")
        }
        let input: Int32
        if let stdin {
            input = try SpawnedProcess.temporaryFile(containing: stdin)
        } else {
            input = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { throw SpawnError("cannot open /dev/null: \(String(cString: strerror(errno)))") }
        }
        defer { close(input) }
        let output = try SpawnedProcess.temporaryFile(containing: [])
        defer { close(output) }
        let errors = try SpawnedProcess.temporaryFile(containing: [])
        defer { close(errors) }
        let surroundings = Surroundings(
            variables: environment, directory: directory, stdin: input, stdout: output, stderr: errors)
        let code = App.main(arguments, surroundings: surroundings)
        return ProcessResult(
            status: code & 0xFF, signal: nil, stdout: SpawnedProcess.readAll(output),
            stderr: SpawnedProcess.readAll(errors))
    }
}
