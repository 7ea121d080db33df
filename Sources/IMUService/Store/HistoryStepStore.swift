import Foundation
import IMUHistory
import IMUServiceClient

/// The daemon's history: IMUHistory's SQLite store, seen through `StepStore`.
public final class HistoryStepStore: StepStore {
    let store: HistoryStore
    private var strandedSaid = false
    /// The settings file in use, named where a notice's fix is a setting (`clock = trust`).
    let configPath: String

    /// Opens or creates the file; a corrupt or foreign one is refused untouched (HistoryError
    /// names the path and the fix). `configPath`: the file imu-stepd read its settings from.
    public init(path: String, retentionDays: Int?, configPath: String) throws {
        store = try HistoryStore(path: path, retentionDays: retentionDays)
        self.configPath = configPath
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

    /// Once: the minutes of earlier boots that never got a date; then each report of minutes of
    /// this boot that could not be placed.
    public func takeNotices() -> [String] {
        var notices: [String] = []
        if !strandedSaid {
            strandedSaid = true
            if let n = try? store.strandedMinuteCount(), n > 0 {
                notices.append("\(counted(n, "minute")) of earlier boots \(n == 1 ? "was" : "were") counted before the wall clock was set and that boot ended first: "
                               + "\(n == 1 ? "it has" : "they have") no date, so no day's total holds \(n == 1 ? "it" : "them") (kept in \(store.path), table unplaced_minutes); "
                               + "give the machine an RTC or NTP at boot, or set clock = trust in \(configPath) if its clock is right")
            }
        }
        if let report = store.takeUnplaceableReport() { notices.append(report.description + (report.fix.map { " Fix: \($0)" } ?? "")) }
        return notices
    }
}
