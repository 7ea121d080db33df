#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams a recording (docs/CONTRACTS.md §2) in constant memory: a 600 MB day-long file is read
/// through one fixed buffer, never loaded whole.
///
/// Every malformed line is an error naming `FILE:LINE`; nothing is skipped silently. Blank lines
/// carry no data and are passed over; `#` comment lines may appear anywhere. A sample whose `t`
/// repeats the previous one is dropped and counted (`repeatedTimes`, `endNote`), as real phone
/// logs have them; a `t` that goes backwards is an error.
public final class RecordingReader {
    /// The file name used in error messages.
    public let name: String
    /// Comment lines (without the leading `#`) seen before the header.
    public private(set) var comments: [String] = []
    /// Which sensors the header declares.
    public private(set) var capabilities = SensorCapabilities(accelerometer: false)
    /// The header's column names, in file order.
    public private(set) var header: [String] = []
    /// Samples dropped so far because their `t` equalled the previous sample's (docs/CONTRACTS.md §2).
    public private(set) var repeatedTimes = 0
    /// Line of the first such sample (0 = none).
    public private(set) var firstRepeatedLine = 0
    /// Samples kept so far, and the first one's `t`: with the last `t`, the mean sample interval
    /// the end note checks (counted once per `read` call, off the per-line path).
    private var samplesKept = 0
    private var firstTime = 0.0
    /// Mean seconds between samples above which a recording with an accelerometer is said to be
    /// too slow for steps: below 1 Hz not even the slowest gait (0.5 steps/s) is sampled twice a
    /// step (Nyquist). A `t` written in milliseconds (10 ms read as 10 s) gave 0 steps without a word.
    public static let slowestStepInterval = 1.0

    /// Read buffer size in bytes: large enough that read(2) calls cost nothing per line.
    private static let chunkBytes = 1 << 20
    /// Longest line accepted, in bytes; longer means this is not a recording.
    private static let maxLineBytes = 1 << 16
    /// Largest |t| accepted, s: 1e10 s (317 years) holds any boot clock and Unix time in seconds
    /// (1.7e9 in 2026); beyond it the unit is wrong (ms, µs, ns) and durations derived from it
    /// would overflow integer conversions downstream.
    public static let largestTime = 1e10

    /// True when the file is a regular file (not a pipe, FIFO, socket or terminal): its reads
    /// never wait for a writer, so nothing is gained by handing each batch over the moment it is
    /// read (`RecordingSource`).
    public let isRegularFile: Bool

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0          // first unread byte in buffer
    private var end = 0            // one past the last valid byte
    private var eof = false
    private var lineNumber = 0
    /// How the header's columns map to sample fields; set once the header is read.
    private var row = RecordingRowParser(slots: [], headerText: "")
    private var previousTime = -Double.infinity
    /// One-sample batch for `next()`.
    private var single: [MotionSample] = []

    /// Opens `path` ("-" for standard input, named so in errors) and reads up to and including the header line.
    public convenience init(path: String) throws {
        if path == "-" {
            try self.init(descriptor: STDIN_FILENO, owned: false, name: Self.standardInput)
            return
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw RecordingError.access(path, errno: errno, creating: false) }
        // A directory opens, then fails at the first read: say what it is instead.
        var st = stat()
        if fstat(opened, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            _ = Glibc.close(opened)
            throw RecordingError.access(path, errno: EISDIR, creating: false)
        }
        try self.init(descriptor: opened, owned: true, name: path)
    }

    /// The name errors give the recording read from `-`.
    public static let standardInput = "standard input"

    /// Reads from an open descriptor (a pipe, a memory file, a socket), which stays open;
    /// `name` names it in errors.
    public convenience init(descriptor: Int32, name: String) throws {
        try self.init(descriptor: descriptor, owned: false, name: name)
    }

    /// Reads the header from `descriptor`; closes it at the end when `owned`.
    private init(descriptor: Int32, owned: Bool, name: String) throws {
        self.name = name
        fd = descriptor
        ownsDescriptor = owned
        var st = stat()
        isRegularFile = fstat(descriptor, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        // One byte more than is read into: the 0 after the data (`refill`).
        buffer = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkBytes + 1, alignment: 16)[0..<Self.chunkBytes])
        do { try readHeader() } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private var closed = false
    private func close() {
        guard !closed else { return }
        closed = true
        if ownsDescriptor { _ = Glibc.close(fd) }
        buffer.deallocate()
        row.deallocate()
    }

