#if canImport(Glibc)
import Glibc
#endif

/// Local (civil) time of this process's time zone through the C library: glibc reads `TZ`, else
/// /etc/localtime, with every daylight-saving rule of the system's zone data (tzset(3),
/// localtime(3), mktime(3)). The tools use it for `--today`, `--history` and `--since`, because
/// FoundationEssentials alone knows only GMT in a statically linked tool (docs/memory.md).
///
/// Times are seconds since 1970-01-01 UTC (what `Date.timeIntervalSince1970` holds). A local day
/// runs from local midnight to the next local midnight: 23 hours on the spring daylight-saving
/// day, 25 on the autumn one. Where midnight itself does not exist (a zone that springs forward
/// at 00:00), the day starts at the first local time that does, as mktime(3) normalises it.
public enum LocalTime {
    /// Calendar fields of one instant in the local zone.
    public struct Fields: Equatable, Sendable {
        public var year: Int
        /// 1 to 12.
        public var month: Int
        /// 1 to 31.
        public var day: Int
        public var hour: Int
        public var minute: Int
        public var second: Int
        /// 0 (Sunday) to 6 (Saturday).
        public var weekday: Int
        /// Local time minus UTC, seconds (+3600 for Berlin in winter, +7200 in summer).
        public var utcOffsetSeconds: Int
    }

    /// The fields of `time` (whole seconds: the fraction is dropped, as clocks show it). Times from
    /// the bus or files are clamped to ±1e15 s (31 million years) before the integer conversion;
    /// not finite reads as 1970.
    public static func fields(_ time: Double) -> Fields {
        _ = initialise
        var t = time_t(time.isFinite ? min(max(time.rounded(.down), -1e15), 1e15) : 0)
        var tm = Glibc.tm()
        localtime_r(&t, &tm)
        return Fields(year: Int(tm.tm_year) + 1900, month: Int(tm.tm_mon) + 1, day: Int(tm.tm_mday), hour: Int(tm.tm_hour),
                      minute: Int(tm.tm_min), second: Int(tm.tm_sec), weekday: Int(tm.tm_wday), utcOffsetSeconds: tm.tm_gmtoff)
    }

