import Dispatch
import Synchronization

/// A `HistoryStore` that lives on its own serial dispatch queue. SQLite blocks on disk I/O (an
/// fsync per commit, tens of ms on an SD card), so the store's calls run there, never on Swift's
/// cooperative pool; an async caller is suspended meanwhile.
final class StoreQueue: Sendable {
    private let queue: DispatchQueue
    private let store: Mutex<HistoryStore>

    init(label: String, _ open: () throws -> HistoryStore) rethrows {
        queue = DispatchQueue(label: label)
        store = Mutex(try open())
    }

    /// Runs `body` on the queue and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable (HistoryStore) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.store.withLock { try body($0) } })
            }
        }
    }

    /// Queues `body` without waiting for it (calls queued later run after it).
    func enqueue(_ body: @escaping @Sendable (HistoryStore) -> Void) {
        queue.async { self.store.withLock { body($0) } }
    }
}
