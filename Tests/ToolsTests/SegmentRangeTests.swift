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

/// `--simulate` items with `@CADENCE` or `*AMPLITUDE` out of range: the message names the unit,
/// the range with its reason, and the item written right (exit 2). They said only "'fast' after
/// '@' is not a positive number", or "cadence 1000.0 per second is outside 0.1–5.0" with no unit.
@Suite(.offPool) struct SegmentCadenceAmplitudeTests {
    @Test(arguments: [
        ("walk:10@fast/pocket", "cadence in steps per second from 0.1 to 5 (human gait", "e.g. walk:10@1.8/pocket"),
        ("walk:10@0", "cadence in steps per second from 0.1 to 5", "e.g. walk:10@1.8"),
        ("wave:5@1000", "cadence in waves per second from 0.1 to 5", "e.g. wave:5@1.8"),
        ("run:10@1e400*0.3", "cadence in steps per second from 0.1 to 5", "e.g. run:10@1.8*0.3"),
        ("walk:10*-1", "amplitude in g, more than 0 and at most 16 (the simulated accelerometer's full scale)", "e.g. walk:10*0.25"),
        ("walk:10@2*20/hand", "amplitude in g, more than 0 and at most 16", "e.g. walk:10@2*0.25/hand"),
        ("still:5,walk:10*nan", "amplitude in g, more than 0 and at most 16", "e.g. walk:10*0.25"),
    ])
    func aCadenceOrAmplitudeOutOfRangeNamesUnitRangeAndExample(scenario: String, range: String, example: String) throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", scenario, "--json"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains(range), "\(scenario): \(r.stderr)")
        #expect(r.stderr.contains(example), "\(scenario): \(r.stderr)")
        #expect(r.stdout.isEmpty, "no summary of nothing: \(r.stdout)")
    }

    /// `walk@1.8` and `walk/pocket` are items of the composition syntax (KIND alone is one), but
    /// without ':' or ',' they were taken for catalogue names: "unknown scenario 'walk@1.8'".
    @Test(arguments: ["walk@1.8", "walk/pocket"])
    func anItemWithoutDurationIsAComposition(scenario: String) throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", scenario, "--speed", "max", "--json"])
        #expect(r.status == 0, "\(scenario): \(r.stderr)")
        #expect(r.lines.last?.contains("\"type\":\"summary\"") == true && r.lines.last?.contains("\"steps\":0,") == false,
                "\(scenario): \(r.stdout.suffix(300))")
    }
}
