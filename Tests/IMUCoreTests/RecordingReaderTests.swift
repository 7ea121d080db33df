import Foundation
import Testing
@testable import IMUCore

/// Writes `text` to a temporary file and returns its path.
func temporaryRecording(_ text: String, name: String = "rec.csv") throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

func readAll(_ path: String) throws -> [MotionSample] {
    let reader = try RecordingReader(path: path)
    var out: [MotionSample] = []
    while let s = try reader.next() { out.append(s) }
    return out
}

/// The error a malformed recording raises, checked to name the file and line.
func recordingError(_ text: String) throws -> RecordingError {
    let path = try temporaryRecording(text)
    do {
        _ = try readAll(path)
    } catch let error as RecordingError {
        #expect(error.file == path)
        #expect(error.description.hasPrefix("\(path):"))
        #expect(error.exitStatus == .usage)
        return error
    }
    Issue.record("no error for malformed recording")
    return RecordingError(file: "", line: -1, message: "")
}

@Suite struct RecordingReaderTests {
    @Test func columnsInAnyOrderWithCommentsAndEmptyFields() throws {
        let path = try temporaryRecording("""
        # sensor: test
        # second comment
        p,az,t,ay,ax,extra
        1008.25,1.0,0.5,0.25,-0.125,whatever
        ,0.9,0.51,0.2,-0.1,
        """)
        let reader = try RecordingReader(path: path)
        #expect(reader.comments == ["sensor: test", "second comment"])
        #expect(reader.capabilities == SensorCapabilities(accelerometer: true, barometer: true))
        let a = try #require(try reader.next())
        #expect(a.time == 0.5)
        #expect(a.acceleration == Vector3(-0.125, 0.25, 1.0))
        #expect(a.pressure == 1008.25)
        let b = try #require(try reader.next())
        #expect(b.pressure == nil)
        #expect(b.acceleration == Vector3(-0.1, 0.2, 0.9))
        #expect(try reader.next() == nil)
    }

    @Test func accelerometerOnlyAndCRLF() throws {
        let samples = try readAll(try temporaryRecording("t,ax,ay,az\r\n1,0,0,1\r\n2,0,0,1\r\n"))
        #expect(samples.count == 2)
        #expect(samples[1].rotationRate == nil)
    }

    @Test func nanIsAnError() throws {
        let e = try recordingError("t,ax,ay,az\n1,0,0,1\n2,nan,0,1\n")
        #expect(e.line == 3)
        #expect(e.message.contains("ax"))
    }

    @Test func textInANumberField() throws {
        let e = try recordingError("t,ax,ay,az\n1,0,0,1\n2,0,abc,1\n")
        #expect(e.line == 3)
        #expect(e.message.contains("'abc'"))
    }

    @Test func shortRow() throws {
        let e = try recordingError("# c\nt,ax,ay,az\n1,0,0\n")
        #expect(e.line == 3)
        #expect(e.message.contains("short row"))
    }

    @Test func backwardTimeIsAnError() throws {
        let e = try recordingError("t,ax,ay,az\n1,0,0,1\n2,0,0,1\n1.5,0,0,1\n")
        #expect(e.line == 4)
        #expect(e.message.contains("goes back"))
    }

    /// docs/CONTRACTS.md §2: a repeated `t` drops the later sample and counts it; the count is
    /// reported when the file ends.
    @Test func repeatedTimeDropsTheLaterSampleAndCountsIt() throws {
        let path = try temporaryRecording("t,ax,ay,az\n1,0,0,1\n1,0,0,0.5\n2,0,0,1\n3,0,0,1\n3,0,0,1\n3,0,0,1\n4,0,0,1\n")
        let reader = try RecordingReader(path: path)
        var samples: [MotionSample] = []
        while let s = try reader.next() { samples.append(s) }
        #expect(samples.map(\.time) == [1, 2, 3, 4])
        #expect(samples[0].acceleration?.z == 1, "the earlier sample of a pair is kept")
        #expect(reader.repeatedTimes == 3)
        #expect(reader.firstRepeatedLine == 3)
        let note = try #require(reader.endNote)
        #expect(note.hasPrefix("\(path): dropped 3 samples"))
        #expect(note.contains("line 3"))
    }

