import Foundation
import Pedometer

/// A real-dev recording with its truth and, where it has one, the `gnss_speed` column.
struct RealRecording {
    var name: String
    var samples: [MotionSample]
    var capabilities: SensorCapabilities
    var trueSteps: Int
    var trueActivity: String?
    var speeds: [GroundSpeed]
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
                                        trueSteps: steps, trueActivity: truth["activity"] as? String,
                                        speeds: try speedColumn(path: dir + "/" + file)))
        }
        return result
    }

    /// The `gnss_speed` column (m/s), one reading where its value changes (the files hold the
    /// last fix between fixes). The recording reader ignores the column until the recording
    /// format gains it (docs/CONTRACTS.md §2); until then the benchmark reads it here.
    static func speedColumn(path: String) throws -> [GroundSpeed] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var header: [Substring]?
        var tIndex = 0, vIndex = -1
        var result: [GroundSpeed] = []
        var last: Substring?
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard header != nil else {
                header = fields
                tIndex = fields.firstIndex(of: "t") ?? 0
                guard let v = fields.firstIndex(of: "gnss_speed") else { return [] }
                vIndex = v
                continue
            }
            guard vIndex < fields.count, tIndex < fields.count else { continue }
            let field = fields[vIndex]
            guard field != last else { continue }
            last = field
            guard let t = Double(fields[tIndex]), let v = Double(field), v.isFinite else { continue }
            result.append(GroundSpeed(time: t, metersPerSecond: v, accuracy: nil))
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
