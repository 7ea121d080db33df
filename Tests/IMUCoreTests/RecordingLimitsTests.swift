import Foundation
import Testing
@testable import IMUCore

/// Sensor values beyond what any sensor measures (docs/file-formats.md, `RecordingLimits`): each
/// bound accepts the value just inside it and refuses the value just outside with FILE:LINE, the
/// column, the value as written (escaped) and the fix, before anything converts it.
@Suite struct RecordingLimitsTests {
    /// One bound: the header, a line holding `value` in the column, and what must be in the message.
    struct Bound: CustomTestStringConvertible, Sendable {
        var column: String
        var header: String
        /// A data line with `V` where the value goes.
        var line: String
        var inside: Double
        var outside: Double
        var unit: String
        var testDescription: String { "\(column) \(outside)" }
    }

    static let accel = "t,ax,ay,az"
    static let gyro = "t,ax,ay,az,gx,gy,gz"
    static let bounds: [Bound] = [
        Bound(column: "ax", header: accel, line: "1,V,0,1", inside: RecordingLimits.acceleration, outside: RecordingLimits.acceleration.nextUp, unit: "g"),
        Bound(column: "ay", header: accel, line: "1,0,V,1", inside: -RecordingLimits.acceleration, outside: -RecordingLimits.acceleration.nextUp, unit: "g"),
        Bound(column: "az", header: accel, line: "1,0,0,V", inside: RecordingLimits.acceleration, outside: 1e300, unit: "g"),
        Bound(column: "gx", header: gyro, line: "1,0,0,1,V,0,0", inside: RecordingLimits.rotationRate, outside: RecordingLimits.rotationRate.nextUp, unit: "rad/s"),
        Bound(column: "gy", header: gyro, line: "1,0,0,1,0,V,0", inside: -RecordingLimits.rotationRate, outside: -1e30, unit: "rad/s"),
        Bound(column: "gz", header: gyro, line: "1,0,0,1,0,0,V", inside: RecordingLimits.rotationRate, outside: 1e30, unit: "rad/s"),
        Bound(column: "p", header: "t,ax,ay,az,p", line: "1,0,0,1,V", inside: RecordingLimits.pressure.lowerBound, outside: RecordingLimits.pressure.lowerBound.nextDown, unit: "hPa"),
        Bound(column: "p", header: "t,ax,ay,az,p", line: "1,0,0,1,V", inside: RecordingLimits.pressure.upperBound, outside: RecordingLimits.pressure.upperBound.nextUp, unit: "hPa"),
        Bound(column: "p", header: "t,p", line: "1,V", inside: 1013.25, outside: -5, unit: "hPa"),
        Bound(column: "temp", header: "t,ax,ay,az,temp", line: "1,0,0,1,V", inside: RecordingLimits.temperature.lowerBound, outside: RecordingLimits.temperature.lowerBound.nextDown, unit: "°C"),
        Bound(column: "temp", header: "t,ax,ay,az,temp", line: "1,0,0,1,V", inside: RecordingLimits.temperature.upperBound, outside: RecordingLimits.temperature.upperBound.nextUp, unit: "°C"),
        Bound(column: "gnss_speed", header: "t,ax,ay,az,gnss_speed", line: "1,0,0,1,V", inside: RecordingLimits.groundSpeed, outside: RecordingLimits.groundSpeed.nextUp, unit: "m/s"),
        Bound(column: "gnss_speed", header: "t,gnss_speed,ax,ay,az", line: "1,V,0,0,1", inside: 0, outside: 1e300, unit: "m/s"),
    ]

    /// Swift's shortest form that reads back as the same double ("500.00000000000006").
    static func text(_ value: Double) -> String { "\(value)" }

    @Test(arguments: bounds)
    func justInsideIsAccepted(bound: Bound) throws {
        let text = "\(bound.header)\n\(bound.line.replacing("V", with: Self.text(bound.inside)))\n"
        let samples = try readAll(try temporaryRecording(text))
        #expect(samples.count == 1)
    }

    @Test(arguments: bounds)
    func justOutsideIsRefusedWithItsLineColumnValueAndFix(bound: Bound) throws {
        let value = Self.text(bound.outside)
        // A good line first (t = 0.5), then the bad one: the error names line 3.
        let good = "\(bound.header)\n0.5\(bound.line.dropFirst(1).replacing("V", with: Self.text(bound.inside)))\n"
        let error = try recordingError(good + bound.line.replacing("V", with: value) + "\n")
        #expect(error.line == 3)
        #expect(error.message.contains("'\(bound.column)'"), "\(error.message)")
        #expect(error.message.contains(value), "\(error.message)")
        #expect(error.message.contains(bound.unit), "\(error.message)")
        let fix = try #require(error.fix, "no fix: \(error.message)")
        #expect(fix.contains(bound.unit), "\(fix)")
    }

