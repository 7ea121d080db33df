import Foundation
import IMUCalibration
import IMUCLI
import IMUPlot
import IMUSimulation
import Pedometer

/// `--replay FILE` and `--simulate NAME`: samples through the pedometer into the plot, in one pass.
///
/// Samples are pulled one at a time from the file (or the simulator) by the loop that plots them:
/// no queue sits between reading and plotting, so memory stays the same whatever the length. The
/// loop runs on a thread of its own, because reading a file blocks and blocking calls never run
/// on Swift's cooperative pool.
enum RecordingPlot {
    static func run(_ options: PlotOptions, args: ParsedArguments) async throws {
        let (config, profileMessage) = try await OwnThread.run(name: "imu-plot") { try WalkerSettings.configuration(from: args) }
        if let profileMessage { note(profileMessage) }
        let raw = args.flag("raw"), command = args.command
        let summary = try await OwnThread.run(name: "imu-plot") { try draw(options, configuration: config, raw: raw, command: command) }
        note(summary)
    }

    /// Reads, plots and writes; returns the line for the user (nil when standard output refused the plot).
    private static func draw(_ options: PlotOptions, configuration: PedometerConfiguration, raw: Bool,
                             command: String) throws -> String? {
        var feed: SampleFeed
        var title: String
        var clock: ClockAnchor?
        var truth: TruthOverlay?
        switch options.input {
        case let .replay(path):
            let reader = try ReplayInput.reader(path, option: "--replay", command: command)
            clock = ClockAnchor.fromComments(reader.comments)
            // The axis's local clock is the C library's, as --day's and imu-steps' (DayPlot.localZone):
            // Foundation's TimeZone.current took a POSIX rule and TZ=":" for /etc/localtime's zone.
            if let start = clock?.start {
                ZoneWarning.say(command: command)
                clock?.timeZone = DayPlot.localZone(at: start)
                // A POSIX rule: each instant is labelled with its own offset (the offset at the
                // start labelled a recording that crossed a daylight-saving change an hour off).
                if DayPlot.followsARule {
                    clock?.utcOffset = DayPlot.ruleOffset
                    clock?.zoneLabel = DayPlot.ruleLabel
                }
            }
            title = path == "-" ? "recording from standard input" : URL(fileURLWithPath: path).lastPathComponent
            var calibration: Calibration?
            // The key `RecordingSource` gives a replayed file, so imu-steps and imu-plot apply the same calibration.
            let key = "replay:\(path)"
            if !raw, let (saved, file) = try CalibrationStore.standard().load(key: key) {
                calibration = saved
                note("using calibration for \(key) from \(file)")
            }
            feed = SampleFeed(reader: reader, calibration: calibration)
        case let .simulate(name, seed):
            let scenario = try SourceSelection.scenario(name, command: command)
            var sim = SimulationOptions()
            sim.seed = seed
            let simulator = Simulator(scenario: scenario, options: sim)
            truth = SimulationTruth.overlay(simulator)
            feed = SampleFeed(simulator: simulator)
            title = "simulated scenario '\(scenario.name)', seed \(seed)"
        case .day:
            preconditionFailure("--day is drawn by DayPlot")
        }

        var plotter = RecordingPlotter(pedometer: Pedometer(configuration: configuration, capabilities: feed.capabilities),
                                       width: options.width, span: options.span)
        var samples = 0
        while let sample = try feed.next() {
            plotter.process(sample)
            samples += 1
        }
        // Named, as imu-steps names it (the plotter's own words could not say which file).
        if samples == 0, case let .replay(path) = options.input { throw EmptyRecording(path: path, purpose: "plot") }
        // Samples dropped for a repeated t are counted and said (docs/CONTRACTS.md §2), as imu-steps does.
        if let dropped = feed.endNote { note(dropped) }
        plotter.finish()
        note(IgnoredSpeedNote.text(plotter.pedometer))
        if let truth { plotter.overlay(truth) }
        let chart = try plotter.chart(title: title, clock: clock)
        let svg = RecordingSVG.render(chart)
        guard try OutputFile.write(svg, to: options.out) else { return nil }
        var line = "wrote \(options.out == "-" ? "standard output" : options.out) (\(svg.utf8.count / 1024) KiB): "
        line += chart.accelerationReadings > 0 ? counted(chart.stepsInView, "step") : "no accelerometer readings"
        line += chart.pressureReadings > 0 ? ", floors ↑\(chart.floorsUpInView) ↓\(chart.floorsDownInView)" : ", no barometer readings"
        return line
    }

    /// A note when there is one to give (nil: the plot went nowhere, as `ToolMain` reports).
    static func note(_ text: String?) { if let text { note(text) } }

    /// Escaped: notes quote file names, calibration keys and a recording's own text.
    static func note(_ text: String) {
        Terminal.standardError.write("imu-plot: \(text.escapedForTerminal)\n")
        Terminal.standardError.flush()
    }
}

/// Samples pulled one at a time from a recording (through its saved calibration) or the simulator.
struct SampleFeed {
    private var reader: RecordingReader?
    private var calibration: Calibration?
    private var simulator: Simulator?
    let capabilities: SensorCapabilities

    init(reader: RecordingReader, calibration: Calibration?) {
        self.reader = reader
        self.calibration = calibration
        capabilities = reader.capabilities
    }

    init(simulator: Simulator) {
        self.simulator = simulator
        capabilities = simulator.options.capabilities
    }

    /// The reader's note on samples dropped for a repeated t, once the file is read; nil otherwise.
    var endNote: String? { reader?.endNote }

    mutating func next() throws -> MotionSample? {
        if let reader {
            guard let s = try reader.next() else { return nil }
            return calibration?.apply(s) ?? s
        }
        return simulator?.next()
    }
}
