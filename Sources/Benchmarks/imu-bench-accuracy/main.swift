import BenchArguments
import IMUCore
import Foundation
import Pedometer
import IMUSimulation

// imu-bench-accuracy: prints step-count accuracy per recording and per set, and core throughput.
// Figures only; nothing is asserted. Build with `swift build -c release --product imu-bench-accuracy`.
//
// Usage: imu-bench-accuracy [--oxford DIR] [--only oxford|realdev|shortwalks|daily|fixtures|simulator|floors|speed]... [--rate HZ] [--trace NAME]
//   --rate HZ limits the simulated speed runs to one input rate (for profiling); with --trace, it
//   traces a recording averaged down to that rate.
//   --trace NAME prints each analysis window of the recordings whose name holds NAME, then each
//   bout's pause, edges and step times (Trace).
//   With TRACE_SHIFT_MS=MS in the environment, an oxford recording is traced started MS ms later
//   (its first samples dropped), as `AccuracyReport.gridPhase` shifts the grid: where a walk's
//   count moves with the grid's phase, the two traces show which window reads differently.
//   --trace short:NAME traces the real-dev trial NAME's session of short walks (SplicedBoutsReport).
//   DIR defaults to $IMU_OXFORD_DIR, else ../shared/data/oxford-steps next to the package root
//   (skipped when absent); a --oxford DIR that is not a directory is a usage error (exit 2).
//   A malformed recording or truth file in any set stops the bench: FILE:LINE and the fix, exit 2.

var arguments = Array(CommandLine.arguments.dropFirst())
var oxfordDirectory = ProcessInfo.processInfo.environment["IMU_OXFORD_DIR"]
    ?? (packageRoot() as NSString).appendingPathComponent("../shared/data/oxford-steps")
var only: Set<String> = []
var traceName: String?
/// Input rates of the simulated speed runs (`--rate HZ` keeps one, for profiling).
var speedRates = [25.0, 100.0, 400.0]
/// The sets `--only` picks from (each report asks `wanted(NAME)`).
let setNames = ["oxford", "realdev", "shortwalks", "daily", "fixtures", "simulator", "floors", "speed"]
/// `--rate` bounds, Hz: the tools' own `--rate` range (imu-steps, imu-record).
let rateRange = 1.0...8000.0
let usage = "imu-bench-accuracy [--oxford DIR] [--only \(setNames.joined(separator: "|"))]... [--rate HZ] [--trace NAME]"
func usageError(_ message: String, fix: String) -> Never { BenchArguments.usageError("imu-bench-accuracy", message, fix: fix) }
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--oxford":
        guard let value = arguments.first else {
            usageError("--oxford needs a directory", fix: "name the Oxford step-counting data set's directory, e.g. --oxford ../shared/data/oxford-steps")
        }
        // A directory given and missing printed "skipped" and exited 0: a silent zero.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory), isDirectory.boolValue else {
            usageError("--oxford \(value): \(FileManager.default.fileExists(atPath: value) ? "not a directory" : "no such directory")",
                       fix: "name the directory holding the Oxford data set's NAME.csv and NAME.truth.json files, e.g. --oxford ../shared/data/oxford-steps, "
                           + "or leave out --oxford (IMU_OXFORD_DIR, else ../shared/data/oxford-steps beside the package, is read when there)")
        }
        oxfordDirectory = value
        arguments.removeFirst()
    case "--only":
        // An unknown set ran nothing and printed no figure for it: a silent zero.
        guard let value = arguments.first, setNames.contains(value) else {
            usageError(arguments.first.map { "--only \($0) names no set" } ?? "--only needs a set name",
                       fix: "write one of \(setNames.joined(separator: ", ")), e.g. --only realdev (repeat --only for more)")
        }
        only.insert(value)
        arguments.removeFirst()
    case "--trace":
        guard let value = arguments.first else {
            usageError("--trace needs a recording or scenario name", fix: "give part of a recording's name (each one whose name holds it is traced), or short:TRIAL for a real-dev trial's short walks, e.g. --trace walk")
        }
        traceName = value
        arguments.removeFirst()
    case "--rate":
        // Checked before use: `--rate inf` or `1e300` passed `hz > 0`.
        guard let value = arguments.first, let hz = Double(value), rateRange.contains(hz) else {
            usageError(arguments.first.map { "--rate needs a sample rate in Hz from 1 to 8000, got '\($0.escapedValue)'" } ?? "--rate needs a sample rate in Hz",
                       fix: "write a number of samples per second, e.g. --rate 100")
        }
        speedRates = [hz]
        arguments.removeFirst()
    case "-h", "--help":
        print("usage: \(usage)")
        exit(0)
    default:
        usageError("unknown argument '\(argument.escapedValue)'",
                   fix: "imu-bench-accuracy takes --oxford DIR, --only SET, --rate HZ and --trace NAME, e.g. imu-bench-accuracy --only realdev; run it alone for every figure")
    }
}

