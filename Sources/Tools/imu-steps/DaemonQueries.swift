import FoundationEssentials
import IMUCLI
import IMUHistory
import IMUServiceClient
import Pedometer

/// `imu-steps --today`, `--history 7d`, `--since TIME` (with `--json`): questions for the step
/// daemon imu-stepd over D-Bus (docs/service.md). Without the daemon they say so and exit 1.
enum DaemonQueries {
    static let options: [OptionSpec] = [
        OptionSpec("today", help: "today's totals from the step daemon imu-stepd"),
        OptionSpec("history", value: .text("Nd"), help: "one row per day for the last N days (e.g. 7d) from imu-stepd"),
        OptionSpec("since", value: .text("TIME"), help: "totals since TIME from imu-stepd: HH:MM today, YYYY-MM-DD, or YYYY-MM-DDTHH:MM"),
    ]

    /// Answers a daemon question when one was asked; nil otherwise (the live pipeline runs).
    static func run(_ args: ParsedArguments, client: StepServiceClient = StepServiceClient()) async throws -> ExitStatus? {
        try args.exclusive(["today", "history", "since"])
        let asked = ["today", "history", "since"].filter { args.flag($0) }
        guard let question = asked.first else { return nil }
        try args.exclusive([question, "source"])
        try args.exclusive([question, "replay"])
        try args.exclusive([question, "simulate"])
        let json = args.flag("json"), now = Date()
        let out = Terminal.standardOutput
        ZoneWarning.say(command: args.command)
        switch question {
        case "today":
            let day = LocalTime.day(containing: now.timeIntervalSince1970)
            let t = try await ask(client) { try await client.totals(from: Date(timeIntervalSince1970: day.start), to: now) }
            out.write(json ? DaemonReport.json(t, type: "today") + "\n" : DaemonReport.line("today", t))
        case "history":
            let days = try parseDays(args.string("history")!, command: args.command)
            let first = LocalTime.startOfDay(containing: now.timeIntervalSince1970, addingDays: -(days - 1))
            let end = LocalTime.startOfDay(containing: now.timeIntervalSince1970, addingDays: 1)
            // The tool's own days, cut here by the C library and asked for by instants: a TZ rule
            // (TZ='<+0530>-5:30', EST5EDT,M3.2.0,M11.1.0) names no zone to send, and the daemon
            // answered with its own days.
            let rows = try await ask(client) {
                try await client.days(from: Date(timeIntervalSince1970: first), to: Date(timeIntervalSince1970: end))
            }
            if json {
                for r in rows { out.write(DaemonReport.json(r, type: "day") + "\n") }
            } else {
                out.write(DaemonReport.table(rows))
            }
        default:
            let since = try parseTime(args.string("since")!, now: now, command: args.command)
            let t = try await ask(client) { try await client.totals(from: since, to: now) }
            out.write(json ? DaemonReport.json(t, type: "since") + "\n" : DaemonReport.line("since \(DaemonReport.stamp(since))", t))
        }
        out.flush()
        // Totals without the minutes held for an unset clock, or while no sensor is read, look
        // like a day without steps.
        if let status = try? await client.status() {
            let warnings = DaemonReport.statusWarnings(status)
            if !warnings.isEmpty {
                Terminal.standardError.write(warnings)
                Terminal.standardError.flush()
            }
        }
        return .success
    }

    /// Turns "no bus to connect to" into the plain sentence users need. A DBUS_SYSTEM_BUS_ADDRESS
    /// that names a bus nobody listens at was told "imu-stepd is not running", with no word of
    /// the variable that sent the question there: the message names it, its value and the fix.
    static func ask<T: Sendable>(_ client: StepServiceClient, _ work: () async throws -> T) async throws -> T {
        do { return try await work() } catch let e as BusError where e.kind == .noBus {
            guard client.bus == .system else { throw e }   // the connection's own message names that bus
            throw noBusError(client.bus)
        }
    }

    /// The error for a system bus that cannot be reached; `environment` for tests (nil: the process's).
    static func noBusError(_ bus: BusAddress, environment: [String: String]? = nil) -> BusError {
        if let value = bus.variableValue(environment: environment), let variable = bus.variable {
            return BusError(.noBus, "cannot ask the step daemon imu-stepd: no D-Bus answers at \(value.escapedValue), the bus \(variable) names",
                            fix: "correct \(variable) (the bus imu-stepd was started on), or unset it to ask the machine's system bus")
        }
        return BusError(.serviceNotRunning, "the step daemon imu-stepd is not running (no system D-Bus at \(BusAddress.defaultSystemAddress) to ask it on)",
                        fix: "start it with: sudo systemctl enable --now imu-stepd (docs/service.md); "
                            + "an imu-stepd on another bus is asked by setting DBUS_SYSTEM_BUS_ADDRESS to that bus's address")
    }