    @Test func noRepeatsNoNote() throws {
        let reader = try RecordingReader(path: try temporaryRecording("t,ax,ay,az\n1,0,0,1\n2,0,0,1\n"))
        while try reader.next() != nil {}
        #expect(reader.repeatedTimes == 0)
        #expect(reader.endNote == nil)
    }

    /// A malformed repeated line is still an error: dropping applies to well-formed samples only.
    @Test func malformedRepeatedLineIsAnError() throws {
        let e = try recordingError("t,ax,ay,az\n1,0,0,1\n1,0,x,1\n")
        #expect(e.line == 3)
    }

    @Test func gnssSpeedColumnIsReadEmptyMeansNoFix() throws {
        let path = try temporaryRecording("t,ax,ay,az,gnss_speed\n1,0,0,1,\n2,0,0,1,1.375\n3,0,0,1,0\n")
        let reader = try RecordingReader(path: path)
        #expect(reader.capabilities == SensorCapabilities(accelerometer: true, gnssSpeed: true))
        var samples: [MotionSample] = []
        while let s = try reader.next() { samples.append(s) }
        #expect(samples.map(\.gnssSpeed) == [nil, 1.375, 0])
    }

    @Test func negativeGnssSpeedIsAnError() throws {
        let e = try recordingError("t,ax,ay,az,gnss_speed\n1,0,0,1,2\n2,0,0,1,-1\n")
        #expect(e.line == 3)
        #expect(e.message.contains("gnss_speed"))
    }

    @Test func missingHeader() throws {
        let e = try recordingError("# only a comment\n1.0,0,0,1\n")
        #expect(e.line == 2)
        #expect(e.message.contains("missing header"))
    }

    /// 0 bytes is an empty file, said of the whole file (no line 1); a blank line is a file
    /// without its header.
    @Test func emptyFileIsCalledEmpty() throws {
        let e = try recordingError("")
        #expect(e.line == 0 && e.message.hasPrefix("the file is empty"), "\(e)")
        #expect(e.fix?.contains("imu-record") == true, "\(e)")
        let blank = try recordingError("\n")
        #expect(blank.line == 1 && blank.message.contains("missing header"), "\(blank)")
    }

    @Test func partialTripleIsAnError() throws {
        let e = try recordingError("t,ax,ay,az\n1,0,,1\n")
        #expect(e.line == 2)
    }

    @Test func missingFileNamesTheFile() throws {
        #expect(throws: RecordingError.self) { try RecordingReader(path: "/nonexistent/x.csv") }
    }

    @Test func linesSpanningManyBuffersStreamCorrectly() throws {
        // 120 000 lines is several 1 MiB buffers: lines cross buffer boundaries.
        var text = "t,ax,ay,az,p\n"
        for i in 0..<120_000 { text += "\(Double(i) * 0.01),0.001,-0.002,\(1 + Double(i % 7) * 0.001),\n" }
        let samples = try readAll(try temporaryRecording(text))
        #expect(samples.count == 120_000)
        #expect(abs(samples[119_999].time - 1199.99) < 1e-9)
        #expect(samples[6].acceleration!.z == 1.006)
    }
}

@Suite struct DecimalParserTests {
    @Test(arguments: ["0", "1.5", "-0.0123", "1e-3", "+2.5E2", "583718.6023", "123456789012345678901234", "0.1", "3.14159265358979",
                      "1.", ".5", "-0", "9007199254740993", "0.00000000000000000000001234", "1234.567890", "-0.00001",
                      "9999999999999999999", "0.1234567890123456789012", "4503599627370497.5"])
    func matchesSwiftParser(text: String) throws {
        #expect(DecimalParser.parse(text) == Double(text))
    }

    @Test(arguments: ["", "-", "abc", "1.2.3", "nan", "inf", "1e", "1,5", " 1", "1 ", "+", ".", "-.", "0x1p3", "inf", "nan", "--1"])
    func rejects(text: String) {
        #expect(DecimalParser.parse(text) == nil)
    }

