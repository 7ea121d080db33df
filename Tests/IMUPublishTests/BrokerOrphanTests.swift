import DaemonGuard
import Foundation
import OffPool
import Testing

/// The broker harness leaves no mosquitto behind when the test process dies, even by SIGKILL
/// (a crashed or timed-out run): checked on a child test process running `probe`.
@Suite(.offPool, .enabled(if: MosquittoBroker.available, Comment(rawValue: MosquittoBroker.skipMessage)))
struct BrokerOrphanTests {
    @Test func aKilledTestProcessLeavesNoBroker() throws {
        let (group, survivors) = try OrphanCheck.survivors(afterKillingProbe: "BrokerOrphanTests/probe")
        #expect(survivors.isEmpty, "mosquitto (group \(group)) outlived its killed test process by \(OrphanCheck.exitPatience) s: \(survivors)")
    }

    @Test(.enabled(if: OrphanCheck.reportPath != nil, "the child process of aKilledTestProcessLeavesNoBroker"))
    func probe() throws {
        let broker = try MosquittoBroker()
        try withExtendedLifetime(broker) { try OrphanCheck.report(group: broker.pid, to: OrphanCheck.reportPath!) }
    }
}
