import Foundation
import IMUCore
import IMULocation
import LoopbackListener
import OffPool
import Testing

/// `GPSDClient` connects within `ConnectOutcome.timeout` whatever a gpsd host's addresses do
/// (sweep28). The addresses are injected (a name of the test's own, `gpsd.invalid`, RFC 6761:
/// never resolvable), each a real socket on the loopback: a gpsd stand-in (`ScriptedGPSD`), or an
/// address that never answers (`SilentListener`: backlog full, the kernel drops every SYN, as for
/// a host that is off or a firewall that drops).
/// A minute's limit from when `OffPoolGate` admits the test (`.timeLimitAfterGate`): Swift
/// Testing's `.timeLimit` counts the wait at the gate too, which in a full `swift test --parallel`
/// was 365 s (both tests failed at 60 s while they waited for a slot; sweep28 raised it to 15 min).
/// Each test times the connect itself, against `ConnectOutcome.timeout`; the old blocking connect
/// took about 2 min, which the limit ends.
@Suite(.offPool) struct GPSDConnectDeadlineTests {
    static let name = "gpsd.invalid"

    /// A name whose first address never answers and whose second is gpsd: the probe found the
    /// second, and then libgps was handed the name, resolved it itself and connected to its
    /// addresses in turn, blocking (about 2 min on the first). It gets the digits that answered now.
    @Test(.timeLimitAfterGate(.seconds(60))) func aNameWhoseFirstAddressNeverAnswersIsReadAtTheOneThatDoes() throws {
        let silent = try #require(SilentListener(address: "127.0.0.2"), "no socket at 127.0.0.2")
        let gpsd = try GPSDReportTests.ScriptedGPSD([(GPSDReportTests.tpv, 0.05)])
        let addresses = [try #require(ResolvedAddress("127.0.0.2", port: silent.port)),
                         try #require(ResolvedAddress("127.0.0.1", port: Int(gpsd.port)!))]
        let start = BootClock.nowSeconds()
        let client = try GPSDClient(host: Self.name, port: GPSDClient.defaultPort, resolve: { _, _ in .success(addresses) })
        // gpsd on the loopback accepts within milliseconds: the wait is the probe's alone.
        #expect(BootClock.nowSeconds() - start < ConnectOutcome.timeout, "connected after \(BootClock.nowSeconds() - start) s")
        try client.setWatching(true)
        #expect(GPSDReportTests.speeds(GPSDReportTests.readAll(client, limit: 5).reports) == [5.0])
    }

    /// A name none of whose addresses answers: an error within the deadline (plus scheduling), naming
    /// gpsd's host:port, each address tried, what happened and the fix.
    @Test(.timeLimitAfterGate(.seconds(60))) func aNameNoneOfWhoseAddressesAnswersFailsWithinTheDeadline() throws {
        let first = try #require(SilentListener(address: "127.0.0.2"), "no socket at 127.0.0.2")
        let second = try #require(SilentListener(address: "127.0.0.3"), "no socket at 127.0.0.3")
        let addresses = [try #require(ResolvedAddress("127.0.0.2", port: first.port)),
                         try #require(ResolvedAddress("127.0.0.3", port: second.port))]
        let start = BootClock.nowSeconds()
        do {
            _ = try GPSDClient(host: Self.name, port: GPSDClient.defaultPort, resolve: { _, _ in .success(addresses) })
            Issue.record("connected to addresses that never answer")
        } catch {
            // 1 s above the deadline: a loaded machine's scheduling, not a second wait.
            #expect(BootClock.nowSeconds() - start < ConnectOutcome.timeout + 1)
            #expect(error.description == "gpsd at gpsd.invalid:2947 is not reachable (\(ConnectOutcome.timedOut); "
                        + "tried gpsd.invalid at 127.0.0.2 and 127.0.0.3); start it (systemctl start gpsd)", "\(error)")
        }
    }
}
