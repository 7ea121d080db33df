import Foundation
import OffPool
import Testing

/// Usage errors name their fix (the form, the range and unit, or the exact change), not only
/// "see --help" (exit 2, docs/CONTRACTS.md §4). Run as processes, off the pool.
@Suite(.offPool) struct UsageFixTests {
    /// Usage errors whose fix was only "see 'TOOL --help'": each names the form, the range or the
    /// exact change now.
    @Test(arguments: [
        ("imu-steps", ["--zzzzzzzz"], "imu-steps takes --"),
        ("imu-steps", ["walk.csv"], "give a recording with --replay: imu-steps --replay walk.csv"),
        ("imu-steps", ["walk"], "imu-steps takes options only; a value goes after its option"),
        ("imu-steps", ["--json", "out.json"], "--json takes no value: leave 'out.json' out"),
        ("imu-steps", ["--replay"], "put the value after it, as --replay FILE or --replay=FILE"),
        ("imu-steps", ["--json=yes"], "write --json alone"),
        ("imu-steps", ["--rate", "fast", "--simulate", "walk:1"], "write a plain number (such as 12.5 or 1e2) from 1 to 8000: --rate HZ ("),
        ("imu-steps", ["--replay", "a.csv", "--simulate", "walk"], "keep one: --replay FILE or --simulate NAME\n"),
        ("imu-steps", ["--speed", "2"], "leave out --speed: a sensor is read as it measures"),
        ("imu-steps", ["--source", "nocolon"], "e.g. i2c:/dev/i2c-1@0x68 (a chip on a bus), iio:local:"),
        ("imu-steps", ["--source", "foo:bar"], "begin the spec with one of"),
        ("imu-steps", ["--source", "i2c:1@0x68", "--mount", "1,2"], "write the rows separated by ';' and the numbers by ','"),
        ("imu-steps", ["--source", "i2c:1@0x68", "--mount", "1,1,0; 0,1,0; 0,0,1"], "map each device axis to one chip axis"),
        ("imu-steps", ["--history", "week"], "write whole days, with or without d"),
        ("imu-steps", ["--since", "noon"], "e.g. --since 08:30 (today)"),
        ("imu-steps", ["--source", "i2c:1@0x68@0x76"], "write one bus, '@', then the addresses"),
        ("imu-steps", ["--source", "i2c:@0x68"], "put the bus before '@'"),
        ("imu-plot", ["--simulate", "walk:1"], "give -o FILE (e.g. -o walk.svg"),
        ("imu-plot", ["-o", "x.svg"], "e.g. imu-plot --replay walk.csv -o walk.svg"),
        ("imu-plot", ["--day", "2026-12-01", "2026-12-02", "-o", "x.html"], "give one: --day today"),
        ("imu-plot", ["--day", "--from", "10", "-o", "x.html"], "leave out --from with --day"),
        ("imu-plot", ["walk.csv", "-o", "x.svg"], "give a recording with --replay: --replay walk.csv"),
        ("imu-plot", ["--replay", "a.csv", "--seed", "3", "-o", "x.svg"], "leave out --seed with --replay"),
        ("imu-plot", ["--simulate", "walk:1", "--history", "h.sqlite", "-o", "x.svg"], "add --day"),
        ("imu-plot", ["--replay", "a.csv", "--from", "soon", "-o", "x.svg"], "write seconds (--from 90"),
        ("imu-plot", ["--width", "wide", "--simulate", "walk:1", "-o", "x.svg"], "write digits (or 0x and hex digits) for a value from"),
        ("imu-info", ["--source", "nocolon"], "name a sensor as i2c:BUS@ADDRESS"),
        ("imu-stepd", ["--config"], "put the value after it, as --config FILE"),
        ("imu-calibrate", ["--show", "--reset"], "keep one:"),
        // A number out of range showed "see --help"; the fix shows the option's form and help.
        ("imu-record", ["--replay", "walk.csv", "-d", "-1"], "give --duration a number from 0.001 to 31536000: --duration S (stop after S seconds"),
        ("imu-steps", ["--simulate", "walk:1", "--floor-height", "0"], "give --floor-height a number from 1 to 10: --floor-height M (height of one floor in metres"),
        ("imu-info", ["--bus", "-1"], "give --bus a number from 0 to 1023: --bus N (look only at /dev/i2c-N)"),
    ])
    func usageErrorsNameTheirFix(tool: String, arguments: [String], fix: String) throws {
        let r = try ToolRunner.run(tool, arguments)
        #expect(r.status == 2, "\(tool) \(arguments): \(r.stderr)")
        #expect(r.stderr.contains("  fix: \(fix)"), "\(tool) \(arguments): \(r.stderr)")
        #expect(!r.stderr.contains("fix: see '"), "\(tool) \(arguments): \(r.stderr)")
    }

    /// The same for errors that need a file: --out that is the replayed recording, --gps with a
    /// recording played as fast as possible.
    @Test func usageErrorsAboutFilesNameTheirFix() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recording = dir + "/walk.csv"
        try "t,ax,ay,az\n0,0,0,1\n".write(toFile: recording, atomically: true, encoding: .utf8)
        let same = try ToolRunner.run("imu-record", ["--replay", recording, "--out", recording, "--force"])
        #expect(same.status == 2 && same.stderr.contains("  fix: choose another --out, e.g. --out copy.csv"), "\(same.stderr)")
        let gps = try ToolRunner.run("imu-steps", ["--replay", recording, "--gps"])
        #expect(gps.status == 2 && gps.stderr.contains("  fix: add --realtime (or --speed 1), or leave out --gps"), "\(gps.stderr)")
    }
}
