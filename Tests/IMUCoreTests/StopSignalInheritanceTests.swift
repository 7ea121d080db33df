import DescriptorProbe
import Foundation
import Testing
@testable import IMUCore

/// A capture thread's wake-up sockets against children the process spawns.
@Suite struct StopSignalInheritanceTests {
    /// A child spawned while a capture runs (posix_spawn, nothing closed on purpose) holds neither
    /// end of its stop signal's socket pair: each capture would leak two descriptors into every
    /// child otherwise.
    @Test func aSpawnedChildHoldsNeitherEndOfTheWakeUpSockets() throws {
        let stop = StopSignal()
        let mine = Descriptors.open(in: getpid())
        let ends = Set(try [stop.readEnd, stop.writeEnd].map { try #require(mine[$0]) })
        try #require(ends.count == 2 && ends.allSatisfy { $0.hasPrefix("socket:") }, "two sockets: \(ends)")
        #expect(try Descriptors.heldBySpawnedChild().isDisjoint(with: ends))
        _ = stop
    }
}