    /// The row parser converts usual fields itself, in one pass; every form must read as Swift's
    /// parser reads the trimmed field, in every column position (first, middle, last).
    @Test(arguments: ["0", "1.5", "-0.0123", "1e-3", "+2.5E2", "583718.6023", "123456789012345678901234", "0.1",
                      "1.", ".5", "-0", "9007199254740993", "0.00000000000000000000001234", "1234.567890", "-0.00001",
                      "9999999999999999999", "0.1234567890123456789012", "4503599627370497.5", " 2.5", "-7.00001  ", "  +3 "])
    func rowParserMatchesSwiftParser(text: String) throws {
        let expected = try #require(Double(text.trimmingSpaces()))
        let recording = "t,ax,ay,az\n1,\(text),0,\(text)\n2,0,\(text),1\n"
        if abs(expected) <= RecordingLimits.acceleration {
            let samples = try readAll(try temporaryRecording(recording))
            #expect(samples.count == 2)
            #expect(samples.first?.acceleration?.x == expected)
            #expect(samples.first?.acceleration?.z == expected)
            #expect(samples.last?.acceleration?.y == expected)
        } else {
            // Read the same way, then refused as no accelerometer's value (RecordingLimitsTests).
            let error = try recordingError(recording)
            #expect(error.line == 2 && error.message.contains("field 'ax' is \(text.trimmingSpaces()) g"), "\(error.message)")
        }
        if abs(expected) <= RecordingReader.largestTime {
            let times = try readAll(try temporaryRecording("t,ax,ay,az\n\(text),0,0,1\n"))
            #expect(times.first?.time == expected)
        }
    }

    @Test(arguments: ["-", "abc", "1.2.3", "1e", "1 5", "+", ".", "-.", "0x1p3", "inf", "nan", "--1", "1-", "2.5.", "1\t"])
    func rowParserRejects(text: String) throws {
        let error = try recordingError("t,ax,ay,az\n1,\(text),0,1\n")
        #expect(error.line == 2)
        #expect(error.message.contains("'ax' is not a finite number"))
    }
}

@Suite struct RecordingWriterTests {
    @Test func roundTripsThroughTheReader() throws {
        let path = try temporaryRecording("")
        let writer = try RecordingWriter(path: path, columns: [.t, .ax, .ay, .az, .gx, .gy, .gz, .p, .temp], comments: ["sensor: sim"])
        let samples = [
            MotionSample(time: 10.000001, acceleration: Vector3(0.01234, -0.5, 1.00001), rotationRate: Vector3(0.001, -0.002, 0.00003), pressure: 1008.2134, temperature: 24.5),
            MotionSample(time: 10.01, acceleration: Vector3(-0.00001, 0, 1), rotationRate: Vector3(0, 0, 0)),
        ]
        for s in samples { try writer.write(s) }
        try writer.close()
        let back = try readAll(path)
        #expect(back == samples)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("# sensor: sim\nt,ax,ay,az,gx,gy,gz,p,temp\n10.000001,0.01234,-0.50000,1.00001,"))
        #expect(text.contains("-0.00001,0.00000,1.00000,0.00000,0.00000,0.00000,,\n"))
    }

    /// A barometer's read glitch (pressure or temperature outside `RecordingLimits`, or not a
    /// number) is written as an empty field and counted, so the reader never refuses a file the
    /// writer made: the rest of the recording stays readable.
    @Test func implausibleBarometerReadingsAreLeftEmptyAndCounted() throws {
        let path = try temporaryRecording("")
        let writer = try RecordingWriter(path: path, columns: [.t, .ax, .ay, .az, .p, .temp])
        let readings: [(p: Double, temp: Double)] = [(1013.25, 21), (5000, 21), (.nan, 21), (1013.3, 400), (249.9, -101)]
        for (i, r) in readings.enumerated() {
            try writer.write(MotionSample(time: Double(i), acceleration: Vector3(0, 0, 1), pressure: r.p, temperature: r.temp))
        }
        try writer.close()
        #expect(writer.blankedReadings == 5)
        let back = try readAll(path)
        #expect(back.count == readings.count)
        #expect(back.map(\.pressure) == [1013.25, nil, nil, 1013.3, nil])
        #expect(back.map(\.temperature) == [21, 21, 21, nil, nil])
    }

