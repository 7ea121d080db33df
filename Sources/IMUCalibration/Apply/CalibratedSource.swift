/// A source whose samples pass through a calibration: what every tool reads once a sensor has
/// been calibrated. Cancelling the consumer cancels the wrapped source.
public struct CalibratedSource: SampleSource {
    public let base: any SampleSource
    public let calibration: Calibration
    public var info: SourceInfo { base.info }
    public var losses: SampleLosses { base.losses }

    public init(_ base: any SampleSource, calibration: Calibration) {
        self.base = base
        self.calibration = calibration
    }

    public func batches() -> AsyncThrowingStream<[MotionSample], any Error> {
        let upstream = base.batches()
        let calibration = self.calibration
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await batch in upstream {
                        continuation.yield(batch.map(calibration.apply))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