    /// The value is shown as written, escaped and cut: a huge or odd field cannot flood a terminal.
    @Test func theValueIsShownAsWrittenEscapedAndCut() throws {
        let written = "  +1\u{1B}0e300"   // not a number: the parser's message, escaped
        let bad = try recordingError("t,ax,ay,az\n1,\(written),0,1\n")
        #expect(!bad.message.contains("\u{1B}"), "\(bad.message)")
        let long = "1" + String(repeating: "0", count: 80) + ".5"
        let huge = try recordingError("t,ax,ay,az\n1,0,0, \(long) \n")
        #expect(huge.message.contains("'az'"), "\(huge.message)")
        #expect(huge.message.contains(String(long.prefix(60)) + "…"), "\(huge.message)")
        #expect(!huge.message.contains(long), "\(huge.message)")
    }

    /// A number too large for a `Double` (400 digits, 1e400) said "not a finite number", hiding
    /// which limit it broke: it is refused by its column's range and unit, as 1e300 is; `inf`
    /// and `nan` (no number written out) keep "not a finite number".
    @Test(arguments: [
        ("t,ax,ay,az\n0.5,0,0,1", "1,DIGITS,0,1", "field 'ax' is 1111", "beyond ±500 g", "acceleration is in g"),
        ("t,ax,ay,az\n0.5,0,0,1", "1,0,-1e400,1", "field 'ay' is -1e400 g", "beyond ±500 g", "acceleration is in g"),
        ("t,ax,ay,az,gx,gy,gz\n0.5,0,0,1,0,0,0", "1,0,0,1,0,0,+1E999", "field 'gz' is +1E999 rad/s", "beyond ±87.3 rad/s", "rotation rate is in rad/s"),
        ("t,ax,ay,az,p\n0.5,0,0,1,1000", "1,0,0,1,DIGITS.5", "field 'p' is 1111", "outside 250–1300 hPa", "pressure is absolute, in hPa"),
        ("t,ax,ay,az,temp\n0.5,0,0,1,20", "1,0,0,1,-DIGITS", "field 'temp' is -1111", "outside −100…150 °C", "temperature is in °C"),
        ("t,ax,ay,az,gnss_speed\n0.5,0,0,1,0", "1,0,0,1,DIGITS", "field 'gnss_speed' is 1111", "beyond 515 m/s", "ground speed is in m/s"),
        ("t,ax,ay,az,gnss_speed\n0.5,0,0,1,0", "1,0,0,1,-1e400", "field 'gnss_speed' is negative (-1e400)", "≥ 0 m/s", "mend line 3"),
        ("t,ax,ay,az\n0.5,0,0,1", "DIGITS,0,0,1", "t=1111", "beyond ±1e10 s", "mend line 3"),
    ])
    func aNumberTooLargeForADoubleNamesItsColumnsRange(headerAndGoodLine: String, line: String, start: String, range: String, fix: String) throws {
        let digits = String(repeating: "1", count: 400)
        let error = try recordingError("\(headerAndGoodLine)\n\(line.replacing("DIGITS", with: digits))\n")
        #expect(error.line == 3, "\(error)")
        #expect(error.message.contains(start) && error.message.contains(range), "\(error.message)")
        #expect(!error.message.contains("not a finite number"), "\(error.message)")
        #expect(!error.message.contains(digits), "the 400 digits are cut: \(error.message)")
        #expect(error.fix?.contains(fix) == true, "\(String(describing: error.fix))")
    }

    /// An empty field has no value, so no bound: a 25 Hz barometer leaves `p` empty (not 0 hPa).
    @Test func emptyFieldsAreNotOutOfRange() throws {
        let samples = try readAll(try temporaryRecording("t,ax,ay,az,p,temp,gnss_speed\n1,0,0,1,,,\n2,0,0,1,1000,20,1.5\n"))
        #expect(samples.count == 2)
        #expect(samples[0].pressure == nil && samples[1].pressure == 1000)
    }

    /// The bounds hold real extremes: a 16 g chip's full scale, a fast spin, Everest's summit
    /// (about 337 hPa), the record sea-level high (1084.8 hPa), an airliner's ground speed.
    @Test func realExtremesAreAccepted() throws {
        let samples = try readAll(try temporaryRecording("t,ax,ay,az,gx,gy,gz,p,temp,gnss_speed\n"
            + "1,16,-16,16,34.9,-34.9,0,337,-40,250\n2,0,0,1,0,0,0,1084.8,85,0\n"))
        #expect(samples.count == 2)
    }
}
