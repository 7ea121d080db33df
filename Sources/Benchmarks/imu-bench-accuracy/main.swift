import Foundation
import Pedometer

// imu-bench-accuracy: prints step-count accuracy per recording and per set, and core throughput.
// Figures only; nothing is asserted. Build with `swift build -c release --product imu-bench-accuracy`.
//
// Usage: imu-bench-accuracy [--oxford DIR] [--only oxford|fixtures|simulator|speed]...
//   DIR defaults to $IMU_OXFORD_DIR, else ../shared/data/oxford-steps next to the package root.

var arguments = Array(CommandLine.arguments.dropFirst())
var oxfordDirectory = ProcessInfo.processInfo.environment["IMU_OXFORD_DIR"]
    ?? (packageRoot() as NSString).appendingPathComponent("../shared/data/oxford-steps")
var only: Set<String> = []
var traceName: String?
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--oxford":
        guard let value = arguments.first else { fatalError("--oxford needs a directory") }
        oxfordDirectory = value
        arguments.removeFirst()
    case "--only":
        guard let value = arguments.first else { fatalError("--only needs a set name") }
        only.insert(value)
        arguments.removeFirst()
    case "--trace":
        guard let value = arguments.first else { fatalError("--trace needs a recording name") }
        traceName = value
        arguments.removeFirst()
    case "-h", "--help":
        print("usage: imu-bench-accuracy [--oxford DIR] [--only oxford|fixtures|simulator|speed]...")
        exit(0)
    default:
        FileHandle.standardError.write("imu-bench-accuracy: unknown argument \(argument); try --help\n".data(using: .utf8)!)
        exit(2)
    }
}
let selected = only
@MainActor func wanted(_ set: String) -> Bool { selected.isEmpty || selected.contains(set) }

var speedCorpus: [LabelledRecording] = []

if let traceName {
    let recordings = try RecordingSet.load(directory: oxfordDirectory).filter { $0.name.contains(traceName) }
    for recording in recordings { Trace.run(recording) }
    exit(0)
}
if wanted("oxford") || wanted("speed") {
    if FileManager.default.fileExists(atPath: oxfordDirectory) {
        let recordings = try RecordingSet.load(directory: oxfordDirectory)
        if wanted("oxford") { AccuracyReport.run(title: "oxford-steps (\(oxfordDirectory))", recordings) }
        speedCorpus = recordings
    } else {
        print("oxford-steps: skipped, no directory at \(oxfordDirectory) (pass --oxford DIR or set IMU_OXFORD_DIR)")
    }
}
if wanted("fixtures") {
    let directory = packageRoot() + "/Tests/PedometerTests/Fixtures"
    let recordings = (try? RecordingSet.load(directory: directory)) ?? []
    if recordings.isEmpty { print("fixtures: none found in \(directory)") }
    else { AccuracyReport.run(title: "repo fixtures", recordings) }
    if speedCorpus.isEmpty { speedCorpus = recordings }
}
if wanted("simulator") {
    SimulatorReport.run()
}
if wanted("speed") {
    Throughput.run(speedCorpus.isEmpty ? SimulatorReport.speedCorpus() : speedCorpus)
}
