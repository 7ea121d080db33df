import Foundation
import OffPool
import Testing
import IMUCore

/// docs/CONTRACTS.md §2 through the tools: repeated timestamps and the `gnss_speed` column.
@Suite(.offPool) struct RecordingContractToolTests {
    /// A walk with every 40th sample's time repeated on the next line.
    func walkWithRepeats() throws -> (path: String, repeats: Int) {
        var text = "t,ax,ay,az\n"
        var repeats = 0
        for i in 0..<1000 {
            let t = 1.5 + Double(i) * 0.02
            let line = "\(t),0.0,0.0,\(1.0 + 0.3 * sin(t * 2 * .pi * 1.8))\n"
            text += line
            if i % 40 == 39 { text += line; repeats += 1 }
        }
        return (try ToolRunner.temporaryFile("repeats.csv", text), repeats)
    }

    @Test func repeatedTimeIsDroppedAndReportedAtTheEnd() throws {
        let (path, repeats) = try walkWithRepeats()
        let r = try ToolRunner.run("imu-steps", ["--replay", path, "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("\(path): dropped \(repeats) samples whose t repeated"), "stderr: \(r.stderr)")
        #expect(try jsonObjects(r).last?["type"] as? String == "summary")
    }

    @Test func imuRecordReplayKeepsGnssSpeed() throws {
        var text = "t,ax,ay,az,gnss_speed\n"
        for i in 0..<200 { text += "\(Double(i) * 0.01),0,0,1,\(i % 2 == 0 ? "" : "\(Double(i) * 0.01)")\n" }
        let input = try ToolRunner.temporaryFile("gnss.csv", text)
        let output = input + ".out.csv"
        let r = try ToolRunner.run("imu-record", ["--replay", input, "-q", "-o", output])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let reader = try RecordingReader(path: output)
        #expect(reader.header.contains("gnss_speed"))
        var speeds: [Double?] = []
        while let s = try reader.next() { speeds.append(s.gnssSpeed) }
        #expect(speeds.count == 200)
        #expect(speeds[0] == nil)
        #expect(speeds[199] == 1.99)
    }
}
