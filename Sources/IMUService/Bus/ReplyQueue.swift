import Synchronization

/// Answers from the engine waiting for the bus thread, which alone may touch the connection.
final class ReplyQueue: Sendable {
    private let items = Mutex<[(id: Int, answer: EngineAnswer)]>([])
    let wakeup: Wakeup

    init(wakeup: Wakeup) { self.wakeup = wakeup }

    func post(id: Int, _ answer: EngineAnswer) {
        items.withLock { $0.append((id, answer)) }
        wakeup.signal()
    }

    func take() -> [(id: Int, answer: EngineAnswer)] {
        items.withLock { q in defer { q.removeAll() }; return q }
    }
}
