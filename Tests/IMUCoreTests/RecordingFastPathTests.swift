import Foundation
import Testing
@testable import IMUCore

/// The row parser's fast path (`RecordingRowParser.parse`, docs/replay-speed.md "Replay, session
/// 8"): at most 15 digits converted in one pass, the scans stopped by the byte after the line
/// (the reader's 0 after its data at the end of a file without a final newline), values stored
/// by column and the sample's presence bits made from the columns'. Every value must be the one
/// Swift's parser reads, every refusal must still name FILE:LINE, and the range checks apply.
@Suite struct RecordingFastPathTests {
    /// 15 digits are the fast path's limit; 16 to 19 go to `DecimalParser`: the same value either
    /// way, in every column position, signs and spaces included.
    @Test(arguments: ["123456789.012345", "999999999999999", "0.00000000000001", "-1.23456789012345",
                      "1234567890.123456", "9999999999999999", "0.0000000000000001", "-4.503599627370497",
                      "1234567890.123456789", " -0.000000000000000012 ", "+100000000000000.0"])
    func digitCountsAroundTheFastPathLimit(text: String) throws {
        let expected = try #require(Double(text.trimmingSpaces()))
        if abs(expected) <= RecordingLimits.acceleration {
            let samples = try readAll(try temporaryRecording("t,ax,ay,az\n1,\(text),0,\(text)\n2,0,\(text),1\n"))
            #expect(samples.map { $0.acceleration?.x } == [expected, 0])
            #expect(samples.map { $0.acceleration?.y } == [0, expected])
            #expect(samples.first?.acceleration?.z == expected)
        }
        if abs(expected) <= RecordingReader.largestTime {
            let times = try readAll(try temporaryRecording("t,ax,ay,az\n\(text),0,0,1\n"))
            #expect(times.first?.time == expected)
        }
    }

    /// The sign is set as a bit: "-0" and "-0.000" stay negative zeros, "0" and "+0.0" positive,
    /// as Swift's parser reads them.
    @Test func negativeZeroKeepsItsSign() throws {
        let samples = try readAll(try temporaryRecording("t,ax,ay,az\n1,-0,-0.000,+0.0\n2,0,-0.0, -0 \n"))
        let signs = samples.map { s in [s.acceleration!.x, s.acceleration!.y, s.acceleration!.z].map(\.sign) }
        #expect(signs == [[.minus, .minus, .plus], [.plus, .minus, .minus]])
    }

    /// A sample built by the reader equals the one built through `MotionSample`'s initialiser:
    /// every column, present, empty or absent from the header.
    @Test func samplesEqualThoseBuiltFromTheirReadings() throws {
        let text = """
        gnss_speed,temp,p,gz,gy,gx,az,ay,ax,t,other
        1.5,21.25,1013.5,0.03,0.02,0.01,1,-0.5,0.25,10,x
        ,,,0.03,0.02,0.01,1,-0.5,0.25,11,
        0,,1000,,,,,,,12,
        ,-3.5,,,,,0.125,0,0,13,y

        """
        let samples = try readAll(try temporaryRecording(text))
        #expect(samples == [
            MotionSample(time: 10, acceleration: Vector3(0.25, -0.5, 1), rotationRate: Vector3(0.01, 0.02, 0.03),
                         pressure: 1013.5, temperature: 21.25, gnssSpeed: 1.5),
            MotionSample(time: 11, acceleration: Vector3(0.25, -0.5, 1), rotationRate: Vector3(0.01, 0.02, 0.03)),
            MotionSample(time: 12, pressure: 1000, gnssSpeed: 0),
            MotionSample(time: 13, acceleration: Vector3(0, 0, 0.125), temperature: -3.5),
        ])
        #expect(samples.map(\.present) == [31, 3, 20, 9])
    }

    /// `speedCode` is a literal for speed; it must stay the column's code.
    @Test func speedCodeIsTheGnssSpeedColumnsCode() {
        #expect(Int(RecordingRowParser.speedCode) == RecordingColumn.allCases.firstIndex(of: .gnssSpeed)! + 1)
    }

    /// The last line without a newline ends at the reader's 0 after the data, not at whatever the
    /// buffer held there before: files of several 1 MiB buffers, so stale digits of an earlier
    /// fill lie after the data, with the last line's length varied so that some end on one.
    @Test(arguments: 0..<6)
    func lastLineWithoutNewlineAfterManyBuffers(extraDigits: Int) throws {
        var text = "t,ax,ay,az\n"
        let lines = 70_000
        text.reserveCapacity(lines * 40)
        for i in 0..<lines { text += "\(1000 + i).123456,0.98765,-0.12345,0.5678\(i % 10)\n" }
        let last = "0." + String(repeating: "5", count: extraDigits + 1)
        text += "\(1000 + lines).5,\(last),-\(last),\(last)"
        let samples = try readAll(try temporaryRecording(text))
        #expect(samples.count == lines + 1)
        let value = try #require(Double(last))
        #expect(samples.last?.acceleration == Vector3(value, -value, value))
        #expect(samples.last?.time == Double(1000 + lines) + 0.5)
    }

    /// A carriage return before the end of the file, without a newline, ends the line as one
    /// before a newline does.
    @Test func lastLineWithCarriageReturnOnly() throws {
        let samples = try readAll(try temporaryRecording("t,ax,ay,az\r\n1,0,0,1\r\n2,0.5,0,1.25\r"))
        #expect(samples.map(\.acceleration) == [Vector3(0, 0, 1), Vector3(0.5, 0, 1.25)])
    }

    /// Refusals on the last line of a file without a newline keep their FILE:LINE: a malformed
    /// number, a number run into text, a value beyond `RecordingLimits`, a negative ground speed.
    @Test(arguments: [("1,0,0,1x", "field 'az' is not a finite number: '1x'"),
                      ("1,0,0,1.2.3", "field 'az' is not a finite number"),
                      ("1,0,0,-", "field 'az' is not a finite number: '-'"),
                      ("1,0,0,600", "field 'az' is 600 g, beyond ±500 g"),
                      ("1,0,0,1,-0.5", "field 'gnss_speed' is negative (-0.5)"),
                      ("1,0,0,1,1e3", "field 'gnss_speed' is 1e3 m/s, beyond 515 m/s"),
                      ("1,0,0,1,2,3", "too many fields")])
    func refusalsOnTheLastLineNameIt(line: String, message: String) throws {
        let speed = line.split(separator: ",").count >= 5
        let header = speed ? "t,ax,ay,az,gnss_speed" : "t,ax,ay,az"
        let error = try recordingError("\(header)\n0,0,0,1\(speed ? ",0" : "")\n\(line)")
        #expect(error.line == 3)
        #expect(error.message.contains(message), "\(error.message)")
    }

    /// Spaces around a number and a tab inside one: the fast path stops at the tab and hands the
    /// field to `DecimalParser`, which refuses it; spaces are trimmed as before.
    @Test func spacesAreTrimmedTabsAreNot() throws {
        #expect(try readAll(try temporaryRecording("t,ax,ay,az\n 1 ,  0.5,0 ,1\n")).first?.acceleration == Vector3(0.5, 0, 1))
        let error = try recordingError("t,ax,ay,az\n1,0.5\t,0,1\n")
        #expect(error.line == 2 && error.message.contains("field 'ax' is not a finite number"))
    }
}
