import Foundation
import Pedometer

/// A recording with its true step count, loaded into memory so parsing is not timed.
struct LabelledRecording {
    var name: String
    var samples: [MotionSample]
    var capabilities: SensorCapabilities
    var trueSteps: Int
}

enum RecordingSet {
    /// Every `NAME.csv` in `directory` that has a `NAME.truth.json` with a `steps` count, sorted by name.
    static func load(directory: String) throws -> [LabelledRecording] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".csv") }
            .sorted()
        var result: [LabelledRecording] = []
        for file in names {
            let base = String(file.dropLast(4))
            let truthPath = directory + "/" + base + ".truth.json"
            guard let data = FileManager.default.contents(atPath: truthPath),
                  let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let steps = object["steps"] as? Int else { continue }
            let reader = try RecordingReader(path: directory + "/" + file)
            var samples: [MotionSample] = []
            while let sample = try reader.next() { samples.append(sample) }
            result.append(LabelledRecording(name: base, samples: samples, capabilities: reader.capabilities, trueSteps: steps))
        }
        return result
    }
}

/// The package root, from this file's path (Sources/Benchmarks/imu-bench-accuracy/Recordings.swift).
func packageRoot() -> String {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
}
