/// A recording played back as a sample source: as fast as possible (for `--replay FILE`), or paced
/// in real time by its own timestamps (`--replay FILE --realtime`), so the live view can be shown on it.
public struct RecordingSource: SampleSource {
    public let path: String
    /// Playback speed: `.infinity` = as fast as possible; 1 = real time.
    public let speed: Double
    public let info: SourceInfo
    /// Samples per batch when reading as fast as possible: large enough that per-batch costs vanish.
    static let fastBatch = 4096

    /// Opens the file and reads its header now, so a missing or malformed header fails before any output.
    public init(path: String, speed: Double = .infinity) throws {
        let reader = try RecordingReader(path: path)
        self.path = path
        self.speed = speed
        let label = reader.comments.first(where: { $0.hasPrefix("sensor:") }).map { " (\($0))" } ?? ""
        info = SourceInfo(name: "recording \(path)\(label)", calibrationKey: "replay:\(path)",
                          capabilities: reader.capabilities)
    }

    public func batches() -> AsyncThrowingStream<[MotionSample], any Error> {
        let path = self.path, speed = self.speed
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let reader = try RecordingReader(path: path)
                    if speed.isInfinite {
                        while !Task.isCancelled {
                            var batch: [MotionSample] = []
                            batch.reserveCapacity(Self.fastBatch)
                            guard try reader.read(into: &batch, maximum: Self.fastBatch) > 0 else { break }
                            continuation.yield(batch)
                        }
                    } else {
                        try await Self.pace(reader, speed: speed, continuation)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Yields samples in half-second (recording time) batches, sleeping so that recording time advances
    /// at `speed` × wall time.
    private static func pace(_ reader: RecordingReader, speed: Double,
                             _ continuation: AsyncThrowingStream<[MotionSample], any Error>.Continuation) async throws {
        let batchSeconds = 0.5   // two hand-overs a second, the cadence of the live sources (issue 11: <= 10 wake-ups/s)
        let wallStart = BootClock.nowSeconds()
        var firstTime: Double?
        var batch: [MotionSample] = []
        while let s = try reader.next() {
            if Task.isCancelled { return }
            let t0 = firstTime ?? s.time
            firstTime = t0
            batch.append(s)
            if s.time - batch[0].time >= batchSeconds {
                let due = wallStart + (s.time - t0) / speed
                let wait = due - BootClock.nowSeconds()
                if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
                continuation.yield(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { continuation.yield(batch) }
    }
}