    /// The instant of a local date and time. Out-of-range fields carry over (day 32 is the 1st of
    /// the next month), as mktime(3) normalises them; a time skipped by a daylight-saving change
    /// moves forward by the change. Nil when the C library cannot represent it.
    public static func time(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Double? {
        _ = initialise
        guard let y = Int32(exactly: year - 1900), let mo = Int32(exactly: month - 1), let d = Int32(exactly: day),
              let h = Int32(exactly: hour), let mi = Int32(exactly: minute), let s = Int32(exactly: second) else { return nil }
        var tm = Glibc.tm()
        tm.tm_year = y; tm.tm_mon = mo; tm.tm_mday = d
        tm.tm_hour = h; tm.tm_min = mi; tm.tm_sec = s
        tm.tm_isdst = -1   // let the zone's rules decide whether daylight-saving time applies
        errno = 0
        let t = mktime(&tm)
        // −1 is also a valid time (1969-12-31 23:59:59 UTC): only errno (EOVERFLOW) tells a failure.
        if t == -1 && errno != 0 { return nil }
        return Double(t)
    }

    /// Local midnight starting the day `days` days after the day containing `time` (0: that day).
    public static func startOfDay(containing time: Double, addingDays days: Int = 0) -> Double {
        let f = fields(time)
        return self.time(year: f.year, month: f.month, day: f.day + days) ?? time
    }

    /// The local day containing `time`: [midnight, next midnight).
    public static func day(containing time: Double) -> (start: Double, end: Double) {
        (startOfDay(containing: time), startOfDay(containing: time, addingDays: 1))
    }

    /// The local days overlapping [from, to) as their bounds, clipped to it: from, each local
    /// midnight after it and before `to`, then to (n + 1 instants for n days; [] when `to` is not
    /// after `from` or either is not finite). Days are this process's, as the C library cuts them
    /// (a POSIX rule's daylight-saving changes included), so that a client can ask the step daemon
    /// for its own days by instants (QueryIntervals). At most `maxDays` intervals, the last one
    /// running to `to`; a midnight the C library cannot give also ends the list at `to` rather
    /// than looping.
    public static func dayBounds(from: Double, to: Double, maxDays: Int = 3700) -> [Double] {
        guard from.isFinite, to.isFinite, to > from else { return [] }
        var bounds = [from]
        var start = from
        while bounds.count < maxDays {
            let next = startOfDay(containing: start, addingDays: 1)
            // A midnight that does not advance (mktime(3) failed: startOfDay gave `start` back).
            guard next > start, next < to else { break }
            bounds.append(next)
            start = next
        }
        bounds.append(to)
        return bounds
    }

    /// Days in `month` (1–12) of `year`, Gregorian.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The zone's IANA name ("Europe/Berlin") for naming the zone this process's local times are
    /// in to Foundation (`TimeZone(identifier:)`, imu-plot --day) or to the step daemon (QueryDays).
    /// `TZ` when it names a zone file, under `zoneDirectory` (glibc's TZDIR; `zoneinfo` when that
    /// is unset or empty) or as an absolute path inside it or a zoneinfo directory; "UTC" when
    /// glibc runs on UTC because of `TZ`: ":" (an empty file name) or naming neither a zone file
    /// nor a rule (`unknownZone`); with `TZ` unset or empty, what /etc/localtime links to, else
    /// /etc/timezone, each as found under `zoneinfo` (glibc reads /etc/localtime without TZDIR).
    /// (Measured on Debian 12's glibc 2.36 with a Europe/Berlin /etc/localtime: TZ="" runs on CET
    /// like an unset TZ, although tzset(3) says UTC; TZ=":" runs on UTC.) "" when none names a
    /// zone (a POSIX rule such as CET-1CEST, a zone file outside those directories). A name found
    /// only under TZDIR may be unknown to Foundation and to the daemon: imu-steps asks the daemon
    /// for its days by instants instead (`StepServiceClient.days(from:to:)`).
    public static func zoneIdentifier(environment tz: String? = getenv("TZ").map { String(cString: $0) },
                                      zoneinfo: String = "/usr/share/zoneinfo",
                                      zoneDirectory: String? = getenv("TZDIR").map { String(cString: $0) }) -> String {
        func known(_ name: String, under directory: String) -> Bool {
            !name.isEmpty && !name.hasPrefix("/") && !name.split(separator: "/").contains("..") && access(directory + "/" + name, R_OK) == 0
        }
        func afterZoneinfo(_ path: String) -> String? {
            guard let r = path.firstRange(of: "zoneinfo/") else { return nil }
            return String(path[r.upperBound...])
        }
        if let tz, !tz.isEmpty {
            // glibc reads ":" as a zone file with an empty name: UTC.
            if tz == ":" { return "UTC" }
            // glibc fell back to UTC; "" had the daemon answer in its own zone.
            if unknownZone(environment: tz, zoneDirectory: zoneDirectory) != nil { return "UTC" }
            // Where glibc looked for a relative name: TZDIR when set and not empty.
            let directory = zoneDirectory.flatMap { $0.isEmpty ? nil : $0 } ?? zoneinfo
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            if name.hasPrefix("/") {
                let inDirectory = name.hasPrefix(directory + "/") ? String(name.dropFirst(directory.count + 1)) : nil
                if let inDirectory, known(inDirectory, under: directory) { return inDirectory }
                if let after = afterZoneinfo(name), known(after, under: zoneinfo) { return after }
                return ""
            }
            return known(name, under: directory) ? name : ""
        }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/etc/localtime", &buffer, buffer.count - 1)
        if n > 0, let name = afterZoneinfo(String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)),
           known(name, under: zoneinfo) { return name }
        if let file = fopen("/etc/timezone", "re") {
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 256)
            if fgets(&line, Int32(line.count), file) != nil {
                let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let name = text.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
                if known(name, under: zoneinfo) { return name }
            }
        }
        return ""
    }

    /// `TZ` naming no zone the C library can use, and the warning to give for it.
    public struct UnknownZone: Equatable, Sendable {
        /// `TZ` as it was set.
        public var tz: String
        /// The zone file looked for (`TZDIR`/name, or the absolute path `TZ` gave).
        public var zoneFile: String
        /// `TZDIR` when it was set and not empty: where glibc looked for zone names, and where the
        /// fix says to list them; nil for /usr/share/zoneinfo.
        public var zoneDirectory: String? = nil
        /// One line, the fix included: a tool writes it after "imu-steps: warning: ", the daemon logs it.
        public var warning: String {
            "TZ='\(tz.escapedValue)' names no time zone this system knows (no zone file \(zoneFile.escapedOnOneLine), and no rule "
                + "such as CET-1CEST), so local times and days are in UTC: \"today\" starts at 00:00 UTC, not at your midnight; "
                + "set TZ to a zone such as Europe/Berlin (\(listing)), or unset it to use the system's zone (/etc/localtime)"
        }
        /// Where the zone names are: TZDIR's directory when it was set (glibc looks nowhere else).
        var listing: String {
            guard let zoneDirectory else { return "ls /usr/share/zoneinfo" }
            return "ls \(zoneDirectory.escapedOnOneLine), which TZDIR names; or unset TZDIR to use /usr/share/zoneinfo"
        }
    }

    /// `TZ` when glibc's tzset(3) finds neither a zone file for it nor a POSIX rule in it, and
    /// silently uses UTC (TZ=Nowhere/Land, a typo'd Europe/Berlni, a zone missing because tzdata
    /// is not installed); nil when `TZ` is unset or empty (the system's zone, as glibc 2.36 reads
    /// it: `zoneIdentifier`), ":" (UTC on purpose), a zone file or a rule. glibc's order: a leading ':' is dropped; the name (absolute, else under
    /// `TZDIR`, else /usr/share/zoneinfo) is read as a zone file, which starts with "TZif"
    /// (tzfile(5)); failing that it is parsed as a POSIX rule, whose standard-time name
    /// (3 letters or more, or <…> quoted) must be followed by an offset (an optional sign, a digit).
    /// Looks at one file (stat(2), and a 4-byte read of a regular file): a blocking call.
    public static func unknownZone(environment tz: String? = getenv("TZ").map { String(cString: $0) },
                                   zoneDirectory: String? = getenv("TZDIR").map { String(cString: $0) }) -> UnknownZone? {
        guard let tz, !tz.isEmpty, tz != ":" else { return nil }
        let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        let directory = zoneDirectory.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        let file = name.hasPrefix("/") ? name : directory + "/" + name
        if isZoneFile(file) || isPOSIXRule(name) { return nil }
        return UnknownZone(tz: tz, zoneFile: file, zoneDirectory: zoneDirectory.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// A regular file starting with the zone-file magic "TZif" (tzfile(5)). A FIFO or device is
    /// never opened (stat first).
    static func isZoneFile(_ path: String) -> Bool {
        var st = stat()
        guard !path.isEmpty, stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var magic = [UInt8](repeating: 0, count: 4)
        return read(fd, &magic, 4) == 4 && magic == Array("TZif".utf8)
    }

    /// A POSIX TZ rule's start, as glibc's parser takes it: a standard-time name of 3 or more
    /// ASCII letters (or 3 or more letters, digits, '+' and '-' between '<' and '>'), then an
    /// offset: an optional sign and at least one digit. "CET-1CEST", "EST5EDT", "<+0530>-5:30", "UTC0".
    static func isPOSIXRule(_ text: String) -> Bool {
        var rest = Substring(text).utf8[...]
        func isLetter(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) }
        func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
        if rest.first == UInt8(ascii: "<") {
            rest = rest.dropFirst()
            let inside = rest.prefix { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
            rest = rest.dropFirst(inside.count)
            guard inside.count >= 3, rest.first == UInt8(ascii: ">") else { return false }
            rest = rest.dropFirst()
        } else {
            let letters = rest.prefix(while: isLetter)
            guard letters.count >= 3 else { return false }
            rest = rest.dropFirst(letters.count)
        }
        if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        return rest.first.map(isDigit) ?? false
    }

    // MARK: Text

    /// "2026-03-29T00:00:00+01:00"; "Z" for UTC (ISO 8601, as Foundation's `ISO8601DateFormatter`
    /// wrote it for the local zone).
    public static func iso8601(_ time: Double) -> String {
        let f = fields(time)
        return date(f) + "T" + clock(f, seconds: true) + offset(f.utcOffsetSeconds)
    }

    /// "2026-03-29 14:05".
    public static func stamp(_ time: Double) -> String {
        let f = fields(time)
        return date(f) + " " + clock(f, seconds: false)
    }

    /// "2026-03-29": the local date of `time`, as `--since` and `--day` take it.
    public static func isoDate(_ time: Double) -> String { date(fields(time)) }

    /// "2026-03-29 Sun".
    public static func dayLabel(_ time: Double) -> String {
        let f = fields(time)
        return date(f) + " " + ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][f.weekday]
    }

    static func date(_ f: Fields) -> String { pad(f.year, 4) + "-" + pad(f.month, 2) + "-" + pad(f.day, 2) }
    static func clock(_ f: Fields, seconds: Bool) -> String {
        pad(f.hour, 2) + ":" + pad(f.minute, 2) + (seconds ? ":" + pad(f.second, 2) : "")
    }
    static func offset(_ s: Int) -> String {
        guard s != 0 else { return "Z" }
        let m = abs(s) / 60
        return (s < 0 ? "-" : "+") + pad(m / 60, 2) + ":" + pad(m % 60, 2)
    }
    static func pad(_ n: Int, _ width: Int) -> String {
        let text = String(abs(n))
        return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// Reads the zone once (tzset(3)): localtime_r need not do it itself.
    private static let initialise: Void = tzset()
}
