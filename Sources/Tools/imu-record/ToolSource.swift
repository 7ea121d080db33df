import IMUCLI
import IMUSimulation

// Temporary until SourceSelection lands in main: --simulate NAME and sim:NAME only.
enum ToolSource {
    static let options: [OptionSpec] = [
        OptionSpec("source", short: "s", value: "SPEC", help: "sensor to read: i2c:/dev/i2c-1@0x68, iio:local:, sim:walk"),
        OptionSpec("simulate", value: "NAME", help: "use the built-in simulator: \(Scenario.allNames.joined(separator: ", "))"),
        OptionSpec("speed", value: "N", help: "playback speed for --simulate (1 = real time)"),
        OptionSpec("rate", value: "HZ", help: "requested sensor output rate (default 100)"),
    ]

    static func open(_ args: ParsedArguments) throws -> any SampleSource {
        try args.exclusive(["source", "simulate"])
        var name = args.string("simulate")
        if let spec = args.string("source"), spec.hasPrefix("sim:") { name = String(spec.dropFirst(4)) }
        guard let name else {
            throw UsageError("no sensor backends yet: use --simulate NAME", command: args.command)
        }
        guard let scenario = Scenario.named(name) else {
            throw UsageError("unknown scenario '\(name)'", command: args.command)
        }
        var o = SimulationOptions()
        if let r = try args.double("rate", in: 1...8000) { o.sampleRateHz = r }
        return SimulatedSource(scenario: scenario, options: o, speed: try args.double("speed", in: 0.01...1000) ?? 1)
    }
}