/// Loads a recording set, or exits with the reader's FILE:LINE message (`exitUnreadable`).
func loadOrExit(_ directory: String) -> [LabelledRecording] {
    do { return try RecordingSet.load(directory: directory) } catch { exitUnreadable(error) }
}
// IMU_OXFORD_DIR (or the default) naming a file, not a directory, ended in Foundation's "Error
// Domain=NSCocoaErrorDomain …" and exit 1; absent, the set is skipped as before.
var oxfordIsDirectory: ObjCBool = false
if FileManager.default.fileExists(atPath: oxfordDirectory, isDirectory: &oxfordIsDirectory), !oxfordIsDirectory.boolValue {
    usageError("the Oxford data set's place \(oxfordDirectory) is a file, not a directory",
               fix: "point IMU_OXFORD_DIR (or --oxford DIR) at the directory holding its NAME.csv and NAME.truth.json files, or unset IMU_OXFORD_DIR")
}
let selected = only
@MainActor func wanted(_ set: String) -> Bool { selected.isEmpty || selected.contains(set) }

var speedCorpus: [LabelledRecording] = []

if let traceName {
    /// What the name matched: none is a usage error, not a silent exit 0.
    var traced = 0
    /// Exits: 0 when something was traced, 2 with the fix when the name matched nothing.
    func endTrace() -> Never {
        guard traced == 0 else { exit(0) }
        usageError("--trace \(traceName) matched no recording, trial or scenario",
                   fix: "give part of an Oxford recording's name, a real-dev trial's file prefix (short:PREFIX for its short walks), "
                       + "short-bouts, daily-life, lower-back-daily-life or a scenario imu-steps --simulate takes, e.g. --trace walk:60")
    }
    let recordings = FileManager.default.fileExists(atPath: oxfordDirectory)
        ? loadOrExit(oxfordDirectory).filter { $0.name.contains(traceName) } : []
    for var recording in recordings {
        // TRACE_SHIFT_MS: started that much later, the grid shifted (`AccuracyReport.gridPhase`).
        if let ms = ProcessInfo.processInfo.environment["TRACE_SHIFT_MS"].flatMap(Double.init), let first = recording.samples.first?.time {
            recording.samples = recording.samples.filter { $0.time >= first + ms / 1000 }
        }
        // `--rate HZ` traces the recording averaged down to that rate.
        if speedRates.count == 1 { recording.samples = AccuracyReport.decimated(recording.samples, rateHz: speedRates[0]) }
        Trace.run(recording)
        traced += 1
    }
    // `--trace short:NAME`: the real-dev trial's session of short walks (`SplicedBoutsReport`).
    if traceName.hasPrefix("short:") {
        for recording in RealDevReport.load(prefixes: [String(traceName.dropFirst(6))], directory: RealDevReport.directory()) {
            guard let s = SplicedBoutsReport.session(recording, subject: "") else { continue }
            var samples = s.samples
            if speedRates.count == 1 { samples = AccuracyReport.decimated(samples, rateHz: speedRates[0]) }
            Trace.run(LabelledRecording(name: s.name, samples: samples, capabilities: s.capabilities, trueSteps: s.trueSteps))
            traced += 1
            print("   walks:", s.walks.map { String(format: "%d steps %.1f-%.1f s", $0.steps, $0.span.lowerBound, $0.span.upperBound) }.joined(separator: ", "))
            for w in s.walks { print("   truth:", w.strikes.map { String(format: "%.2f", $0) }.joined(separator: " ")) }
        }
        endTrace()
    }
    for recording in RealDevReport.load(prefixes: [traceName], directory: RealDevReport.directory()) {
        Trace.run(LabelledRecording(name: recording.name, samples: recording.samples,
                                    capabilities: recording.capabilities, trueSteps: recording.trueSteps))
        traced += 1
        let ours = RealDevReport.stepTimes(count(recording.samples, capabilities: recording.capabilities).events)
        print("   truth:", recording.stepTimes.map { String(format: "%.2f", $0) }.joined(separator: " "))
        print("   truthᵃ:", recording.alignedStepTimes.map { String(format: $0.lowerBound == $0.upperBound ? "%.2f" : "%.2f+", $0.lowerBound) }.joined(separator: " "))
        print("   ours: ", ours.map { String(format: "%.2f", $0) }.joined(separator: " "))
    }
    if let scenario = traceName == "short-bouts" ? SimulatorReport.shortBoutScenario
        : traceName == "daily-life" ? DailyLifeReport.scenario(holdingOffset: ProcessInfo.processInfo.environment["SIM_SEED"].flatMap(Int.init) ?? 0)
        : traceName == "lower-back-daily-life" ? LowerBackDailyLifeReport.scenario() : (try? IMUSimulation.Scenario.resolve(traceName)) {
        var options = SimulationOptions()
        if let rate = ProcessInfo.processInfo.environment["SIM_RATE"].flatMap(Double.init) { options.sampleRateHz = rate }
        if let seed = ProcessInfo.processInfo.environment["SIM_SEED"].flatMap(UInt64.init) { options.seed = seed }
        if ProcessInfo.processInfo.environment["SIM_ACCEL_ONLY"] != nil { options.includeGyroscope = false; options.barometerRateHz = nil }
        let (samples, truth) = Simulator.generate(scenario, options: options)
        Trace.run(LabelledRecording(name: traceName, samples: samples, capabilities: options.capabilities, trueSteps: truth.steps))
        traced += 1
        let events = count(samples, capabilities: options.capabilities).events
        let steps = events.compactMap { if case .step(let t) = $0 { return t } else { return nil } }
        for segment in truth.segments {
            let counted = steps.filter { $0 >= segment.start && $0 < segment.end }.count
            let real = truth.stepTimes.filter { $0 >= segment.start && $0 < segment.end }.count
            print(segment.activity, Int(segment.start), Int(segment.end), "truth", real, "counted", counted)
            // TRACE_ALL=1: every step of the segment (and 1 s either side), to pair each true step
            // with a counted one along the whole walk (docs/accuracy.md, session 23); else its edges.
            let all = ProcessInfo.processInfo.environment["TRACE_ALL"] != nil
            let near = { (t: Double) in all ? (t >= segment.start - 1 && t < segment.end + 1) : (abs(t - segment.start) < 3 || abs(t - segment.end) < 3) }
            print("   truth:", truth.stepTimes.filter(near).map { String(format: "%.2f", $0) }.joined(separator: " "))
            print("   ours: ", steps.filter(near).map { String(format: "%.2f", $0) }.joined(separator: " "))
        }
        for event in events { if case .step = event { continue }; print(event) }
    }
    endTrace()
}
if wanted("oxford") || wanted("speed") {
    if FileManager.default.fileExists(atPath: oxfordDirectory) {
        let recordings = loadOrExit(oxfordDirectory)
        // A directory without one labelled recording printed "0 recordings" and MAPE 0.00 %: a silent zero.
        if recordings.isEmpty {
            usageError("\(oxfordDirectory) holds no Oxford recording: no NAME.csv with a NAME.truth.json beside it",
                       fix: "point --oxford DIR (or IMU_OXFORD_DIR) at the data set's directory, e.g. --oxford ../shared/data/oxford-steps, or run other sets with --only")
        }
        if wanted("oxford") {
            AccuracyReport.run(title: "oxford-steps (\(oxfordDirectory))", recordings)
            AccuracyReport.atLowerRates(recordings)
            AccuracyReport.gridPhase(recordings)
            AccuracyReport.gridPhase(recordings, rateHz: 25)
            AccuracyReport.leaveOnePersonOut(recordings)
        }
        speedCorpus = recordings
    } else {
        print("oxford-steps: skipped, no directory at \(oxfordDirectory) (pass --oxford DIR or set IMU_OXFORD_DIR)")
    }
}
if wanted("realdev") {
    RealDevReport.run()
}
if wanted("realdev") || wanted("shortwalks") {
    SplicedBoutsReport.run()
}
if wanted("daily") {
    DailyLifeReport.run()
}
if wanted("fixtures") {
    let directory = packageRoot() + "/Tests/PedometerTests/Fixtures"
    let recordings = FileManager.default.fileExists(atPath: directory) ? loadOrExit(directory) : []
    if recordings.isEmpty { print("fixtures: none found in \(directory)") }
    else { AccuracyReport.run(title: "repo fixtures", recordings) }
    if speedCorpus.isEmpty { speedCorpus = recordings }
}
if wanted("simulator") {
    SimulatorReport.run()
    FastRunReport.run()
}
if wanted("speed") {
    print("== core throughput (release build; samples pre-loaded, parsing not timed)")
    if !speedCorpus.isEmpty, speedRates.count > 1 { Throughput.run(label: "recordings, accelerometer only, 100-400 Hz", speedCorpus) }
    for rate in speedRates {
        Throughput.run(label: String(format: "simulated day-extended, %.0f Hz, gyro + barometer", rate),
                       SimulatorReport.speedCorpus(rateHz: rate))
    }
    Throughput.memoryNote()
}
if wanted("floors") {
    FloorsReport.run(directory: RealDevReport.directory())
}
