import Foundation
import Pedometer

enum Throughput {
    /// Samples per second through `Pedometer.process` on pre-loaded samples (parsing not timed).
    static func run(_ recordings: [LabelledRecording]) {
        guard !recordings.isEmpty else { print("speed: no samples to time"); return }
        let total = recordings.reduce(0) { $0 + $1.samples.count }
        var events: [PedometerEvent] = []
        events.reserveCapacity(1 << 16)
        var best = Double.infinity
        var checksum = 0
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            for recording in recordings {
                var pedometer = Pedometer(capabilities: recording.capabilities)
                for sample in recording.samples { pedometer.process(sample, into: &events) }
                pedometer.finish(into: &events)
                checksum &+= pedometer.snapshot.steps
                events.removeAll(keepingCapacity: true)
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            best = min(best, seconds)
        }
        print("== core throughput")
        print(String(format: "%d samples in %.3f s: %.2f million samples/s on one core (target ≥ 5), checksum %d",
                     total, best, Double(total) / best / 1e6, checksum))
        print("memory: Pedometer state is \(MemoryLayout<Pedometer>.size) bytes inline plus fixed ring buffers " +
              "(about 4 s of 50 Hz history); nothing grows with the recording length")
    }
}
