import DescriptorProbe
import Foundation
import Testing
@testable import IMUService

/// imu-stepd's instance lock against children the process spawns.
@Suite struct InstanceLockInheritanceTests {
    static func scratchLock() throws -> String {
        URL(fileURLWithPath: try scratch()).resolvingSymlinksInPath().path + "/imu-stepd.lock"
    }

    /// A child being spawned holds a copy of the lock's descriptor until its exec; a dup(2) is
    /// that copy. A daemon that stops frees the state directory at once, copies or not (a close
    /// alone left it locked, and the next start said "already running").
    @Test func aReleasedLockIsFreeWhileAChildBeingSpawnedHoldsACopy() throws {
        let path = try Self.scratchLock()
        var first: InstanceLock? = try InstanceLock(path: path)
        let copy = try #require(Descriptors.duplicate(of: path), "the lock holds its file once")
        defer { close(copy) }
        _ = first
        first = nil
        _ = try InstanceLock(path: path)
    }

    /// A child spawned while the daemon runs (posix_spawn, nothing closed on purpose) does not
    /// hold the lock file, so it cannot keep a stopped daemon's state directory locked.
    @Test func aSpawnedChildDoesNotHoldTheLock() throws {
        let path = try Self.scratchLock()
        let lock = try InstanceLock(path: path)
        try #require(Descriptors.numbers(referringTo: path).count == 1)
        #expect(!(try Descriptors.heldBySpawnedChild()).contains(path))
        _ = lock
    }
}