    /// A regular file appears only whole: under a temporary name until the first sync or close.
    @Test func fileAppearsAtItsNameOnSync() throws {
        let path = try temporaryRecording("old content\n")
        let writer = try RecordingWriter(path: path, columns: [.t, .ax, .ay, .az])
        try writer.write(MotionSample(time: 1, acceleration: Vector3(0, 0, 1)))
        try writer.flush()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old content\n")
        try writer.sync()
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("t,ax,ay,az\n1.000000"))
        try writer.close()
        let directory = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [(path as NSString).lastPathComponent])
    }

    /// A symbolic link (like a device or FIFO) is written through, never renamed over.
    @Test func symbolicLinkIsWrittenThrough() throws {
        let target = try temporaryRecording("")
        let link = target + ".link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let writer = try RecordingWriter(path: link, columns: [.t, .ax, .ay, .az])
        try writer.write(MotionSample(time: 1, acceleration: Vector3(0, 0, 1)))
        try writer.close()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try readAll(target).count == 1)
    }

    @Test func gnssSpeedIsWrittenBack() throws {
        let path = try temporaryRecording("")
        let columns = RecordingColumn.columns(for: SensorCapabilities(accelerometer: true, gnssSpeed: true))
        #expect(columns == [.t, .ax, .ay, .az, .gnssSpeed])
        let writer = try RecordingWriter(path: path, columns: columns)
        let samples = [MotionSample(time: 1, acceleration: Vector3(0, 0, 1), gnssSpeed: 1.25),
                       MotionSample(time: 2, acceleration: Vector3(0, 0, 1))]
        for s in samples { try writer.write(s) }
        try writer.close()
        #expect(try readAll(path) == samples)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "t,ax,ay,az,gnss_speed\n1.000000,0.00000,0.00000,1.00000,1.250\n2.000000,0.00000,0.00000,1.00000,\n")
    }
}

@Suite struct EscapedTextTests {
    @Test func controlsAndInvisiblesAreShownEscaped() {
        #expect("a\u{1B}[31mb".escapedForTerminal == #"a\x1B[31mb"#)
        #expect("\u{FEFF}t".escapedForTerminal == #"\u{FEFF} (byte-order mark)t"#)
        #expect("x\u{9B}y\u{202E}z\u{7F}".escapedForTerminal == #"x\u{009B}y\u{202E}z\x7F"#)
        #expect("tab\there\r".escapedForTerminal == #"tab\there\r"#)
        #expect("µ° → ü 步".escapedForTerminal == "µ° → ü 步")
        #expect("two\nlines".escapedForTerminal == "two\nlines")
    }

    @Test func oneLineAndQuotedValuesUseTheSameRule() {
        #expect("a\u{1B}[2J\nb".escapedOnOneLine == #"a\x1B[2J\nb"#)
        let long = String(repeating: "x", count: String.quotedValueLimit + 5) + "\u{1B}"
        #expect(long.escapedValue == String(repeating: "x", count: String.quotedValueLimit) + "…")
        #expect(long.escapedOnOneLine.hasSuffix(#"xxxxx\x1B"#), "not cut")
        #expect("ok\u{9B}".escapedValue == #"ok\u{009B}"#)
    }
}

@Suite struct RecordingReaderBinaryTests {
    @Test func gzipMagicIsNamed() throws {
        let path = try temporaryRecording("")
        try Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00]).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: RecordingError.self) { try RecordingReader(path: path) }
        #expect(error.message.contains("gzip-compressed"))
        #expect(error.line == 1)
    }

    @Test func nulBytesAreNamedAsBinary() throws {
        let path = try temporaryRecording("")
        try Data([0x74, 0x2C, 0x00, 0x01, 0x0A]).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: RecordingError.self) { try RecordingReader(path: path) }
        #expect(error.message.contains("binary data"))
    }

    @Test func leadingByteOrderMarkIsSkipped() throws {
        let reader = try RecordingReader(path: try temporaryRecording("\u{FEFF}t,ax,ay,az\n1,0,0,1\n"))
        #expect(reader.header == ["t", "ax", "ay", "az"])
        #expect(try reader.next()?.time == 1)
    }

    @Test func fileOfOneOrTwoBytesIsStillReadable() throws {
        #expect(try RecordingReader(path: try temporaryRecording("t")).header == ["t"])
        #expect(throws: RecordingError.self) { try RecordingReader(path: try temporaryRecording("\n")) }
    }
}

