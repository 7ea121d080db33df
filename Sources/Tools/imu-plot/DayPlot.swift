import Foundation
import IMUCLI
import IMUCore
import IMUHistory
import IMUPlot

/// `--day [DATE]`: one local day of the step service's history as one HTML page.
enum DayPlot {
    /// Where imu-stepd keeps its history by default (its StateDirectory, docs/service.md).
    static let defaultHistory = "/var/lib/imu-stepd/history.sqlite"

    static func run(_ options: PlotOptions, args: ParsedArguments) async throws {
        ZoneWarning.say(command: args.command)
        let date = try day(args.positionals.first, command: args.command, zone: localZone(at: Date()))
        let zone = localZone(at: date)
        let given = args.string("history")
        let path = given ?? defaultHistory
        guard FileManager.default.fileExists(atPath: path) else {
            if given != nil {
                throw UsageError("no history file at \(path)", command: args.command,
                                 fix: "check the name (ls \(HistoryError.directory(of: path))); imu-stepd keeps its history as \(defaultHistory)")
            }
            throw NoHistoryError(path: path)
        }
        // Read-only, and off the cooperative pool: HistoryReader runs HistoryStore's queries on its
        // own queue, and opening it (SQLite reads the file's header and schema) runs on a thread of its own.
        let store: HistoryReader
        do { store = try await OwnThread.run(name: "imu-plot") { try HistoryReader(path: path) } } catch let error as HistoryError {
            switch error {
            case .notADatabase, .foreignDatabase: throw NotAHistoryError(refused: error)
            default: throw error
            }
        }
        var (start, end, slots) = DayData.hours(ofDayContaining: date, in: zone)
        var utcOffset: (@Sendable (Date) -> Int)?
        var zoneLabel: String?
        if Self.followsARule {
            zoneLabel = ruleLabel
            // The C library's day and clock: a rule's daylight-saving change within the day moves
            // its midnight and its later hours, which the fixed offset of `zone` did not follow.
            let day = LocalTime.day(containing: date.timeIntervalSince1970)
            (start, end) = (Date(timeIntervalSince1970: day.start), Date(timeIntervalSince1970: day.end))
            slots = DayData.hours(from: start, to: end)
            utcOffset = ruleOffset
        }
        var hours: [HistoryTotals] = []
        for (a, b) in slots { hours.append(try await store.totals(from: a, to: b)) }
        let activities = try await store.activities(from: start, to: end)
        let data = DayData(start: start, end: end, timeZone: zone, hours: hours, activities: activities, source: path, utcOffset: utcOffset,
                           zoneLabel: zoneLabel)
        let html = DayReport.render(data)
        let out = options.out
        let written = try await OwnThread.run(name: "imu-plot") { try OutputFile.write(html, to: out) }
        guard written else { return }   // standard output refused it: ToolMain says so
        let name = options.out == "-" ? "standard output" : options.out
        if data.isEmpty {
            RecordingPlot.note("wrote \(name): no history for \(DayReport.dayName(data)) in \(path); the page says so")
        } else {
            RecordingPlot.note("wrote \(name) (\(html.utf8.count / 1024) KiB): \(counted(data.steps, "step")), floors ↑\(data.floorsAscended) ↓\(data.floorsDescended)")
        }
    }

    /// The zone the day is cut in: the C library's (`LocalTime`), where imu-steps cuts its days.
    /// Foundation's `TimeZone.current` took TZ=":", a TZ naming no zone and a POSIX rule all for
    /// the system's zone (/etc/localtime), where glibc runs the first two on UTC and the rule as
    /// written: the page showed another day than `imu-steps --history`.
    static func localZone(at date: Date) -> TimeZone {
        // One zone lookup (a readlink and a stat): `followsARule` is the same two tests.
        if let zone = namedZone { return zone }
        guard tzIsSet else { return .current }
        // A POSIX rule (TZ=CET-1CEST,M3.5.0,M10.5.0/3), or a zone Foundation does not know (one
        // under TZDIR): its offset at `date`; `run` follows a change within the day through the C library.
        return TimeZone(secondsFromGMT: LocalTime.fields(date.timeIntervalSince1970).utcOffsetSeconds) ?? .gmt
    }

