import Foundation
import Pedometer

/// A real-dev recording with its truth; samples carry the `gnss_speed` column where it has one.
struct RealRecording {
    var name: String
    var samples: [MotionSample]
    var capabilities: SensorCapabilities
    var trueSteps: Int
    var trueActivity: String?

    /// Whether the recording has ground speed.
    var hasSpeed: Bool { samples.contains { $0.gnssSpeed != nil } }

    /// The samples without their ground speed: the IMU alone.
    var imuOnly: [MotionSample] { samples.map { var s = $0; s.gnssSpeed = nil; return s } }
}

enum RealDev {
    /// The folder, from IMU_REALDEV_DIR or ../shared/data/real-dev beside the package.
    static var directory: String {
        ProcessInfo.processInfo.environment["IMU_REALDEV_DIR"] ?? packageRoot() + "/../shared/data/real-dev"
    }

    /// Recordings whose names start with one of `prefixes`; empty when the folder is absent.
    static func load(prefixes: [String]) throws -> [RealRecording] {
        let dir = directory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        var result: [RealRecording] = []
        for file in names.sorted() where file.hasSuffix(".csv") && prefixes.contains(where: { file.hasPrefix($0) }) {
            let base = String(file.dropLast(4))
            guard let data = FileManager.default.contents(atPath: dir + "/" + base + ".truth.json"),
                  let truth = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let steps = truth["steps"] as? Int else { continue }
            let reader = try RecordingReader(path: dir + "/" + file)
            var samples: [MotionSample] = []
            while let s = try reader.next() { samples.append(s) }
            result.append(RealRecording(name: base, samples: samples, capabilities: reader.capabilities,
                                        trueSteps: steps, trueActivity: truth["activity"] as? String))
        }
        return result
    }
}

/// The package root, from this file's path (Sources/Benchmarks/imu-bench-activity/RealRides.swift).
func packageRoot() -> String {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
}
