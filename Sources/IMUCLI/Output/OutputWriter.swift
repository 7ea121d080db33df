import Dispatch
import Synchronization

/// The thread where every `OutputStream`'s `write(2)` runs: a serial queue with a label, which
/// libdispatch runs on a thread of its own, not on the Swift concurrency pool
/// (docs/concurrency.md). One queue for standard output and standard error, and the chunks in
/// one list, so text reaches them in the order it was handed over (an error after the output it
/// follows, also with `2>&1`).
///
/// Handing over never waits: the bytes join the list, and the queue is woken only when it has
/// nothing to do. While it writes, later hand-overs join the list (one of the same stream in a
/// row joins the last chunk), so a producer faster than the descriptor costs no wake-up each.
final class OutputWriter: Sendable {
    static let shared = OutputWriter()

    private let queue = DispatchQueue(label: "imukit.output")

    private struct Chunk {
        let stream: OutputStream
        var bytes: [UInt8]
    }
    private struct State: ~Copyable {
        var chunks: [Chunk] = []
        /// Is a job on the queue, or running?
        var scheduled = false
    }
    private let state = Mutex(State())

    /// Queues `bytes` (taken, left empty) for `stream`'s descriptor.
    func hand(_ bytes: inout [UInt8], from stream: OutputStream) {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        let wake = state.withLock { s -> Bool in
            if let last = s.chunks.indices.last, s.chunks[last].stream === stream {
                s.chunks[last].bytes.append(contentsOf: taken)
            } else {
                s.chunks.append(Chunk(stream: stream, bytes: taken))
            }
            guard !s.scheduled else { return false }
            s.scheduled = true
            return true
        }
        if wake { queue.async { self.drain() } }
    }

    /// Runs `work` on the queue in `seconds` (`OutputStream.flushed()`'s hand-over).
    func after(seconds: Double, _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + seconds, execute: work)
    }

    /// On the queue: writes chunks in order until none is left.
    private func drain() {
        while true {
            let chunks = state.withLock { s -> [Chunk] in
                if s.chunks.isEmpty { s.scheduled = false }
                var taken: [Chunk] = []
                swap(&taken, &s.chunks)
                return taken
            }
            if chunks.isEmpty { return }
            for chunk in chunks { chunk.stream.writeOut(chunk.bytes) }
        }
    }
}
