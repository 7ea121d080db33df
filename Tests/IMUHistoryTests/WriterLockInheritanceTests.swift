import DescriptorProbe
import Foundation
import Testing
@testable import IMUHistory

/// The history's writer lock and database files against children the process spawns (the daemon
/// and the test process start children from other threads at any time).
@Suite struct WriterLockInheritanceTests {
    /// A child being spawned holds a copy of every descriptor from its fork to its exec (O_CLOEXEC
    /// acts only at the exec); a dup(2) is such a copy of the lock's open file description. Once
    /// the first writer is gone a second one gets the history, whatever copies are still open.
    /// With a close alone the flock(2) lasted as long as the copy: "already in use".
    @Test func aReleasedLockIsFreeWhileAChildBeingSpawnedHoldsACopy() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        var first: HistoryStore? = try HistoryStore(path: path, bootID: "b")
        let lockFile = URL(fileURLWithPath: path + ".lock").resolvingSymlinksInPath().path
        let copy = try #require(Descriptors.duplicate(of: lockFile), "the open store holds its lock file once")
        defer { close(copy) }
        _ = first
        first = nil
        let second = try HistoryStore(path: path, bootID: "b")
        _ = second
    }

    /// A child spawned while the store is open (posix_spawn, no descriptor closed on purpose)
    /// holds neither its lock file nor the database: all are opened close-on-exec.
    @Test func aSpawnedChildHoldsNeitherTheLockNorTheDatabase() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        let store = try HistoryStore(path: path, bootID: "b")
        let ours = Set(Descriptors.open(in: getpid()).values).filter { $0.hasPrefix(URL(fileURLWithPath: dir.path("")).resolvingSymlinksInPath().path) }
        try #require(ours.count >= 2, "the store holds its database and lock file open: \(ours)")
        let held = try Descriptors.heldBySpawnedChild()
        #expect(held.intersection(ours).isEmpty)
        _ = store
    }
}
