// A board's role in the flow of work (README: Flow): stored as the board's "role" key after
// "limit" and left out when the board has the default by its place; set by `board role`,
// taken back by a patch, shown by a diff, merged as a scalar with a recorded conflict.

import Testing

@testable import KanbanCore

@Suite("Board roles")
struct BoardRoleTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aRoleIsReadAndWrittenAfterTheLimitAndLeftOutWhenNotSet
        case theRoleOfABoardIsTheOneSetElseTheDefaultByItsPlace
        case boardRoleReportsTheRoleBeforeAndAfter
        case aPatchAndADiffCarryTheRole
        case aRoleChangedOnBothSidesIsARecordedConflictAndOnOneSideIsTaken
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .aRoleIsReadAndWrittenAfterTheLimitAndLeftOutWhenNotSet:
            try aRoleIsReadAndWrittenAfterTheLimitAndLeftOutWhenNotSet()
        case .theRoleOfABoardIsTheOneSetElseTheDefaultByItsPlace:
            try theRoleOfABoardIsTheOneSetElseTheDefaultByItsPlace()
        case .boardRoleReportsTheRoleBeforeAndAfter: try boardRoleReportsTheRoleBeforeAndAfter()
        case .aPatchAndADiffCarryTheRole: try aPatchAndADiffCarryTheRole()
        case .aRoleChangedOnBothSidesIsARecordedConflictAndOnOneSideIsTaken:
            try aRoleChangedOnBothSidesIsARecordedConflictAndOnOneSideIsTaken()
        }
    }

    typealias F = MergeFixture

    private static let file = #"""
        {"version": 2, "boards": [{"id": "b1", "title": "Todo", "limit": null, "items": []}, {"id": "b2", "title": "Review", "limit": 2, ROLE "items": []}, {"id": "b3", "title": "Done", "limit": null, "items": []}], "archive": []}
        """#

    private static func decode(role: String) throws -> Kanban {
        try KanbanFile.decode(Array(file.replacingOccurrences(of: "ROLE", with: role).utf8)).kanban
    }

    func aRoleIsReadAndWrittenAfterTheLimitAndLeftOutWhenNotSet() throws {
        let kanban = try Self.decode(role: #""role": "done","#)
        expectEqual(kanban.boards[1].role, .done)
        let text = String(decoding: KanbanFile.encode(kanban), as: UTF8.self)
        expectTrue(text.contains("\"limit\": 2,\n      \"role\": \"done\",\n      \"items\""), "\(text)")
        expectEqual(try KanbanFile.decode(KanbanFile.encode(kanban)).kanban, kanban)
        let plain = try Self.decode(role: "")
        expectEqual(plain.boards[1].role, nil)
        expectTrue(!String(decoding: KanbanFile.encode(plain), as: UTF8.self).contains("role"))
    }

    @Test(arguments: [#""role": "doing","#, #""role": null,"#, #""role": 2,"#, #""role": "Done","#])
    func anUnknownRoleIsRefusedNamingTheKey(role: String) throws {
        let error = #expect(throws: KanbanError.self) { try Self.decode(role: role) }
        guard case .corruptFile(_, let message)? = error else {
            Issue.record("not a corrupt file: \(String(describing: error))")
            return
        }
        expectTrue(message.contains("\"role\""), "\(message)")
    }

    func theRoleOfABoardIsTheOneSetElseTheDefaultByItsPlace() throws {
        var kanban = try Self.decode(role: "")
        expectEqual((0..<3).map(kanban.role(ofBoard:)), [.backlog, .active, .done])
        try kanban.setRole(of: 0, to: .active)
        try kanban.setRole(of: 2, to: .active)
        try kanban.setRole(of: 1, to: .done)
        expectEqual((0..<3).map(kanban.role(ofBoard:)), [.active, .done, .active])
        try kanban.setRole(of: 0, to: nil)
        expectEqual(kanban.role(ofBoard: 0), .backlog)
    }

    func boardRoleReportsTheRoleBeforeAndAfter() throws {
        var kanban = F.sample
        var generator = SeededGenerator(seed: 1)
        let change = try kanban.apply(.boardRole(board: "in progress", role: .done), at: F.clock(1), using: &generator)
        expectEqual(kanban.boards[1].role, .done)
        expectEqual(change.boards.first?.roleChange, RoleChange(from: nil, to: .done))
        expectTrue(change.isEffective)
        let again = try kanban.apply(.boardRole(board: "In Progress", role: .done), at: F.clock(2), using: &generator)
        expectTrue(!again.isEffective, "the same role again changes nothing")
        let cleared = try kanban.apply(.boardRole(board: "In Progress", role: nil), at: F.clock(3), using: &generator)
        expectEqual(cleared.boards.first?.roleChange, RoleChange(from: .done, to: nil))
        expectEqual(kanban, F.sample)
        #expect(throws: KanbanError.self) {
            try kanban.apply(.boardRole(board: "Nowhere", role: .done), at: F.clock(4), using: &generator)
        }
        expectEqual(Operation.boardRole(board: "x", role: nil).name, "board role")
    }

    func aPatchAndADiffCarryTheRole() throws {
        let before = F.sample
        var after = before
        try after.setRole(of: 0, to: .active)
        let patch = Patch(from: before, to: after)
        expectEqual(patch.exactlyApplied(to: before), after)
        expectEqual(patch.exactlyUndone(from: after), before)
        let change = Kanban.diff(from: before, to: after)
        expectEqual(change.boards.count, 1)
        expectEqual(change.boards.first?.roleChange, RoleChange(from: nil, to: .active))
    }

    func aRoleChangedOnBothSidesIsARecordedConflictAndOnOneSideIsTaken() throws {
        let base = F.sample
        var ours = base
        try ours.setRole(of: 1, to: .done)
        var theirs = base
        try theirs.setRole(of: 1, to: .backlog)
        try theirs.setRole(of: 0, to: .active)
        let result = Kanban.merge(base: base, ours: ours, theirs: theirs)
        expectEqual(result.kanban.boards[1].role, .done)
        expectEqual(result.kanban.boards[0].role, .active)
        let field = try require(ConflictField(rawValue: "role"))
        expectEqual(
            result.kanban.boards[1].conflicts[field], RecordedConflict(field: field, base: .role(nil), theirs: .role(.backlog)))
        let reread = try KanbanFile.decode(KanbanFile.encode(result.kanban)).kanban
        expectEqual(reread, result.kanban)
        var settled = result.kanban
        let change = try settled.resolveConflicts(of: .board(1), taking: .theirs)
        expectEqual(settled.boards[1].role, .backlog)
        expectEqual(change.boards.first?.roleChange, RoleChange(from: .done, to: .backlog))
        var set = result.kanban
        try set.setRole(of: 1, to: nil)
        expectTrue(set.boards[1].conflicts.isEmpty, "a new role settles the recorded conflict")
    }
}