    /// The local clock named as TZ gave it, for `followsARule`: a zone under TZDIR by its name, a
    /// rule as written (escaped: it comes from the environment).
    static var ruleLabel: String {
        let name = LocalTime.zoneIdentifier()
        return name.isEmpty ? "TZ=" + (getenv("TZ").map { String(cString: $0) } ?? "").escapedValue : name.escapedValue
    }

    /// The local clock's UTC offset at an instant through the C library (`LocalTime`), for
    /// `followsARule`: a POSIX rule's daylight-saving changes, which no Foundation zone holds.
    static let ruleOffset: @Sendable (Date) -> Int = { LocalTime.fields($0.timeIntervalSince1970).utcOffsetSeconds }

    /// The zone by its name when Foundation knows it (the C library's zone: `LocalTime.zoneIdentifier`).
    private static var namedZone: TimeZone? {
        let name = LocalTime.zoneIdentifier()
        return name.isEmpty ? nil : TimeZone(identifier: name)
    }

    /// True when no Foundation zone is the local clock: TZ holds a rule, or names a zone
    /// Foundation does not know. TZ unset or empty (glibc 2.36 reads both as the system's zone)
    /// with /etc/localtime naming no zone under zoneinfo is Foundation's `.current`, which reads
    /// that file too.
    static var followsARule: Bool { namedZone == nil && tzIsSet }

    /// TZ is set and not empty.
    private static var tzIsSet: Bool { !(getenv("TZ").map { $0.pointee == 0 } ?? true) }

    /// `today` (default), `yesterday`, or YYYY-MM-DD, as a moment inside that local day (noon).
    static func day(_ text: String?, command: String, zone: TimeZone) throws -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let now = Date()
        switch text ?? "today" {
        case "today": return now
        case "yesterday": return calendar.date(byAdding: .day, value: -1, to: now) ?? now.addingTimeInterval(-86400)
        default:
            let parts = text!.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                  let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
                  (1...9999).contains(y), (1...12).contains(m), (1...31).contains(d),
                  let date = calendar.date(from: DateComponents(year: y, month: m, day: d, hour: 12)),
                  calendar.component(.day, from: date) == d else {
                if let slip = CalendarSlip.of(text!), !slip.nearest.contains(":") {
                    throw UsageError("--day \(text!) names no date: \(slip.problem)", command: command,
                                     fix: "give one that exists, e.g. --day \(slip.nearest)")
                }
                throw UsageError("--day takes today, yesterday or a date as YYYY-MM-DD, got '\(text!.escapedValue)'", command: command,
                                 fix: "e.g. --day today, --day yesterday or --day 2026-12-01 (four-digit year, two-digit month and day)")
            }
            // 9999-12-31 and 1970-01-01 drew a page "no history for …" that no history can fill,
            // and 0001-01-01 was told the form was wrong. The range is the history's own: from the
            // local day holding HistoryStore.earliestPlausibleDate to today.
            let (first, firstText) = HistoryStore.earliestPlausibleDay()
            let range = "--day takes a day from \(firstText), the first a step history can hold, to today"
            if date.timeIntervalSince1970 < first {
                throw UsageError("--day \(text!) is before \(firstText); \(range)", command: command,
                                 fix: "e.g. --day today, --day yesterday or --day \(firstText)")
            }
            if calendar.startOfDay(for: date) > now {
                throw UsageError("--day \(text!) is in the future; \(range)", command: command,
                                 fix: "e.g. --day today or --day yesterday")
            }
            return date
        }
    }
}

/// The default history file does not exist: the step service has not run here (exit 1).
struct NoHistoryError: DiagnosableError {
    var path: String
    var description: String { "no history at \(path): the step service (imu-stepd) has not recorded anything on this machine yet" }
    var exitStatus: ExitStatus { .runtimeFailure }
    var fix: String? { "start it (sudo systemctl enable --now imu-stepd), or give another history with --history FILE" }
}

/// `--history` names a file that is no IMUKit history (a recording, another program's database).
/// HistoryError's own fix is the writer's ("move it away … a new history is created there"),
/// which told a reader to rename, say, the recording it named by mistake (exit 2).
struct NotAHistoryError: DiagnosableError {
    var refused: HistoryError
    var description: String { refused.description }
    var exitStatus: ExitStatus { .usage }
    var fix: String? {
        "name imu-stepd's history with --history (it keeps it as \(DayPlot.defaultHistory)) or a copy of it; a recording is drawn with --replay FILE"
    }
}
