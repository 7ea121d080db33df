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
        // Every connection of this process to the broker's port, not "exactly one": under swift
        // test --parallel another test of the process may hold one to the same port (as
        // GPSDInheritanceTests saw: 3 sockets for 1), and the child must hold none of them.
        let sockets = Descriptors.tcpSockets(toPort: broker.port)
        try #require(!sockets.isEmpty, "the publisher holds a connection to the broker")
        let held = try Descriptors.heldBySpawnedChild()
        #expect(held.isDisjoint(with: sockets), "a spawned child holds \(held.intersection(sockets)) of \(sockets)")
    }
}
