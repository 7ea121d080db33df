import DescriptorProbe
import Foundation
import OffPool
import Testing
@testable import IMUPublish

/// The connection to the MQTT broker against children the process spawns.
@Suite(.offPool, .enabled(if: MosquittoBroker.available, Comment(rawValue: MosquittoBroker.skipMessage)))
struct BrokerInheritanceTests {
    /// A child spawned while the publisher is connected (posix_spawn, nothing closed on purpose)
    /// does not hold the connection: libmosquitto makes its socket without close-on-exec, and a
    /// child holding it would keep the session open, so the broker would not publish the last
    /// will when the daemon dies.
    @Test func aSpawnedChildDoesNotHoldTheConnectionToTheBroker() throws {
        let broker = try MosquittoBroker()
        let publisher = try MQTTPublisher(settings: MQTTSettings(broker: BrokerAddress(host: "127.0.0.1", port: broker.port, usesTLS: false),
                                                                 deviceID: "inherit"), softwareVersion: "1", log: { _ in })
        defer { publisher.stop() }
        try #require(eventually(10) { publisher.status.connected })
        let sockets = Descriptors.tcpSockets(toPort: broker.port)
        try #require(sockets.count == 1, "the publisher holds one connection to the broker: \(sockets)")
        #expect(!(try Descriptors.heldBySpawnedChild()).contains(sockets[0]))
    }
}
