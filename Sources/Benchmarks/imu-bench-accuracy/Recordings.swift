import Foundation
import IMUCore
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
            // No truth file: not part of the set. One that is there but unreadable was skipped
            // without a word (a recording silently left out of the figures): refused by name.
            guard let data = FileManager.default.contents(atPath: truthPath) else { continue }
            guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                  let steps = object["steps"] as? Int, steps >= 0 else { throw TruthFileError(path: truthPath) }
            let reader = try RecordingReader(path: directory + "/" + file)
            var samples: [MotionSample] = []
            while let sample = try reader.next() { samples.append(sample) }
            result.append(LabelledRecording(name: base, samples: samples, capabilities: reader.capabilities, trueSteps: steps))
        }
        return result
    }
}

/// A `NAME.truth.json` beside a recording that holds no step count: a bad file (exit 2).
struct TruthFileError: DiagnosableError {
    var path: String
    var description: String { "\(path): no step count: a truth file is a JSON object with \"steps\", a whole number ≥ 0" }
    var exitStatus: ExitStatus { .usage }
    var fix: String? { "write it as e.g. {\"steps\": 120}, or delete it to leave its recording out of the set" }
}

/// A data set the bench was asked to read and cannot: a malformed recording (FILE:LINE, exit 2
/// as for every tool, docs/CONTRACTS.md §4), a bad truth file (exit 2), a permission (exit 3),
/// another I/O error (exit 1). Before, Oxford's exited 1, the repo fixtures' were skipped as
/// "none found" and a real-dev recording's error went to standard output with exit 0.
func exitUnreadable(_ error: any Error) -> Never {
    let diagnosable = error as? any DiagnosableError
    StandardErrorLine.write("imu-bench-accuracy: \(String(describing: error).escapedOnOneLine)\n"
                                + (diagnosable?.fix.map { "  fix: \($0.escapedOnOneLine)\n" } ?? ""))
    exit(diagnosable?.exitStatus.rawValue ?? ExitStatus.runtimeFailure.rawValue)
}

/// The package root, from this file's path (Sources/Benchmarks/imu-bench-accuracy/Recordings.swift).
func packageRoot() -> String {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
}
