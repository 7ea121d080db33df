import Foundation
import OffPool
import Testing

/// `imu-plot --replay` of a recording with a `# started:` line labels its axis with the local
/// clock. It took Foundation's `TimeZone.current`, which reads a POSIX rule (and TZ=":") as
/// /etc/localtime's zone, while the C library (imu-steps, imu-plot --day) runs the rule as
/// written: the same walk was at 07:00 on the plot and 12:30 everywhere else.
@Suite(.offPool) struct RecordingZoneSweep25Tests {
    static func axis(tz: String) throws -> (label: String, stderr: String) {
        let dir = try BuiltTool.temporaryDirectory()
        let csv = dir.appendingPathComponent("walk.csv").path
        var lines = ["# started: 2026-12-01T07:00:00Z", "t,ax,ay,az,gx,gy,gz"]
        for i in 0..<200 { lines.append(String(format: "%.2f,0,0,1,0,0,0", Double(i) * 0.01)) }
        try (lines.joined(separator: "\n") + "\n").write(toFile: csv, atomically: true, encoding: .utf8)
        let svg = dir.appendingPathComponent("walk.svg").path
        let r = try BuiltTool.run("imu-plot", ["--replay", csv, "-o", svg], environment: ["TZ": tz])
        #expect(r.status == 0, "TZ='\(tz)': \(r.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        let label = text.range(of: "local time (").map { String(text[$0.lowerBound...].prefix { $0 != "<" }) } ?? ""
        return (label, r.stderr)
    }

    @Test func aRuleIsTheAxisClock() throws {
        let (label, stderr) = try Self.axis(tz: "<+0530>-5:30")
        #expect(label.hasSuffix("recording started 2026-12-01 12:30:00"), "\(label)")
        #expect(!stderr.contains("warning: TZ="), "\(stderr)")
    }

    @Test func colonIsUTCAndAnUnknownZoneIsSaidOnce() throws {
        let (label, stderr) = try Self.axis(tz: ":")
        #expect(label.hasSuffix("recording started 2026-12-01 07:00:00") && !stderr.contains("warning: TZ="), "\(label) \(stderr)")
        let (unknown, said) = try Self.axis(tz: "Nowhere/Land")
        #expect(unknown.hasSuffix("recording started 2026-12-01 07:00:00"), "\(unknown)")
        #expect(said.components(separatedBy: "imu-plot: warning: TZ='Nowhere/Land' names no time zone").count == 2, "\(said)")
    }
}