    // MARK: Lines

    /// Returns the next line's byte range (without the newline), or nil at end of file.
    private func nextLine() throws -> (Int, Int)? {
        while true {
            if start < end, let base = buffer.baseAddress,
               let nl = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start) {
                let lineEnd = base.distance(to: nl)
                let lineStart = start
                start = lineEnd + 1
                lineNumber += 1
                var trimmed = lineEnd
                if trimmed > lineStart && buffer[trimmed - 1] == UInt8(ascii: "\r") { trimmed -= 1 }
                return (lineStart, trimmed)
            }
            if eof {
                guard start < end else { return nil }
                // Last line without a newline.
                let lineStart = start
                start = end
                lineNumber += 1
                var trimmed = end
                if buffer[trimmed - 1] == UInt8(ascii: "\r") { trimmed -= 1 }
                return (lineStart, trimmed)
            }
            try refill()
        }
    }

    private func refill() throws {
        let pending = end - start
        if pending >= Self.maxLineBytes {
            var error = RecordingError(file: name, line: lineNumber + 1, message: "line longer than \(Self.maxLineBytes) bytes; this is not a recording")
            // A first line that long is another kind of file; a later one, a damaged line to remove.
            error.fix = lineNumber == 0 ? "name a CSV recording (imu-record writes one; docs/file-formats.md)"
                : RecordingError.mendLine(lineNumber + 1, of: name)
            throw error
        }
        if start > 0, let base = buffer.baseAddress {
            if pending > 0 { memmove(base, base + start, pending) }
            start = 0
            end = pending
        }
        while true {
            let n = Glibc.read(fd, buffer.baseAddress! + end, buffer.count - end)
            if n < 0 {
                if errno == EINTR { continue }
                throw RecordingError(file: name, line: lineNumber + 1, message: "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { eof = true } else { end += n }
            // A 0 after the data: a last line without a newline ends there, and the row
            // parser's scans of digits and spaces stop at the byte after each line without
            // testing the position (`RecordingRowParser.parse`). The buffer has a byte to spare.
            buffer.baseAddress!.storeBytes(of: 0, toByteOffset: end, as: UInt8.self)
            return
        }
    }

    private func text(_ a: Int, _ b: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: buffer[a..<b]), as: UTF8.self)
    }

    /// Bytes `a..<b` for an error message: escaped (a file may hold escape sequences) and cut
    /// to `RecordingRowParser.excerptCharacters`.
    private func shown(_ a: Int, _ b: Int) -> String {
        RecordingRowParser.shown(UnsafeRawBufferPointer(buffer), a, b)
    }

    /// `command` (a filter: zcat, iconv) applied to the recording `file`, as a shell command: the
    /// name was given unquoted (a name with a space split in two), and standard input was named
    /// as a file called 'standard input'.
    static func converted(_ file: String, with command: String) -> String {
        file == standardInput ? "… | \(command) | imu-steps --replay - (in the pipe, before the tool)"
            : "\(command) \(RecordingError.shellQuoted(file)) > recording.csv, then replay recording.csv"
    }

    /// A gzip file (magic 1F 8B, RFC 1952) or other binary data at the start of the file: named,
    /// instead of an error that quotes binary.
    private func refuseBinary() throws {
        guard end - start >= 2 else { return }
        // gzip's magic number, ID1 ID2 = 1F 8B (RFC 1952 §2.3.1).
        if buffer[start] == 0x1F && buffer[start + 1] == 0x8B {
            var error = RecordingError(file: name, line: 1, message: "this is a gzip-compressed file, not a CSV recording")
            error.fix = "decompress it first: " + Self.converted(name, with: "zcat")
            throw error
        }
        // A UTF-16 byte-order mark (FF FE or FE FF): a spreadsheet's "Unicode text" export.
        if (buffer[start] == 0xFF && buffer[start + 1] == 0xFE) || (buffer[start] == 0xFE && buffer[start + 1] == 0xFF) {
            var error = RecordingError(file: name, line: 1, message: "this is UTF-16 text, not a UTF-8 CSV recording")
            error.fix = "convert it first: " + Self.converted(name, with: "iconv -f UTF-16 -t UTF-8")
            throw error
        }
        let probe = min(end, start + Self.sniffedBytes)
        if let nul = (start..<probe).first(where: { buffer[$0] == 0 }) {
            var error = RecordingError(file: name, line: 1, message: "binary data (a NUL byte at offset \(nul - start)), not a CSV recording")
            error.fix = Self.notARecordingFix
            throw error
        }
        // Bytes that are no UTF-8 (random data without a NUL in its first sniffedBytes, one time in
        // eight; text in Latin-1): the header error quoted them as a row of U+FFFD.
        if let offset = UTF8Check.firstInvalidByte(Array(buffer[start..<probe]), cutShort: probe < end) {
            var error = RecordingError(file: name, line: 1, message: "byte 0x\(String(buffer[start + offset], radix: 16, uppercase: true)) "
                                       + "at offset \(offset) is not UTF-8 text: this is binary data or text in another encoding, not a CSV recording")
            error.fix = Self.notARecordingFix + "; text in another encoding converts with " + Self.converted(name, with: "iconv -f LATIN1 -t UTF-8")
            throw error
        }
    }

    /// Bytes from the start looked at for binary data (a NUL, bytes that are no UTF-8). No
    /// standard gives it; what it trades: binary formats say so in their first bytes (ELF, PNG,
    /// SQLite and zip files hold a NUL within their first 16), and a recording's start is text
    /// (all ten known columns make a 38-byte header, a row is 20 to 90 bytes), so 512 bytes hold
    /// the header and some rows: enough to name a binary file as one. A NUL or a bad byte further
    /// on is a malformed line, named with its FILE:LINE by the row parser, which says more there.
    static let sniffedBytes = 512

    private static let notARecordingFix = "name a CSV recording (imu-record writes one; docs/file-formats.md)"



    /// Skips a UTF-8 byte-order mark (EF BB BF) at the very start: spreadsheets write one
    /// before the header of a "CSV UTF-8" file.
    private func skipByteOrderMark() {
        let mark = UTF8Check.byteOrderMark
        if end - start >= mark.count && mark.indices.allSatisfy({ buffer[start + $0] == mark[$0] }) { start += mark.count }
    }

    private func isBlank(_ a: Int, _ b: Int) -> Bool {
        var i = a
        while i < b { if buffer[i] != UInt8(ascii: " ") && buffer[i] != UInt8(ascii: "\t") { return false }; i += 1 }
        return true
    }

    // MARK: Header

    private func readHeader() throws {
        while end - start < 3 && !eof { try refill() }
        try refuseBinary()
        skipByteOrderMark()
        while let (a, b) = try nextLine() {
            if isBlank(a, b) { continue }
            if buffer[a] == UInt8(ascii: "#") {
                comments.append(text(a + 1, b).trimmingSpaces())
                continue
            }
            // Lines ended by a carriage return alone (classic Mac OS text) read as one line, and
            // that line's names were refused as "header names column '0' twice".
            if (a..<b).contains(where: { buffer[$0] == UInt8(ascii: "\r") }) {
                var refused = RecordingError(file: name, line: lineNumber, message: "lines end in a carriage return alone (old Mac text), so the whole file reads as one line")
                refused.fix = name == Self.standardInput ? "pipe it through tr '\\r' '\\n' first"
                    : "convert the line ends: tr '\\r' '\\n' < \(RecordingError.shellQuoted(name)) > fixed.csv"
                throw refused
            }
            let names = text(a, b).split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
            if let first = names.first, DecimalParser.parse(first) != nil {
                var refused = RecordingError(file: name, line: lineNumber, message: "missing header line: expected column names such as t,ax,ay,az before the first sample")
                refused.fix = RecordingError.headerFix
                throw refused
            }
            guard names.contains("t") else {
                var refused = RecordingError(file: name, line: lineNumber, message: "header has no 't' column (found: \(shown(a, b)))")
                refused.fix = RecordingError.headerFix
                // One name holding them all: another separator (a spreadsheet set to a decimal
                // comma exports "t;ax;ay;az" and "0,5;0,1"; some tools write tabs).
                if names.count == 1, let separator = ([";", "\t"] as [Character]).first(where: names[0].contains) {
                    let shownSeparator = separator == ";" ? "';'" : "tabs"
                    refused.message = "columns are separated by \(shownSeparator), not commas (found: \(shown(a, b)))"
                    refused.fix = RecordingError.separatorFix(String(separator), file: name)
                } else if names.contains("\"t\"") {
                    // A spreadsheet or pandas quoting every field: the names are there, in quotes.
                    refused.message = "column names are in quotes (found: \(shown(a, b))); recordings have no quotes"
                    refused.fix = name == Self.standardInput ? "pipe it through tr -d '\"' first"
                        : "remove them: tr -d '\"' < \(RecordingError.shellQuoted(name)) > fixed.csv"
                } else if names.contains(where: { $0.lowercased() == "t" }) {
                    refused.message = "column names are lower case: t, not T (found: \(shown(a, b)))"
                    refused.fix = "write line \(lineNumber) in lower case, e.g. t,ax,ay,az (docs/file-formats.md)"
                } else if let time = names.first(where: { RecordingError.timeColumnNames.contains($0.lowercased()) }) {
                    // Phone apps name it "time" or "timestamp": "add a first line naming the
                    // columns" was told to a file that had one.
                    refused.message = "the time column is named '\(time.escapedValue)', not t (found: \(shown(a, b)))"
                    refused.fix = "rename '\(time.escapedValue)' to t in line \(lineNumber); t is in seconds (docs/file-formats.md)"
                } else if names.contains(where: { RecordingColumn(rawValue: $0) != nil }) {
                    // A header of known columns without times: there is a first line to mend, not one to add.
                    refused.fix = "add t, each sample's time in seconds, to line \(lineNumber) and to every row: "
                        + "the rate is whatever the timestamps say (docs/file-formats.md)"
                }
                throw refused
            }
            var seen = Set<String>()
            for n in names where !n.isEmpty {
                guard seen.insert(n).inserted else {
                    var refused = RecordingError(file: name, line: lineNumber, message: "header names column '\(n.escapedValue)' twice")
                    refused.fix = "rename or remove one of the two '\(n.escapedValue)' columns in line \(lineNumber), and its field in every row"
                    throw refused
                }
            }
            header = names
            let slots = names.map { RecordingColumn(rawValue: $0) }
            row.deallocate()
            row = RecordingRowParser(slots: slots, headerText: names.joined(separator: ",").escapedForTerminal)
            let present = Set(slots.compactMap { $0 })
            for (group, label) in [([RecordingColumn.ax, .ay, .az], "ax,ay,az"), ([.gx, .gy, .gz], "gx,gy,gz")] {
                let count = group.filter { present.contains($0) }.count
                if count != 0 && count != 3 {
                    let missing = group.filter { !present.contains($0) }.map(\.rawValue).joined(separator: ",")
                    var refused = RecordingError(file: name, line: lineNumber,
                                                 message: "header must name all of \(label) or none (found: \(names.joined(separator: ",").escapedValue))")
                    refused.fix = "name the missing \(missing) in line \(lineNumber) (each column once, e.g. t,ax,ay,az; docs/file-formats.md), or leave out the rest of \(label)"
                    throw refused
                }
            }
            capabilities = SensorCapabilities(accelerometer: present.contains(.ax), gyroscope: present.contains(.gx),
                                              barometer: present.contains(.p), thermometer: present.contains(.temp),
                                              gnssSpeed: present.contains(.gnssSpeed))
            return
        }
        if name == Self.standardInput && lineNumber == 0 {
            // Nothing came at all: an empty pipe, /dev/null, or standard input closed (`<&-`).
            var error = RecordingError(file: name, line: 0, message: "no recording came: it ended before a header line such as t,ax,ay,az")
            error.fix = "pipe or redirect a recording into it, e.g. add < walk.csv to the command"
            throw error
        }
        if lineNumber == 0 {
            // Not one line (0 bytes, or only a byte-order mark): a recording that was never
            // written (a crash before the header, `touch`, a redirect that failed) or the wrong path.
            var error = RecordingError(file: name, line: 0, message: "the file is empty: it holds no recording (not even a header line such as t,ax,ay,az)")
            error.fix = "record one (imu-record -d 60 -o walk.csv), or check the path names the recording you meant"
            throw error
        }
        var refused = RecordingError(file: name, line: lineNumber, message: "missing header line: the file has no column names (expected e.g. t,ax,ay,az)")
        refused.fix = RecordingError.headerFix
        throw refused
    }

    // MARK: Samples

    /// The next sample, or nil at the end of the file.
    public func next() throws -> MotionSample? {
        single.removeAll(keepingCapacity: true)
        try read(into: &single, maximum: 1)
        return single.popLast()
    }

    /// What to tell the user once the file has been read, or nil when there is nothing to say:
    /// how many samples were dropped for a repeated `t`. The file name is escaped: every tool
    /// prints the note as it is (a name holding ESC [2J cleared the terminal).
    public var endNote: String? {
        var notes: [String] = []
        if repeatedTimes > 0 {
            notes.append("\(name.escapedOnOneLine): dropped \(counted(repeatedTimes, "sample")) whose t repeated the previous sample's "
                + "(first at line \(firstRepeatedLine)); the earlier sample of each pair was kept")
        }
        if let slow = slowNote { notes.append(slow) }
        return notes.isEmpty ? nil : notes.joined(separator: "\n")
    }

    /// Accelerometer samples further apart on average than `slowestStepInterval`: no step can be
    /// seen, and a `t` in milliseconds is the likely cause.
    private var slowNote: String? {
        guard capabilities.accelerometer, samplesKept >= 3, previousTime.isFinite else { return nil }
        let interval = (previousTime - firstTime) / Double(samplesKept - 1)
        guard interval > Self.slowestStepInterval else { return nil }
        return "\(name.escapedOnOneLine): its samples are \(String(cFormat: "%.3g", interval)) s apart on average "
            + "(\(String(cFormat: "%.3g", 1 / interval)) Hz), too far apart to see a step (steps need 25 Hz or more: docs/CONTRACTS.md §2); "
            + "t is in seconds: if it was written in milliseconds, divide it by 1000"
    }

    /// Appends up to `maximum` samples to `batch`; returns how many were appended (0 at end of
    /// file). The samples before a malformed line stay in `batch` when its error is thrown.
    ///
    /// The hot path: the buffer position, line number and last time live in locals for the
    /// whole call and are written back only around a refill, an error or the return, so the
    /// per-line work touches no class property (no runtime exclusivity checks), and each sample
    /// is built once, in place at the end of `batch`.
    @discardableResult
    public func read(into batch: inout [MotionSample], maximum: Int) throws -> Int {
        let base = UnsafeRawPointer(buffer.baseAddress!)
        let row = self.row
        var s = start, e = end, line = lineNumber, previous = previousTime
        var count = 0
        defer {
            start = s; end = e; lineNumber = line; previousTime = previous
            if samplesKept == 0 && count > 0 { firstTime = batch[batch.count - count].time }
            samplesKept += count
        }
        while count < maximum {
            var lineEnd: Int
            if s < e, let nl = memchr(base + s, Int32(UInt8(ascii: "\n")), e - s) {
                lineEnd = UnsafeRawPointer(nl) - base
            } else if eof {
                guard s < e else { break }
                lineEnd = e          // the last line, without a newline
            } else {
                start = s; end = e; lineNumber = line
                try refill()
                s = start; e = end
                continue
            }
            let a = s
            s = lineEnd < e ? lineEnd + 1 : e
            line += 1
            if lineEnd > a && base.load(fromByteOffset: lineEnd - 1, as: UInt8.self) == UInt8(ascii: "\r") { lineEnd -= 1 }
            if a == lineEnd { continue }
            let first = base.load(fromByteOffset: a, as: UInt8.self)
            if first == UInt8(ascii: "#") || ((first == UInt8(ascii: " ") || first == UInt8(ascii: "\t")) && isBlank(a, lineEnd)) { continue }
            let sample: MotionSample
            do { sample = try row.parse(base, a, lineEnd) } catch {
                var refused = RecordingError(file: name, line: line, message: error.message)
                refused.fix = error.fix ?? RecordingError.mendLine(line, of: name)
                throw refused
            }
            if sample.time == previous {
                repeatedTimes += 1
                if firstRepeatedLine == 0 { firstRepeatedLine = line }
                continue
            }
            guard sample.time > previous else {
                var refused = RecordingError(file: name, line: line, message: "t=\(sample.time) goes back from the previous sample's t=\(previous); time must increase")
                refused.fix = "if two recordings were joined, split the file before line \(line) and replay each; else " + RecordingError.mendLine(line, of: name)
                throw refused
            }
            previous = sample.time
            batch.append(sample)
            count += 1
        }
        return count
    }
}

extension String {
    /// Trims spaces and tabs (Foundation-free).
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
