import FoundationEssentials

/// The history's queries as an async API, for any program that reads a history file (the
/// library's side of `CMPedometer.queryPedometerData(from:to:)` and
/// `CMMotionActivityManager.queryActivityStarting(from:to:)`).
///
/// SQLite blocks on disk I/O, so every query runs on the reader's own serial dispatch queue, never
/// on Swift's cooperative pool; the caller's task is suspended meanwhile. The file is opened
/// read-only (`HistoryStore(readingFrom:)`) and may be written by a daemon at the same time: WAL
/// lets a reader see the last commit without blocking the writer.
public final class HistoryReader: Sendable {
    public let path: String
    private let store: StoreQueue

    /// Opens the history at `path` for reading. Throws `HistoryError` (missing, foreign, damaged…).
    public init(path: String) throws {
        self.path = path
        store = try StoreQueue(label: "imukit.history.reader") { try HistoryStore(readingFrom: path) }
    }

    /// Totals of the minutes that start within `[from, to)`.
    public func totals(from: Date, to: Date) async throws -> HistoryTotals {
        try await run { try $0.totals(from: from, to: to) }
    }

    /// Totals of the local day of `timeZone` containing `date`, up to `date` (today so far).
    public func today(until date: Date = Date(), in timeZone: TimeZone = .current) async throws -> HistoryTotals {
        try await run { try $0.today(until: date, in: timeZone) }
    }

    /// One entry per local day of `timeZone` overlapping `[from, to)` (DST-correct days).
    public func days(from: Date, to: Date, timeZone: TimeZone) async throws -> [HistoryTotals] {
        try await run { try $0.days(from: from, to: to, timeZone: timeZone) }
    }

    /// The activity segments overlapping `[from, to)`, oldest first.
    public func activities(from: Date, to: Date) async throws -> [HistoryActivity] {
        try await run { try $0.activities(from: from, to: to) }
    }

    /// The pause/resume markers within `[from, to)`, oldest first.
    public func markers(from: Date, to: Date) async throws -> [HistoryMarker] {
        try await run { try $0.markers(from: from, to: to) }
    }

    /// Totals as `PedometerData`, like `CMPedometer.queryPedometerData(from:to:)`. The file does not
    /// say which sensors counted, so distance and floors are always present (0 without them).
    public func pedometerData(from: Date, to: Date) async throws -> PedometerData {
        let totals = try await totals(from: from, to: to)
        return PedometerData(startDate: from, endDate: to, numberOfSteps: totals.steps, distance: totals.distanceMeters,
                             floorsAscended: totals.floorsAscended, floorsDescended: totals.floorsDescended,
                             averageActivePace: totals.distanceMeters > 0 ? totals.activeSeconds / totals.distanceMeters : nil)
    }

    private func run<T: Sendable>(_ query: @escaping @Sendable (HistoryStore) throws -> T) async throws -> T {
        try await store.run(query)
    }
}
