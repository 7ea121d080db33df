import FoundationEssentials

/// A `HistoryStore` for async code (a daemon built on Swift concurrency): the same recording,
/// commits and queries, run on the writer's own serial dispatch queue so that SQLite's blocking
/// I/O never occupies the cooperative pool. Calls run in the order they are made.
public final class HistoryWriter: Sendable {
    public let path: String
    private let store: StoreQueue

    /// Opens or creates the history (see `HistoryStore.init(path:retentionDays:)`). Opening checks
    /// every page of the file, so call it from a task that may wait, or before the async world starts.
    public init(path: String, retentionDays: Int? = nil) throws {
        self.path = path
        store = try StoreQueue(label: "imukit.history.writer") { try HistoryStore(path: path, retentionDays: retentionDays) }
    }

    /// Queues a batch (see `HistoryStore.record`); returns at once.
    public func record(_ events: [PedometerEvent], snapshot: PedometerSnapshot, mapping: BootTimeMapping?) {
        store.enqueue { $0.record(events, snapshot: snapshot, mapping: mapping) }
    }

    public func recordPause(bootSeconds: Double) { store.enqueue { $0.recordPause(bootSeconds: bootSeconds) } }
    public func recordResume(bootSeconds: Double) { store.enqueue { $0.recordResume(bootSeconds: bootSeconds) } }

    /// Writes what was recorded before this call (see `HistoryStore.commit`: on a full disk it
    /// throws `HistoryError.diskFull` and keeps the minutes for the next commit).
    public func commit() async throws { try await store.run { try $0.commit() } }

    public func totals(from: Date, to: Date) async throws -> HistoryTotals {
        try await store.run { try $0.totals(from: from, to: to) }
    }

    public func today(until date: Date = Date(), in timeZone: TimeZone = .current) async throws -> HistoryTotals {
        try await store.run { try $0.today(until: date, in: timeZone) }
    }

    public func days(from: Date, to: Date, timeZone: TimeZone) async throws -> [HistoryTotals] {
        try await store.run { try $0.days(from: from, to: to, timeZone: timeZone) }
    }

    public func activities(from: Date, to: Date) async throws -> [HistoryActivity] {
        try await store.run { try $0.activities(from: from, to: to) }
    }

    public func markers(from: Date, to: Date) async throws -> [HistoryMarker] {
        try await store.run { try $0.markers(from: from, to: to) }
    }

    /// The state a status report needs: the last commit's error (nil after a success), the
    /// minutes waiting in memory, and the minutes waiting for the wall clock.
    public func status() async throws -> HistoryStatus {
        try await store.run { HistoryStatus(lastCommitError: $0.lastCommitError, bufferedMinutes: $0.bufferedMinuteCount,
                                            unplacedMinutes: try $0.unplacedMinuteCount()) }
    }
}

/// What a `HistoryWriter` reports about itself.
public struct HistoryStatus: Sendable, Equatable {
    /// The error of the last failed commit (a full disk), nil once a commit succeeded.
    public var lastCommitError: HistoryError?
    /// Minutes recorded but not committed.
    public var bufferedMinutes: Int
    /// Minutes waiting for the wall clock to be synchronised (any boot).
    public var unplacedMinutes: Int
}