/// `imu-record` creates its file and writes what it knows before the capture starts, and ends the
/// header with the first batch, when the source has said how it times its samples.
@Suite struct RecordingHeaderEndsLaterTests {
    @Test func commentsKnownLaterComeBeforeTheColumnLine() throws {
        let path = try temporaryRecording("")
        let writer = try RecordingWriter(path: path, columns: [.t, .ax, .ay, .az], comments: ["sensor: sim"], headerEndsLater: true)
        writer.endHeader(comments: ["clock: seconds on CLOCK_BOOTTIME just after each reading was polled"])
        writer.endHeader(comments: ["clock: a second call writes nothing"])
        try writer.write(MotionSample(time: 1, acceleration: Vector3(0, 0, 1)))
        try writer.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "# sensor: sim\n# clock: seconds on CLOCK_BOOTTIME just after each reading was polled\nt,ax,ay,az\n1.000000,0.00000,0.00000,1.00000\n")
    }

    @Test func theFirstSampleEndsAHeaderNobodyEnded() throws {
        let path = try temporaryRecording("")
        let writer = try RecordingWriter(path: path, columns: [.t, .ax, .ay, .az], comments: ["sensor: sim"], headerEndsLater: true)
        try writer.write(MotionSample(time: 1, acceleration: Vector3(0, 0, 1)))
        try writer.close()
        #expect(try readAll(path).count == 1)
        #expect(try RecordingReader(path: path).comments == ["sensor: sim"])
    }

    /// Stopped before any sample: the file still has its column line, so it reads as a recording
    /// of nothing rather than a file without a header.
    @Test func aRecordingClosedBeforeAnySampleHasItsColumnLine() throws {
        let path = try temporaryRecording("")
        let writer = try RecordingWriter(path: path, columns: [.t, .ax, .ay, .az], comments: ["sensor: sim"], headerEndsLater: true)
        try writer.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "# sensor: sim\nt,ax,ay,az\n")
    }

    /// The comments known at the start are written at once: a full disk is reported when the file
    /// is created, before the capture starts, as it was when the whole header went out then.
    @Test func aFullDiskFailsAtCreationThoughTheHeaderEndsLater() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        #expect(throws: RecordingError.self) {
            _ = try RecordingWriter(path: "/dev/full", columns: [.t, .ax, .ay, .az], comments: ["sensor: sim"], headerEndsLater: true)
        }
    }
}

@Suite struct SampleTimingTests {
    @Test func theClockLineSaysWhereTheTimesComeFrom() {
        #expect(SampleTiming.kernelStamps(clock: "boottime").clockLine?.contains("the kernel's stamp of each scan") == true)
        #expect(SampleTiming.kernelStamps(clock: "boottime").clockLine?.contains("current_timestamp_clock boottime") == true)
        #expect(SampleTiming.kernelStamps(clock: "realtime").clockLine?.contains("realtime clock, shifted to CLOCK_BOOTTIME") == true)
        #expect(SampleTiming.blockArrival(reason: "no timestamp channel").clockLine?.hasSuffix("(the kernel's stamps unused: no timestamp channel)") == true)
        #expect(SampleTiming.polled.clockLine == "seconds on CLOCK_BOOTTIME just after each reading was polled")
        #expect(SampleTiming.fifo.clockLine?.contains("FIFO") == true)
        #expect(SampleTiming.simulated.clockLine == "seconds on the simulator's timeline")
        #expect(SampleTiming.recording(clock: "seconds on CLOCK_BOOTTIME").clockLine == "seconds on CLOCK_BOOTTIME")
        #expect(SampleTiming.recording(clock: nil).clockLine == nil, "none invented for a recording without one")
    }

    @Test func aReplayedRecordingTellsItsOwnClockLine() throws {
        let path = try temporaryRecording("# clock: seconds on CLOCK_BOOTTIME\nt,ax,ay,az\n1,0,0,1\n")
        #expect(try RecordingSource(path: path).timing == .recording(clock: "seconds on CLOCK_BOOTTIME"))
        let bare = try temporaryRecording("t,ax,ay,az\n1,0,0,1\n")
        #expect(try RecordingSource(path: bare).timing == .recording(clock: nil))
    }
}
