import Foundation
import Glibc
import Testing

@testable import kanban

// Serialized: a pager run changes how the process handles Ctrl-C while it lasts.
@Suite(.serialized) struct Pagers {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case theEnvironmentChoosesThePagerAsGitDoes
        case onlyATerminalViewTallerThanTheTerminalIsPaged
        case plainWordsRunDirectlyAndTheRestThroughTheShell
        case thePagerReadsTheWholeViewAndKanbanWaitsForIt
        case aPagerThatQuitsEarlyEndsNothingButItself
        case aPagerThatCannotStartShowsNothingAndSaysWhy
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .theEnvironmentChoosesThePagerAsGitDoes: theEnvironmentChoosesThePagerAsGitDoes()
        case .onlyATerminalViewTallerThanTheTerminalIsPaged: onlyATerminalViewTallerThanTheTerminalIsPaged()
        case .plainWordsRunDirectlyAndTheRestThroughTheShell: plainWordsRunDirectlyAndTheRestThroughTheShell()
        case .thePagerReadsTheWholeViewAndKanbanWaitsForIt: try thePagerReadsTheWholeViewAndKanbanWaitsForIt()
        case .aPagerThatQuitsEarlyEndsNothingButItself: try aPagerThatQuitsEarlyEndsNothingButItself()
        case .aPagerThatCannotStartShowsNothingAndSaysWhy: aPagerThatCannotStartShowsNothingAndSaysWhy()
        }
    }

    func theEnvironmentChoosesThePagerAsGitDoes() {
        func pager(_ environment: [String: String]) -> String? {
            Pager.configured(environment: { environment[$0] })?.command
        }
        expectEqual(pager([:]), "less -FRX")
        expectEqual(pager(["PAGER": "more"]), "more")
        expectEqual(pager(["PAGER": "less -S", "KANBAN_PAGER": " most "]), "most")
        // Set but empty, or cat: no pager, and no falling back to the next variable.
        expectTrue(pager(["KANBAN_PAGER": "", "PAGER": "less"]) == nil)
        expectTrue(pager(["PAGER": ""]) == nil)
        expectTrue(pager(["PAGER": "  "]) == nil)
        expectTrue(pager(["KANBAN_PAGER": "cat"]) == nil)
    }

    func onlyATerminalViewTallerThanTheTerminalIsPaged() {
        let terminal = Terminal(isTerminal: true, width: 80, color: true, height: 24)
        expectTrue(!Pager.isNeeded(lines: 23, on: terminal))
        expectTrue(Pager.isNeeded(lines: 24, on: terminal), "with the prompt below it, 24 lines scroll")
        expectTrue(Pager.isNeeded(lines: 1_000, on: terminal))
        expectTrue(!Pager.isNeeded(lines: 1_000, on: Terminal(isTerminal: false, width: 80, color: false, height: 24)))
        expectTrue(!Pager.isNeeded(lines: 1_000, on: Terminal(isTerminal: true, width: 80, color: false)))
    }

    func plainWordsRunDirectlyAndTheRestThroughTheShell() {
        expectEqual(Pager(command: "less -FRX").plainWords, ["less", "-FRX"])
        expectEqual(Pager(command: "/usr/bin/less  -S").plainWords, ["/usr/bin/less", "-S"])
        expectTrue(Pager(command: "less -R | head").plainWords == nil)
        expectTrue(Pager(command: "LESS=R less").plainWords == nil)
        expectTrue(Pager(command: "~/bin/pager").plainWords == nil)
        expectTrue(Pager(command: "less '-S'").plainWords == nil)
    }

    func thePagerReadsTheWholeViewAndKanbanWaitsForIt() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        let bytes = Array(String(repeating: "a line of the view │ 漢字\n", count: 20_000).utf8)
        let file = sandbox.path("paged")
        expectEqual(Pager(command: "cat > '\(file)'; echo \"$LESS\" > '\(file).less'").show(bytes), .shown)
        try expectEqual(sandbox.bytes("paged"), bytes)
        let less = String(decoding: try sandbox.bytes("paged.less"), as: UTF8.self)
        expectEqual(less, (ProcessInfo.processInfo.environment["LESS"] ?? "FRX") + "\n")
    }

    func aPagerThatQuitsEarlyEndsNothingButItself() throws {
        let before = disposition(SIGPIPE)
        let interrupt = disposition(SIGINT)
        var mask = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &mask)
        // Four megabytes to a pager that reads none of them: the pipe closes under the writer.
        expectEqual(Pager(command: "true").show(Array(repeating: 0x61, count: 4 << 20)), .shown)
        expectEqual(Pager(command: "head -c 10 > /dev/null").show(Array(repeating: 0x61, count: 4 << 20)), .shown)
        expectEqual(disposition(SIGPIPE), before)
        expectEqual(disposition(SIGINT), interrupt)
        var after = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &after)
        expectEqual(sigismember(&after, SIGPIPE), sigismember(&mask, SIGPIPE))
        var pending = sigset_t()
        sigpending(&pending)
        expectEqual(sigismember(&pending, SIGPIPE), 0)
    }

    func aPagerThatCannotStartShowsNothingAndSaysWhy() {
        let missing = Pager(command: "kanban-no-such-pager -R").show(Array("view\n".utf8))
        guard case .notStarted(let reason?) = missing else {
            Issue.record("expected a reason, got \(missing)")
            return
        }
        expectTrue(reason.contains("'kanban-no-such-pager -R'") && reason.contains("no such file"))
        // Through the shell, which has said why on stderr: exit status 127.
        expectEqual(Pager(command: "(exit 127)").show(Array("view\n".utf8)), .notStarted(reason: nil))
    }

    /// The handler address for `signal`, without changing it.
    private func disposition(_ signal: Int32) -> UInt {
        var action = sigaction()
        sigaction(signal, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
    }
}
