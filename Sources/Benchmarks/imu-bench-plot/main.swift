import BenchArguments
import Foundation
import IMUCore
import IMUSimulation

BenchArguments.acceptNone("imu-bench-plot", summary: "what imu-plot --replay costs on long recordings, and a browser drawing the result")

/// imu-bench-plot: what `imu-plot --replay` costs on long recordings. Writes the simulator's
/// one-hour scenario at 100 Hz (the anchor) and 24 of them back to back (8.64 million samples),
/// runs the real tool on each, and prints its time, peak memory (the child's ru_maxrss) and SVG
/// size; then times headless Chromium loading and drawing the 24-hour SVG against an empty SVG of the
/// same size (the anchor). Prints figures; asserts nothing.

let rateHz = 100.0
let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
let tool = directory.appendingPathComponent("imu-plot").path
let work = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-bench-plot-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }

func fixed(_ v: Double, _ d: Int) -> String { String(format: "%.\(d)f", v) }

/// Writes `hours` repetitions of the "hour" scenario to a CSV; returns its path and sample count.
func recording(hours: Int) throws -> (path: String, samples: Int) {
    let hour = Scenario.named("hour")!
    let scenario = Scenario(name: "\(hours) h", segments: Array(repeating: hour.segments, count: hours).flatMap { $0 })
    var options = SimulationOptions()
    options.sampleRateHz = rateHz
    var simulator = Simulator(scenario: scenario, options: options)
    let path = work.appendingPathComponent("\(hours)h.csv").path
    let writer = try RecordingWriter(path: path, columns: [.t, .ax, .ay, .az, .gx, .gy, .gz, .p],
                                     comments: ["sensor: simulated, \(hours) h at 100 Hz (imu-bench-plot)"])
    var n = 0
    while let s = simulator.next() { try writer.write(s); n += 1 }
    try writer.close()
    return (path, n)
}

/// Runs a program to the end; returns wall seconds and the largest child's peak RSS so far (KiB).
func run(_ path: String, _ arguments: [String]) throws -> (seconds: Double, status: Int32) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    let start = Date()
    try p.run()
    p.waitUntilExit()
    return (Date().timeIntervalSince(start), p.terminationStatus)
}

func childPeakKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return usage.ru_maxrss
}

func fileKiB(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1024
}

guard FileManager.default.isExecutableFile(atPath: tool) else {
    print("imu-bench-plot: \(tool) is missing; build it first (swift build -c release)")
    exit(1)
}
print("imu-plot --replay on the simulator's 'hour' scenario at 100 Hz (gyro, 25 Hz barometer), default width 1200 px")
var peaks: [Int] = []
var svgs: [String] = []
for hours in [1, 24] {
    let (csv, samples) = try recording(hours: hours)
    let svg = work.appendingPathComponent("\(hours)h.svg").path
    let (seconds, status) = try run(tool, ["--replay", csv, "-o", svg])
    let peak = childPeakKiB()
    peaks.append(peak)
    svgs.append(svg)
    let anchor = hours == 1 ? " (anchor)" : "; peak memory \(fixed(Double(peak) / Double(peaks[0]), 2)) × the 1 h run's"
    print("\(hours == 24 ? "figure: imu-plot" : " ") \(hours) h: \(samples) samples, CSV \(fileKiB(csv) / 1024) MiB -> SVG \(fileKiB(svg)) KiB in \(fixed(seconds, 1)) s (\(fixed(Double(samples) / seconds / 1e6, 2)) million samples/s), exit \(status), peak RSS \(peak / 1024) MiB\(anchor)")
    try? FileManager.default.removeItem(atPath: csv)
}

// Drawing in a browser: a harness page (in the bench's scratch directory, not a plot: plots have no
// scripts) loads the SVG as an image, then draws it on a canvas, and logs both times measured by
// the page itself (performance.now), so browser start-up does not count. Anchor: an empty SVG of
// the same size through the same harness.
let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
if let chromium, let day = svgs.last {
    let text = (try? String(contentsOfFile: day, encoding: .utf8)) ?? ""
    func attribute(_ name: String) -> String {
        guard let r = text.range(of: " \(name)=\"") else { return "0" }
        return String(text[r.upperBound...].prefix { $0 != "\"" })
    }
    let w = attribute("width"), h = attribute("height")
    let empty = work.appendingPathComponent("empty.svg").path
    try "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\"><rect width=\"\(w)\" height=\"\(h)\" fill=\"#fff\"/></svg>\n"
        .write(toFile: empty, atomically: true, encoding: .utf8)
    /// (load and parse, draw) in ms, the median of 5 runs by total.
    func timing(_ svg: String) throws -> (load: Double, draw: Double)? {
        let harness = work.appendingPathComponent("harness.html")
        try """
        <!doctype html><html><body><script>
        const t0 = performance.now(), img = new Image();
        img.onload = () => {
          const t1 = performance.now(), c = document.createElement('canvas');
          c.width = img.width; c.height = img.height;
          c.getContext('2d').drawImage(img, 0, 0);
          console.log('PLOT-TIMING ' + (t1 - t0).toFixed(1) + ' ' + (performance.now() - t1).toFixed(1));
        };
        img.onerror = () => console.log('PLOT-TIMING failed');
        img.src = '\(URL(fileURLWithPath: svg).lastPathComponent)';
        </script></body></html>
        """.write(to: harness, atomically: true, encoding: .utf8)
        var runs: [(Double, Double)] = []
        for _ in 0..<5 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: chromium)
            p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--user-data-dir=\(work.path)/profile",
                           "--enable-logging=stderr", "--virtual-time-budget=20000", "--dump-dom", harness.absoluteString]
            let log = work.appendingPathComponent("chromium.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            p.standardOutput = FileHandle.nullDevice
            p.standardError = try FileHandle(forWritingTo: log)
            try p.run()
            p.waitUntilExit()
            let out = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            guard let line = out.split(separator: "\n").first(where: { $0.contains("PLOT-TIMING ") }),
                  let r = line.range(of: "PLOT-TIMING ") else { continue }
            let numbers = line[r.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\"" }).prefix(2).compactMap { Double($0) }
            if numbers.count == 2 { runs.append((numbers[0], numbers[1])) }
        }
        guard !runs.isEmpty else { return nil }
        let sorted = runs.sorted { $0.0 + $0.1 < $1.0 + $1.1 }
        return sorted[sorted.count / 2]
    }
    if let anchor = try timing(empty), let plot = try timing(day) {
        print("figure: chromium, timed by the page, median of 5: an empty \(w)×\(h) SVG loads in \(fixed(anchor.load, 0)) ms and draws in \(fixed(anchor.draw, 0)) ms (anchor); "
              + "the 24 h SVG loads in \(fixed(plot.load, 0)) ms and draws in \(fixed(plot.draw, 0)) ms: \(fixed((plot.load + plot.draw) / 1000, 2)) s in all")
    } else {
        print("chromium ran but logged no timing: browser drawing time not measured")
    }
} else {
    print("chromium is not installed: browser drawing time not measured (apt-get install chromium)")
}
