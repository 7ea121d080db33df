import Dispatch
import Foundation
import OffPool
import Testing
@testable import IMUCore
@testable import IMUPublish

/// The broker's name looked up within the connection's deadline (`ConnectOutcome.resolve`,
/// `HostLookup`): getaddrinfo waited as long as the resolver liked (30 s by default on a DNS
/// server that never answers), and then libmosquitto looked the name up again, with no deadline
/// at all. The resolver is injected: one that never answers.
@Suite(.offPool) struct BrokerLookupDeadlineTests {
    @Test func aResolverThatNeverAnswersIsSaidWithinTheDeadline() throws {
        let never = DispatchSemaphore(value: 0)
        defer { never.signal() }
        let settings = MQTTSettings(broker: BrokerAddress(host: "broker.test", port: 1883, usesTLS: false), deviceID: "lookup-deadline")
        let session = try MosquittoSession(clientID: "imukit-lookup-deadline", settings: settings, credentials: nil)
        let began = Date()
        let outcome = session.connect(to: settings.broker, keepAliveSeconds: 60, timeout: 10) { host, port in
            HostLookup.addresses(host: host, port: port, within: ConnectOutcome.timeout) { _, _ in
                never.wait()
                return .success([])
            }
        }
        let took = Date().timeIntervalSince(began)
        // 1 s above the deadline: a loaded machine's scheduling, not a second wait.
        #expect(took < ConnectOutcome.timeout + 1, "took \(took) s")
        #expect(outcome == .unresolved(HostLookup.timedOut(host: "broker.test", within: ConnectOutcome.timeout).reason), "\(outcome)")
    }
}
