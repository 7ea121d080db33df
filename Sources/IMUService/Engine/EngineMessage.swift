import Dispatch
import Foundation
import IMUServiceClient
import Pedometer
import Synchronization

/// What the engine thread is asked to do. Everything crosses threads by value.
public enum EngineMessage: Sendable {
    case samples([MotionSample])
    /// Samples the open source lost since its last report, by cause (`SampleLosses.since`).
    case losses(SampleLosses)
    case sensor(SensorReport)
    case query(EngineQuery, reply: @Sendable (EngineAnswer) -> Void)
    case control(ControlCommand, reply: @Sendable (EngineAnswer) -> Void)
    case stop
}

public enum SensorReport: Sendable, Equatable {
    /// A source is open: its description and capture mode ("buffered", "polled", "simulated", ""),
    /// and why that mode when it is not the usual one (SensorMessage; "" otherwise).
    case running(SourceInfo, captureMode: String, reason: String = "")
    /// The sensor is there but cannot be read for now, for the reason given (another reader's
    /// buffer runs and the driver refuses direct reads); the supervisor resumes by itself.
    case waiting(String)
    /// The source failed or vanished, and whether the supervisor tries again (false: the error is
    /// permanent, `RetryableError`, and only Reset reopens it).
    case lost(String, retrying: Bool)
    /// A finite source (a simulation) ended.
    case ended
}

public enum EngineQuery: Sendable, Equatable {
    case totals(from: Date, to: Date)
    case days(from: Date, to: Date, timeZone: TimeZone)
    /// One total per interval between consecutive `bounds` (increasing; QueryIntervals, and
    /// QueryDays in the daemon's own zone, cut by the C library).
    case intervals(bounds: [Date])
    case activities(from: Date, to: Date)
}

public enum ControlCommand: String, Sendable {
    case pause = "Pause", resume = "Resume", reset = "Reset"
}

public enum EngineAnswer: Sendable, Equatable {
    case totals(StepTotals)
    case days([StepTotals])
    case activities([StepActivity])
    case done
    /// A D-Bus error name and a sentence.
    case failure(name: String, message: String)
}

/// The engine's inbox: many senders, one reader that sleeps until a message or a deadline.
final class Mailbox: Sendable {
    private let queue = Mutex<[EngineMessage]>([])
    private let bell = DispatchSemaphore(value: 0)

    func send(_ m: EngineMessage) {
        queue.withLock { $0.append(m) }
        bell.signal()
    }

    /// Waits up to `seconds` for at least one message; returns what is queued.
    func receive(waitingUpTo seconds: Double) -> [EngineMessage] {
        _ = bell.wait(timeout: .now() + max(0, seconds))
        let taken = queue.withLock { q -> [EngineMessage] in defer { q.removeAll() }; return q }
        // Consume the extra signals of messages taken in this batch.
        for _ in 1..<max(1, taken.count) { _ = bell.wait(timeout: .now()) }
        return taken
    }
}
