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
        let (config, profileMessage) = try WalkerSettings.configuration(from: args)
        if let profileMessage { note(profileMessage) }
        let raw = args.flag("raw"), command = args.command
        let summary = try await OwnThread.run(name: "imu-plot") { try draw(options, configuration: config, raw: raw, command: command) }
        note(summary)
    }

    /// Reads, plots and writes; returns the line for the user.
    private static func draw(_ options: PlotOptions, configuration: PedometerConfiguration, raw: Bool,
                             command: String) throws -> String {
        var feed: SampleFeed
        var title: String
        var clock: ClockAnchor?
        var truth: TruthOverlay?
        switch options.input {
        case let .replay(path):
            let reader = try RecordingReader(path: path)
            clock = ClockAnchor.fromComments(reader.comments)
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
            let scenario: Scenario
            do { scenario = try Scenario.resolve(name) } catch {
                throw UsageError("\(error); known scenarios: \(Scenario.allNames.joined(separator: ", ")), or a composition such as still:10,walk:60,stairs-up:2", command: command)
            }
            var sim = SimulationOptions()
            sim.seed = seed
            let simulator = Simulator(scenario: scenario, options: sim)
            truth = SimulationTruth.overlay(simulator)
            feed = SampleFeed(simulator: simulator)
            title = "simulated scenario '\(scenario.name == "custom" ? name : scenario.name)', seed \(seed)"
        case .day:
            preconditionFailure("--day is drawn by DayPlot")
        }

        var plotter = RecordingPlotter(pedometer: Pedometer(configuration: configuration, capabilities: feed.capabilities),
                                       width: options.width, span: options.span)
        while let sample = try feed.next() { plotter.process(sample) }
        plotter.finish()
        if let truth { plotter.overlay(truth) }
        let chart = try plotter.chart(title: title, clock: clock)
        let svg = RecordingSVG.render(chart)
        try OutputFile.write(svg, to: options.out)
        var line = "wrote \(options.out == "-" ? "standard output" : options.out) (\(svg.utf8.count / 1024) KiB): "
        line += chart.accelerationReadings > 0 ? "\(chart.stepsInView) steps" : "no accelerometer readings"
        line += chart.pressureReadings > 0 ? ", floors ↑\(chart.floorsUpInView) ↓\(chart.floorsDownInView)" : ", no barometer readings"
        return line
    }

    static func note(_ text: String) {
        Terminal.standardError.write("imu-plot: \(text)\n")
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

    mutating func next() throws -> MotionSample? {
        if let reader {
            guard let s = try reader.next() else { return nil }
            return calibration?.apply(s) ?? s
        }
        return simulator?.next()
    }
}
