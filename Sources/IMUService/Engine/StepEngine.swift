import Foundation
import IMUServiceClient
import Pedometer
import Synchronization

/// The daemon's core, on a thread of its own: samples → pedometer → history, the commit timer,
/// and the answers to queries. It never reads a sensor (the capture thread does) and never
/// touches D-Bus (the bus thread does), so neither can stall the other.
public final class StepEngine: Sendable {
    let mailbox = Mailbox()
    public let board: StatusBoard
    /// CLOCK_BOOTTIME nanoseconds of the loop's latest turn: the watchdog pings only while it moves.
    let heartbeat = Atomic<Int64>(0)
    private let finished = DispatchSemaphore(value: 0)

    public init(board: StatusBoard) { self.board = board }

    public func send(_ m: EngineMessage) { mailbox.send(m) }

    /// Seconds since the loop last turned.
    public var secondsSinceHeartbeat: Double {
        Double(BootClock.nowNanoseconds() - heartbeat.load(ordering: .relaxed)) / 1e9
    }

    /// Starts the thread and opens the store on it; the calling task is suspended meanwhile. Throws
    /// what opening the store threw (a corrupt or foreign database: the error names the path and
    /// the fix).
    public func start(config: ServiceConfig, clock: any WallClock, log: ServiceLog,
                      makeStore: @escaping @Sendable () throws -> any StepStore,
                      onReset: @escaping @Sendable () -> Void) async throws {
        heartbeat.store(BootClock.nowNanoseconds(), ordering: .relaxed)
        try await OwnThread.start(name: "imukit-engine", noThread: { $0 }, finished: finished) { () throws(any Error) in
            try makeStore()
        } then: { [self] store in
            var state = EngineState(config: config, clock: clock, log: log, store: store, board: board, onReset: onReset)
            state.run(mailbox: mailbox, heartbeat: heartbeat)
        }
    }

    /// Asks the thread to commit and stop; waits up to `seconds`.
    public func stop(waitingUpTo seconds: Double) -> Bool {
        send(.stop)
        return finished.wait(timeout: .now() + seconds) == .success
    }
}
