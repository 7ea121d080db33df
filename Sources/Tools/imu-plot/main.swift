import IMUCLI

/// imu-plot: see what was counted. A recording or a simulated scenario as one SVG; a day of the
/// step service's history as one HTML page (docs/plots.md).
let spec = CommandSpec(
    name: "imu-plot",
    summary: "draw a recording or a simulated scenario (SVG: steps, cadence, floors, activity), or a day of the step service's history (HTML)",
    usage: [
        "--replay -o [--from] [--to] [--width]",
        "--simulate -o [--seed] [--from] [--to] [--width]",
        "--day [DATE] -o [--history]",
    ],
    options: [
        OptionSpec("replay", short: "r", value: .path("FILE"), help: "the recording to draw (CSV, docs/file-formats.md); '-' reads standard input"),
        OptionSpec("simulate", value: .text("NAME"), help: "draw a simulated scenario with its ground truth overlaid (names as imu-steps --simulate)"),
        OptionSpec("seed", value: .integer("N"), help: "with --simulate: the simulator's random seed (default 1)"),
        OptionSpec("day", help: "draw one day of the step service's history: DATE is today (default), yesterday or YYYY-MM-DD, local time"),
        OptionSpec("history", value: .path("FILE"), help: "with --day: the history to read (default \(DayPlot.defaultHistory))"),
        OptionSpec("out", short: "o", value: .path("FILE"), help: "where to write the SVG ('-' = standard output); written whole or not at all"),
        OptionSpec("from", value: .seconds("S"), help: "start of the view: seconds after the first sample, or m:ss / h:mm:ss"),
        OptionSpec("to", value: .seconds("S"), help: "end of the view, the same way (default: the end of the recording)"),
        OptionSpec("width", value: .integer("PX"), help: "width of the image in pixels, \(PlotOptions.widthRange.lowerBound) to \(PlotOptions.widthRange.upperBound) (default \(PlotOptions.defaultWidth))"),
        OptionSpec("raw", help: "do not apply the saved calibration"),
    ] + WalkerSettings.options.filter { $0.long != "remember" },
    examples: [
        ("imu-plot --replay walk.csv -o walk.svg", "the whole recording; open walk.svg in any browser"),
        ("imu-plot --replay day.csv --from 1:00:00 --to 1:05:00 -o zoom.svg", "five minutes, one hour in"),
        ("imu-plot --simulate day-extended -o sim.svg", "a simulated day with the true steps, floors and activities in black"),
        ("imu-plot --replay walk.csv --width 3000 -o wide.svg", "more pixel columns for a long recording"),
        ("imu-plot --day -o today.html", "today's steps per hour, floors, activity and totals from imu-stepd's history"),
        ("imu-plot --day 2026-11-30 --history ~/history.sqlite -o day.html", "another day, from a copied history file"),
    ],
    acceptsPositionals: true
)

await ToolMain.run(spec) { args in
    let options = try PlotOptions(args)
    if case .day = options.input { try await DayPlot.run(options, args: args) } else { try await RecordingPlot.run(options, args: args) }
    return .success
}
