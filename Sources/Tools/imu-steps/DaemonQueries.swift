import Foundation
import IMUCLI
import IMUServiceClient
import Pedometer

/// `imu-steps --today`, `--history 7d`, `--since TIME` (with `--json`): questions for the step
/// daemon imu-stepd over D-Bus (docs/service.md). Without the daemon they say so and exit 1.
enum DaemonQueries {
    static let options: [OptionSpec] = [
        OptionSpec("today", help: "today's totals from the step daemon imu-stepd"),
        OptionSpec("history", value: "Nd", help: "one row per day for the last N days (e.g. 7d) from imu-stepd"),
        OptionSpec("since", value: "TIME", help: "totals since TIME from imu-stepd: HH:MM today, YYYY-MM-DD, or YYYY-MM-DDTHH:MM"),
    ]

    /// Answers a daemon question when one was asked; nil otherwise (the live pipeline runs).
    static func run(_ args: ParsedArguments, client: StepServiceClient = StepServiceClient()) async throws -> ExitStatus? {
        try args.exclusive(["today", "history", "since"])
        let asked = ["today", "history", "since"].filter { args.flag($0) }
        guard let question = asked.first else { return nil }
        try args.exclusive([question, "source"])
        try args.exclusive([question, "replay"])
        try args.exclusive([question, "simulate"])
        let json = args.flag("json"), now = Date(), zone = TimeZone.current
        let out = Terminal.standardOutput
        switch question {
        case "today":
            let day = LocalDay.interval(containing: now, in: zone)
            let t = try await ask(client) { try await client.totals(from: day.start, to: now) }
            out.write(json ? DaemonReport.json(t, type: "today") + "\n" : DaemonReport.line("today", t, zone: zone))
        case "history":
            let days = try parseDays(args.string("history")!, command: args.command)
            let today = LocalDay.interval(containing: now, in: zone)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let first = calendar.date(byAdding: .day, value: -(days - 1), to: today.start) ?? today.start
            let rows = try await ask(client) { try await client.days(from: first, to: today.end, timeZone: zone) }
            if json {
                for r in rows { out.write(DaemonReport.json(r, type: "day") + "\n") }
            } else {
                out.write(DaemonReport.table(rows, zone: zone))
            }
        default:
            let since = try parseTime(args.string("since")!, now: now, zone: zone, command: args.command)
            let t = try await ask(client) { try await client.totals(from: since, to: now) }
            out.write(json ? DaemonReport.json(t, type: "since") + "\n" : DaemonReport.line("since \(DaemonReport.stamp(since, zone: zone))", t, zone: zone))
        }
        out.flush()
        return .success
    }

    /// Turns "the bus has no such name" into the plain sentence users need.
    static func ask<T: Sendable>(_ client: StepServiceClient, _ work: () async throws -> T) async throws -> T {
        do { return try await work() } catch let e as BusError where e.kind == .noBus {
            throw BusError(.serviceNotRunning, "the step daemon imu-stepd is not running (no system D-Bus to ask it on)",
                           fix: "start it with: sudo systemctl enable --now imu-stepd (docs/service.md)")
        }
    }

    /// "7d" or "7": 1 to 3660 days.
    static func parseDays(_ text: String, command: String) throws -> Int {
        let digits = text.hasSuffix("d") ? String(text.dropLast()) : text
        guard let n = Int(digits), (1...3660).contains(n) else {
            throw UsageError("--history needs a number of days from 1 to 3660, e.g. 7d; got '\(Printable.escape(text))'", command: command)
        }
        return n
    }

    /// HH:MM (today), YYYY-MM-DD (local midnight) or YYYY-MM-DDTHH:MM[:SS], local time; not in the future.
    static func parseTime(_ text: String, now: Date, zone: TimeZone, command: String) throws -> Date {
        let formats = ["HH:mm", "yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm"]
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        for format in formats {
            f.dateFormat = format
            guard let d = f.date(from: text) else { continue }
            var date = d
            if format == "HH:mm" {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                let parts = calendar.dateComponents([.hour, .minute], from: d)
                date = calendar.date(bySettingHour: parts.hour!, minute: parts.minute!, second: 0, of: now) ?? d
            }
            guard date < now else {
                throw UsageError("--since \(Printable.escape(text)) is in the future", command: command)
            }
            return date
        }
        throw UsageError("--since needs HH:MM, YYYY-MM-DD or YYYY-MM-DDTHH:MM (local time); got '\(Printable.escape(text))'", command: command)
    }
}