    /// "7d" or "7": 1 to 3660 days.
    static func parseDays(_ text: String, command: String) throws -> Int {
        let digits = text.hasSuffix("d") ? String(text.dropLast()) : text
        guard let n = Int(digits), (1...3660).contains(n) else {
            throw UsageError("--history needs a number of days from 1 to 3660, got '\(text.escapedValue)'", command: command,
                             fix: "write whole days, with or without d: e.g. --history 7d or --history 30 (at most 3660, ten years)")
        }
        return n
    }

    /// HH:MM (today), YYYY-MM-DD (local midnight) or YYYY-MM-DDTHH:MM[:SS] (also with a space for
    /// the T), local time; not in the future. Hours, minutes, seconds, months and days take one or
    /// two digits, years four; each must exist on the calendar (no 24:00, no February 30th).
    static func parseTime(_ text: String, now: Date, command: String) throws -> Date {
        guard let date = localTime(text, now: now) else {
            if let slip = CalendarSlip.of(text) {
                throw UsageError("--since \(text.escapedValue) names no \(text.contains(":") ? "time" : "date"): \(slip.problem)", command: command,
                                 fix: "give one that exists, e.g. --since \(slip.nearest)")
            }
            throw UsageError("--since needs HH:MM, YYYY-MM-DD or YYYY-MM-DDTHH:MM (local time); got '\(text.escapedValue)'", command: command,
                             fix: "e.g. --since 08:30 (today), --since 2026-12-01 (from midnight) or --since 2026-12-01T08:30")
        }
        // 0001-01-01 was asked of the daemon as it came (µs before 1970 on the bus), and
        // answered with totals as if that were a question about the history.
        let first = HistoryStore.earliestPlausibleDay()
        guard date < now else {
            throw UsageError("--since \(text.escapedValue) is in the future; --since takes a time from \(first.text) to now", command: command,
                             fix: "give a time that has passed: --since 00:00 counts from midnight, --since YYYY-MM-DDTHH:MM from an earlier day")
        }
        guard date.timeIntervalSince1970 >= first.start else {
            throw UsageError("--since \(text.escapedValue) is before \(first.text), the first day a step history can hold; --since takes a time from \(first.text) to now",
                             command: command, fix: "--since \(first.text) counts everything the history holds; --since 00:00 counts from midnight")
        }
        return date
    }

    /// The instant `text` names in the local zone, or nil when it is none of the accepted forms.
    static func localTime(_ text: String, now: Date) -> Date? {
        func number(_ part: Substring, digits: ClosedRange<Int>, in range: ClosedRange<Int>) -> Int? {
            guard digits.contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(part), range.contains(n) else { return nil }
            return n
        }
        func clock(_ part: Substring) -> (hour: Int, minute: Int, second: Int)? {
            let p = part.split(separator: ":", omittingEmptySubsequences: false)
            guard p.count == 2 || p.count == 3, let h = number(p[0], digits: 1...2, in: 0...23),
                  let m = number(p[1], digits: 1...2, in: 0...59) else { return nil }
            guard p.count == 3 else { return (h, m, 0) }
            guard let s = number(p[2], digits: 1...2, in: 0...59) else { return nil }
            return (h, m, s)
        }
        func day(_ part: Substring) -> (year: Int, month: Int, day: Int)? {
            let p = part.split(separator: "-", omittingEmptySubsequences: false)
            guard p.count == 3, let y = number(p[0], digits: 4...4, in: 1...9999), let m = number(p[1], digits: 1...2, in: 1...12),
                  let d = number(p[2], digits: 1...2, in: 1...LocalTime.daysIn(month: m, year: y)) else { return nil }
            return (y, m, d)
        }
        /// A time of day that exists on that day: not one skipped by a daylight-saving change.
        func existing(_ d: (year: Int, month: Int, day: Int), _ c: (hour: Int, minute: Int, second: Int)) -> Double? {
            guard let t = LocalTime.time(year: d.year, month: d.month, day: d.day, hour: c.hour, minute: c.minute, second: c.second) else { return nil }
            let f = LocalTime.fields(t)
            return [f.year, f.month, f.day, f.hour, f.minute] == [d.year, d.month, d.day, c.hour, c.minute] ? t : nil
        }
        let seconds: Double?
        if !text.contains("-") {
            // HH:MM today: seconds are not accepted here, as before.
            guard let c = clock(Substring(text)), text.split(separator: ":").count == 2 else { return nil }
            let today = LocalTime.fields(now.timeIntervalSince1970)
            seconds = existing((today.year, today.month, today.day), c)
        } else if let cut = text.firstIndex(where: { $0 == "T" || $0 == " " }) {
            guard let d = day(text[..<cut]), let c = clock(text[text.index(after: cut)...]) else { return nil }
            // A space takes HH:MM only, as before.
            if text[cut] == " " && text[text.index(after: cut)...].split(separator: ":").count != 2 { return nil }
            seconds = existing(d, c)
        } else {
            guard let d = day(Substring(text)) else { return nil }
            seconds = LocalTime.time(year: d.year, month: d.month, day: d.day)
        }
        return seconds.map { Date(timeIntervalSince1970: $0) }
    }
}
