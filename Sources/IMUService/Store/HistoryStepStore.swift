import Foundation
import IMUHistory
import IMUServiceClient

/// The daemon's history: IMUHistory's SQLite store, seen through `StepStore`.
public final class HistoryStepStore: StepStore {
    let store: HistoryStore

    /// Opens or creates the file; a corrupt or foreign one is refused untouched (HistoryError
    /// names the path and the fix).
    public init(path: String, retentionDays: Int?) throws {
        store = try HistoryStore(path: path, retentionDays: retentionDays)
    }

    public func record(_ events: [PedometerEvent], snapshot: PedometerSnapshot, mapping: BootTimeMapping?) {
        store.record(events, snapshot: snapshot, mapping: mapping)
    }
    public func recordPause(bootSeconds: Double) { store.recordPause(bootSeconds: bootSeconds) }
    public func recordResume(bootSeconds: Double) { store.recordResume(bootSeconds: bootSeconds) }
    public func commit() throws { try store.commit() }

    public func totals(from: Date, to: Date) throws -> StepTotals { try store.totals(from: from, to: to) }

    public func days(from: Date, to: Date, timeZone: TimeZone) throws -> [StepTotals] {
        try store.days(from: from, to: to, timeZone: timeZone)
    }

    public func activities(from: Date, to: Date) throws -> [StepActivity] { try store.activities(from: from, to: to) }
}
