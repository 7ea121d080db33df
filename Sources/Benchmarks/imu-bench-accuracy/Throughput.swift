import Foundation
import Pedometer
import IMUSimulation

enum Throughput {
    /// Samples per second through `Pedometer.process` on pre-loaded samples (parsing not timed).
    static func run(label: String, _ recordings: [LabelledRecording]) {
        guard !recordings.isEmpty else { print("speed: no samples to time"); return }
        let once = recordings.reduce(0) { $0 + $1.samples.count }
        // Repeat small corpora so each timed run covers at least two million samples.
        let repeats = max(1, 2_000_000 / max(once, 1))
        let total = once * repeats
        var events: [PedometerEvent] = []
        events.reserveCapacity(1 << 16)
        var best = Double.infinity
        var checksum = 0
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<repeats { for recording in recordings {
                var pedometer = Pedometer(capabilities: recording.capabilities)
                for sample in recording.samples { pedometer.process(sample, into: &events) }
                pedometer.finish(into: &events)
                checksum &+= pedometer.snapshot.steps
                events.removeAll(keepingCapacity: true)
            } }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            best = min(best, seconds)
        }
        print(String(format: "%@: %d samples in %.3f s: %.2f million samples/s on one core (target ≥ 5), checksum %d",
                     label, total, best, Double(total) / best / 1e6, checksum))
    }

    /// Memory: the core's state is fixed-size; a 10× longer stream must not grow the process.
    static func memoryNote() {
        let options = SimulationOptions()
        var simulator = Simulator(scenario: Scenario.named("walk")!, options: options)
        var pedometer = Pedometer(capabilities: options.capabilities)
        var events: [PedometerEvent] = []
        events.reserveCapacity(1024)
        var samples: [MotionSample] = []
        while let s = simulator.next() { samples.append(s) }
        let span = (samples.last?.time ?? 0) - (samples.first?.time ?? 0) + 0.01
        func feed(_ times: Int) {
            for k in 0..<times {
                for var s in samples { s.time += Double(k) * span; pedometer.process(s, into: &events) }
                events.removeAll(keepingCapacity: true)
            }
        }
        feed(2)
        let before = residentKilobytes()
        feed(20)
        let after = residentKilobytes()
        print("memory: Pedometer is \(MemoryLayout<Pedometer>.size) bytes inline plus fixed ring buffers (about 5 s at the internal \(Int(Pedometer.internalRateHz)) Hz); " +
              "resident set \(before) kB after 4 min of walking, \(after) kB after 44 min (constant in the stream length)")
    }

    /// Resident set size from /proc/self/statm, kB (0 when unavailable).
    static func residentKilobytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}
