import DescriptorProbe
import Foundation
import GPSFake
@testable import IMULocation
import IMUSimulation
import OffPool
import Testing

/// The connection to gpsd against children the process spawns.
@Suite(.offPool) struct GPSDInheritanceTests {
    /// A child spawned while the client is connected (posix_spawn, nothing closed on purpose)
    /// does not hold the connection: libgps makes its socket without close-on-exec, and a child
    /// holding it would keep gpsd's client open after the daemon closed it.
    ///
    /// The connection looked at is the client's own descriptor. The test counted every TCP socket
    /// of this process to gpsd's port and required one: under `swift test --parallel` another
    /// test's client in the same process (GPSSpeedFeedTests' feed retries its port every 2 s
    /// while its gpsd is down; ports are handed out again once free) can hold sockets to the same
    /// port, and the count read 3. The client itself makes one socket (its reachability probe is
    /// closed before gps_open; 13 clients at once, each beside the others, saw one each).
    @Test(.disabled(if: GPSFake.unavailable != nil, Comment(rawValue: GPSFake.unavailable ?? "")))
    func aSpawnedChildDoesNotHoldTheConnectionToGPSD() throws {
        let fake = try GPSFake(log: NMEAWriter.log((0..<10).map { GNSSFix(time: Double($0), speed: 1.4, accuracy: 3) }))
        // Another connection of this process to the same gpsd, as another test's client would
        // hold one: the old count of the process's sockets read 2 here.
        try fake.addWatchingClient(settle: 0)
        let client = try GPSDClient(host: "127.0.0.1", port: fake.port)
        let connection = try #require(Descriptors.open(in: getpid())[client.descriptor], "the client's descriptor \(client.descriptor) is open")
        let toGPSD = Descriptors.tcpSockets(toPort: try #require(Int(fake.port)))
        try #require(toGPSD.contains(connection), "the client's descriptor is a connection to gpsd: \(connection), sockets to the port: \(toGPSD)")
        #expect(!(try Descriptors.heldBySpawnedChild()).contains(connection))
        withExtendedLifetime((fake, client)) {}
    }
}
