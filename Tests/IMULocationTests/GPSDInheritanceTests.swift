import DescriptorProbe
import Foundation
import GPSFake
import IMULocation
import IMUSimulation
import OffPool
import Testing

/// The connection to gpsd against children the process spawns.
@Suite(.offPool) struct GPSDInheritanceTests {
    /// A child spawned while the client is connected (posix_spawn, nothing closed on purpose)
    /// does not hold the connection: libgps makes its socket without close-on-exec, and a child
    /// holding it would keep gpsd's client open after the daemon closed it.
    @Test(.disabled(if: GPSFake.unavailable != nil, Comment(rawValue: GPSFake.unavailable ?? "")))
    func aSpawnedChildDoesNotHoldTheConnectionToGPSD() throws {
        let fake = try GPSFake(log: NMEAWriter.log((0..<10).map { GNSSFix(time: Double($0), speed: 1.4, accuracy: 3) }))
        let client = try GPSDClient(host: "127.0.0.1", port: fake.port)
        let sockets = Descriptors.tcpSockets(toPort: try #require(Int(fake.port)))
        try #require(sockets.count == 1, "the client holds one connection to gpsd: \(sockets)")
        #expect(!(try Descriptors.heldBySpawnedChild()).contains(sockets[0]))
        withExtendedLifetime((fake, client)) {}
    }
}
