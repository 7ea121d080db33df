import Foundation
import OffPool
import Testing

/// `--simulate KIND:N` with N out of range: the message names the range and its unit (exit 2).
@Suite(.offPool) struct SegmentRangeTests {
    /// `--simulate walk:1e400` (infinity), nan, negative, zero and absurd durations said "is not a
    /// positive number" or "too large", without the unit or the range.
    @Test(arguments: ["walk:1e400", "walk:nan", "walk:inf", "walk:-5", "walk:0", "walk:1e300", "still:604801"])
    func aSegmentDurationOutOfRangeNamesTheRangeAndUnit(scenario: String) throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", scenario, "--json"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("a duration in seconds, more than 0 and at most 604800 (a week)"), "\(scenario): \(r.stderr)")
        #expect(r.stdout.isEmpty, "no summary of nothing: \(r.stdout)")
    }

    @Test(arguments: ["stairs-up:1e400", "elevator-down:-1", "stairs-down:1e6"])
    func aFloorCountOutOfRangeNamesTheRange(scenario: String) throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", scenario, "--json"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("a whole number of floors from 1 to 200"), "\(scenario): \(r.stderr)")
    }
}
