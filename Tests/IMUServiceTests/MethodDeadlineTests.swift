import Foundation
import IMUServiceClient
import OffPool
import Testing
@testable import IMUService

/// The bus thread never waits for the engine: with the storage stuck, properties answer at once
/// and methods answer Error.TimedOut at the deadline. On a real private dbus-daemon, with busctl.
@Suite(.offPool) struct MethodDeadlineTests {
    @Test func aStuckEngineStillAnswersWithinTheDeadline() async throws {
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed"); return }
        var config = ServiceConfig()
        config.bus = .address(bus.address)
        config.methodDeadlineSeconds = 1
        let h = try await EngineHarness(config: config)
        let loop = BusLoop(wakeup: h.engine.board.wakeup)
        try await loop.start(config: config, engine: h.engine, notifier: SystemdNotifier(), log: ServiceLog(environment: [:]), onFailure: { _ in })
        defer { loop.stop(waitingUpTo: 2) }
        h.faults.stallQueriesSeconds.withLock { $0 = 4 }

        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let call = try bus.call("QueryTotals", "xx", ["\(now - 1_000_000)", "\(now)"])
        #expect(call.status != 0 && call.stderr.contains("no answer within"), "\(call.stderr)")
        #expect(call.seconds < 2.5, "answered after \(call.seconds) s with a 1 s deadline")
        // The engine is still inside the stuck query: properties come from the published state.
        let property = try bus.busctl(["get-property", "io.github.imukit.StepService1", "/io/github/imukit/StepService1",
                                       "io.github.imukit.StepService1", "SensorState"])
        #expect(property.status == 0 && property.seconds < 1, "\(property.stderr) after \(property.seconds) s")
        h.faults.stallQueriesSeconds.withLock { $0 = 0 }
        _ = h.engine.stop(waitingUpTo: 10)
    }
}
