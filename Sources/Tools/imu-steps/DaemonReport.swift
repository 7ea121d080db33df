import FoundationEssentials
import IMUCLI
import IMUServiceClient

/// How imu-steps prints the daemon's totals: one line, a table per day, or JSON Lines.
enum DaemonReport {
    static func line(_ label: String, _ t: StepTotals) -> String {
        "\(label): \(counted(t.steps, "step")), \(km(t.distanceMeters)), floors \(t.floorsAscended) up \(t.floorsDescended) down, active \(duration(t.activeSeconds))\n"
    }

    static func table(_ rows: [StepTotals]) -> String {
        var text = pad("day", 15) + lpad("steps", 8) + lpad("distance", 11) + lpad("floors", 10) + lpad("active", 9) + "\n"
        var total = StepTotals(start: rows.first?.start ?? Date(), end: rows.last?.end ?? Date())
        for r in rows {
            text += pad(day(r.start), 15) + lpad("\(r.steps)", 8) + lpad(km(r.distanceMeters), 11)
                + lpad("\(r.floorsAscended)/\(r.floorsDescended)", 10) + lpad(duration(r.activeSeconds), 9) + "\n"
            // Counts come off the bus as any Int64: summed without trapping on overflow.
            total.steps = saturated(total.steps, r.steps); total.distanceMeters += r.distanceMeters
            total.floorsAscended = saturated(total.floorsAscended, r.floorsAscended)
            total.floorsDescended = saturated(total.floorsDescended, r.floorsDescended)
            total.activeSeconds += r.activeSeconds
        }
        text += pad("total", 15) + lpad("\(total.steps)", 8) + lpad(km(total.distanceMeters), 11)
            + lpad("\(total.floorsAscended)/\(total.floorsDescended)", 10) + lpad(duration(total.activeSeconds), 9) + "\n"
        return text
    }

    /// Warnings for totals that hold less than the user expects, from the daemon's status: a
    /// wall clock not set, a sensor lost or not read, counting paused. `--today` said
    /// "0 steps" with exit 0 and nothing more while the daemon had no sensor at all.
    static func statusWarnings(_ s: ServiceStatus) -> String {
        var text = s.clockSynchronized ? "" : unsetClockWarning(config: s.configPath)
        if s.paused {
            text += "imu-steps: warning: imu-stepd's counting is paused, so these totals hold nothing since the pause; "
                + "resume it with: busctl call \(StepServiceNames.busName) \(StepServiceNames.objectPath) \(StepServiceNames.interface) Resume\n"
        } else if ["lost", "waiting", "stopped"].contains(s.sensorState) {
            let why = s.sensorMessage.isEmpty ? "" : " (\(s.sensorMessage.escapedValue))"
            text += "imu-steps: warning: imu-stepd is not counting now: its sensor is \(s.sensorState)\(why); these totals hold what it counted before; "
                + "journalctl -u imu-stepd shows what it tries\n"
        }
        return text
    }

    /// The warning for a daemon whose wall clock is not set yet (a Raspberry Pi without RTC before
    /// NTP): what it counts is kept by boot time and is in no day's total until the clock is set,
    /// so `--today` said "0 steps" with hundreds counted. `config`: the file the daemon read.
    static func unsetClockWarning(config: String) -> String {
        let file = config.isEmpty ? "the daemon's config (usually /etc/imukit/stepd.conf)" : config.escapedOnOneLine
        return "imu-steps: warning: imu-stepd's wall clock is not synchronised yet (no NTP, no RTC): the steps it counts now are kept "
            + "by boot time and are in no day's total until the clock is set, so these totals miss them; "
            + "turn on time synchronisation (sudo timedatectl set-ntp true), or set clock = trust in \(file) if the clock is right\n"
    }

    /// `a + b`, held at Int's bounds instead of trapping.
    static func saturated(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int.max : Int.min) : sum
    }

    static func json(_ t: StepTotals, type: String) -> String {
        var line = JSONLine(type: type)
        line.add("start", iso(t.start))
        line.add("end", iso(t.end))
        line.add("steps", t.steps)
        line.add("distance_m", t.distanceMeters, decimals: 2)
        line.add("floors_ascended", t.floorsAscended)
        line.add("floors_descended", t.floorsDescended)
        line.add("active_s", t.activeSeconds, decimals: 1)
        return line.text
    }

    /// Times in the local zone (`LocalTime`: the C library's zone rules, so that the tool needs no
    /// full Foundation; docs/memory.md).
    static func iso(_ d: Date) -> String { LocalTime.iso8601(d.timeIntervalSince1970) }
    static func stamp(_ d: Date) -> String { LocalTime.stamp(d.timeIntervalSince1970) }
    static func day(_ d: Date) -> String { LocalTime.dayLabel(d.timeIntervalSince1970) }

    static func km(_ m: Double) -> String { String(cFormat: "%.2f km", m / 1000) }
    static func duration(_ s: Double) -> String {
        // From the bus: range-checked before the conversion (1e9 s is 31 years).
        let minutes = s.isFinite && abs(s) < 1e9 ? Int((s / 60).rounded()) : 0
        return "\(minutes / 60):\(String(cFormat: "%02ld", minutes % 60))"
    }
    static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
    static func lpad(_ s: String, _ n: Int) -> String { s.count >= n ? " " + s : String(repeating: " ", count: n - s.count) + s }
}
