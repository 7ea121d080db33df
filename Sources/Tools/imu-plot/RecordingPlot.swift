import Foundation
import IMUCLI
import IMUPlot
import IMUSimulation
import Pedometer

/// `--replay FILE` and `--simulate NAME`: samples through the pedometer into the plot, in one pass.
enum RecordingPlot {
    static func run(_ options: PlotOptions, args: ParsedArguments) async throws {
        let (config, profileMessage) = try WalkerSettings.configuration(from: args)
        if let profileMessage { note(profileMessage) }
        var source: any SampleSource
        var title: String
        var clock: ClockAnchor?
        var truth: TruthOverlay?
        switch options.input {
        case let .replay(path):
            source = try RecordingSource(path: path)
            // The header alone, for the wall-clock anchor (`# started:`).
            clock = ClockAnchor.fromComments(try RecordingReader(path: path).comments)
            title = path == "-" ? "recording from standard input" : URL(fileURLWithPath: path).lastPathComponent
            _ = try SourceSelection.applySavedCalibration(to: &source, args: args)
        case let .simulate(name, seed):
            let scenario: Scenario
            do { scenario = try Scenario.resolve(name) } catch {
                throw UsageError("\(error); known scenarios: \(Scenario.allNames.joined(separator: ", ")), or a composition such as still:10,walk:60,stairs-up:2", command: args.command)
            }
            var sim = SimulationOptions()
            sim.seed = seed
            source = SimulatedSource(scenario: scenario, options: sim, speed: .infinity)
            truth = SimulationTruth.overlay(Simulator(scenario: scenario, options: sim))
            title = "simulated scenario '\(scenario.name == "custom" ? name : scenario.name)', seed \(seed)"
        case .day:
            preconditionFailure("--day is drawn by DayPlot")
        }

        var plotter = RecordingPlotter(pedometer: Pedometer(configuration: config, capabilities: source.info.capabilities),
                                       width: options.width, span: options.span)
        let trap = SignalTrap {}
        for try await batch in source.batches() {
            for sample in batch { plotter.process(sample) }
        }
        withExtendedLifetime(trap) {}
        plotter.finish()
        if let truth { plotter.overlay(truth) }
        let chart = try plotter.chart(title: title, clock: clock)
        let svg = RecordingSVG.render(chart)
        try OutputFile.write(svg, to: options.out)
        var line = "wrote \(options.out == "-" ? "standard output" : options.out) (\(svg.utf8.count / 1024) KiB): "
        line += "\(chart.stepsInView) steps"
        if chart.pressureReadings > 0 { line += ", floors ↑\(chart.floorsUpInView) ↓\(chart.floorsDownInView)" } else { line += ", no barometer" }
        if !chart.sensors.accelerometer { line += ", no accelerometer" }
        note(line)
    }

    static func note(_ text: String) {
        Terminal.standardError.write("imu-plot: \(text)\n")
        Terminal.standardError.flush()
    }
}
